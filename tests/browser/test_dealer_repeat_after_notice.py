"""A round settled from another screen reaches the tablet as a notice that withholds the last
round's wagers (every screen following the table hears it, issue 28): the tablet reads the state
again, as its own dealer may, and still offers to repeat them."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.test import APIClient

from tablegame.broadcast import notice_change, notice_frame
from tests.browser.conftest import log_in, off_the_loop
from tests.browser.test_dealer_stale_read import KEEP_SOCKETS
from tests.tablegame.conftest import ready_table

#: A notice, on the tablet's socket, as the server sends it (this live server has no sockets).
NOTICE = """(frame) => {
    const socket = window.__sockets[window.__sockets.length - 1];
    socket.onmessage({ data: frame });
}"""


def test_the_tablet_reads_the_withheld_wagers_to_repeat(floor_staff, live_server, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.add_init_script(KEEP_SOCKETS)
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("text=Place your bets: open the round")

    # The floor plays a round at the table from another screen.
    frames: list[str] = []

    def play() -> None:
        floor = APIClient()
        floor.force_login(floor_staff["floor"])
        api = f"/api/tables/{table.pk}/"
        for n, (route, body) in enumerate(
            [
                ("round/open/", {}),
                ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
                ("round/wagers/", {"seat": 2, "type": "player", "amount": "25"}),
                ("round/no-more-bets/", {}),
                *[("round/cards/", {"card": card}) for card in ["4H", "9C", "2S", "KS"]],
                ("round/settle/", {}),
            ]
        ):
            done = floor.post(
                api + route, body, format="json", headers={"Idempotency-Key": f"k{n}"}
            )
            assert done.status_code == 200, done.content
            answer: dict[str, Any] = done.json()
            change = notice_change(answer, json.dumps(answer))
            action = answer["events"][-1]["action"]
            frames.append(notice_frame(table.pk, answer["sequence"], action, change))

    off_the_loop(play)
    assert '"withheld": ["repeat"]' in frames[-1] and "repeat" not in frames[-2]
    reads: list[str] = []
    page.on(
        "request", lambda r: reads.append(r.url) if r.method == "GET" and "/api/" in r.url else None
    )
    for frame in frames:
        page.evaluate(NOTICE, frame)
    page.wait_for_selector("#t-shoe dd:text('· Settled')")
    assert reads, "the settlement's notice withheld the wagers: the tablet read the state"

    page.click("text=Place your bets: open the round")
    page.wait_for_selector('#repeat:text-is("Repeat last round\'s wagers (2)")')
    page.click("#repeat")
    page.wait_for_selector(".seat[data-seat='2'] .wager.w-player")
    page.wait_for_selector(".seat[data-seat='1'] .wager.w-banker")
    browser.stop()
