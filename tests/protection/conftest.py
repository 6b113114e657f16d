"""Shoes dealt through the actions for the protection tests."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User

from tablegame.models import Table
from tests.tablegame.conftest import dealer, floor, play, ready_table, staff

__all__ = ["dealer", "eights_and_nines", "floor", "play", "ready_table", "staff", "strip_rounds"]

#: A round that takes two nines to the Player (a natural 8) and two eights to the Banker (6):
#: four cards, nobody draws. Sixteen of them strip an eight-deck shoe of its eights and nines.
SUITS = "CDHS"


def eights_and_nines(turn: int) -> list[str]:
    """The four cards of the ``turn``-th stripping round, in dealing order (P, B, P, B)."""
    first, second = SUITS[(2 * turn) % 4], SUITS[(2 * turn + 1) % 4]
    return [f"9{first}", f"8{first}", f"9{second}", f"8{second}"]


def strip_rounds(
    table: Table,
    dealer: User,
    rounds: int,
    *,
    wagers: Callable[[int], list[tuple[int, str, str]]] | None = None,
) -> None:
    """Deal ``rounds`` stripping rounds at ``table``, with ``wagers(turn)`` in each (seat 1 on
    the Banker without)."""
    for turn in range(rounds):
        play(
            table, dealer, wagers(turn) if wagers else [(1, "banker", "25")], eights_and_nines(turn)
        )
