"""The cards physically in a shoe, as the dealer holds them: what the tablet may be told.

The table knows only how many of each card it has not seen (``Shoe.remaining``) and how many
were burned face down; the dealer holds the cards themselves, in order. The test keeps both: the
physical cards, shuffled from whole decks (so every card it deals is one the shoe holds), and
the count the table should show, which it checks against the table's after every command.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from baccarat.cards import Card, burn_count, full_deck

#: Every card code, in the order of a deck spread for inspection.
CODES = tuple(str(card) for card in full_deck())


@dataclass
class PhysicalShoe:
    """The cards in the shoe, top first, and what the table's count should say is left."""

    cards: list[str]
    counted: Counter[str]
    """Cards not seen yet, by code: the table's ``Shoe.remaining``."""
    cover: int | None
    """Cards behind the cut card while it is in the shoe; None once it came out."""
    held: str | None = None
    """A card drawn in error, kept face down: the next hand's first card."""

    @classmethod
    def shuffled(cls, decks: int, rng: random.Random, *, cover: int) -> tuple[str, PhysicalShoe]:
        """Whole decks shuffled; returns the first card, to expose at the burn, and the shoe
        left once it and as many cards as its face value are burned."""
        stack = [code for _ in range(decks) for code in CODES]
        rng.shuffle(stack)
        first = stack[0]
        counted = Counter(stack)
        counted[first] -= 1
        left = stack[1 + burn_count(Card.parse(first)) :]
        return first, cls(left, counted, cover=min(cover, len(left)))

    @classmethod
    def resumed(
        cls, remaining: Mapping[str, int], cards_left: int, rng: random.Random, *, cover: int
    ) -> PhysicalShoe:
        """A shoe in play found at the table: its physical cards drawn from those unseen (the
        cards burned face down are among them, unknown)."""
        unseen = [code for code, n in sorted(remaining.items()) for _ in range(n)]
        cards = rng.sample(unseen, cards_left)
        return cls(cards, Counter(remaining), cover=min(cover, len(cards)))

    @property
    def cut_card_due(self) -> bool:
        """The cut card shows: the next card lies behind it."""
        return self.cover is not None and len(self.cards) <= self.cover

    def take(self, index: int = 0) -> str:
        """Draw the card at ``index`` from the top (any card of the shoe is a legal deal: the
        shoe could have been shuffled so), and count it seen."""
        code = self.cards.pop(index)
        self.counted[code] -= 1
        return code

    def burn_unseen(self, n: int) -> None:
        """Cards discarded after an irregularity: they leave the shoe, but the table counts
        them as burned, not seen."""
        del self.cards[:n]

    def left(self, code: str) -> int:
        return self.counted[code]
