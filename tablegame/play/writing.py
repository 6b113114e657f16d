"""The one writer: a command's changes, its events and its record, in one statement.

A command's writing has three steps, so that its answer, made from the state its changes leave,
can be stored with its record in the same statement as the changes:

- ``keyed``: the new rows whose keys a screen is shown (a round, a vigorish marker: ``KEYED``)
  are given their keys first, from the table's sequence (one statement, only for a command that
  makes such a row);
- ``chained``: the events, numbered and hashed after the head the command read;
- ``write``: the rows deleted, the rows updated (one ``UPDATE`` per row, its changes merged;
  rows of one model with the same fields changed in one statement), the figures added to the
  day's tallies (``INSERT ... ON CONFLICT``), the new rows model by model, the events and the
  command's record. On PostgreSQL one statement (``WITH``), one round trip; on SQLite one after
  the other, in the command's transaction.

Nothing else writes a table's state in play.
"""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence

from django.db import models

from casino.models import Event
from casino.record import Head, next_event
from fastpath import rows
from tablegame.play.changes import Changes, merged
from tablegame.play.rows import MarkerRow, RoundRow, Row, stored

#: The rows whose keys a screen is shown: given before the write (``keyed``).
KEYED: tuple[type[Row], ...] = (RoundRow, MarkerRow)


def keyed(changes: Changes) -> Changes:
    """``changes`` with each new row of a ``KEYED`` type given its key (one statement, only
    when there is such a row), and the rows that refer to one made (``Changes.referring``)."""
    wanted = [row for row in changes.inserts if isinstance(row, KEYED) and row.id is None]
    if not wanted:
        assert not changes.referring, "a row refers to a new row of a type keyed first"
        return changes
    counts: dict[type[models.Model], int] = {}
    for row in wanted:
        counts[row.MODEL] = counts.get(row.MODEL, 0) + 1
    given = dict(zip(counts, rows.next_keys(counts), strict=True))
    made: dict[int, Row] = {}
    for row in wanted:
        made[id(row)] = dataclasses.replace(row, id=given[row.MODEL].pop(0))  # type: ignore[type-var]

    def key_of(row: Row) -> int:
        """The key given to ``row`` (the new row as made, or as kept: ``rows.stored``)."""
        found = made.get(id(row))
        if found is None:
            kept = stored(row)
            found = next(made[id(w)] for w in wanted if w == kept)
        return found.key

    inserts = tuple(made.get(id(row), row) for row in changes.inserts)
    referring = tuple(make(key_of) for make in changes.referring)
    return dataclasses.replace(changes, inserts=inserts + referring, referring=())


def chained(changes: Changes, *, chain_id: int, head: Head, at: datetime.datetime) -> list[Event]:
    """The command's events, numbered and hashed after ``head``."""
    made: list[Event] = []
    for recorded in changes.events:
        made.append(
            next_event(
                chain_id=chain_id,
                actor_id=recorded.actor_id,
                payload=recorded.payload,
                head=head,
                at=at,
            )
        )
        head = Head(made[-1].sequence, made[-1].hash)
    return made


def head_after(events: Sequence[Event], head: Head) -> Head:
    return Head(events[-1].sequence, events[-1].hash) if events else head


def write(changes: Changes, events: Sequence[Event], record: models.Model | None = None) -> None:
    """Write ``changes`` (keyed), their ``events`` (chained) and the command's ``record``."""
    statements: list[rows.Statement] = []
    for model, gone in _by_model(changes.deletes):
        statements.append(rows.delete_rows_statement(model, [g.id for g in gone if g.id]))
    for (model, names), changed in _grouped_updates(changes):
        statements += rows.update_rows_statements(model, changed, names)
    statements += rows.upsert_add_statements(*changes.additions)
    for model, new in _by_model(changes.inserts):
        statements.append(rows.insert_rows_statement(model, new, keyed=new[0].id is not None))
    if events:
        statements.append(rows.insert_rows_statement(Event, events))
    if record is not None:
        statements.append(rows.insert_rows_statement(type(record), [record]))
    rows.run_all(statements)


def _by_model(found: Sequence[Row]) -> list[tuple[type[models.Model], list[Row]]]:
    """Rows grouped by model (and whether keyed), the models in the order first met, the rows
    in theirs."""
    groups: dict[tuple[type[models.Model], bool], list[Row]] = {}
    for row in found:
        groups.setdefault((row.MODEL, row.id is not None), []).append(row)
    return [(model, group) for (model, _), group in groups.items()]


def _grouped_updates(
    changes: Changes,
) -> list[tuple[tuple[type[models.Model], tuple[str, ...]], list[Row]]]:
    """The updates merged per row, grouped by model and fields changed."""
    groups: dict[tuple[type[models.Model], tuple[str, ...]], list[Row]] = {}
    for update in merged(changes.updates):
        groups.setdefault((update.row.MODEL, tuple(sorted(update.fields))), []).append(update.row)
    return list(groups.items())
