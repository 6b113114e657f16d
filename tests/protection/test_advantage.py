"""A counter who bets Dragon 7 only when it is favourable is flagged; players who bet without
looking at the edge are not (but for the rare false alarm, whose rate is measured here)."""

from __future__ import annotations

import random
from decimal import Decimal
from fractions import Fraction

import pytest

from protection.advantage import ALPHA, FEWEST_THEIRS, Bet, examine
from tests.protection.shoes import PricedRound, dealt_shoes

#: Shoes a session lasts, and sessions.
SHOES_A_SESSION = 4
SESSIONS = 10
#: Players betting at random beside each counter.
RANDOM_PLAYERS = 30


@pytest.fixture(scope="module")
def sessions() -> list[list[PricedRound]]:
    rounds = dealt_shoes(SHOES_A_SESSION * SESSIONS, seed=2026)
    return [[r for r in rounds if (r.shoe - 1) // SHOES_A_SESSION == s] for s in range(SESSIONS)]


def _counter(rounds: list[PricedRound]) -> list[Bet]:
    """$25 on Dragon 7 exactly when its edge is below zero, nothing otherwise."""
    return [
        Bet(
            r.shoe,
            r.round,
            Decimal(25) if r.edges["dragon7"] < 0 else Decimal(0),
            r.edges["dragon7"],
        )
        for r in rounds
    ]


def _random(rounds: list[PricedRound], rng: random.Random) -> list[Bet]:
    """Dragon 7 a quarter of the rounds, $5, $10 or $25, whatever the shoe holds."""
    bets = []
    for r in rounds:
        amount = Decimal(rng.choice((5, 10, 25))) if rng.random() < 0.25 else Decimal(0)
        bets.append(Bet(r.shoe, r.round, amount, r.edges["dragon7"]))
    return bets


def test_a_counter_is_flagged_with_the_rounds_that_show_it(
    sessions: list[list[PricedRound]],
) -> None:
    flagged = 0
    for rounds in sessions:
        finding = examine(_counter(rounds))
        favourable = [(r.shoe, r.round) for r in rounds if r.edges["dragon7"] < 0]
        assert list(finding.theirs) == favourable
        if len(favourable) >= FEWEST_THEIRS:
            assert finding.flagged, finding
            flagged += 1
    assert flagged >= SESSIONS - 1  # a session of four shoes with too few favourable rounds


def test_players_betting_without_the_edge_are_rarely_flagged(
    sessions: list[list[PricedRound]],
) -> None:
    rng = random.Random(7)
    alarms = tried = 0
    for rounds in sessions:
        for _ in range(RANDOM_PLAYERS):
            tried += 1
            alarms += examine(_random(rounds, rng), seed=tried).flagged
    rate = alarms / tried
    print(f"false alarms: {alarms} of {tried} random players ({rate:.2%}; ALPHA {ALPHA:.2%})")
    assert rate <= 2 * ALPHA + 0.005


def test_a_player_who_bets_the_same_every_round_is_not_flagged(
    sessions: list[list[PricedRound]],
) -> None:
    rounds = sessions[0]
    steady = [Bet(r.shoe, r.round, Decimal(10), r.edges["dragon7"]) for r in rounds]
    finding = examine(steady)
    assert not finding.flagged
    assert finding.p_value == 1.0 or finding.average_theirs == finding.average_other


def test_a_full_shoe_is_never_favourable_to_dragon_7(sessions: list[list[PricedRound]]) -> None:
    firsts = [r for rounds in sessions for r in rounds if r.round == 1]
    assert firsts and all(r.edges["dragon7"] > Fraction(4, 100) for r in firsts)
