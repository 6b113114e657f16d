"""What is left in a table's shoe, read from its record one event at a time.

A card leaves the count when the record shows it: the first card exposed at the burn
(``burned``), each card dealt (``card_dealt``), a card exposed in error (``irregularity``: the
remedy decides where it goes, but it was seen), and a correction puts the card keyed in error
back and takes the right one (``card_corrected``). Two events name a card already counted: the
card held for the next hand (an irregularity, "next hand first") is dealt again as that hand's
first card, and the first card of a simulated round is the exposed card itself (its round has no
``card_dealt`` for it). Cards burned face down stay in the count: nobody saw them, and a card
unseen changes no expectation.

After the burn, and after a round settles or is voided, the next round can be priced at once
(the wall's alert comes before its wagers); when a round opens, it is priced for good: a
simulated round (000 §13(d)) settles before the round it interrupted, whose later cards the
next round's wagers face too. ``read`` says which round to price; ``ShoeCount.priced`` keeps the
last pricing, so a round opened on the count it was priced on is not priced twice. The count is
checked against the shoe's own (``tests/protection``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from baccarat.cards import Card
from baccarat.composition import CARDS_PER_RANK_PER_DECK, RANKS, Composition
from baccarat.irregularities import Disposition
from baccarat.royal9_odds import ROYAL_CARDS, royal_index
from casino.events import Payload
from tablegame import events


class CountLost(ValueError):
    """The record names a card the count no longer holds: the follower stops pricing the shoe."""


@dataclass(slots=True)
class ShoeCount:
    """The cards of one shoe not yet seen, counted by rank and (the nines and pictures, which
    decide Royal 9) by suit, and a card held for the next hand."""

    shoe: int
    decks: int
    counts: list[int] = field(default_factory=list)
    royals: list[int] | None = None
    """Counts of ``ROYAL_CARDS``; None when the shoe was not counted by suit from its start."""
    held: str = ""
    seen: int = 0
    priced: tuple[int, ...] = ()
    """The round last priced and the counts it was priced on: ``(round, *counts)``."""

    def __post_init__(self) -> None:
        if not self.counts:
            self.counts = [CARDS_PER_RANK_PER_DECK * self.decks] * RANKS
            self.royals = [self.decks] * len(ROYAL_CARDS)

    @property
    def composition(self) -> Composition:
        return Composition(tuple(self.counts))

    def pricing(self, round_number: int) -> tuple[int, ...]:
        """What ``priced`` would be after pricing ``round_number`` now."""
        return (round_number, *self.counts)

    def take(self, code: str) -> None:
        card = Card.parse(code)
        royal = royal_index(card)
        if self.counts[card.rank] <= 0 or (
            self.royals is not None and royal is not None and self.royals[royal] <= 0
        ):
            raise CountLost(
                f"shoe {self.shoe}: the record shows a {code} the count no longer holds"
            )
        self.counts[card.rank] -= 1
        if self.royals is not None and royal is not None:
            self.royals[royal] -= 1
        self.seen += 1

    def put_back(self, code: str) -> None:
        card = Card.parse(code)
        self.counts[card.rank] += 1
        royal = royal_index(card)
        if self.royals is not None and royal is not None:
            self.royals[royal] += 1
        self.seen -= 1


@dataclass(frozen=True, slots=True)
class Priced:
    """The next round of a shoe can be priced: its number, in the shoe numbered ``shoe``."""

    shoe: int
    round: int


def read(count: ShoeCount | None, payload: Payload) -> tuple[ShoeCount | None, Priced | None]:
    """The count after ``payload`` (a new one for new decks; None once the shoe is over), and the
    round to price now, if any."""
    match payload:
        case events.DecksReceived(shoe=shoe, decks=decks):
            return ShoeCount(shoe=shoe, decks=decks), None
        case events.IdleRespread(next_shoe=shoe) if count is not None:
            return ShoeCount(shoe=shoe, decks=count.decks), None
        case events.ShoeEnded():
            return None, None
    if count is None:
        return None, None
    match payload:
        case events.Burned(first_card=first):
            count.take(first)
            return count, Priced(count.shoe, 1)
        case events.CardDealt(card=card, position=1) if count.held:
            if card != count.held:
                raise CountLost(f"shoe {count.shoe}: {count.held} was held, {card} dealt first")
            count.held = ""  # counted when it was exposed
        case events.CardDealt(card=card):
            count.take(card)
        case events.IrregularityReported(card=card, disposition=disposition):
            count.take(card)
            if disposition is Disposition.NEXT_HAND_FIRST:
                count.held = card
        case events.CardCorrected(entered=entered, card=card):
            count.put_back(entered)
            count.take(card)
        case events.RoundSettled(round=number) | events.RoundVoid(round=number):
            return count, Priced(count.shoe, number + 1)
        case events.RoundOpened(round=number):
            return count, Priced(count.shoe, number)
    return count, None
