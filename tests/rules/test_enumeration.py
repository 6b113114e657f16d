"""Exact coup and pair probabilities: the fast engine against plain counting and known answers."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card, Rank, Suit
from baccarat.composition import Composition
from baccarat.drawing import Coup
from baccarat.enumeration import (
    CLASS_COUNT,
    CoupClass,
    coup_class,
    coup_distribution,
    falling_factorial,
    pair_distribution,
    reference_coup_distribution,
)

EIGHT_DECKS = Composition.of_decks(8)


def within_half_a_millionth(probability: Fraction, published: str) -> bool:
    return abs(probability - Fraction(published)) <= Fraction(1, 2_000_000)


def compositions(max_per_rank: int, min_total: int = 6) -> st.SearchStrategy[Composition]:
    counts = st.lists(st.integers(0, max_per_rank), min_size=13, max_size=13)
    return counts.filter(lambda c: sum(c) >= min_total).map(lambda c: Composition(tuple(c)))


# --- Composition ----------------------------------------------------------------------------------


def test_a_shoe_of_decks_holds_four_of_each_rank_per_deck() -> None:
    shoe = Composition.of_decks(8)
    assert shoe.counts == (32,) * 13
    assert shoe.total == 416


def test_value_zero_gathers_tens_and_pictures() -> None:
    assert Composition.of_decks(1).value_counts() == (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)


def test_it_reads_thirteen_comma_separated_counts() -> None:
    text = "32, 31,32,32,32,32,32,32,32,32,32,32,0"
    assert Composition.parse(text).counts == (32, 31, *(32,) * 10, 0)
    assert Composition.parse(str(EIGHT_DECKS)) == EIGHT_DECKS


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("32,32,32", "13 comma-separated counts"),
        (",".join(["4"] * 14), "got 14"),
        ("", "got 1"),
        ("4,4,4,4,4,4,4,4,4,4,4,4,x", "Kings must be a whole number"),
        ("-1,4,4,4,4,4,4,4,4,4,4,4,4", "Aces must be a whole number"),
        ("4,4,4,4,4,2.5,4,4,4,4,4,4,4", "Sixes must be a whole number"),
        ("4,4,4,4,4,4,4,4,4,4,,4,4", "Jacks must be a whole number"),
    ],
)
def test_it_refuses_text_that_is_not_thirteen_counts(text: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        Composition.parse(text)


def test_it_refuses_counts_that_are_not_thirteen_non_negative_integers() -> None:
    with pytest.raises(ValueError, match="13 counts"):
        Composition((4,) * 12)
    with pytest.raises(ValueError, match="Queens cannot be negative"):
        Composition((4,) * 11 + (-1, 4))
    with pytest.raises(ValueError, match="must be an integer"):
        Composition((4.0,) * 13)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole, positive number of decks"):
        Composition.of_decks(0)


def test_removing_dealt_cards_lowers_their_rank_counts() -> None:
    shoe = Composition.of_decks(1).without([Card.parse("KH"), Card.parse("KS"), Rank.ACE])
    assert shoe.counts == (3, *(4,) * 11, 2)
    assert shoe.total == 49


def test_it_refuses_to_remove_a_rank_that_is_exhausted() -> None:
    shoe = Composition((1,) + (0,) * 12)
    with pytest.raises(ValueError, match="No Aces are left"):
        shoe.without([Rank.ACE, Rank.ACE])


# --- classes --------------------------------------------------------------------------------------


def test_every_class_index_leads_back_to_its_class() -> None:
    for index in range(CLASS_COUNT):
        assert coup_class(index).index == index
        assert CoupClass.from_index(index) == coup_class(index)
    assert CoupClass(9, 7, 3, 2).index == ((9 * 10 + 7) * 2 + 1) * 2 + 0


def test_it_refuses_a_class_index_out_of_range() -> None:
    for index in (-1, CLASS_COUNT):
        with pytest.raises(ValueError, match="0 to 399"):
            coup_class(index)


# --- coup distribution ----------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 8])
def test_the_fast_engine_equals_plain_enumeration_on_a_full_shoe(decks: int) -> None:
    shoe = Composition.of_decks(decks)
    assert coup_distribution(shoe) == reference_coup_distribution(shoe)


@settings(max_examples=25, deadline=None)
@given(compositions(max_per_rank=32))
def test_the_fast_engine_equals_plain_enumeration_on_depleted_shoes(shoe: Composition) -> None:
    assert coup_distribution(shoe) == reference_coup_distribution(shoe)


@settings(max_examples=25, deadline=None)
@given(compositions(max_per_rank=2))
def test_the_fast_engine_equals_plain_enumeration_on_nearly_empty_shoes(shoe: Composition) -> None:
    assert coup_distribution(shoe) == reference_coup_distribution(shoe)


def test_the_fast_engine_is_exact_on_shoes_too_big_for_64_bit_integers() -> None:
    shoe = Composition((3000, 5, 0, 7, 100, 1, 0, 0, 2, 900, 900, 900, 900))
    assert falling_factorial(shoe.total, 6) >= 2**63
    assert coup_distribution(shoe) == reference_coup_distribution(shoe)


def test_the_fast_engine_is_exact_on_the_largest_shoe_that_fits_64_bit_integers() -> None:
    total = max(n for n in range(6, 2000) if falling_factorial(n, 6) < 2**63)
    shoe = Composition((1, 2, 3, 4, 5, 6, 7, 8, 9, total - 45 - 3, 1, 1, 1))
    assert shoe.total == total
    assert coup_distribution(shoe) == reference_coup_distribution(shoe)


def test_probabilities_sum_to_exactly_one() -> None:
    for shoe in (
        Composition.of_decks(1),
        EIGHT_DECKS,
        Composition.parse("0,0,0,0,0,1,0,0,0,0,5,0,0"),
    ):
        distribution = coup_distribution(shoe)
        assert sum(p for _, p in distribution.items()) == 1
        assert distribution.banker_wins + distribution.player_wins + distribution.tie == 1


def test_eight_decks_give_the_published_banker_player_and_tie_figures() -> None:
    distribution = coup_distribution(EIGHT_DECKS)
    assert within_half_a_millionth(distribution.banker_wins, "0.458597")
    assert within_half_a_millionth(distribution.player_wins, "0.446247")
    assert within_half_a_millionth(distribution.tie, "0.095156")


def test_a_six_card_shoe_of_five_kings_and_a_seven_matches_a_count_by_hand() -> None:
    # The Seven is equally likely in each of the six positions:
    #   1st or 3rd (Player's): Player stands on 7, Banker draws a King on 0       -> 7 to 0, 2 and 3
    #   2nd or 4th (Banker's): Player draws a King on 0, Banker stands on 7       -> 0 to 7, 3 and 2
    #   5th (Player's third): Player makes 7, Banker draws on 0 after a 7         -> 7 to 0, 3 and 3
    #   6th (Banker's third): Player draws a King, Banker on 0 draws the Seven    -> 0 to 7, 3 and 3
    shoe = Composition.parse("0,0,0,0,0,0,1,0,0,0,0,0,5")
    distribution = coup_distribution(shoe)
    assert distribution.denominator == math.factorial(6)
    assert dict(distribution.items()) == {
        CoupClass(7, 0, 2, 3): Fraction(1, 3),
        CoupClass(0, 7, 3, 2): Fraction(1, 3),
        CoupClass(7, 0, 3, 3): Fraction(1, 6),
        CoupClass(0, 7, 3, 3): Fraction(1, 6),
    }
    assert distribution.probability(CoupClass(7, 0, 2, 3)) == Fraction(1, 3)
    assert distribution.banker_wins == distribution.player_wins == Fraction(1, 2)


@pytest.mark.parametrize("counts", ["1,1,1,1,1,1,1,0,0,0,0,0,0", "0,0,2,0,0,1,0,1,0,1,1,1,0"])
def test_it_agrees_with_dealing_every_ordering_of_a_small_shoe_card_by_card(counts: str) -> None:
    shoe = Composition.parse(counts)
    cards = [Card(rank, suit) for rank in Rank for suit in list(Suit)[: shoe.counts[rank]]]
    seen: Counter[int] = Counter()
    for order in itertools.permutations(cards, 6):
        coup = Coup.from_dealing_order(order[: _cards_used(order)])
        player = sum(c.value for c in coup.player) % 10
        banker = sum(c.value for c in coup.banker) % 10
        seen[CoupClass(player, banker, len(coup.player), len(coup.banker)).index] += 1
    assert coup_distribution(shoe).numerators == tuple(seen[i] for i in range(CLASS_COUNT))


def _cards_used(order: tuple[Card, ...]) -> int:
    coup = Coup()
    for card in order:
        if coup.is_complete:
            break
        coup = coup.deal(card)
    return coup.dealt


def test_it_refuses_a_shoe_that_may_not_complete_a_coup() -> None:
    shoe = Composition.parse("0,0,0,0,0,0,0,0,0,0,0,0,5")
    with pytest.raises(ValueError, match="may need six cards"):
        coup_distribution(shoe)
    with pytest.raises(ValueError, match="may need six cards"):
        reference_coup_distribution(shoe)


# --- pairs ----------------------------------------------------------------------------------------


def test_eight_decks_give_the_published_player_pair_figure() -> None:
    pairs = pair_distribution(EIGHT_DECKS)
    assert pairs.player_pair == Fraction(32 * 31 * 13, 416 * 415)
    assert within_half_a_millionth(pairs.player_pair, "0.074699")
    assert pairs.banker_pair == pairs.player_pair


def test_eight_decks_give_both_pairs_as_a_player_pair_then_a_banker_pair_from_the_rest() -> None:
    # After a Player pair of some rank, 414 cards remain: 30 of that rank, 32 of each of 12 others.
    banker_given_player = Fraction(30 * 29 + 12 * 32 * 31, 414 * 413)
    pairs = pair_distribution(EIGHT_DECKS)
    assert pairs.both_pairs == pairs.player_pair * banker_given_player
    assert pairs.either_pair == 2 * pairs.player_pair - pairs.both_pairs


def test_a_ten_and_a_king_are_no_pair() -> None:
    pairs = pair_distribution(Composition.parse("0,0,0,0,0,0,0,0,0,1,1,1,1"))
    assert pairs.player_pair == pairs.banker_pair == pairs.both_pairs == 0


@settings(max_examples=20, deadline=None)
@given(compositions(max_per_rank=5, min_total=4))
def test_pair_probabilities_equal_counting_every_four_rank_sequence(shoe: Composition) -> None:
    counts = list(shoe.counts)
    player = banker = both = 0
    for ranks in itertools.product(range(13), repeat=4):
        ways = math.prod(counts[r] - ranks[:i].count(r) for i, r in enumerate(ranks))
        player += ways * (ranks[0] == ranks[2])
        banker += ways * (ranks[1] == ranks[3])
        both += ways * (ranks[0] == ranks[2] and ranks[1] == ranks[3])
    pairs = pair_distribution(shoe)
    assert pairs.denominator == falling_factorial(shoe.total, 4)
    assert (pairs.player, pairs.banker, pairs.both) == (player, banker, both)


def test_it_refuses_pairs_from_a_shoe_of_fewer_than_four_cards() -> None:
    with pytest.raises(ValueError, match="four cards"):
        pair_distribution(Composition.parse("3,0,0,0,0,0,0,0,0,0,0,0,0"))
