"""What is left in the shoe: a count of cards for each rank, Ace to King.

Suits never matter to the outcome of a coup or to a pair (same rank, any suit), so a shoe is fully
described, for probability, by thirteen counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from baccarat.cards import Card, Rank

RANKS = 13
CARDS_PER_RANK_PER_DECK = 4
_MOST_DIGITS = 9  # a count of a billion cards is already no shoe
_PLURAL = (
    "Aces", "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens",
    "Eights", "Nines", "Tens", "Jacks", "Queens", "Kings",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Composition:
    """The cards remaining in a shoe, counted by rank."""

    counts: tuple[int, ...]
    """Thirteen non-negative counts in ``Rank`` order: Ace, 2, …, 9, Ten, Jack, Queen, King."""

    def __post_init__(self) -> None:
        counts = tuple(self.counts)
        if len(counts) != RANKS:
            raise ValueError(f"A composition has {RANKS} counts (Ace to King), not {len(counts)}.")
        for plural, count in zip(_PLURAL, counts, strict=True):
            if type(count) is not int:
                raise ValueError(f"The count of {plural} must be an integer, not {count!r}.")
            if count < 0:
                raise ValueError(f"The count of {plural} cannot be negative: {count}.")
        object.__setattr__(self, "counts", counts)

    @classmethod
    def of_decks(cls, decks: int) -> Composition:
        """A full shoe of ``decks`` 52-card decks."""
        if type(decks) is not int or decks < 1:
            raise ValueError(f"A shoe holds a whole, positive number of decks, not {decks!r}.")
        return cls((CARDS_PER_RANK_PER_DECK * decks,) * RANKS)

    @classmethod
    def parse(cls, text: str) -> Composition:
        """Read thirteen comma-separated counts, Ace to King, such as ``"32,32,…,32"``."""
        parts = [part.strip() for part in text.split(",")]
        if len(parts) != RANKS:
            raise ValueError(
                f"Write {RANKS} comma-separated counts, Ace to King (for example "
                f"{','.join(['32'] * RANKS)}); got {len(parts)} in {text!r}."
            )
        counts: list[int] = []
        for plural, part in zip(_PLURAL, parts, strict=True):
            if not (part.isascii() and part.isdecimal()):
                raise ValueError(
                    f"The count of {plural} must be a whole number of cards, not {part!r}."
                )
            if len(part) > _MOST_DIGITS:
                raise ValueError(f"The count of {plural} has {len(part)} digits: no shoe holds it.")
            counts.append(int(part))
        return cls(tuple(counts))

    def __str__(self) -> str:
        return ",".join(str(count) for count in self.counts)

    def check_within(self, decks: int) -> None:
        """Refuse more cards of a rank than ``decks`` decks hold."""
        most = CARDS_PER_RANK_PER_DECK * decks
        for plural, count in zip(_PLURAL, self.counts, strict=True):
            if count > most:
                raise ValueError(f"{decks} decks hold {most} {plural}, not {count}.")

    @property
    def total(self) -> int:
        """How many cards remain."""
        return sum(self.counts)

    def value_counts(self) -> tuple[int, ...]:
        """Ten counts by the cards' Value 0-9; Value 0 gathers the Tens and the pictures."""
        values = [0] * 10
        for rank, count in zip(Rank, self.counts, strict=True):
            values[rank.points] += count
        return tuple(values)

    def without(self, cards: Iterable[Card | Rank]) -> Composition:
        """The composition after ``cards`` (cards or bare ranks) have left the shoe."""
        counts = list(self.counts)
        for card in cards:
            rank = card.rank if isinstance(card, Card) else Rank(card)
            if counts[rank] == 0:
                raise ValueError(f"No {_PLURAL[rank]} are left in the shoe to remove.")
            counts[rank] -= 1
        return Composition(tuple(counts))
