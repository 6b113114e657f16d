"""Who does what, seat by seat: the cards, the cut, the recut, the shoe and the player-dealer.

Geometry (baccarat/seating.py): seat 1 is at the dealer's right; counterclockwise is ascending
seat numbers, wrapping from the highest to 1; clockwise is descending. "The player to the right" of
seat n is the next seat counterclockwise. Texts: 000 §5(b), (e), §8(c)(1)-(2), (6), §8(d);
002 (e)(7), (g)(3)(iii)(E), (k)(5); 004 §5(c), (f), §7(b), §14; 001.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.outcome import Outcome
from baccarat.profiles import PROFILES, CutOffer, Recut, rules_submission
from baccarat.seating import (
    california_action_order,
    card_turner,
    clockwise,
    counterclockwise,
    curator_must_pass,
    curator_offer_order,
    cut_offer_order,
    next_player_dealer,
    recut_order,
    relinquish_order,
)

NINE_SEATS = range(1, 10)


def outcome(player: str, banker: str) -> Outcome:
    return Outcome.of(Coup.from_hands(parse_cards(player.split()), parse_cards(banker.split())))


def amounts(**by_seat: int) -> dict[int, Decimal]:
    return {int(seat.removeprefix("s")): Decimal(a) for seat, a in by_seat.items()}


# --- directions -----------------------------------------------------------------------------------


def test_counterclockwise_is_ascending_seats_wrapping_to_seat_1() -> None:
    assert counterclockwise(NINE_SEATS, after=3) == [4, 5, 6, 7, 8, 9, 1, 2, 3]
    assert counterclockwise([2, 5, 8], after=8) == [2, 5, 8]
    assert counterclockwise([2, 5, 8], after=0) == [2, 5, 8]


def test_clockwise_is_descending_seats_wrapping_to_the_highest() -> None:
    assert clockwise(NINE_SEATS, after=3) == [2, 1, 9, 8, 7, 6, 5, 4, 3]
    assert clockwise([2, 5, 8], after=2) == [8, 5, 2]
    assert clockwise([2, 5, 8], after=6) == [5, 2, 8]


# --- who turns the cards (000 §8(c)(1)-(2), (6), §8(d); 002 (g)(3)(iii)(E), (k)(5)) ---------------


def test_the_highest_wager_on_a_hand_turns_its_cards() -> None:
    assert card_turner(amounts(s2=100, s5=300, s7=200)) == 5


def test_equal_highest_wagers_go_to_the_player_closest_to_the_dealer_counterclockwise() -> None:
    # Seat 1 is at the dealer's right: moving counterclockwise, the lowest seat is reached first.
    assert card_turner(amounts(s8=50, s3=50, s1=20)) == 3
    assert card_turner(amounts(s9=50, s4=50)) == 4


def test_nobody_wagered_on_the_hand_so_the_dealer_turns_the_cards() -> None:
    assert card_turner({}) is None
    assert card_turner(amounts(s3=0)) is None


def test_a_relinquished_right_goes_to_the_player_on_the_right_then_counterclockwise() -> None:
    wagers = amounts(s5=300, s2=100)
    occupied = [1, 2, 5, 6, 7]
    # seat 6 is immediately to seat 5's right, wager or not
    assert card_turner(wagers, occupied=occupied, declined={5}) == 6
    assert card_turner(wagers, occupied=occupied, declined={5, 6}) == 7
    assert card_turner(wagers, occupied=occupied, declined={5, 6, 7}) == 1  # wraps past 9
    assert card_turner(wagers, occupied=occupied, declined={5, 6, 7, 1}) == 2


def test_an_empty_seat_on_the_right_is_skipped() -> None:
    assert card_turner(amounts(s4=100), occupied=[2, 4, 8], declined={4}) == 8


def test_nobody_accepts_the_cards_so_the_dealer_turns_them() -> None:
    assert card_turner(amounts(s4=100, s6=50), occupied=[4, 6], declined={4, 6}) is None


def test_relinquish_order_starts_at_the_right_and_leaves_out_the_previous_player() -> None:
    assert relinquish_order(7, NINE_SEATS) == [8, 9, 1, 2, 3, 4, 5, 6]
    assert relinquish_order(9, [1, 9]) == [1]


# --- the cut (000 §5(b), (e); 002 (e)(4), (7); 004 §5(c), (f)) -----------------------------------


def test_minibaccarat_offers_the_cut_from_the_highest_seat_clockwise() -> None:
    rules = PROFILES["ma-mini"]
    assert rules.cut_offer is CutOffer.HIGHEST_SEAT_CLOCKWISE
    assert cut_offer_order(rules, [2, 7, 4]) == [7, 4, 2]
    assert cut_offer_order(PROFILES["s42-mini"], NINE_SEATS) == [9, 8, 7, 6, 5, 4, 3, 2, 1]


def test_the_big_table_offers_the_cut_from_the_highest_seat_counterclockwise() -> None:
    rules = PROFILES["ma-big"]
    assert cut_offer_order(rules, [1, 3, 10, 12]) == [12, 1, 3, 10]


def test_after_a_reshuffle_the_big_table_offers_the_cut_to_the_last_curator_first() -> None:
    rules = PROFILES["ma-big"]
    assert cut_offer_order(rules, [1, 3, 10, 12], last_curator=3) == [3, 10, 12, 1]
    # a last curator who has left the table: back to the highest seat
    assert cut_offer_order(rules, [1, 3, 10, 12], last_curator=5) == [12, 1, 3, 10]


def test_a_dealer_cuts_table_offers_nobody_the_cut() -> None:
    rules = rules_submission("ma-big", {"cut_offer": "dealer_cuts"})
    assert cut_offer_order(rules, [1, 3, 10, 12]) == []


def test_an_empty_table_offers_nobody_the_cut() -> None:
    assert cut_offer_order(PROFILES["ma-mini"], []) == []


def test_a_recut_goes_to_the_next_player_entitled_to_cut() -> None:
    rules = PROFILES["ma-mini"]
    assert rules.recut is Recut.NEXT_ENTITLED
    offer = cut_offer_order(rules, [2, 4, 7])  # 7, 4, 2
    order = recut_order(rules, offer, last_cutter=4)
    assert order[0] == 2
    assert 4 not in order


def test_a_recut_by_the_last_cutter_when_the_rules_say_so() -> None:
    rules = rules_submission("ma-big", {"recut": "last_cutter"})
    offer = cut_offer_order(rules, [1, 3, 10, 12])
    assert recut_order(rules, offer, last_cutter=3) == [3]


def test_a_recut_by_a_seat_never_offered_the_cut_is_refused() -> None:
    rules = PROFILES["ma-mini"]
    with pytest.raises(RulesError, match="not offered the cut"):
        recut_order(rules, [7, 4, 2], last_cutter=5)


# --- the curator on the big table (004 §7(b), §14) -----------------------------------------------


def test_the_shoe_is_offered_to_seat_1_first_then_counterclockwise() -> None:
    assert curator_offer_order([12, 1, 4]) == [1, 4, 12]
    assert curator_offer_order([3, 5, 9]) == [3, 5, 9]  # nobody in seat 1


def test_after_a_pass_the_shoe_goes_to_the_player_right_of_the_previous_curator() -> None:
    assert curator_offer_order([1, 4, 12], previous=4) == [12, 1]
    assert curator_offer_order([1, 4, 12], previous=12) == [1, 4]
    assert curator_offer_order([1, 4, 12, 13], previous=12) == [13, 1, 4]


def test_the_curator_must_pass_when_the_banker_loses() -> None:
    assert curator_must_pass(outcome("3C 5D", "2H 5S")) is True  # Player 8 over Banker 7


def test_the_curator_need_not_pass_on_a_banker_win_or_a_tie() -> None:
    assert curator_must_pass(outcome("7C KD", "4H 5S")) is False  # Banker 9 over Player 7
    assert curator_must_pass(outcome("3C 4D", "2H 5S")) is False  # 7 to 7
    assert curator_must_pass(outcome("2H 3S KD", "3C KS 4H")) is False  # Dragon 7, Banker wins


# --- California: the player-dealer (001) ----------------------------------------------------------


def test_the_player_dealer_position_moves_clockwise_every_two_hands() -> None:
    assert PROFILES["ca-commission-free"].player_dealer_rotation_hands == 2
    assert next_player_dealer(5, [1, 2, 3, 4, 5, 6, 7]) == 4
    assert next_player_dealer(1, [1, 3, 6]) == 6  # clockwise from seat 1 wraps to the highest
    assert next_player_dealer(6, [1, 6]) == 1


def test_the_player_dealer_cannot_be_passed_to_nobody() -> None:
    with pytest.raises(RulesError, match="No other player"):
        next_player_dealer(3, [3])


def test_california_action_begins_at_the_player_dealers_left_and_goes_clockwise() -> None:
    assert california_action_order(5, [1, 2, 3, 4, 5, 6, 7]) == [4, 3, 2, 1, 7, 6]
    assert california_action_order(1, [1, 3, 6, 14]) == [14, 6, 3]
    assert california_action_order(9, [2, 12]) == [2, 12]
