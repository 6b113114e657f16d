"""Exact probabilities of a coup's result for a given shoe, by full enumeration (never simulation).

Cards leave the shoe without replacement in dealing order: Player, Banker, Player, Banker, then any
third card to the Player, then any third card to the Banker, as ``baccarat.drawing`` says. Only the
cards' Values matter to the result, so the engine enumerates sequences of Values.

Every probability shares one denominator, ``ff(N, 6) = N (N-1) … (N-5)``: the number of ordered
ways the next six cards can leave a shoe of ``N`` cards. A coup that uses only four or five of them
counts every way the unused cards could follow. A shoe of fewer than six cards is refused, because a
coup may need six cards (``coup_distribution`` raises ``ValueError``).

The fast engine (``coup_distribution``) rests on one identity: the number of ways to deal an
ordered sequence of Values ``v1 … vn`` from value counts ``c`` is ``prod_v ff(c_v, k_v)``, where
``k_v`` is how often ``v`` occurs in the sequence, so it depends only on the sequence's multiset.
Every legal sequence (4, 5 or 6 cards) is enumerated once, lazily, and grouped by (multiset, class)
with a multiplicity. Per shoe, each of the 6,958 multisets that occur gets its weight, padded to
six cards by the ways to deal the unused cards; a class's numerator is the sum of multiplicity times
weight. All of it is int64 arithmetic, exact while ``ff(N, 6) < 2**63`` (every partial sum counts
card sequences, so none exceeds that total); beyond that, about 1,450 cards, the same sums run on
Python integers.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from baccarat.composition import Composition
from baccarat.drawing import banker_draws, player_draws

CLASS_COUNT = 400
COUP_CARDS = 6
_INT64_LIMIT = 2**63
_VALUES = 10


@dataclass(frozen=True, slots=True)
class CoupClass:
    """What a finished coup shows, as far as a wager can tell without looking at suits or ranks."""

    player_total: int
    """The Player's final Point Count, 0-9."""
    banker_total: int
    """The Banker's final Point Count, 0-9."""
    player_cards: int
    """How many cards the Player's Hand holds, 2 or 3."""
    banker_cards: int
    """How many cards the Banker's Hand holds, 2 or 3."""

    def __post_init__(self) -> None:
        if not (0 <= self.player_total <= 9 and 0 <= self.banker_total <= 9):
            raise ValueError("Point Counts run from 0 to 9.")
        if self.player_cards not in (2, 3) or self.banker_cards not in (2, 3):
            raise ValueError("A hand holds two or three cards.")

    @property
    def index(self) -> int:
        """This class's position, 0-399, in ``CoupDistribution.numerators``."""
        pt, bt = self.player_total, self.banker_total
        return ((pt * 10 + bt) * 2 + (self.player_cards - 2)) * 2 + (self.banker_cards - 2)

    @classmethod
    def from_index(cls, index: int) -> CoupClass:
        """The class at ``index`` (0-399); the inverse of ``index``."""
        return coup_class(index)

    @property
    def is_player_win(self) -> bool:
        """The Player's Point Count is higher."""
        return self.player_total > self.banker_total

    @property
    def is_banker_win(self) -> bool:
        """The Banker's Point Count is higher."""
        return self.banker_total > self.player_total

    @property
    def is_tie(self) -> bool:
        """Both Point Counts are equal."""
        return self.player_total == self.banker_total


def _class_index(player_total: int, banker_total: int, player_cards: int, banker_cards: int) -> int:
    return ((player_total * 10 + banker_total) * 2 + (player_cards - 2)) * 2 + (banker_cards - 2)


def coup_class(index: int) -> CoupClass:
    """The ``CoupClass`` stored at ``index`` (0-399) of a distribution."""
    if not 0 <= index < CLASS_COUNT:
        raise ValueError(f"A class index runs from 0 to {CLASS_COUNT - 1}, not {index}.")
    return _ALL_CLASSES[index]


_ALL_CLASSES: tuple[CoupClass, ...] = tuple(
    CoupClass(i // 40, i // 4 % 10, i // 2 % 2 + 2, i % 2 + 2) for i in range(CLASS_COUNT)
)


@dataclass(frozen=True, slots=True)
class CoupDistribution:
    """The exact distribution of a coup's class: P(class i) = numerators[i] / denominator."""

    denominator: int
    """``ff(N, 6)``: ordered ways the next six cards can leave a shoe of N cards."""
    numerators: tuple[int, ...]
    """400 counts, one per ``CoupClass.index``, summing to ``denominator``."""

    def __post_init__(self) -> None:
        if len(self.numerators) != CLASS_COUNT:
            raise ValueError(f"A distribution has {CLASS_COUNT} numerators.")
        if sum(self.numerators) != self.denominator:
            raise ValueError("The numerators of a distribution must sum to its denominator.")

    def probability(self, cls: CoupClass) -> Fraction:
        """The exact probability of one class."""
        return Fraction(self.numerators[cls.index], self.denominator)

    def probability_of(self, predicate: Callable[[CoupClass], bool]) -> Fraction:
        """The exact probability that the coup's class satisfies ``predicate``."""
        hits = sum(
            n for n, cls in zip(self.numerators, _ALL_CLASSES, strict=True) if predicate(cls)
        )
        return Fraction(hits, self.denominator)

    def items(self) -> Iterator[tuple[CoupClass, Fraction]]:
        """Each class that can occur, with its exact probability, in index order."""
        for cls, n in zip(_ALL_CLASSES, self.numerators, strict=True):
            if n:
                yield cls, Fraction(n, self.denominator)

    @property
    def banker_wins(self) -> Fraction:
        """The probability that the Banker's Hand wins."""
        return self.probability_of(lambda c: c.is_banker_win)

    @property
    def player_wins(self) -> Fraction:
        """The probability that the Player's Hand wins."""
        return self.probability_of(lambda c: c.is_player_win)

    @property
    def tie(self) -> Fraction:
        """The probability of a Tie."""
        return self.probability_of(lambda c: c.is_tie)


@dataclass(frozen=True, slots=True)
class PairDistribution:
    """Exact probabilities that the first two cards of a hand are of the same rank.

    The Player's first two cards are the 1st and 3rd dealt, the Banker's the 2nd and 4th. A Ten and
    a King share a Value but are no pair.
    """

    denominator: int
    """``ff(N, 4)``: ordered ways the first four cards can leave a shoe of N cards."""
    player: int
    """Numerator for a Player pair."""
    banker: int
    """Numerator for a Banker pair."""
    both: int
    """Numerator for a pair in both hands at once."""

    @property
    def player_pair(self) -> Fraction:
        """The probability of a Player pair."""
        return Fraction(self.player, self.denominator)

    @property
    def banker_pair(self) -> Fraction:
        """The probability of a Banker pair."""
        return Fraction(self.banker, self.denominator)

    @property
    def both_pairs(self) -> Fraction:
        """The probability that both hands are pairs."""
        return Fraction(self.both, self.denominator)

    @property
    def either_pair(self) -> Fraction:
        """The probability that at least one hand is a pair."""
        return Fraction(self.player + self.banker - self.both, self.denominator)


def falling_factorial(n: int, k: int) -> int:
    """``n (n-1) … (n-k+1)``: ordered ways to take k of n things (0 when k > n >= 0)."""
    result = 1
    for i in range(k):
        result *= n - i
    return result


def pair_distribution(comp: Composition) -> PairDistribution:
    """Exact pair probabilities for the next coup, in closed form over ranks (needs four cards)."""
    total = comp.total
    if total < 4:
        raise ValueError(f"A pair needs four cards in the shoe; {total} remain.")
    pairs = [falling_factorial(c, 2) for c in comp.counts]
    one_hand = sum(pairs) * falling_factorial(total - 2, 2)
    # Both hands: ranks r for the Player and s for the Banker; when r == s four cards of one rank.
    both = sum(pairs) ** 2 - sum(p * p for p in pairs)
    both += sum(falling_factorial(c, 4) for c in comp.counts)
    return PairDistribution(
        denominator=falling_factorial(total, 4), player=one_hand, banker=one_hand, both=both
    )


def _require_coup(comp: Composition) -> int:
    total = comp.total
    if total < COUP_CARDS:
        raise ValueError(f"A coup may need six cards; the shoe holds only {total}.")
    return total


# --- the fast engine ------------------------------------------------------------------------------

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class _Tables:
    """The precomputed grouping of every legal sequence of Values."""

    slot_values: IntArray
    """(multisets, 6): each multiset's Values sorted, padded with the pseudo-Value 10 (any card)."""
    slot_offsets: IntArray
    """(multisets, 6): how many earlier slots hold the same Value (for a pad: its slot number)."""
    term_multiset: IntArray
    """(terms,): the multiset of each (class, multiset) group, groups sorted by class."""
    term_multiplicity: IntArray
    """(terms,): how many orderings of the multiset are legal coups of that class."""
    class_starts: IntArray
    """Where each present class's run of terms starts."""
    classes: IntArray
    """The class index of each run."""


def _legal_sequences() -> tuple[IntArray, IntArray]:
    """Every legal dealing sequence of Values, as (multiset key, class index) arrays.

    A sequence's key is the sum of ``7**v`` over its cards: a multiset of at most six Values.
    """
    pv = np.arange(_VALUES)
    draws_p = np.array([[player_draws(p, b) for b in range(10)] for p in range(10)])
    # banker_rule[b, t, p]: Banker on b draws when Player's third card is t (t == 10: none), on p.
    banker_rule = np.array(
        [
            [[banker_draws(b, t if t < 10 else None, p) for p in range(10)] for t in range(11)]
            for b in range(10)
        ]
    )
    p1, b1, p2, b2 = (a.ravel() for a in np.meshgrid(pv, pv, pv, pv, indexing="ij"))
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    key4 = 7**p1 + 7**b1 + 7**p2 + 7**b2
    player3 = draws_p[pt, bt]
    keys: list[IntArray] = []
    classes: list[IntArray] = []

    def add(key: IntArray, ptot: IntArray, btot: IntArray, pcards: int, bcards: int) -> None:
        keys.append(key.ravel().astype(np.int64))
        index = ((ptot * 10 + btot) * 2 + (pcards - 2)) * 2 + (bcards - 2)
        classes.append(np.broadcast_to(index, key.shape).ravel().astype(np.int64))

    # Player stands: Banker draws or stands on the rule with no Player third card.
    stand = ~player3
    banker3 = banker_rule[bt, 10, pt]
    m = stand & ~banker3
    add(key4[m], pt[m], bt[m], 2, 2)
    m = stand & banker3
    k, p, b = key4[m][:, None], pt[m][:, None], bt[m][:, None]
    add(k + 7 ** pv[None, :], p, (b + pv[None, :]) % 10, 2, 3)
    # Player draws t; Banker then draws or stands on t.
    m = player3
    k, p, b = key4[m][:, None], pt[m][:, None], bt[m][:, None]
    t = pv[None, :]
    banker3 = banker_rule[b, t, p]
    k5, p5 = k + 7**t, (p + t) % 10
    b_b = np.broadcast_to(b, k5.shape)
    add(k5[~banker3], p5[~banker3], b_b[~banker3], 3, 2)
    k5, p5, b5 = k5[banker3][:, None], p5[banker3][:, None], b_b[banker3][:, None]
    add(k5 + 7 ** pv[None, :], p5, (b5 + pv[None, :]) % 10, 3, 3)
    return np.concatenate(keys), np.concatenate(classes)


@functools.cache
def _tables() -> _Tables:
    """Build the grouping once, on first use (a few tens of milliseconds)."""
    keys, classes = _legal_sequences()
    multiset_keys, multiset_of = np.unique(keys, return_inverse=True)
    multisets = len(multiset_keys)
    # Group identical (class, multiset) pairs; np.unique sorts by class first.
    grouped, multiplicity = np.unique(classes * multisets + multiset_of, return_counts=True)
    term_class, term_multiset = np.divmod(grouped, multisets)
    starts = np.flatnonzero(np.diff(term_class, prepend=-1))
    # Decode each multiset into six slots.
    counts = (multiset_keys[:, None] // 7 ** np.arange(_VALUES)[None, :]) % 7
    slot_values = np.full((multisets, COUP_CARDS), _VALUES, dtype=np.int64)
    slot_offsets = np.tile(np.arange(COUP_CARDS, dtype=np.int64), (multisets, 1))
    for row, value_counts in enumerate(counts.tolist()):
        slot = 0
        for value, count in enumerate(value_counts):
            for offset in range(count):
                slot_values[row, slot] = value
                slot_offsets[row, slot] = offset
                slot += 1
    tables = _Tables(
        slot_values=slot_values,
        slot_offsets=slot_offsets,
        term_multiset=term_multiset.astype(np.int64),
        term_multiplicity=multiplicity.astype(np.int64),
        class_starts=starts.astype(np.int64),
        classes=term_class[starts].astype(np.int64),
    )
    for field in dataclasses.fields(tables):
        getattr(tables, field.name).flags.writeable = False  # shared by every caller via the cache
    return tables


def prepare() -> None:
    """Build the engine's tables now (a few tens of milliseconds) rather than on first use."""
    _tables()


def coup_distribution(comp: Composition) -> CoupDistribution:
    """The exact distribution of the next coup's class from this shoe (at least six cards)."""
    total = _require_coup(comp)
    tables = _tables()
    denominator = falling_factorial(total, COUP_CARDS)
    # Count of each Value, then the pseudo-Value 10 ("any card") counting the whole shoe, so that a
    # short multiset's padding slots multiply in (N-4)(N-5) or (N-5): the unused cards.
    extended = [*comp.value_counts(), total]
    if denominator < _INT64_LIMIT:
        factors = np.array(extended, dtype=np.int64)[tables.slot_values] - tables.slot_offsets
        weights = factors.prod(axis=1)
        terms = weights[tables.term_multiset] * tables.term_multiplicity
        sums = np.add.reduceat(terms, tables.class_starts)
        numerators = np.zeros(CLASS_COUNT, dtype=np.int64)
        numerators[tables.classes] = sums
        return CoupDistribution(denominator, tuple(numerators.tolist()))
    return CoupDistribution(denominator, _python_numerators(extended, tables))


def _python_numerators(extended: list[int], tables: _Tables) -> tuple[int, ...]:
    """The same sums as the int64 path, in Python integers: exact for a shoe of any size."""
    weights = [
        math.prod(extended[v] - o for v, o in zip(values, offsets, strict=True))
        for values, offsets in zip(
            tables.slot_values.tolist(), tables.slot_offsets.tolist(), strict=True
        )
    ]
    run_lengths = np.diff(tables.class_starts, append=len(tables.term_multiset))
    term_class = np.repeat(tables.classes, run_lengths)
    numerators = [0] * CLASS_COUNT
    for cls, ms, mult in zip(
        term_class.tolist(),
        tables.term_multiset.tolist(),
        tables.term_multiplicity.tolist(),
        strict=True,
    ):
        numerators[cls] += weights[ms] * mult
    return tuple(numerators)


# --- the reference --------------------------------------------------------------------------------


def reference_coup_distribution(comp: Composition) -> CoupDistribution:
    """A plain, slow enumeration of every dealing order by Value, for tests to check against."""
    total = _require_coup(comp)
    counts = list(comp.value_counts())
    numerators = [0] * CLASS_COUNT

    def draw() -> Iterator[tuple[int, int]]:
        """Each Value that can come next with its number of cards, taken out while in use."""
        for value in range(_VALUES):
            ways = counts[value]
            if ways:
                counts[value] -= 1
                yield value, ways
                counts[value] += 1

    for p1, w1 in draw():
        for b1, w2 in draw():
            for p2, w3 in draw():
                for b2, w4 in draw():
                    ways = w1 * w2 * w3 * w4
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if player_draws(pt, bt):
                        for p3, w5 in draw():
                            if banker_draws(bt, p3, pt):
                                for b3, w6 in draw():
                                    index = _class_index((pt + p3) % 10, (bt + b3) % 10, 3, 3)
                                    numerators[index] += ways * w5 * w6
                            else:
                                index = _class_index((pt + p3) % 10, bt, 3, 2)
                                numerators[index] += ways * w5 * (total - 5)
                    elif banker_draws(bt, None, pt):
                        for b3, w6 in draw():
                            index = _class_index(pt, (bt + b3) % 10, 2, 3)
                            numerators[index] += ways * w6 * (total - 5)
                    else:
                        index = _class_index(pt, bt, 2, 2)
                        numerators[index] += ways * (total - 4) * (total - 5)
    return CoupDistribution(falling_factorial(total, COUP_CARDS), tuple(numerators))
