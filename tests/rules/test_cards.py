"""Cards, Values, Point Counts, Naturals, pairs and the burn.

Sources: 000 §5(f), §6, §7(a)(7); 001; 002 (a)(2)-(3), (e)(6); 003; 004 §5(e), §6.

Every expected answer below is copied from the rules texts in ``shared/rules``, not from the engine.
"""

from __future__ import annotations

import pytest

from baccarat.cards import (
    Card,
    CardError,
    Rank,
    Suit,
    burn_count,
    full_deck,
    is_natural,
    is_pair,
    parse_cards,
    point_count,
)
from baccarat.errors import RulesError

# 000 §6(a), 002 (a)(2), 004 §6(a): 2-9 face value; 10, jack, queen, king zero; ace one.
VALUE_BY_RANK_TEXT = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 0, "J": 0, "Q": 0, "K": 0,
}  # fmt: skip

# 000 §5(f), 002 (e)(6), 004 §5(e): burn the first card's face value; 10 and pictures ten, ace one.
BURN_BY_RANK_TEXT = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
    "T": 10, "J": 10, "Q": 10, "K": 10,
}  # fmt: skip


def cards(*codes: str) -> tuple[Card, ...]:
    return parse_cards(codes)


# --- reading a card -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [
        ("AS", Rank.ACE, Suit.SPADES),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("10D", Rank.TEN, Suit.DIAMONDS),
        ("kh", Rank.KING, Suit.HEARTS),
        ("Qc", Rank.QUEEN, Suit.CLUBS),
        ("9s", Rank.NINE, Suit.SPADES),
        ("2H", Rank.TWO, Suit.HEARTS),
        ("JD", Rank.JACK, Suit.DIAMONDS),
        (" 5C ", Rank.FIVE, Suit.CLUBS),
    ],
)
def test_it_reads_a_card_as_rank_then_suit(code: str, rank: Rank, suit: Suit) -> None:
    assert Card.parse(code) == Card(rank, suit)


def test_ten_written_as_t_or_10_is_the_same_card_and_is_shown_as_t() -> None:
    assert Card.parse("10D") == Card.parse("TD")
    assert str(Card.parse("10D")) == "TD"


def test_every_card_of_the_deck_reads_back_from_its_own_code() -> None:
    for card in full_deck():
        assert Card.parse(str(card)) == card
        assert Card.parse(str(card).lower()) == card


@pytest.mark.parametrize("code", ["1S", "ZZ", "11H", "", "   ", "10", "A", "S", "AX", "0S", "KHS"])
def test_it_refuses_text_that_is_not_a_card_with_a_message_saying_how_to_write_one(
    code: str,
) -> None:
    with pytest.raises(CardError) as refused:
        Card.parse(code)
    message = str(refused.value)
    assert f"'{code}'" in message
    assert "not a card" in message
    assert "suit" in message


def test_a_card_refusal_is_a_rules_refusal() -> None:
    with pytest.raises(RulesError):
        Card.parse("1S")


def test_reading_a_list_of_cards_refuses_the_first_bad_one_by_name() -> None:
    with pytest.raises(CardError, match="'ZZ' is not a card"):
        parse_cards(["AS", "ZZ", "11H"])


# --- values and Point Counts ---------------------------------------------------------------------


@pytest.mark.parametrize("rank_code", list(VALUE_BY_RANK_TEXT))
def test_each_rank_has_the_value_in_section_6(rank_code: str) -> None:
    for suit in "CDHS":
        assert Card.parse(rank_code + suit).value == VALUE_BY_RANK_TEXT[rank_code]


def test_an_ace_a_2_and_a_4_have_a_point_count_of_7() -> None:
    assert point_count(cards("AS", "2H", "4D")) == 7  # 000 §6(b)(1), 002 (a)(3)(i)


def test_an_ace_a_2_and_a_9_total_12_but_have_a_point_count_of_only_2() -> None:
    assert point_count(cards("AC", "2C", "9C")) == 2  # 000 §6(b)(2), 002 (a)(3)(ii)


def test_9_and_5_count_4() -> None:
    assert point_count(cards("9H", "5S")) == 4  # 003: "So: 9+5=4."


@pytest.mark.parametrize(
    ("codes", "count"),
    [
        (("TH", "JS", "QD"), 0),
        (("KC", "KD"), 0),
        (("5H", "5S"), 0),
        (("9D", "9C", "9S"), 7),
        (("KH", "9S"), 9),
        (("AD",), 1),
        ((), 0),
    ],
)
def test_the_point_count_is_the_right_digit_of_the_total(
    codes: tuple[str, ...], count: int
) -> None:
    assert point_count(cards(*codes)) == count


# --- Naturals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "codes", [("4C", "4D"), ("KH", "8S"), ("9C", "TD"), ("5S", "4H"), ("AS", "7C")]
)
def test_an_8_or_9_on_the_first_two_cards_is_a_natural(codes: tuple[str, ...]) -> None:
    assert is_natural(cards(*codes))


@pytest.mark.parametrize(
    "codes",
    [
        ("2C", "3D", "3H"),  # a three-card 8 is "Nine or Eight", not a Natural (001)
        ("KC", "QD", "9H"),  # a three-card 9
        ("3S", "4S"),  # two cards counting 7
        ("KS", "KD"),  # two cards counting 0
        ("8S",),  # one card is not yet a hand
    ],
)
def test_a_hand_is_not_a_natural_unless_its_first_two_cards_count_8_or_9(
    codes: tuple[str, ...],
) -> None:
    assert not is_natural(cards(*codes))


# --- pairs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("codes", [("QC", "QD"), ("5H", "5S"), ("AS", "AS"), ("TD", "10H")])
def test_two_first_cards_of_the_same_rank_are_a_pair_whatever_the_suit(
    codes: tuple[str, ...],
) -> None:
    assert is_pair(cards(*codes))  # 000 §7(a)(7)(i): "two queens, for example"


@pytest.mark.parametrize(
    "codes",
    [
        ("TH", "KH"),  # both count zero, but a ten and a king are different ranks
        ("JS", "QS"),
        ("QC", "KC"),
        ("AS", "2S"),
    ],
)
def test_cards_of_equal_value_but_different_rank_are_not_a_pair(codes: tuple[str, ...]) -> None:
    assert not is_pair(cards(*codes))


def test_only_the_first_two_cards_make_a_pair() -> None:
    assert not is_pair(cards("5H", "6S", "5D"))
    assert is_pair(cards("AS", "AH", "2C"))
    assert not is_pair(cards("AS"))


# --- the burn -------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank_code", list(BURN_BY_RANK_TEXT))
def test_the_first_card_burns_as_many_cards_as_its_face_value(rank_code: str) -> None:
    assert burn_count(Card.parse(rank_code + "H")) == BURN_BY_RANK_TEXT[rank_code]


def test_an_ace_burns_1_a_five_burns_5_and_tens_and_pictures_burn_10() -> None:
    assert burn_count(Card.parse("AS")) == 1
    assert burn_count(Card.parse("5D")) == 5
    assert [burn_count(c) for c in cards("TC", "JC", "QC", "KC")] == [10, 10, 10, 10]


# --- the deck -------------------------------------------------------------------------------------


def test_a_deck_spread_for_inspection_holds_each_of_the_52_cards_once() -> None:
    deck = full_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    for rank in Rank:
        assert sum(1 for c in deck if c.rank is rank) == 4
