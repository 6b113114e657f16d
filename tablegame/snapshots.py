"""The whole table state, served from a snapshot kept per table and event.

A screen that joins, or that sees a gap in the notices, asks for the whole state. Rebuilding it
takes one statement (``tablegame.play.reading``) and making its parts some CPU; it changes only
with the table's record. So the state is kept as JSON text
with the number of the last event it includes, and rebuilt only when the record has moved on:
one query (the snapshot and the record's head together) answers every screen in between.
"""

from __future__ import annotations

import datetime
import json

from django.utils import timezone

from tablegame.models import Table, TableSnapshot
from tablegame.play.parts import table_state_now
from tablegame.selectors import last_sequence_of_tables


def table_state_text(table_id: int) -> str | None:
    """The table's whole state as JSON text (``play.parts.table_state_now``), or None if there
    is no such table."""
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(head=last_sequence_of_tables())
        .select_related("snapshot")
        .first()
    )
    if row is None:
        return None
    try:
        kept: TableSnapshot | None = row.snapshot
    except TableSnapshot.DoesNotExist:
        kept = None
    if (
        kept is not None
        and kept.sequence == row.head
        and (kept.expires_at is None or timezone.now() < kept.expires_at)
    ):
        return kept.state
    state = table_state_now(table_id)
    if state is None:
        return None
    text = json.dumps(state)
    # Two screens may rebuild at once, or one at an older head: whichever writes last wins, and
    # a snapshot older than the record is rebuilt on the next read, so a race costs a rebuild.
    TableSnapshot.objects.update_or_create(
        table=row,
        defaults={"sequence": state["sequence"], "state": text, "expires_at": _expires(state)},
    )
    return text


def _expires(state: dict[str, object]) -> datetime.datetime | None:
    """When the state would change with no event: the decks falling due for their change, or
    rules filed for later taking effect (the state read then shows them, before any event)."""
    moments = []
    decks = state.get("deck_change")
    if isinstance(decks, dict) and decks.get("due_at") and not decks.get("due"):
        moments.append(datetime.datetime.fromisoformat(str(decks["due_at"])))
    rules = state.get("rules")
    if isinstance(rules, dict) and rules.get("changes_at"):
        moments.append(datetime.datetime.fromisoformat(str(rules["changes_at"])))
    return min(moments, default=None)
