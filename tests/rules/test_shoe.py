"""Shoe procedures: decks, batches, the manual shuffle, the cut, the cover card and the burn.

Texts: 000 §3, §5; 001 (eight decks); 002 (a)(1), (a)(4), (e)(5)-(6); 004 §3, §5(d)-(g), §13(i).
"""

from __future__ import annotations

import pytest

from baccarat.cards import Card, full_deck, parse_cards
from baccarat.composition import Composition
from baccarat.errors import RulesError
from baccarat.profiles import PROFILES, ShuffleProcedure
from baccarat.shoe import (
    MANUAL_STEPS,
    Cut,
    ShuffleStep,
    batch_for_shoe,
    burn,
    check_composition,
    check_cut,
    check_decks,
    check_shoe,
    check_shuffle,
    check_shuffle_steps,
    cut_stack,
    shoe_decks,
)

PLUG, RIFFLE, TURN, STRIP, CUT = (
    ShuffleStep.PLUG,
    ShuffleStep.RIFFLE,
    ShuffleStep.TURN,
    ShuffleStep.STRIP,
    ShuffleStep.CUT,
)
EIGHT_DECKS = 8 * 52


# --- number of decks ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ma-mini", "ma-mini-ez", "s42-mini", "mini-pairs"])
@pytest.mark.parametrize("decks", [6, 7, 8])
def test_a_mini_table_deals_six_to_eight_decks(name: str, decks: int) -> None:
    check_decks(PROFILES[name], decks)


@pytest.mark.parametrize("decks", [1, 5, 9, 12])
def test_a_mini_table_refuses_other_numbers_of_decks_in_a_manual_shoe(decks: int) -> None:
    with pytest.raises(RulesError, match=f"6 to 8 decks, not {decks}"):
        check_decks(PROFILES["ma-mini"], decks)


@pytest.mark.parametrize("decks", [12, 14, 16])
def test_with_a_shuffler_a_mini_table_uses_12_to_16_decks_in_two_equal_batches(decks: int) -> None:
    check_decks(PROFILES["ma-mini"], decks, automatic_shuffler=True)


@pytest.mark.parametrize("decks", [8, 10, 13, 15, 18])
def test_with_a_shuffler_other_numbers_or_unequal_batches_are_refused(decks: int) -> None:
    with pytest.raises(RulesError, match="two equal batches"):
        check_decks(PROFILES["ma-mini"], decks, automatic_shuffler=True)


@pytest.mark.parametrize(
    ("name", "decks"),
    [("ma-mini", (6, 7, 8)), ("ma-big", (6, 8)), ("ca-commission-free", (8,))],
)
def test_a_shoe_is_dealt_from_what_a_manual_shoe_or_one_shuffler_batch_holds(
    name: str, decks: tuple[int, ...]
) -> None:
    assert shoe_decks(PROFILES[name]) == decks


def test_a_california_shoe_of_one_deck_is_refused() -> None:
    with pytest.raises(RulesError, match="dealt from a shoe of 8 decks, not 1"):
        check_shoe(PROFILES["ca-commission-free"], 1)


def test_what_is_left_in_a_shoe_holds_no_more_of_a_rank_than_its_most_decks() -> None:
    check_composition(PROFILES["ma-mini"], Composition.of_decks(8))
    check_composition(PROFILES["ma-mini"], Composition((32,) + (0,) * 12))
    with pytest.raises(RulesError, match="at most 8 decks: 8 decks hold 32 Aces, not 33"):
        check_composition(PROFILES["ma-mini"], Composition((33,) + (0,) * 12))


def test_the_big_table_deals_six_to_eight_decks_and_no_shuffler_batches() -> None:
    rules = PROFILES["ma-big"]
    check_decks(rules, 6)
    check_decks(rules, 8)
    with pytest.raises(RulesError):
        check_decks(rules, 9)
    with pytest.raises(RulesError, match="not dealt with an automatic shuffler"):
        check_decks(rules, 12, automatic_shuffler=True)


def test_a_big_table_offering_royal_9_refuses_a_seven_deck_shoe() -> None:
    # 004 §13(i): with the Royal 9 progressive, "a standard 52 card, six or eight deck shoe"
    assert PROFILES["ma-big"].royal9 is not None
    with pytest.raises(RulesError):
        check_decks(PROFILES["ma-big"], 7)


def test_california_deals_exactly_eight_decks() -> None:
    rules = PROFILES["ca-commission-free"]
    check_decks(rules, 8)
    for decks in (6, 7, 9):
        with pytest.raises(RulesError, match=f"deals 8 decks, not {decks}"):
            check_decks(rules, decks)


def test_california_deals_eight_decks_from_an_automatic_shuffler_too() -> None:
    # 001: "either a multiple deck shoe or an automated shuffling machine ... eight decks"
    rules = PROFILES["ca-commission-free"]
    check_decks(rules, 8, automatic_shuffler=True)
    for decks in (6, 12, 16):
        with pytest.raises(RulesError):
            check_decks(rules, decks, automatic_shuffler=True)


def test_the_two_batches_alternate_shoe_by_shoe() -> None:
    assert [batch_for_shoe(n) for n in range(1, 7)] == [0, 1, 0, 1, 0, 1]


def test_shoes_are_numbered_from_one() -> None:
    with pytest.raises(RulesError):
        batch_for_shoe(0)


# --- the manual shuffle (000 §5(h), 004 §5(g)) ----------------------------------------------------


def test_a_manual_shuffle_with_all_five_steps_in_order_is_accepted() -> None:
    check_shuffle_steps([PLUG, RIFFLE, RIFFLE, TURN, STRIP, CUT])
    check_shuffle_steps([PLUG, RIFFLE, TURN, RIFFLE, RIFFLE, STRIP, RIFFLE, CUT])


@pytest.mark.parametrize("missing", MANUAL_STEPS)
def test_a_manual_shuffle_missing_a_step_is_refused(missing: ShuffleStep) -> None:
    steps = [s for s in [PLUG, RIFFLE, RIFFLE, TURN, STRIP, CUT] if s is not missing]
    if missing is CUT:
        steps.append(RIFFLE)
    with pytest.raises(RulesError, match=f"missing: {missing.value}"):
        check_shuffle_steps(steps)


def test_the_strip_may_not_come_before_two_riffles() -> None:
    with pytest.raises(RulesError, match="two riffles"):
        check_shuffle_steps([PLUG, RIFFLE, STRIP, RIFFLE, TURN, CUT])
    with pytest.raises(RulesError, match="two riffles"):
        check_shuffle_steps([PLUG, STRIP, RIFFLE, RIFFLE, TURN, CUT])


def test_the_cut_is_the_last_step() -> None:
    with pytest.raises(RulesError, match="last step"):
        check_shuffle_steps([PLUG, RIFFLE, RIFFLE, TURN, STRIP, CUT, RIFFLE])


# --- the cut and the cover card (000 §5(c)-(d), 002 (e)(5)-(6), 004 §5(d)-(e)) -------------------


@pytest.mark.parametrize("position", [10, 11, 208, 405, 406])
def test_a_mini_cut_at_least_ten_cards_from_either_end_is_accepted(position: int) -> None:
    check_cut(PROFILES["ma-mini"], EIGHT_DECKS, Cut(position, 14))


@pytest.mark.parametrize("position", [0, 1, 9, 407, 415])
def test_a_mini_cut_closer_than_ten_cards_to_an_end_is_refused(position: int) -> None:
    with pytest.raises(RulesError, match=f"at least 10 cards in from either end.*{position} is"):
        check_cut(PROFILES["ma-mini"], EIGHT_DECKS, Cut(position, 14))


@pytest.mark.parametrize(("position", "ok"), [(51, False), (52, True), (364, True), (365, False)])
def test_a_big_table_cut_is_at_least_a_deck_from_either_end(position: int, ok: bool) -> None:
    rules = PROFILES["ma-big"]
    if ok:
        check_cut(rules, EIGHT_DECKS, Cut(position, 14))
    else:
        with pytest.raises(RulesError, match="a deck"):
            check_cut(rules, EIGHT_DECKS, Cut(position, 14))


@pytest.mark.parametrize("name", ["ma-mini", "ma-big", "s42-mini"])
def test_the_second_cover_card_goes_at_least_14_cards_from_the_back(name: str) -> None:
    rules = PROFILES[name]
    check_cut(rules, EIGHT_DECKS, Cut(100, 14))
    check_cut(rules, EIGHT_DECKS, Cut(100, 60))
    for too_close in (0, 1, 13):
        with pytest.raises(RulesError, match="at least 14 cards in from the back"):
            check_cut(rules, EIGHT_DECKS, Cut(100, too_close))
    with pytest.raises(RulesError):
        check_cut(rules, EIGHT_DECKS, Cut(100, EIGHT_DECKS))


def test_the_cards_above_the_cover_card_go_to_the_bottom_of_the_stack() -> None:
    stack = parse_cards(["AS", "2S", "3S", "4S", "5S", "6S"])
    assert cut_stack(stack, 2) == parse_cards(["3S", "4S", "5S", "6S", "AS", "2S"])


def test_cutting_keeps_every_card() -> None:
    stack = full_deck() * 6
    cut = cut_stack(stack, 137)
    assert sorted(map(str, cut)) == sorted(map(str, stack))
    assert cut[0] == stack[137]
    assert cut[-137:] == stack[:137]


# --- the burn (000 §5(f), 002 (e)(6), 004 §5(e)) --------------------------------------------------


@pytest.mark.parametrize(
    ("card", "burned"),
    [("AS", 1), ("2D", 2), ("7H", 7), ("9C", 9), ("TC", 10), ("JD", 10), ("QH", 10), ("KS", 10)],
)
def test_the_first_card_is_burned_with_as_many_more_as_its_face_value(
    card: str, burned: int
) -> None:
    assert burn(Card.parse(card)) == burned


LACE, RESHUFFLE, FEATHER = ShuffleStep.LACE, ShuffleStep.RESHUFFLE, ShuffleStep.FEATHER
WASH, DEALER = ShuffleStep.WASH, ShuffleStep.DEALER_SHUFFLE
MANUAL = [PLUG, RIFFLE, RIFFLE, TURN, STRIP, CUT]


@pytest.mark.parametrize(
    ("procedure", "steps"),
    [
        (ShuffleProcedure.FEATHERED, [*MANUAL, FEATHER]),
        (ShuffleProcedure.LACED, [*MANUAL, LACE]),
        (ShuffleProcedure.LACED_THEN_RESHUFFLED, [*MANUAL, LACE, RESHUFFLE]),
        (ShuffleProcedure.WASH_AND_THREE_DEALERS, [WASH, DEALER, DEALER, DEALER, *MANUAL]),
    ],
)
def test_each_shuffle_procedure_accepts_its_own_steps(procedure, steps) -> None:
    check_shuffle(procedure, steps)


@pytest.mark.parametrize(
    ("procedure", "steps", "message"),
    [
        (ShuffleProcedure.FEATHERED, MANUAL, "feather"),
        (ShuffleProcedure.LACED, [*MANUAL, FEATHER], "lace"),
        (ShuffleProcedure.LACED_THEN_RESHUFFLED, [*MANUAL, LACE], "reshuffle"),
        (ShuffleProcedure.WASH_AND_THREE_DEALERS, [WASH, DEALER, DEALER, *MANUAL], "three"),
        (ShuffleProcedure.LACED, [DEALER, *MANUAL, LACE], "Three dealers"),
    ],
)
def test_a_shuffle_that_skips_the_procedure_is_refused(procedure, steps, message) -> None:
    with pytest.raises(RulesError, match=message):
        check_shuffle(procedure, steps)
