"""Cards, their values and the Point Count of a hand (000 §6, 002 (a)(2)-(3), 001, 003)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from baccarat.errors import RulesError


class CardError(RulesError):
    """A card that does not exist, described in words a dealer understands."""


class Rank(enum.IntEnum):
    """Ranks in deck order; the integer is the index used by rank-count compositions (Ace first)."""

    ACE = 0
    TWO = 1
    THREE = 2
    FOUR = 3
    FIVE = 4
    SIX = 5
    SEVEN = 6
    EIGHT = 7
    NINE = 8
    TEN = 9
    JACK = 10
    QUEEN = 11
    KING = 12

    @property
    def symbol(self) -> str:
        """The one-character symbol: ``A 2 … 9 T J Q K``."""
        return "A23456789TJQK"[self]

    @property
    def points(self) -> int:
        """The card's Value in the game: 2-9 face value, 10 and pictures 0, ace 1 (000 §6(a))."""
        return self + 1 if self <= Rank.NINE else 0

    @property
    def face_value(self) -> int:
        """Face value for burning: ace 1, 2-9 face, 10 and pictures count ten (000 §5(f))."""
        return min(self + 1, 10)

    @property
    def is_picture(self) -> bool:
        """Jack, Queen or King: the "face card" of a Royal 9 (004 §13(i))."""
        return self >= Rank.JACK


class Suit(enum.Enum):
    """The four suits, by their letter."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"


_RANK_BY_SYMBOL = {r.symbol: r for r in Rank} | {"10": Rank.TEN, "1": Rank.ACE}
_SUIT_BY_SYMBOL = {s.value: s for s in Suit}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card."""

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``AS``, ``TD``, ``10D``, ``kh``: rank symbol then suit letter."""
        cleaned = text.strip().upper()
        rank = _RANK_BY_SYMBOL.get(cleaned[:-1]) if len(cleaned) >= 2 else None
        suit = _SUIT_BY_SYMBOL.get(cleaned[-1:]) if cleaned else None
        if rank is None or suit is None or cleaned[:-1] == "1":
            raise CardError(
                f"'{text}' is not a card: write the rank (A, 2-9, T or 10, J, Q, K) "
                "then the suit (C, D, H, S), for example KH or 10D"
            )
        return cls(rank, suit)

    @property
    def value(self) -> int:
        """The card's Value in the game (000 §6(a))."""
        return self.rank.points

    @property
    def face(self) -> str:
        """As a dealer reads it: ``10♦`` for TD, ``K♠`` for KS."""
        rank = "10" if self.rank is Rank.TEN else self.rank.symbol
        return rank + SUIT_SYMBOLS[self.suit.value]

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.value}"


def parse_cards(texts: Iterable[str]) -> tuple[Card, ...]:
    """Read a list of card codes, refusing the first that is not a card."""
    return tuple(Card.parse(t) for t in texts)


def point_count(cards: Sequence[Card]) -> int:
    """The Point Count: the right digit of the total of the values (000 §6(b))."""
    return sum(c.value for c in cards) % 10


def is_natural(cards: Sequence[Card]) -> bool:
    """A Point Count of 8 or 9 on the first two cards dealt (000 §1)."""
    return len(cards) == 2 and point_count(cards) >= 8


def is_pair(cards: Sequence[Card]) -> bool:
    """The first two cards are of the same rank, regardless of suit (000 §7(a)(7))."""
    return len(cards) >= 2 and cards[0].rank == cards[1].rank


def burn_count(first_card: Card) -> int:
    """Cards to burn after the first card is exposed: its face value (tens and pictures ten)."""
    return first_card.rank.face_value


def full_deck() -> tuple[Card, ...]:
    """One 52-card deck in suit-and-sequence order, as spread for inspection (000 §4(b))."""
    return tuple(Card(r, s) for s in Suit for r in Rank)
