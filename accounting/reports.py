"""The day's figures, computed in the database: a handful of grouped queries, never a loop over
rounds or wagers in Python.

Count-room win per table: ``closer - opener + credits - fills + drop``; hold % is win ÷ drop. The
opener is the tray as counted at the start of the day, or, when nobody counted it, the last closer
(a counted opener that differs from that closer is flagged). A table without a closer is flagged,
and its tray is taken as unchanged.

From the record of play (rounds settled within the gaming day's bounds):

- the wager-tracked result, from each settled wager's figures as settlement wrote them: at a
  banked table, losing wagers collected, less payouts (House Money let ride is part of its
  payout, and collected with the wager it rode on when that lost), commission collected at
  payout, collection fees, plus the commission collected that day from vigorish markers; at a
  player-dealer (California) table the house banks nothing, so its result is the collection
  fees (per wager, and the player-dealer's per hand, the one fee on no wager);
- the theoretical win: each wager taken times the exact house edge of its type under the Rules
  Submission it was taken under, for a full shoe of its decks (``baccarat.gamemath``). Royal 9 has
  no fixed edge (its top prizes are meters) and is left out; at a player-dealer table the house's
  edge is its collection fees. An edge that cannot be computed is no edge of zero: the table's
  line says "theoretical win cannot be computed" and why, and every total it is part of is
  marked incomplete;
- the progressives: what each table's rounds put on its Royal 9 meters and its must-hit meter,
  from the controller's ledger, and the liability now (each meter above its reset, and the
  must-hit wins not yet paid; ``tablegame.progressives.ledger``).

Every total (pit, game, casino) is the sum of the rows the report lists.

The grouped rows (per table, rules and wager type: hundreds, whatever the number of rounds) are
combined here. An open day reads them from the tallies each settlement adds to in its own
transaction (``tablegame.tallies.writes``), a closed day from the summary written when it closed;
``raw_play`` aggregates the rounds and wagers themselves, the check of the tallies.
"""

from __future__ import annotations

import datetime
import functools
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    DecimalField,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from accounting.forms_check import Reconciliation, reconcile
from accounting.history import Amendment, day_amendments
from accounting.models import (
    AccountingSettings,
    DropCount,
    GamingDay,
    RoundSummary,
    Slip,
    TableInventory,
    WagerSummary,
)
from baccarat.composition import Composition
from baccarat.gamemath import analyse
from baccarat.profiles import RulesSubmission
from baccarat.wagertypes import WagerType
from casino.events import payload_of
from casino.models import Casino, Pit
from tablegame.decisions import decided, is_override
from tablegame.events import CardCorrected, TablePayload
from tablegame.models import (
    Irregularity,
    Round,
    RoundTally,
    SettlementStep,
    Table,
    TableRules,
    VigorishMarker,
    Wager,
    WagerTally,
)
from tablegame.progressives.ledger import LiabilityLine, MustHitDay, contributions, liability_lines
from tablegame.progressives.ledger import must_hit_days as must_hit_periods

ZERO = Decimal("0.00")
CENT = Decimal("0.01")
logger = logging.getLogger(__name__)


def cents(value: Decimal | Fraction | int) -> Decimal:
    """To the cent, half up."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


def hold_percent(win: Decimal, drop: Decimal) -> Decimal | None:
    """Win ÷ drop, as a percentage to two places; None without a drop."""
    return (win * 100 / drop).quantize(CENT, rounding=ROUND_HALF_UP) if drop else None


@dataclass
class Figures:
    """Count-room and recorded figures of a table, or summed over several."""

    opener: Decimal = ZERO
    closer: Decimal = ZERO
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    drop: Decimal = ZERO
    rounds: int = 0
    voids: int = 0
    shoes: int = 0
    wagers: int = 0
    wagered: Decimal = ZERO
    tracked: Decimal = ZERO
    theoretical: Decimal = ZERO
    tables: int = 0
    theoretical_unknown: list[str] = field(default_factory=list)
    """The tables whose theoretical win cannot be computed: ``theoretical`` leaves them out."""

    @property
    def win(self) -> Decimal:
        return self.closer - self.opener + self.credits - self.fills + self.drop

    @property
    def hold(self) -> Decimal | None:
        return hold_percent(self.win, self.drop)

    @property
    def theoretical_missing(self) -> bool:
        """No table of these has a theoretical win that can be computed: there is no figure."""
        return bool(self.theoretical_unknown) and len(self.theoretical_unknown) >= self.tables

    @property
    def variance(self) -> Decimal:
        """Count-room win less the wager-tracked result."""
        return self.win - self.tracked

    def add(self, other: Figures) -> None:
        for name in (
            "opener",
            "closer",
            "fills",
            "credits",
            "drop",
            "rounds",
            "voids",
            "shoes",
            "wagers",
            "wagered",
            "tracked",
            "theoretical",
            "tables",
            "theoretical_unknown",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class TableDay(Figures):
    """One table's gaming day."""

    table_id: int = 0
    table: str = ""
    pit: str = ""
    game: str = ""
    banked: bool = True
    opener_source: str = "none"
    """``counted``, ``last closer`` or ``none``."""
    opener_difference: Decimal | None = None
    """A counted opener less the last closer, when they differ."""
    has_closer: bool = False
    has_drop: bool = False
    flags: list[str] = field(default_factory=list)
    variance_flagged: bool = False
    hold_flagged: bool = False
    theoretical_error: str = ""
    """Why the theoretical win cannot be computed ("" when it can): shown instead of a figure."""


@dataclass
class WagerTypeLine:
    """The day's wagers of one type."""

    type: str
    label: str
    count: int = 0
    amount: Decimal = ZERO
    won: int = 0
    paid: Decimal = ZERO
    lost: int = 0
    collected: Decimal = ZERO
    pushed: int = 0
    pushed_amount: Decimal = ZERO
    returned: Decimal = ZERO
    commission: Decimal = ZERO
    fees: Decimal = ZERO
    result: Decimal = ZERO
    """The house's result on this type, from the settlement steps (banked tables)."""
    theoretical: Decimal = ZERO
    theoretical_error: str = ""
    """Why the theoretical win of some of these wagers cannot be computed: ``theoretical``
    leaves them out."""


@dataclass
class Line:
    """A row of a list: a round, slip or irregularity, with where to review it."""

    table: str
    at: datetime.datetime | None
    text: str
    round_id: int | None = None
    amount: Decimal | None = None


@dataclass
class DayReport:
    casino: Casino
    day: datetime.date
    start: datetime.datetime
    end: datetime.datetime
    settings: AccountingSettings
    status: str
    tables: list[TableDay]
    pits: list[tuple[str, Figures]]
    games: list[tuple[str, Figures]]
    total: Figures
    wager_types: list[WagerTypeLine]
    commission_at_payout: Decimal
    commission_marked: Decimal
    markers_collected: tuple[int, Decimal]
    complimentary: tuple[int, Decimal]
    fees: Decimal
    progressive_contributions: Decimal
    """Put on the meters by the day's rounds (the controller's ledger), Royal 9 and must-hit."""
    progressive_hits: list[tuple[str, int, Decimal]]
    progressive_liability: Decimal
    """Owed on the progressives now: each meter above its reset, and the unpaid must-hit wins."""
    irregularities: list[Line]
    voids: list[Line]
    slips: list[Slip]
    frozen: bool = False
    """Read from the summary written when the day closed (its figures are final)."""
    reconciliation: Reconciliation | None = None
    """The Complimentary Vigorish Form reconciliation (``accounting.forms_check``)."""
    corrections: list[Line] = field(default_factory=list)
    """Cards keyed in error and corrected with a supervisor's approval (``card_corrected``)."""
    overrides: list[Line] = field(default_factory=list)
    """Supervisors' decisions at the tables, with their reasons (``tablegame.decisions``)."""
    progressive_tables: list[ProgressiveLine] = field(default_factory=list)
    """Each table's contributions of the day to its Royal 9 meters and its must-hit meter."""
    progressive_pits: list[ProgressiveLine] = field(default_factory=list)
    progressive_total: ProgressiveLine | None = None
    must_hit: list[MustHitDay] = field(default_factory=list)
    """Each must-hit meter's day: contributions, wins, payments."""
    liability: list[LiabilityLine] = field(default_factory=list)
    """The liability line by line: meters above their reset, unpaid must-hit wins."""
    liability_pits: list[tuple[str, Decimal]] = field(default_factory=list)
    amendments: list[Amendment] = field(default_factory=list)
    """Counts corrected by an amendment: the figures above are the amended ones."""

    @property
    def flags(self) -> list[tuple[str, str]]:
        """Everything flagged, as (table, what)."""
        return [(t.table, f) for t in self.tables for f in t.flags]


@dataclass
class ProgressiveLine:
    """What a table's rounds of the day put on the progressive meters (or a pit's, the
    casino's), from the controller's ledger."""

    name: str
    pit: str = ""
    royal9: Decimal = ZERO
    """On the table's Royal 9 meters (Star, Spade, Heart)."""
    must_hit: Decimal = ZERO
    """On the must-hit meter the table feeds."""

    @property
    def total(self) -> Decimal:
        return self.royal9 + self.must_hit

    def add(self, other: ProgressiveLine) -> None:
        self.royal9 += other.royal9
        self.must_hit += other.must_hit


@dataclass
class DayTotals:
    drop: Decimal
    win: Decimal
    tables: int


# --- Rules and house edges ---------------------------------------------------------------------


def _submissions(rule_ids: Iterable[int]) -> dict[int, RulesSubmission]:
    return {r.pk: r.submission for r in TableRules.objects.filter(pk__in=set(rule_ids))}


@functools.lru_cache(maxsize=256)
def _edges(rules: RulesSubmission, decks: int) -> dict[str, Fraction]:
    """Exact house edge of each wager ``rules`` offers, for a full shoe of ``decks`` decks."""
    return analyse(Composition.of_decks(decks), rules).house_edge


#: A Rules Submission's edges for a number of decks, or why they cannot be computed.
Edges = dict[str, Fraction] | str


def _day_edges(
    wagers: list[Any], rules: dict[int, RulesSubmission]
) -> dict[tuple[int, int], Edges]:
    """The edges under each Rules Submission and number of decks the day's wagers were taken
    under (banked tables), each computed once; an error is kept as the reason, for the report to
    say that the theoretical win cannot be computed, never taken as an edge of zero."""
    out: dict[tuple[int, int], Edges] = {}
    for w in wagers:
        key = (w["round__rules_id"], w["round__shoe__decks"])
        submission = rules[key[0]]
        if key in out or submission.player_dealer:
            continue
        try:
            out[key] = _edges(submission, key[1])
        except Exception as error:  # any error: reported on the page, CSV and PDF, and logged
            logger.exception("House edge of %s for %s decks", submission.name, key[1])
            out[key] = f"{submission.title}, {key[1]} decks: {str(error) or type(error).__name__}"
    return out


def house_edge(rules: RulesSubmission, decks: int, wager: str) -> Fraction | None:
    """The exact house edge of ``wager``; None for Royal 9 (no fixed edge). An error is not an
    edge of zero: it is raised (rules that could not key the cache once made every Royal 9
    table's theoretical win $0)."""
    return _edges(rules, decks).get(wager)


# --- The day -----------------------------------------------------------------------------------


def _inventories(casino: Casino, day: datetime.date) -> dict[tuple[int, str], Decimal]:
    rows = (
        TableInventory.objects.current()
        .filter(table__pit__casino=casino, day=day)
        .values_list("table_id", "kind", "total")
    )
    return {(table_id, kind): total for table_id, kind, total in rows}


def _tables(casino: Casino, day: datetime.date) -> list[Any]:
    last_closer = (
        TableInventory.objects.current()
        .filter(table=OuterRef("pk"), kind=TableInventory.Kind.CLOSER, day__lt=day)
        .order_by("-day")
    )
    return list(
        Table.objects.filter(pit__casino=casino)
        .select_related("pit")
        .prefetch_related("rules_history")
        .annotate(last_closer=Subquery(last_closer.values("total")[:1]))
        .order_by("pit__name", "name")
    )


def _slips(casino: Casino, day: datetime.date) -> dict[tuple[int, str], tuple[int, Decimal]]:
    rows = (
        Slip.objects.filter(casino=casino, day=day, voided_at__isnull=True)
        .values("table_id", "kind")
        .annotate(n=Count("pk"), total=Sum("total"))
    )
    return {(r["table_id"], r["kind"]): (r["n"], r["total"]) for r in rows}


def _drops(casino: Casino, day: datetime.date) -> dict[int, Decimal]:
    rows = (
        DropCount.objects.current()
        .filter(table__pit__casino=casino, day=day)
        .values_list("table_id", "currency_total", "other_total")
    )
    return {table_id: cash + other for table_id, cash, other in rows}


def day_rounds(table_ids: list[int], start: datetime.datetime, end: datetime.datetime) -> Any:
    """The rounds of the gaming day at these tables: settled (or voided) within its bounds."""
    return Round.objects.filter(table_id__in=table_ids, settled_at__gte=start, settled_at__lt=end)


def settled_rounds(table_id: int, start: datetime.datetime, end: datetime.datetime) -> list[Any]:
    """A table's rounds of the gaming day [``start``, ``end``): those settled (or voided) within
    it, whenever they were opened (the rounds its figures are made of), in the order they were
    settled, each with its number of wagers and the amount wagered."""
    return list(
        day_rounds([table_id], start, end)
        .select_related("shoe")
        .annotate(wager_count=Count("wagers"), wagered=Sum("wagers__amount"))
        .order_by("settled_at", "pk")
    )


def _round_counts(rounds: Any) -> dict[int, dict[str, int]]:
    rows = (
        rounds.order_by()
        .values("table_id")
        .annotate(
            rounds=Count("pk", filter=Q(state=Round.State.SETTLED)),
            voids=Count("pk", filter=Q(state=Round.State.VOID)),
            shoes=Count("shoe_id", distinct=True),
        )
    )
    return {r["table_id"]: r for r in rows}


def wager_groups(
    table_ids: list[int], start: datetime.datetime, end: datetime.datetime
) -> list[Any]:
    """The day's settled wagers grouped by table, Rules Submission, decks, type and result, with
    ``ride_back``: House Money let ride on a wager that then lost, which the house collected with
    it (the only money that moved on a row other than its own)."""
    ride_lost = Wager.objects.filter(
        round=OuterRef("round"), seat=OuterRef("seat"), type=OuterRef("ride"), result="lose"
    )
    return list(
        Wager.objects.filter(
            round__table_id__in=table_ids,
            round__settled_at__gte=start,
            round__settled_at__lt=end,
            round__state=Round.State.SETTLED,
        )
        .order_by()
        .values(
            "round__table_id", "round__rules_id", "round__shoe__decks", "type", "result", "award"
        )
        .annotate(
            n=Count("pk"),
            amount=Sum("amount"),
            payout=Sum("payout"),
            vigorish=Sum("vigorish"),
            returned=Sum("returned"),
            fee=Sum("fee"),
            # Looked up only for the rare row with a ride (a CASE is evaluated lazily).
            ride_back=Sum(
                Case(
                    When(
                        ridden__gt=0,
                        then=Case(When(Exists(ride_lost), then=F("ridden")), default=Value(ZERO)),
                    ),
                    default=Value(ZERO),
                    output_field=DecimalField(max_digits=14, decimal_places=2),
                )
            ),
        )
    )


def hand_fees(table_ids: list[int], start: datetime.datetime, end: datetime.datetime) -> Any:
    """The player-dealer's fee per hand at California tables (a step on no wager), per table."""
    return dict(
        SettlementStep.objects.filter(
            round__table_id__in=table_ids,
            round__settled_at__gte=start,
            round__settled_at__lt=end,
            round__state=Round.State.SETTLED,
            action="collect_fee",
            wager_type="",
        )
        .order_by()
        .values("round__table_id")
        .annotate(total=Sum("amount"))
        .values_list("round__table_id", "total")
    )


@dataclass
class Play:
    """The day's play as the report reads it: grouped wagers, rounds per table, hand fees."""

    wagers: list[dict[str, Any]]
    counts: dict[int, dict[str, int]]
    per_hand: dict[int, Decimal]
    frozen: bool


_SUMMARY_KEYS = {
    "round__table_id": "table_id",
    "round__rules_id": "rules_id",
    "round__shoe__decks": "decks",
}


def read_play(
    tables: list[Any],
    day: datetime.date,
    gaming_day: GamingDay | None,
) -> Play:
    """From the summary of a closed day, or else from the tallies the settlements wrote."""
    if gaming_day is not None and gaming_day.is_closed and gaming_day.summarized_at:
        fields = [_SUMMARY_KEYS.get(k, k) for k in WAGER_GROUP_FIELDS]
        wagers = [
            {key: row[_SUMMARY_KEYS.get(key, key)] for key in WAGER_GROUP_FIELDS}
            for row in WagerSummary.objects.filter(gaming_day=gaming_day).values(*fields)
        ]
        counts: dict[int, dict[str, int]] = {}
        per_hand: dict[int, Decimal] = {}
        for r in RoundSummary.objects.filter(gaming_day=gaming_day).values():
            counts[r["table_id"]] = {k: r[k] for k in ("rounds", "voids", "shoes")}
            per_hand[r["table_id"]] = r["hand_fees"]
        return Play(wagers, counts, per_hand, frozen=True)
    return tallied_play(tables, day)


def tallied_play(tables: list[Any], day: datetime.date) -> Play:
    """The day's play from its tallies (``tablegame.tallies.models``): a few hundred rows,
    whatever the number of rounds; the same figures as ``raw_play``."""
    ids = [t.pk for t in tables]
    fields = [_SUMMARY_KEYS.get(k, k) for k in WAGER_GROUP_FIELDS]
    wagers = [
        {key: row[_SUMMARY_KEYS.get(key, key)] for key in WAGER_GROUP_FIELDS}
        for row in WagerTally.objects.filter(table_id__in=ids, day=day).order_by().values(*fields)
    ]
    played = RoundTally.objects.filter(table_id__in=ids, day=day).order_by()
    counts: dict[int, dict[str, int]] = {
        r["table_id"]: {k: r[k] for k in ("rounds", "voids", "shoes")}
        for r in played.values("table_id").annotate(
            rounds=Sum("rounds"), voids=Sum("voids"), shoes=Count("pk")
        )
    }
    california = [t.pk for t in tables if t.rules.player_dealer]
    per_hand = dict(
        played.filter(table_id__in=california, hand_fees__gt=0)
        .values("table_id")
        .annotate(total=Sum("hand_fees"))
        .values_list("table_id", "total")
    )
    return Play(wagers, counts, per_hand, frozen=False)


def raw_play(tables: list[Any], start: datetime.datetime, end: datetime.datetime) -> Play:
    """The day's play aggregated from the rounds, wagers and steps themselves: the check of the
    tallies (``tests/accounting/test_tallies.py``, ``bench/bench_accounting.py``)."""
    ids = [t.pk for t in tables]
    return Play(
        wager_groups(ids, start, end),
        _round_counts(day_rounds(ids, start, end)),
        hand_fees([t.pk for t in tables if t.rules.player_dealer], start, end),
        frozen=False,
    )


def freeze(gaming_day: GamingDay) -> int:
    """Write the closed day's summary (the same grouped rows the live report reads); returns
    how many wager groups it holds."""
    casino = gaming_day.casino
    tables = _tables(casino, gaming_day.day)
    play = tallied_play(tables, gaming_day.day)
    WagerSummary.objects.filter(gaming_day=gaming_day).delete()
    RoundSummary.objects.filter(gaming_day=gaming_day).delete()
    WagerSummary.objects.bulk_create(
        WagerSummary(gaming_day=gaming_day, **_summary_fields(w)) for w in play.wagers
    )
    ids = set(play.counts) | set(play.per_hand)
    RoundSummary.objects.bulk_create(
        RoundSummary(
            gaming_day=gaming_day,
            table_id=table_id,
            rounds=play.counts.get(table_id, {}).get("rounds", 0),
            voids=play.counts.get(table_id, {}).get("voids", 0),
            shoes=play.counts.get(table_id, {}).get("shoes", 0),
            hand_fees=play.per_hand.get(table_id) or ZERO,
        )
        for table_id in sorted(ids)
    )
    gaming_day.summarized_at = timezone.now()
    gaming_day.save(update_fields=["summarized_at"])
    return len(play.wagers)


def _summary_fields(group: dict[str, Any]) -> dict[str, Any]:
    fields = {_SUMMARY_KEYS.get(k, k): group[k] for k in WAGER_GROUP_FIELDS}
    fields["ride_back"] = fields["ride_back"] or ZERO
    return fields


def thaw(gaming_day: GamingDay) -> None:
    """A reopened day is read from its rows again."""
    WagerSummary.objects.filter(gaming_day=gaming_day).delete()
    RoundSummary.objects.filter(gaming_day=gaming_day).delete()
    gaming_day.summarized_at = None
    gaming_day.save(update_fields=["summarized_at"])


WAGER_GROUP_FIELDS = (
    "round__table_id",
    "round__rules_id",
    "round__shoe__decks",
    "type",
    "result",
    "award",
    "n",
    "amount",
    "payout",
    "vigorish",
    "returned",
    "fee",
    "ride_back",
)


@dataclass(frozen=True)
class HouseMove:
    """What a group of wagers did to the house's money."""

    result: Decimal
    collected: Decimal
    """Commission collected at payout."""
    marked: Decimal
    """Commission marked on the layout, collected later from the marker (or a form)."""


def house_move(group: Any, rules: RulesSubmission) -> HouseMove:
    """At a banked table: losing wagers collected (with House Money let ride on them), payouts,
    commission collected at payout and collection fees; at a player-dealer table the house
    takes only the collection fees. Commission on a win is marked when the table defers it."""
    if rules.player_dealer:
        return HouseMove(group["fee"], ZERO, ZERO)
    won = group["result"] == "win"
    marked = group["vigorish"] if rules.marks_vigorish and won else ZERO
    collected = group["vigorish"] - marked
    result = (group["amount"] - group["returned"]) if group["result"] == "lose" else ZERO
    result += (group["ride_back"] or ZERO) + collected + group["fee"]
    result -= group["payout"] if won else ZERO
    return HouseMove(result, collected, marked)


def _markers(casino: Casino, start: datetime.datetime, end: datetime.datetime, status: str) -> Any:
    return VigorishMarker.objects.filter(
        table__pit__casino=casino, status=status, resolved_at__gte=start, resolved_at__lt=end
    )


def day_report(casino: Casino, day: datetime.date) -> DayReport:
    """Every figure of ``casino``'s gaming day ``day``."""
    settings = AccountingSettings.of(casino)
    tables = _tables(casino, day)
    gaming_day = GamingDay.objects.filter(casino=casino, day=day).first()
    play = read_play(tables, day, gaming_day)
    return _report(casino, day, tables, play, gaming_day, settings)


def raw_day_report(casino: Casino, day: datetime.date) -> DayReport:
    """``day_report`` of an open day aggregated from the raw rounds and wagers instead of the
    tallies: the hand-written check of the tallies."""
    start, end = casino.gaming_day_bounds(day)
    tables = _tables(casino, day)
    gaming_day = GamingDay.objects.filter(casino=casino, day=day).first()
    settings = AccountingSettings.of(casino)
    return _report(casino, day, tables, raw_play(tables, start, end), gaming_day, settings)


def _report(
    casino: Casino,
    day: datetime.date,
    tables: list[Any],
    play: Play,
    gaming_day: GamingDay | None,
    settings: AccountingSettings,
) -> DayReport:
    start, end = casino.gaming_day_bounds(day)
    ids = [t.pk for t in tables]
    rounds = day_rounds(ids, start, end)
    corrections, overrides = _decisions(ids, start, end)
    wagers, per_hand = play.wagers, play.per_hand
    rules = _submissions(w["round__rules_id"] for w in wagers)
    edges = _day_edges(wagers, rules)
    moves = [house_move(w, rules[w["round__rules_id"]]) for w in wagers]
    per_table = _per_table(
        casino,
        day,
        tables,
        play.counts,
        wagers,
        moves,
        per_hand,
        rules,
        edges,
        start,
        end,
        settings,
    )
    types = _wager_types(wagers, moves, rules, edges)
    pits: dict[str, Figures] = defaultdict(Figures)
    games: dict[str, Figures] = defaultdict(Figures)
    total = Figures()
    # The totals are the sums of the rows the report lists: the tables active that day (a table
    # not listed has a tray, the last closer, but nothing of the day to add).
    for t in (t for t in per_table if t.tables):
        pits[t.pit].add(t)
        games[t.game].add(t)
        total.add(t)
    collected = _markers(casino, start, end, VigorishMarker.Status.COLLECTED).aggregate(
        n=Count("pk"), total=Sum("amount")
    )
    comp = _markers(casino, start, end, VigorishMarker.Status.FORM_REQUESTED).aggregate(
        n=Count("pk"), total=Sum("amount")
    )
    put, put_pits, put_total = _progressives(tables, start, end)
    pit_ids = list(Pit.objects.filter(casino=casino).values_list("pk", flat=True))
    owed = liability_lines(pit_ids)
    report = DayReport(
        casino=casino,
        day=day,
        start=start,
        end=end,
        settings=settings,
        status=gaming_day.get_status_display() if gaming_day else "Open",
        frozen=play.frozen,
        tables=per_table,
        pits=sorted(pits.items()),
        games=sorted(games.items()),
        total=total,
        wager_types=types,
        commission_at_payout=_sum(m.collected for m in moves),
        commission_marked=_sum(m.marked for m in moves),
        markers_collected=(collected["n"], collected["total"] or ZERO),
        complimentary=(comp["n"], comp["total"] or ZERO),
        fees=_sum(w["fee"] for w in wagers) + _sum(per_hand.values()),
        progressive_contributions=put_total.total,
        progressive_hits=_hits(wagers),
        progressive_liability=_sum(line.owed for line in owed),
        progressive_tables=put,
        progressive_pits=put_pits,
        progressive_total=put_total,
        must_hit=must_hit_periods(pit_ids, ids, start, end),
        liability=owed,
        liability_pits=_owed_by_pit(owed),
        irregularities=_irregularities(ids, start, end),
        corrections=corrections,
        overrides=overrides,
        voids=_voids(rounds),
        slips=list(
            Slip.objects.filter(casino=casino, day=day)
            .select_related(
                "table", "requested_by", "carried_by", "received_by", "voided_by", "void_witness"
            )
            .order_by("kind", "serial")
        ),
    )
    report.reconciliation = reconcile(casino, day, start, end)
    report.amendments = day_amendments(casino, day)
    return report


def _sum(values: Iterable[Decimal | None]) -> Decimal:
    return sum((v or ZERO for v in values), ZERO)


def _per_table(
    casino: Casino,
    day: datetime.date,
    tables: list[Any],
    counts: dict[int, dict[str, int]],
    wagers: list[Any],
    moves: list[HouseMove],
    per_hand: dict[int, Decimal],
    rules: dict[int, RulesSubmission],
    edges: dict[tuple[int, int], Edges],
    start: datetime.datetime,
    end: datetime.datetime,
    settings: AccountingSettings,
) -> list[TableDay]:
    inventories = _inventories(casino, day)
    slips = _slips(casino, day)
    drops = _drops(casino, day)
    tracked: dict[int, Decimal] = defaultdict(lambda: ZERO, per_hand)
    for w, move in zip(wagers, moves, strict=True):
        tracked[w["round__table_id"]] += move.result
    markers = dict(
        _markers(casino, start, end, VigorishMarker.Status.COLLECTED)
        .order_by()
        .values("table_id")
        .annotate(total=Sum("amount"))
        .values_list("table_id", "total")
    )
    wagered: dict[int, list[Any]] = defaultdict(lambda: [0, ZERO, Fraction(0)])
    unknown: dict[int, str] = {}
    for w in wagers:
        entry = wagered[w["round__table_id"]]
        entry[0] += w["n"]
        entry[1] += w["amount"]
        submission = rules[w["round__rules_id"]]
        if submission.player_dealer:
            entry[2] += Fraction(w["fee"])
            continue
        known = edges[(w["round__rules_id"], w["round__shoe__decks"])]
        if isinstance(known, str):
            unknown.setdefault(w["round__table_id"], known)
            continue
        edge = known.get(w["type"])
        if edge is not None:
            entry[2] += Fraction(w["amount"]) * edge
    out = []
    for table in tables:
        t = TableDay(
            table_id=table.pk,
            table=table.name,
            pit=table.pit.name,
            game=table.rules.title,
            banked=not table.rules.player_dealer,
        )
        counted = inventories.get((table.pk, TableInventory.Kind.OPENER))
        if counted is not None:
            t.opener, t.opener_source = counted, "counted"
            if table.last_closer is not None and counted != table.last_closer:
                t.opener_difference = counted - table.last_closer
                t.flags.append(
                    f"Opener ${counted} differs from the last closer ${table.last_closer} "
                    f"by ${t.opener_difference}"
                )
        elif table.last_closer is not None:
            t.opener, t.opener_source = table.last_closer, "last closer"
        else:
            t.flags.append("No opener counted and no closer before it: the opener is taken as 0")
        closer = inventories.get((table.pk, TableInventory.Kind.CLOSER))
        t.has_closer = closer is not None
        t.closer = closer if closer is not None else t.opener
        t.fills = slips.get((table.pk, Slip.Kind.FILL), (0, ZERO))[1]
        t.credits = slips.get((table.pk, Slip.Kind.CREDIT), (0, ZERO))[1]
        t.has_drop = table.pk in drops
        t.drop = drops.get(table.pk, ZERO)
        c = counts.get(table.pk, {})
        t.rounds, t.voids, t.shoes = c.get("rounds", 0), c.get("voids", 0), c.get("shoes", 0)
        n, amount, theo = wagered.get(table.pk, (0, ZERO, Fraction(0)))
        t.wagers, t.wagered, t.theoretical = n, amount, cents(theo)
        if table.pk in unknown:  # no figure at all: the page says why, the totals are incomplete
            t.theoretical, t.theoretical_unknown = ZERO, [t.table]
            t.theoretical_error = f"theoretical win cannot be computed: {unknown[table.pk]}"
        t.tracked = tracked.get(table.pk, ZERO) + (markers.get(table.pk) or ZERO)
        active = bool(t.rounds or t.fills or t.credits or t.has_drop or t.has_closer or counted)
        t.tables = 1 if active else 0
        if not active:
            t.flags = []
        if t.theoretical_error:
            t.flags.append(t.theoretical_error[0].upper() + t.theoretical_error[1:])
        if active and not t.has_closer:
            t.flags.append("No closer counted: the tray is taken as unchanged")
        if t.rounds and not t.has_drop:
            t.flags.append("Rounds were dealt but no drop was counted")
        if active and abs(t.variance) > settings.variance_threshold:
            t.variance_flagged = True
            t.flags.append(
                f"Count-room win ${t.win} and wager-tracked result ${t.tracked} differ by "
                f"${t.variance} (threshold ${settings.variance_threshold})"
            )
        hold = t.hold
        if hold is not None and not settings.hold_low <= hold <= settings.hold_high:
            t.hold_flagged = True
            t.flags.append(f"Hold {hold}% is outside {settings.hold_low}%-{settings.hold_high}%")
        out.append(t)
    return out


def _wager_types(
    wagers: list[Any],
    moves: list[HouseMove],
    rules: dict[int, RulesSubmission],
    edges: dict[tuple[int, int], Edges],
) -> list[WagerTypeLine]:
    lines = {t.value: WagerTypeLine(t.value, t.label) for t in WagerType}
    for w, move in zip(wagers, moves, strict=True):
        line = lines[w["type"]]
        line.result += move.result
        line.count += w["n"]
        line.amount += w["amount"]
        line.returned += w["returned"]
        line.fees += w["fee"]
        line.commission += w["vigorish"]
        if w["result"] == "win":
            line.won += w["n"]
            line.paid += w["payout"]
        elif w["result"] == "lose":
            line.lost += w["n"]
            line.collected += w["amount"] - w["returned"]
        else:
            line.pushed += w["n"]
            line.pushed_amount += w["amount"]
        if rules[w["round__rules_id"]].player_dealer:
            continue
        known = edges[(w["round__rules_id"], w["round__shoe__decks"])]
        if isinstance(known, str):
            line.theoretical_error = line.theoretical_error or (
                f"theoretical win of some of these wagers cannot be computed: {known}"
            )
            continue
        edge = known.get(w["type"])
        if edge is not None:
            line.theoretical += cents(Fraction(w["amount"]) * edge)
    return [line for line in lines.values() if line.count]


def _progressives(
    tables: list[Any], start: datetime.datetime, end: datetime.datetime
) -> tuple[list[ProgressiveLine], list[ProgressiveLine], ProgressiveLine]:
    """What each table's rounds of the day put on its Royal 9 meters and its must-hit meter (the
    controller's ledger), the sums per pit and the casino's: each the sum of the rows above."""
    by_id = {t.pk: t for t in tables}
    rows: dict[int, ProgressiveLine] = {}
    for c in contributions(by_id, start, end):
        table = by_id[c.table_id]
        row = rows.setdefault(c.table_id, ProgressiveLine(table.name, table.pit.name))
        if c.must_hit_id is None:
            row.royal9 += c.amount
        else:
            row.must_hit += c.amount
    listed = sorted(rows.values(), key=lambda r: (r.pit, r.name))
    pits: dict[str, ProgressiveLine] = {}
    total = ProgressiveLine("Casino")
    for row in listed:
        pits.setdefault(row.pit, ProgressiveLine(row.pit, row.pit)).add(row)
        total.add(row)
    return listed, list(pits.values()), total


def _owed_by_pit(lines: list[LiabilityLine]) -> list[tuple[str, Decimal]]:
    """The liability of each pit: the sum of its lines."""
    pits: dict[str, Decimal] = {}
    for line in lines:
        pits[line.pit] = pits.get(line.pit, ZERO) + line.owed
    return sorted(pits.items())


def _hits(wagers: list[Any]) -> list[tuple[str, int, Decimal]]:
    """Royal 9 awards paid, by award."""
    hits: dict[str, list[Any]] = {}
    for w in wagers:
        if w["type"] == WagerType.ROYAL9.value and w["award"]:
            entry = hits.setdefault(w["award"], [0, ZERO])
            entry[0] += w["n"]
            entry[1] += w["payout"]
    return [(award, n, paid) for award, (n, paid) in sorted(hits.items())]


def _irregularities(
    table_ids: list[int], start: datetime.datetime, end: datetime.datetime
) -> list[Line]:
    rows = (
        Irregularity.objects.filter(
            round__table_id__in=table_ids, reported_at__gte=start, reported_at__lt=end
        )
        .select_related("round__table", "round__shoe")
        .order_by("reported_at")
    )
    return [
        Line(
            i.round.table.name,
            i.reported_at,
            f"Shoe {i.round.shoe.number} round {i.round.number}: {i.kind.replace('_', ' ')}"
            f"{' ' + i.card if i.card else ''}, {i.disposition.replace('_', ' ')}",
            i.round_id,
        )
        for i in rows
    ]


def _voids(rounds: Any) -> list[Line]:
    """The day's void rounds, with why (read through the index of void rounds, ``round_void``:
    a few among the day's rounds)."""
    return [
        Line(
            r.table.name,
            r.settled_at,
            f"Shoe {r.shoe.number} round {r.number}: {r.void_reason}",
            r.pk,
        )
        for r in rounds.filter(state=Round.State.VOID)
        .select_related("table", "shoe")
        .order_by("settled_at")
    ]


def _decisions(
    table_ids: list[int], start: datetime.datetime, end: datetime.datetime
) -> tuple[list[Line], list[Line]]:
    """The day's corrected cards and overrides, from the record, each with the round to review
    it in: one query through the index of the decisions (``tablegame.decisions``), each
    decision's rounds looked up by their index per table and opening (``round_opened_per_table``),
    never a table's whole history."""
    corrections, overrides = [], []
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Each lookup is a probe of an index, which the planner costs as a scan of the
            # table's rounds: it would compile the query (JIT) for ten times longer than it runs.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL jit = off")
        events = list(_with_rounds(decided(table_ids, start, end), start, end))
    for event in events:
        payload = payload_of(event.action, event.data)
        assert isinstance(payload, TablePayload)
        if isinstance(payload, CardCorrected):
            table = event.chain.table
            text = payload.describe()
            corrections.append(Line(table.name, event.created_at, text, event.named_round))
        elif is_override(payload):
            overrides.append(_override(event, payload))
    return corrections, overrides


def _with_rounds(events: Any, start: datetime.datetime, end: datetime.datetime) -> Any:
    """``events`` with the rounds at their table that a decision may be reviewed in: the one
    with the number its payload names (the latest opened before it), the latest opened before
    it and when that was settled, the next opened that day, the last opened that day before it.
    """
    at_table = Round.objects.filter(table=OuterRef("chain__table")).order_by()
    before = at_table.filter(opened_at__lte=OuterRef("created_at")).order_by("-opened_at")
    return events.annotate(
        number=Cast(KT("data__round"), IntegerField()),
        # Looked up only for a payload naming a round (a CASE is evaluated lazily).
        named_round=Case(
            When(
                number__isnull=False,
                then=Subquery(before.filter(number=OuterRef("number")).values("pk")[:1]),
            ),
            default=None,
        ),
        latest_round=Subquery(before.values("pk")[:1]),
        latest_settled=Subquery(before.values("settled_at")[:1]),
        next_round=Subquery(
            at_table.filter(opened_at__gte=OuterRef("created_at"), opened_at__lt=end)
            .order_by("opened_at")
            .values("pk")[:1]
        ),
        last_round=Subquery(
            at_table.filter(opened_at__gte=start, opened_at__lt=OuterRef("created_at"))
            .order_by("-opened_at")
            .values("pk")[:1]
        ),
    )


def _override(event: Any, payload: TablePayload) -> Line:
    """An override, with who decided and the round to review it in: the round it names, else
    the round in play at the table then (the latest opened before it, unless settled before
    it), else the next one dealt there that day, else the last one before it."""
    if payload.round_number is not None:
        game = event.named_round
    elif event.latest_round and (
        event.latest_settled is None or event.latest_settled >= event.created_at
    ):
        game = event.latest_round
    else:
        game = event.next_round or event.last_round
    who = event.actor.get_username() if event.actor else "the system"
    text = f"{payload.title}: {payload.describe()} (by {who})"
    return Line(event.chain.table.name, event.created_at, text, game)


def day_totals(casino: Casino, day: datetime.date) -> DayTotals:
    """Drop and win of the whole casino for the day, from the count alone (no wager scan)."""
    figures = count_figures(casino, day, day)
    drop = _sum(f.drop for f in figures.values())
    win = _sum(f.win for f in figures.values())
    return DayTotals(drop=drop, win=win, tables=len(figures))


# --- Periods: the master game report -----------------------------------------------------------


def count_figures(casino: Casino, first: datetime.date, last: datetime.date) -> dict[int, Figures]:
    """Count-room figures per table summed over gaming days ``first`` to ``last``.

    Per table and day: the opener counted, or the last closer before it; the closer, or the
    opener when none was counted. Read as a few grouped rows per table and day.
    """
    tables = {t.pk: t for t in _tables(casino, first)}
    inventory: dict[tuple[int, datetime.date], dict[str, Decimal]] = defaultdict(dict)
    for table_id, day, kind, total in (
        TableInventory.objects.current()
        .filter(table__pit__casino=casino, day__gte=first, day__lte=last)
        .order_by("table_id", "day")
        .values_list("table_id", "day", "kind", "total")
    ):
        inventory[(table_id, day)][kind] = total
    moves: dict[tuple[int, datetime.date], dict[str, Decimal]] = defaultdict(dict)
    for row in (
        Slip.objects.filter(casino=casino, day__gte=first, day__lte=last, voided_at__isnull=True)
        .values("table_id", "day", "kind")
        .annotate(total=Sum("total"))
    ):
        moves[(row["table_id"], row["day"])][row["kind"]] = row["total"]
    for table_id, day, cash, other in (
        DropCount.objects.current()
        .filter(table__pit__casino=casino, day__gte=first, day__lte=last)
        .values_list("table_id", "day", "currency_total", "other_total")
    ):
        moves[(table_id, day)]["drop"] = cash + other
    out: dict[int, Figures] = {}
    for table_id in tables:
        days = sorted({d for (t, d) in [*inventory, *moves] if t == table_id})
        if not days:
            continue
        figures = Figures(tables=1)
        last_closer = tables[table_id].last_closer
        for day in days:
            counted = inventory.get((table_id, day), {})
            opener = counted.get("opener", last_closer if last_closer is not None else ZERO)
            closer = counted.get("closer", opener)
            if "closer" in counted:
                last_closer = closer
            m = moves.get((table_id, day), {})
            figures.opener += opener
            figures.closer += closer
            figures.fills += m.get("fill", ZERO)
            figures.credits += m.get("credit", ZERO)
            figures.drop += m.get("drop", ZERO)
        out[table_id] = figures
    return out


@dataclass
class MasterLine:
    name: str
    day: Figures
    month: Figures
    year: Figures
    flagged: list[str] = field(default_factory=list)


def master_report(casino: Casino, day: datetime.date) -> tuple[list[MasterLine], list[MasterLine]]:
    """Drop, win and hold per table and per game type for the day, month to date and year to
    date; a hold outside the casino's bounds is flagged."""
    settings = AccountingSettings.of(casino)
    periods = {
        "day": count_figures(casino, day, day),
        "month": count_figures(casino, day.replace(day=1), day),
        "year": count_figures(casino, day.replace(month=1, day=1), day),
    }
    tables = {t.pk: t for t in _tables(casino, day)}
    by_table: list[MasterLine] = []
    by_game: dict[str, MasterLine] = {}
    for table_id, table in tables.items():
        if table_id not in periods["year"]:
            continue
        line = MasterLine(
            f"{table.pit.name} · {table.name}",
            periods["day"].get(table_id, Figures()),
            periods["month"].get(table_id, Figures()),
            periods["year"].get(table_id, Figures()),
        )
        game = by_game.setdefault(
            table.rules.title, MasterLine(table.rules.title, Figures(), Figures(), Figures())
        )
        game.day.add(line.day)
        game.month.add(line.month)
        game.year.add(line.year)
        by_table.append(line)
    for line in [*by_table, *by_game.values()]:
        for label, figures in (("day", line.day), ("MTD", line.month), ("YTD", line.year)):
            hold = figures.hold
            if hold is not None and not settings.hold_low <= hold <= settings.hold_high:
                line.flagged.append(f"{label} hold {hold}%")
    return by_table, sorted(by_game.values(), key=lambda line: line.name)


def latest_closed_or_yesterday(casino: Casino, now: datetime.datetime) -> datetime.date:
    """The gaming day a report opens on: the one before the current gaming day."""
    return casino.gaming_day(now) - datetime.timedelta(days=1)


def busiest(tables: list[TableDay], limit: int) -> list[TableDay]:
    """The tables with the largest drop, for a chart that must stay readable."""
    return sorted((t for t in tables if t.tables), key=lambda t: -t.drop)[:limit]
