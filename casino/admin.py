"""Casinos, pits and staff in the admin, each change an event of the record; and the record
itself: to read, never to add, change or delete.

:class:`RecordedAdmin` records every addition, change and deletion made through the admin as an
``AdminChange`` event (old and new values) in the object's chain, in the same transaction: the
table's chain for a table or anything with a ``table`` (found through ``chain_id`` and
``table.chain_id``, so this base app never imports ``tablegame``), the pit's for a pit or anything
with a ``pit``, the casino's for a casino or anything with a ``casino``, and the deployment's
casino's otherwise (users, groups). A model can name another owner with a
``record_chain_owner()`` method. A deleted pit is recorded in its casino's chain (its own would
stop its deletion); a casino is never deleted through the admin.
"""

from __future__ import annotations

import datetime
import logging
import uuid
from decimal import Decimal
from typing import Any, TypeVar

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.db import models, transaction
from django.forms import ModelForm
from django.http import HttpRequest, HttpResponse

from casino.events import AdminChange
from casino.models import Casino, Chain, Event, Pit
from casino.record import deployment_casino, record_casino_event, record_payload, record_pit_event
from casino.signin import AdminSignInForm

logger = logging.getLogger(__name__)
_M = TypeVar("_M", bound=models.Model)

#: What the record says instead of a secret's value (a password hash, a token).
HIDDEN = "(not recorded)"


def chain_owner(obj: models.Model, *, deleting: bool = False) -> models.Model | None:
    """The row whose chain records an admin change to ``obj``: a table (anything with a
    ``chain_id``), a pit or a casino; None when there is no casino yet."""
    hook = getattr(obj, "record_chain_owner", None)
    if callable(hook):
        owner: models.Model | None = hook()
        return owner
    if isinstance(obj, Casino):
        return obj
    if isinstance(obj, Pit):
        return obj.casino if deleting else obj
    if getattr(obj, "chain_id", None) is not None:
        return obj
    table = getattr(obj, "table", None)
    if isinstance(table, models.Model) and getattr(table, "chain_id", None) is not None:
        return table
    pit = getattr(obj, "pit", None)
    if isinstance(pit, Pit):
        return pit
    casino = getattr(obj, "casino", None)
    if isinstance(casino, Casino):
        return casino
    return deployment_casino()


def record_admin_change(
    obj: models.Model,
    *,
    actor: User | None,
    change: str,
    fields: dict[str, list[Any]],
    object_id: str | None = None,
) -> Event | None:
    """Append an ``AdminChange`` for ``obj`` to its chain (:func:`chain_owner`), locking the
    chain's owner; None (and a warning in the log) when there is no casino to record it in."""
    payload = AdminChange(
        model=obj._meta.label_lower,
        object_id=str(obj.pk) if object_id is None else object_id,
        change=change,
        fields=fields,
    )
    owner = chain_owner(obj, deleting=change == "deleted")
    if owner is None:
        logger.warning("No casino yet: %s not recorded", payload.describe())
        return None
    if isinstance(owner, Casino):
        return record_casino_event(owner, actor=actor, payload=payload)
    if isinstance(owner, Pit):
        return record_pit_event(owner, actor=actor, payload=payload)
    with transaction.atomic():
        locked = type(owner)._default_manager.select_for_update().get(pk=owner.pk)
        # The owner's chain id (a table's chain, without naming tablegame's model).
        chain_id = locked.serializable_value("chain")
        return record_payload(chain_id=chain_id, actor=actor, payload=payload)


class RecordedAdmin(admin.ModelAdmin[_M]):
    """A ModelAdmin whose additions, changes and deletions are events of the record.

    Hooks the admin's own bookkeeping (``log_addition``, ``log_change``), which every saving path
    calls after saving, and ``delete_model`` / ``delete_queryset`` (the delete page and the
    "delete selected" action), all inside the admin's transaction.
    """

    #: Fields whose values the record must not hold (a password hash): shown as changed only.
    record_hidden_fields: tuple[str, ...] = ()

    def record_object_id(self, obj: Any) -> str:
        """How the record names the object: its primary key, unless that is a secret."""
        return str(obj.pk)

    def record_values(self, obj: Any) -> dict[str, Any]:
        """The object's fields as plain JSON (a foreign key as its id, many-to-many as a sorted
        list of ids), secrets hidden."""
        values: dict[str, Any] = {}
        for field in obj._meta.concrete_fields:
            if field.primary_key:
                continue
            values[field.name] = _plain(field.value_from_object(obj))
        if obj.pk is not None:
            for field in obj._meta.many_to_many:
                related = getattr(obj, field.name).order_by("pk").values_list("pk", flat=True)
                values[field.name] = [_plain(pk) for pk in related]
        return values

    def save_model(
        self, request: HttpRequest, obj: Any, form: ModelForm[Any], change: bool
    ) -> None:
        if change:
            self._remember_before(request, obj)
        super().save_model(request, obj, form, change)

    def log_addition(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        logged = super().log_addition(request, obj, message)
        fields = {
            name: [None, self._shown(name, value)]
            for name, value in self.record_values(obj).items()
            if value not in (None, "", [])
        }
        self._record(request, obj, "added", fields)
        return logged

    def log_change(self, request: HttpRequest, obj: Any, message: Any) -> Any:
        logged = super().log_change(request, obj, message)
        before = getattr(request, "_recorded_before", {}).pop(self._key(obj), None)
        after = self.record_values(obj)
        if before is None:
            fields: dict[str, list[Any]] = {}
        else:
            fields = {
                name: [self._shown(name, before.get(name)), self._shown(name, value)]
                for name, value in after.items()
                if before.get(name) != value
            }
            if not fields:
                return logged  # saved unchanged: nothing happened
        self._record(request, obj, "changed", fields)
        return logged

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with transaction.atomic():
            self._record_deletion(request, obj)
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: models.QuerySet[_M]) -> None:
        with transaction.atomic():
            for obj in queryset:
                self._record_deletion(request, obj)
            super().delete_queryset(request, queryset)

    def _record_deletion(self, request: HttpRequest, obj: Any) -> None:
        fields = {
            name: [self._shown(name, value), None]
            for name, value in self.record_values(obj).items()
            if value not in (None, "", [])
        }
        self._record(request, obj, "deleted", fields)

    def _remember_before(self, request: HttpRequest, obj: Any) -> None:
        """The object as stored, before the form's values are saved over it."""
        stored = type(obj)._default_manager.filter(pk=obj.pk).first()
        if stored is not None:
            remembered = request.__dict__.setdefault("_recorded_before", {})
            remembered[self._key(obj)] = self.record_values(stored)

    def _key(self, obj: Any) -> tuple[str, str]:
        return (obj._meta.label_lower, str(obj.pk))

    def _shown(self, name: str, value: Any) -> Any:
        return HIDDEN if name in self.record_hidden_fields and value is not None else value

    def _record(
        self, request: HttpRequest, obj: Any, change: str, fields: dict[str, list[Any]]
    ) -> None:
        actor = request.user if isinstance(request.user, User) else None
        record_admin_change(
            obj,
            actor=actor,
            change=change,
            fields=fields,
            object_id=self.record_object_id(obj),
        )


def _plain(value: Any) -> Any:
    """A field's value as plain JSON for the record (no floats, no Decimals, no dates)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Decimal | float | uuid.UUID):
        return str(value)
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return str(value.total_seconds())
    if isinstance(value, list | tuple | set):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    return str(value)


@admin.register(Casino)
class CasinoAdmin(RecordedAdmin[Casino]):
    list_display = ("name", "gaming_day_start", "time_zone")

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # its chain, and so the record of its deletion, would have to go with it


@admin.register(Pit)
class PitAdmin(RecordedAdmin[Pit]):
    list_display = ("name", "casino")
    list_filter = ("casino",)


# The admin's sign-in refuses a locked-out username too (casino.signin).
admin.site.login_form = AdminSignInForm

admin.site.unregister(User)
admin.site.unregister(Group)


@admin.register(User)
class RecordedUserAdmin(RecordedAdmin[User], UserAdmin[User]):
    """Staff accounts: every change, a new password included (but not its hash), recorded in the
    casino's chain."""

    record_hidden_fields = ("password",)

    def user_change_password(
        self, request: HttpRequest, id: str, form_url: str = ""
    ) -> HttpResponse:
        with transaction.atomic():
            if request.method == "POST":
                user = self.get_object(request, unquote(id))
                if user is not None:
                    self._remember_before(request, user)
            return super().user_change_password(request, id, form_url)


@admin.register(Group)
class RecordedGroupAdmin(RecordedAdmin[Group], GroupAdmin):
    """Roles (Django groups) and their permissions, recorded in the casino's chain."""


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
