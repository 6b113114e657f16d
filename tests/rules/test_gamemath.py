"""Exact game math against published figures and against an independent brute-force count."""

from fractions import Fraction
from itertools import permutations

import pytest

from baccarat.cards import Card, Rank, Suit
from baccarat.composition import Composition
from baccarat.drawing import Coup
from baccarat.gamemath import analyse
from baccarat.outcome import Outcome
from baccarat.profiles import PROFILES, rules_submission
from baccarat.wagers import odds
from baccarat.wagertypes import WagerType

EIGHT_DECKS = Composition.of_decks(8)

# Published house edges for an 8-deck shoe, in percent (Wizard of Odds tables), to 2 decimals.
PUBLISHED_EDGES = [
    ("ma-mini", "banker", 1.06),
    ("ma-mini", "player", 1.24),
    ("ma-mini", "tie", 14.36),
    ("ma-mini", "dragon_bonus_player", 2.65),
    ("ma-mini", "dragon_bonus_banker", 9.37),
    ("ma-mini-ez", "banker", 1.02),
    ("ma-mini-ez", "dragon7", 7.61),
    ("ma-mini-ez", "panda8", 10.19),
    ("s42-mini-4", "banker", 0.60),
    ("s42-mini-nocommission", "banker", 1.46),
    ("mini-pairs", "player_pair", 10.36),
    ("mini-pairs", "banker_pair", 10.36),
]


@pytest.mark.parametrize(("profile", "wager", "percent"), PUBLISHED_EDGES)
def test_eight_deck_house_edges_match_published_figures(profile, wager, percent):
    edge = analyse(EIGHT_DECKS, PROFILES[profile]).house_edge[wager]
    assert round(float(edge) * 100, 2) == percent


def test_eight_deck_outcome_probabilities_match_published_figures():
    p = analyse(EIGHT_DECKS, PROFILES["ma-mini-ez"]).probabilities
    assert round(float(p["banker"]), 6) == 0.458597
    assert round(float(p["player"]), 6) == 0.446247
    assert round(float(p["tie"]), 6) == 0.095156
    assert round(float(p["dragon7"]), 6) == 0.022534
    assert round(float(p["panda8"]), 6) == 0.034543
    assert p["banker"] + p["player"] + p["tie"] == 1


def test_tie_commission_charges_a_quarter_of_the_banker_wager_on_every_tie():
    p = analyse(EIGHT_DECKS, PROFILES["s42-mini"]).probabilities
    edge = analyse(EIGHT_DECKS, PROFILES["s42-mini-tievig"]).house_edge["banker"]
    assert edge == p["player"] - p["banker"] + p["tie"] / 4


def test_higher_tie_odds_lower_the_tie_edge_exactly():
    p = analyse(EIGHT_DECKS, PROFILES["ma-mini"]).probabilities["tie"]
    edge = analyse(EIGHT_DECKS, rules_submission("ma-mini", {"tie_odds": 9})).house_edge["tie"]
    assert edge == 1 - 10 * p


def test_only_the_wagers_a_profile_offers_have_an_edge():
    assert set(analyse(EIGHT_DECKS, PROFILES["s42-mini"]).house_edge) == {"player", "banker", "tie"}
    assert "royal9" not in analyse(EIGHT_DECKS, PROFILES["ma-big"]).house_edge


def _brute_force_edges(
    cards: list[Card], wagers: list[WagerType], profile: str
) -> dict[str, Fraction]:
    """Deal every ordering of a tiny shoe through the real dealing rules and average."""
    rules = PROFILES[profile]
    totals = {w: Fraction(0) for w in wagers}
    orders = list(permutations(cards))
    for order in orders:
        coup = Coup()
        for card in order:
            if coup.is_complete:
                break
            coup = coup.deal(card)
        outcome = Outcome.of(coup)
        for w in wagers:
            totals[w] += odds(w, outcome, rules).net
    return {w.value: -total / len(orders) for w, total in totals.items()}


def test_a_tiny_shoe_agrees_with_dealing_every_ordering_by_hand():
    ranks = [Rank.KING, Rank.SEVEN, Rank.SIX, Rank.TWO, Rank.THREE, Rank.NINE, Rank.ACE]
    cards = [Card(r, Suit.SPADES) for r in ranks]
    comp = Composition(tuple(ranks.count(r) for r in Rank))
    wagers = [WagerType.BANKER, WagerType.PLAYER, WagerType.TIE, WagerType.DRAGON7]
    wagers += [WagerType.PANDA8, WagerType.DRAGON_BONUS_PLAYER, WagerType.DRAGON_BONUS_BANKER]
    expected = _brute_force_edges(cards, wagers, "ma-mini-ez")
    got = analyse(comp, PROFILES["ma-mini-ez"]).house_edge
    assert {k: got[k] for k in expected} == expected


def test_a_shoe_stripped_of_eights_and_nines_turns_dragon_7_to_the_players():
    """The counters' Dragon 7 signal (eights and nines make naturals, which the Dragon never
    is): with every eight and nine of an 8-deck shoe gone, the bet that costs the player 7.61 %
    of a full shoe pays them on average, and the house keeps its edge on Banker and Player."""
    counts = list(EIGHT_DECKS.counts)
    counts[Rank.EIGHT] = counts[Rank.NINE] = 0
    edges = analyse(Composition(tuple(counts)), PROFILES["ma-mini-ez"]).house_edge
    assert edges["dragon7"] < 0
    assert edges["banker"] > 0 and edges["player"] > 0


def test_the_pair_bet_breaks_even_on_eleven_ranks_of_eleven_cards():
    """Worked by hand: the Player's (or Banker's) first two cards are a pair with probability
    11 ranks x 11 x 10 / (121 x 120) = 1210 / 14520 = 1/12; paid 11 to 1, the bet returns
    12 x 1/12 - 1 = 0. Which two ranks are missing does not matter."""
    shoe = Composition((11,) * 11 + (0, 0))
    edges = analyse(shoe, PROFILES["mini-pairs"]).house_edge
    assert edges["player_pair"] == 0
    assert edges["banker_pair"] == 0
