"""Does a player's side bet follow the exact edge? A permutation test, over plain data.

For one player and one side wager, each round they played is a ``Bet``: what they put on that side
wager (nothing counts: zero) and its exact house edge for that round's shoe. A player who bets it
only, or bigger, when it is theirs (the edge below zero) puts their money where the edge is low:
the sum over the rounds of the amount times the edge negated, their expected gain on the side
wager, is higher than it would be if the same amounts had fallen on the same rounds in any other
order. The test counts how many random orders of the amounts do as well (``PERMUTATIONS`` of them,
seeded: the same data always gives the same answer); the fewer, the less chance explains it. A
player is flagged when that share is at most ``ALPHA``, their side bets when the wager was theirs
were bigger on average than the others (they grow, not just happen), and at least ``FEWEST_THEIRS``
of them fell on such rounds: the rounds that show it.

Betting without looking at the edge, a player is flagged about once in 1/``ALPHA`` sessions;
``tests/protection/test_advantage.py`` measures it over seeded shoes, with a counter who bets
Dragon 7 only when it is favourable, and the rate is in ``bench/RESULTS.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

#: Random orders of the amounts the test compares with.
PERMUTATIONS = 4000
#: The share of random orders at or above which the amounts' order is put down to chance.
ALPHA = 0.002
#: Random orders drawn at a time; and how many doing as well as the player's end the test early
#: (a share already far above ``ALPHA``: the player is not flagged whatever the rest would say).
FIRST_LOOK = 250
ENOUGH_AS_GOOD = 25
#: Side bets on rounds the wager was the player's, at least, to flag anyone.
FEWEST_THEIRS = 3


@dataclass(frozen=True, slots=True)
class Bet:
    """One round a player played: the side wager's amount (zero: not bet) and its exact edge."""

    shoe: int
    round: int
    amount: Decimal
    edge: Fraction


@dataclass(frozen=True, slots=True)
class Finding:
    """What the test says of one player's side wager."""

    rounds: int
    """Rounds played."""
    bets: int
    """Rounds with a side bet."""
    theirs: tuple[tuple[int, int], ...]
    """The rounds (shoe, round) the side bet was placed while the wager was the player's."""
    average_theirs: Decimal | None
    """The average side bet on those rounds."""
    average_other: Decimal | None
    """The average side bet on the other rounds it was placed."""
    p_value: float
    """The share of random orders of the amounts with as high an expected gain."""
    flagged: bool


def examine(bets: Sequence[Bet], *, seed: int = 0) -> Finding:
    """Test whether the side bets in ``bets`` follow their exact edge."""
    placed = [b for b in bets if b.amount > 0]
    theirs = [b for b in placed if b.edge < 0]
    other = [b for b in placed if b.edge >= 0]
    average_theirs = _average([b.amount for b in theirs])
    average_other = _average([b.amount for b in other])
    p_value = 1.0 if len(theirs) < FEWEST_THEIRS else _p_value(bets, seed)
    grows = average_other is None or (average_theirs is not None and average_theirs > average_other)
    return Finding(
        rounds=len(bets),
        bets=len(placed),
        theirs=tuple((b.shoe, b.round) for b in theirs),
        average_theirs=average_theirs,
        average_other=average_other,
        p_value=p_value,
        flagged=len(theirs) >= FEWEST_THEIRS and grows and p_value <= ALPHA,
    )


def _p_value(bets: Sequence[Bet], seed: int) -> float:
    """The share of random orders of the amounts whose expected gain is at least the actual's
    (the actual order counted among them: never zero). Orders are drawn ``FIRST_LOOK`` at a
    time; once ``ENOUGH_AS_GOOD`` of them do as well, chance explains the player's bets well
    beyond ``ALPHA`` and the share so far is the answer (most players stop there, after a few
    hundred orders); otherwise all ``PERMUTATIONS`` are drawn."""
    amounts = np.array([float(b.amount) for b in bets])
    gain = np.array([-float(b.edge) for b in bets])
    actual = float(amounts @ gain)
    floor = actual - 1e-9 * max(1.0, abs(actual))
    rng = np.random.default_rng(seed)
    drawn = as_good = 0
    while drawn < PERMUTATIONS:
        size = min(FIRST_LOOK, PERMUTATIONS - drawn)
        shuffled = rng.permuted(np.tile(amounts, (size, 1)), axis=1)
        as_good += int(np.count_nonzero(shuffled @ gain >= floor))
        drawn += size
        if as_good >= ENOUGH_AS_GOOD:
            break
    return (1 + as_good) / (1 + drawn)


def _average(amounts: list[Decimal]) -> Decimal | None:
    if not amounts:
        return None
    return (sum(amounts, Decimal(0)) / len(amounts)).quantize(Decimal("0.01"))
