"""Exact game math for a table: the probability of each outcome and the house edge of each wager.

Built on the exact enumeration of ``baccarat.enumeration`` and on ``baccarat.wagers.odds``, the same
function settlement uses, so the math and the money can never disagree. House edges are fractions
of the initial wager; a wager that pushes counts as a hand played (the texts' "tie and be
returned").
Commission is taken exactly, before any rounding to 25¢ or 5¢.

Royal 9 is priced apart, per chair and with its meters (``baccarat.royal9_odds``): its awards
hang on suits and on the chair's Personal King-9 combination.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from baccarat.composition import Composition
from baccarat.enumeration import (
    CLASS_COUNT,
    CoupDistribution,
    PairDistribution,
    coup_class,
    coup_distribution,
    pair_distribution,
)
from baccarat.outcome import Outcome, Winner
from baccarat.profiles import RulesSubmission
from baccarat.wagers import house_money, odds
from baccarat.wagertypes import WagerType

_PAIR_WAGERS = (WagerType.PLAYER_PAIR, WagerType.BANKER_PAIR, WagerType.HOUSE_MONEY)


@dataclass(frozen=True, slots=True)
class Analysis:
    """Exact probabilities of outcomes and house edges of wagers for one shoe composition."""

    probabilities: dict[str, Fraction]
    house_edge: dict[str, Fraction]


def analyse(comp: Composition, rules: RulesSubmission) -> Analysis:
    """Probabilities and house edges of every wager ``rules`` offers, for the next coup."""
    coups = coup_distribution(comp)
    pairs = pair_distribution(comp)
    edges: dict[str, Fraction] = {}
    for wager in sorted(rules.wagers, key=list(WagerType).index):
        if wager is WagerType.ROYAL9:
            continue
        if wager in _PAIR_WAGERS:
            edges[wager.value] = -_pair_expectation(wager, pairs, rules.pair_odds)
        else:
            edges[wager.value] = -_expectation(coups, _net_vector(wager, rules))
    return Analysis(_probabilities(coups, pairs), edges)


def _probabilities(coups: CoupDistribution, pairs: PairDistribution) -> dict[str, Fraction]:
    """Named outcome probabilities, from the same class vectors the edges use."""
    out = {
        name: Fraction(_dot(coups.numerators, vector), coups.denominator)
        for name, vector in _named_indicators().items()
    }
    out |= {
        "player_pair": pairs.player_pair,
        "banker_pair": pairs.banker_pair,
        "both_pairs": pairs.both_pairs,
        "either_pair": pairs.either_pair,
    }
    return out


@functools.cache
def _named_indicators() -> dict[str, tuple[int, ...]]:
    tests: dict[str, Callable[[Outcome], bool]] = {
        "banker": lambda o: o.winner is Winner.BANKER,
        "player": lambda o: o.winner is Winner.PLAYER,
        "tie": lambda o: o.winner is Winner.TIE,
        "dragon7": lambda o: o.is_dragon7,
        "panda8": lambda o: o.is_panda8,
        "player_natural": lambda o: o.player_natural,
        "banker_natural": lambda o: o.banker_natural,
        "banker_wins_on_6": lambda o: o.winner is Winner.BANKER and o.banker_total == 6,
    }
    return {name: tuple(int(test(o)) for o in _outcomes()) for name, test in tests.items()}


def _key(rules: RulesSubmission) -> tuple[object, ...]:
    """The options that a class-decided wager's odds depend on."""
    return (
        rules.commission,
        rules.commission_rate,
        rules.tie_commission_rate,
        rules.tie_odds,
        rules.dragon_bonus_paytable,
    )


_NET_VECTORS: dict[tuple[object, ...], tuple[tuple[int, ...], int]] = {}


def _net_vector(wager: WagerType, rules: RulesSubmission) -> tuple[tuple[int, ...], int]:
    """Per coup class, the wager's net return as integers over one common denominator (cached)."""
    key = (wager, *_key(rules))
    if key not in _NET_VECTORS:
        _NET_VECTORS[key] = _over_common_denominator(odds(wager, o, rules).net for o in _outcomes())
    return _NET_VECTORS[key]


@functools.cache
def _outcomes() -> tuple[Outcome, ...]:
    """A representative Outcome per coup class, in class-index order."""
    return tuple(
        Outcome(
            player_total=c.player_total,
            banker_total=c.banker_total,
            player_cards=c.player_cards,
            banker_cards=c.banker_cards,
        )
        for c in map(coup_class, range(CLASS_COUNT))
    )


def _over_common_denominator(values: Iterable[Fraction]) -> tuple[tuple[int, ...], int]:
    fractions = list(values)
    den = math.lcm(*(v.denominator for v in fractions))
    return tuple(int(v * den) for v in fractions), den


def _dot(a: Iterable[int], b: Iterable[int]) -> int:
    return sum(x * y for x, y in zip(a, b, strict=True) if x and y)


def _expectation(coups: CoupDistribution, net: tuple[tuple[int, ...], int]) -> Fraction:
    vector, den = net
    return Fraction(_dot(coups.numerators, vector), coups.denominator * den)


def _pair_expectation(wager: WagerType, pairs: PairDistribution, pair_odds: int) -> Fraction:
    """Pair wagers are decided on the first two cards of each hand, by rank."""
    p_only = pairs.player_pair - pairs.both_pairs
    b_only = pairs.banker_pair - pairs.both_pairs
    none = 1 - pairs.either_pair
    if wager is WagerType.HOUSE_MONEY:
        cases = ((True, True, pairs.both_pairs), (True, False, p_only), (False, True, b_only))
        gain = sum(house_money(p, b).net * prob for p, b, prob in cases)
        return gain - none
    hit = pairs.player_pair if wager is WagerType.PLAYER_PAIR else pairs.banker_pair
    return hit * pair_odds - (1 - hit)


def analysis_json(analysis: Analysis, *, exact: bool = False) -> dict[str, dict[str, object]]:
    """Plain JSON data: floats, or exact fractions as ``"p/q"`` strings when ``exact``."""

    def show(x: Fraction) -> object:
        return f"{x.numerator}/{x.denominator}" if exact else float(x)

    return {
        "probabilities": {k: show(v) for k, v in analysis.probabilities.items()},
        "house_edge": {k: show(v) for k, v in analysis.house_edge.items()},
    }
