"""Tables and API tokens in the admin; each change is an event of the record
(``casino.admin.RecordedAdmin``): a table's in its own chain, a token's in the casino's."""

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from casino.admin import RecordedAdmin
from tablegame.api.tokens import revoke_api_token
from tablegame.models import ApiToken, Table


@admin.register(Table)
class TableAdmin(RecordedAdmin[Table]):
    list_display = ("name", "pit", "profile", "seat_count")
    list_filter = ("pit", "profile")


@admin.register(ApiToken)
class ApiTokenAdmin(RecordedAdmin[ApiToken]):
    """API tokens: listed and revoked here (issued with ``manage.py issue_token``, which shows
    the key once); who was given or lost one is recorded, never the key (only its digest is
    kept)."""

    list_display = ("prefix", "user", "label", "created_at", "expires_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("user__username", "label", "prefix")
    fields = ("user", "label", "prefix", "created_at", "expires_at", "revoked_at", "revoked_by")
    readonly_fields = ("user", "prefix", "created_at", "revoked_at", "revoked_by")
    actions = ("revoke",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a key is shown once, by ``manage.py issue_token``

    def record_object_id(self, obj: Any) -> str:
        return f"token {obj.prefix} of user {obj.user_id}"

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset.filter(revoked_at__isnull=True):
            revoke_api_token(token, actor=request.user)  # type: ignore[arg-type]
            self.log_change(request, token, "Revoked")
