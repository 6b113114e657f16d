"""What every action shares: refusals, access, the table lock, the record, the after-commit notice.

Every change of a table goes through an action function: ``@transaction.atomic``, keyword-only
``actor``, the table row locked first, checks that refuse with a message a dealer understands (the
transaction rolls back, so a refusal changes nothing), then the change and its event row in the
same transaction, and a notice to the screens only once it has committed.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction

from casino import access
from casino.record import record_payload
from casino.roles import Actor
from tablegame.broadcast import announce_change
from tablegame.errors import ActionError as ActionError  # every action refuses with it
from tablegame.events import TablePayload
from tablegame.models import Table


class NotAllowed(ActionError):
    """The user's role may not do this."""


def require(actor: Actor, what: str) -> None:
    """Refuse with the policy's reason unless ``actor`` may do ``what`` (``casino.access``)."""
    decision = access.decide(actor, what)
    if not decision.allowed:
        raise NotAllowed(decision.reason)


def lock_table(table: Table | int) -> Table:
    """The table row, locked until the transaction ends.

    Race: two tablets (or a double tap) acting on one table at once; the second waits here until
    the first commits, then sees its result.
    """
    pk = table.pk if isinstance(table, Table) else table
    return Table.objects.select_for_update().get(pk=pk)


def record(table: Table, actor: Actor | None, payload: TablePayload) -> int:
    """Write the event (its kind and typed payload, ``tablegame.events``) in this transaction and
    announce it after commit; returns its sequence."""
    event = record_payload(chain_id=table.chain_id, actor=actor, payload=payload)
    table_id, pit_id, sequence = table.pk, table.pit_id, event.sequence
    action = payload.kind.value
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
