"""What each kind of table event changes, told to the screens: the parts of the table state
(``selectors.CHANGES``: what a command's answer, and its notice, carry) and what else it changes
that no notice carries (``ALSO``), which a screen showing it reads again.

Pages embed the map (``{% event_kinds %}``, ``tablegame/templatetags/screens.py``) as they embed
the labels, and their scripts decide from it what to redraw (``Live.touches``, static/js/live.js):
no script keeps a list of kinds of its own. ``touches`` is the same test for the load simulator.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablegame.errors import REFUSAL_LABELS
from tablegame.events import TableEvent
from tablegame.selectors import CHANGES

_K = TableEvent

#: What an event changes besides the parts of the table state, by the words the scripts use:
#: ``notices`` the procedure notices (rules filed, surveillance's acknowledgement); ``seat_count``
#: the table's number of seats; ``progressives`` the meters' set-up, wins and payments (an amount
#: comes in its event, ``progressive_contributed`` or ``progressive_reset``); ``forms`` the
#: Complimentary Vigorish Forms' register (vigorish waiting for a form, or no longer); ``layout``
#: how a table's surveillance tile is made up beyond its fields (the table closed, a respread, a
#: corrected card or an irregularity, the meters set up again or paid): it is drawn again whole.
ALSO: dict[TableEvent, tuple[str, ...]] = {
    _K.TABLE_CLOSED: ("layout",),
    _K.RULES_FILED: ("notices",),
    _K.RULES_RESTATED: ("layout",),
    _K.NOTICE_ACKNOWLEDGED: ("notices",),
    _K.SEATS_SET: ("seat_count",),
    _K.IDLE_RESPREAD: ("layout",),
    _K.CARD_CORRECTED: ("layout",),
    _K.IRREGULARITY: ("layout",),
    _K.PROGRESSIVE_HIT: ("progressives",),
    _K.PROGRESSIVE_PARAMETERS: ("progressives", "layout"),
    _K.MUST_HIT_WON: ("progressives",),
    _K.MUST_HIT_LINKED: ("progressives", "layout"),
    _K.MUST_HIT_PAID: ("progressives", "layout"),
    _K.VIGORISH_COLLECTED: ("forms",),
    _K.VIGORISH_FORM_REQUESTED: ("forms",),
}


#: The events surveillance is shown as they happen, on the wall and its list of significant events
#: (issue 30, game protection), with the field of the event's data that must hold for it to count
#: (None: every one): a card corrected, a round void (a void approved at the tablet among them),
#: an irregularity, a recut ordered, the shoe passed on an order, the idle cards spread face up
#: because a player asked. The refusals kept (``tablegame.errors.RefusalKind``) join them.
SIGNIFICANT: dict[TableEvent, str | None] = {
    _K.CARD_CORRECTED: None,
    _K.ROUND_VOID: None,
    _K.IRREGULARITY: None,
    _K.RECUT_ORDERED: None,
    _K.SHOE_PASSED: "ordered",
    _K.IDLE_RESPREAD: "face_up",
}


def is_significant(action: str, data: dict[str, Any]) -> bool:
    """Whether an event (its kind and data, as recorded) is one surveillance is shown."""
    try:
        kind = TableEvent(action)
    except ValueError:
        return False
    if kind not in SIGNIFICANT:
        return False
    field = SIGNIFICANT[kind]
    return field is None or bool(data.get(field))


def significant_kinds() -> dict[str, Any]:
    """What the pages embed (``{% significant_kinds %}``): each significant event kind with its
    field that must hold (``events``), and each refusal kind kept with its words (``refusals``)."""
    return {
        "events": {kind.value: field for kind, field in SIGNIFICANT.items()},
        "refusals": {kind.value: label for kind, label in REFUSAL_LABELS.items()},
    }


def event_kinds() -> dict[str, dict[str, list[str]]]:
    """The map the pages embed: for each kind, the parts of the table state it changes
    (``changes``) and what else (``also``)."""
    return {
        kind.value: {"changes": list(CHANGES[kind]), "also": list(ALSO.get(kind, ()))}
        for kind in TableEvent
    }


def touches(
    events: Iterable[dict[str, Any]], *, changes: Iterable[str] = (), also: Iterable[str] = ()
) -> bool:
    """Whether one of ``events`` (as a notice has them) changes one of the parts ``changes`` or
    one of the things ``also``; an event of a kind not known changes everything (as the
    scripts' ``Live.touches``)."""
    parts, others = set(changes), set(also)
    for event in events:
        try:
            kind = TableEvent(str(event.get("action")))
        except ValueError:
            return True
        if parts.intersection(CHANGES[kind]) or others.intersection(ALSO.get(kind, ())):
            return True
    return False
