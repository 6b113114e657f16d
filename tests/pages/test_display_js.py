"""The display's script (static/js/display.js with roads.js) in Node, with a stand-in page, Live
and Http (tests/pages/display_js_harness.js): which notices change the board, and when it reads
roads.json. The rule the load simulator replays: a table's notices fetch nothing; a read only when
the board cannot know what changed, or while the socket is down."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from baccarat.outcome import Winner
from baccarat.roads import Result, roads

ROOT = Path(__file__).resolve().parents[2]
ROADS_URL = "/display/7/roads.json"


@pytest.fixture(scope="module")
def run() -> Any:
    done = subprocess.run(
        [
            "node",
            str(Path(__file__).with_name("display_js_harness.js")),
            str(ROOT / "static/js/roads.js"),
            str(ROOT / "static/js/display.js"),
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return json.loads(done.stdout)


def test_the_page_draws_the_roads_of_its_results_and_tells_live_its_sequence(run: Any) -> None:
    loaded = run["loaded"]
    assert loaded["watched"] == 20  # the first hello reads again only if the table changed since
    assert loaded["requests"] == 0
    assert loaded["shoeShown"] == "4"
    expected = roads(
        [Result(winner=Winner.TIE), Result(winner=Winner.BANKER, banker_pair=True)]
    ).as_data()
    assert loaded["roads"] == expected
    assert loaded["counts"] == {k: str(v) for k, v in expected["counts"].items()}


def test_a_round_being_dealt_changes_nothing_and_fetches_nothing(run: Any) -> None:
    assert run["dealt"]["rounds"] == [1, 2]
    assert run["dealt"]["requests"] == 0


def test_the_settled_rounds_notice_adds_its_result_without_a_request(run: Any) -> None:
    settled = run["settled"]
    assert settled["rounds"] == [1, 2, 3]
    assert settled["results"][2] == {
        "round": 3,
        "winner": "player",
        "player_pair": True,
        "banker_pair": False,
        "natural": True,
        "player_total": 9,
        "banker_total": 6,
    }
    assert settled["counts"]["player_pairs"] == "1" and settled["counts"]["naturals"] == "1"
    assert settled["requests"] == 0


def test_a_round_already_held_a_simulated_or_undecided_round_is_not_added(run: Any) -> None:
    assert run["again"]["rounds"] == [1, 2, 3]
    assert run["unshown"]["rounds"] == [1, 2, 3]
    assert run["tie"]["rounds"] == [1, 2, 3, 6]
    assert run["tie"]["counts"]["tie"] == "2"
    assert run["unshown"]["requests"] == run["tie"]["requests"] == 0


def test_a_new_shoe_starts_an_empty_board_and_its_rounds_fill_it(run: Any) -> None:
    assert run["ended"]["shoe"] == 4 and run["ended"]["rounds"] == [1, 2, 3, 6]
    assert run["received"]["shoe"] == 5 and run["received"]["shoeShown"] == "5"
    assert run["received"]["rounds"] == [] and run["received"]["counts"]["rounds"] == "0"
    assert run["readied"]["rounds"] == []
    assert run["newShoe"]["rounds"] == [1]
    assert run["requestsSoFar"] == []  # a whole shoe's notices: not one request


@pytest.mark.parametrize(
    "why",
    ["noChange", "gap", "hello", "outsideCommand", "otherShoe", "newShoeWithoutShoe"],
)
def test_what_the_board_cannot_know_reads_roads_json_once(run: Any, why: str) -> None:
    case = run["unknowable"][why]
    assert case["urls"] == [ROADS_URL]
    assert case["asked"]["rounds"] == [1]  # nothing guessed meanwhile
    answered = case["answered"]
    assert (answered["shoe"], answered["sequence"], answered["rounds"]) == (5, 60, [1, 2])
    assert answered["counts"]["rounds"] == "2"


def test_a_read_keeps_the_settlements_that_came_while_it_ran(run: Any) -> None:
    assert run["inFlight"]["requests"] == 1  # the second hello waits for the first read
    assert run["inFlight"]["rounds"] == [1, 2, 3]
    answered = run["inFlightAnswered"]
    assert (answered["sequence"], answered["rounds"]) == (56, [1, 2, 3])
    assert answered["requests"] == 1


def test_a_gap_newer_than_the_answer_of_a_read_reads_once_more(run: Any) -> None:
    assert run["gapDuringRead"]["requests"] == 2
    assert run["gapDuringReadAnswered"]["requests"] == 2
    assert run["gapDuringReadAnswered"]["sequence"] == 60
    assert run["oldGapDuringRead"]["requests"] == 1  # the answer was newer than the gap


def test_a_failed_read_keeps_the_board_and_a_lost_session_reloads(run: Any) -> None:
    assert run["failed"]["stale"] is True and run["failed"]["rounds"] == [1]
    assert run["loggedOut"]["reloads"] == 1


def test_while_the_socket_is_down_it_reads_every_five_seconds(run: Any) -> None:
    assert run["closed"]["intervals"] == [5000] and run["closed"]["live"] == "closed"
    assert run["polled"]["requests"] == 1
    assert run["reopened"]["intervals"] == [] and run["reopened"]["live"] == "open"
