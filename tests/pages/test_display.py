"""The table display: the scoreboard page, its roads JSON, and the page in a real Chromium."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from baccarat.roads import roads
from tablegame.models import Round
from tests.chromium import CHROMIUM_ARGS
from tests.pages.conftest import play_shoe
from tests.record.chains import triggers_bypassed
from tests.tablegame.conftest import ready_table, table_for

SHOTS = Path(__file__).resolve().parents[2] / "test-output"
ROADS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig")
# Streaks of 2, 1, 3, 2, 1, 3, 3 wins with ties and pairs on the way: every road has cells.
SHOE = "T B Bb P B T B B Pp P B P P Tp P B B B"


def embedded_board(page: str) -> Any:
    """The roads document the page hands to display.js."""
    found = re.search(r'<script id="board-data" type="application/json">(.*?)</script>', page)
    assert found, "the page embeds no board data"
    return json.loads(found.group(1))


def road_cells(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    road = data[name]
    result: list[dict[str, Any]] = road["cells"] if name == "big_road" else road
    return result


def test_the_display_sends_an_anonymous_user_to_the_login_form(client: Client, seeded: str) -> None:
    table = table_for("ma-mini")
    for url in (f"/display/{table.pk}/", f"/display/{table.pk}/roads.json"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == f"/login/?next={url}"


def test_the_display_is_for_staff_with_a_role(client: Client, seeded: str) -> None:
    User.objects.create_user("visitor", password="baccarat")
    client.login(username="visitor", password="baccarat")
    table = table_for("ma-mini")
    assert client.get(f"/display/{table.pk}/").status_code == 403
    assert client.get(f"/display/{table.pk}/roads.json").status_code == 403


def test_a_table_that_never_dealt_shows_empty_roads(client: Client, seeded: str) -> None:
    client.login(username="surveillance", password="baccarat")
    table = table_for("ma-big")
    page = client.get(f"/display/{table.pk}/").content.decode()
    assert f'<span class="board-table">{table.name}</span>' in page
    board = embedded_board(page)
    assert board["shoe"] is None
    assert all(road_cells(board["roads"], name) == [] for name in ROADS)
    assert client.get("/display/999999/").status_code == 404


def test_the_display_shows_a_cell_for_every_result_of_the_shoe(
    client: Client, dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini", dealer, floor)
    play_shoe(table, dealer, SHOE)
    client.login(username="dealer", password="baccarat")
    response = client.get(f"/display/{table.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Massachusetts Minibaccarat" in page
    assert "Shoe <b data-shoe>1</b>" in page
    assert '<dd data-count="banker">9</dd>' in page
    assert '<dd data-count="player">6</dd>' in page
    assert '<dd data-count="tie">3</dd>' in page
    assert '<dd data-count="player_pairs">2</dd>' in page
    assert '<dd data-count="banker_pairs">1</dd>' in page
    for name in ROADS:
        assert f'data-road="{name}"' in page
    board = embedded_board(page)["roads"]
    # 18 results; 15 wins in streaks of 2, 1, 3, 2, 1, 3, 3; each derived road from its start
    # (Big Eye Boy 3.1, Small Road 3.2, Cockroach Pig 4.2).
    assert len(board["bead_plate"]) == 18
    assert len(board["big_road"]["cells"]) == 15
    assert board["big_road"]["leading_ties"] == 1
    assert len(board["big_eye_boy"]) == 15 - 3
    assert len(board["small_road"]) == 15 - 4
    assert len(board["cockroach_pig"]) == 15 - 7


def test_the_roads_json_is_baccarat_roads_of_the_shoe_without_simulated_or_void_rounds(
    client: Client, dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini", dealer, floor)
    results = play_shoe(table, dealer, SHOE)
    client.login(username="floor", password="baccarat")
    url = f"/display/{table.pk}/roads.json"
    data = client.get(url).json()
    assert data["table"] == {"id": table.pk, "name": "MB-1"}
    assert data["shoe"] == 1
    assert data["roads"] == roads(results).as_data()

    shoe_rounds = Round.objects.filter(table=table).order_by("number")
    with triggers_bypassed():  # settled rounds are final: made so as the tables' owner
        Round.objects.filter(pk=shoe_rounds[2].pk).update(simulated=True)
        Round.objects.filter(pk=shoe_rounds[5].pk).update(state=Round.State.VOID)
    response = client.get(url)
    assert response["Cache-Control"].startswith("max-age=0")
    kept = [r for i, r in enumerate(results) if i not in (2, 5)]
    assert response.json()["roads"] == roads(kept).as_data()


def test_a_round_still_being_dealt_is_not_on_the_board(
    client: Client, dealer: User, floor: User
) -> None:
    from tablegame import actions

    table = ready_table("ma-mini", dealer, floor)
    results = play_shoe(table, dealer, "B P")
    actions.open_round(table, actor=dealer)
    client.login(username="pitboss", password="baccarat")
    data = client.get(f"/display/{table.pk}/roads.json").json()
    assert data["roads"] == roads(results).as_data()


def test_the_board_holds_the_results_with_their_rounds_and_the_sequence_they_were_read_at(
    client: Client, dealer: User, floor: User
) -> None:
    from tablegame.selectors import last_sequence

    table = ready_table("ma-mini", dealer, floor)
    results = play_shoe(table, dealer, "T Bb Pp")
    client.login(username="floor", password="baccarat")
    data = client.get(f"/display/{table.pk}/roads.json").json()
    assert data["sequence"] == last_sequence(table)
    assert [r["round"] for r in data["results"]] == [1, 2, 3]
    assert data["results"][1] == {
        "round": 2,
        "winner": "banker",
        "player_pair": False,
        "banker_pair": True,
        "natural": results[1].natural,
        "player_total": results[1].player_total,
        "banker_total": results[1].banker_total,
    }
    assert embedded_board(client.get(f"/display/{table.pk}/").content.decode()) == data


def test_a_complete_coup_is_on_the_board_only_once_settled(
    client: Client, dealer: User, floor: User
) -> None:
    """As the display adds a round from its settlement's notice (a complete coup can still be
    corrected), roads.json shows it from its settlement too."""
    from collections import Counter

    from tablegame import actions
    from tests.pages.conftest import coup_cards

    table = ready_table("ma-mini", dealer, floor)
    results = play_shoe(table, dealer, "B P")
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="25", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    shoe = table.current_shoe()
    assert shoe is not None
    for card in coup_cards(Counter(shoe.remaining), "P", 2):
        actions.deal_card(table, card=card, actor=dealer)
    client.login(username="floor", password="baccarat")
    url = f"/display/{table.pk}/roads.json"
    assert Round.objects.get(table=table, number=3).state == Round.State.COMPLETE
    assert client.get(url).json()["roads"] == roads(results).as_data()
    actions.settle_round(table, actor=dealer)
    assert [r["round"] for r in client.get(url).json()["results"]] == [1, 2, 3]


# --- in Chromium ----------------------------------------------------------------------------------

# A long shoe: dragon tails on the Big Road and its derived roads, ties, pairs.
LONG_SHOE = (
    "T B Bb P B T B B Pp P B P P Tp P B B B "
    "B B B B Pb P B P B Tb B P P P P P P P P B T T B Bp P B P P B B P B T P P B "
    "B P Bpb P B B T P"
)


@pytest.fixture
def chromium() -> Any:
    """Debian's Chromium through Playwright. Started only once the test's rounds are played:
    Playwright's sync API runs an event loop in this thread, where the ORM would refuse to run."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def visible_window(cells: list[dict[str, Any]], columns: int) -> list[dict[str, Any]]:
    """The cells display.js draws when ``columns`` fit: the newest, with a free column after."""
    last = max((c["col"] for c in cells), default=-1)
    first = max(0, last + 2 - columns)
    return [c for c in cells if first <= c["col"] < first + columns]


def test_the_display_in_chromium_draws_every_road_and_follows_the_shoe(
    floor_staff: dict[str, User], live_server: Any, request: pytest.FixtureRequest
) -> None:
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    results = play_shoe(table, dealer, LONG_SHOE)
    expected = roads(results).as_data()

    browser = request.getfixturevalue("chromium")  # after the rounds: see the fixture
    page = browser.new_page(viewport={"width": 1920, "height": 1080})  # a TV
    url = f"{live_server.url}/display/{table.pk}/"
    page.goto(url)
    assert "/login/" in page.url
    page.fill("input[name=username]", "surveillance")
    page.fill("input[name=password]", "baccarat")
    page.click("button[type=submit]")
    page.wait_for_url(url)
    page.wait_for_selector("svg[data-road=big_road] g.cell")

    for name in ROADS:
        svg = page.locator(f"svg[data-road={name}]")
        columns = int(svg.get_attribute("viewBox").split()[2]) // 10
        shown = visible_window(road_cells(expected, name), columns)
        drawn = svg.locator("g.cell")
        assert drawn.count() == len(shown), name
        assert svg.get_attribute("data-cells") == str(len(road_cells(expected, name)))
        assert columns >= (6 if name in ("bead_plate", "small_road", "cockroach_pig") else 12)
    assert page.locator('[data-count="banker"]').inner_text() == str(expected["counts"]["banker"])
    assert page.locator("svg[data-road=big_road] .tie-mark").count() > 0
    assert page.locator("svg[data-road=bead_plate] .banker-pair").count() > 0

    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "display.png"))

    # The screen follows the table by itself (Live's notice, or the 5-second poll without it).
    in_thread(lambda: play_shoe(table, dealer, "P"))
    page.wait_for_function(
        f"document.querySelector('[data-count=rounds]').textContent === '{len(results) + 1}'",
        timeout=15_000,
    )
    assert page.locator('[data-count="player"]').inner_text() == str(
        expected["counts"]["player"] + 1
    )
    page.close()


def in_thread(call: Callable[[], object]) -> None:
    """Run ``call`` in a thread of its own: Playwright's event loop holds this one."""

    def run() -> None:
        try:
            call()
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
