"""What a completed coup shows and what the dealer announces.

Sources: 000 §1, §11(a); 002 (j)(1); 004 §1, §12(a); 001 (hand rankings).
"""

from __future__ import annotations

import pytest

from baccarat.cards import parse_cards
from baccarat.drawing import Coup
from baccarat.errors import RulesError
from baccarat.outcome import Hand, Outcome, Winner, first_two_pairs


def outcome(player: str, banker: str) -> Outcome:
    """The outcome of a complete coup given as two space-separated hands, e.g. ``"2C 3D KH"``."""
    return Outcome.of(Coup.from_hands(parse_cards(player.split()), parse_cards(banker.split())))


# --- winner ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker", "winner", "totals"),
    [
        ("9C KD", "4H 3S", Winner.PLAYER, (9, 7)),  # Natural 9 over a standing 7
        ("4C 3D", "5H 3S", Winner.BANKER, (7, 8)),  # Banker Natural 8
        ("6C KD", "6H QS", Winner.TIE, (6, 6)),  # both stand on 6
        ("8C KD", "3H 5S", Winner.TIE, (8, 8)),  # two Natural 8s
        ("2C 3D KH", "3H KS 4S", Winner.BANKER, (5, 7)),  # Banker draws on 3 and makes 7
        ("2C AD 5H", "4S 3H", Winner.PLAYER, (8, 7)),  # Player draws to 8, Banker stands on 7
        ("AC 2D 2H", "3S KH 3C", Winner.BANKER, (5, 6)),  # both draw; 6 over 5
        ("KC QD JH", "KS QH KD", Winner.TIE, (0, 0)),  # baccarat against baccarat
    ],
)
def test_the_hand_with_the_higher_point_count_wins_and_equal_counts_tie(
    player: str, banker: str, winner: Winner, totals: tuple[int, int]
) -> None:
    result = outcome(player, banker)
    assert (result.player_total, result.banker_total) == totals
    assert result.winner is winner
    assert result.total(Hand.PLAYER) == totals[0]
    assert result.total(Hand.BANKER) == totals[1]


def test_it_counts_the_cards_each_hand_received() -> None:
    result = outcome("AC 2D 2H", "3S KH 3C")
    assert (result.player_cards, result.banker_cards) == (3, 3)
    result = outcome("6C KD", "2H 3S 9D")
    assert (result.player_cards, result.banker_cards) == (2, 3)


def test_it_refuses_to_classify_a_coup_that_still_needs_a_card() -> None:
    waiting = Coup.from_dealing_order(parse_cards(["2C", "3D", "KH", "4S"]))  # Player 2 must draw
    with pytest.raises(RulesError, match="not complete"):
        Outcome.of(waiting)


# --- Naturals -------------------------------------------------------------------------------------


def test_a_two_card_8_or_9_is_a_natural_for_either_hand() -> None:
    result = outcome("9C KD", "4H 3S")
    assert result.player_natural and not result.banker_natural
    assert result.natural(Hand.PLAYER) and not result.natural(Hand.BANKER)
    result = outcome("4C 3D", "5H 3S")
    assert result.banker_natural and not result.player_natural
    result = outcome("8C KD", "3H 5S")
    assert result.player_natural and result.banker_natural


def test_a_three_card_8_or_9_is_not_a_natural() -> None:
    result = outcome("2C AD 5H", "4S 3H")  # Player 8 on three cards (001: "Nine or Eight")
    assert result.player_total == 8
    assert not result.player_natural
    result = outcome("3C KD 6H", "KS QH KC")  # Player 9 on three cards
    assert result.player_total == 9
    assert not result.player_natural


# --- Dragon 7 and Panda 8 (000 §1, 004 §1) --------------------------------------------------------


def test_a_three_card_banker_7_against_a_player_5_is_a_dragon_7() -> None:
    result = outcome("2C 3D KH", "3H KS 4S")
    assert result.is_dragon7
    assert not result.is_panda8


def test_a_three_card_banker_7_against_a_standing_player_6_is_a_dragon_7() -> None:
    result = outcome("6C KD", "AH 2S 4D")  # Banker 3 draws because Player stood
    assert (result.player_total, result.banker_total, result.banker_cards) == (6, 7, 3)
    assert result.is_dragon7


def test_a_two_card_banker_7_is_not_a_dragon_7() -> None:
    result = outcome("2C 3D KH", "4S 3H")
    assert (result.player_total, result.banker_total, result.banker_cards) == (5, 7, 2)
    assert not result.is_dragon7


def test_a_three_card_banker_7_against_a_player_7_is_a_tie_not_a_dragon_7() -> None:
    result = outcome("AC AD 5H", "AH 2S 4D")  # Player 2 draws a 5: 7; Banker 3 draws a 4: 7
    assert (result.player_total, result.banker_total, result.banker_cards) == (7, 7, 3)
    assert result.winner is Winner.TIE
    assert not result.is_dragon7


def test_a_three_card_player_8_against_a_banker_7_is_a_panda_8() -> None:
    result = outcome("2C AD 5H", "4S 3H")
    assert result.is_panda8
    assert not result.is_dragon7


def test_a_two_card_player_8_is_a_natural_not_a_panda_8() -> None:
    result = outcome("4C 4D", "4S 3H")
    assert not result.is_panda8


def test_a_three_card_player_8_against_a_banker_8_is_a_tie_not_a_panda_8() -> None:
    result = outcome("2C AD 5H", "AS 2H 5D")  # Banker 3 draws on a third card of 5: 8
    assert (result.player_total, result.banker_total) == (8, 8)
    assert not result.is_panda8


# --- tags, in their fixed order -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "banker", "tags"),
    [
        ("9C KD", "4H 3S", ("player_natural",)),
        ("8C KD", "3H 5S", ("player_natural", "banker_natural")),
        ("4C 4D", "5H 3S", ("player_natural", "banker_natural", "player_pair")),
        ("2C 3D KH", "3H KS 4S", ("dragon7",)),
        ("2C AD 5H", "4S 3H", ("panda8",)),
        ("QC QD 9H", "7H 7S", ("player_pair", "banker_pair")),
        ("6C AD", "5H 5S KC", ("banker_pair",)),
        ("TH KH 5C", "6D 4S 2C", ()),
        ("9C 9D", "KH KS", ("player_natural", "player_pair", "banker_pair")),
        ("2C 2D AH", "6S 6D 5C", ("dragon7", "player_pair", "banker_pair")),
        ("AC AD 6H", "KS 7H", ("panda8", "player_pair")),
    ],
)
def test_tags_list_naturals_then_dragon_7_then_panda_8_then_pairs(
    player: str, banker: str, tags: tuple[str, ...]
) -> None:
    assert outcome(player, banker).tags == tags


def test_a_ten_and_a_king_are_not_a_pair_in_the_outcome() -> None:
    result = outcome("TH KH 5C", "6D 4S 2C")
    assert not result.player_pair
    assert not result.banker_pair


def test_pairs_are_known_from_the_first_four_cards_before_any_third_card() -> None:
    # House Money is settled before third cards are dealt (000 §8(c)(3)).
    four = Coup.from_dealing_order(parse_cards(["QC", "7H", "QD", "7S"]))
    assert not four.is_complete
    assert first_two_pairs(four) == (True, True)
    four = Coup.from_dealing_order(parse_cards(["TC", "7H", "KD", "8S"]))
    assert first_two_pairs(four) == (False, False)


def test_pairs_are_not_known_before_the_fourth_card() -> None:
    three = Coup.from_dealing_order(parse_cards(["QC", "7H", "QD"]))
    with pytest.raises(RulesError, match="first four cards"):
        first_two_pairs(three)


# --- announcements (000 §11(a), 004 §12(a), 002 (j)(1)) -------------------------------------------


def test_an_ez_table_announces_dragon_7() -> None:
    assert "Dragon 7" in outcome("2C 3D KH", "3H KS 4S").announcement(ez=True)


def test_an_ez_table_announces_panda_8() -> None:
    assert "Panda 8" in outcome("2C AD 5H", "4S 3H").announcement(ez=True)


@pytest.mark.parametrize(
    ("player", "banker", "call", "winner_word", "counts"),
    [
        ("2C 3D KH", "3H KS 4S", "Dragon 7", "Banker", ("7", "5")),
        ("2C AD 5H", "4S 3H", "Panda 8", "Player", ("8", "7")),
    ],
)
def test_an_ez_dragon_7_or_panda_8_announcement_still_gives_both_counts_and_the_winner(
    player: str, banker: str, call: str, winner_word: str, counts: tuple[str, str]
) -> None:
    said = outcome(player, banker).announcement(ez=True)
    assert call in said
    assert winner_word in said
    assert said.replace(call, "").count(counts[0]) >= 1
    assert said.replace(call, "").count(counts[1]) >= 1


def test_a_table_that_is_not_ez_announces_a_dragon_7_as_a_banker_win_with_both_counts() -> None:
    said = outcome("2C 3D KH", "3H KS 4S").announcement()
    assert "Dragon" not in said
    assert said.startswith("Banker")
    assert "7" in said and "5" in said


def test_a_table_that_is_not_ez_announces_a_panda_8_as_a_player_win_with_both_counts() -> None:
    said = outcome("2C AD 5H", "4S 3H").announcement()
    assert "Panda" not in said
    assert said.startswith("Player")
    assert "8" in said and "7" in said


@pytest.mark.parametrize("ez", [False, True])
def test_equal_point_counts_are_announced_as_tie_hand(ez: bool) -> None:
    said = outcome("6C KD", "6H QS").announcement(ez=ez)
    assert said.lower().startswith("tie hand")
    assert "6" in said


@pytest.mark.parametrize(
    ("player", "banker", "winner_word", "counts"),
    [
        ("9C KD", "4H 3S", "Player", ("9", "7")),
        ("4C 3D", "5H 3S", "Banker", ("8", "7")),
        ("AC 2D 2H", "3S KH 3C", "Banker", ("6", "5")),
    ],
)
@pytest.mark.parametrize("ez", [False, True])
def test_the_announcement_names_the_winning_hand_and_gives_both_point_counts(
    player: str, banker: str, winner_word: str, counts: tuple[str, str], ez: bool
) -> None:
    said = outcome(player, banker).announcement(ez=ez)
    assert said.startswith(winner_word)
    for count in counts:
        assert count in said
