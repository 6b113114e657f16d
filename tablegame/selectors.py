"""Reads: the parts of a table's state (what every screen shows: ``tablegame.play.parts`` makes
them) and what changes them, the engine's labels, and the number of a table's last event.
Selectors never refuse."""

from __future__ import annotations

from typing import Any

from django.db.models import IntegerField, Value
from django.db.models.functions import Coalesce

from baccarat.cards import SUIT_SYMBOLS
from baccarat.drawing import Expect
from baccarat.irregularities import IrregularityKind
from baccarat.settlement import Action
from baccarat.wagertypes import WagerType
from casino.record import chain_head, head_of
from tablegame.events import TableEvent
from tablegame.models import (
    Table,
)

#: The parts of the table state, in the order of the document.
PARTS = (
    "table",
    "rules",
    "limits",
    "seats",
    "markers",
    "shoe",
    "round",
    "deck_change",
    "meters",
    "repeat",
)

_K = TableEvent
#: The parts of the table state that each kind of event changes: what a command answers with.
CHANGES: dict[TableEvent, tuple[str, ...]] = {
    _K.TABLE_OPENED: PARTS,
    _K.TABLE_CLOSED: ("table",),
    # The table part says whom to offer the shoe or the player-dealer position: who sits matters.
    _K.PLAYER_SEATED: ("seats", "table"),
    _K.PLAYER_LEFT: ("seats", "round", "markers", "table"),
    _K.RULES_FILED: ("rules",),
    _K.RULES_RESTATED: (),  # rules still to take effect: when they do, ``RULES_IN_FORCE``
    # Who is offered the shoe or the player-dealer position follows the rules.
    _K.RULES_IN_FORCE: ("rules", "table"),
    _K.NOTICE_ACKNOWLEDGED: (),  # the notice, not the table state: the console reads it
    _K.LIMIT_SET: ("limits",),
    _K.SEATS_SET: ("seats", "table"),  # set by the pit (no command answers it): the seat count
    _K.CURATOR_TAKEN: ("table", "shoe"),
    _K.SHOE_PASSED: ("table", "shoe"),
    _K.PLAYER_DEALER_TAKEN: ("table",),
    _K.PLAYER_DEALER_ROTATES: ("table",),
    _K.DECKS_RECEIVED: ("shoe", "deck_change", "round"),
    _K.DECK_SCHEDULE_SET: ("deck_change",),
    _K.DECKS_INSPECTED: ("shoe",),
    _K.INSPECTION_VERIFIED: ("shoe",),
    _K.DECKS_SPREAD: ("shoe",),
    _K.DECKS_WASHED: ("shoe",),
    _K.SHUFFLED: ("shoe",),
    _K.SHUFFLE_VERIFIED: ("shoe",),
    _K.IDLE_RESPREAD: ("shoe", "round"),
    _K.CUT: ("shoe",),
    _K.RECUT_ORDERED: ("shoe",),
    _K.BURNED: ("shoe",),
    _K.CUT_CARD_OUT: ("shoe",),
    _K.SHOE_CALL: ("shoe",),
    _K.SHOE_ENDED: ("shoe", "round", "deck_change"),
    _K.ROUND_OPENED: ("round", "shoe"),
    _K.WAGER_PLACED: ("round",),
    _K.WAGER_CHANGED: ("round",),
    _K.WAGER_WITHDRAWN: ("round",),
    _K.PLAYER_DEALER_BANK: ("round",),
    _K.NO_MORE_BETS: ("round",),
    _K.CARDS_RELINQUISHED: ("round",),
    _K.CARD_DEALT: ("round", "shoe"),
    _K.CARD_CORRECTED: ("round", "shoe"),
    _K.IRREGULARITY: ("round", "shoe"),
    _K.HOUSE_MONEY_SETTLED: ("round",),
    # The meters' changes at settlement have events of their own (contributed, hit, reset);
    # the markers change only where vigorish is marked (``_changed_by``).
    _K.ROUND_SETTLED: ("round", "shoe", "markers", "table", "repeat"),
    _K.PROGRESSIVE_HIT: ("round", "meters"),
    _K.PROGRESSIVE_CONTRIBUTED: ("meters",),
    _K.PROGRESSIVE_RESET: ("meters",),
    _K.PROGRESSIVE_PARAMETERS: ("meters",),
    _K.MUST_HIT_WON: (),  # the pit's meter, not the table state: /progressives/ shows it
    _K.MUST_HIT_LINKED: (),
    _K.MUST_HIT_PAID: (),
    _K.DEALER_ASSIGNED: (),
    _K.DEALER_RELIEVED: (),
    _K.ROUND_VOID: ("round", "shoe"),
    _K.VIGORISH_COLLECTED: ("markers",),
    _K.VIGORISH_FORM_REQUESTED: ("markers",),
}


#: Events that change only these lists of the round besides its core (cards, state, totals): the
#: answer sends the round patched (its core and these lists), not whole.
ROUND_PATCHES: dict[TableEvent, tuple[str, ...]] = {
    _K.WAGER_PLACED: ("wagers",),
    _K.WAGER_CHANGED: ("wagers",),
    _K.WAGER_WITHDRAWN: ("wagers",),
    _K.PLAYER_DEALER_BANK: (),
    _K.NO_MORE_BETS: (),
    _K.CARDS_RELINQUISHED: (),
    _K.CARD_DEALT: (),
}


def last_sequence(table: Table) -> int:
    """The number of the table's last event (0 before its first)."""
    return chain_head(table.chain_id).sequence


def last_sequence_of_tables() -> Coalesce:
    """Annotation: the number of each table's last event (0 before its first), an index lookup."""
    return Coalesce(head_of()["head_sequence"], Value(0), output_field=IntegerField())


def labels() -> dict[str, Any]:
    """The engine's labels by the words the API uses: what the tablet shows for a wager type,
    a settlement step's action and an irregularity, and each suit's symbol by its letter, in the
    order of the tablet's card keys (one definition, in ``baccarat``)."""
    return {
        "wagers": {t.value: t.label for t in WagerType},
        "wagers_short": {t.value: t.short_label for t in WagerType},
        "marks": {t.value: t.mark for t in WagerType},
        "main": [t.value for t in WagerType if t.is_main],
        "steps": {a.value: a.label for a in Action},
        "irregularities": {k.value: k.label for k in IrregularityKind},
        "suits": dict(SUIT_SYMBOLS),
    }


#: The lists of a round document.
ROUND_LISTS = ("wagers", "steps", "irregularities")


NEXT_CARD = {
    Expect.PLAYER_FIRST: "Player's first card",
    Expect.BANKER_FIRST: "Banker's first card",
    Expect.PLAYER_SECOND: "Player's second card",
    Expect.BANKER_SECOND: "Banker's second card",
    Expect.PLAYER_THIRD: "Player draws",
    Expect.BANKER_THIRD: "Banker draws",
    Expect.NONE: "",
}
