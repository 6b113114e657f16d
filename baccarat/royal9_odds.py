"""The exact house edge of the Royal 9 wager at each chair, for the cards left (004 §13(i)).

The wager is decided by the first two cards of each hand, so only sixteen cards matter by suit:
the four nines and the twelve pictures (``ROYAL_CARDS``); every other card counts only toward
the shoe's total. The Player's hand is the first and third cards, the Banker's the second and
fourth; as the cards are exchangeable, the chance that the Player holds the nine and picture
``c`` and the Banker ``d`` is the number of ordered ways to deal them, over N(N-1)(N-2)(N-3):
``4·n(c9)·n(cP)·(n(d9)-[d9=c9])·(n(dP)-[dP=cP])``. Summed in closed form, each chair's award
chances need a few sums over the 48 nine-and-picture hands, never the 2,304 pairs of them.

Each award pays its prize on top of the stake returned (``baccarat.settlement``); the three
personal awards pay their meter in full: the meters are given, as the sign shows them. A chair's
edge is the expectation of the wager negated, as a fraction of it: below zero, the player's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from baccarat.cards import Card, Rank, Suit
from baccarat.royal9 import CENT, MustHit, Royal9Award, Royal9Options, royal9_prize

#: The cards whose suit decides a Royal 9: the nines, then the Jacks, Queens and Kings, by suit.
ROYAL_CARDS: tuple[Card, ...] = tuple(
    Card(rank, suit) for rank in (Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING) for suit in Suit
)
_INDEX = {card: i for i, card in enumerate(ROYAL_CARDS)}
_NINES = range(4)
_PICTURES = range(4, 16)
#: Every Royal 9 hand as (nine, picture) indices into ``ROYAL_CARDS``.
_HANDS = tuple((n, p) for n in _NINES for p in _PICTURES)


def royal_index(card: Card) -> int | None:
    """Where ``card`` is counted in ``ROYAL_CARDS`` (None: it counts only toward the total)."""
    return _INDEX.get(card)


def _suited(hand: tuple[int, int]) -> bool:
    return ROYAL_CARDS[hand[0]].suit == ROYAL_CARDS[hand[1]].suit


def _hand_of(combination: frozenset[Card]) -> tuple[int, int]:
    nine, picture = sorted(combination, key=lambda c: c.rank)
    return _INDEX[nine], _INDEX[picture]


def royal9_edges(
    royals: Sequence[int],
    total: int,
    options: Royal9Options,
    meters: Mapping[str, Decimal],
) -> dict[int, Fraction]:
    """The house edge of the Royal 9 wager at each chair that has a Personal King-9 combination,
    for a shoe of ``total`` cards of which ``royals[i]`` are ``ROYAL_CARDS[i]``. None is priced
    (an empty answer) when fewer than four cards remain: no round can be dealt."""
    if len(royals) != len(ROYAL_CARDS) or any(n < 0 for n in royals) or sum(royals) > total:
        raise ValueError(
            f"{len(ROYAL_CARDS)} non-negative counts of nines and pictures by suit, at most the "
            f"shoe's {total} cards, are needed; got {list(royals)}."
        )
    if total < 4:
        return {}
    n = royals
    nines, pictures = sum(n[i] for i in _NINES), sum(n[i] for i in _PICTURES)
    others_royal = 2 * (nines - 1) * (pictures - 1)  # the other hand a Royal 9, given one is
    rest = (total - 2) * (total - 3)

    def single(hand: tuple[int, int]) -> int:
        """Ordered deals: one hand is ``hand``, the other no Royal 9 (either hand, each)."""
        return 2 * n[hand[0]] * n[hand[1]] * (rest - others_royal)

    def both(hand: tuple[int, int]) -> int:
        """Ordered deals: both hands exactly ``hand``."""
        return 4 * n[hand[0]] * n[hand[1]] * (n[hand[0]] - 1) * (n[hand[1]] - 1)

    def row(hand: tuple[int, int]) -> int:
        """Ordered deals: the Player holds ``hand`` and the Banker any Royal 9."""
        return 4 * n[hand[0]] * n[hand[1]] * (nines - 1) * (pictures - 1)

    both_royal = 4 * nines * pictures * (nines - 1) * (pictures - 1)
    suited = [h for h in _HANDS if _suited(h)]
    both_suited = sum(
        4 * n[c[0]] * n[c[1]] * (n[d[0]] - (c[0] == d[0])) * (n[d[1]] - (c[1] == d[1]))
        for c in suited
        for d in suited
    )
    any_suited = 2 * sum(single(h) for h in suited)
    any_unsuited = 2 * sum(single(h) for h in _HANDS if not _suited(h))
    personal = [_hand_of(frozenset(c)) for c in options.personal_combinations]
    identical = sum(both(h) for h in personal)

    deals = total * (total - 1) * (total - 2) * (total - 3)
    # In cents, as whole numbers: one fraction a chair, at the end.
    wager = _cents(options.wager)
    prizes = {award: _cents(royal9_prize(award, options, meters)) for award in Royal9Award}
    edges: dict[int, Fraction] = {}
    for chair, mine in enumerate(personal, start=1):
        either_mine = 2 * row(mine) - both(mine)
        ways = {
            Royal9Award.PERSONAL_VS_PERSONAL: both(mine),
            Royal9Award.BANKER_PERSONAL: row(mine) - both(mine) + single(mine),
            Royal9Award.PLAYER_PERSONAL: row(mine) - both(mine) + single(mine),
            Royal9Award.OTHER_PERSONAL_VS_IDENTICAL: identical - both(mine),
            Royal9Award.SUITED_VS_SUITED: both_suited,
            Royal9Award.ROYAL_VS_ROYAL: both_royal
            - both_suited
            - either_mine
            - (identical - both(mine)),
            Royal9Award.ANY_SUITED: any_suited,
            Royal9Award.ANY: any_unsuited - 2 * single(mine),
        }
        won = sum(count * prizes[award] for award, count in ways.items())
        lost = (deals - sum(ways.values())) * wager
        edges[chair] = Fraction(lost - won, deals * wager)
    return edges


def _cents(amount: Decimal) -> int:
    cents = amount / CENT
    if cents != cents.to_integral_value():
        raise ValueError(f"{amount} is not a whole number of cents.")
    return int(cents)


def must_hit_award(meter: Decimal, config: MustHit, wagered: Decimal) -> Fraction:
    """What a lone Royal 9 wager of ``wagered`` can expect of the must-hit meter (004 §13(j)):
    its hit value, hidden, is drawn uniformly to the cent in (reset, maximum]
    (``must_hit_point``); the meter at ``meter`` has not hit, so to the player it lies anywhere
    in (meter, maximum]. The wager raises the meter by its share (``must_hit_advance``), and the
    meter hits if the value lies in that step; a lone participant is the winner. With more
    participants each wager's share of the step and of the award is about the same."""
    cents = int((config.maximum - meter) / CENT)
    if cents <= 0:
        raise ValueError(
            f"A must-hit meter at {meter} has reached its maximum {config.maximum} without "
            "hitting: no hit value is left to draw."
        )
    step = min(int((wagered * config.increment_rate).quantize(CENT) / CENT), cents)
    # The hit values in the step: meter + 1 cent, ..., meter + step cents, each 1 in ``cents``.
    total = step * Fraction(meter) + Fraction(step * (step + 1), 2) * Fraction(CENT)
    return total / cents
