"""The round review: a round told from its table's record, with the stored rows set beside it.

The record is the one source that cannot be changed without it showing (``verify_chain``). Each
event is read back into its kind's payload class (``tablegame.events``), which gives its title
and sentence; every figure the review shows (cards, wagers and their settlement, winner, totals,
announcement, steps, irregularities) comes from those payloads, and ``differences`` names each
stored row that says something else.

It is tablegame's, the record of a round, below the apps that read it: surveillance opens it from
its wall and round search, accounting from the exceptions of its day report (the page is
``tablegame.views_review``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.irregularities import Disposition
from baccarat.money import CENT
from baccarat.outcome import Outcome
from baccarat.wagers import Result
from casino.events import KINDS, PayloadMismatch, event_lookup, payload_of
from casino.models import Event
from casino.record import ChainReport, verify_chain
from tablegame.events import (
    ROUND_KINDS,
    CardCorrected,
    CardDealt,
    DecksReceived,
    HouseMoneySettled,
    IdleRespread,
    IrregularityReported,
    RoundOpened,
    RoundSettled,
    RoundVoid,
    StepRecord,
    TablePayload,
    WagerChanged,
    WagerPlaced,
    WagerWithdrawn,
)
from tablegame.faces import STEP_ACTIONS, CardFace, card_face, casino_zone, hand_total, wager_label
from tablegame.models import Irregularity, Round, SettlementStep, Wager


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
    payload: TablePayload | None = None
    """The event read back into its kind's class; None when it does not fit (``problem``)."""
    problem: str = ""


@dataclass(frozen=True)
class RoundReview:
    """A round told from the record, with the stored rows beside it.

    Every figure comes from the record: the cards from ``card_dealt`` and ``irregularity``, the
    wagers from ``wager_placed``/``_changed``/``_withdrawn`` and the settlement events, the winner,
    totals and announcement from ``round_settled`` (or, before it, from the recorded cards).
    """

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
    winner: str
    """``player``, ``banker``, ``tie``, or empty before the coup is complete."""
    announcement: str
    wagers: list[dict[str, Any]]
    steps: list[StepLine]
    irregularities: list[dict[str, Any]]
    differences: list[str]
    """Where the stored rows say something else than the record, or an event of the record does
    not fit its kind; empty when they agree."""
    dealer: str = ""
    """Who dealt the round, as its ``round_opened`` event names them (blank: no dealer named)."""
    void_approved_by: str = ""
    """Who approved the dealer's void at the tablet, as its ``round_void`` event names them
    (blank: not void, or nobody had to)."""


@dataclass(frozen=True)
class _Read:
    """A stored event and its typed payload (None, with the reason, when it does not fit)."""

    event: Event
    payload: TablePayload | None
    problem: str = ""


def round_review(game: Round) -> RoundReview:
    """Tell ``game`` from its table's record, check the chain, and compare the rows with it."""
    table = game.table
    zone = casino_zone(table.pit.casino)
    chain = verify_chain(table.chain_id)
    read = [_read(e) for e in round_events(game)]
    record_cards = _cards_from_record(read, game)
    row_cards = [
        card_face(c.code, position=c.position, hand=c.hand) for c in game.cards.order_by("position")
    ]
    player = [c for c in record_cards if c.hand == "player"]
    banker = [c for c in record_cards if c.hand == "banker"]
    settled = next(
        (r.payload for r in read if isinstance(r.payload, RoundSettled) and _own(r.payload, game)),
        None,
    )
    opened = next(
        (r.payload for r in read if isinstance(r.payload, RoundOpened) and _own(r.payload, game)),
        None,
    )
    voided = next(
        (r.payload for r in read if isinstance(r.payload, RoundVoid) and _own(r.payload, game)),
        None,
    )
    player_total: int | None
    banker_total: int | None
    if settled is not None:
        winner, announcement = settled.winner.value, settled.announcement
        player_total, banker_total = settled.player_total, settled.banker_total
    else:
        outcome = _outcome_of(player, banker)
        winner = outcome.winner.value if outcome else ""
        announcement = outcome.announcement(ez=game.rules.submission.is_ez) if outcome else ""
        player_total = hand_total([c.code for c in player])
        banker_total = hand_total([c.code for c in banker])
    wagers = _wagers_from_record(read, game)
    steps = _steps_from_record(read, game)
    irregular = [
        r for r in read if isinstance(r.payload, IrregularityReported) and _own(r.payload, game)
    ]
    rows = _Rows(
        cards=row_cards,
        wagers=list(game.wagers.all()),
        steps=[
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
        ],
        irregularities=list(game.irregularities.order_by("pk")),
    )
    return RoundReview(
        round=game,
        zone=str(zone),
        events=[_tell(r, game, chain) for r in read],
        chain=chain,
        record_cards=record_cards,
        row_cards=row_cards,
        player=player,
        banker=banker,
        player_total=player_total,
        banker_total=banker_total,
        winner=winner,
        announcement=announcement,
        wagers=[
            w | {"type": wager_label(w["type"]), "ride": wager_label(w["ride"])}
            for _, w in sorted(wagers.items(), key=lambda item: (-item[0][0], item[0][1]))
        ],
        steps=steps,
        irregularities=[
            {
                "kind": r.payload.irregularity.label,
                "card": card_face(r.payload.card),
                "disclosed": r.payload.disclosure,
                "disposition": r.payload.disposition.label,
                "instruction": r.payload.instruction,
                "reported_by": _who(r.event),
                "at": r.event.created_at,
            }
            for r in irregular
            if isinstance(r.payload, IrregularityReported)
        ],
        differences=[
            *(
                f"Event {r.event.sequence} ({r.event.action}) does not fit its kind, so the "
                f"review cannot tell it: {r.problem}."
                for r in read
                if r.payload is None
            ),
            *_differences(game, settled, record_cards, wagers, steps, irregular, rows),
        ],
        dealer=opened.dealer if opened is not None else "",
        void_approved_by=(voided.approved_by or "") if voided is not None else "",
    )


def round_events(game: Round) -> list[Event]:
    """The events of ``game`` from its table's record, in sequence, with the table's own events
    (a player sits down, the shoe passes) and those of a round dealt in between.

    A round is found in the record by its number within its shoe: the events from the shoe's
    first event (its decks received, or the idle spread that readied it) up to the next shoe's
    that name the round. A simulated round starts with the irregularity that disclosed its
    first card (000 §13(d)), recorded in the round it interrupted: that event comes first. The
    JSON keys queried are the payload classes' own (``Payload.lookup``).
    """
    table_events = Event.objects.filter(chain__table=game.table_id).select_related("actor")

    def first_of_shoe(number: int) -> Q:
        return Q(**DecksReceived.lookup(shoe=number)) | Q(**IdleRespread.lookup(next_shoe=number))

    shoe_number = game.shoe.number
    shoe_start = (
        table_events.filter(first_of_shoe(shoe_number))
        .order_by("sequence")
        .values_list("sequence", flat=True)
        .first()
    ) or 1
    shoe_end = (
        table_events.filter(first_of_shoe(shoe_number + 1), sequence__gt=shoe_start)
        .order_by("sequence")
        .values_list("sequence", flat=True)
        .first()
    )
    in_shoe = table_events.filter(sequence__gte=shoe_start)
    if shoe_end is not None:
        in_shoe = in_shoe.filter(sequence__lt=shoe_end)
    own = list(
        in_shoe.filter(**event_lookup(*ROUND_KINDS, round=game.number))
        .order_by("sequence")
        .values_list("sequence", flat=True)
    )
    if not own:
        return []
    first, last = own[0], own[-1]
    if game.simulated:
        opener = (
            in_shoe.filter(
                **IrregularityReported.lookup(disposition=Disposition.SIMULATED_ROUND),
                sequence__lt=first,
            )
            .order_by("-sequence")
            .values_list("sequence", flat=True)
            .first()
        )
        if opener is not None:
            first = opener
    return list(in_shoe.filter(sequence__gte=first, sequence__lte=last).order_by("sequence"))


def _read(event: Event) -> _Read:
    try:
        payload = payload_of(event.action, event.data)
    except PayloadMismatch as error:
        return _Read(event, None, str(error))
    if not isinstance(payload, TablePayload):
        return _Read(event, None, f"{event.action} is not an event of a table")
    return _Read(event, payload)


def _own(payload: TablePayload, game: Round) -> bool:
    """The event names ``game``'s number (events of a round dealt in between name theirs)."""
    return payload.round_number == game.number


def _in_round(payload: TablePayload | None, game: Round) -> bool:
    """Part of ``game``: its own events, and for a simulated round the irregularity opening it."""
    if payload is None:
        return False
    return _own(payload, game) or (
        game.simulated
        and isinstance(payload, IrregularityReported)
        and payload.disposition is Disposition.SIMULATED_ROUND
    )


def _who(event: Event) -> str:
    return event.actor.get_username() if event.actor else "system"


def _tell(read: _Read, game: Round, chain: ChainReport) -> ReviewEvent:
    event, payload = read.event, read.payload
    if chain.ok or event.sequence <= chain.checked:
        status = "verified"
    elif event.sequence == chain.first_bad_sequence:
        status = "broken"
    else:
        status = "unverified"
    card = None
    if isinstance(payload, CardDealt):
        card = card_face(payload.card, position=payload.position, hand=payload.hand.value)
    elif isinstance(payload, IrregularityReported):
        card = card_face(payload.card)
    if payload is None:
        kind = KINDS.get(event.action)
        title = kind.title if kind else event.action.replace("_", " ").capitalize()
        detail = f"Does not fit its kind: {read.problem}"
    else:
        number = payload.round_number
        title = payload.title
        detail = (
            f"Round {number}: " if number not in (None, game.number) else ""
        ) + payload.describe()
    return ReviewEvent(
        sequence=event.sequence,
        action=event.action,
        title=title,
        detail=detail,
        actor=_who(event),
        at=event.created_at,
        in_round=_in_round(payload, game),
        chain=status,
        card=card,
        steps=_step_lines(payload.steps) if isinstance(payload, _SETTLING) else [],
        data=event.data if isinstance(event.data, dict) else {},
        payload=payload,
        problem=read.problem,
    )


_SETTLING = (HouseMoneySettled, RoundSettled, RoundVoid)


def _step_lines(steps: Sequence[StepRecord], start: int = 1) -> list[StepLine]:
    return [
        StepLine(
            index=i,
            phase=s.phase,
            action=s.action.value,
            action_label=s.action.label,
            seat=s.seat,
            wager=s.wager.value if s.wager else "",
            amount=_cents(s.amount),
        )
        for i, s in enumerate(steps, start=start)
    ]


def _cents(amount: Decimal) -> Decimal:
    """Money as the rows hold it: to the cent."""
    return amount.quantize(CENT)


def _money(amount: Any) -> str:
    return f"${amount}"


def _outcome_of(player: list[CardFace], banker: list[CardFace]) -> Outcome | None:
    """The outcome the recorded cards make, once they make a complete coup."""
    try:
        coup = Coup.from_hands(
            parse_cards([c.code for c in player]), parse_cards([c.code for c in banker])
        )
    except RulesError:
        return None
    return Outcome.of(coup) if coup.is_complete else None


def _cards_from_record(read: Sequence[_Read], game: Round) -> list[CardFace]:
    """The round's cards as the record tells them, in the order they were drawn: a mis-keyed
    card as its approved correction says it was."""
    cards: list[CardFace] = []
    for r in read:
        p = r.payload
        if isinstance(p, CardDealt) and _own(p, game):
            cards.append(card_face(p.card, position=p.position, hand=p.hand.value))
        elif isinstance(p, CardCorrected) and _own(p, game):
            cards = [
                card_face(p.card, position=c.position, hand=c.hand)
                if c.position == p.position
                else c
                for c in cards
            ]
        elif isinstance(p, IrregularityReported) and _in_round(p, game):
            if not _own(p, game):  # the first card of this simulated round
                hand = "player"
            elif p.disposition is Disposition.SIMULATED_ROUND:
                continue  # the card went to the simulated round, not this one
            else:
                hand = {
                    Disposition.BANKER_THIRD: "banker",
                    Disposition.NEXT_HAND_FIRST: "next_hand",
                }.get(p.disposition, "discard")
            cards.append(card_face(p.card, position=len(cards) + 1, hand=hand))
    return cards


#: A wager's figures as the review shows them, by name, with how a difference names them.
WAGER_FIGURES = {
    "amount": "amount",
    "ride": "rides on",
    "result": "outcome",
    "payout": "payout",
    "vigorish": "commission",
    "returned": "returned",
    "ridden": "let ride",
    "fee": "collection fee",
    "award": "award",
}
NO_MONEY = Decimal("0.00")


def _wagers_from_record(
    read: Sequence[_Read], game: Round
) -> dict[tuple[int, str], dict[str, Any]]:
    """Every wager of ``game`` as the record tells it, by (seat, wager type)."""
    wagers: dict[tuple[int, str], dict[str, Any]] = {}
    for r in read:
        p = r.payload
        if p is None or not _own(p, game):
            continue
        if isinstance(p, WagerPlaced):
            wagers[(p.seat, p.wager.value)] = {
                "seat": p.seat,
                "type": p.wager.value,
                "amount": _cents(p.amount),
                "ride": p.ride.value if p.ride else "",
                "result": "",
                "payout": NO_MONEY,
                "vigorish": NO_MONEY,
                "returned": NO_MONEY,
                "ridden": NO_MONEY,
                "fee": NO_MONEY,
                "award": "",
                "placed_by": _who(r.event),
            }
        elif isinstance(p, WagerChanged) and (p.seat, p.wager.value) in wagers:
            wagers[(p.seat, p.wager.value)].update(
                amount=_cents(p.amount), ride=p.ride.value if p.ride else ""
            )
        elif isinstance(p, WagerWithdrawn):
            wagers.pop((p.seat, p.wager.value), None)
        elif isinstance(p, HouseMoneySettled | RoundSettled):
            for s in p.wagers:
                wager = wagers.get((s.seat, s.wager.value))
                if wager is None:
                    continue
                wager.update(
                    result=s.result.value,
                    payout=_cents(s.payout),
                    vigorish=_cents(s.vigorish),
                    returned=_cents(s.returned),
                    ridden=_cents(s.ridden),
                    fee=_cents(s.fee),
                    award=s.award.value if s.award else "",
                )
                if s.ride:
                    wager["ride"] = s.ride.value
        elif isinstance(p, RoundVoid):
            for wager in wagers.values():
                wager["result"] = Result.PUSH.value
    return wagers


def _steps_from_record(read: Sequence[_Read], game: Round) -> list[StepLine]:
    """The settlement steps as recorded: House Money's, then the round's (or the void's)."""
    records = [
        step
        for r in read
        if isinstance(r.payload, _SETTLING) and _own(r.payload, game)
        for step in r.payload.steps
    ]
    return _step_lines(records)


@dataclass(frozen=True)
class _Rows:
    """What the stored rows say of a round."""

    cards: list[CardFace]
    wagers: list[Wager]
    steps: list[StepLine]
    irregularities: list[Irregularity]


def _differences(
    game: Round,
    settled: RoundSettled | None,
    record_cards: list[CardFace],
    recorded_wagers: dict[tuple[int, str], dict[str, Any]],
    recorded_steps: list[StepLine],
    irregular: list[_Read],
    rows: _Rows,
) -> list[str]:
    """Where the stored rows disagree with the record, in words."""
    recorded_irregularities = [
        (r.payload.irregularity.value, r.payload.card, r.payload.disposition.value)
        for r in irregular
        if isinstance(r.payload, IrregularityReported)
    ]
    stored_irregularities = [(i.kind, i.card, i.disposition) for i in rows.irregularities]
    return [
        *_card_differences(record_cards, rows.cards),
        *(_outcome_differences(settled, game) if settled else []),
        *_wager_differences(recorded_wagers, rows.wagers),
        *(
            [
                f"Settlement: the record lists {len(recorded_steps)} steps, the stored rows "
                f"{len(rows.steps)}, and they differ."
            ]
            if [s.key for s in recorded_steps] != [s.key for s in rows.steps]
            else []
        ),
        *(
            [
                f"Irregularities: the record has {_irregularities(recorded_irregularities)}, "
                f"the stored rows {_irregularities(stored_irregularities)}."
            ]
            if recorded_irregularities != stored_irregularities
            else []
        ),
    ]


def _card_differences(record_cards: list[CardFace], row_cards: list[CardFace]) -> list[str]:
    out = []
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
    return out


def _outcome_differences(settled: RoundSettled, game: Round) -> list[str]:
    figures: list[tuple[str, object, object]] = [
        ("winner", settled.winner.value, game.winner),
        ("Player total", settled.player_total, game.player_total),
        ("Banker total", settled.banker_total, game.banker_total),
        ("tags", ", ".join(settled.tags), ", ".join(game.tags or [])),
        ("announcement", settled.announcement, game.announcement),
    ]
    return [
        f"The round's {name}: the record says {_said(recorded)}, the stored row {_said(stored)}."
        for name, recorded, stored in figures
        if recorded != stored
    ]


def _wager_differences(
    recorded_wagers: dict[tuple[int, str], dict[str, Any]], rows: list[Wager]
) -> list[str]:
    out = []
    stored_wagers = {(w.seat, w.type): w for w in rows}
    for key in sorted(set(recorded_wagers) | set(stored_wagers), key=lambda k: (-k[0], k[1])):
        seat, kind = key
        where = f"Wager at seat {seat} on {wager_label(kind)}"
        recorded, row = recorded_wagers.get(key), stored_wagers.get(key)
        if recorded is None or row is None:
            out.append(
                f"{where}: the record says "
                + (_money(recorded["amount"]) if recorded else "none")
                + ", the stored row "
                + (_money(row.amount) if row else "none")
                + "."
            )
            continue
        for figure, words in WAGER_FIGURES.items():
            said, stored = recorded[figure], getattr(row, figure)
            if said != stored:
                out.append(
                    f"{where}: the record says {words} {_said(said)}, "
                    f"the stored row {_said(stored)}."
                )
    return out


def _said(value: object) -> str:
    """A figure in a difference: money with its dollar sign, nothing as "none"."""
    if isinstance(value, Decimal):
        return _money(value)
    return "none" if value in (None, "") else str(value)


def _irregularities(found: list[tuple[str, str, str]]) -> str:
    return (
        "; ".join(f"{kind.replace('_', ' ')} {card_face(card).label}" for kind, card, _ in found)
        or "none"
    )


def round_for_review(round_id: int) -> Round | None:
    """The round with what the review needs of its table, or None."""
    return (
        Round.objects.select_related("table__pit__casino", "shoe", "rules")
        .filter(pk=round_id)
        .first()
    )
