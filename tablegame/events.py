"""The kinds of event a table records, each with its typed payload, title and sentence.

Every action of ``tablegame.actions`` builds one of these payloads and hands it to
``actions.common.record``; the round review (``tablegame.review``) reads the stored event back
through ``casino.events.payload_of`` into the same class and tells it with :attr:`~Payload.title`
and :meth:`~Payload.describe`. A field renamed here is renamed for the writer and the reader at
once, and an event stored under the old name fails ``payload_of`` (and its test) instead of
showing as an empty line in a review.

Money is ``Decimal`` (stored as a string), seats and round numbers ``int`` (the dealer's seat is
``None`` where a seat may be the dealer's), wagers, hands, results and dispositions the rules
engine's enums (stored by value). A round is named by its number within its shoe.
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from enum import StrEnum
from typing import Any, ClassVar

from baccarat.cards import SUIT_SYMBOLS, Card, CardError
from baccarat.cutcard import ShoeCall
from baccarat.drawing import Expect
from baccarat.irregularities import Disposition, IrregularityKind
from baccarat.outcome import Hand, Winner
from baccarat.royal9 import Royal9Award
from baccarat.settlement import Action as StepAction
from baccarat.wagers import Result
from baccarat.wagertypes import WagerType
from casino.events import KINDS, OPTIONAL, Payload, event_kind


class TableEvent(StrEnum):
    """Kinds of event of a table, stored as ``Event.action`` in the table's chain."""

    # The table, its seats and its rules
    TABLE_OPENED = "table_opened"
    TABLE_CLOSED = "table_closed"
    PLAYER_SEATED = "player_seated"
    PLAYER_LEFT = "player_left"
    RULES_FILED = "rules_filed"
    RULES_RESTATED = "rules_restated"
    RULES_IN_FORCE = "rules_in_force"
    NOTICE_ACKNOWLEDGED = "notice_acknowledged"
    LIMIT_SET = "limit_set"
    SEATS_SET = "seats_set"
    CURATOR_TAKEN = "curator_taken"
    SHOE_PASSED = "shoe_passed"
    PLAYER_DEALER_TAKEN = "player_dealer_taken"
    PLAYER_DEALER_ROTATES = "player_dealer_rotates"
    # The decks and the shoe
    DECKS_RECEIVED = "decks_received"
    DECK_SCHEDULE_SET = "deck_schedule_set"
    DECKS_INSPECTED = "decks_inspected"
    INSPECTION_VERIFIED = "inspection_verified"
    DECKS_SPREAD = "decks_spread"
    DECKS_WASHED = "decks_washed"
    SHUFFLED = "shuffled"
    SHUFFLE_VERIFIED = "shuffle_verified"
    IDLE_RESPREAD = "idle_respread"
    CUT = "cut"
    RECUT_ORDERED = "recut_ordered"
    BURNED = "burned"
    CUT_CARD_OUT = "cut_card_out"
    SHOE_CALL = "shoe_call"
    SHOE_ENDED = "shoe_ended"
    # A round
    ROUND_OPENED = "round_opened"
    WAGER_PLACED = "wager_placed"
    WAGER_CHANGED = "wager_changed"
    WAGER_WITHDRAWN = "wager_withdrawn"
    PLAYER_DEALER_BANK = "player_dealer_bank"
    NO_MORE_BETS = "no_more_bets"
    CARDS_RELINQUISHED = "cards_relinquished"
    CARD_DEALT = "card_dealt"
    CARD_CORRECTED = "card_corrected"
    IRREGULARITY = "irregularity"
    HOUSE_MONEY_SETTLED = "house_money_settled"
    ROUND_SETTLED = "round_settled"
    PROGRESSIVE_HIT = "progressive_hit"
    PROGRESSIVE_CONTRIBUTED = "progressive_contributed"
    PROGRESSIVE_RESET = "progressive_reset"
    MUST_HIT_WON = "must_hit_won"
    ROUND_VOID = "round_void"
    # Deferred vigorish
    VIGORISH_COLLECTED = "vigorish_collected"
    VIGORISH_FORM_REQUESTED = "vigorish_form_requested"
    # The progressive controller: the floor's commands (tablegame.progressives.actions)
    PROGRESSIVE_PARAMETERS = "progressive_parameters"
    MUST_HIT_LINKED = "must_hit_linked"
    MUST_HIT_PAID = "must_hit_paid"
    # Dealers (tablegame.actions.dealers)
    DEALER_ASSIGNED = "dealer_assigned"
    DEALER_RELIEVED = "dealer_relieved"


HANDS = {
    "player": "Player's hand",
    "banker": "Banker's hand",
    "discard": "discard rack",
    "next_hand": "next hand (held)",
}
SHOE_CALLS = {"last_hand": "The next round is the last of the shoe", "shoe_over": "Shoe over"}
SUITS = SUIT_SYMBOLS


def card_label(code: str) -> str:
    """Rank and suit symbol, ``10♦`` for ``TD``; a code that is no card is shown as it is."""
    try:
        return Card.parse(code).face
    except CardError:
        return code


def _money(amount: Decimal) -> str:
    return f"${amount}"


def _seat_name(seat: int | None) -> str:
    return "the dealer" if seat in (None, 0) else f"seat {seat}"


def _declined(seats: tuple[int, ...]) -> str:
    if not seats:
        return ""
    return f" (declined: seat{'s' if len(seats) > 1 else ''} {', '.join(map(str, seats))})"


def _wins(winner: Winner) -> str:
    return "Tie" if winner is Winner.TIE else f"{winner.value.title()} wins"


class TablePayload(Payload):
    """Base of the payloads of a table's events."""

    kind: ClassVar[TableEvent]

    @property
    def round_number(self) -> int | None:
        """The number (within its shoe) of the round the event belongs to, if any."""
        number = getattr(self, "round", None)
        return number if isinstance(number, int) else None


# --- Records inside a payload ------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class StepRecord:
    """One settlement step in legal order, as the dealer does it."""

    action: StepAction
    seat: int
    wager: WagerType | None
    amount: Decimal
    phase: str
    """``fees``, ``house_money`` or ``round``."""


@dataclasses.dataclass(frozen=True)
class WagerRecord:
    """How one wager was settled: every figure the review shows of it."""

    seat: int
    wager: WagerType
    result: Result
    payout: Decimal
    vigorish: Decimal
    """Commission collected or marked on the win."""
    returned: Decimal
    """Staked money given back (a push, or what a player-dealer's bank did not cover)."""
    ridden: Decimal
    """House Money: the payout let ride."""
    fee: Decimal
    """California collection fee."""
    award: Royal9Award | None
    ride: WagerType | None
    """House Money: the wager its payout rides on."""
    amount: Decimal | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The wager as placed (its row's amount, what the day's tallies sum); None in older
    records."""


# --- The table ---------------------------------------------------------------------------------


@event_kind
@dataclasses.dataclass(frozen=True)
class TableOpened(TablePayload):
    kind = TableEvent.TABLE_OPENED
    title = "Table opened"

    profile: str
    """The Rules Submission the table opens under (a preset name)."""

    def describe(self) -> str:
        return f"Open for gaming under the {self.profile} rules"


@event_kind
@dataclasses.dataclass(frozen=True)
class TableClosed(TablePayload):
    kind = TableEvent.TABLE_CLOSED
    title = "Table closed"

    def describe(self) -> str:
        return "Closed for gaming"


def player_label(player: str, card: str | None) -> str:
    """A seated player as a sentence names them: name, card number, or both."""
    if player and card:
        return f"{player} (card {card})"
    return player or f"card {card}"


@event_kind
@dataclasses.dataclass(frozen=True)
class PlayerSeated(TablePayload):
    kind = TableEvent.PLAYER_SEATED
    title = "Player seated"

    seat: int
    player: str
    """The player's name or a description; blank when known by card number only."""
    card: str | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The players' club card number; None when none was given (and in older records)."""
    change: bool | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """True when the pit changed the name or card of the player already at the seat: the same
    sitting, not a new one; None for a player who sits down."""

    def describe(self) -> str:
        changed = ", name or card changed" if self.change else ""
        return f"Seat {self.seat}: {player_label(self.player, self.card)}{changed}"


@event_kind
@dataclasses.dataclass(frozen=True)
class PlayerLeft(TablePayload):
    kind = TableEvent.PLAYER_LEFT
    title = "Player left"

    seat: int
    player: str
    """The player's name or a description; blank when known by card number only."""
    card: str | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The players' club card number; None when none was given (and in older records)."""

    def describe(self) -> str:
        return f"Seat {self.seat}: {player_label(self.player, self.card)}"


@event_kind
@dataclasses.dataclass(frozen=True)
class RulesFiled(TablePayload):
    kind = TableEvent.RULES_FILED
    title = "Rules filed"

    profile: str
    options: dict[str, Any]
    """The options in force from then on that differ from the preset, as plain JSON."""
    effective_at: str
    """ISO 8601 instant."""
    changes: dict[str, Any] | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """What the filing changes over the options in force just before it; None when it states
    the whole submission (another preset, and in older records)."""
    filing: int | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The filing's number (``TableRules``); None in older records."""

    def describe(self) -> str:
        options = _options(self.options)
        changes = "" if self.changes is None else f" (it changes {_options(self.changes)})"
        return (
            f"The {self.profile} rules"
            + (f" with {options}" if options else "")
            + f", effective {self.effective_at}{changes}"
        )


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(options.items()))


@event_kind
@dataclasses.dataclass(frozen=True)
class RulesRestated(TablePayload):
    """A filing for an earlier moment was made: a filing still to take effect after it sets its
    changes over it, and so holds other options from its time on (its changes stay as filed)."""

    kind = TableEvent.RULES_RESTATED
    title = "Rules filed for later restated"

    filing: int
    """The filing restated (``TableRules``)."""
    effective_at: str
    """When it takes effect (ISO 8601 instant)."""
    profile: str
    options: dict[str, Any]
    """The options in force from then on, now."""
    before: dict[str, Any]
    """The options it held until now."""
    over: int
    """The filing made for the earlier moment (``TableRules``)."""

    def describe(self) -> str:
        options = _options(self.options) or "the preset's options"
        return (
            f"The rules filed for {self.effective_at} (filing {self.filing}) restated over "
            f"filing {self.over}: the {self.profile} rules with {options}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class RulesInForce(TablePayload):
    """A filing made for later took effect: the table is dealt under it from then on (the
    round in play, if any, stays under its own)."""

    kind = TableEvent.RULES_IN_FORCE
    title = "Rules in force"

    filing: int
    """The filing (``TableRules``)."""
    profile: str
    options: dict[str, Any]
    effective_at: str
    """When it took effect (ISO 8601 instant)."""

    def describe(self) -> str:
        options = _options(self.options)
        return (
            f"The {self.profile} rules"
            + (f" with {options}" if options else "")
            + f" in force from {self.effective_at}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class NoticeAcknowledged(TablePayload):
    """Surveillance acknowledged the notice of a change of procedure filed for the table."""

    kind = TableEvent.NOTICE_ACKNOWLEDGED
    title = "Notice acknowledged by surveillance"

    notice: int
    """The notice's number (``ProcedureNotice``)."""
    changes: str
    effective_at: str
    """ISO 8601 instant."""

    def describe(self) -> str:
        return f"Notice of the {self.changes} change effective {self.effective_at} acknowledged"


@event_kind
@dataclasses.dataclass(frozen=True)
class LimitSet(TablePayload):
    kind = TableEvent.LIMIT_SET
    title = "Limit set"

    wager: WagerType
    minimum: Decimal
    maximum: Decimal
    reason: str = ""
    """Why the supervisor changed it (empty when the table opened with its defaults)."""

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.wager.label}: {_money(self.minimum)} to {_money(self.maximum)}{why}"


@event_kind
@dataclasses.dataclass(frozen=True)
class SeatsSet(TablePayload):
    kind = TableEvent.SEATS_SET
    title = "Seats set"

    seats: int
    before: int
    reason: str = ""

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.before} seats become {self.seats}{why}"


@event_kind
@dataclasses.dataclass(frozen=True)
class CuratorTaken(TablePayload):
    kind = TableEvent.CURATOR_TAKEN
    title = "Shoe taken"

    seat: int | None
    """None: the dealer holds the shoe."""
    declined: tuple[int, ...]
    """The seats offered the shoe before, that declined it."""

    def describe(self) -> str:
        return f"{_seat_name(self.seat).capitalize()} holds the shoe{_declined(self.declined)}"


@event_kind
@dataclasses.dataclass(frozen=True)
class ShoePassed(TablePayload):
    kind = TableEvent.SHOE_PASSED
    title = "Shoe passed"

    seat: int
    ordered: bool
    """Passed on the order of the dealer or a floorperson."""
    reason: str = ""
    """Why the rules made the curator pass ("Banker's hand lost"); empty when by choice."""

    def describe(self) -> str:
        why = self.reason or ("ordered" if self.ordered else "by choice")
        return f"{_seat_name(self.seat).capitalize()} passes the shoe ({why})"


@event_kind
@dataclasses.dataclass(frozen=True)
class PlayerDealerTaken(TablePayload):
    kind = TableEvent.PLAYER_DEALER_TAKEN
    title = "Player-dealer taken"

    seat: int
    declined: tuple[int, ...]
    reason: str = ""
    """Why a supervisor moved the position; empty when taken in turn."""

    def describe(self) -> str:
        why = f" (moved: {self.reason})" if self.reason else ""
        return f"Seat {self.seat} is the player-dealer{_declined(self.declined)}{why}"


@event_kind
@dataclasses.dataclass(frozen=True)
class PlayerDealerRotates(TablePayload):
    kind = TableEvent.PLAYER_DEALER_ROTATES
    title = "Player-dealer rotates"

    seat: int
    offered_to: int | None

    def describe(self) -> str:
        return f"From {_seat_name(self.seat)} to {_seat_name(self.offered_to)}"


# --- The decks and the shoe --------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class ShoeStep(TablePayload):
    """A step of readying or ending a shoe that holds nothing but the shoe's number."""

    shoe: int


@event_kind
@dataclasses.dataclass(frozen=True)
class DecksReceived(TablePayload):
    kind = TableEvent.DECKS_RECEIVED
    title = "Decks received"

    shoe: int
    decks: int
    automatic_shuffler: bool
    preinspected: bool
    new_decks: bool
    back_colour: str

    def describe(self) -> str:
        facts = [
            "new" if self.new_decks else "in use",
            *(["for the automatic shuffler"] if self.automatic_shuffler else []),
            *(["pre-inspected"] if self.preinspected else []),
            *([f"backs {self.back_colour}"] if self.back_colour else []),
        ]
        return f"Shoe {self.shoe}: {self.decks} decks, {', '.join(facts)}"


@event_kind
@dataclasses.dataclass(frozen=True)
class DeckScheduleSet(TablePayload):
    """A supervisor set when the table's decks must next be changed."""

    kind = TableEvent.DECK_SCHEDULE_SET
    title = "Deck change scheduled"

    every_shoe: bool
    due_at: str | None
    """ISO 8601 instant; None with new decks every shoe."""
    before: str | None
    """The due time it replaces (ISO 8601), None if there was none."""
    reason: str

    def describe(self) -> str:
        when = "new decks after every shoe" if self.every_shoe else f"due {self.due_at}"
        return f"Decks to be changed: {when} ({self.reason})"


@event_kind
@dataclasses.dataclass(frozen=True)
class DecksInspected(ShoeStep):
    kind = TableEvent.DECKS_INSPECTED
    title = "Decks inspected"

    def describe(self) -> str:
        return f"Shoe {self.shoe}: the dealer inspected the decks for defects"


@event_kind
@dataclasses.dataclass(frozen=True)
class InspectionVerified(ShoeStep):
    kind = TableEvent.INSPECTION_VERIFIED
    title = "Inspection verified"

    def describe(self) -> str:
        return f"Shoe {self.shoe}: the inspection of the decks verified"


@event_kind
@dataclasses.dataclass(frozen=True)
class DecksSpread(ShoeStep):
    kind = TableEvent.DECKS_SPREAD
    title = "Decks spread"

    def describe(self) -> str:
        return f"Shoe {self.shoe}: spread face up by deck, suit and sequence"


@event_kind
@dataclasses.dataclass(frozen=True)
class DecksWashed(ShoeStep):
    kind = TableEvent.DECKS_WASHED
    title = "Decks washed"

    def describe(self) -> str:
        return f"Shoe {self.shoe}: turned face down, washed and stacked"


@event_kind
@dataclasses.dataclass(frozen=True)
class Shuffled(TablePayload):
    kind = TableEvent.SHUFFLED
    title = "Shuffled"

    shoe: int
    steps: tuple[str, ...]
    """The steps of a shuffle by hand in order (``plug``, ``riffle``...), or ``machine``."""

    def describe(self) -> str:
        if self.steps == ("machine",):
            return f"Shoe {self.shoe}: in the automatic shuffler"
        return f"Shoe {self.shoe}: by hand, {', '.join(self.steps)}"


@event_kind
@dataclasses.dataclass(frozen=True)
class ShuffleVerified(ShoeStep):
    kind = TableEvent.SHUFFLE_VERIFIED
    title = "Shuffle verified"

    def describe(self) -> str:
        return f"Shoe {self.shoe}: the feathered stack shows no uneven distribution"


@event_kind
@dataclasses.dataclass(frozen=True)
class IdleRespread(TablePayload):
    kind = TableEvent.IDLE_RESPREAD
    title = "Idle cards spread again"

    shoe: int
    next_shoe: int
    face_up: bool
    reason: str = ""
    """Why, when a supervisor ordered it."""

    def describe(self) -> str:
        how = "face up, as a player asked" if self.face_up else "face down"
        why = f" ({self.reason})" if self.reason else ""
        return (
            f"Shoe {self.shoe}: no gaming activity, spread again {how}; shoe {self.next_shoe}{why}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class Cut(TablePayload):
    kind = TableEvent.CUT
    title = "Cards cut"

    shoe: int
    seat: int | None
    """None: the dealer cut."""
    declined: tuple[int, ...]
    position: int
    """Where the cut was made, in cards from the top."""
    cover_from_back: int
    """Where the cut card went, in cards from the back."""

    def describe(self) -> str:
        return (
            f"Shoe {self.shoe}: cut by {_seat_name(self.seat)} at card {self.position}, "
            f"the cut card {self.cover_from_back} from the back{_declined(self.declined)}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class RecutOrdered(TablePayload):
    kind = TableEvent.RECUT_ORDERED
    title = "Recut ordered"

    shoe: int
    reason: str

    def describe(self) -> str:
        return f"Shoe {self.shoe}: to be cut again" + (f": {self.reason}" if self.reason else "")


@event_kind
@dataclasses.dataclass(frozen=True)
class Burned(TablePayload):
    kind = TableEvent.BURNED
    title = "Cards burned"

    shoe: int
    first_card: str
    face_down: int
    """How many more cards went to the discard rack face down: the first card's value."""

    def describe(self) -> str:
        return (
            f"Shoe {self.shoe}: {card_label(self.first_card)} exposed, "
            f"{self.face_down} more burned face down"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class CutCardOut(TablePayload):
    kind = TableEvent.CUT_CARD_OUT
    title = "Cut card out"

    shoe: int
    round: int

    def describe(self) -> str:
        return f"Shoe {self.shoe}: complete this hand, then last hand"


@event_kind
@dataclasses.dataclass(frozen=True)
class ShoeCallMade(TablePayload):
    kind = TableEvent.SHOE_CALL
    title = "Shoe call"

    call: ShoeCall
    round: int

    def describe(self) -> str:
        return SHOE_CALLS.get(self.call.value, self.call.value)


@event_kind
@dataclasses.dataclass(frozen=True)
class ShoeEnded(ShoeStep):
    kind = TableEvent.SHOE_ENDED
    title = "Shoe ended"

    def describe(self) -> str:
        return f"Shoe {self.shoe} is done"


# --- A round -----------------------------------------------------------------------------------


@event_kind
@dataclasses.dataclass(frozen=True)
class RoundOpened(TablePayload):
    kind = TableEvent.ROUND_OPENED
    title = "Round opened"

    shoe: int
    round: int
    dealer: str = ""
    """Who deals it: the dealer opening it, else the table's assigned dealer (none: blank)."""

    def describe(self) -> str:
        return f"Round {self.round} of shoe {self.shoe}: place your bets"


@event_kind
@dataclasses.dataclass(frozen=True)
class WagerPlaced(TablePayload):
    kind = TableEvent.WAGER_PLACED
    title = "Wager placed"

    round: int
    seat: int
    wager: WagerType
    amount: Decimal
    ride: WagerType | None
    """House Money: the wager its payout is to ride on."""

    def describe(self) -> str:
        ride = f", riding on {self.ride.label}" if self.ride else ""
        return f"Seat {self.seat}: {self.wager.label} {_money(self.amount)}{ride}"


@event_kind
@dataclasses.dataclass(frozen=True)
class WagerChanged(TablePayload):
    kind = TableEvent.WAGER_CHANGED
    title = "Wager changed"

    round: int
    seat: int
    wager: WagerType
    amount: Decimal
    previous: Decimal
    ride: WagerType | None = None

    def describe(self) -> str:
        ride = f", riding on {self.ride.label}" if self.ride else ""
        return (
            f"Seat {self.seat}: {self.wager.label} {_money(self.previous)} → "
            f"{_money(self.amount)}{ride}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class WagerWithdrawn(TablePayload):
    kind = TableEvent.WAGER_WITHDRAWN
    title = "Wager withdrawn"

    round: int
    seat: int
    wager: WagerType

    def describe(self) -> str:
        return f"Seat {self.seat}: {self.wager.label}"


@dataclasses.dataclass(frozen=True)
class CarriedFrom:
    """The player-dealer's last hand, whose bank it carries into this one (001)."""

    shoe: int
    round: int
    bank: Decimal
    """Its bank then."""
    result: Decimal
    """What it won there (less than zero: lost), recounted from that hand's settlement steps:
    the losing wagers collected less the winners paid."""

    @property
    def after(self) -> Decimal:
        """The bank after that hand: what it carries."""
        return self.bank + self.result


@event_kind
@dataclasses.dataclass(frozen=True)
class PlayerDealerBank(TablePayload):
    kind = TableEvent.PLAYER_DEALER_BANK
    title = "Player-dealer's bank"

    round: int
    bank: Decimal
    carried_from: CarriedFrom | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """Set when the round opened with the bank carried from the player-dealer's last hand;
    None when the dealer recorded it (and in older records)."""

    def describe(self) -> str:
        covers = f"{_money(self.bank)} covers this hand's wagers"
        source = self.carried_from
        if source is None:
            return covers
        outcome = (
            f"{_money(source.result)} won"
            if source.result >= 0
            else f"{_money(-source.result)} lost"
        )
        return (
            f"{covers}, carried from round {source.round} of shoe {source.shoe}: "
            f"{_money(source.bank)}, {outcome}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class NoMoreBets(TablePayload):
    kind = TableEvent.NO_MORE_BETS
    title = "No more bets"

    round: int
    player_turner: int | None
    """The seat handed the Player's cards; None: the dealer turns them."""
    banker_turner: int | None

    def describe(self) -> str:
        return (
            f"Player's cards turned by {_seat_name(self.player_turner)}, "
            f"Banker's by {_seat_name(self.banker_turner)}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class CardsRelinquished(TablePayload):
    kind = TableEvent.CARDS_RELINQUISHED
    title = "Cards relinquished"

    round: int
    hand: Hand
    seat: int
    """Who gave up turning the cards."""
    now: int | None
    """Who turns them now; None: the dealer."""

    def describe(self) -> str:
        return (
            f"{_seat_name(self.seat).capitalize()} gave up turning the "
            f"{self.hand.value.title()}'s cards; now {_seat_name(self.now)}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class CardDealt(TablePayload):
    kind = TableEvent.CARD_DEALT
    title = "Card dealt"

    round: int
    card: str
    """The card's code: ``TD``, ``7H``."""
    hand: Hand
    position: int
    """Order drawn within the round, from 1."""
    next: Expect
    """What the rules call for next."""

    def describe(self) -> str:
        return f"Card {self.position}: {card_label(self.card)} to the {HANDS[self.hand.value]}"


@event_kind
@dataclasses.dataclass(frozen=True)
class IrregularityReported(TablePayload):
    kind = TableEvent.IRREGULARITY
    title = "Irregularity"

    round: int
    """The round being dealt; a simulated round it starts has the next number."""
    irregularity: IrregularityKind = dataclasses.field(metadata={"key": "kind"})
    """Stored as ``kind``."""
    card: str
    disclosed: bool
    disposition: Disposition
    extra_burn: int
    instruction: str

    def describe(self) -> str:
        burn = ""
        if self.extra_burn:
            burn = f" ({self.extra_burn} more card{'s' if self.extra_burn != 1 else ''})"
        return (
            f"{self.irregularity.label.capitalize()}: {card_label(self.card)}{self.disclosure}, "
            f"{self.disposition.label}{burn}. Instruction: {self.instruction}"
        )

    @property
    def disclosure(self) -> str:
        """Whether the card was seen, for the kinds where that decides the remedy."""
        if self.irregularity is IrregularityKind.CARD_FACE_UP:
            return ""  # seen by everyone by definition
        return " (disclosed)" if self.disclosed else " (not disclosed)"


@event_kind
@dataclasses.dataclass(frozen=True)
class HouseMoneySettled(TablePayload):
    kind = TableEvent.HOUSE_MONEY_SETTLED
    title = "House Money settled"

    round: int
    steps: tuple[StepRecord, ...]
    wagers: tuple[WagerRecord, ...]
    """Every House Money wager, settled on the first four cards."""

    def describe(self) -> str:
        return "Before any third card, in this order"


@event_kind
@dataclasses.dataclass(frozen=True)
class RoundSettled(TablePayload):
    kind = TableEvent.ROUND_SETTLED
    title = "Round settled"

    round: int
    winner: Winner
    player_total: int
    banker_total: int
    tags: tuple[str, ...]
    """Naturals, Dragon 7, Panda 8, pairs (``baccarat.outcome.Outcome.tags``)."""
    announcement: str
    """What the dealer called: "Banker wins, 9 over 6"."""
    steps: tuple[StepRecord, ...]
    """The steps of this settlement (House Money's are in its own event)."""
    wagers: tuple[WagerRecord, ...]
    """Every wager but House Money, as settled."""

    def describe(self) -> str:
        return f"{self.announcement or _wins(self.winner)}; settled in this order"


@event_kind
@dataclasses.dataclass(frozen=True)
class ProgressiveHit(TablePayload):
    kind = TableEvent.PROGRESSIVE_HIT
    title = "Progressive hit"

    round: int
    seat: int
    meter: str
    """``star``, ``spade`` or ``heart``."""
    paid: Decimal

    def describe(self) -> str:
        return f"Seat {self.seat}: the {self.meter.title()} meter paid {_money(self.paid)}"


# --- The progressive controller (004 §13(i)-(j); tablegame.progressives) ------------------------


@dataclasses.dataclass(frozen=True)
class MeterChange:
    """One meter's share of a round's Royal 9 wagers."""

    meter: str
    """``star``, ``spade``, ``heart``, or the must-hit meter's name."""
    contribution: Decimal
    amount: Decimal
    """The meter after it."""


@event_kind
@dataclasses.dataclass(frozen=True)
class ProgressiveContributed(TablePayload):
    kind = TableEvent.PROGRESSIVE_CONTRIBUTED
    title = "Progressive contributions"

    round: int
    wagered: Decimal
    """The round's Royal 9 wagers."""
    meters: tuple[MeterChange, ...]

    def describe(self) -> str:
        shares = "; ".join(
            f"{m.meter.title()} +{_money(m.contribution)} to {_money(m.amount)}"
            for m in self.meters
        )
        return f"{_money(self.wagered)} of Royal 9 wagers: {shares}"


@event_kind
@dataclasses.dataclass(frozen=True)
class ProgressiveReset(TablePayload):
    kind = TableEvent.PROGRESSIVE_RESET
    title = "Progressive reset"

    meter: str
    amount: Decimal
    """What it starts again from."""
    round: int | None = None
    """The round that won it (none for a new meter)."""
    commitment: str = ""
    """Must-hit: SHA-256 of the hidden hit value and its nonce, revealed when won."""

    def describe(self) -> str:
        sealed = f"; hit value sealed ({self.commitment[:12]}…)" if self.commitment else ""
        return f"The {self.meter.title()} meter starts at {_money(self.amount)}{sealed}"


@event_kind
@dataclasses.dataclass(frozen=True)
class MustHitWon(TablePayload):
    kind = TableEvent.MUST_HIT_WON
    title = "Must-hit progressive won"

    round: int
    meter: str
    number: int
    """The meter's wins, counted from 1: they are paid in this order."""
    seat: int
    """Drawn at random among ``participants``."""
    participants: tuple[int, ...]
    amount: Decimal
    """The hit value, revealed."""
    nonce: str
    """With ``amount``, it gives the commitment recorded at the meter's last reset."""
    waiting: int = 0
    """Earlier wins of the meter still to be paid: this one waits for them."""

    def describe(self) -> str:
        queue = f"; {self.waiting} earlier win(s) paid first" if self.waiting else ""
        return (
            f"{self.meter.title()} win {self.number}: seat {self.seat} drawn among seats "
            f"{', '.join(map(str, self.participants))}, {_money(self.amount)} pending{queue}"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class RoundVoid(TablePayload):
    kind = TableEvent.ROUND_VOID
    title = "Round void"

    round: int
    reason: str
    steps: tuple[StepRecord, ...] = ()
    """Every wager returned, in order."""
    approved_by: str | None = dataclasses.field(default=None, metadata=OPTIONAL)
    """The floorperson or pit boss who approved a dealer's void at the tablet (username); None
    when nobody had to (the shoe ran out, or a supervisor voided it), and in older records."""

    def describe(self) -> str:
        approved = f"; approved by {self.approved_by}" if self.approved_by else ""
        return f"Wagers returned: {self.reason}{approved}"


# --- Deferred vigorish -------------------------------------------------------------------------


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishCollected(TablePayload):
    kind = TableEvent.VIGORISH_COLLECTED
    title = "Marked commission collected"

    seat: int
    amount: Decimal
    marker: int

    def describe(self) -> str:
        return f"Seat {self.seat}: {_money(self.amount)} collected; the marker comes off"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormRequested(TablePayload):
    kind = TableEvent.VIGORISH_FORM_REQUESTED
    title = "Complimentary Vigorish Form requested"

    seat: int
    amount: Decimal
    marker: int
    reason: str

    def describe(self) -> str:
        return (
            f"Seat {self.seat}: {_money(self.amount)} to be documented on the form: {self.reason}"
        )


# --- Progressive parameters, links and payments ------------------------------------------------


@event_kind
@dataclasses.dataclass(frozen=True)
class ProgressiveParameters(TablePayload):
    kind = TableEvent.PROGRESSIVE_PARAMETERS
    title = "Progressive parameters"

    meter: str
    parameters: dict[str, str]
    """Each parameter as text: reseed and contribution, or reset, maximum and increment rate."""
    effective: str
    """``now`` (the meter is not live) or ``next_reset`` (it is: they wait for its next win)."""

    def describe(self) -> str:
        values = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(self.parameters.items()))
        when = "now" if self.effective == "now" else "from the meter's next reset (it is live)"
        return f"The {self.meter.title()} meter: {values}, {when}"


@event_kind
@dataclasses.dataclass(frozen=True)
class MustHitLinked(TablePayload):
    kind = TableEvent.MUST_HIT_LINKED
    title = "Must-hit progressive linked"

    meter: str
    linked: bool
    """True when the table starts feeding the meter, False when it stops."""
    tables: tuple[str, ...]
    """Every table feeding it afterwards."""

    def describe(self) -> str:
        verb = "feeds" if self.linked else "no longer feeds"
        linked = ", ".join(self.tables) or "no table"
        return f"The table {verb} the {self.meter} meter (linked: {linked})"


@event_kind
@dataclasses.dataclass(frozen=True)
class MustHitPaid(TablePayload):
    kind = TableEvent.MUST_HIT_PAID
    title = "Must-hit progressive paid"

    meter: str
    number: int
    seat: int
    amount: Decimal
    won_in: str
    """The table, shoe and round it was won in ("BB-1 shoe 2 round 14"); paid maybe later."""

    def describe(self) -> str:
        return (
            f"{self.meter.title()} win {self.number} ({self.won_in}): {_money(self.amount)} "
            f"paid to seat {self.seat}"
        )


# --- Dealers -------------------------------------------------------------------------------------


@event_kind
@dataclasses.dataclass(frozen=True)
class DealerAssigned(TablePayload):
    kind = TableEvent.DEALER_ASSIGNED
    title = "Dealer assigned"

    dealer: str
    """Username."""
    name: str
    """The dealer's full name, or the username again."""

    def describe(self) -> str:
        return f"{self.name} deals this table"


@event_kind
@dataclasses.dataclass(frozen=True)
class DealerRelieved(TablePayload):
    kind = TableEvent.DEALER_RELIEVED
    title = "Dealer relieved"

    dealer: str
    name: str

    def describe(self) -> str:
        return f"{self.name} is relieved"


@event_kind
@dataclasses.dataclass(frozen=True)
class CardCorrected(TablePayload):
    """A mis-keyed card corrected: the physical card was right, its entry wrong. The wrong entry
    stays in the record (its ``card_dealt`` event); this one says what it is instead, and who
    approved it."""

    kind = TableEvent.CARD_CORRECTED
    title = "Card corrected"

    round: int
    position: int
    """Order drawn within the round, from 1."""
    hand: Hand
    entered: str
    """The card as it was keyed in, wrongly."""
    card: str
    """The card actually dealt."""
    approved_by: str
    """The floorperson or pit boss who approved the correction (username)."""
    reason: str = ""

    def describe(self) -> str:
        why = f" ({self.reason})" if self.reason else ""
        return (
            f"Card {self.position} to the {HANDS[self.hand.value]}: {card_label(self.entered)} "
            f"keyed in error, corrected to {card_label(self.card)}, approved by "
            f"{self.approved_by}{why}"
        )


#: Every kind of table event, by its enum member.
TABLE_KINDS: dict[TableEvent, type[TablePayload]] = {
    cls.kind: cls for cls in KINDS.values() if issubclass(cls, TablePayload)
}
#: The kinds whose events belong to a round: they name it by its ``round`` field.
ROUND_KINDS: tuple[type[TablePayload], ...] = tuple(
    cls
    for cls in TABLE_KINDS.values()
    if "round" in {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
)


def event_data(
    sequence: int, payload: TablePayload, data: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One event as screens are told it: its number, kind, payload, title and sentence
    (``data``: the payload as the record keeps it, if made already)."""
    return {
        "sequence": sequence,
        "action": payload.kind.value,
        "title": payload.title,
        "text": payload.describe(),
        "data": payload.as_data() if data is None else data,
    }


# --- Complimentary Vigorish Forms (the pit's chain) -----------------------------------------------


class FormEvent(StrEnum):
    """Kinds of event of the pit's Complimentary Vigorish Forms, in the pit's own chain."""

    FORM_SERIES_RECEIVED = "form_series_received"
    VIGORISH_FORM_PREPARED = "vigorish_form_prepared"
    VIGORISH_FORM_SIGNED = "vigorish_form_signed"
    VIGORISH_FORM_PATRON = "vigorish_form_patron"
    VIGORISH_FORM_DEPOSITED = "vigorish_form_deposited"
    VIGORISH_FORM_WITNESSED = "vigorish_form_witnessed"
    VIGORISH_FORM_VOID = "vigorish_form_void"
    VIGORISH_FORM_VOID_SIGNED = "vigorish_form_void_signed"
    VIGORISH_DUPLICATES_FORWARDED = "vigorish_duplicates_forwarded"


class FormPayload(Payload):
    """Base of the payloads of the pit's form events."""

    kind: ClassVar[FormEvent]


@event_kind
@dataclasses.dataclass(frozen=True)
class FormSeriesReceived(FormPayload):
    kind = FormEvent.FORM_SERIES_RECEIVED
    title = "Form series received"

    first: str
    last: str

    def describe(self) -> str:
        return f"Complimentary Vigorish Forms {self.first} to {self.last} received"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormPrepared(FormPayload):
    kind = FormEvent.VIGORISH_FORM_PREPARED
    title = "Complimentary Vigorish Form prepared"

    number: str
    table: str
    seat: int
    amount: Decimal
    patron: str
    marker: int

    def describe(self) -> str:
        return (
            f"Form {self.number}: {_money(self.amount)} not collected from {self.patron} "
            f"({self.table} seat {self.seat})"
        )


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormSigned(FormPayload):
    kind = FormEvent.VIGORISH_FORM_SIGNED
    title = "Complimentary Vigorish Form signed"

    number: str
    signed_as: str
    """``dealer``, ``pit_boss`` or ``pit_clerk``."""

    def describe(self) -> str:
        return f"Form {self.number}: signed as {self.signed_as.replace('_', ' ')}"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormPatron(FormPayload):
    kind = FormEvent.VIGORISH_FORM_PATRON
    title = "Patron's signature on the form"

    number: str
    signature: str
    """The patron's name as signed; blank when the statement says why not."""
    statement: str

    def describe(self) -> str:
        if self.signature:
            return f"Form {self.number}: signed by the patron, {self.signature}"
        return f"Form {self.number}: the patron did not sign: {self.statement}"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormDeposited(FormPayload):
    kind = FormEvent.VIGORISH_FORM_DEPOSITED
    title = "Form original in the drop box"

    number: str
    table: str

    def describe(self) -> str:
        return f"Form {self.number}: the original deposited in the drop box of {self.table}"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormWitnessed(FormPayload):
    kind = FormEvent.VIGORISH_FORM_WITNESSED
    title = "Form deposit witnessed"

    number: str
    witness_as: str
    """``pit_boss`` or ``pit_clerk``: who signed the form saw it go into the drop box."""

    def describe(self) -> str:
        return f"Form {self.number}: deposit witnessed by the {self.witness_as.replace('_', ' ')}"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormVoid(FormPayload):
    kind = FormEvent.VIGORISH_FORM_VOID
    title = "Complimentary Vigorish Form VOID"

    number: str
    reason: str

    def describe(self) -> str:
        return f"Form {self.number} marked VOID: {self.reason}"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishFormVoidSigned(FormPayload):
    kind = FormEvent.VIGORISH_FORM_VOID_SIGNED
    title = "VOID form signed by the pit boss"

    number: str

    def describe(self) -> str:
        return f"Form {self.number}: VOID signed by the pit boss"


@event_kind
@dataclasses.dataclass(frozen=True)
class VigorishDuplicatesForwarded(FormPayload):
    kind = FormEvent.VIGORISH_DUPLICATES_FORWARDED
    title = "Form duplicates forwarded to accounting"

    gaming_day: str
    """ISO date."""
    numbers: tuple[str, ...]
    total: Decimal
    """The vigorish documented on the forwarded forms (VOID ones count nothing)."""

    def describe(self) -> str:
        return (
            f"Gaming day {self.gaming_day}: duplicates {', '.join(self.numbers)} forwarded, "
            f"{_money(self.total)} documented"
        )
