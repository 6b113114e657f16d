"""Refusals at the table: what an action, or a model asked to change one row, says instead.

Most refusals are a dealer's slip, said and forgotten. A few say something surveillance must see
(issue 30, game protection): a card the shoe cannot hold, a wager after "no more bets", a card
when none is due, a wager over the table's maximum or under its minimum, a card code that is no
card at all. Their classes name their ``kind`` (one of ``RefusalKind``); a dealer's command
refused with one is kept (``tablegame.refusals``) and told to surveillance and the pit. Which
refusals matter is said here, by class, never by the words.
"""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from baccarat.errors import RulesError


class RefusalKind(StrEnum):
    """The kinds of refusal kept for surveillance (``TableRefusal.kind``)."""

    CARD_NOT_IN_SHOE = "card_not_in_shoe"
    LATE_WAGER = "late_wager"
    ILLEGAL_DEAL = "illegal_deal"
    OVER_LIMIT = "over_limit"
    UNDER_LIMIT = "under_limit"
    MISTYPED_CARD = "mistyped_card"

    @property
    def label(self) -> str:
        return REFUSAL_LABELS[self]


REFUSAL_LABELS = {
    RefusalKind.CARD_NOT_IN_SHOE: "Card not in the shoe",
    RefusalKind.LATE_WAGER: "Wager after no more bets",
    RefusalKind.ILLEGAL_DEAL: "Card not due",
    RefusalKind.OVER_LIMIT: "Wager over the limit",
    RefusalKind.UNDER_LIMIT: "Wager under the minimum",
    RefusalKind.MISTYPED_CARD: "Card code mistyped",
}


class ActionError(RulesError):
    """An action refused; ``str(error)`` is the message for the screen. Nothing was changed."""

    kind: ClassVar[RefusalKind | None] = None
    """Set on the refusals surveillance must see; None on the rest."""
    where: object = None
    """The table's state in play the command was refused in, when it was read
    (``tablegame.commands.run`` sets it): a refusal kept for surveillance says where."""


class NotAllowed(ActionError):
    """The person may not do this: their role, or a dealer at another table than their own."""


class LateWager(ActionError):
    """A wager made, changed or withdrawn, or the player-dealer's bank changed, after "no more
    bets"."""

    kind = RefusalKind.LATE_WAGER


class IllegalCard(ActionError):
    """A card entered when none is due, or not the one due (the engine's third-card rule, a
    card before "no more bets", a held card skipped)."""

    kind = RefusalKind.ILLEGAL_DEAL


class OverLimit(ActionError):
    """A wager over the table's maximum."""

    kind = RefusalKind.OVER_LIMIT


class UnderLimit(ActionError):
    """A wager under the table's minimum."""

    kind = RefusalKind.UNDER_LIMIT


class MistypedCard(ActionError):
    """A card code that is no card at all (``baccarat.cards.Card.parse`` refused its text). The
    API's input refuses it before the action (``tablegame.api.serializers.CardField``, kept by
    ``tablegame.refusals.mistyped``); an action called otherwise refuses it with this."""

    kind = RefusalKind.MISTYPED_CARD
