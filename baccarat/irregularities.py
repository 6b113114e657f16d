"""What the rules say to do with a card dealt in error (000 §13, 002 (k), 004 §15).

Each function takes the coup as it stood when the error happened and returns a ``Remedy``: where
the card goes and what the dealer does next. The dealer's tablet shows ``Remedy.instruction``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from baccarat.cards import Card, is_natural, point_count
from baccarat.drawing import Coup, Expect, banker_draws
from baccarat.profiles import DisclosedCard, DisclosedUnauthorizedThird, RulesSubmission


class IrregularityKind(enum.Enum):
    """What went wrong with a card, as the dealer reports it."""

    CARD_DRAWN_IN_ERROR = "card_drawn_in_error"  # 000 §13(a), (d); 002 (k)(2)-(3)
    UNAUTHORIZED_PLAYER_THIRD = "unauthorized_player_third"  # 000 §13(b)-(c); 002 (k)(1)
    CARD_FACE_UP = "card_face_up"  # found face up in the shoe: 000 §13(d); 002 (k)(3)

    @property
    def label(self) -> str:
        """The irregularity in words, to be read within a sentence."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    IrregularityKind.CARD_DRAWN_IN_ERROR: "card drawn in error",
    IrregularityKind.UNAUTHORIZED_PLAYER_THIRD: "unauthorized Player third card",
    IrregularityKind.CARD_FACE_UP: "card found face up",
}


class Disposition(enum.Enum):
    """Where a card dealt in error ends up."""

    BANKER_THIRD = "banker_third"
    NEXT_HAND_FIRST = "next_hand_first"
    BURN_WITH_ONE_MORE = "burn_with_one_more"
    BURN_BY_VALUE = "burn_by_value"
    SIMULATED_ROUND = "simulated_round"

    @property
    def label(self) -> str:
        """Where the card went, as a clause: "it becomes the Banker's third card"."""
        return _DISPOSITION_LABELS[self]


_DISPOSITION_LABELS = {
    Disposition.BANKER_THIRD: "it becomes the Banker's third card",
    Disposition.NEXT_HAND_FIRST: "it is held as the first card of the next hand",
    Disposition.BURN_WITH_ONE_MORE: "burned with one more card, face down",
    Disposition.BURN_BY_VALUE: "burned with as many cards as its value, face up",
    Disposition.SIMULATED_ROUND: "it starts a simulated round without wagers",
}


@dataclass(frozen=True, slots=True)
class Remedy:
    """What the dealer does with the card, and how many more cards go to the discard rack."""

    disposition: Disposition
    extra_burn: int = 0
    instruction: str = ""


def card_drawn_in_error(card: Card, *, disclosed: bool, rules: RulesSubmission) -> Remedy:
    """A card drawn from the shoe in error (000 §13(a), (d); 002 (k)(2)-(3))."""
    if not disclosed:
        return Remedy(
            Disposition.NEXT_HAND_FIRST,
            instruction=f"Keep the {card.face} face down: it is the first card of the next hand.",
        )
    return _disclosed(card, rules)


def card_found_face_up(card: Card, *, rules: RulesSubmission) -> Remedy:
    """A card found face up in the shoe (000 §13(d), 002 (k)(3))."""
    return _disclosed(card, rules)


def _disclosed(card: Card, rules: RulesSubmission) -> Remedy:
    if rules.disclosed_card is DisclosedCard.BURN_BY_VALUE:
        n = card.rank.face_value
        return Remedy(
            Disposition.BURN_BY_VALUE,
            extra_burn=n,
            instruction=f"Discard the {card.face} and {n} more cards drawn face up.",
        )
    return Remedy(
        Disposition.SIMULATED_ROUND,
        instruction=f"Deal a simulated round, no wagers, starting with the {card.face}.",
    )


def unauthorized_player_third(
    coup: Coup, card: Card, *, disclosed: bool, rules: RulesSubmission
) -> Remedy:
    """A third card dealt to the Player's Hand when none was due (000 §13(b)-(c), 002 (k)(1))."""
    if coup.dealt != 4 or coup.expected is Expect.PLAYER_THIRD:
        raise ValueError("Only a Player third card dealt when none was due is this irregularity.")
    if _banker_must_draw(coup):
        return Remedy(
            Disposition.BANKER_THIRD,
            instruction=f"The {card.face} becomes the Banker's third card.",
        )
    if not disclosed:
        return Remedy(
            Disposition.NEXT_HAND_FIRST,
            instruction=f"Banker stands: the {card.face} is the first card of the next hand.",
        )
    match rules.disclosed_unauthorized_third:
        case DisclosedUnauthorizedThird.BURN_WITH_ONE_MORE:
            return Remedy(
                Disposition.BURN_WITH_ONE_MORE,
                extra_burn=1,
                instruction=f"Banker stands: discard the {card.face} and one more card face down.",
            )
        case DisclosedUnauthorizedThird.BURN_BY_VALUE:
            n = card.rank.face_value
            return Remedy(
                Disposition.BURN_BY_VALUE,
                extra_burn=n,
                instruction=f"Banker stands: discard the {card.face} and {n} more cards face up.",
            )
        case DisclosedUnauthorizedThird.SIMULATED_ROUND:
            return Remedy(
                Disposition.SIMULATED_ROUND,
                instruction=f"Banker stands: deal a simulated round starting with the {card.face}.",
            )


def _banker_must_draw(coup: Coup) -> bool:
    """Whether the Banker's Hand draws, the Player having had no third card due."""
    if is_natural(coup.player[:2]) or is_natural(coup.banker[:2]):
        return False
    return banker_draws(point_count(coup.banker[:2]), None, point_count(coup.player[:2]))


def enough_cards(cards_left: int) -> bool:
    """Whether a round can surely be completed; otherwise it is void (000 §13(e))."""
    return cards_left >= 6
