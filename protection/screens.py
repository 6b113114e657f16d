"""What the table's protection page shows: the edge of each wager over a shoe, the alerts, and
each seat's bets against the edge, read in a fixed number of queries."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import connection
from django.db.models import OuterRef, Subquery
from django.utils.safestring import SafeString

from baccarat.wagertypes import WagerType
from protection.alerts import SOURCE, percent
from protection.chairs import MUST_HIT, chair_of, label, order
from protection.charts import edge_line
from protection.models import Edge, Follow, PlayerSession
from tablegame.marks.models import TableMark
from tablegame.marks.reading import open_marks
from tablegame.models import Round, Table, Wager
from tablegame.progressives.ledger import ROYAL9_METERS
from tablegame.selectors import last_sequence_of_tables

#: The wagers on the layout's lines: a player's "usual bet" is read from them.
MAIN_WAGERS = frozenset({WagerType.PLAYER.value, WagerType.BANKER.value})
#: Alerts shown, newest first.
ALERTS_SHOWN = 20
#: A seat's side bets on the player's rounds listed one by one; the rest are counted.
SHOWN_BETS = 6


@dataclass(frozen=True)
class EdgeRow:
    """One wager over the shoe."""

    wager: str
    label: str
    now: Fraction
    low: Fraction
    low_round: int
    chart: SafeString

    @property
    def now_text(self) -> str:
        return percent(self.now)

    @property
    def low_text(self) -> str:
        return percent(self.low)

    @property
    def theirs(self) -> bool:
        return self.now < 0


@dataclass
class SideBet:
    round: int
    wager: str
    amount: Decimal
    edge: Fraction | None

    @property
    def edge_text(self) -> str:
        return "not priced" if self.edge is None else percent(self.edge)

    @property
    def theirs(self) -> bool:
        return self.edge is not None and self.edge < 0


@dataclass
class SeatBets:
    """A seat's bets over the shoe: its usual bet on the lines, and each side bet with its edge;
    who sits there now and what the advantage test found of their session."""

    seat: int
    usual: Decimal | None = None
    side: list[SideBet] = field(default_factory=list)
    main: list[Decimal] = field(default_factory=list)
    session: PlayerSession | None = None

    @property
    def findings(self) -> list[tuple[str, dict[str, Any]]]:
        if self.session is None:
            return []
        return [(WagerType(w).label, f) for w, f in sorted(self.session.findings.items())]

    @property
    def on_theirs(self) -> list[SideBet]:
        return [s for s in self.side if s.theirs]

    @property
    def on_theirs_shown(self) -> list[SideBet]:
        """The first ``SHOWN_BETS`` of them: the page says how many more."""
        return self.on_theirs[:SHOWN_BETS]

    @property
    def on_theirs_more(self) -> int:
        return max(0, len(self.on_theirs) - SHOWN_BETS)


@dataclass(frozen=True)
class FloorRow:
    """One table on the protection floor page."""

    table: Table
    latest: Edge | None
    follow: Follow | None
    marks: list[TableMark]

    @property
    def theirs(self) -> list[str]:
        """The wagers that favour the players now, with their edges."""
        if self.latest is None:
            return []
        return [
            f"{label(w)} {percent(Fraction(self.latest.edges[w]))}"
            for w in sorted(self.latest.favourable, key=order)
        ]

    @property
    def behind(self) -> int | None:
        """Events recorded the follower has not read yet (None: never followed)."""
        if self.follow is None:
            return None
        head: int = getattr(self.table, "head", 0)
        return max(0, head - self.follow.sequence)


def floor_rows() -> list[FloorRow]:
    """Every table with its newest pricing, its follow and its open marks (four queries)."""
    tables = list(
        Table.objects.select_related("pit__casino")
        .annotate(head=last_sequence_of_tables())
        .order_by("pit__casino__name", "pit__name", "name")
    )
    latest = {
        e.table_id: e
        for e in Edge.objects.filter(table__in=tables)
        .order_by("table_id", "-shoe", "-round")
        .distinct("table_id")
    } if connection.vendor == "postgresql" else _latest_edges(tables)  # fmt: skip
    follows = {f.table_id: f for f in Follow.objects.filter(table__in=tables)}
    marks = open_marks(t.pk for t in tables)
    return [FloorRow(t, latest.get(t.pk), follows.get(t.pk), marks.get(t.pk, [])) for t in tables]


def _latest_edges(tables: Sequence[Table]) -> dict[int, Edge]:
    """The newest pricing of each table without DISTINCT ON (SQLite: the embedded demo)."""
    newest = Edge.objects.filter(table_id=OuterRef("table_id")).order_by("-shoe", "-round")
    return {
        e.table_id: e
        for e in Edge.objects.filter(table__in=tables, pk=Subquery(newest.values("pk")[:1]))
    }


def shoes_priced(table: Table) -> list[int]:
    """The numbers of the table's shoes with a round priced, newest first."""
    return list(
        Edge.objects.filter(table=table).order_by("-shoe").values_list("shoe", flat=True).distinct()
    )


def protection_page(table: Table, shoe: int | None) -> dict[str, Any]:
    """The page's context for ``shoe`` (the newest priced when None)."""
    shoes = shoes_priced(table)
    if shoe is None and shoes:
        shoe = shoes[0]
    edges = list(Edge.objects.filter(table=table, shoe=shoe).order_by("round")) if shoe else []
    return {
        "table": table,
        "shoes": shoes,
        "shoe": shoe,
        "latest": edges[-1] if edges else None,
        "rows": edge_rows(edges),
        "meters": meters_shown(edges[-1]) if edges else "",
        "alerts": list(
            TableMark.objects.filter(table=table, source=SOURCE).order_by("-raised_at", "-pk")[
                :ALERTS_SHOWN
            ]
        ),
        "follow": Follow.objects.filter(table=table).first(),
        "seats": seat_bets(table, shoe, edges) if shoe else [],
    }


def meters_shown(edge: Edge) -> str:
    """The meters a pricing paid Royal 9's awards from: "Star $50,012.35, Spade $450.00, Heart
    $450.00; the Stax must-hit $412.35 (it hits by $500.00)"."""
    meters = edge.meters
    text = ", ".join(
        f"{name.title()} ${Decimal(meters[name]):,.2f}" for name in ROYAL9_METERS if name in meters
    )
    must_hit = meters.get(MUST_HIT)
    if isinstance(must_hit, dict):
        text += (
            f"; the {must_hit['name']} must-hit ${Decimal(must_hit['amount']):,.2f} (it hits by "
            f"${Decimal(must_hit['maximum']):,.2f}), as a lone wager's share"
        )
    return text


def charted(edges: list[Edge]) -> list[str]:
    """The edges to chart, in the layout's order: every wager the shoe's last pricing offers;
    of Royal 9's chairs, each that was the players' at any round of the shoe, and the chair
    lowest now (fourteen near-equal lines would hide the one that matters)."""
    latest = edges[-1].edges
    keys = [k for k in latest if chair_of(k) is None]
    chairs = [k for k in latest if chair_of(k) is not None]
    if chairs:
        ever = {k for e in edges for k in e.favourable if chair_of(k) is not None}
        lowest = min(chairs, key=lambda k: (Fraction(latest[k]), order(k)))
        keys += [k for k in chairs if k in ever or k == lowest]
    return sorted(keys, key=order)


def edge_rows(edges: list[Edge]) -> list[EdgeRow]:
    """A row per wager charted (``charted``), in the layout's order."""
    if not edges:
        return []
    rounds = edges[-1].round
    rows = []
    for wager in charted(edges):
        points = [(e.round, Fraction(e.edges[wager])) for e in edges if wager in e.edges]
        low_round, low = min(points, key=lambda p: p[1])
        name = label(wager)
        rows.append(
            EdgeRow(
                wager=wager,
                label=name,
                now=points[-1][1],
                low=low,
                low_round=low_round,
                chart=edge_line(points, title=f"{name}: house edge by round", rounds=rounds),
            )
        )
    return rows


def seat_bets(table: Table, shoe: int, edges: list[Edge]) -> list[SeatBets]:
    """Each seat's wagers in the shoe's rounds, side bets with the exact edge they faced."""
    by_round = {e.round: e for e in edges}
    seats: dict[int, SeatBets] = {}
    wagers = (
        Wager.objects.filter(round__table=table, round__shoe__number=shoe)
        .exclude(round__state=Round.State.VOID)
        .order_by("round__number", "seat", "pk")
        .values_list("round__number", "seat", "type", "amount")
    )
    for number, seat, wager, amount in wagers:
        bets = seats.setdefault(seat, SeatBets(seat))
        if wager in MAIN_WAGERS:
            bets.main.append(amount)
            continue
        edge = by_round.get(number)
        bets.side.append(
            SideBet(
                number, WagerType(wager).label, amount, edge.edge(wager, seat) if edge else None
            )
        )
    for session in PlayerSession.objects.filter(table=table, left_at__isnull=True):
        seats.setdefault(session.seat, SeatBets(session.seat)).session = session
    for bets in seats.values():
        bets.usual = statistics.median(bets.main) if bets.main else None
    return [seats[s] for s in sorted(seats)]
