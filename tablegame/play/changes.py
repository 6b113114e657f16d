"""What a command changes, as a value: its events, the rows it inserts, updates and deletes, the
figures it adds to the day's tallies; and the state in play those changes leave.

A command returns ``Changes`` and touches nothing else: the writer (``tablegame.play.writing``)
turns them into one statement, and ``applied`` makes the state after the command from the same
changes. What a command answers, and what the
screens are told, is made from that state: it cannot differ from what was written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from casino.record import Head
from fastpath.rows import Addition
from tablegame.events import TablePayload
from tablegame.models.vigorish import VigorishMarker
from tablegame.play.rows import (
    CardRow,
    DeckChangeRow,
    IrregularityRow,
    LimitRow,
    MarkerRow,
    MeterRow,
    RoundRow,
    Row,
    RulesRow,
    SeatRow,
    ShoeRow,
    StepRow,
    TableRow,
    WagerRow,
    as_stored,
    stored,
)
from tablegame.play.state import LISTS, InPlay

R = TypeVar("R", bound=Row)


@dataclass(frozen=True, slots=True)
class Update:
    """A row's new value, and the fields that changed (written as the value holds them)."""

    row: Row
    fields: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event of the table's record: who did it (None: the rules, not a person) and what."""

    actor_id: int | None
    payload: TablePayload


@dataclass(frozen=True)
class Changes:
    """Everything one command changes, in the order it happened."""

    events: tuple[Recorded, ...] = ()
    inserts: tuple[Row, ...] = ()
    """New rows, no ``id`` yet; written in this order, model by model."""
    updates: tuple[Update, ...] = ()
    """Rows changed: two updates of one row are one (the later fields over the earlier)."""
    deletes: tuple[Row, ...] = ()
    additions: tuple[Addition, ...] = ()
    """Figures added to the day's tallies."""
    referring: tuple[Callable[[Callable[[Row], int]], Row], ...] = ()
    """New rows that refer to a new row of this command (a simulated round's first card): each
    made once the writer has given the rows their keys (``writing.keyed``), from a function
    that answers a new row's key."""
    after_commit: tuple[Callable[[], None], ...] = ()
    """Notices besides the table's (a shared meter's screens), sent once committed."""
    read_again: bool = False
    """The state after it is read again after the write (commands that change more than this
    value holds: a new shoe, a table opened), not made from the changes."""

    def __add__(self, other: Changes) -> Changes:
        return Changes(
            events=self.events + other.events,
            inserts=self.inserts + other.inserts,
            updates=self.updates + other.updates,
            deletes=self.deletes + other.deletes,
            additions=self.additions + other.additions,
            referring=self.referring + other.referring,
            after_commit=self.after_commit + other.after_commit,
            read_again=self.read_again or other.read_again,
        )


NONE = Changes()


def event(actor_id: int | None, payload: TablePayload) -> Changes:
    return Changes(events=(Recorded(actor_id, payload),))


def insert(*new: Row) -> Changes:
    """New rows, as the database will keep them (``rows.stored``)."""
    return Changes(inserts=tuple(stored(row) for row in new))


def update(row: R, **values: Any) -> tuple[R, Changes]:
    """The row with ``values`` (as the database will keep them), and the change that writes
    them."""
    changed = dataclasses.replace(row, **as_stored(type(row), values))  # type: ignore[type-var]
    return changed, Changes(updates=(Update(changed, tuple(values)),))


def delete(*gone: Row) -> Changes:
    return Changes(deletes=gone)


def merged(updates: Iterable[Update]) -> list[Update]:
    """One update per row, in the order first changed, every field named: a field takes the
    value of the last update that changed it (two updates of one row never lose one another's
    fields, whichever value each was made from)."""
    by_row: dict[tuple[type[Row], int | None], Update] = {}
    for change in updates:
        key = (type(change.row), change.row.id)
        before = by_row.get(key)
        if before is None:
            by_row[key] = change
            continue
        kept = {f: getattr(before.row, f) for f in before.fields if f not in change.fields}
        row = dataclasses.replace(change.row, **kept)  # type: ignore[type-var]
        by_row[key] = Update(row, tuple(dict.fromkeys(before.fields + change.fields)))
    return list(by_row.values())


def applied(state: InPlay, changes: Changes, head: Head) -> InPlay:
    """The state in play after ``changes`` (their new rows keyed where a screen shows the key:
    ``writing.keyed``), ``head`` the table's chain's after their events."""
    current = _Current(state)
    for row in changes.inserts:
        current.insert(row)
    for change in merged(changes.updates):
        current.update(change.row)
    for row in changes.deletes:
        current.delete(row)
    lists = {n: v for n, v in current.changed.items() if n in LISTS}
    rest = {n: v for n, v in current.changed.items() if n not in LISTS}
    given = {**state.made_lists(), **lists}
    return dataclasses.replace(state, head=head, given=given, **rest)


def _last_if_new(key: int | None) -> tuple[bool, int]:
    """A row's place by key: a new row (no key yet) after the rows written before."""
    return key is None, key or 0


_ORDER: dict[type[Row], Callable[[Any], Any]] = {
    WagerRow: lambda w: (-w.seat, w.type),
    CardRow: lambda c: c.position,
    StepRow: lambda s: s.index,
    IrregularityRow: lambda i: _last_if_new(i.id),
    MarkerRow: lambda m: (-m.seat, m.marked_at, _last_if_new(m.id)),
    SeatRow: lambda s: s.number,
    LimitRow: lambda lim: _last_if_new(lim.id),
    MeterRow: lambda m: m.name,
}
#: The state's lists of the shown round's rows, by row type.
_ROUND_LISTS = {
    WagerRow: "wagers",
    CardRow: "cards",
    StepRow: "steps",
    IrregularityRow: "irregularities",
}
_TABLE_LISTS = {SeatRow: "seats", LimitRow: "limits", MeterRow: "meters", MarkerRow: "markers"}


class _Current:
    """The state's parts as the changes leave them (only those changed)."""

    def __init__(self, state: InPlay) -> None:
        self.state = state
        self.changed: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        return self.changed[name] if name in self.changed else getattr(self.state, name)

    def _put(self, name: str, rows: Iterable[Row], kind: type[Row]) -> None:
        self.changed[name] = tuple(sorted(rows, key=_ORDER[kind]))

    def insert(self, row: Row) -> None:
        kind = type(row)
        if isinstance(row, RoundRow):
            self.changed.update(
                round=row,
                round_rules=self._rules_of(row),
                wagers=(), cards=(), steps=(), irregularities=(),
                rounds_in_shoe=max(row.number, self.get("rounds_in_shoe")),
            )  # fmt: skip
        elif kind in _ROUND_LISTS:
            game = self.get("round")
            if game is not None and getattr(row, "round_id", None) == game.id:
                name = _ROUND_LISTS[kind]
                self._put(name, (*self.get(name), row), kind)
        elif isinstance(row, MarkerRow):
            if row.status == VigorishMarker.Status.OPEN:
                self._put("markers", (*self.get("markers"), row), MarkerRow)
        elif kind in _TABLE_LISTS:
            name = _TABLE_LISTS[kind]
            self._put(name, (*self.get(name), row), kind)
        elif isinstance(row, ShoeRow):
            self.changed.update(shoe=row, rounds_in_shoe=0)
        elif isinstance(row, DeckChangeRow):
            self.changed["deck_change"] = row
        elif isinstance(row, RulesRow) and row.effective_at <= self.state.read_at:
            self.changed["rules_now"] = row

    def update(self, row: Row) -> None:
        kind = type(row)
        if isinstance(row, TableRow):
            self.changed["table"] = row
        elif isinstance(row, ShoeRow):
            shoe = self.get("shoe")
            if shoe is not None and shoe.id == row.id:
                self.changed["shoe"] = row
        elif isinstance(row, RoundRow):
            game = self.get("round")
            if game is not None and game.id == row.id:
                self.changed["round"] = row
                if row.state == "settled" and not row.simulated:
                    self.changed["repeat"] = self.get("wagers")
        elif kind in _ROUND_LISTS:
            name = _ROUND_LISTS[kind]
            self._replace(name, row, kind)
            if (
                kind is WagerRow
                and "repeat" in self.changed
                and self.get("round").id == getattr(row, "round_id", None)
            ):
                self.changed["repeat"] = self.get("wagers")
        elif isinstance(row, MarkerRow):
            kept = [m for m in self.get("markers") if m.id != row.id]
            if row.status == VigorishMarker.Status.OPEN:
                kept.append(row)
            self._put("markers", kept, MarkerRow)
        elif kind in _TABLE_LISTS:
            self._replace(_TABLE_LISTS[kind], row, kind)
        elif isinstance(row, DeckChangeRow):
            self.changed["deck_change"] = row

    def delete(self, row: Row) -> None:
        kind = type(row)
        name = _ROUND_LISTS.get(kind) or _TABLE_LISTS.get(kind)
        if name is not None:
            self.changed[name] = tuple(r for r in self.get(name) if r.id != row.id)

    def _replace(self, name: str, row: Row, kind: type[Row]) -> None:
        rows = self.get(name)
        if any(r.id == row.id for r in rows):
            self._put(name, (row if r.id == row.id else r for r in rows), kind)

    def _rules_of(self, game: RoundRow) -> RulesRow | None:
        for rules in (self.get("rules_now"), self.state.round_rules):
            if rules is not None and rules.id == game.rules_id:
                return rules
        return None


__all__ = [
    "NONE",
    "Changes",
    "Recorded",
    "Update",
    "applied",
    "delete",
    "event",
    "insert",
    "merged",
    "update",
]
