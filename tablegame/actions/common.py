"""What every action shares: refusals, roles, the table lock, the event record, after-commit notice.

Every change of a table goes through an action function: ``@transaction.atomic``, keyword-only
``actor``, the table row locked first, checks that refuse with a message a dealer understands (the
transaction rolls back, so a refusal changes nothing), then the change and its event row in the
same transaction, and a notice to the screens only once it has committed.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction

from baccarat.errors import RulesError
from casino import roles
from casino.record import record_event
from tablegame.broadcast import announce_change
from tablegame.models import Table

SUPERVISORS = (roles.FLOORPERSON, roles.PIT_BOSS)
TABLE_STAFF = (roles.DEALER, *SUPERVISORS)


class ActionError(RulesError):
    """An action refused; ``str(error)`` is the message for the screen. Nothing was changed."""


class NotAllowed(ActionError):
    """The user's role may not do this."""


def require_role(actor: Any, allowed: Iterable[str], doing: str) -> None:
    """Refuse unless ``actor`` holds one of the ``allowed`` roles (superusers may do anything)."""
    if isinstance(actor, AnonymousUser) or not getattr(actor, "is_authenticated", False):
        raise NotAllowed("Log in first.")
    if getattr(actor, "is_superuser", False):
        return
    allowed = tuple(allowed)
    if roles.role_of(actor) not in allowed:
        who = " or ".join(roles.LABELS[r].lower() for r in allowed)
        raise NotAllowed(f"Only a {who} may {doing}.")


def lock_table(table: Table | int) -> Table:
    """The table row, locked until the transaction ends.

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then sees its result.
    """
    pk = table.pk if isinstance(table, Table) else table
    return Table.objects.select_for_update().get(pk=pk)


def record(table: Table, actor: AbstractBaseUser | None, action: str, **data: Any) -> int:
    """Write the event in this transaction and announce it after commit; returns its sequence."""
    event = record_event(chain_id=table.chain_id, actor=actor, action=action, data=data)  # type: ignore[arg-type]
    table_id, pit_id, sequence = table.pk, table.pit_id, event.sequence
    transaction.on_commit(lambda: announce_change(table_id, sequence, action, pit_id=pit_id))
    return sequence


def check_text(value: str, *, field: str, limit: int) -> str:
    """Trimmed text that fits its column, or a refusal that says how long it may be."""
    text = value.strip()
    if len(text) > limit:
        raise ActionError(f"The {field} may be at most {limit} characters.")
    return text


def plain_options(options: dict[str, Any]) -> dict[str, Any]:
    """Rule options as plain JSON for the record: numbers with a fraction become strings."""
    return {
        key: str(value) if isinstance(value, float | Decimal) else value
        for key, value in options.items()
    }
