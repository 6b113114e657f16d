"""Casinos and pits in the admin, and the record: to read, never to add, change or delete."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.models import Casino, Chain, Event, Pit


@admin.register(Casino)
class CasinoAdmin(admin.ModelAdmin[Casino]):
    list_display = ("name", "gaming_day_start", "time_zone")


@admin.register(Pit)
class PitAdmin(admin.ModelAdmin[Pit]):
    list_display = ("name", "casino")
    list_filter = ("casino",)


class ReadOnlyAdmin(admin.ModelAdmin[Any]):
    """Rows that nobody adds, changes or deletes by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Chain)
class ChainAdmin(ReadOnlyAdmin):
    list_display = ("label", "scope", "casino", "pit")
    list_filter = ("scope", "casino")


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ("chain", "sequence", "action", "actor", "created_at")
    list_filter = ("action", "chain__scope")
    list_select_related = ("chain", "actor")
    ordering = ("chain", "-sequence")
    date_hierarchy = "created_at"
    show_full_result_count = False  # counting a long record on every page is slow
