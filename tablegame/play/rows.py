"""The rows a command reads and writes, as frozen values: each a model's columns, by attribute name.

A row read is made from its columns as the statement read them (``made``), converted as the ORM
converts them; a row changed is a new value (``dataclasses.replace``), never the old one altered;
a new row has no ``id`` until the writer has inserted it. ``tests/play/test_rows.py`` checks that
each row type has its model's columns, no more, no fewer, so that a migration cannot leave one
behind.
"""

from __future__ import annotations

import dataclasses
import datetime
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal
from functools import cache, cached_property
from typing import Any, ClassVar, TypeVar

from django.db import models

from baccarat.cards import Card as EngineCard
from baccarat.cards import parse_cards
from baccarat.composition import RANKS, Composition
from baccarat.drawing import Coup
from baccarat.profiles import RulesSubmission, rules_submission
from casino.models import Casino, Pit
from fastpath import rows as sql_rows
from tablegame.models import (
    Card,
    DealerAssignment,
    DeckChange,
    Irregularity,
    ProcedureNotice,
    ProgressiveMeter,
    Round,
    Seat,
    SettlementStep,
    Shoe,
    Table,
    TableLimit,
    TableRules,
    VigorishMarker,
    Wager,
)
from tablegame.models.tables import seat_data, who_sits
from tablegame.progressives.models import MustHitProgressive, MustHitWin, ProgressiveEntry

ZERO = Decimal("0.00")
R = TypeVar("R", bound="Row")


class Row:
    """A model's row as a frozen value (``MODEL``: the model whose columns it holds)."""

    __slots__ = ()
    MODEL: ClassVar[type[models.Model]]
    id: int | None

    @property
    def pk(self) -> int | None:
        """The key, as a model instance names it."""
        return self.id

    @property
    def key(self) -> int:
        """The key of a row written already (a new row has none until the writer's)."""
        assert self.id is not None, f"a new {type(self).__name__} has no key yet"
        return self.id


def made(row_type: type[R], values: Sequence[Any]) -> R | None:
    """The row from its columns as read in the model's order (``fastpath.rows.columns``),
    converted as the ORM converts them; None when an outer join found none."""
    if values[0] is None:
        return None
    converted = sql_rows.converted_row(row_type.MODEL, values)
    return row_type(**dict(zip(_names(row_type), converted, strict=True)))


def from_json(row_type: type[R], data: Mapping[str, Any]) -> R:
    """The row from the JSON object of its columns (``fastpath.rows.json_rows``)."""
    values = sql_rows.json_values(row_type.MODEL, data)
    return row_type(**dict(zip(_names(row_type), values, strict=True)))


def from_model(row_type: type[R], instance: models.Model) -> R:
    """The row of a model instance (one the ORM read or made)."""
    return row_type(**{name: getattr(instance, name) for name in _names(row_type)})


def _names(row_type: type[Row]) -> tuple[str, ...]:
    return _attnames(row_type.MODEL)


@cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in sql_rows.fields(model))


@dataclass(frozen=True, slots=True, kw_only=True)
class CasinoRow(Row):
    MODEL: ClassVar[type[models.Model]] = Casino
    id: int | None = None
    name: str
    gaming_day_start: datetime.time
    time_zone: str

    def gaming_day(self, at: datetime.datetime) -> datetime.date:
        """The gaming day ``at`` belongs to (``Casino.gaming_day``)."""
        local = at.astimezone(zoneinfo.ZoneInfo(self.time_zone))
        day = local.date()
        return day - datetime.timedelta(days=1) if local.time() < self.gaming_day_start else day


@dataclass(frozen=True, slots=True, kw_only=True)
class PitRow(Row):
    MODEL: ClassVar[type[models.Model]] = Pit
    id: int | None = None
    casino_id: int
    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableRow(Row):
    MODEL: ClassVar[type[models.Model]] = Table
    id: int | None = None
    pit_id: int
    chain_id: int
    name: str
    profile: str
    seat_count: int
    status: str
    status_changed_at: datetime.datetime | None = None
    curator_seat: int | None = None
    previous_curator_seat: int | None = None
    player_dealer_seat: int | None = None
    previous_player_dealer_seat: int | None = None
    player_dealer_hands: int = 0


@dataclass(frozen=True, kw_only=True)
class RulesRow(Row):
    """A Rules Submission filed for the table (not slotted: its submission is kept once made)."""

    MODEL: ClassVar[type[models.Model]] = TableRules
    id: int | None = None
    table_id: int
    profile: str
    options: Mapping[str, Any] = field(default_factory=dict)
    changes: Mapping[str, Any] = field(default_factory=dict)
    whole: bool = True
    effective_at: datetime.datetime
    filed_by_id: int | None = None
    filed_at: datetime.datetime

    @cached_property
    def submission(self) -> RulesSubmission:
        """The engine's Rules Submission (``TableRules.submission``)."""
        return rules_submission(self.profile, dict(self.options))


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitRow(Row):
    MODEL: ClassVar[type[models.Model]] = TableLimit
    id: int | None = None
    table_id: int
    wager_type: str
    minimum: Decimal
    maximum: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatRow(Row):
    MODEL: ClassVar[type[models.Model]] = Seat
    id: int | None = None
    table_id: int
    number: int
    player_name: str = ""
    player_card: str = ""
    occupied_since: datetime.datetime | None = None

    @property
    def is_occupied(self) -> bool:
        return bool(self.player_name or self.player_card)

    @property
    def who(self) -> str:
        """Who sits here, as a sentence names them (``Seat.who``)."""
        return who_sits(self.player_name, self.player_card)

    def as_data(self) -> dict[str, Any]:
        """The seat as the table state has it (``Seat.as_data``)."""
        return seat_data(self.number, self.player_name, self.player_card)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeRow(Row):
    MODEL: ClassVar[type[models.Model]] = Shoe
    id: int | None = None
    table_id: int
    number: int
    state: str = Shoe.State.RECEIVED
    decks: int
    automatic_shuffler: bool = False
    batch: int | None = None
    back_colour: str = ""
    preinspected: bool = False
    inspected_by_id: int | None = None
    verified_by_id: int | None = None
    shuffle: Sequence[str] = ()
    shuffle_verified_by_id: int | None = None
    cut_by_seat: int | None = None
    cut_declined: Sequence[int] = ()
    cut_position: int | None = None
    cover_from_back: int | None = None
    recuts: int = 0
    first_card: str = ""
    burned: int = 0
    remaining: Mapping[str, int] = field(default_factory=dict)
    held_card: str = ""
    cut_card_round: int | None = None
    received_at: datetime.datetime
    started_at: datetime.datetime | None = None
    finished_at: datetime.datetime | None = None

    @property
    def cards_left(self) -> int:
        return sum(self.remaining.values())

    @property
    def physical_cards_left(self) -> int:
        """Cards still physically in the shoe (``Shoe.physical_cards_left``)."""
        return self.cards_left - self.burned

    @property
    def state_label(self) -> str:
        return str(Shoe.State(self.state).label)

    def composition(self) -> Composition:
        """What is left, by rank (``Shoe.composition``)."""
        by_rank = [0] * RANKS
        for code, count in self.remaining.items():
            by_rank[EngineCard.parse(code).rank] += count
        return Composition(tuple(by_rank))


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckChangeRow(Row):
    MODEL: ClassVar[type[models.Model]] = DeckChange
    id: int | None = None
    table_id: int
    every_shoe: bool
    changed_at: datetime.datetime
    due_at: datetime.datetime | None = None
    decks: int | None = None
    automatic_shuffler: bool = False

    def is_due(self, now: datetime.datetime) -> bool:
        return self.due_at is not None and now >= self.due_at


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundRow(Row):
    MODEL: ClassVar[type[models.Model]] = Round
    id: int | None = None
    table_id: int
    shoe_id: int
    number: int
    state: str = Round.State.BETTING
    simulated: bool = False
    rules_id: int
    opened_at: datetime.datetime
    no_more_bets_at: datetime.datetime | None = None
    completed_at: datetime.datetime | None = None
    settled_at: datetime.datetime | None = None
    player_total: int | None = None
    banker_total: int | None = None
    winner: str = ""
    tags: Sequence[str] = ()
    announcement: str = ""
    player_turner: int | None = None
    banker_turner: int | None = None
    turn_declined: Mapping[str, Sequence[int]] = field(default_factory=dict)
    curator_seat: int | None = None
    player_dealer_seat: int | None = None
    player_dealer_bank: Decimal | None = None
    void_reason: str = ""

    @property
    def state_label(self) -> str:
        return str(Round.State(self.state).label)


@dataclass(frozen=True, slots=True, kw_only=True)
class WagerRow(Row):
    MODEL: ClassVar[type[models.Model]] = Wager
    id: int | None = None
    round_id: int
    seat: int
    type: str
    amount: Decimal
    ride: str = ""
    placed_by_id: int | None = None
    placed_at: datetime.datetime
    result: str = ""
    payout: Decimal = ZERO
    vigorish: Decimal = ZERO
    returned: Decimal = ZERO
    ridden: Decimal = ZERO
    fee: Decimal = ZERO
    award: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardRow(Row):
    MODEL: ClassVar[type[models.Model]] = Card
    id: int | None = None
    round_id: int
    position: int
    code: str
    hand: str
    dealt_by_id: int | None = None
    dealt_at: datetime.datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class StepRow(Row):
    MODEL: ClassVar[type[models.Model]] = SettlementStep
    id: int | None = None
    round_id: int
    index: int
    phase: str
    action: str
    seat: int
    wager_type: str = ""
    amount: Decimal


@dataclass(frozen=True, slots=True, kw_only=True)
class IrregularityRow(Row):
    MODEL: ClassVar[type[models.Model]] = Irregularity
    id: int | None = None
    round_id: int
    kind: str
    card: str = ""
    disclosed: bool = False
    disposition: str
    extra_burn: int = 0
    instruction: str
    reported_by_id: int | None = None
    reported_at: datetime.datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkerRow(Row):
    MODEL: ClassVar[type[models.Model]] = VigorishMarker
    id: int | None = None
    table_id: int
    shoe_id: int
    round_id: int
    seat: int
    player_name: str = ""
    amount: Decimal
    status: str = VigorishMarker.Status.OPEN
    marked_at: datetime.datetime
    resolved_at: datetime.datetime | None = None
    resolved_by_id: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class MeterRow(Row):
    MODEL: ClassVar[type[models.Model]] = ProgressiveMeter
    id: int | None = None
    table_id: int
    name: str
    amount: Decimal
    updated_at: datetime.datetime
    reseed: Decimal
    contribution: Decimal
    hits: int = 0
    live: bool = False
    next_reseed: Decimal | None = None
    next_contribution: Decimal | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class MustHitRow(Row):
    MODEL: ClassVar[type[models.Model]] = MustHitProgressive
    id: int | None = None
    pit_id: int
    name: str
    configuration: int
    reset: Decimal
    maximum: Decimal
    increment_rate: Decimal
    amount: Decimal
    hit_value: Decimal
    hit_nonce: str
    hits: int = 0
    live: bool = False
    next_configuration: int | None = None
    created_at: datetime.datetime
    updated_at: datetime.datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class MustHitWinRow(Row):
    MODEL: ClassVar[type[models.Model]] = MustHitWin
    id: int | None = None
    meter_id: int
    number: int
    table_id: int
    round_id: int
    seat: int
    participants: Sequence[int]
    amount: Decimal
    status: str = MustHitWin.Status.PENDING
    won_at: datetime.datetime
    paid_at: datetime.datetime | None = None
    paid_by_id: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryRow(Row):
    """A line of the progressives' ledger (append-only)."""

    MODEL: ClassVar[type[models.Model]] = ProgressiveEntry
    id: int | None = None
    royal9_id: int | None = None
    must_hit_id: int | None = None
    kind: str
    table_id: int | None = None
    round_id: int | None = None
    seat: int | None = None
    wagered: Decimal = ZERO
    before: Decimal
    after: Decimal
    note: str = ""
    actor_id: int | None = None
    at: datetime.datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class NoticeRow(Row):
    """Surveillance's notice of a change of procedure, filed with the rules that make it."""

    MODEL: ClassVar[type[models.Model]] = ProcedureNotice
    id: int | None = None
    rules_id: int
    table_id: int
    changes: str
    before: str
    after: str
    effective_at: datetime.datetime
    filed_by_id: int | None = None
    filed_at: datetime.datetime
    acknowledged_by_id: int | None = None
    acknowledged_at: datetime.datetime | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AssignmentRow(Row):
    """A dealer assigned to a table, until relieved."""

    MODEL: ClassVar[type[models.Model]] = DealerAssignment
    id: int | None = None
    assigned_at: datetime.datetime
    assigned_by_id: int | None = None
    relieved_at: datetime.datetime | None = None
    relieved_by_id: int | None = None
    table_id: int
    dealer_id: int


def as_stored(row_type: type[Row], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` of a row as the database keeps them, so that a row made or changed by a
    command equals the same row read back: money to its column's places ($25 is 25.00), a JSON
    column's tuples as lists."""
    kept = dict(values)
    for name, quantum in _quanta(row_type).items():
        value = kept.get(name)
        if isinstance(value, Decimal):
            kept[name] = value.quantize(quantum)
    for name in _json_columns(row_type):
        value = kept.get(name)
        if isinstance(value, tuple):
            kept[name] = list(value)
    return kept


def _quanta(row_type: type[Row]) -> dict[str, Decimal]:
    return _model_quanta(row_type.MODEL)


@cache
def _model_quanta(model: type[models.Model]) -> dict[str, Decimal]:
    return {
        f.attname: Decimal(1).scaleb(-(f.decimal_places or 0))
        for f in sql_rows.fields(model)
        if isinstance(f, models.DecimalField)
    }


def _json_columns(row_type: type[Row]) -> tuple[str, ...]:
    return _model_json_columns(row_type.MODEL)


@cache
def _model_json_columns(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in sql_rows.fields(model) if isinstance(f, models.JSONField))


def stored(row: R) -> R:
    """The row as the database keeps it (``as_stored``)."""
    if not _quanta(type(row)) and not _json_columns(type(row)):
        return row
    kept = as_stored(type(row), columns_of(row))
    return dataclasses.replace(row, **kept)  # type: ignore[type-var]


def coup(cards: Sequence[CardRow]) -> Coup:
    """The cards dealt to the two hands, in dealing order (``Round.coup``)."""
    player = [c.code for c in cards if c.hand == Card.Hand.PLAYER]
    banker = [c.code for c in cards if c.hand == Card.Hand.BANKER]
    return Coup(parse_cards(player), parse_cards(banker))


#: Every row type, by its model.
ROW_TYPES: dict[type[models.Model], type[Row]] = {
    t.MODEL: t
    for t in (
        CasinoRow, PitRow, TableRow, RulesRow, LimitRow, SeatRow, ShoeRow, DeckChangeRow,
        RoundRow, WagerRow, CardRow, StepRow, IrregularityRow, MarkerRow, MeterRow, MustHitRow,
        MustHitWinRow, EntryRow, NoticeRow, AssignmentRow,
    )
}  # fmt: skip


def columns_of(row: Row) -> dict[str, Any]:
    """The row's columns by attribute name (what the writer writes)."""
    return {f.name: getattr(row, f.name) for f in fields(row)}  # type: ignore[arg-type]
