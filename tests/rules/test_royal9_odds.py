"""The exact house edge of the Royal 9 wager at each chair (``baccarat.royal9_odds``), checked
against every deal of small shoes settled by ``royal9_award`` itself, and by hand."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import pytest

from baccarat.cards import Card, Rank, Suit, parse_cards
from baccarat.royal9 import (
    CENT,
    MUST_HIT_CONFIGURATIONS,
    Royal9Options,
    must_hit_advance,
    royal9_award,
    royal9_prize,
)
from baccarat.royal9_odds import ROYAL_CARDS, must_hit_award, royal9_edges, royal_index

METERS = {"star": Decimal("61234.56"), "spade": Decimal("812.05"), "heart": Decimal("450.00")}
OTHER = Card(Rank.TWO, Suit.CLUBS)


def combo(text: str) -> tuple[Card, Card]:
    a, b = parse_cards(text.split())
    return a, b


# Chair 1: K♣ 9♦, chair 2: K♥ 9♠, chair 3: Q♦ 9♣, chair 4: J♠ 9♥.
OPTIONS = Royal9Options(
    personal_combinations=(combo("KC 9D"), combo("KH 9S"), combo("QD 9C"), combo("JS 9H"))
)


def by_every_deal(royals: list[int], others: int, options: Royal9Options) -> dict[int, Fraction]:
    """Each chair's edge by dealing every ordered four cards of the shoe (equal cards told apart
    by their multiplicities) and settling each with the engine's award and prize."""
    kinds = [*ROYAL_CARDS, OTHER]
    counts = [*royals, others]
    total = sum(counts)
    deals = total * (total - 1) * (total - 2) * (total - 3)
    wager = Fraction(options.wager)
    net = dict.fromkeys(range(1, len(options.personal_combinations) + 1), Fraction(0))
    for draw in itertools.product(range(len(kinds)), repeat=4):
        left, ways = list(counts), 1
        for k in draw:
            ways *= left[k]
            left[k] -= 1
        if not ways:
            continue
        player = [kinds[draw[0]], kinds[draw[2]]]
        banker = [kinds[draw[1]], kinds[draw[3]]]
        for chair in net:
            award = royal9_award(player, banker, seat=chair, options=options)
            won = -wager if award is None else Fraction(royal9_prize(award, options, METERS))
            net[chair] += ways * won
    return {chair: -value / (deals * wager) for chair, value in net.items()}


@pytest.mark.parametrize(
    ("royals", "others"),
    [
        # two of some cards (a two-deck remnant): a hand's nine may be the other hand's too
        ([2, 1, 1, 2, 1, 2, 1, 0, 2, 1, 1, 1, 0, 2, 1, 1], 5),
        # chair 1's K♣ 9♦ and chair 2's K♥ 9♠ left twice over, little else
        ([0, 2, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0], 3),
        # no nine left: nothing can win
        ([0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 4),
    ],
)
def test_every_chair_matches_every_deal(royals: list[int], others: int) -> None:
    total = sum(royals) + others
    assert royal9_edges(royals, total, OPTIONS, METERS) == by_every_deal(royals, others, OPTIONS)


def test_a_four_card_shoe_by_hand() -> None:
    """Left: 9♠ 9♠ K♥ K♥. Of the 24 orders, 16 give each hand a nine and a King (the Player's
    two from draws 1 and 3: which nine, which King, which first, and the Banker's order): both
    hands are K♥ 9♠, chair 2's Personal King-9 on both, the whole Star meter. The other 8 give
    each hand a pair: the wager loses. Chair 2: (16 x 61,234.56 - 8 x 5) / (24 x 5) won, so its
    edge is that negated; chairs 1, 3 and 4 see Other Personal vs. Identical (4's J♠ 9♥ and 1's
    K♣ 9♦ are not K♥ 9♠, but chair 2's is): $5,000 two times in three."""
    royals = [0] * 16
    royals[royal_index(Card(Rank.NINE, Suit.SPADES)) or 0] = 2
    royals[royal_index(Card(Rank.KING, Suit.HEARTS)) or 0] = 2
    edges = royal9_edges(royals, 4, OPTIONS, METERS)
    assert edges[2] == -(16 * Fraction("61234.56") - 8 * 5) / (24 * 5)
    for chair in (1, 3, 4):
        assert edges[chair] == -(16 * Fraction(5000) - 8 * 5) / (24 * 5)


def test_a_full_shoe_is_the_same_at_every_chair_and_the_houses() -> None:
    edges = royal9_edges([8] * 16, 416, Royal9Options(), METERS)
    assert len(edges) == 14
    assert len(set(edges.values())) == 1
    assert Fraction(1, 10) < edges[1] < Fraction(1, 2)


def test_the_star_meter_moves_only_its_chairs_chance() -> None:
    """A higher Star meter lowers the edge by its chance of Personal vs. Personal times the
    difference, over the wager."""
    royals = [8] * 16
    low = royal9_edges(royals, 416, OPTIONS, METERS)
    high = royal9_edges(royals, 416, OPTIONS, {**METERS, "star": METERS["star"] + 1000})
    chance = Fraction(4 * 8 * 8 * 7 * 7, 416 * 415 * 414 * 413)
    assert low[1] - high[1] == chance * 1000 / 5


def test_fewer_than_four_cards_price_nothing() -> None:
    assert royal9_edges([1] + [0] * 15, 3, OPTIONS, METERS) == {}


@pytest.mark.parametrize(
    ("royals", "total"), [([1] * 15, 30), ([-1] + [0] * 15, 30), ([8] * 16, 100)]
)
def test_impossible_counts_are_refused(royals: list[int], total: int) -> None:
    with pytest.raises(ValueError, match="non-negative counts of nines and pictures"):
        royal9_edges(royals, total, OPTIONS, METERS)


def test_the_must_hit_award_to_a_lone_wager_by_hand() -> None:
    """Configuration 2 ($100 to $500, 5 %): at $499.00 a $5 wager raises the meter 25 cents;
    the hit value lies in the 100 cents from $499.01 to $500.00, so the step holds it 25 times
    in 100, at $499.13 on average."""
    config = MUST_HIT_CONFIGURATIONS[2]
    award = must_hit_award(Decimal("499.00"), config, Decimal(5))
    assert award == Fraction(25, 100) * Fraction("499.13")
    assert must_hit_award(Decimal("499.90"), config, Decimal(5)) == Fraction("499.955")  # sure


def test_the_must_hit_award_matches_every_hit_value() -> None:
    """Against ``must_hit_advance`` itself, over every hit value left."""
    config = MUST_HIT_CONFIGURATIONS[3]
    meter, wagered = Decimal("187.31"), Decimal(5)
    values = [meter + CENT * i for i in range(1, int((config.maximum - meter) / CENT) + 1)]
    won = sum(
        (
            Fraction(paid)
            for h in values
            for paid, hit in [must_hit_advance(meter, wagered, config, h)]
            if hit
        ),
        Fraction(0),
    )
    assert must_hit_award(meter, config, wagered) == won / len(values)


def test_a_must_hit_meter_at_its_maximum_is_refused() -> None:
    with pytest.raises(ValueError, match="reached its maximum"):
        must_hit_award(Decimal("500.00"), MUST_HIT_CONFIGURATIONS[2], Decimal(5))
