"""Tables and API tokens in the admin; each change is an event of the record
(``casino.admin.RecordedAdmin``): a table's in its own chain, a token's in the casino's."""

from typing import Any

from django.contrib import admin
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from casino.admin import RecordedAdmin
from tablegame.models import Table


@admin.register(Table)
class TableAdmin(RecordedAdmin[Table]):
    list_display = ("name", "pit", "profile", "seat_count")
    list_filter = ("pit", "profile")


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class RecordedTokenAdmin(RecordedAdmin[TokenProxy], TokenAdmin):
    """API tokens: who was given or lost one is recorded, never the token (its key)."""

    def record_object_id(self, obj: Any) -> str:
        return f"token of user {obj.user_id}"
