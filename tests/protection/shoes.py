"""Seeded eight-deck shoes dealt by the rules engine, each round priced exactly: what a player at
a table would have faced, to test the advantage test on."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from baccarat.cards import Card
from baccarat.composition import CARDS_PER_RANK_PER_DECK, RANKS, Composition
from baccarat.drawing import Coup
from baccarat.gamemath import analyse
from baccarat.profiles import PROFILES
from baccarat.shoe import burn

CODES = [f"{rank}{suit}" for rank in "A23456789TJQK" for suit in "CDHS"]
DECKS = 8


@dataclass(frozen=True)
class PricedRound:
    shoe: int
    round: int
    edges: dict[str, Fraction]


def dealt_shoes(count: int, *, seed: int, profile: str = "ma-mini-ez") -> list[PricedRound]:
    """``count`` shuffled shoes dealt to the cut card (14 to 30 cards from the end), after the
    burn; each round with the exact edges of the wagers for the cards seen before it (the burned
    cards face down stay unseen)."""
    rules = PROFILES[profile]
    rng = random.Random(seed)
    out: list[PricedRound] = []
    for shoe in range(1, count + 1):
        stack = [Card.parse(code) for code in CODES * DECKS]
        rng.shuffle(stack)
        counts = [CARDS_PER_RANK_PER_DECK * DECKS] * RANKS
        first = stack[0]
        counts[first.rank] -= 1
        position = 1 + burn(first)
        stop = len(stack) - rng.randint(14, 30)
        number = 0
        while position < stop:
            number += 1
            edges = analyse(Composition(tuple(counts)), rules).house_edge
            out.append(PricedRound(shoe, number, edges))
            coup = Coup(())
            while not coup.is_complete:
                card = stack[position]
                position += 1
                coup = coup.deal(card)
                counts[card.rank] -= 1
    return out
