"""The third-card rule and the dealing order of a coup (000 §8-10, 002 (g)-(i), 001, 003).

The four initial cards go Player, Banker, Player, Banker; then any third card to the Player's Hand,
then any third card to the Banker's Hand (000 §8(c), §9(c)). A coup is therefore fully described by
its cards in dealing order, and the rule says at every point which card, if any, comes next.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from baccarat.cards import Card, is_natural, point_count
from baccarat.errors import RulesError


class IllegalDeal(RulesError):
    """A card the rules do not allow at this point of the coup."""


def player_draws(player_total: int, banker_total: int) -> bool:
    """Whether the Player's Hand draws on these two-card Point Counts (000 §10(a)-(b))."""
    if player_total >= 8 or banker_total >= 8:
        return False
    return player_total <= 5


def banker_draws(banker_total: int, player_third_value: int | None, player_total: int = 0) -> bool:
    """Whether the Banker's Hand takes a third card (000 §10(c), Table 1; 002 Table 2).

    ``player_third_value`` is the Value of the Player's third card, or None when the Player stood.
    ``player_total`` is the Player's two-card Point Count, needed only to see a Player Natural.
    """
    if banker_total >= 8 or player_total >= 8:
        return False
    if player_third_value is None:
        return banker_total <= 5
    return player_third_value in _BANKER_DRAWS_ON[banker_total]


# Banker's two-card Point Count -> the Values of the Player's third card on which Banker draws.
_BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    0: frozenset(range(10)),
    1: frozenset(range(10)),
    2: frozenset(range(10)),
    3: frozenset(range(10)) - {8},
    4: frozenset(range(2, 8)),
    5: frozenset(range(4, 8)),
    6: frozenset({6, 7}),
    7: frozenset(),
}


class Expect(enum.Enum):
    """What the dealer deals next."""

    PLAYER_FIRST = "player_first"
    BANKER_FIRST = "banker_first"
    PLAYER_SECOND = "player_second"
    BANKER_SECOND = "banker_second"
    PLAYER_THIRD = "player_third"
    BANKER_THIRD = "banker_third"
    NONE = "none"

    @property
    def hand(self) -> str | None:
        """``"player"``, ``"banker"`` or None when the coup is complete."""
        return None if self is Expect.NONE else self.value.split("_")[0]


_INITIAL = (Expect.PLAYER_FIRST, Expect.BANKER_FIRST, Expect.PLAYER_SECOND, Expect.BANKER_SECOND)


@dataclass(frozen=True, slots=True)
class Coup:
    """The cards of one round of play, each hand in the order its cards were dealt."""

    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()

    @property
    def dealt(self) -> int:
        """How many cards have been dealt to the two hands."""
        return len(self.player) + len(self.banker)

    @property
    def expected(self) -> Expect:
        """The card the rules call for next."""
        if self.dealt < 4:
            return _INITIAL[self.dealt]
        p_total, b_total = point_count(self.player[:2]), point_count(self.banker[:2])
        if len(self.player) == 2 and len(self.banker) == 2 and player_draws(p_total, b_total):
            return Expect.PLAYER_THIRD
        if len(self.banker) == 2:
            third = self.player[2].value if len(self.player) == 3 else None
            if banker_draws(b_total, third, p_total):
                return Expect.BANKER_THIRD
        return Expect.NONE

    @property
    def is_complete(self) -> bool:
        """Both hands have every card they are entitled to (000 §11(a))."""
        return self.expected is Expect.NONE

    def deal(self, card: Card) -> Coup:
        """The coup with ``card`` dealt where the rules call for it; refused when no card is due."""
        expected = self.expected
        if expected is Expect.NONE:
            raise IllegalDeal(f"No card is due: {self.why_complete()}.")
        if expected.hand == "player":
            return Coup((*self.player, card), self.banker)
        return Coup(self.player, (*self.banker, card))

    def why_complete(self) -> str:
        """Explain, in the dealer's words, why neither hand takes another card."""
        p_total, b_total = point_count(self.player[:2]), point_count(self.banker[:2])
        if is_natural(self.player[:2]) or is_natural(self.banker[:2]):
            hand = "Player" if is_natural(self.player[:2]) else "Banker"
            total = p_total if hand == "Player" else b_total
            return f"{hand} has a Natural {total}, neither hand draws"
        player_says = (
            f"Player drew a card counting {self.player[2].value}"
            if len(self.player) == 3
            else f"Player stands on {p_total}"
        )
        banker_says = "Banker has drawn" if len(self.banker) == 3 else f"Banker stands on {b_total}"
        return f"{player_says}, {banker_says}"

    @classmethod
    def from_dealing_order(cls, cards: Iterable[Card]) -> Coup:
        """Replay cards given in the order they left the shoe."""
        coup = cls()
        for card in cards:
            coup = coup.deal(card)
        return coup

    @classmethod
    def from_hands(cls, player: Sequence[Card], banker: Sequence[Card]) -> Coup:
        """A complete coup from each hand's cards; refused if the third-card rule was broken."""
        for hand, cards in (("Player", player), ("Banker", banker)):
            if len(cards) < 2:
                raise IllegalDeal(f"The {hand}'s hand needs its two initial cards.")
        coup = cls(tuple(player[:2]), tuple(banker[:2]))
        for hand, extra in (("player", player[2:]), ("banker", banker[2:])):
            for card in extra:
                expected = coup.expected
                if expected.hand != hand:
                    raise IllegalDeal(_refusal(coup, hand))
                coup = coup.deal(card)
            if coup.expected.hand == hand:
                raise IllegalDeal(_missing(coup, hand))
        if not coup.is_complete:
            raise IllegalDeal(_missing(coup, coup.expected.hand or ""))
        return coup


def _refusal(coup: Coup, hand: str) -> str:
    """Why ``hand`` may not take the card it was given."""
    p_total, b_total = point_count(coup.player[:2]), point_count(coup.banker[:2])
    if (hand == "player" and len(coup.player) == 3) or (hand == "banker" and len(coup.banker) == 3):
        return f"The {hand.title()}'s hand already has its third card; no hand takes a fourth."
    if hand == "player":
        if is_natural(coup.banker[:2]) or is_natural(coup.player[:2]):
            return f"A Natural is showing: the Player's hand stands on {p_total}."
        return f"The Player's hand stands on {p_total}: no third card for the Player."
    if is_natural(coup.player[:2]) or is_natural(coup.banker[:2]):
        return f"A Natural is showing: the Banker's hand stands on {b_total}."
    if len(coup.player) == 3:
        return (
            f"The Banker's hand stands on {b_total} when the Player's third card "
            f"counts {coup.player[2].value}."
        )
    return f"The Banker's hand stands on {b_total}."


def _missing(coup: Coup, hand: str) -> str:
    """Why the coup is not complete."""
    if hand == "player":
        return (
            f"The Player's hand must draw on {point_count(coup.player[:2])}: "
            "its third card is missing."
        )
    total = point_count(coup.banker[:2])
    if len(coup.player) == 3:
        return (
            f"The Banker's hand must draw on {total} when the Player's third card "
            f"counts {coup.player[2].value}: its third card is missing."
        )
    return f"The Banker's hand must draw on {total}: its third card is missing."
