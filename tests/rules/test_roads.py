"""The scoreboard roads: known answers worked by hand, and properties over any shoe.

Results are written as tokens: ``B``, ``P`` or ``T`` for the winner, then ``b`` for a Banker
pair, ``p`` for a Player pair, ``n`` for a Natural (``Bbp`` is a Banker win with both pairs).
Grids are drawn as text, one line per row from the top: ``B``/``P`` (Big Road), ``r``/``b``
(red/blue on a derived road), ``.`` for an empty cell.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from hypothesis import given
from hypothesis import strategies as st

from baccarat.outcome import Outcome, Winner
from baccarat.roads import (
    ROWS,
    BigRoadCell,
    Colour,
    DerivedCell,
    Result,
    Tally,
    bead_plate,
    big_eye_boy,
    big_road,
    cockroach_pig,
    derived_colours,
    derived_road,
    roads,
    small_road,
)

WINNERS = {"B": Winner.BANKER, "P": Winner.PLAYER, "T": Winner.TIE}


def shoe(tokens: str) -> list[Result]:
    """Results from tokens such as ``"B Pp T Bbn"`` or ``"BBPT"``; spaces only for reading."""
    words = re.findall(r"[BPT][bpn]*", tokens)
    assert "".join(words) == "".join(tokens.split()), tokens
    return [
        Result(
            winner=WINNERS[w[0]],
            banker_pair="b" in w[1:],
            player_pair="p" in w[1:],
            natural="n" in w[1:],
        )
        for w in words
    ]


def picture(cells: Iterable[BigRoadCell | DerivedCell]) -> str:
    """The grid as text: 6 lines, as wide as the rightmost cell."""
    marks: dict[tuple[int, int], str] = {}
    for cell in cells:
        if isinstance(cell, BigRoadCell):
            marks[cell.col, cell.row] = "B" if cell.winner is Winner.BANKER else "P"
        else:
            marks[cell.col, cell.row] = "r" if cell.colour is Colour.RED else "b"
    width = max((col for col, _ in marks), default=-1) + 1
    return "\n".join(
        "".join(marks.get((col, row), ".") for col in range(width)) for row in range(ROWS)
    )


def colours(sequence: Iterable[Colour]) -> str:
    """Derived-road colours in order as ``r`` and ``b``."""
    return "".join("r" if c is Colour.RED else "b" for c in sequence)


def grid(text: str) -> str:
    """An expected picture written indented in a test."""
    return "\n".join(line.strip() for line in text.strip().splitlines())


# --- Bead Plate -----------------------------------------------------------------------------------


def test_the_bead_plate_fills_every_result_column_by_column_ties_included() -> None:
    cells = bead_plate(shoe("T B Pp T Bb P Pn T"))
    assert [(c.col, c.row, c.result.winner.value[0].upper()) for c in cells] == [
        (0, 0, "T"),
        (0, 1, "B"),
        (0, 2, "P"),
        (0, 3, "T"),
        (0, 4, "B"),
        (0, 5, "P"),
        (1, 0, "P"),
        (1, 1, "T"),
    ]
    assert cells[2].result.player_pair and cells[4].result.banker_pair
    assert cells[6].result.natural


# --- Big Road -------------------------------------------------------------------------------------


def test_ties_before_the_first_win_are_kept_as_leading_ties() -> None:
    road = big_road(shoe("TTB"))
    assert road.leading_ties == 2
    assert [(c.col, c.row, c.winner, c.ties) for c in road.cells] == [(0, 0, Winner.BANKER, 0)]


def test_a_shoe_of_ties_only_has_no_cell_and_every_tie_leading() -> None:
    road = big_road(shoe("TTT"))
    assert road.cells == () and road.leading_ties == 3


def test_a_tie_marks_the_win_before_it_and_a_change_of_winner_starts_a_column() -> None:
    road = big_road(shoe("T B P P T T Bb T Pp"))
    assert road.leading_ties == 1
    assert picture(road.cells) == grid(
        """
        BPBP
        .P..
        ....
        ....
        ....
        ....
        """
    )
    assert [(c.col, c.row, c.ties, c.banker_pair, c.player_pair) for c in road.cells] == [
        (0, 0, 0, False, False),
        (1, 0, 0, False, False),
        (1, 1, 2, False, False),
        (2, 0, 1, True, False),
        (3, 0, 0, False, True),
    ]


def test_a_streak_longer_than_six_turns_right_along_the_bottom_row() -> None:
    road = big_road(shoe("BBBBBBBB P B"))
    assert picture(road.cells) == grid(
        """
        BPB
        B..
        B..
        B..
        B..
        BBB
        """
    )
    assert [(c.col, c.row, c.depth) for c in road.cells[5:8]] == [(0, 5, 5), (1, 5, 6), (2, 5, 7)]


def test_a_streak_turns_right_early_above_an_older_tail() -> None:
    # 8 Banker (tail along row 6), 1 Player, 7 Banker: the third column meets the tail at row 6
    # and turns right at row 5; the next Player starts at the top of the fourth column.
    road = big_road(shoe("BBBBBBBB P BBBBBBB P"))
    assert picture(road.cells) == grid(
        """
        BPBP.
        B.B..
        B.B..
        B.B..
        B.BBB
        BBB..
        """
    )
    third = [(c.col, c.row) for c in road.cells if c.streak == 2]
    assert third == [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (3, 4), (4, 4)]


def test_tails_nest_upwards_and_a_tail_along_the_top_row_pushes_the_next_streak_past_it() -> None:
    # Each Banker streak is one shorter than the last and meets the older tail one row higher,
    # until the sixth turns right along the top row; the Player streak after it starts beyond.
    road = big_road(shoe("BBBBBBBB P BBBBBBB P BBBBBB P BBBBB P BBBB P BBB PPP BB"))
    assert picture(road.cells) == grid(
        """
        BPBPBPBPBPBBBPB
        B.B.B.B.BBB..PB
        B.B.B.BBB....P.
        B.B.BBB........
        B.BBB..........
        BBB............
        """
    )
    top_tail = [(c.col, c.row) for c in road.cells if c.streak == 10]
    assert top_tail == [(10, 0), (11, 0), (12, 0)]


# --- derived roads --------------------------------------------------------------------------------

# Big Road of "BBPBBBPPBPPPBBB": streaks 2, 1, 3, 2, 1, 3, 3.
#
#   column  1 2 3 4 5 6 7
#   row 1   B P B P B P B
#   row 2   B . B P . P B
#   row 3   . . B . . P B
WORKED = "BBPBBBPPBPPPBBB"


def test_the_worked_big_road_has_the_streaks_drawn_in_the_comment() -> None:
    road = big_road(shoe(WORKED))
    assert road.streaks == (2, 1, 3, 2, 1, 3, 3)
    assert picture(road.cells) == grid(
        """
        BPBPBPB
        B.BP.PB
        ..B..PB
        .......
        .......
        .......
        """
    )


def test_big_eye_boy_compares_one_column_back_from_column_3_when_column_2_is_one_win() -> None:
    # Column 2 has one entry, so Big Eye Boy starts at column 3 row 1.
    # 3.1: columns 2 and 1 have 1 and 2 entries: blue.   3.2: column 2 ended at row 1: blue.
    # 3.3: column 2 has neither row 3 nor row 2: red.     4.1: 3 vs 1: blue.
    # 4.2: column 3 has a row 2: red.                     5.1: 2 vs 3: blue.
    # 6.1: 1 vs 2: blue.  6.2: column 5 ended at row 1: blue.  6.3: red.  7.1: 3 vs 1: blue.
    # 7.2: column 6 has a row 2: red.   7.3: column 6 has a row 3: red.
    big = big_road(shoe(WORKED))
    assert colours(derived_colours(big.streaks, 1)) == "bbrbr bbbrb rr".replace(" ", "")
    assert picture(big_eye_boy(big)) == grid(
        """
        brbrbrbr
        b...b..r
        ....b...
        ........
        ........
        ........
        """
    )


def test_small_road_compares_two_columns_back_from_column_3_row_2() -> None:
    # Column 3 has a row 2, so the Small Road starts there.
    # 3.2: column 1 has a row 2: red.    3.3: column 1 ended at row 2: blue.
    # 4.1: columns 3 and 1: 3 vs 2: blue.  4.2: column 2 ended at row 1: blue.
    # 5.1: 2 vs 1: blue.  6.1: 1 vs 3: blue.  6.2: column 4 has a row 2: red.
    # 6.3: column 4 ended at row 2: blue.  7.1: 3 vs 2: blue.  7.2: column 5 ended at row 1: blue.
    # 7.3: column 5 has neither row 3 nor row 2: red.
    big = big_road(shoe(WORKED))
    assert colours(derived_colours(big.streaks, 2)) == "rbbbb brbbb r".replace(" ", "")
    assert picture(small_road(big)) == grid(
        """
        rbrbr
        .b.b.
        .b.b.
        .b...
        .b...
        .....
        """
    )


def test_cockroach_pig_compares_three_columns_back_and_its_red_streak_grows_a_tail() -> None:
    # Column 4 has a row 2, so the Cockroach Pig starts there.
    # 4.2: column 1 has a row 2: red.   5.1: columns 4 and 1: 2 vs 2: red.
    # 6.1: columns 5 and 2: 1 vs 1: red.  6.2, 6.3: column 3 has rows 2 and 3: red, red.
    # 7.1: columns 6 and 3: 3 vs 3: red.  7.2: column 4 has a row 2: red.
    # 7.3: column 4 ended at row 2: blue.  Seven reds: the seventh turns right along the bottom.
    big = big_road(shoe(WORKED))
    assert colours(derived_colours(big.streaks, 3)) == "rrrrrrrb"
    cells = cockroach_pig(big)
    assert picture(cells) == grid(
        """
        rb
        r.
        r.
        r.
        r.
        rr
        """
    )
    assert cells[6] == DerivedCell(col=1, row=5, colour=Colour.RED)
    assert cells[7] == DerivedCell(col=1, row=0, colour=Colour.BLUE)


def test_a_derived_road_starts_at_row_2_of_its_column_when_there_is_one() -> None:
    # Streaks 1, 2: Big Eye Boy's first entry is column 2 row 2 (column 1 ended at row 1: blue).
    big = big_road(shoe("BPP"))
    assert big_eye_boy(big) == (DerivedCell(col=0, row=0, colour=Colour.BLUE),)
    assert small_road(big) == () and cockroach_pig(big) == ()


def test_a_choppy_shoe_is_all_red_on_every_derived_road() -> None:
    # B P B P ...: every column has one entry, so every new column repeats the one k back.
    big = big_road(shoe("BP" * 6))
    for road in (big_eye_boy(big), small_road(big), cockroach_pig(big)):
        assert {c.colour for c in road} == {Colour.RED}
    assert picture(big_eye_boy(big)) == grid(
        """
        r....
        r....
        r....
        r....
        r....
        rrrrr
        """
    )
    assert len(small_road(big)) == 9 and len(cockroach_pig(big)) == 8


def test_the_whole_scoreboard_counts_wins_ties_pairs_and_naturals() -> None:
    board = roads(shoe("T Bbn Pp T P Bbpn"))
    assert board.tally == Tally(
        banker=2, player=2, tie=2, banker_pairs=2, player_pairs=2, naturals=2
    )
    data = board.as_data()
    assert data["counts"]["rounds"] == 6
    assert data["big_road"] == {
        "leading_ties": 1,
        "cells": [
            {"col": 0, "row": 0, "winner": "banker", "ties": 0, "player_pair": False,
             "banker_pair": True},
            {"col": 1, "row": 0, "winner": "player", "ties": 1, "player_pair": True,
             "banker_pair": False},
            {"col": 1, "row": 1, "winner": "player", "ties": 0, "player_pair": False,
             "banker_pair": False},
            {"col": 2, "row": 0, "winner": "banker", "ties": 0, "player_pair": True,
             "banker_pair": True},
        ],
    }  # fmt: skip
    assert data["bead_plate"][1] == {
        "col": 0,
        "row": 1,
        "winner": "banker",
        "player_pair": False,
        "banker_pair": True,
        "natural": True,
        "player_total": None,
        "banker_total": None,
    }


def test_a_result_is_read_from_a_classified_coup() -> None:
    outcome = Outcome(
        player_total=8, banker_total=3, player_cards=2, banker_cards=3, player_pair=True
    )
    assert Result.of(outcome) == Result(
        winner=Winner.PLAYER, player_pair=True, natural=True, player_total=8, banker_total=3
    )


# --- properties -----------------------------------------------------------------------------------

results = st.builds(
    Result,
    winner=st.sampled_from(list(Winner)),
    player_pair=st.booleans(),
    banker_pair=st.booleans(),
    natural=st.booleans(),
)
# Long streaks as well as choppy ones, so that tails nest and turn early.
runs = st.lists(
    st.tuples(st.sampled_from(list(Winner)), st.integers(min_value=1, max_value=9)), max_size=30
)
shoes = st.one_of(
    st.lists(results, max_size=90),
    runs.map(lambda rs: [Result(winner=w) for w, n in rs for _ in range(n)]),
)


def entries_from_start(cells: Sequence[BigRoadCell], cycle: int) -> int:
    """Big Road entries at or after column cycle+1 row 2 (or column cycle+2 row 1)."""
    return sum(c.streak > cycle or (c.streak == cycle and c.depth > 0) for c in cells)


@given(shoes)
def test_every_win_is_on_the_big_road_once_in_order_and_every_tie_is_counted(
    shoe_results: list[Result],
) -> None:
    road = big_road(shoe_results)
    wins = [r for r in shoe_results if r.winner is not Winner.TIE]
    assert [c.winner for c in road.cells] == [r.winner for r in wins]
    assert [(c.player_pair, c.banker_pair) for c in road.cells] == [
        (r.player_pair, r.banker_pair) for r in wins
    ]
    assert len({(c.col, c.row) for c in road.cells}) == len(road.cells)
    assert all(0 <= c.row < ROWS for c in road.cells)
    assert road.leading_ties + sum(c.ties for c in road.cells) == len(shoe_results) - len(wins)
    assert len(bead_plate(shoe_results)) == len(shoe_results)


@given(shoes)
def test_derived_roads_have_one_entry_per_big_road_entry_after_their_start(
    shoe_results: list[Result],
) -> None:
    big = big_road(shoe_results)
    for cycle in (1, 2, 3):
        road = derived_road(big, cycle=cycle)
        assert len(road) == entries_from_start(big.cells, cycle)
        assert len({(c.col, c.row) for c in road}) == len(road)
        assert all(0 <= c.row < ROWS for c in road)


@given(shoes, st.integers(min_value=0, max_value=90))
def test_a_new_result_never_moves_a_cell_already_drawn(
    shoe_results: list[Result], cut: int
) -> None:
    before, after = roads(shoe_results[:cut]), roads(shoe_results)
    assert after.bead_plate[: len(before.bead_plate)] == before.bead_plate
    drawn = [(c.col, c.row, c.winner) for c in after.big_road.cells]
    assert drawn[: len(before.big_road.cells)] == [
        (c.col, c.row, c.winner) for c in before.big_road.cells
    ]
    for name in ("big_eye_boy", "small_road", "cockroach_pig"):
        earlier, later = getattr(before, name), getattr(after, name)
        assert later[: len(earlier)] == earlier
