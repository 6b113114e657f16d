"""Baccarat scoreboard roads: Bead Plate, Big Road, Big Eye Boy, Small Road and Cockroach Pig.

Every road is a grid ``ROWS`` (6) cells high and as wide as it needs; a cell sits at ``(col, row)``
counted from 0 at the top left. The roads are read from the shoe's results in dealing order.

**Bead Plate.** Every result, ties included, one cell each, filled column by column: result ``i``
(from 0) is at ``(i // 6, i % 6)``.

**Big Road.** Only Banker and Player wins take a cell. Consecutive wins of one hand form a *streak*
(a logical column); a win of the other hand starts the next streak. A streak's first cell is the
top of the column to the right of where the previous streak began (further right while that top
cell is taken, which happens only after a tail along row 0). It goes down one row per win; when
the next cell down would be below the 6th row or is already taken by an earlier streak's tail,
it turns right and runs along that row to the end of the streak (the "dragon
tail"; an early turn above the bottom when an older tail is in the way). A tie takes no cell: it
adds 1 to the tie count of the latest cell; ties before the shoe's first win are kept as the
road's ``leading_ties``. A cell shows the pairs of the round that made it.

**Derived roads.** Big Eye Boy, Small Road and Cockroach Pig have a *cycle* k of 1, 2 and 3. They
read the Big Road's streaks, numbered from 1, with rows numbered from 1 by position in the streak
(a tail's cells keep counting down: the 7th win of a streak is row 7, wherever it is drawn). Each
Big Road entry from the road's start point on adds one colour:

- start point: column k+1 row 2, or column k+2 row 1 if column k+1 has a single entry
  (Big Eye Boy: 2.2 / 3.1; Small Road: 3.2 / 4.1; Cockroach Pig: 4.2 / 5.1);
- an entry at row 1 of column c (a new streak): **red** when columns c-1 and c-1-k are equally
  long, **blue** otherwise;
- an entry at row r ≥ 2 of column c: look at column c-k. **Red** when it has a row r (it
  "repeats"), **blue** when it ended exactly at row r-1, **red** again when it ended before
  row r-1 (two empty cells: a "straight drop").

The colours are laid out exactly as the Big Road lays out wins: a new column when the colour
changes, tails the same way. Big Eye Boy draws rings, Small Road dots and Cockroach Pig slashes.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from baccarat.outcome import Outcome, Winner

ROWS = 6
"""Every road is this many cells high."""

Coordinate = tuple[int, int]
"""A cell's ``(col, row)``, each counted from 0; row 0 is the top."""


class Colour(enum.Enum):
    """The two colours of a derived road."""

    RED = "red"
    BLUE = "blue"


class Cycle(enum.IntEnum):
    """The derived roads, by how many streaks back each one compares."""

    BIG_EYE_BOY = 1
    SMALL_ROAD = 2
    COCKROACH_PIG = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """One round of the shoe as the scoreboard shows it."""

    winner: Winner
    """Banker, Player or tie."""
    player_pair: bool = False
    """The Player's first two cards were a pair."""
    banker_pair: bool = False
    """The Banker's first two cards were a pair."""
    natural: bool = False
    """Either hand was a Natural."""
    player_total: int | None = None
    """The Player's final Point Count, if known."""
    banker_total: int | None = None
    """The Banker's final Point Count, if known."""

    @classmethod
    def of(cls, outcome: Outcome) -> Result:
        """The result of a classified coup."""
        return cls(
            winner=outcome.winner,
            player_pair=outcome.player_pair,
            banker_pair=outcome.banker_pair,
            natural=outcome.player_natural or outcome.banker_natural,
            player_total=outcome.player_total,
            banker_total=outcome.banker_total,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class BeadCell:
    """A Bead Plate cell: one result, ties included."""

    col: int
    """Column, from 0."""
    row: int
    """Row, from 0 (top)."""
    result: Result
    """The round drawn here."""

    def as_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        r = self.result
        return {
            "col": self.col,
            "row": self.row,
            "winner": r.winner.value,
            "player_pair": r.player_pair,
            "banker_pair": r.banker_pair,
            "natural": r.natural,
            "player_total": r.player_total,
            "banker_total": r.banker_total,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class BigRoadCell:
    """A Big Road cell: one Banker or Player win and the ties that followed it."""

    col: int
    """Column on the grid, from 0."""
    row: int
    """Row on the grid, from 0 (top)."""
    winner: Winner
    """Banker or Player, never a tie."""
    ties: int = 0
    """Tie hands dealt after this win and before the next one."""
    player_pair: bool = False
    """The winning round had a Player pair."""
    banker_pair: bool = False
    """The winning round had a Banker pair."""
    streak: int = 0
    """Which streak (logical column) this win belongs to, from 0."""
    depth: int = 0
    """Position within the streak, from 0; unlike ``row`` it keeps counting along a tail."""

    def as_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "col": self.col,
            "row": self.row,
            "winner": self.winner.value,
            "ties": self.ties,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class BigRoad:
    """The Big Road: its cells in the order they were won, and ties before the first win."""

    cells: tuple[BigRoadCell, ...]
    """Banker and Player wins, in order."""
    leading_ties: int = 0
    """Tie hands dealt before the shoe's first Banker or Player win."""

    @property
    def streaks(self) -> tuple[int, ...]:
        """The length of each streak (logical column), in order."""
        lengths: list[int] = []
        for cell in self.cells:
            if cell.depth == 0:
                lengths.append(0)
            lengths[-1] += 1
        return tuple(lengths)

    def as_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"leading_ties": self.leading_ties, "cells": [c.as_data() for c in self.cells]}


@dataclass(frozen=True, slots=True, kw_only=True)
class DerivedCell:
    """A cell of Big Eye Boy, Small Road or Cockroach Pig."""

    col: int
    """Column, from 0."""
    row: int
    """Row, from 0 (top)."""
    colour: Colour
    """Red: the Big Road repeats; blue: it does not."""

    def as_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {"col": self.col, "row": self.row, "colour": self.colour.value}


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally:
    """How many rounds each hand won, ties, pairs and Naturals."""

    banker: int = 0
    """Banker wins."""
    player: int = 0
    """Player wins."""
    tie: int = 0
    """Tie hands."""
    banker_pairs: int = 0
    """Rounds with a Banker pair."""
    player_pairs: int = 0
    """Rounds with a Player pair."""
    naturals: int = 0
    """Rounds with a Natural in either hand."""

    @property
    def rounds(self) -> int:
        """Rounds counted."""
        return self.banker + self.player + self.tie

    def as_data(self) -> dict[str, int]:
        """Plain JSON-ready data."""
        return {
            "rounds": self.rounds,
            "banker": self.banker,
            "player": self.player,
            "tie": self.tie,
            "banker_pairs": self.banker_pairs,
            "player_pairs": self.player_pairs,
            "naturals": self.naturals,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Roads:
    """The whole scoreboard of one shoe."""

    bead_plate: tuple[BeadCell, ...]
    """Every result."""
    big_road: BigRoad
    """Banker and Player streaks, with tie marks."""
    big_eye_boy: tuple[DerivedCell, ...]
    """Derived road of cycle 1."""
    small_road: tuple[DerivedCell, ...]
    """Derived road of cycle 2."""
    cockroach_pig: tuple[DerivedCell, ...]
    """Derived road of cycle 3."""
    tally: Tally
    """The counts shown beside the roads."""

    def as_data(self) -> dict[str, Any]:
        """Plain JSON-ready data: every road as a list of cells with ``col`` and ``row``."""
        return {
            "rows": ROWS,
            "bead_plate": [c.as_data() for c in self.bead_plate],
            "big_road": self.big_road.as_data(),
            "big_eye_boy": [c.as_data() for c in self.big_eye_boy],
            "small_road": [c.as_data() for c in self.small_road],
            "cockroach_pig": [c.as_data() for c in self.cockroach_pig],
            "counts": self.tally.as_data(),
        }


def lay_out(streaks: Sequence[int], *, rows: int = ROWS) -> list[list[Coordinate]]:
    """Where each cell of each streak goes: down from the top, turning right at the bottom or
    above a cell already taken, each streak starting one column right of the previous start."""
    taken: set[Coordinate] = set()
    placed: list[list[Coordinate]] = []
    start = -1
    for length in streaks:
        start += 1
        while (start, 0) in taken:
            start += 1
        col, row, turned = start, 0, False
        cells = [(col, row)]
        for _ in range(length - 1):
            if not turned and row + 1 < rows and (col, row + 1) not in taken:
                row += 1
            else:
                turned, col = True, col + 1
            cells.append((col, row))
        taken.update(cells)
        placed.append(cells)
    return placed


def bead_plate(results: Iterable[Result], *, rows: int = ROWS) -> tuple[BeadCell, ...]:
    """Every result, column by column."""
    return tuple(BeadCell(col=i // rows, row=i % rows, result=r) for i, r in enumerate(results))


def big_road(results: Iterable[Result], *, rows: int = ROWS) -> BigRoad:
    """Banker and Player wins in streaks, ties counted on the win before them."""
    leading_ties = 0
    wins: list[Result] = []
    ties: list[int] = []
    streaks: list[int] = []
    for result in results:
        if result.winner is Winner.TIE:
            if ties:
                ties[-1] += 1
            else:
                leading_ties += 1
            continue
        if wins and wins[-1].winner is result.winner:
            streaks[-1] += 1
        else:
            streaks.append(1)
        wins.append(result)
        ties.append(0)
    cells: list[BigRoadCell] = []
    won = iter(zip(wins, ties, strict=True))
    for streak, coordinates in enumerate(lay_out(streaks, rows=rows)):
        for depth, (col, row) in enumerate(coordinates):
            result, tie_count = next(won)
            cells.append(
                BigRoadCell(
                    col=col,
                    row=row,
                    winner=result.winner,
                    ties=tie_count,
                    player_pair=result.player_pair,
                    banker_pair=result.banker_pair,
                    streak=streak,
                    depth=depth,
                )
            )
    return BigRoad(cells=tuple(cells), leading_ties=leading_ties)


def derived_colours(streaks: Sequence[int], cycle: int) -> list[Colour]:
    """The colour of each Big Road entry from the start point of the road of ``cycle``."""
    colours: list[Colour] = []
    for c, length in enumerate(streaks):  # c and depth count from 0 here
        for depth in range(length):
            if c < cycle or (c == cycle and depth == 0):
                continue  # before the start point
            if depth == 0:
                red = streaks[c - 1] == streaks[c - 1 - cycle]
            else:
                red = streaks[c - cycle] != depth  # blue: that column ended one row above
            colours.append(Colour.RED if red else Colour.BLUE)
    return colours


def derived_road(big: BigRoad, *, cycle: int, rows: int = ROWS) -> tuple[DerivedCell, ...]:
    """The derived road of ``cycle`` (1, 2 or 3), laid out like the Big Road."""
    colours = derived_colours(big.streaks, cycle)
    runs: list[int] = []
    for i, colour in enumerate(colours):
        if i and colour is colours[i - 1]:
            runs[-1] += 1
        else:
            runs.append(1)
    coordinates = [xy for run in lay_out(runs, rows=rows) for xy in run]
    return tuple(
        DerivedCell(col=col, row=row, colour=colour)
        for (col, row), colour in zip(coordinates, colours, strict=True)
    )


def big_eye_boy(big: BigRoad) -> tuple[DerivedCell, ...]:
    """Cycle 1: from column 2 row 2, or column 3 row 1."""
    return derived_road(big, cycle=Cycle.BIG_EYE_BOY)


def small_road(big: BigRoad) -> tuple[DerivedCell, ...]:
    """Cycle 2: from column 3 row 2, or column 4 row 1."""
    return derived_road(big, cycle=Cycle.SMALL_ROAD)


def cockroach_pig(big: BigRoad) -> tuple[DerivedCell, ...]:
    """Cycle 3: from column 4 row 2, or column 5 row 1."""
    return derived_road(big, cycle=Cycle.COCKROACH_PIG)


def tally(results: Iterable[Result]) -> Tally:
    """Count the wins of each hand, ties, pairs and Naturals."""
    listed = list(results)
    return Tally(
        banker=sum(r.winner is Winner.BANKER for r in listed),
        player=sum(r.winner is Winner.PLAYER for r in listed),
        tie=sum(r.winner is Winner.TIE for r in listed),
        banker_pairs=sum(r.banker_pair for r in listed),
        player_pairs=sum(r.player_pair for r in listed),
        naturals=sum(r.natural for r in listed),
    )


def roads(results: Iterable[Result]) -> Roads:
    """Every road of a shoe from its results in dealing order."""
    listed = list(results)
    big = big_road(listed)
    return Roads(
        bead_plate=bead_plate(listed),
        big_road=big,
        big_eye_boy=big_eye_boy(big),
        small_road=small_road(big),
        cockroach_pig=cockroach_pig(big),
        tally=tally(listed),
    )


__all__ = [
    "ROWS",
    "BeadCell",
    "BigRoad",
    "BigRoadCell",
    "Colour",
    "Coordinate",
    "Cycle",
    "DerivedCell",
    "Result",
    "Roads",
    "Tally",
    "bead_plate",
    "big_eye_boy",
    "big_road",
    "cockroach_pig",
    "derived_colours",
    "derived_road",
    "lay_out",
    "roads",
    "small_road",
    "tally",
]
