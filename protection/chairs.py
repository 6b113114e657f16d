"""How an edge is named: by its wager, and the Royal 9 wager by its chair too.

Every wager but Royal 9 faces the same edge at every seat. Royal 9's awards hang on the chair's
Personal King-9 combination (004 §13(i)), so it is priced per chair, ``"royal9/3"`` for chair 3,
in ``Edge.edges`` and ``Edge.favourable``.
"""

from __future__ import annotations

from baccarat.wagertypes import WagerType

ROYAL9 = WagerType.ROYAL9.value
#: How a pricing names the must-hit meter it counted in ``Edge.meters``.
MUST_HIT = "must_hit"
_ORDER = [w.value for w in WagerType]


def priced_as(wager: str, seat: int | None) -> str:
    """The name a pricing gives the edge ``wager`` faces at ``seat``."""
    return f"{ROYAL9}/{seat}" if wager == ROYAL9 and seat is not None else wager


def chair_of(key: str) -> int | None:
    """The chair a Royal 9 edge is of (None: a wager priced alike at every seat)."""
    wager, _, chair = key.partition("/")
    return int(chair) if wager == ROYAL9 and chair.isdecimal() else None


def wager_of(key: str) -> str:
    return key.partition("/")[0]


def label(key: str) -> str:
    """ "Dragon 7", "Royal 9, chair 3"."""
    chair = chair_of(key)
    name = WagerType(wager_of(key)).label
    return name if chair is None else f"{name}, chair {chair}"


def order(key: str) -> tuple[int, int]:
    """The layout's order of wagers, Royal 9's chairs in order."""
    return _ORDER.index(wager_of(key)), chair_of(key) or 0
