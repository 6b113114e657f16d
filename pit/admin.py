"""Who supervises which pit, in the admin; each change an event of the pit's chain
(``casino.admin.RecordedAdmin``). The dealers' page does the same with the floor's actions."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from casino.admin import RecordedAdmin
from casino.models import PitSupervision


@admin.register(PitSupervision)
class PitSupervisionAdmin(RecordedAdmin[PitSupervision]):
    list_display = ("pit", "supervisor", "assigned_at", "assigned_by", "relieved_at")
    list_filter = ("pit", "relieved_at")
    search_fields = ("supervisor__username",)
    fields = ("pit", "supervisor", "assigned_at", "relieved_at", "relieved_by")

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change:
            obj.assigned_by = request.user  # the administrator gives the pit
        super().save_model(request, obj, form, change)
