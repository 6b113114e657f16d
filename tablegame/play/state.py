"""The table's state in play: everything a command on it reads, as one frozen value.

Read in one statement after the table's lock (``tablegame.play.reading``); a command is a
function of it (``Changes``, ``tablegame.play.changes``), and the state it leaves is this value
with the command's changes applied, never read again. What the screens draw (``parts``) is made
from it too, so that a command's answer and a fresh read after it are made alike.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import Any

from baccarat.drawing import Coup
from baccarat.profiles import PROFILES, RulesSubmission
from casino.record import Head
from fastpath import rows
from tablegame.models.rounds import ACTIVE_ROUND_STATES
from tablegame.play.rows import (
    CardRow,
    CasinoRow,
    DeckChangeRow,
    IrregularityRow,
    LimitRow,
    MarkerRow,
    MeterRow,
    PitRow,
    RoundRow,
    Row,
    RulesRow,
    SeatRow,
    ShoeRow,
    StepRow,
    TableRow,
    WagerRow,
    coup,
    from_json,
)


@dataclass(frozen=True, slots=True)
class Assignment:
    """A dealer assignment in force that concerns the command: its user's, or this table's."""

    dealer_id: int
    table_id: int
    table_name: str
    username: str


@dataclass(frozen=True, slots=True)
class Banked:
    """California, between rounds: the round the player-dealer banked last (settled or void,
    whatever its shoe), with its steps; what its bank carries from."""

    game: RoundRow
    steps: tuple[StepRow, ...]
    shoe: int
    """The number of its shoe."""
    same_player: bool
    """Whoever sits at its player-dealer seat sat there when it opened."""


#: The state's lists, each read as JSON text and made into rows when first asked for (a tap
#: reads them all in its one statement, and most taps look at few of them).
LISTS = (
    "seats", "limits", "wagers", "cards", "steps", "irregularities", "markers", "deck_change",
    "meters", "assignments", "banked", "repeat",
)  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class InPlay:
    """One table's state in play, as read after its lock (or as a command left it).

    Its rows are never changed; its lists (``LISTS``) are made from the text read (``texts``)
    when first asked for, or were given by the command that left this state (``given``)."""

    casino: CasinoRow
    pit: PitRow
    table: TableRow
    head: Head
    """The table's chain: its last event's number and hash."""
    head_at: datetime.datetime | None
    """When the table's last event was recorded (None: none yet)."""
    read_at: datetime.datetime
    """When the state was read: the rules in force then."""
    rules_now: RulesRow | None
    """The Rules Submission record in force now (None: none filed)."""
    rules_next_at: datetime.datetime | None
    """When rules filed for later next take effect."""
    shoe: ShoeRow | None
    """The shoe in play: the latest not finished."""
    rounds_in_shoe: int
    """How many rounds the shoe has had (its last round's number)."""
    round: RoundRow | None
    """The round shown: the one in play, else the shoe's last to end (a round settled after
    the simulated round that interrupted it, numbered before it, is shown)."""
    round_rules: RulesRow | None
    """The shown round's Rules Submission record."""
    must_hit_id: int | None = None
    shoes_dealt: int = 0
    """How many shoes the table has had (its last shoe's number, finished or not)."""
    """The must-hit meter the table feeds, if any (locked only by a settlement that feeds it:
    ``play.progressives.lock_must_hit``)."""
    texts: Mapping[str, str] = field(default_factory=dict, repr=False)
    """The lists as read, JSON text by name (``reading``)."""
    given: Mapping[str, Any] = field(default_factory=dict, repr=False)
    """Lists as a command left them, by name (``changes.applied``)."""

    def _list(self, name: str) -> Any:
        if name in self.given:
            return self.given[name]
        text = self.texts.get(name)
        return _EMPTY[name] if text is None else _MAKE[name](text)

    @cached_property
    def seats(self) -> tuple[SeatRow, ...]:
        """Every seat of the table, in order."""
        found: tuple[SeatRow, ...] = self._list("seats")
        return found

    @cached_property
    def limits(self) -> tuple[LimitRow, ...]:
        found: tuple[LimitRow, ...] = self._list("limits")
        return found

    @cached_property
    def wagers(self) -> tuple[WagerRow, ...]:
        """The shown round's wagers, in the models' order (seat descending, then type)."""
        found: tuple[WagerRow, ...] = self._list("wagers")
        return found

    @cached_property
    def cards(self) -> tuple[CardRow, ...]:
        """Its cards, in dealing order."""
        found: tuple[CardRow, ...] = self._list("cards")
        return found

    @cached_property
    def steps(self) -> tuple[StepRow, ...]:
        """Its settlement steps, in order."""
        found: tuple[StepRow, ...] = self._list("steps")
        return found

    @cached_property
    def irregularities(self) -> tuple[IrregularityRow, ...]:
        found: tuple[IrregularityRow, ...] = self._list("irregularities")
        return found

    @cached_property
    def markers(self) -> tuple[MarkerRow, ...]:
        """The table's open vigorish markers, seat descending."""
        found: tuple[MarkerRow, ...] = self._list("markers")
        return found

    @cached_property
    def deck_change(self) -> DeckChangeRow | None:
        found: DeckChangeRow | None = self._list("deck_change")
        return found

    @cached_property
    def meters(self) -> tuple[MeterRow, ...]:
        """The table's Royal 9 meters, by name."""
        found: tuple[MeterRow, ...] = self._list("meters")
        return found

    @cached_property
    def assignments(self) -> tuple[Assignment, ...]:
        found: tuple[Assignment, ...] = self._list("assignments")
        return found

    @cached_property
    def banked(self) -> Banked | None:
        found: Banked | None = self._list("banked")
        return found

    @cached_property
    def repeat(self) -> tuple[WagerRow, ...]:
        """The wagers of the table's last settled round (simulated rounds aside): "repeat"."""
        found: tuple[WagerRow, ...] = self._list("repeat")
        return found

    def made_lists(self) -> dict[str, Any]:
        """The lists made so far (or given): a state after this one keeps them."""
        return {**self.given, **{n: self.__dict__[n] for n in LISTS if n in self.__dict__}}

    # What the rules ask of it.

    @property
    def in_play(self) -> RoundRow | None:
        """The round in play (taking wagers, dealing, House Money, waiting to be settled)."""
        game = self.round
        return game if game is not None and game.state in ACTIVE_ROUND_STATES else None

    @property
    def rules(self) -> RulesSubmission:
        """The Rules Submission the table is dealt under now (``Table.rules``)."""
        return self.rules_now.submission if self.rules_now else PROFILES[self.table.profile]

    @property
    def dealt_under(self) -> RulesSubmission:
        """The rules the round in play is dealt under, else those a new round would be (the
        tablet's helps follow them)."""
        if self.in_play is not None and self.round_rules is not None:
            return self.round_rules.submission
        return self.rules

    @property
    def round_submission(self) -> RulesSubmission:
        """The shown round's rules (its record), else the table's now."""
        return self.round_rules.submission if self.round_rules else self.rules

    @cached_property
    def occupied(self) -> tuple[int, ...]:
        """Numbers of the occupied seats, in order."""
        return tuple(s.number for s in self.seats if s.is_occupied)

    def seat(self, number: int) -> SeatRow | None:
        return next((s for s in self.seats if s.number == number), None)

    def limit(self, wager_type: str) -> LimitRow | None:
        return next((lim for lim in self.limits if lim.wager_type == wager_type), None)

    def coup(self, cards: Iterable[CardRow] | None = None) -> Coup:
        """The shown round's coup: the two hands' cards so far."""
        return coup(tuple(self.cards if cards is None else cards))

    def meter_amounts(self) -> dict[str, Decimal]:
        return {m.name: m.amount for m in self.meters}


def _rows(row_type: type[Row]) -> Callable[[str], tuple[Row, ...]]:
    return lambda text: tuple(from_json(row_type, data) for data in rows.decoded(text))


def _deck_change(text: str) -> DeckChangeRow | None:
    found = tuple(from_json(DeckChangeRow, data) for data in rows.decoded(text))
    return found[0] if found else None


def _banked(text: str) -> Banked | None:
    found = rows.decoded(text)
    if found is None:
        return None
    game, steps, shoe, same_player = found
    made = tuple(from_json(StepRow, data) for data in steps)
    return Banked(from_json(RoundRow, game), made, shoe, bool(same_player))


_MAKE: dict[str, Callable[[str], Any]] = {
    "seats": _rows(SeatRow),
    "limits": _rows(LimitRow),
    "wagers": _rows(WagerRow),
    "cards": _rows(CardRow),
    "steps": _rows(StepRow),
    "irregularities": _rows(IrregularityRow),
    "markers": _rows(MarkerRow),
    "deck_change": _deck_change,
    "meters": _rows(MeterRow),
    "assignments": lambda text: tuple(Assignment(*a) for a in rows.decoded(text)),
    "banked": _banked,
    "repeat": _rows(WagerRow),
}
_EMPTY: dict[str, Any] = {name: () for name in LISTS} | {"deck_change": None, "banked": None}
