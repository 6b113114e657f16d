"""Round actions: open for wagers, wagers, "no more bets", cards one by one, House Money, settle.

000 §7-12, 002 (b)-(j), 004 §8-14, 001.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from baccarat.cards import Card, CardError
from baccarat.cutcard import ShoeCall, after_round, may_deal_round
from baccarat.drawing import Coup, IllegalDeal
from baccarat.errors import RulesError
from baccarat.irregularities import enough_cards
from baccarat.money import parse_amount
from baccarat.outcome import Hand, Outcome
from baccarat.profiles import RulesSubmission
from baccarat.royal9 import Royal9Award
from baccarat.seating import card_turner, curator_must_pass, next_player_dealer
from baccarat.settlement import Action as StepAction
from baccarat.settlement import (
    PlayerDealer,
    SettledWager,
    Settlement,
    Step,
    check_wagers,
    player_dealer_result,
    settle,
    settle_house_money,
)
from baccarat.settlement import Wager as EngineWager
from baccarat.wagertypes import WagerType
from casino import access
from casino.roles import Actor
from tablegame import events
from tablegame.actions.common import (
    ActionError,
    action,
    check_approver,
    check_text,
    lock_table,
    record,
)
from tablegame.dealers import dealer_dealing
from tablegame.errors import IllegalCard, LateWager, MistypedCard, OverLimit, UnderLimit
from tablegame.live import live
from tablegame.models import (
    Card as DealtCard,
)
from tablegame.models import (
    ProgressiveMeter,
    Round,
    SettlementStep,
    Shoe,
    Table,
    Wager,
)
from tablegame.progressives import settlement
from tablegame.tallies import writes as tallies
from tablegame.vigorish_forms.settlement import mark_deferred_vigorish
from tablegame.work import work

State = Round.State


def wager_order(w: Wager) -> tuple[int, str]:
    """The models' order of a round's wagers (``Wager.Meta.ordering``)."""
    return -w.seat, w.type


def _round(table: Table) -> Round:
    game = live(table).round
    if game is None:
        raise ActionError("No round is in play: open one for wagers.")
    return game


@action
def open_round(table: Table, *, actor: Actor) -> Round:
    """Open a round for wagers ("place your bets")."""
    table = lock_table(table)
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table} is closed.")
    facts = live(table)
    if facts.round:
        raise ActionError("A round is already in play.")
    shoe = facts.shoe
    if shoe is None or shoe.state != Shoe.State.IN_PLAY:
        raise ActionError("The shoe is not ready: shuffle, cut and burn first.")
    number = shoe.last_round_number() + 1
    if not may_deal_round(number, shoe.cut_card_round):
        raise ActionError("The last hand has been dealt: end the shoe and reshuffle.")
    rules_record = facts.rules_record
    if rules_record is None:
        raise ActionError("The table has no Rules Submission on file: open the table first.")
    rules = rules_record.submission
    if rules.has_curator and table.curator_seat is None:
        raise ActionError("Offer the shoe: nobody is curator.")
    if rules.player_dealer and table.player_dealer_seat is None:
        raise ActionError("Offer the player-dealer position: nobody holds it.")
    carried = _carried_bank(table) if rules.player_dealer else None  # 001
    game = work().add_now(
        Round(
            table=table,
            shoe=shoe,
            number=number,
            rules=rules_record,
            curator_seat=table.curator_seat,
            player_dealer_seat=table.player_dealer_seat,
            player_dealer_bank=carried.after if carried else None,
        )
    )
    shoe.note_round(number)
    work().relate(game, "shoe", shoe)
    for name in ("wagers", "cards", "steps", "irregularities"):  # nothing under it yet
        work().keep(game, name, [])
    facts.round = game
    dealer = dealer_dealing(table, actor)
    record(table, actor, events.RoundOpened(shoe=shoe.number, round=number, dealer=dealer))
    if carried:
        record(
            table,
            None,
            events.PlayerDealerBank(round=number, bank=carried.after, carried_from=carried),
        )
    work().changed(game=game, shoe=shoe, cards=[])
    return game


def _carried_bank(table: Table) -> events.CarriedFrom | None:
    """California: the player-dealer's bank carried into the new hand (001).

    The player-dealer collects the losing wagers and pays the winners from its bank, so it banks
    the next hand of its position with its last hand's bank plus what it collected, less what it
    paid (``player_dealer_result``; its collection fee is collected apart, before the action).
    Its last hand is the table's last round that ended, settled or void (a void round returned
    every wager), whatever its shoe: the position is offered around the table every two hands,
    not every shoe. None when the position was just taken, moved or offered again (the bank is
    recorded), when another player sat down at the seat since, or when the bank is exhausted."""
    if not table.player_dealer_hands:  # taken, moved or rotated: a bank of its own, recorded
        return None
    last = live(table).banked
    if last is None or not last.same_player:
        return None
    before = last.game
    if before.player_dealer_seat != table.player_dealer_seat or not before.player_dealer_bank:
        return None
    result = player_dealer_result(_engine_step(s) for s in before.steps.all())
    carried = events.CarriedFrom(
        shoe=last.shoe, round=before.number, bank=before.player_dealer_bank, result=result
    )
    return carried if carried.after > 0 else None


def _engine_step(step: SettlementStep) -> Step:
    """A recorded settlement step as the engine made it."""
    wager = WagerType(step.wager_type) if step.wager_type else None
    return Step(StepAction(step.action), step.seat, wager, step.amount, step.phase)


def _engine_wagers(game: Round, taken: Iterable[Wager] | None = None) -> list[EngineWager]:
    """The round's wagers for the engine (``taken``: its wager rows, if already read)."""
    return [
        EngineWager(w.seat, WagerType(w.type), w.amount, WagerType(w.ride) if w.ride else None)
        for w in (game.wagers.all() if taken is None else taken)
    ]


def _player_dealer(game: Round) -> PlayerDealer | None:
    if game.player_dealer_seat is None:
        return None
    return PlayerDealer(game.player_dealer_seat, game.player_dealer_bank or Decimal(0))


def _check_limits(table: Table, kind: WagerType, amount: Decimal) -> None:
    limit = live(table).limit(kind.value)
    if limit is None:
        return
    if amount < limit.minimum:
        raise UnderLimit(f"The {kind.label} minimum is ${limit.minimum}; ${amount} is too little.")
    if amount > limit.maximum:
        raise OverLimit(f"The {kind.label} maximum is ${limit.maximum}; ${amount} is over it.")


@action
def place_wager(
    table: Table,
    *,
    seat: int,
    wager: str,
    amount: Decimal | str,
    ride: str | None = None,
    actor: Actor,
) -> Wager:
    """Take a wager at a seat, or change its amount, while wagers are open (000 §7(c))."""
    table = lock_table(table)
    game = _round(table)
    if game.state != State.BETTING:
        raise LateWager("No more bets: a wager may not be made, raised or withdrawn now.")
    if game.simulated:
        raise ActionError("This is a simulated round: no wagers are accepted.")
    kind = _wager_type(wager)
    ride_on = _wager_type(ride) if ride else None
    try:
        money = parse_amount(amount)
    except RulesError as error:
        raise ActionError(str(error)) from None
    if seat not in live(table).seats:
        raise ActionError(f"Seat {seat} is empty: seat the player first.")
    _check_limits(table, kind, money)
    taken = list(game.wagers.all())
    existing = next((w for w in taken if (w.seat, w.type) == (seat, kind.value)), None)
    proposed = [w for w in _engine_wagers(game, taken) if (w.seat, w.type) != (seat, kind)]
    proposed.append(EngineWager(seat, kind, money, ride_on))
    try:
        check_wagers(proposed, game.rules.submission, _player_dealer(game))
    except RulesError as error:
        raise ActionError(str(error)) from None
    if existing:
        previous = existing.amount
        existing.amount, existing.ride = money, ride_on.value if ride_on else ""
        work().save(existing, ["amount", "ride"])  # with the command's record
        placed = existing
        record(
            table,
            actor,
            events.WagerChanged(
                round=game.number,
                seat=seat,
                wager=kind,
                amount=money,
                previous=previous,
                ride=ride_on,
            ),
        )
    else:
        placed = work().add(  # with the command's record
            Wager(
                round=game,
                seat=seat,
                type=kind.value,
                amount=money,
                ride=ride_on.value if ride_on else "",
                placed_by=actor,
            )
        )
        work().add_to(game, "wagers", placed, order=wager_order)
        record(
            table,
            actor,
            events.WagerPlaced(
                round=game.number, seat=seat, wager=kind, amount=money, ride=ride_on
            ),
        )
    work().changed(game=game)
    return placed


def _wager_type(name: str) -> WagerType:
    try:
        return WagerType(name)
    except ValueError:
        raise ActionError(f"'{name}' is not a wager.") from None


@action
def withdraw_wager(table: Table, *, seat: int, wager: str, actor: Actor) -> None:
    """Withdraw a wager before "no more bets"."""
    table = lock_table(table)
    game = _round(table)
    if game.state != State.BETTING:
        raise LateWager("No more bets: a wager may not be withdrawn now.")
    taken = list(game.wagers.all())
    if not any((w.seat, w.type) == (seat, wager) for w in taken):
        raise ActionError(f"Seat {seat} has no {wager} wager.")
    # What stays must be a layout the table takes, as a wager placed must: a pair wager keeps
    # the main wager it needs, a House Money payout the wager it rides on (else the coup,
    # once complete, could be neither settled nor void).
    left = [w for w in _engine_wagers(game, taken) if (w.seat, w.type.value) != (seat, wager)]
    try:
        check_wagers(left, game.rules.submission, _player_dealer(game))
    except RulesError as error:
        raise ActionError(f"{error} Withdraw the wager that needs it first.") from None
    work().delete(Wager.objects.filter(round=game, seat=seat, type=wager))
    work().drop_from(game, "wagers", lambda w: (w.seat, w.type) == (seat, wager))
    record(
        table,
        actor,
        events.WagerWithdrawn(round=game.number, seat=seat, wager=WagerType(wager)),
    )
    work().changed(game=game)  # its wagers as kept: the answer reads them not again


@action
def set_player_dealer_bank(table: Table, *, bank: Decimal | str, actor: Actor) -> Round:
    """California: the player-dealer's bank for this hand, before "no more bets": recorded for
    a player-dealer new to the position, or changed from the bank carried from its last hand
    (money added or taken off: 001 limits what it may win or lose to its wager, not the wager)."""
    table = lock_table(table)
    game = _round(table)
    if game.player_dealer_seat is None:
        raise ActionError("This table has no player-dealer.")
    if game.state != State.BETTING:
        raise LateWager("No more bets: the bank is fixed.")
    try:
        game.player_dealer_bank = parse_amount(bank)
    except RulesError as error:
        raise ActionError(str(error)) from None
    work().save_now(game, ["player_dealer_bank"])
    record(
        table,
        actor,
        events.PlayerDealerBank(round=game.number, bank=game.player_dealer_bank),
    )
    work().changed(game=game)
    return game


@action
def no_more_bets(table: Table, *, actor: Actor) -> Round:
    """Close wagering; say who is handed each hand's cards (000 §8(b)-(c))."""
    table = lock_table(table)
    game = _round(table)
    if game.state != State.BETTING:
        raise ActionError("Wagers are already closed.")
    rules = game.rules.submission
    if rules.player_dealer and not game.player_dealer_bank:
        raise ActionError("Record the player-dealer's bank before no more bets.")
    if rules.players_turn_cards:
        seats = live(table).seats
        taken = list(game.wagers.all())
        game.player_turner = card_turner(_stakes(taken, WagerType.PLAYER), occupied=seats)
        game.banker_turner = card_turner(_stakes(taken, WagerType.BANKER), occupied=seats)
    game.state, game.no_more_bets_at = State.DEALING, timezone.now()
    work().save(game, ["state", "no_more_bets_at", "player_turner", "banker_turner"])
    record(
        table,
        actor,
        events.NoMoreBets(
            round=game.number,
            player_turner=game.player_turner,
            banker_turner=game.banker_turner,
        ),
    )
    work().changed(game=game)
    return game


@action
def relinquish_cards(table: Table, *, hand: str, actor: Actor) -> Round:
    """The player turning a hand's cards gives up the right, or is made to (000 §8(d)).

    It passes to the player on their right, then counterclockwise; if nobody takes it the
    dealer turns the cards.
    """
    table = lock_table(table)
    game = _round(table)
    if hand not in ("player", "banker"):
        raise ActionError("Say which hand: player or banker.")
    if game.state not in (State.DEALING, State.HOUSE_MONEY):
        raise ActionError("The cards are turned only while the round is dealt.")
    current = game.player_turner if hand == "player" else game.banker_turner
    if current is None:
        raise ActionError(f"The dealer turns the {hand.title()}'s hand already.")
    declined = [*game.turn_declined.get(hand, []), current]
    kind = WagerType.PLAYER if hand == "player" else WagerType.BANKER
    stakes = _stakes(game.wagers.all(), kind)
    turner = card_turner(stakes, occupied=table.occupied_seats(), declined=declined)
    game.turn_declined = {**game.turn_declined, hand: declined}
    if hand == "player":
        game.player_turner = turner
    else:
        game.banker_turner = turner
    work().save_now(game, ["turn_declined", "player_turner", "banker_turner"])
    record(
        table,
        actor,
        events.CardsRelinquished(round=game.number, hand=Hand(hand), seat=current, now=turner),
    )
    work().changed(game=game)
    return game


def _stakes(taken: Iterable[Wager], kind: WagerType) -> dict[int, Decimal]:
    """The amount each seat has on ``kind``."""
    return {w.seat: w.amount for w in taken if w.type == kind.value}


@action
def deal_card(table: Table, *, card: str, actor: Actor) -> Round:
    """Enter the card just dealt; the rules decide which hand it belongs to, or refuse it."""
    table = lock_table(table)
    game = _round(table)
    if game.state == State.BETTING:
        raise IllegalCard('Call "no more bets" before dealing.')
    if game.state == State.HOUSE_MONEY:
        raise IllegalCard("Settle the House Money wagers before any third card.")
    if game.state != State.DEALING:
        raise IllegalCard("The coup is complete: no card is due.")
    try:
        dealt = Card.parse(card)
    except CardError as error:
        raise MistypedCard(str(error)) from None
    cards = list(game.cards.all())
    before = game.coup(cards)  # the coup counts the Player's and Banker's cards only
    try:
        coup = before.deal(dealt)
    except IllegalDeal as error:
        raise IllegalCard(str(error)) from None
    hand = before.expected.hand
    assert hand is not None  # deal() refuses a card when none is due
    shoe = game.shoe  # read with the round; only actions holding the table's lock change it
    if shoe.held_card and before.dealt == 0:
        if str(dealt) != shoe.held_card:
            raise IllegalCard(
                "The first card of this hand is the "
                f"{events.card_label(shoe.held_card)} held from the last hand."
            )
        shoe.held_card = ""  # already counted out of the shoe when it was drawn in error
    else:
        shoe.take(dealt)
    position = len(cards) + 1
    # The shoe's count and the card, written with the event (the answer is handed them).
    work().save(shoe, ["remaining", "held_card"])
    new_card = DealtCard(round=game, position=position, code=str(dealt), hand=hand, dealt_by=actor)
    work().add(new_card)
    work().add_to(game, "cards", new_card)
    house_money = game.rules.submission.offers(WagerType.HOUSE_MONEY)
    if (
        coup.dealt == 4
        and house_money
        and any(w.type == WagerType.HOUSE_MONEY.value for w in game.wagers.all())
    ):
        game.state = State.HOUSE_MONEY
        work().save(game, ["state"])
    elif coup.is_complete:
        complete_coup(game, coup, later=True)
    record(
        table,
        actor,
        events.CardDealt(
            round=game.number,
            card=str(dealt),
            hand=Hand(hand),
            position=position,
            next=coup.expected,
        ),
    )
    work().changed(game=game, shoe=shoe, cards=[*cards, new_card])
    return game


def complete_coup(game: Round, coup: Coup, *, later: bool = False) -> None:
    """The coup is complete: store the result and the dealer's announcement (``later``: with
    the command's record, when the action hands the round over to the answer)."""
    outcome = Outcome.of(coup)
    game.state, game.completed_at = State.COMPLETE, timezone.now()
    game.player_total, game.banker_total = outcome.player_total, outcome.banker_total
    game.winner, game.tags = outcome.winner.value, list(outcome.tags)
    game.announcement = outcome.announcement(ez=game.rules.submission.is_ez)
    (work().save if later else work().save_now)(game, [*COMPLETION_FIELDS, "state"])


COMPLETION_FIELDS = (
    "completed_at",
    "player_total",
    "banker_total",
    "winner",
    "tags",
    "announcement",
)


@action
def settle_house_money_wagers(
    table: Table, *, rides: dict[int, str | None] | None = None, actor: Actor
) -> Round:
    """Settle House Money on the first four cards; each winner may let the payout ride."""
    table = lock_table(table)
    game = _round(table)
    if game.state != State.HOUSE_MONEY:
        raise ActionError("House Money is settled after the first four cards, before third cards.")
    rides = rides or {}
    taken = list(game.wagers.all())  # read after the command's lock
    house_money = [w for w in taken if w.type == WagerType.HOUSE_MONEY.value]
    hm_seats = {w.seat for w in house_money}
    by_kind = {(w.seat, w.type): w for w in taken}
    strays = sorted(seat for seat, choice in rides.items() if choice and seat not in hm_seats)
    if strays:
        raise ActionError(f"Seat {strays[0]} has no House Money wager to let ride.")
    for w in house_money:
        choice = rides.get(w.seat)
        if choice and choice not in (WagerType.PLAYER.value, WagerType.BANKER.value):
            raise ActionError("A House Money payout rides only on the Player or Banker wager.")
        if choice and (w.seat, choice) not in by_kind:
            raise ActionError(
                f"Seat {w.seat} has no {WagerType(choice).label} wager: a House Money payout "
                "rides on the player's original wager (000 §8(c)(3))."
            )
        w.ride = choice or ""
    cards = list(game.cards.all())
    coup = game.coup(cards)
    try:
        hm = settle_house_money(coup, _engine_wagers(game, taken), game.rules.submission)
    except RulesError as error:
        raise ActionError(str(error)) from None
    saved = _steps(game, hm.steps, start=1)
    work().add_all(saved)  # with the command's record
    work().keep(game, "steps", saved)
    for settled in hm.wagers:
        row = by_kind[(settled.seat, settled.type.value)]
        row.result, row.payout, row.ridden = settled.result.value, settled.payout, settled.ridden
    # The rides and the results, one UPDATE for every House Money wager.
    work().save_many(house_money, ("ride", "result", "payout", "ridden"))
    work().keep(game, "wagers", taken)
    if coup.is_complete:
        complete_coup(game, coup, later=True)
    else:
        game.state = State.DEALING
        work().save(game, ["state"])  # handed over to the answer
    record(
        table,
        actor,
        events.HouseMoneySettled(
            round=game.number,
            steps=tuple(_step_record(s) for s in hm.steps),
            wagers=tuple(
                _wager_record(
                    s,
                    by_kind[(s.seat, s.type.value)],
                    ride=WagerType(rides[s.seat]) if rides.get(s.seat) else None,
                )
                for s in hm.wagers
            ),
        ),
    )
    work().changed(game=game, shoe=game.shoe, cards=cards)
    return game


def _step_record(step: Step) -> events.StepRecord:
    return events.StepRecord(
        action=step.action, seat=step.seat, wager=step.wager, amount=step.amount, phase=step.phase
    )


def _wager_record(
    settled: SettledWager, placed: Wager, ride: WagerType | None = None
) -> events.WagerRecord:
    """Every figure of a settled wager (``placed``: its row), for the record."""
    return events.WagerRecord(
        seat=settled.seat,
        wager=settled.type,
        result=settled.result,
        payout=settled.payout,
        vigorish=settled.vigorish,
        returned=settled.returned,
        ridden=settled.ridden,
        fee=settled.fee,
        award=Royal9Award(settled.award) if settled.award else None,
        ride=ride,
        amount=placed.amount,
    )


def _steps(game: Round, steps: Sequence[Step], start: int) -> list[SettlementStep]:
    """The settlement's steps, in order, as rows to write."""
    return [
        SettlementStep(
            round=game,
            index=start + i,
            phase=s.phase,
            action=s.action.value,
            seat=s.seat,
            wager_type=s.wager.value if s.wager else "",
            amount=s.amount,
        )
        for i, s in enumerate(steps)
    ]


SETTLED_FIELDS = ("result", "payout", "vigorish", "returned", "fee", "award")
#: What the answer shows of the round a simulated round interrupted, read with it.
RESUMED_LISTS = ("cards", "wagers", "steps", "irregularities")


@action
def settle_round(table: Table, *, actor: Actor) -> Round:
    """Settle every wager in the table's legal order; mark deferred vigorish on the seat."""
    table = lock_table(table)
    game = _round(table)
    if game.state != State.COMPLETE:
        raise ActionError("The coup is not complete: deal the cards the rules call for.")
    rules = game.rules.submission
    coup = game.coup(game.cards.all())  # the coup counts the two hands' cards only
    resumed = None
    if game.simulated:  # the round it interrupted, with what the answer shows of it, read
        # before this one's settlement waits to be written (its lists join the round)
        interrupted = table.rounds.active().exclude(pk=game.pk).select_related("rules", "shoe")
        resumed = interrupted.prefetch_related(*RESUMED_LISTS).first()
    meters = _contribute_to_meters(table, game, rules)
    taken = list(game.wagers.all())
    try:
        if game.simulated:  # no wagers (000 §13(d)), nobody banks it: its outcome alone
            result = Settlement(Outcome.of(coup), (), ())
        else:
            result = settle(
                coup,
                _engine_wagers(game, taken),
                rules,
                player_dealer=_player_dealer(game),
                meters={m.name: m.amount for m in meters},
            )
    except RulesError as error:
        raise ActionError(str(error)) from None
    _reseed_hit_meters(table, game, meters, result, rules)
    # House Money's steps, settled before the third cards (none without a House Money wager)
    house_money = any(w.type == WagerType.HOUSE_MONEY.value for w in taken)
    earlier = list(game.steps.all()) if house_money else []
    round_steps = [s for s in result.steps if s.phase != "house_money"]
    saved = _steps(game, round_steps, start=len(earlier) + 1)
    work().add_all(saved)  # with the command's record
    work().keep(game, "steps", [*earlier, *saved])
    by_kind = {(w.seat, w.type): w for w in taken}
    settled = []
    for s in result.wagers:
        if s.type is WagerType.HOUSE_MONEY:
            continue
        row = by_kind[(s.seat, s.type.value)]
        row.result, row.payout, row.vigorish = s.result.value, s.payout, s.vigorish
        row.returned, row.fee, row.award = s.returned, s.fee, s.award or ""
        settled.append(row)
    # One UPDATE for every wager, so that settling costs the same whatever their number.
    work().save_many(settled, SETTLED_FIELDS)  # with the command's record
    shoe = game.shoe
    mark_deferred_vigorish(table, game, shoe, round_steps)  # where a form starts
    game.state, game.settled_at = State.SETTLED, timezone.now()
    work().save(game, ["state", "settled_at"])  # handed over to the answer
    tallies.add_settled(table, game, taken, [*earlier, *saved])  # the day's
    outcome = result.outcome
    record(
        table,
        actor,
        events.RoundSettled(
            round=game.number,
            winner=outcome.winner,
            player_total=outcome.player_total,
            banker_total=outcome.banker_total,
            tags=tuple(outcome.tags),
            announcement=outcome.announcement(ez=rules.is_ez),
            steps=tuple(_step_record(s) for s in round_steps),
            wagers=tuple(
                _wager_record(s, by_kind[(s.seat, s.type.value)])
                for s in result.wagers
                if s.type is not WagerType.HOUSE_MONEY
            ),
        ),
    )
    if game.simulated:  # the round it interrupted goes on: the answer shows that one (000 §13(d))
        if resumed is not None:
            work().changed(game=resumed, shoe=shoe, cards=list(resumed.cards.all()))
        return game
    _after_settlement(table, game, result.outcome, actor)
    work().changed(game=game, shoe=shoe, cards=list(game.cards.all()))
    return game


def _contribute_to_meters(
    table: Table, game: Round, rules: RulesSubmission
) -> list[ProgressiveMeter]:
    """Each Royal 9 wager feeds the Star, Spade and Heart meters and the must-hit meter."""
    return settlement.contribute(table, game, rules)


def _reseed_hit_meters(
    table: Table,
    game: Round,
    meters: list[ProgressiveMeter],
    result: Settlement,
    rules: RulesSubmission,
) -> None:
    """A progressive paid in full starts again from its reseed value."""
    settlement.reseed_won(table, game, meters, result, rules)


def _after_settlement(table: Table, game: Round, outcome: Outcome, actor: Actor) -> None:
    """The curator passes when Banker loses; the player-dealer rotates every two hands."""
    rules = game.rules.submission
    if rules.has_curator and table.curator_seat and curator_must_pass(outcome):
        record(
            table,
            None,
            events.ShoePassed(seat=table.curator_seat, ordered=False, reason="Banker's hand lost"),
        )
        table.previous_curator_seat, table.curator_seat = table.curator_seat, None
        work().save_now(table, ["curator_seat", "previous_curator_seat"])
    if rules.player_dealer and table.player_dealer_seat is not None:
        table.player_dealer_hands += 1
        if table.player_dealer_hands >= rules.player_dealer_rotation_hands:
            seats = table.occupied_seats()
            offered = (
                next_player_dealer(table.player_dealer_seat, seats) if len(seats) > 1 else None
            )
            record(
                table,
                None,
                events.PlayerDealerRotates(seat=table.player_dealer_seat, offered_to=offered),
            )
            table.previous_player_dealer_seat = table.player_dealer_seat
            table.player_dealer_seat, table.player_dealer_hands = None, 0
        work().save_now(
            table, ["player_dealer_seat", "player_dealer_hands", "previous_player_dealer_seat"]
        )
    call = after_round(game.number, game.shoe.cut_card_round)
    if call is not ShoeCall.CONTINUE:
        record(table, None, events.ShoeCallMade(call=call, round=game.number))


@action
def cut_card_out(table: Table, *, actor: Actor) -> Shoe:
    """The cut card came out: complete this hand, then "last hand" (000 §9(e))."""
    table = lock_table(table)
    shoe = table.current_shoe()
    if shoe is None or shoe.state != Shoe.State.IN_PLAY:
        raise ActionError("No shoe is in play.")
    if shoe.cut_card_round is not None:
        raise ActionError("The cut card already came out in this shoe.")
    game = table.active_round()
    last = shoe.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    shoe.cut_card_round = game.number if game else last + 1
    work().save_now(shoe, ["cut_card_round"])
    record(table, actor, events.CutCardOut(shoe=shoe.number, round=shoe.cut_card_round))
    return shoe


@action
def void_round(table: Table, *, reason: str, actor: Actor, approver: User | None = None) -> Round:
    """Not enough cards to complete the round: it is void and every wager returned (000 §13(e)).
    A floorperson or pit boss voids it for another reason, or approves the dealer's void at the
    tablet (``approver``, recorded)."""
    table = lock_table(table)
    game = _round(table)
    if game.state == State.BETTING:
        raise ActionError("Wagers are still open: a round is void only once dealing began.")
    if game.state == State.COMPLETE:
        # The winner is known: voiding now would take back lost wagers (000 §13(e), 002 (k)(4)
        # void a round the shoe cannot complete, never one whose outcome is known).
        raise ActionError(
            f"The coup is complete ({game.announcement or 'the winner is known'}): a round is "
            "not void once its outcome is known; settle it."
        )
    if game.steps.exists():
        raise ActionError("House Money was settled already; this round cannot be voided.")
    reason = check_text(reason, field="reason", limit=200)
    if approver is not None:  # checked whenever given: the record never names a wrong approver
        check_approver(approver, actor, "authority:void_any_round", "the void")
    left = game.shoe.physical_cards_left
    supervisor = approver is not None or access.decide(actor, "authority:void_any_round").allowed
    if enough_cards(left) and not supervisor:
        raise ActionError(
            f"The shoe still holds about {left} cards: a round is void when the shoe runs out "
            "(000 §13(e)); a floorperson may void it, or approve its void, for another reason."
        )
    if not reason:
        raise ActionError("Say why the round is void.")
    wagers = list(game.wagers.order_by("-seat", "type"))
    steps = [
        SettlementStep(
            round=game,
            index=i,
            phase="round",
            action=StepAction.RETURN.value,
            seat=w.seat,
            wager_type=w.type,
            amount=w.amount,
        )
        for i, w in enumerate(wagers, start=1)
    ]
    work().add_all(steps, now=True)
    for w in wagers:
        w.result = "push"
    work().save_many(wagers, ["result"], now=True)
    work().keep(game, "wagers", wagers)
    game.state, game.void_reason, game.settled_at = State.VOID, reason, timezone.now()
    work().save_now(game, ["state", "void_reason", "settled_at"])
    tallies.add_void(table, game)
    record(
        table,
        actor,
        events.RoundVoid(
            round=game.number,
            reason=reason,
            approved_by=approver.get_username() if approver is not None else None,
            steps=tuple(
                events.StepRecord(
                    action=StepAction(s.action),
                    seat=s.seat,
                    wager=WagerType(s.wager_type),
                    amount=s.amount,
                    phase=s.phase,
                )
                for s in steps
            ),
        ),
    )
    return game
