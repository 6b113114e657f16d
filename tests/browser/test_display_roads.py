"""The table display in Chromium over Daphne's sockets: rounds settled over the API while it is
open are drawn from their notices, as the server draws them, without a request to roads.json; a
new shoe starts an empty board the same way; only a lost notice (a gap) or a reconnect after
changes reads roads.json, once each."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
import uuid
from collections import Counter
from typing import Any

from tablegame.api.tokens import issue_api_token
from tablegame.models import Table
from tablegame.views_display import scoreboard
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.pages.conftest import coup_cards, play_shoe
from tests.pages.test_display import ROADS, road_cells, visible_window
from tests.tablegame.conftest import _cut_order, ready_table
from tests.values import present

# Installed in the page before its scripts. The intervals of 5 s and more (the display's poll
# while the socket is down) are held, run only by
# window.__tick(ms): on a busy machine the test takes longer than 30 s, and a read on the clock
# would be none of the test's doing. While window.__drop is set, the sockets' messages are
# dropped (kept in each socket's __dropped): a notice lost on the way.
HARNESS = """
(() => {
  const held = [];
  const setEvery = window.setInterval.bind(window);
  const clearEvery = window.clearInterval.bind(window);
  window.setInterval = (call, ms, ...args) => {
    if (ms < 5000) return setEvery(call, ms, ...args);
    held.push({ call, ms });
    return 1e6 + held.length;
  };
  window.clearInterval = (id) => {
    if (id > 1e6) held[id - 1e6 - 1] = null;
    else clearEvery(id);
  };
  window.__tick = (ms) => held.forEach((h) => { if (h && h.ms === ms) h.call(); });
  window.__drop = false;
  window.__sockets = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.__dropped = [];
      window.__sockets.push(this);
    }
    set onmessage(handler) {
      super.onmessage = (event) => {
        if (window.__drop) this.__dropped.push(JSON.parse(event.data));
        else handler.call(this, event);
      };
    }
    get onmessage() {
      return super.onmessage;
    }
  };
})();
"""

# Settled while the display is open: a streak of eight Banker wins (a dragon tail), a tie, pairs.
LIVE_ROUNDS = "P P Pp P B T Bb B B B B B B B P"
NEXT_SHOE = "B T P"

# Every open socket of the page (the display's, the progressive strip's) lost a settlement.
DROPPED_SETTLEMENT = """() => window.__sockets.filter(s => s.readyState === WebSocket.OPEN)
  .every(s => s.__dropped.some(m => m.change && m.change.events.some(
    e => e.action === 'round_settled')))"""
DROP = "() => { window.__drop = true; window.__sockets.forEach(s => { s.__dropped = []; }); }"


class Dealer:
    """The dealer's tablet as the API sees it: commands with a token and an Idempotency-Key."""

    def __init__(self, url: str, table: Table, token: str, stock: Counter[str]) -> None:
        self.url, self.table_id, self.token, self.stock = url, table.pk, token, stock
        self.turn = 0

    def send(self, route: str, body: dict[str, Any] | None = None) -> None:
        request = urllib.request.Request(
            f"{self.url}/api/tables/{self.table_id}/{route}",
            data=json.dumps(body or {}).encode(),
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=20) as answer:
                assert answer.status == 200
        except urllib.error.HTTPError as refusal:
            raise AssertionError(f"{route} {body}: {refusal.code} {refusal.read()!r}") from None

    def open_round(self) -> None:
        self.send("round/open/")
        self.send("round/wagers/", {"seat": 1, "type": "banker", "amount": "25"})
        self.send("round/no-more-bets/")

    def finish_round(self, token: str) -> None:
        """The four cards of a coup with the result ``token`` (``B``, ``Pp``...), then settle."""
        for card in coup_cards(self.stock, token, self.turn):
            self.send("round/cards/", {"card": card})
        self.turn += 1
        self.send("round/settle/")

    def play(self, token: str) -> None:
        self.open_round()
        self.finish_round(token)


def server_board(table: Table) -> dict[str, Any]:
    """What roads.json answers now (read off Playwright's loop)."""
    found: list[dict[str, Any]] = []
    off_the_loop(lambda: found.append(scoreboard(Table.objects.get(pk=table.pk))))
    return found[0]


def remaining(table: Table) -> Counter[str]:
    found: list[Counter[str]] = []
    off_the_loop(
        lambda: found.append(
            Counter(present(Table.objects.get(pk=table.pk).current_shoe()).remaining)
        )
    )
    return found[0]


def wait_for_rounds(page: Any, count: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('[data-count=rounds]').textContent === String(n)",
        arg=count,
        timeout=15_000,
    )


def assert_drawn_as_the_server_draws(page: Any, table: Table) -> dict[str, Any]:
    """The script's roads are the server's; each road draws the server's cells that fit."""
    board = server_board(table)
    state = page.evaluate("() => window.Scoreboard.state()")
    assert state["results"] == board["results"]
    assert state["roads"] == board["roads"]
    assert state["shoe"] == board["shoe"]
    for name in ROADS:
        svg = page.locator(f"svg[data-road={name}]")
        cells = road_cells(board["roads"], name)
        assert svg.get_attribute("data-cells") == str(len(cells)), name
        columns = int(svg.get_attribute("viewBox").split()[2]) // 10
        drawn = svg.locator("g.cell").evaluate_all(
            "cells => cells.map(c => [Number(c.dataset.col), Number(c.dataset.row)])"
        )
        assert sorted(map(tuple, drawn)) == sorted(
            (c["col"], c["row"]) for c in visible_window(cells, columns)
        ), name
    for key, value in board["roads"]["counts"].items():
        assert page.locator(f"[data-count={key}]").inner_text() == str(value)
    assert page.locator("[data-shoe]").inner_text() == str(board["shoe"])
    return board


def test_settled_rounds_are_drawn_from_their_notices_and_only_a_lost_notice_reads_roads_json(
    floor_staff: Any, daphne: Any, browser: Any
) -> None:
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    play_shoe(table, dealer, "T B Bb")  # a leading tie and a pair on the board already
    _, token = issue_api_token(dealer)
    tablet = Dealer(daphne.url, table, token, Counter(present(table.current_shoe()).remaining))
    tablet.turn = 3
    declined = _cut_order(table)

    page = log_in(browser.start(), daphne, "surveillance")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.add_init_script(HARNESS)
    reads: list[str] = []
    page.on("request", lambda r: reads.append(r.url) if "/roads.json" in r.url else None)
    page.goto(f"{daphne.url}/display/{table.pk}/")
    page.wait_for_function("() => document.body.dataset.live === 'open'")
    wait_for_rounds(page, 3)

    # A shoe's rounds settled on the tablet: each drawn from its settlement's notice.
    shown = 3
    for result in LIVE_ROUNDS.split():
        tablet.play(result)
        shown += 1
        wait_for_rounds(page, shown)
    assert_drawn_as_the_server_draws(page, table)
    shot(page, "display-roads-1024x768")
    assert reads == []

    # The shoe ends and the next one arrives: an empty board; its first round fills it.
    tablet.send("shoe/end/")
    tablet.send("shoe/receive/", {"decks": 8, "preinspected": True})
    page.wait_for_function("() => document.querySelector('[data-shoe]').textContent === '2'")
    wait_for_rounds(page, 0)
    tablet.send(
        "shoe/cut/", {"seat": None, "position": 120, "cover_from_back": 20, "declined": declined}
    )
    tablet.send("shoe/burn/", {"first_card": "3D"})
    tablet.stock, tablet.turn = remaining(table), 0
    for shown, result in enumerate(NEXT_SHOE.split(), start=1):
        tablet.play(result)
        wait_for_rounds(page, shown)
    assert_drawn_as_the_server_draws(page, table)
    assert reads == []  # a whole shoe and the next one's start: not one read

    # A settlement's notice lost: the next notice shows the gap, and roads.json is read once.
    page.evaluate(DROP)
    tablet.play("Pp")
    page.wait_for_function(DROPPED_SETTLEMENT)
    page.evaluate("() => { window.__drop = false; }")
    tablet.open_round()
    wait_for_rounds(page, 4)
    assert len(reads) == 1
    tablet.finish_round("P")
    wait_for_rounds(page, 5)
    assert_drawn_as_the_server_draws(page, table)
    assert len(reads) == 1  # the notices after it are followed again without a read

    # Changes while the socket was down: the hello on reconnecting reads roads.json once.
    page.evaluate(DROP)
    tablet.play("B")
    page.wait_for_function(DROPPED_SETTLEMENT)
    page.evaluate("() => { window.__drop = false; window.__sockets.forEach(s => s.close()); }")
    wait_for_rounds(page, 6)
    page.wait_for_function("() => document.body.dataset.live === 'open'")
    assert len(reads) == 2
    assert_drawn_as_the_server_draws(page, table)

    tablet.play("T")
    wait_for_rounds(page, 7)
    assert_drawn_as_the_server_draws(page, table)
    assert len(reads) == 2
    shot(page, "display-roads-1024x768-second-shoe")
