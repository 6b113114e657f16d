"""The surveillance room's reads: the wall of every table and the round search.

The wall and the search run a fixed number of queries whatever the number of tables or rounds
(the tests count them). The round review, told from the record, is tablegame's
(``tablegame.review``), as are the cards' faces and the casino's zone (``tablegame.faces``).
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, TypeVar

from django.db.models import (
    Count,
    DecimalField,
    Exists,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.functions import Coalesce

from baccarat.irregularities import IrregularityKind
from casino.models import Casino
from tablegame.faces import CardFace, card_face, casino_zone, hand_total
from tablegame.marks.models import TableMark
from tablegame.marks.reading import open_marks
from tablegame.models import (
    Irregularity,
    Round,
    Shoe,
    Table,
    VigorishMarker,
    Wager,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES
from tablegame.selectors import last_sequence_of_tables

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

# The labels are the engine's (one definition each); these map the stored words to them.
#: Money is shown to the cent.
CENT = Decimal("0.01")
IRREGULARITY_KINDS = {k.value: k.label for k in IrregularityKind}


def search_zone(table: Table | None) -> zoneinfo.ZoneInfo:
    """The zone a searched time range is read in: the table's casino, else the floor's one zone.

    With casinos in several zones and no table chosen, times are UTC.
    """
    if table is not None:
        return casino_zone(table.pit.casino)
    zones = set(Casino.objects.values_list("time_zone", flat=True).distinct()[:2])
    return zoneinfo.ZoneInfo(zones.pop()) if len(zones) == 1 else zoneinfo.ZoneInfo("UTC")


# ---------------------------------------------------------------------------------------------
# The wall


@dataclass(frozen=True)
class IrregularityNote:
    """An irregularity of the round on the layout, or of the round it interrupted."""

    round: int
    kind: str
    card: str
    instruction: str


@dataclass(frozen=True)
class RoundTile:
    """The round on the layout of a table."""

    pk: int
    number: int
    state: str
    state_label: str
    simulated: bool
    player: list[CardFace]
    banker: list[CardFace]
    player_total: int | None
    banker_total: int | None
    winner: str
    announcement: str
    wagers_total: Decimal
    wager_count: int
    irregularities: list[IrregularityNote]
    void_reason: str


@dataclass(frozen=True)
class TableTile:
    """Everything the wall shows of one table."""

    pk: int
    name: str
    pit: str
    casino: str
    zone: str
    """The casino's time zone (the wall shows each table's times in it)."""
    game: str
    status: str
    status_label: str
    sequence: int
    """The number of the table's last event (0 before the first)."""
    shoe_number: int | None
    shoe_state: str
    """The shoe's state while it is readied or done ("Shuffled"); empty while in play."""
    cards_left: int | None
    held_card: str
    cut_card_round: int | None
    round: RoundTile | None
    last_result: str
    """The announcement of the table's last finished round (its number in front)."""
    markers: list[dict[str, Any]] = field(default_factory=list)
    marks: list[TableMark] = field(default_factory=list)
    """Open marks (``tablegame.marks``): game protection's alerts, newest first."""

    @property
    def alert(self) -> bool:
        """An irregularity in the round on the layout, or a mark open."""
        return bool(self.round and self.round.irregularities) or bool(self.marks)

    @property
    def marks_key(self) -> str:
        """What the wall compares to know the tile's marks changed (``marks_now``)."""
        return marks_key(self.marks)


class _TableFigures(TypedDict):
    active_round_id: int | None
    current_shoe_id: int | None
    last_result_id: int | None
    last_sequence: int


class _ShoeFigures(TypedDict):
    last_round_id: int | None


class _RoundFigures(TypedDict):
    wagers_total: Decimal
    wager_count: int


_Row = TypeVar("_Row")

#: The rows of the wall's queries, with what their subqueries and sums add.
#: (Strings: django-stubs-ext's WithAnnotations takes its second argument for mypy only.)
WallTable: TypeAlias = "WithAnnotations[Table, _TableFigures]"
WallShoe: TypeAlias = "WithAnnotations[Shoe, _ShoeFigures]"
WallRound: TypeAlias = "WithAnnotations[Round, _RoundFigures]"


def _latest(queryset: QuerySet[Any], *order: str) -> Subquery:
    return Subquery(queryset.order_by(*order).values("pk")[:1])


def wall_tiles(*, table_ids: Iterable[int] | None = None) -> list[TableTile]:
    """A tile for every table (or for ``table_ids``), in a fixed number of queries whatever the
    number of tables (``tests/surveillance/test_pages.py`` counts them).

    Queries: the tables (with their current shoe, current round, last result and last event
    picked by subqueries), their Rules Submissions, the shoes (with their last round), the rounds
    with their wager totals, those rounds' cards, the irregularities, the open vigorish markers,
    the open marks.
    """
    tables_qs = (
        Table.objects.select_related("pit__casino")
        .prefetch_related("rules_history")
        .annotate(
            active_round_id=_latest(
                Round.objects.filter(table=OuterRef("pk"), state__in=ACTIVE_ROUND_STATES), "-pk"
            ),
            current_shoe_id=_latest(
                Shoe.objects.filter(table=OuterRef("pk")).exclude(state=Shoe.State.FINISHED),
                "-number",
            ),
            last_result_id=_latest(
                Round.objects.filter(table=OuterRef("pk")).exclude(announcement=""),
                "-completed_at",
                "-pk",
            ),
            last_sequence=last_sequence_of_tables(),
        )
        .order_by("pit__casino__name", "pit__name", "name")
    )
    if table_ids is not None:
        tables_qs = tables_qs.filter(pk__in=list(table_ids))
    tables: list[WallTable] = list(tables_qs)
    if not tables:
        return []
    shoes: dict[int, WallShoe] = {
        s.pk: s
        for s in Shoe.objects.filter(pk__in=[t.current_shoe_id for t in tables]).annotate(
            last_round_id=_latest(Round.objects.filter(shoe=OuterRef("pk")), "-number")
        )
    }
    on_layout = {t.pk: _on_layout(t, shoes) for t in tables}
    wanted = {pk for t in tables for pk in (on_layout[t.pk], t.last_result_id) if pk is not None}
    rounds: dict[int, WallRound] = {
        r.pk: r
        for r in Round.objects.filter(pk__in=wanted)
        .annotate(
            wagers_total=Coalesce(
                Sum("wagers__amount"), Value(Decimal(0)), output_field=DecimalField()
            ),
            wager_count=Count("wagers"),
        )
        .prefetch_related("cards")
    }
    # The irregularities of the round on the layout, and of a round it interrupted (a simulated
    # round is dealt while the round whose card was disclosed waits, 000 §13(d)).
    irregular: dict[int, list[Irregularity]] = {}
    for found in (
        Irregularity.objects.filter(
            Q(round_id__in=[pk for pk in on_layout.values() if pk])
            | Q(round__table_id__in=[t.pk for t in tables], round__state__in=ACTIVE_ROUND_STATES)
        )
        .select_related("round")
        .order_by("pk")
    ):
        irregular.setdefault(found.round.table_id, []).append(found)
    markers: dict[int, list[dict[str, Any]]] = {}
    for m in VigorishMarker.objects.filter(
        table_id__in=[t.pk for t in tables], status=VigorishMarker.Status.OPEN
    ).order_by("table_id", "-seat", "marked_at"):
        markers.setdefault(m.table_id, []).append(
            {"seat": m.seat, "amount": m.amount, "player": m.player_name}
        )
    marks = open_marks(t.pk for t in tables)
    tiles = []
    for table in tables:
        shoe = _by_pk(shoes, table.current_shoe_id)
        game = _by_pk(rounds, on_layout[table.pk])
        last = _by_pk(rounds, table.last_result_id)
        tiles.append(
            TableTile(
                pk=table.pk,
                name=table.name,
                pit=table.pit.name,
                casino=table.pit.casino.name,
                zone=table.pit.casino.time_zone,
                game=table.rules.title,
                status=table.status,
                status_label=table.get_status_display(),
                sequence=table.last_sequence,
                shoe_number=shoe.number if shoe else None,
                shoe_state=shoe.get_state_display()
                if shoe and shoe.state != Shoe.State.IN_PLAY
                else "",
                cards_left=shoe.cards_left - shoe.burned if shoe else None,
                held_card=card_face(shoe.held_card).label if shoe and shoe.held_card else "",
                cut_card_round=shoe.cut_card_round if shoe else None,
                round=_round_tile(game, irregular.get(table.pk, [])) if game else None,
                last_result=f"Round {last.number}: {last.announcement}" if last else "",
                markers=markers.get(table.pk, []),
                marks=marks.get(table.pk, []),
            )
        )
    return tiles


def marks_key(marks: Iterable[TableMark]) -> str:
    """The open marks of a table as a short text that changes when any is raised, restated or
    cleared: ``"12.0 15.3"`` (each mark and how many times it was restated)."""
    return " ".join(f"{m.pk}.{m.restated}" for m in sorted(marks, key=lambda m: m.pk))


def marks_now() -> dict[int, str]:
    """``{table id: marks_key}`` of every table with an open mark (one query): the wall compares
    it with its tiles every half minute, in case a mark's notice was lost."""
    return {pk: marks_key(found) for pk, found in open_marks(None).items()}


def _on_layout(table: WallTable, shoes: dict[int, WallShoe]) -> int | None:
    """The round in play, else the last round of the shoe in use (as ``table_state`` shows)."""
    if table.active_round_id:
        return table.active_round_id
    shoe = _by_pk(shoes, table.current_shoe_id)
    return shoe.last_round_id if shoe else None


def _by_pk(rows: dict[int, _Row], pk: int | None) -> _Row | None:
    return None if pk is None else rows.get(pk)


def _round_tile(game: WallRound, irregularities: list[Irregularity]) -> RoundTile:
    cards = sorted(game.cards.all(), key=lambda c: c.position)
    player = [
        card_face(c.code, position=c.position, hand=c.hand) for c in cards if c.hand == "player"
    ]
    banker = [
        card_face(c.code, position=c.position, hand=c.hand) for c in cards if c.hand == "banker"
    ]
    return RoundTile(
        pk=game.pk,
        number=game.number,
        state=game.state,
        state_label=game.get_state_display(),
        simulated=game.simulated,
        player=player,
        banker=banker,
        player_total=hand_total([c.code for c in player]),
        banker_total=hand_total([c.code for c in banker]),
        winner=game.winner,
        announcement=game.announcement,
        wagers_total=game.wagers_total.quantize(CENT),
        wager_count=game.wager_count,
        irregularities=[
            IrregularityNote(
                round=i.round.number,
                kind=IRREGULARITY_KINDS.get(i.kind, i.kind),
                card=card_face(i.card).label if i.card else "",
                instruction=i.instruction,
            )
            for i in irregularities
            if i.round_id == game.pk or i.round.state in ACTIVE_ROUND_STATES
        ],
        void_reason=game.void_reason,
    )


def table_sequences() -> dict[int, int]:
    """The number of every table's last event, in one query (what the wall polls)."""
    return dict(Table.objects.annotate(last=last_sequence_of_tables()).values_list("pk", "last"))


# ---------------------------------------------------------------------------------------------
# The round search


@dataclass(frozen=True)
class RoundFilters:
    """What a surveillance officer searches rounds by; None leaves a filter out."""

    table: Table | None = None
    shoe: int | None = None
    start: datetime.datetime | None = None
    """Rounds opened at or after this moment."""
    end: datetime.datetime | None = None
    """Rounds opened before this moment."""
    min_wager: Decimal | None = None
    """Rounds with at least one wager of this amount or more."""
    irregular: bool = False
    """Only rounds with an irregularity."""


def round_search(filters: RoundFilters) -> QuerySet[Round]:
    """Rounds matching the filters, newest first, each with its total and largest wager.

    The totals come from subqueries, so a page of the result is one query however many wagers
    its rounds hold.
    """
    wagers = Wager.objects.filter(round=OuterRef("pk")).order_by().values("round")
    rounds = Round.objects.select_related("table__pit__casino", "shoe").annotate(
        total_wagered=Coalesce(
            Subquery(wagers.annotate(total=Sum("amount")).values("total")[:1]),
            Value(Decimal(0)),
            output_field=DecimalField(),
        ),
        largest_wager=Subquery(wagers.annotate(top=Max("amount")).values("top")[:1]),
        irregularity_count=Coalesce(
            Subquery(
                Irregularity.objects.filter(round=OuterRef("pk"))
                .order_by()
                .values("round")
                .annotate(n=Count("pk"))
                .values("n")[:1]
            ),
            Value(0),
            output_field=IntegerField(),
        ),
    )
    if filters.table is not None:
        rounds = rounds.filter(table=filters.table)
    if filters.shoe is not None:
        rounds = rounds.filter(shoe__number=filters.shoe)
    if filters.start is not None:
        rounds = rounds.filter(opened_at__gte=filters.start)
    if filters.end is not None:
        rounds = rounds.filter(opened_at__lt=filters.end)
    if filters.min_wager is not None:
        rounds = rounds.filter(
            Exists(Wager.objects.filter(round=OuterRef("pk"), amount__gte=filters.min_wager))
        )
    if filters.irregular:
        rounds = rounds.filter(Exists(Irregularity.objects.filter(round=OuterRef("pk"))))
    return rounds.order_by("-opened_at", "-pk")
