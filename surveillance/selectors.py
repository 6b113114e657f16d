"""The surveillance room's reads: the wall of every table, the round search and the round review.

The wall and the search run a fixed number of queries whatever the number of tables or rounds
(the tests count them). The review tells a round from the event record, the one source that
cannot be changed without it showing (``verify_chain``), and sets the stored rows beside it.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

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

from baccarat.cards import Card as EngineCard
from baccarat.cards import CardError, parse_cards, point_count
from baccarat.wagertypes import WagerType
from casino.models import Casino, Event
from casino.record import ChainReport, verify_chain
from tablegame.models import (
    Irregularity,
    Round,
    SettlementStep,
    Shoe,
    Table,
    VigorishMarker,
    Wager,
)
from tablegame.models.rounds import ACTIVE_ROUND_STATES

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
HANDS = {
    "player": "Player's hand",
    "banker": "Banker's hand",
    "discard": "discard rack",
    "next_hand": "next hand (held)",
}
STEP_ACTIONS = {
    "collect_fee": "Collect the collection fee",
    "collect": "Collect",
    "pay": "Pay",
    "ride": "Let ride",
    "collect_vigorish": "Collect commission",
    "mark_vigorish": "Mark commission",
    "return": "Return",
}
DISPOSITIONS = {
    "banker_third": "it becomes the Banker's third card",
    "next_hand_first": "it is held as the first card of the next hand",
    "burn_with_one_more": "burned with one more card, face down",
    "burn_by_value": "burned with as many cards as its value, face up",
    "simulated_round": "it starts a simulated round without wagers",
}
IRREGULARITY_KINDS = {
    "card_drawn_in_error": "card drawn in error",
    "unauthorized_player_third": "unauthorized Player third card",
    "card_face_up": "card found face up",
}


# ---------------------------------------------------------------------------------------------
# Small values shared by the pages


@dataclass(frozen=True)
class CardFace:
    """A card as drawn on the screen."""

    code: str
    """As stored: ``TD``, ``7H``."""
    label: str
    """Rank and suit symbol: ``10♦``."""
    red: bool
    """Hearts and diamonds."""
    position: int = 0
    """Order drawn within the round, from 1 (0 when unknown)."""
    hand: str = ""
    """``player``, ``banker``, ``discard`` or ``next_hand``."""

    @property
    def hand_label(self) -> str:
        return HANDS.get(self.hand, self.hand)


def card_face(code: str, *, position: int = 0, hand: str = "") -> CardFace:
    """The card ``code`` as a face for the screen; an unreadable code is shown as it is."""
    try:
        card = EngineCard.parse(code)
    except CardError:
        return CardFace(code, code, False, position, hand)
    rank = "10" if card.rank.symbol == "T" else card.rank.symbol
    suit = card.suit.value
    return CardFace(str(card), rank + SUITS[suit], suit in "HD", position, hand)


def hand_total(codes: Sequence[str]) -> int | None:
    """The Point Count of a hand, or None for no cards (or a card that cannot be read)."""
    if not codes:
        return None
    try:
        return point_count(parse_cards(list(codes)))
    except CardError:
        return None


def wager_label(kind: str | None) -> str:
    """The name of a wager as on the layout."""
    if not kind:
        return ""
    try:
        return WagerType(kind).label
    except ValueError:
        return kind


def casino_zone(casino: Casino | None) -> zoneinfo.ZoneInfo:
    """The casino's time zone (UTC if it names none that exists)."""
    try:
        return zoneinfo.ZoneInfo(casino.time_zone if casino else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


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
    irregularities: list[dict[str, str]]
    void_reason: str


@dataclass(frozen=True)
class TableTile:
    """Everything the wall shows of one table."""

    pk: int
    name: str
    pit: str
    casino: str
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

    @property
    def alert(self) -> bool:
        """An irregularity in the round on the layout."""
        return bool(self.round and self.round.irregularities)


def _latest(queryset: QuerySet[Any], *order: str) -> Subquery:
    return Subquery(queryset.order_by(*order).values("pk")[:1])


def wall_tiles(*, table_ids: Iterable[int] | None = None) -> list[TableTile]:
    """A tile for every table (or for ``table_ids``), in seven queries whatever their number.

    Queries: the tables (with their current shoe, current round, last result and last event
    picked by subqueries), their Rules Submissions, the shoes (with their last round), the rounds
    with their wager totals, those rounds' cards, the irregularities, the open vigorish markers.
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
            last_sequence=_last_sequence(),
        )
        .order_by("pit__casino__name", "pit__name", "name")
    )
    if table_ids is not None:
        tables_qs = tables_qs.filter(pk__in=list(table_ids))
    tables = list(tables_qs)
    if not tables:
        return []
    shoes = {
        s.pk: s
        for s in Shoe.objects.filter(pk__in=[t.current_shoe_id for t in tables]).annotate(
            last_round_id=_latest(Round.objects.filter(shoe=OuterRef("pk")), "-number")
        )
    }
    on_layout = {t.pk: _on_layout(t, shoes) for t in tables}
    wanted = {pk for t in tables for pk in (on_layout[t.pk], t.last_result_id) if pk is not None}
    rounds = {
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
    tiles = []
    for table in tables:
        shoe = shoes.get(table.current_shoe_id)
        game = rounds.get(on_layout[table.pk])
        last = rounds.get(table.last_result_id)
        tiles.append(
            TableTile(
                pk=table.pk,
                name=table.name,
                pit=table.pit.name,
                casino=table.pit.casino.name,
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
            )
        )
    return tiles


def _on_layout(table: Table, shoes: dict[int, Shoe]) -> int | None:
    """The round in play, else the last round of the shoe in use (as ``table_state`` shows)."""
    if table.active_round_id:  # type: ignore[attr-defined]
        return table.active_round_id  # type: ignore[attr-defined, no-any-return]
    shoe = shoes.get(table.current_shoe_id)  # type: ignore[attr-defined]
    return shoe.last_round_id if shoe else None  # type: ignore[attr-defined, no-any-return]


def _round_tile(game: Round, irregularities: list[Irregularity]) -> RoundTile:
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
        wagers_total=game.wagers_total,  # type: ignore[attr-defined]
        wager_count=game.wager_count,  # type: ignore[attr-defined]
        irregularities=[
            {
                "round": i.round.number,
                "kind": IRREGULARITY_KINDS.get(i.kind, i.kind),
                "card": card_face(i.card).label if i.card else "",
                "instruction": i.instruction,
            }
            for i in irregularities
            if i.round_id == game.pk or i.round.state in ACTIVE_ROUND_STATES
        ],
        void_reason=game.void_reason,
    )


def _last_sequence() -> Coalesce:
    """The number of the outer table's last event, 0 before the first (an index lookup)."""
    return Coalesce(
        Subquery(
            Event.objects.filter(chain__table=OuterRef("pk"))
            .order_by("-sequence")
            .values("sequence")[:1]
        ),
        Value(0),
        output_field=IntegerField(),
    )


def table_sequences() -> dict[int, int]:
    """The number of every table's last event, in one query (what the wall polls)."""
    return dict(Table.objects.annotate(last=_last_sequence()).values_list("pk", "last"))


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


# ---------------------------------------------------------------------------------------------
# The round review


@dataclass(frozen=True)
class StepLine:
    """One settlement step, in words."""

    index: int
    phase: str
    action: str
    action_label: str
    seat: int
    wager: str
    amount: Decimal | str

    @property
    def wager_name(self) -> str:
        return wager_label(self.wager)

    @property
    def key(self) -> tuple[str, int, str, str]:
        """What two lists of steps are compared by (amounts as written: "5" equals "5.00")."""
        try:
            amount = str(Decimal(str(self.amount)).normalize())
        except ArithmeticError:
            amount = str(self.amount)
        return (self.action, self.seat, self.wager, amount)


@dataclass(frozen=True)
class ReviewEvent:
    """One event of the record, as the review page tells it."""

    sequence: int
    action: str
    title: str
    detail: str
    actor: str
    at: datetime.datetime
    """When it was recorded (aware; the page shows it in UTC and in the casino's time)."""
    in_round: bool
    """False for an event of the table (a player sits down) or of another round in between."""
    chain: str
    """``verified``, ``broken`` (the first bad event) or ``unverified`` (after the break)."""
    card: CardFace | None = None
    steps: list[StepLine] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundReview:
    """A round told from the record, with the stored rows beside it."""

    round: Round
    zone: str
    events: list[ReviewEvent]
    chain: ChainReport
    record_cards: list[CardFace]
    """The cards as the record tells them, in dealing order."""
    row_cards: list[CardFace]
    player: list[CardFace]
    banker: list[CardFace]
    player_total: int | None
    banker_total: int | None
    wagers: list[dict[str, Any]]
    steps: list[StepLine]
    irregularities: list[dict[str, Any]]
    differences: list[str]
    """Where the stored rows say something else than the record; empty when they agree."""


def round_review(game: Round) -> RoundReview:
    """Reconstruct ``game`` from its table's record, check the chain, and compare with the rows."""
    table = game.table
    zone = casino_zone(table.pit.casino)
    chain = verify_chain(table.chain_id)
    events = round_events(game)
    told = [_tell(e, game, chain) for e in events]
    record_cards = _cards_from_record(events, game)
    row_cards = [
        card_face(c.code, position=c.position, hand=c.hand) for c in game.cards.order_by("position")
    ]
    wager_rows = list(game.wagers.select_related("placed_by").order_by("-seat", "type"))
    step_rows = [
        StepLine(
            index=s.index,
            phase=s.phase,
            action=s.action,
            action_label=STEP_ACTIONS.get(s.action, s.action),
            seat=s.seat,
            wager=s.wager_type,
            amount=s.amount,
        )
        for s in SettlementStep.objects.filter(round=game).order_by("index")
    ]
    irregularities = [
        {
            "kind": IRREGULARITY_KINDS.get(i.kind, i.kind),
            "card": card_face(i.card) if i.card else None,
            "disclosed": _disclosed({"kind": i.kind, "disclosed": i.disclosed}),
            "disposition": DISPOSITIONS.get(i.disposition, i.disposition),
            "instruction": i.instruction,
            "reported_by": i.reported_by.get_username() if i.reported_by else "system",
            "at": i.reported_at,
        }
        for i in game.irregularities.select_related("reported_by").order_by("pk")
    ]
    player = [c for c in row_cards if c.hand == "player"]
    banker = [c for c in row_cards if c.hand == "banker"]
    differences = _differences(events, game, record_cards, row_cards, wager_rows, step_rows)
    return RoundReview(
        round=game,
        zone=str(zone),
        events=told,
        chain=chain,
        record_cards=record_cards,
        row_cards=row_cards,
        player=player,
        banker=banker,
        player_total=hand_total([c.code for c in player]),
        banker_total=hand_total([c.code for c in banker]),
        wagers=[
            {
                "seat": w.seat,
                "type": wager_label(w.type),
                "amount": w.amount,
                "ride": wager_label(w.ride),
                "result": w.result,
                "payout": w.payout,
                "vigorish": w.vigorish,
                "returned": w.returned,
                "ridden": w.ridden,
                "fee": w.fee,
                "award": w.award,
                "placed_by": w.placed_by.get_username() if w.placed_by else "system",
            }
            for w in wager_rows
        ],
        steps=step_rows,
        irregularities=irregularities,
        differences=differences,
    )


def round_events(game: Round) -> list[Event]:
    """The events of ``game`` from its table's record, in sequence, with the table's own events
    (a player sits down, the shoe passes) and those of a round dealt in between.

    A round is found in the record by its number within its shoe: the events from the shoe's
    first event up to the next shoe's that carry ``"round": number``. A simulated round starts
    with the irregularity that disclosed its first card (000 §13(d)), recorded in the round it
    interrupted: that event comes first.
    """
    table_events = Event.objects.filter(chain__table=game.table_id).select_related("actor")
    shoe_number = game.shoe.number
    shoe_start = (
        table_events.filter(Q(data__shoe=shoe_number) | Q(data__next_shoe=shoe_number))
        .order_by("sequence")
        .values_list("sequence", flat=True)
        .first()
    ) or 1
    shoe_end = (
        table_events.filter(sequence__gt=shoe_start)
        .filter(Q(data__shoe=shoe_number + 1) | Q(data__next_shoe=shoe_number + 1))
        .order_by("sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    in_shoe = table_events.filter(sequence__gte=shoe_start)
    if shoe_end is not None:
        in_shoe = in_shoe.filter(sequence__lt=shoe_end)
    own = list(in_shoe.filter(data__round=game.number).order_by("sequence"))
    if not own:
        return []
    first, last = own[0].sequence, own[-1].sequence
    if game.simulated:
        opener = (
            in_shoe.filter(
                action="irregularity",
                data__disposition="simulated_round",
                sequence__lt=first,
            )
            .order_by("-sequence")
            .first()
        )
        if opener is not None:
            first = opener.sequence
    return list(in_shoe.filter(sequence__gte=first, sequence__lte=last).order_by("sequence"))


def _in_round(event: Event, game: Round) -> bool:
    number = event.data.get("round") if isinstance(event.data, dict) else None
    return number == game.number or (
        game.simulated
        and event.action == "irregularity"
        and event.data.get("disposition") == "simulated_round"
    )


def _tell(event: Event, game: Round, chain: ChainReport) -> ReviewEvent:
    data = event.data if isinstance(event.data, dict) else {}
    card = None
    if event.action == "card_dealt":
        card = card_face(
            str(data.get("card", "")),
            position=data.get("position") or 0,
            hand=str(data.get("hand", "")),
        )
    elif event.action == "irregularity" and data.get("card"):
        card = card_face(str(data["card"]))
    other = data.get("round") not in (None, game.number)
    if chain.ok or event.sequence <= chain.checked:
        status = "verified"
    elif event.sequence == chain.first_bad_sequence:
        status = "broken"
    else:
        status = "unverified"
    return ReviewEvent(
        sequence=event.sequence,
        action=event.action,
        title=TITLES.get(event.action, event.action.replace("_", " ").capitalize()),
        detail=(f"Round {data['round']}: " if other else "") + _describe(event.action, data, card),
        actor=event.actor.get_username() if event.actor else "system",
        at=event.created_at,
        in_round=_in_round(event, game),
        chain=status,
        card=card,
        steps=_steps(data.get("steps")),
        data=data,
    )


def _disclosed(d: dict[str, Any]) -> str:
    """Whether the card was seen, for the kinds where that decides the remedy."""
    if d.get("kind") == "card_face_up":
        return ""  # seen by everyone by definition
    return " (disclosed)" if d.get("disclosed") else " (not disclosed)"


def _seat_name(seat: Any) -> str:
    return "the dealer" if seat in (None, 0) else f"seat {seat}"


def _money(amount: Any) -> str:
    return f"${amount}"


def _steps(raw: Any) -> list[StepLine]:
    if not isinstance(raw, list):
        return []
    return [
        StepLine(
            index=i,
            phase=str(s.get("phase", "")),
            action=str(s.get("action", "")),
            action_label=STEP_ACTIONS.get(str(s.get("action", "")), str(s.get("action", ""))),
            seat=s.get("seat", 0),
            wager=s.get("wager") or "",
            amount=str(s.get("amount", "")),
        )
        for i, s in enumerate(raw, start=1)
        if isinstance(s, dict)
    ]


TITLES = {
    "round_opened": "Round opened",
    "wager_placed": "Wager placed",
    "wager_changed": "Wager changed",
    "wager_withdrawn": "Wager withdrawn",
    "player_dealer_bank": "Player-dealer's bank",
    "no_more_bets": "No more bets",
    "cards_relinquished": "Cards relinquished",
    "card_dealt": "Card dealt",
    "irregularity": "Irregularity",
    "house_money_settled": "House Money settled",
    "round_settled": "Round settled",
    "round_void": "Round void",
    "progressive_hit": "Progressive hit",
    "shoe_call": "Shoe call",
    "cut_card_out": "Cut card out",
    "shoe_passed": "Shoe passed",
    "player_dealer_rotates": "Player-dealer rotates",
    "player_seated": "Player seated",
    "player_left": "Player left",
}
SHOE_CALLS = {"last_hand": "the next round is the last of the shoe", "shoe_over": "shoe over"}


def _describe(action: str, d: dict[str, Any], card: CardFace | None) -> str:
    """The event in one sentence."""
    seat, wager = d.get("seat"), wager_label(d.get("wager"))
    if action == "round_opened":
        return f"Round {d.get('round')} of shoe {d.get('shoe')}: place your bets"
    if action == "wager_placed":
        ride = f", riding on {wager_label(d['ride'])}" if d.get("ride") else ""
        return f"Seat {seat}: {wager} {_money(d.get('amount'))}{ride}"
    if action == "wager_changed":
        return f"Seat {seat}: {wager} {_money(d.get('previous'))} → {_money(d.get('amount'))}"
    if action == "wager_withdrawn":
        return f"Seat {seat}: {wager}"
    if action == "player_dealer_bank":
        return _money(d.get("bank"))
    if action == "no_more_bets":
        return (
            f"Player's cards turned by {_seat_name(d.get('player_turner'))}, "
            f"Banker's by {_seat_name(d.get('banker_turner'))}"
        )
    if action == "cards_relinquished":
        hand = str(d.get("hand")).title()
        return (
            f"{_seat_name(seat).capitalize()} gave up turning the {hand}'s cards; "
            f"now {_seat_name(d.get('now'))}"
        )
    if action == "card_dealt" and card is not None:
        return f"Card {card.position}: {card.label} to the {card.hand_label}"
    if action == "irregularity":
        kind = IRREGULARITY_KINDS.get(str(d.get("kind")), str(d.get("kind")))
        where = DISPOSITIONS.get(str(d.get("disposition")), str(d.get("disposition")))
        extra = d.get("extra_burn") or 0
        burn = f" ({extra} more card{'s' if extra != 1 else ''})" if extra else ""
        return (
            f"{kind.capitalize()}: {card.label if card else '?'}{_disclosed(d)}, {where}{burn}. "
            f"Instruction: {d.get('instruction', '')}"
        )
    if action == "house_money_settled":
        return "Before any third card, in this order"
    if action == "round_settled":
        winner = str(d.get("winner") or "?")
        return f"{'Tie' if winner == 'tie' else winner.title() + ' wins'}; settled in this order"
    if action == "round_void":
        return f"Wagers returned: {d.get('reason', '')}"
    if action == "progressive_hit":
        return f"Seat {seat}: the {str(d.get('meter')).title()} meter paid {_money(d.get('paid'))}"
    if action == "shoe_call":
        return SHOE_CALLS.get(str(d.get("call")), str(d.get("call")))
    if action == "cut_card_out":
        return f"Shoe {d.get('shoe')}: complete this hand, then last hand"
    if action == "shoe_passed":
        why = d.get("reason") or ("ordered" if d.get("ordered") else "by choice")
        return f"{_seat_name(seat).capitalize()} passes the shoe ({why})"
    if action == "player_dealer_rotates":
        return f"From {_seat_name(seat)} to {_seat_name(d.get('offered_to'))}"
    if action in ("player_seated", "player_left"):
        return f"Seat {seat}: {d.get('player', '')}"
    return ", ".join(f"{k} {v}" for k, v in sorted(d.items()))


def _cards_from_record(events: Sequence[Event], game: Round) -> list[CardFace]:
    """The round's cards as the record tells them, in the order they were drawn."""
    cards: list[CardFace] = []
    for event in events:
        d = event.data if isinstance(event.data, dict) else {}
        if event.action == "card_dealt" and d.get("round") == game.number:
            cards.append(
                card_face(
                    str(d.get("card", "")),
                    position=d.get("position") or len(cards) + 1,
                    hand=str(d.get("hand", "")),
                )
            )
        elif event.action == "irregularity" and _in_round(event, game):
            disposition = d.get("disposition")
            if d.get("round") != game.number:  # the first card of this simulated round
                hand = "player"
            elif disposition == "simulated_round":
                continue  # the card went to the simulated round, not this one
            else:
                hand = {"banker_third": "banker", "next_hand_first": "next_hand"}.get(
                    str(disposition), "discard"
                )
            cards.append(card_face(str(d.get("card", "")), position=len(cards) + 1, hand=hand))
    return cards


def _differences(
    events: Sequence[Event],
    game: Round,
    record_cards: list[CardFace],
    row_cards: list[CardFace],
    wager_rows: list[Wager],
    step_rows: list[StepLine],
) -> list[str]:
    """Where the stored rows disagree with the record, in words."""
    out: list[str] = []
    told = {c.position: c for c in record_cards}
    stored = {c.position: c for c in row_cards}
    for position in sorted(set(told) | set(stored)):
        was, now = told.get(position), stored.get(position)
        if (was and (was.code, was.hand)) != (now and (now.code, now.hand)):
            out.append(
                f"Card {position}: the record has "
                + (f"{was.label} to the {was.hand_label}" if was else "no card")
                + ", the stored row "
                + (f"{now.label} to the {now.hand_label}" if now else "no card")
                + "."
            )
    placed: dict[tuple[int, str], str] = {}
    for event in events:
        d = event.data if isinstance(event.data, dict) else {}
        if d.get("round") != game.number:
            continue
        key = (d.get("seat"), d.get("wager"))
        if event.action in ("wager_placed", "wager_changed"):
            placed[key] = str(Decimal(str(d.get("amount"))))  # type: ignore[index]
        elif event.action == "wager_withdrawn":
            placed.pop(key, None)  # type: ignore[arg-type]
    rows = {(w.seat, w.type): str(w.amount) for w in wager_rows}
    for key in sorted(set(placed) | set(rows), key=lambda k: (-k[0], k[1])):
        if placed.get(key) != rows.get(key):
            seat, kind = key
            out.append(
                f"Wager at seat {seat} on {wager_label(kind)}: the record says "
                f"{_money(placed[key]) if key in placed else 'none'}, the stored row "
                f"{_money(rows[key]) if key in rows else 'none'}."
            )
    recorded_steps: list[StepLine] = []
    settled = False
    for event in events:
        d = event.data if isinstance(event.data, dict) else {}
        if d.get("round") == game.number and event.action in (
            "house_money_settled",
            "round_settled",
        ):
            recorded_steps.extend(_steps(d.get("steps")))
            settled = settled or event.action == "round_settled"
    if settled and [s.key for s in recorded_steps] != [s.key for s in step_rows]:
        out.append(
            f"Settlement: the record lists {len(recorded_steps)} steps, the stored rows "
            f"{len(step_rows)}, and they differ."
        )
    return out


def round_for_review(round_id: int) -> Round | None:
    """The round with what the review needs of its table, or None."""
    return (
        Round.objects.select_related("table__pit__casino", "shoe", "rules")
        .filter(pk=round_id)
        .first()
    )
