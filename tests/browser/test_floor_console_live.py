"""The pit console and the surveillance wall follow a table from its notices alone, in real
Chromium over Daphne's sockets: a shoe from its decks to its burn, rounds with a marker, a void
and the cut card, each tile kept current in place, and what it shows always what the server
draws for the tile. A tile is read again only for what a notice does not carry (the table
opened, new decks; on the wall, the first round of a shoe too)."""

from __future__ import annotations

import json
import urllib.request
import uuid
from typing import Any

from django.contrib.auth.models import User

from baccarat.seating import cut_offer_order
from tablegame import actions
from tablegame.api.tokens import issue_api_token
from tests.browser.conftest import log_in, shot
from tests.tablegame.conftest import deal_at, shuffle_steps, table_for

#: The commands after which the console may read the tile: what their notice does not carry.
READ_AFTER = {"open/", "shoe/receive/"}
#: And the wall: its tile shows the round on the layout, which a new shoe's first round makes.
WALL_READ_AFTER = {*READ_AFTER, "first round/open/"}

WALL_FRESH_TEXT = """url => fetch(url).then(r => r.text()).then(html => {
  const t = document.createElement('template'); t.innerHTML = html.trim();
  const box = document.createElement('div'); box.style.width = '400px'; box.className = 'wall';
  box.append(t.content.firstElementChild); document.body.append(box);
  const text = box.firstElementChild.innerText; box.remove(); return text; })"""

FRESH_TEXT = """url => fetch(url).then(r => r.text()).then(html => {
  const t = document.createElement('template'); t.innerHTML = html.trim();
  const box = document.createElement('div'); box.className = 'tiles'; box.style.width = '20rem';
  box.append(t.content.firstElementChild); document.getElementById('floor').append(box);
  const text = box.firstElementChild.innerText; box.remove(); return text; })"""


def send(url: str, token: str, route: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        url + route,
        data=json.dumps(body or {}).encode(),
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        },
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
        result: dict[str, Any] = json.loads(answer.read())
        return result


def test_a_tile_follows_its_table_from_the_notices_as_the_server_draws_it(
    floor_staff, daphne, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.file_rules(
        table, profile="s42-mini", options={"vigorish_collection": "deferred"}, actor=floor
    )
    tokens = {
        who: issue_api_token(User.objects.get(username=who))[1] for who in ("dealer", "floor")
    }
    api = f"{daphne.url}/api/tables/{table.pk}/"
    steps = shuffle_steps(table)
    declined = cut_offer_order(table.rules, [1, 2], last_curator=None)
    chromium = browser.start()
    console = log_in(chromium, daphne, "floor")
    console.set_viewport_size({"width": 1024, "height": 768})
    reads: list[str] = []
    console.on("request", lambda r: reads.append(r.url) if "/tile/" in r.url else None)
    console.goto(f"{daphne.url}/floor/")
    tile = console.locator(f".tile[data-table='{table.pk}']")
    tile.wait_for()
    console.wait_for_selector("#live-status:text-is('Live')")
    url = tile.get_attribute("data-url")
    wall = log_in(chromium, daphne, "surveillance")
    wall_reads: list[str] = []
    wall.on("request", lambda r: wall_reads.append(r.url) if "/tile/" in r.url else None)
    wall.goto(f"{daphne.url}/surveillance/")
    wall_tile = wall.locator(f"#table-{table.pk}")
    wall_tile.wait_for()
    wall.wait_for_selector("#live-status:text-is('Live')")
    wall_url = wall_tile.get_attribute("data-url")
    rounds = {"opened": 0}

    def sequence() -> int:
        return int(tile.get_attribute("data-sequence") or 0)

    def step(route: str, body: dict[str, Any] | None = None, who: str = "dealer") -> dict[str, Any]:
        before, read, wall_read = sequence(), len(reads), len(wall_reads)
        answer = send(api, tokens[who], route, body)
        console.wait_for_function(
            f"() => Number(document.querySelector('.tile[data-table=\"{table.pk}\"]')"
            f".dataset.sequence) >= {answer['sequence']}"
        )
        wall.wait_for_function(
            f"() => Number(document.querySelector('#table-{table.pk}').dataset.sequence)"
            f" >= {answer['sequence']}"
        )
        assert sequence() > before
        if route not in READ_AFTER:
            assert len(reads) == read, f"{route}: the tile was read again"
        first = "first " if route == "round/open/" and not rounds["opened"] else ""
        rounds["opened"] += route == "round/open/"
        if first + route not in WALL_READ_AFTER:
            assert len(wall_reads) == wall_read, f"{route}: the wall read the tile again"
        shown = " ".join(tile.inner_text().split())
        fresh = " ".join(console.evaluate(FRESH_TEXT, url).split())
        assert shown == fresh, f"after {route}"
        shown = " ".join(wall_tile.inner_text().split())
        # The strip of significant events marks the tile with its newest (a void) in the page:
        # no part of the tile the server draws (surveillance_significant.js).
        for mark in wall_tile.locator(".sig-mark").all():
            shown = " ".join(shown.replace(" ".join(mark.inner_text().split()), "").split())
        fresh = " ".join(wall.evaluate(WALL_FRESH_TEXT, wall_url).split())
        assert shown == fresh, f"the wall, after {route}"
        return answer

    step("open/")
    step("seats/1/sit/", {"player": "Ann"})
    step("seats/2/sit/", {"player": "Bo"})
    step("shoe/receive/", {"decks": 8})
    step("shoe/inspect/")
    assert "Verify the deck inspection" in tile.inner_text()
    step("shoe/verify/", who="floor")
    step("shoe/spread/")
    step("shoe/wash/")
    step("shoe/shuffle/", {"steps": steps})
    if "feather" in steps:
        step("shoe/verify-shuffle/", who="floor")
    cut = {"seat": None, "declined": declined, "position": 120, "cover_from_back": 20}
    step("shoe/cut/", cut)
    step("shoe/burn/", {"first_card": "3D"})
    step("round/open/")
    step("round/wagers/", {"seat": 2, "type": "banker", "amount": "100"})
    step("round/no-more-bets/")
    void = tile.locator("button[data-when=void]")
    assert void.get_attribute("hidden") is None and void.text_content() == "Void round 1"
    for card in ("4H", "9C", "2S", "KS"):
        step("round/cards/", {"card": card})
    assert void.get_attribute("hidden") is not None
    settled = step("round/settle/")
    assert "1 vigorish marker(s) open" in tile.inner_text()
    shot(console, "floor-console-marker")
    step("round/open/")
    step("round/no-more-bets/")
    step("round/cards/", {"card": "5H"})
    step("round/void/", {"reason": "Cards dropped"}, who="floor")
    step(f"markers/{settled['markers'][0]['id']}/collect/")
    step("shoe/cut-card/")
    assert "Cut card out in round 3: last hand, then reshuffle" in tile.inner_text()
    assert reads and all(read == daphne.url + url for read in reads)
    shot(console, "floor-console-closed")
    browser.stop()
