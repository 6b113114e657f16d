"""The event record in the admin: to read, never to add, change or delete."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from surveillance.models import Event


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("table", "sequence", "action", "actor", "created_at")
    list_filter = ("action", "table")
    list_select_related = ("table", "actor")
    ordering = ("table", "-sequence")
    date_hierarchy = "created_at"
    show_full_result_count = False  # counting a long record on every page is slow

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
