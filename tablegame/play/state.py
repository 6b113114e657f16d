"""The table's state in play: everything a command on it reads, as one frozen value.

Read in one statement after the table's lock (``tablegame.play.reading``); a command is a
function of it (``Changes``, ``tablegame.play.changes``), and the state it leaves is this value
with the command's changes applied, never read again. What the screens draw (``parts``) is made
from it too, so that a command's answer and a fresh read after it are made alike.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property

from baccarat.drawing import Coup
from baccarat.profiles import PROFILES, RulesSubmission
from casino.record import Head
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
    RulesRow,
    SeatRow,
    ShoeRow,
    StepRow,
    TableRow,
    WagerRow,
    coup,
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


@dataclass(frozen=True, kw_only=True)
class InPlay:
    """One table's state in play, as read after its lock (or as a command left it)."""

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
    seats: tuple[SeatRow, ...]
    """Every seat of the table, in order."""
    limits: tuple[LimitRow, ...]
    shoe: ShoeRow | None
    """The shoe in play: the latest not finished."""
    rounds_in_shoe: int
    """How many rounds the shoe has had (its last round's number)."""
    round: RoundRow | None
    """The round shown: the one in play, else the shoe's last."""
    round_rules: RulesRow | None
    """The shown round's Rules Submission record."""
    wagers: tuple[WagerRow, ...] = ()
    """The shown round's wagers, in the models' order (seat descending, then type)."""
    cards: tuple[CardRow, ...] = ()
    """Its cards, in dealing order."""
    steps: tuple[StepRow, ...] = ()
    """Its settlement steps, in order."""
    irregularities: tuple[IrregularityRow, ...] = ()
    markers: tuple[MarkerRow, ...] = ()
    """The table's open vigorish markers, seat descending."""
    deck_change: DeckChangeRow | None = None
    meters: tuple[MeterRow, ...] = ()
    """The table's Royal 9 meters, by name."""
    assignments: tuple[Assignment, ...] = ()
    banked: Banked | None = None
    repeat: tuple[WagerRow, ...] = ()
    """The wagers of the table's last settled round (simulated rounds aside): "repeat"."""

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
