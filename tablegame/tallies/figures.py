"""What a settled round adds to the day's tallies: plain figures, no database.

``tablegame.tallies.writes`` writes them (``tablegame.tallies.models``); the groups are those the
accounting report reads: per wager type, result and award, and per round.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

ZERO = Decimal("0.00")
#: The player-dealer's fee per hand: a ``collect_fee`` step on no wager.
HAND_FEE = ("collect_fee", "")
#: The figures a wager tally sums.
SUMS = ("amount", "payout", "vigorish", "returned", "fee", "ride_back")


@dataclass(frozen=True)
class SettledWager:
    """A wager as settlement left it."""

    seat: int
    type: str
    result: str
    """``win``, ``lose`` or ``push``."""
    amount: Decimal
    payout: Decimal = ZERO
    vigorish: Decimal = ZERO
    returned: Decimal = ZERO
    fee: Decimal = ZERO
    award: str = ""
    ride: str = ""
    """House Money: the wager its payout rode on."""
    ridden: Decimal = ZERO
    """House Money: the payout let ride."""


def wager_groups(wagers: Iterable[SettledWager], *, sign: int = 1) -> list[dict[str, Any]]:
    """The round's wagers grouped by type, result and award: ``n`` and the sums of ``SUMS``
    (``sign=-1``: taken back). ``ride_back`` is House Money let ride on the same seat's wager
    that lost: the house collected it with that wager."""
    wagers = list(wagers)
    lost = {(w.seat, w.type) for w in wagers if w.result == "lose"}
    groups: dict[tuple[str, str, str], dict[str, Any]] = {}
    for w in wagers:
        group = groups.setdefault(
            (w.type, w.result, w.award),
            {"type": w.type, "result": w.result, "award": w.award, "n": 0}
            | dict.fromkeys(SUMS, ZERO),
        )
        group["n"] += sign
        for name in ("amount", "payout", "vigorish", "returned", "fee"):
            group[name] += sign * getattr(w, name)
        if w.ridden > 0 and (w.seat, w.ride) in lost:
            group["ride_back"] += sign * w.ridden
    return list(groups.values())


def round_figures(
    *, void: bool, steps: Iterable[tuple[str, str, Decimal]], sign: int = 1
) -> dict[str, Any]:
    """A round's count (settled or void) and the player-dealer's fees per hand: the
    ``collect_fee`` steps on no wager (``steps``: action, wager type, amount). A void round's
    wagers are returned: it has no fee."""
    fees = sum(
        (amount for action, kind, amount in steps if (action, kind) == ("collect_fee", "")), ZERO
    )
    return {
        "rounds": 0 if void else sign,
        "voids": sign if void else 0,
        "hand_fees": ZERO if void else sign * fees,
    }
