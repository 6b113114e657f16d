"""What a completed coup shows: winner, Point Counts, Naturals, Dragon 7, Panda 8 and pairs."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from baccarat.cards import is_natural, is_pair, point_count
from baccarat.drawing import Coup
from baccarat.errors import RulesError


class Hand(enum.Enum):
    """The two hands of every coup (000 §8(a))."""

    PLAYER = "player"
    BANKER = "banker"


class Winner(enum.Enum):
    """Which hand won the round, or a tie hand."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """The result of a completed coup, as the dealer announces it (000 §11(a))."""

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int
    player_pair: bool = False
    banker_pair: bool = False

    @classmethod
    def of(cls, coup: Coup) -> Outcome:
        """Classify a complete coup; refused while a card is still due."""
        if not coup.is_complete:
            raise RulesError("The coup is not complete: " + coup.expected.value.replace("_", " "))
        return cls(
            player_total=point_count(coup.player),
            banker_total=point_count(coup.banker),
            player_cards=len(coup.player),
            banker_cards=len(coup.banker),
            player_pair=is_pair(coup.player),
            banker_pair=is_pair(coup.banker),
        )

    @property
    def winner(self) -> Winner:
        """The hand with the higher Point Count, or a tie."""
        if self.player_total == self.banker_total:
            return Winner.TIE
        return Winner.PLAYER if self.player_total > self.banker_total else Winner.BANKER

    @property
    def player_natural(self) -> bool:
        """The Player's Hand is a Natural: 8 or 9 on its first two cards."""
        return self.player_cards == 2 and self.player_total >= 8

    @property
    def banker_natural(self) -> bool:
        """The Banker's Hand is a Natural."""
        return self.banker_cards == 2 and self.banker_total >= 8

    @property
    def is_dragon7(self) -> bool:
        """Banker wins with a three-card 7 against a Player's Point Count below 7 (000 §1)."""
        return self.banker_cards == 3 and self.banker_total == 7 and self.player_total < 7

    @property
    def is_panda8(self) -> bool:
        """Player wins with a three-card 8 against a Banker's Point Count below 8 (000 §1)."""
        return self.player_cards == 3 and self.player_total == 8 and self.banker_total < 8

    def total(self, hand: Hand) -> int:
        """The final Point Count of ``hand``."""
        return self.player_total if hand is Hand.PLAYER else self.banker_total

    def natural(self, hand: Hand) -> bool:
        """Whether ``hand`` is a Natural."""
        return self.player_natural if hand is Hand.PLAYER else self.banker_natural

    @property
    def tags(self) -> tuple[str, ...]:
        """Notable features, in a fixed order: naturals, Dragon 7, Panda 8, pairs."""
        flags = (
            ("player_natural", self.player_natural),
            ("banker_natural", self.banker_natural),
            ("dragon7", self.is_dragon7),
            ("panda8", self.is_panda8),
            ("player_pair", self.player_pair),
            ("banker_pair", self.banker_pair),
        )
        return tuple(name for name, on in flags if on)

    def announcement(self, *, ez: bool = False) -> str:
        """What the dealer calls (000 §11(a)): the winner, "tie hand", "Dragon 7" or "Panda 8"."""
        if ez and (self.is_dragon7 or self.is_panda8):
            call = "Dragon 7" if self.is_dragon7 else "Panda 8"
            return f"{call}: {self.announcement()}"
        if self.winner is Winner.TIE:
            return f"Tie hand, {self.player_total} to {self.banker_total}"
        if self.winner is Winner.BANKER:
            return f"Banker wins, {self.banker_total} over {self.player_total}"
        return f"Player wins, {self.player_total} over {self.banker_total}"


def first_two_pairs(coup: Coup) -> tuple[bool, bool]:
    """Player pair and Banker pair on the first two cards, known once four cards are out."""
    if len(coup.player) < 2 or len(coup.banker) < 2:
        raise RulesError("The pairs are known only once the first four cards are dealt.")
    return is_pair(coup.player), is_pair(coup.banker)


__all__ = ["Hand", "Outcome", "Winner", "first_two_pairs", "is_natural"]
