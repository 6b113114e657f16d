"""The whole table state, served from a snapshot kept per table and event.

A screen that joins, or that sees a gap in the notices, asks for the whole state. Rebuilding it
takes a dozen queries; it changes only with the table's record. So the state is kept as JSON text
with the number of the last event it includes, and rebuilt only when the record has moved on:
one query (the snapshot and the record's head together) answers every screen in between.
"""

from __future__ import annotations

import datetime
import json

from django.db.models import OuterRef, Subquery
from django.utils import timezone

from casino.models import Event
from tablegame.models import Table, TableSnapshot
from tablegame.selectors import table_state


def table_state_text(table_id: int) -> str | None:
    """The table's whole state as JSON text (``selectors.table_state``), or None if there is no
    such table."""
    head = Event.objects.filter(chain_id=OuterRef("chain_id")).order_by("-sequence")
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(
            head=Subquery(head.values("sequence")[:1]),
            kept_sequence=Subquery(
                TableSnapshot.objects.filter(table=OuterRef("pk")).values("sequence")[:1]
            ),
            kept_state=Subquery(
                TableSnapshot.objects.filter(table=OuterRef("pk")).values("state")[:1]
            ),
            kept_until=Subquery(
                TableSnapshot.objects.filter(table=OuterRef("pk")).values("expires_at")[:1]
            ),
        )
        .select_related("pit")
        .first()
    )
    if row is None:
        return None
    head_sequence = row.head or 0
    until: datetime.datetime | None = row.kept_until
    fresh = until is None or timezone.now() < until
    if row.kept_sequence == head_sequence and row.kept_state is not None and fresh:
        kept: str = row.kept_state
        return kept
    state = table_state(row)
    text = json.dumps(state)
    # Two screens may rebuild at once, or one at an older head: whichever writes last wins, and
    # a snapshot older than the record is rebuilt on the next read, so a race costs a rebuild.
    TableSnapshot.objects.update_or_create(
        table=row,
        defaults={"sequence": state["sequence"], "state": text, "expires_at": _expires(state)},
    )
    return text


def _expires(state: dict[str, object]) -> datetime.datetime | None:
    """When the state would change with no event: the decks falling due for their change."""
    decks = state.get("deck_change")
    if isinstance(decks, dict) and decks.get("due_at") and not decks.get("due"):
        return datetime.datetime.fromisoformat(str(decks["due_at"]))
    return None
