"""California: the player-dealer's bank carried from hand to hand (001). It collects the losing
wagers and pays the winners from its bank, so its next hand in the position opens with the last
hand's bank plus what it collected, less what it paid; its collection fee is collected apart."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.events import payload_of
from casino.models import Event
from casino.record import verify_chain
from tablegame import actions
from tablegame.events import CarriedFrom, PlayerDealerBank
from tablegame.models import Round, Table
from tests.tablegame.conftest import ready_table

pytestmark = pytest.mark.django_db

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]  # Banker 9 over Player 6: paid 1 to 1
PLAYER_NATURAL = ["9H", "2C", "KS", "3D"]  # Player 9 over Banker 5


def california(dealer, floor) -> Table:
    """Seats 1, 2 and 5 taken; seat 2 the player-dealer, in its first hand."""
    table = ready_table("ca-commission-free", dealer, floor, seats=(1, 2, 5))
    actions.take_player_dealer(table, seat=2, actor=dealer)
    return table


BOTH = ((1, "banker", "50"), (5, "player", "30"))


def hand(table, dealer, cards, *, bank: str | None = None, wagers=BOTH) -> Round:
    """Open a hand (recording the bank if given), take ``wagers`` (seat 1 on Banker for 50 and
    seat 5 on Player for 30), deal ``cards`` and settle."""
    actions.open_round(table, actor=dealer)
    if bank is not None:
        actions.set_player_dealer_bank(table, bank=bank, actor=dealer)
    for seat, kind, amount in wagers:
        actions.place_wager(table, seat=seat, wager=kind, amount=amount, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in cards:
        actions.deal_card(table, card=card, actor=dealer)
    return actions.settle_round(table, actor=dealer)


def opened(table, dealer) -> Round:
    return actions.open_round(table, actor=dealer)


def recount(game: Round) -> Decimal:
    """The player-dealer's result, counted by hand from the round's settlement steps."""
    result = Decimal(0)
    for step in game.steps.filter(phase="round"):
        result += {"collect": step.amount, "pay": -step.amount}.get(step.action, Decimal(0))
    return result


def bank_events(table) -> list[Event]:
    return list(
        Event.objects.filter(chain=table.chain_id, action="player_dealer_bank").order_by("sequence")
    )


def test_the_bank_is_carried_after_a_hand_the_player_dealer_won(dealer, floor):
    table = california(dealer, floor)
    first = hand(table, dealer, PLAYER_NATURAL, bank="100")  # collects 50, pays 30
    assert recount(first) == Decimal("20.00")
    game = opened(table, dealer)
    assert game.player_dealer_bank == Decimal("120.00")
    assert Round.objects.get(pk=game.pk).player_dealer_bank == Decimal("120.00")
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.no_more_bets(table, actor=dealer)  # nothing retyped: the bank is there


def test_the_bank_is_carried_after_a_hand_the_player_dealer_lost(dealer, floor):
    table = california(dealer, floor)
    first = hand(table, dealer, BANKER_NATURAL, bank="100")  # pays 50, collects 30
    assert recount(first) == Decimal("-20.00")
    assert opened(table, dealer).player_dealer_bank == Decimal("80.00")


def test_the_collection_fees_are_not_taken_from_the_bank(dealer, floor):
    table = california(dealer, floor)
    first = hand(table, dealer, PLAYER_NATURAL, bank="100")
    fees = {(s.seat, s.wager_type): s.amount for s in first.steps.filter(action="collect_fee")}
    assert fees == {(2, ""): Decimal("1.00"), (1, "banker"): Decimal("1.00"), (5, "player"): 1}
    assert opened(table, dealer).player_dealer_bank == Decimal("100.00") + recount(first)


def test_the_carried_bank_is_the_bank_plus_a_recount_of_the_settlement(dealer, floor):
    """Counted from the wagers too: the stakes it kept of the losers, less the winners' pay; a
    stake its bank did not cover was returned and is in neither."""
    table = california(dealer, floor)
    # The Player line first: seat 5's 30 is covered for 25 and paid 25, 5 returned; then seat
    # 1's losing Banker 50 is collected whole (the bank may win up to its 25, which it lost).
    first = hand(table, dealer, PLAYER_NATURAL, bank="25")
    wagers = {w.seat: w for w in first.wagers.all()}
    assert (wagers[5].payout, wagers[5].returned) == (Decimal("25.00"), Decimal("5.00"))
    by_wagers = sum(
        (w.amount - w.returned if w.result == "lose" else -w.payout for w in wagers.values()),
        Decimal(0),
    )
    assert recount(first) == by_wagers == Decimal("25.00")
    assert opened(table, dealer).player_dealer_bank == Decimal("25.00") + recount(first)


def test_an_exhausted_bank_is_recorded_again(dealer, floor):
    table = california(dealer, floor)
    # Seat 1's Banker 50 is paid 30, 20 returned: the bank is gone.
    hand(table, dealer, BANKER_NATURAL, bank="30", wagers=[(1, "banker", "50")])
    assert opened(table, dealer).player_dealer_bank is None
    with pytest.raises(actions.ActionError, match="Record the player-dealer's bank"):
        actions.no_more_bets(table, actor=dealer)


def test_a_new_player_dealer_after_the_rotation_starts_without_a_bank(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    second = hand(table, dealer, PLAYER_NATURAL)  # carried: 120, and 20 more won
    assert second.player_dealer_bank == Decimal("120.00")
    table.refresh_from_db()
    assert table.player_dealer_seat is None  # two hands banked: the position moves on
    actions.take_player_dealer(table, seat=1, actor=dealer)  # the next seat clockwise
    game = opened(table, dealer)
    assert (game.player_dealer_seat, game.player_dealer_bank) == (1, None)
    with pytest.raises(actions.ActionError, match="Record the player-dealer's bank"):
        actions.no_more_bets(table, actor=dealer)
    assert len(bank_events(table)) == 2  # the first hand's, recorded; the second's, carried


def test_the_position_offered_again_to_the_same_player_starts_without_a_bank(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    hand(table, dealer, PLAYER_NATURAL)
    actions.take_player_dealer(table, seat=2, declined=[1, 5], actor=dealer)  # back to seat 2
    assert opened(table, dealer).player_dealer_bank is None


def test_a_player_dealer_moved_by_a_supervisor_starts_without_a_bank(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    actions.take_player_dealer(table, seat=5, reason="seat 2 left the game", actor=floor)
    assert opened(table, dealer).player_dealer_bank is None


def test_another_player_at_the_seat_does_not_get_the_bank(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    actions.leave_seat(table, seat=2, actor=dealer)
    actions.seat_player(table, seat=2, player="Someone else", actor=dealer)
    assert opened(table, dealer).player_dealer_bank is None


def test_the_bank_is_carried_into_the_next_shoe(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    actions.end_shoe(table, actor=dealer)
    actions.receive_decks(table, decks=8, preinspected=True, actor=dealer)
    actions.cut_cards(
        table, seat=None, declined=[5, 1, 2], position=100, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="KD", actor=dealer)
    game = opened(table, dealer)
    assert (game.shoe.number, game.number, game.player_dealer_bank) == (2, 1, Decimal("120.00"))
    carried = payload_of("player_dealer_bank", bank_events(table)[-1].data)
    assert isinstance(carried, PlayerDealerBank) and carried.carried_from is not None
    assert (carried.carried_from.shoe, carried.carried_from.round) == (1, 1)


def test_a_void_round_carries_its_bank_as_it_stood(dealer, floor):
    """A void round returned every wager: its bank, as changed in it, goes on."""
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    opened(table, dealer)
    actions.set_player_dealer_bank(table, bank="200", actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.void_round(table, reason="cards dropped", actor=floor)
    assert opened(table, dealer).player_dealer_bank == Decimal("200.00")


def test_the_dealer_may_change_the_carried_bank_before_no_more_bets(dealer, floor):
    """Money added or taken off: 001 limits what the player-dealer may win or lose to its wager,
    and says nothing against changing the wager between hands."""
    table = california(dealer, floor)
    hand(table, dealer, PLAYER_NATURAL, bank="100")
    opened(table, dealer)
    actions.set_player_dealer_bank(table, bank="500", actor=dealer)
    game = actions.set_player_dealer_bank(table, bank="40", actor=dealer)
    assert game.player_dealer_bank == Decimal("40.00")
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="the bank is fixed"):
        actions.set_player_dealer_bank(table, bank="100", actor=dealer)
    for card in BANKER_NATURAL:
        actions.deal_card(table, card=card, actor=dealer)
    settled = actions.settle_round(table, actor=dealer)
    assert settled.wagers.get(seat=1).payout == Decimal("40.00")  # the changed bank covered it
    recorded = [payload_of(e.action, e.data) for e in bank_events(table)][-2:]
    assert all(isinstance(p, PlayerDealerBank) for p in recorded)
    assert [(p.bank, p.carried_from) for p in recorded if isinstance(p, PlayerDealerBank)] == [
        (Decimal("500.00"), None),
        (Decimal("40.00"), None),
    ]


def test_the_record_says_the_bank_was_carried_and_from_where(dealer, floor):
    table = california(dealer, floor)
    hand(table, dealer, BANKER_NATURAL, bank="100")
    opened(table, dealer)
    recorded, carried = bank_events(table)
    assert recorded.data == {"round": 1, "bank": "100.00"}  # stored as before: no new key
    assert carried.actor_id is None  # nobody typed it
    assert carried.data == {
        "round": 2,
        "bank": "80.00",
        "carried_from": {"shoe": 1, "round": 1, "bank": "100.00", "result": "-20.00"},
    }
    payload = payload_of(carried.action, carried.data)
    assert payload == PlayerDealerBank(
        round=2,
        bank=Decimal("80.00"),
        carried_from=CarriedFrom(shoe=1, round=1, bank=Decimal("100.00"), result=Decimal("-20.00")),
    )
    assert payload.as_data() == carried.data
    assert payload.describe() == (
        "$80.00 covers this hand's wagers, carried from round 1 of shoe 1: $100.00, $20.00 lost"
    )
    opened_first = Event.objects.get(chain=table.chain_id, sequence=carried.sequence - 1)
    assert opened_first.action == "round_opened"
    assert verify_chain(table.chain_id).ok
