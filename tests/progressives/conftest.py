"""Helpers for the progressive tests: big tables with Royal 9 players, and a known draw."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

import pytest
from django.contrib.auth.models import User

from tablegame.models import Table
from tablegame.progressives import draw
from tests.tablegame.conftest import dealer, floor, play, ready_table, staff

if TYPE_CHECKING:
    from _typeshed import SupportsLenAndGetItem

T = TypeVar("T")

__all__ = ["dealer", "floor", "staff"]  # the fixtures

#: Player 6, Banker 8 on four cards: no Royal 9 in either hand, so no award touches a meter.
NO_ROYAL9 = ["4H", "5C", "2S", "3S"]


class LowDraw(random.Random):
    """A draw that puts each hit value within ``spread`` cents of the reset, and picks the
    lowest seat: the tests see hits after a few rounds, and know who wins."""

    def __init__(self, spread: int = 1) -> None:
        super().__init__(7)
        self.spread = spread

    def randint(self, a: int, b: int) -> int:
        return min(b, a + self.spread - 1)

    def choice(self, seq: SupportsLenAndGetItem[T]) -> T:
        return seq[0]


@pytest.fixture
def low_draw(monkeypatch: pytest.MonkeyPatch) -> LowDraw:
    low = LowDraw()
    monkeypatch.setattr(draw, "RANDOM", low)
    return low


def big_table(dealer: User, floor: User, profile: str = "ma-big", seats=(1, 2, 3)) -> Table:
    return ready_table(profile, dealer, floor, seats=seats)


def royal9_round(table: Table, dealer: User, seats=(1, 2, 3), cards=NO_ROYAL9) -> Any:
    """A round with a $5 Royal 9 wager at each of ``seats``."""
    return play(table, dealer, [(s, "royal9", "5") for s in seats], list(cards))


_PLAYER_8 = [("A", "7"), ("2", "6"), ("3", "5"), ("4", "4"), ("T", "8"), ("J", "8"), ("Q", "8")]
_BANKER_9 = [("A", "8"), ("2", "7"), ("3", "6"), ("4", "5"), ("T", "9")]


def naturals(table: Table) -> list[str]:
    """Four cards still in the table's shoe: Player 8 and Banker 9, both naturals (the coup ends,
    Banker wins so the curator keeps the shoe), with no Royal 9 in either hand."""
    shoe = table.current_shoe()
    assert shoe is not None

    def pick(left: dict[str, int], ranks: tuple[str, str]) -> list[str] | None:
        trial, out = dict(left), []
        for rank in ranks:
            code = next((rank + s for s in "SHDC" if trial.get(rank + s, 0) > 0), None)
            if code is None:
                return None
            trial[code] -= 1
            out.append(code)
        left.update(trial)
        return out

    left = dict(shoe.remaining)
    player = next(p for ranks in _PLAYER_8 if (p := pick(left, ranks)))
    banker = next(b for ranks in _BANKER_9 if (b := pick(left, ranks)))
    return [player[0], banker[0], player[1], banker[1]]
