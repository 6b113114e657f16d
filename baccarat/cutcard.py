"""The cut card: complete the hand, announce "last hand", one more hand, then reshuffle.

000 §9(e), 002 (h)(5), 004 §10(d). The shoe's rounds are counted from 1; ``cut_card_round`` is the
round during (or before) which the cover card came out.
"""

from __future__ import annotations

import enum


class ShoeCall(enum.Enum):
    """What the dealer says about the shoe after a round."""

    CONTINUE = "continue"
    LAST_HAND = "last_hand"  # the next round is the last of the shoe
    SHOE_OVER = "shoe_over"  # reshuffle, or new decks where the rules demand them


def after_round(round_number: int, cut_card_round: int | None) -> ShoeCall:
    """The call after ``round_number`` completes, given when the cut card appeared."""
    if cut_card_round is None or round_number < cut_card_round:
        return ShoeCall.CONTINUE
    if round_number == cut_card_round:
        return ShoeCall.LAST_HAND
    return ShoeCall.SHOE_OVER


def may_deal_round(round_number: int, cut_card_round: int | None) -> bool:
    """Whether another round may be dealt from this shoe."""
    return cut_card_round is None or round_number <= cut_card_round + 1
