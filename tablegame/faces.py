"""Cards, wagers and times as the pages show them: the small values the round review
(``tablegame.review``) and the surveillance wall share, kept below both."""

from __future__ import annotations

import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass

from baccarat.cards import Card as EngineCard
from baccarat.cards import CardError, parse_cards, point_count
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from casino.models import Casino
from tablegame.events import HANDS, SUITS

# The labels are the engine's (one definition each); these map the stored words to them.
STEP_ACTIONS = {a.value: a.label for a in Action}


@dataclass(frozen=True)
class CardFace:
    """A card as drawn on the screen."""

    code: str
    """As stored: ``TD``, ``7H``."""
    label: str
    """Rank and suit symbol: ``10♦``."""
    red: bool
    """Hearts and diamonds."""
    position: int = 0
    """Order drawn within the round, from 1 (0 when unknown)."""
    hand: str = ""
    """``player``, ``banker``, ``discard`` or ``next_hand``."""

    @property
    def hand_label(self) -> str:
        return HANDS.get(self.hand, self.hand)


def card_face(code: str, *, position: int = 0, hand: str = "") -> CardFace:
    """The card ``code`` as a face for the screen; an unreadable code is shown as it is."""
    try:
        card = EngineCard.parse(code)
    except CardError:
        return CardFace(code, code, False, position, hand)
    rank = "10" if card.rank.symbol == "T" else card.rank.symbol
    suit = card.suit.value
    return CardFace(str(card), rank + SUITS[suit], suit in "HD", position, hand)


def hand_total(codes: Sequence[str]) -> int | None:
    """The Point Count of a hand, or None for no cards (or a card that cannot be read)."""
    if not codes:
        return None
    try:
        return point_count(parse_cards(list(codes)))
    except CardError:
        return None


def wager_label(kind: str | None) -> str:
    """The name of a wager as on the layout."""
    if not kind:
        return ""
    try:
        return WagerType(kind).label
    except ValueError:
        return kind


def casino_zone(casino: Casino | None) -> zoneinfo.ZoneInfo:
    """The casino's time zone (UTC if it names none that exists)."""
    try:
        return zoneinfo.ZoneInfo(casino.time_zone if casino else "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")
