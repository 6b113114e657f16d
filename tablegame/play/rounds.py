"""A round's commands as functions of the state in play: open for wagers, wagers, "no more bets",
the player-dealer's bank, cards turned, cards one by one (000 §7-12, 002 (b)-(j), 004 §8-14, 001).

Each takes the table's ``InPlay`` and its ``Command`` and returns its ``Changes``, or refuses with
an ``ActionError`` a dealer understands (nothing is written then).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from decimal import Decimal

from baccarat.cards import Card, CardError
from baccarat.cutcard import may_deal_round
from baccarat.drawing import Coup, IllegalDeal
from baccarat.errors import RulesError
from baccarat.money import parse_amount
from baccarat.outcome import Hand, Outcome
from baccarat.seating import card_turner
from baccarat.settlement import Action as StepAction
from baccarat.settlement import PlayerDealer, Step, check_wagers, player_dealer_result
from baccarat.settlement import Wager as EngineWager
from baccarat.wagertypes import WagerType
from tablegame import events
from tablegame.errors import (
    ActionError,
    IllegalCard,
    LateWager,
    MistypedCard,
    OverLimit,
    UnderLimit,
)
from tablegame.models import Round, Shoe, Table
from tablegame.models.shoes import CardNotInShoe
from tablegame.play import changes as c
from tablegame.play.changes import Changes
from tablegame.play.command import Command, dealer_dealing
from tablegame.play.rows import CardRow, RoundRow, ShoeRow, StepRow, WagerRow
from tablegame.play.state import InPlay

State = Round.State


def in_play(state: InPlay) -> RoundRow:
    """The round in play, or the refusal a dealer reads."""
    game = state.in_play
    if game is None:
        raise ActionError("No round is in play: open one for wagers.")
    return game


def open_round(state: InPlay, command: Command) -> Changes:
    """Open a round for wagers ("place your bets")."""
    table = state.table
    if table.status != Table.Status.OPEN:
        raise ActionError(f"{table.name} is closed.")
    if state.in_play:
        raise ActionError("A round is already in play.")
    shoe = state.shoe
    if shoe is None or shoe.state != Shoe.State.IN_PLAY:
        raise ActionError("The shoe is not ready: shuffle, cut and burn first.")
    number = state.rounds_in_shoe + 1
    if not may_deal_round(number, shoe.cut_card_round):
        raise ActionError("The last hand has been dealt: end the shoe and reshuffle.")
    record = state.rules_now
    if record is None:
        raise ActionError("The table has no Rules Submission on file: open the table first.")
    rules = record.submission
    if rules.has_curator and table.curator_seat is None:
        raise ActionError("Offer the shoe: nobody is curator.")
    if rules.player_dealer and table.player_dealer_seat is None:
        raise ActionError("Offer the player-dealer position: nobody holds it.")
    carried = carried_bank(state) if rules.player_dealer else None  # 001
    assert table.id is not None and shoe.id is not None and record.id is not None
    game = RoundRow(
        table_id=table.id,
        shoe_id=shoe.id,
        number=number,
        rules_id=record.id,
        opened_at=command.at,
        curator_seat=table.curator_seat,
        player_dealer_seat=table.player_dealer_seat,
        player_dealer_bank=carried.after if carried else None,
    )
    dealer = dealer_dealing(state, command)
    done = c.insert(game) + c.event(
        command.actor_id, events.RoundOpened(shoe=shoe.number, round=number, dealer=dealer)
    )
    if carried:
        done += c.event(
            None, events.PlayerDealerBank(round=number, bank=carried.after, carried_from=carried)
        )
    return done


def carried_bank(state: InPlay) -> events.CarriedFrom | None:
    """California: the player-dealer's bank carried into the new hand (001).

    The player-dealer collects the losing wagers and pays the winners from its bank, so it banks
    the next hand of its position with its last hand's bank plus what it collected, less what it
    paid (``player_dealer_result``; its collection fee is collected apart, before the action).
    Its last hand is the table's last round that ended, settled or void (a void round returned
    every wager), whatever its shoe: the position is offered around the table every two hands,
    not every shoe. None when the position was just taken, moved or offered again (the bank is
    recorded), when another player sat down at the seat since, or when the bank is exhausted."""
    table = state.table
    if not table.player_dealer_hands:  # taken, moved or rotated: a bank of its own, recorded
        return None
    last = state.banked
    if last is None or not last.same_player:
        return None
    before = last.game
    if before.player_dealer_seat != table.player_dealer_seat or not before.player_dealer_bank:
        return None
    result = player_dealer_result(engine_step(s) for s in last.steps)
    carried = events.CarriedFrom(
        shoe=last.shoe, round=before.number, bank=before.player_dealer_bank, result=result
    )
    return carried if carried.after > 0 else None


def engine_step(step: StepRow) -> Step:
    """A recorded settlement step as the engine made it."""
    wager = WagerType(step.wager_type) if step.wager_type else None
    return Step(StepAction(step.action), step.seat, wager, step.amount, step.phase)


def engine_wagers(taken: Iterable[WagerRow]) -> list[EngineWager]:
    """The round's wagers for the engine."""
    return [
        EngineWager(w.seat, WagerType(w.type), w.amount, WagerType(w.ride) if w.ride else None)
        for w in taken
    ]


def player_dealer(game: RoundRow) -> PlayerDealer | None:
    if game.player_dealer_seat is None:
        return None
    return PlayerDealer(game.player_dealer_seat, game.player_dealer_bank or Decimal(0))


def _check_limits(state: InPlay, kind: WagerType, amount: Decimal) -> None:
    limit = state.limit(kind.value)
    if limit is None:
        return
    if amount < limit.minimum:
        raise UnderLimit(f"The {kind.label} minimum is ${limit.minimum}; ${amount} is too little.")
    if amount > limit.maximum:
        raise OverLimit(f"The {kind.label} maximum is ${limit.maximum}; ${amount} is over it.")


def wager_type(name: str) -> WagerType:
    try:
        return WagerType(name)
    except ValueError:
        raise ActionError(f"'{name}' is not a wager.") from None


def place_wager(
    state: InPlay,
    command: Command,
    *,
    seat: int,
    wager: str,
    amount: Decimal | str,
    ride: str | None = None,
) -> Changes:
    """Take a wager at a seat, or change its amount, while wagers are open (000 §7(c))."""
    game = in_play(state)
    if game.state != State.BETTING:
        raise LateWager("No more bets: a wager may not be made, raised or withdrawn now.")
    if game.simulated:
        raise ActionError("This is a simulated round: no wagers are accepted.")
    kind = wager_type(wager)
    ride_on = wager_type(ride) if ride else None
    try:
        money = parse_amount(amount)
    except RulesError as error:
        raise ActionError(str(error)) from None
    if seat not in state.occupied:
        raise ActionError(f"Seat {seat} is empty: seat the player first.")
    _check_limits(state, kind, money)
    existing = next((w for w in state.wagers if (w.seat, w.type) == (seat, kind.value)), None)
    proposed = [w for w in engine_wagers(state.wagers) if (w.seat, w.type) != (seat, kind)]
    proposed.append(EngineWager(seat, kind, money, ride_on))
    try:
        check_wagers(proposed, state.round_submission, player_dealer(game))
    except RulesError as error:
        raise ActionError(str(error)) from None
    riding = ride_on.value if ride_on else ""
    if existing:
        _, changed = c.update(existing, amount=money, ride=riding)
        return changed + c.event(
            command.actor_id,
            events.WagerChanged(
                round=game.number,
                seat=seat,
                wager=kind,
                amount=money,
                previous=existing.amount,
                ride=ride_on,
            ),
        )
    assert game.id is not None
    placed = WagerRow(
        round_id=game.id,
        seat=seat,
        type=kind.value,
        amount=money,
        ride=riding,
        placed_by_id=command.actor_id,
        placed_at=command.at,
    )
    return c.insert(placed) + c.event(
        command.actor_id,
        events.WagerPlaced(round=game.number, seat=seat, wager=kind, amount=money, ride=ride_on),
    )


def withdraw_wager(state: InPlay, command: Command, *, seat: int, wager: str) -> Changes:
    """Withdraw a wager before "no more bets"."""
    game = in_play(state)
    if game.state != State.BETTING:
        raise LateWager("No more bets: a wager may not be withdrawn now.")
    gone = next((w for w in state.wagers if (w.seat, w.type) == (seat, wager)), None)
    if gone is None:
        raise ActionError(f"Seat {seat} has no {wager} wager.")
    # What stays must be a layout the table takes, as a wager placed must: a pair wager keeps
    # the main wager it needs, a House Money payout the wager it rides on (else the coup, once
    # complete, could be neither settled nor void).
    left = engine_wagers(w for w in state.wagers if w is not gone)
    try:
        check_wagers(left, state.round_submission, player_dealer(game))
    except RulesError as error:
        raise ActionError(f"{error} Withdraw the wager that needs it first.") from None
    return c.delete(gone) + c.event(
        command.actor_id,
        events.WagerWithdrawn(round=game.number, seat=seat, wager=WagerType(wager)),
    )


def set_player_dealer_bank(state: InPlay, command: Command, *, bank: Decimal | str) -> Changes:
    """California: the player-dealer's bank for this hand, before "no more bets": recorded for
    a player-dealer new to the position, or changed from the bank carried from its last hand
    (money added or taken off: 001 limits what it may win or lose to its wager, not the wager)."""
    game = in_play(state)
    if game.player_dealer_seat is None:
        raise ActionError("This table has no player-dealer.")
    if game.state != State.BETTING:
        raise LateWager("No more bets: the bank is fixed.")
    try:
        money = parse_amount(bank)
    except RulesError as error:
        raise ActionError(str(error)) from None
    _, changed = c.update(game, player_dealer_bank=money)
    return changed + c.event(
        command.actor_id, events.PlayerDealerBank(round=game.number, bank=money)
    )


def no_more_bets(state: InPlay, command: Command) -> Changes:
    """Close wagering; say who is handed each hand's cards (000 §8(b)-(c))."""
    game = in_play(state)
    if game.state != State.BETTING:
        raise ActionError("Wagers are already closed.")
    rules = state.round_submission
    if rules.player_dealer and not game.player_dealer_bank:
        raise ActionError("Record the player-dealer's bank before no more bets.")
    player_turner, banker_turner = game.player_turner, game.banker_turner
    if rules.players_turn_cards:
        seats = list(state.occupied)
        player_turner = card_turner(_stakes(state.wagers, WagerType.PLAYER), occupied=seats)
        banker_turner = card_turner(_stakes(state.wagers, WagerType.BANKER), occupied=seats)
    _, changed = c.update(
        game,
        state=State.DEALING,
        no_more_bets_at=command.at,
        player_turner=player_turner,
        banker_turner=banker_turner,
    )
    return changed + c.event(
        command.actor_id,
        events.NoMoreBets(
            round=game.number, player_turner=player_turner, banker_turner=banker_turner
        ),
    )


def relinquish_cards(state: InPlay, command: Command, *, hand: str) -> Changes:
    """The player turning a hand's cards gives up the right, or is made to (000 §8(d)).

    It passes to the player on their right, then counterclockwise; if nobody takes it the
    dealer turns the cards.
    """
    game = in_play(state)
    if hand not in ("player", "banker"):
        raise ActionError("Say which hand: player or banker.")
    if game.state not in (State.DEALING, State.HOUSE_MONEY):
        raise ActionError("The cards are turned only while the round is dealt.")
    current = game.player_turner if hand == "player" else game.banker_turner
    if current is None:
        raise ActionError(f"The dealer turns the {hand.title()}'s hand already.")
    declined = [*game.turn_declined.get(hand, []), current]
    kind = WagerType.PLAYER if hand == "player" else WagerType.BANKER
    stakes = _stakes(state.wagers, kind)
    turner = card_turner(stakes, occupied=list(state.occupied), declined=declined)
    turners = {"player_turner": turner} if hand == "player" else {"banker_turner": turner}
    _, changed = c.update(game, turn_declined={**game.turn_declined, hand: declined}, **turners)
    return changed + c.event(
        command.actor_id,
        events.CardsRelinquished(round=game.number, hand=Hand(hand), seat=current, now=turner),
    )


def _stakes(taken: Iterable[WagerRow], kind: WagerType) -> dict[int, Decimal]:
    """The amount each seat has on ``kind``."""
    return {w.seat: w.amount for w in taken if w.type == kind.value}


def take(shoe: ShoeRow, card: Card) -> ShoeRow:
    """The shoe with a seen card taken out of its count; refuse a card it cannot hold
    (``Shoe.take``)."""
    code = str(card)
    if shoe.remaining.get(code, 0) <= 0:
        raise CardNotInShoe(
            f"There is no {card.face} left in this shoe: its {shoe.decks} decks hold "
            f"{shoe.decks} and all have been seen. Check the card."
        )
    if shoe.cards_left <= 0:
        raise CardNotInShoe("The shoe is empty.")
    return dataclasses.replace(shoe, remaining={**shoe.remaining, code: shoe.remaining[code] - 1})


def deal_card(state: InPlay, command: Command, *, card: str) -> Changes:
    """Enter the card just dealt; the rules decide which hand it belongs to, or refuse it."""
    game = in_play(state)
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
    before = state.coup()  # the coup counts the Player's and Banker's cards only
    try:
        after = before.deal(dealt)
    except IllegalDeal as error:
        raise IllegalCard(str(error)) from None
    hand = before.expected.hand
    assert hand is not None  # deal() refuses a card when none is due
    shoe = state.shoe
    assert shoe is not None and game.id is not None  # a round in play has its shoe
    if shoe.held_card and before.dealt == 0:
        if str(dealt) != shoe.held_card:
            raise IllegalCard(
                "The first card of this hand is the "
                f"{events.card_label(shoe.held_card)} held from the last hand."
            )
        _, done = c.update(shoe, held_card="")  # counted out of the shoe when drawn in error
    else:
        taken = take(shoe, dealt)
        _, done = c.update(shoe, remaining=taken.remaining)
    position = len(state.cards) + 1
    done += c.insert(
        CardRow(
            round_id=game.id,
            position=position,
            code=str(dealt),
            hand=hand,
            dealt_by_id=command.actor_id,
            dealt_at=command.at,
        )
    )
    house_money = state.round_submission.offers(WagerType.HOUSE_MONEY)
    if (
        after.dealt == 4
        and house_money
        and any(w.type == WagerType.HOUSE_MONEY.value for w in state.wagers)
    ):
        done += c.update(game, state=State.HOUSE_MONEY)[1]
    elif after.is_complete:
        done += complete_coup(state, game, after, command)
    return done + c.event(
        command.actor_id,
        events.CardDealt(
            round=game.number,
            card=str(dealt),
            hand=Hand(hand),
            position=position,
            next=after.expected,
        ),
    )


def complete_coup(state: InPlay, game: RoundRow, coup: Coup, command: Command) -> Changes:
    """The coup is complete: its result and the dealer's announcement."""
    outcome = Outcome.of(coup)
    return c.update(
        game,
        state=State.COMPLETE,
        completed_at=command.at,
        player_total=outcome.player_total,
        banker_total=outcome.banker_total,
        winner=outcome.winner.value,
        tags=list(outcome.tags),
        announcement=outcome.announcement(ez=state.round_submission.is_ez),
    )[1]
