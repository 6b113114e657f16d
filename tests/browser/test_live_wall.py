"""The dealer plays a round on the tablet while surveillance watches the wall in a second
browser: the wall follows over real websockets (Daphne, Channels, Redis), with no reload."""

from __future__ import annotations

import json
import urllib.request
import uuid
from pathlib import Path

from tablegame.api.tokens import issue_api_token
from tests.browser.conftest import SHOTS, log_in
from tests.browser.dealer_screen import tap_card
from tests.tablegame.conftest import ready_table

ROOT = Path(__file__).resolve().parents[2]


def test_the_wall_shows_each_card_as_the_dealer_enters_it(floor_staff, daphne, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance")
    wall.goto(f"{daphne.url}/surveillance/")
    tile = wall.locator(f"#table-{table.pk}")
    tile.wait_for()
    # Its socket open before the first card: a card is then timed from the notice, never from
    # a socket still connecting on a busy machine (the 5-second poll would draw it instead).
    wall.wait_for_selector("#live-status:text-is('Live')", timeout=15000)
    dealer = log_in(chromium, daphne, "dealer")
    dealer.goto(f"{daphne.url}/dealer/{table.pk}/")
    dealer.click("text=Place your bets: open the round")
    dealer.wait_for_selector("#next-title:text-is('Place your bets')")
    dealer.click(".seat:has(.seat-no:text-is('1'))", position={"x": 16, "y": 12})
    dealer.click("#w-types button[data-type='banker']")
    dealer.fill("#w-amount", "100")
    dealer.click("text=Take the wager")
    dealer.wait_for_selector(".wager:text('Banker $100.00')")
    dealer.click("text=No more bets")
    for n, card in enumerate(["4H", "9C", "2S", "KS"], start=1):
        tap_card(dealer, card)
        dealer.wait_for_function(
            "n => document.querySelectorAll('#p-cards .playing, #b-cards .playing').length >= n",
            arg=n,
        )
        # The wall shows each card within moments: well before its 5-second fallback poll.
        tile.locator(f"text={card[:-1]}").first.wait_for(timeout=3000)
    dealer.click("button:text-is('Settle')")
    dealer.wait_for_selector("#settlement:not([hidden])")
    tile.locator("text=Banker wins, 9 over 6").wait_for(timeout=3000)
    SHOTS.mkdir(exist_ok=True)
    wall.screenshot(path=str(SHOTS / "surveillance-live.png"), full_page=True)
    dealer.screenshot(path=str(SHOTS / "dealer-live.png"), full_page=True)
    assert wall.inner_text("#live-status").strip() == "Live"  # the websocket, not the poll


def test_a_wager_or_a_card_is_drawn_on_its_tile_in_place_as_the_server_draws_it(
    floor_staff, daphne, browser
):
    """Two whole rounds, from "place your bets" to the settlement, reach the tile from the notices
    alone, without the wall reading the tile; after each command what the wall shows is what the
    server draws for the tile."""
    from tablegame import actions

    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    _, token = issue_api_token(dealer)
    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance")
    fetched: list[str] = []
    wall.on("request", lambda r: fetched.append(r.url) if "/tile/" in r.url else None)
    wall.goto(f"{daphne.url}/surveillance/")
    tile = wall.locator(f"#table-{table.pk}")
    tile.wait_for()
    wall.wait_for_selector("#live-status:text-is('Live')")

    def sequence() -> int:
        return int(tile.get_attribute("data-sequence") or 0)

    def shown_and_fresh() -> tuple[str, str]:
        shown = tile.inner_text()
        fresh = wall.evaluate(
            "url => fetch(url).then(r => r.text()).then(html => {"
            " const t = document.createElement('template'); t.innerHTML = html.trim();"
            " const box = document.createElement('div'); box.style.width = '400px';"
            " box.className = 'wall'; box.append(t.content.firstElementChild);"
            " document.body.append(box); const text = box.firstElementChild.innerText;"
            " box.remove(); return text; })",
            tile.get_attribute("data-url"),
        )
        return " ".join(shown.split()), " ".join(fresh.split())

    commands = [
        ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
        ("round/wagers/", {"seat": 2, "type": "player", "amount": "25"}),
        ("round/no-more-bets/", {}),
        *(("round/cards/", {"card": card}) for card in ("4H", "9C", "2S", "KS")),
        ("round/settle/", {}),
        ("round/open/", {}),
        ("round/wagers/", {"seat": 5, "type": "tie", "amount": "10"}),
        ("round/no-more-bets/", {}),
        *(("round/cards/", {"card": card}) for card in ("9H", "2C", "KS", "3D")),
        ("round/settle/", {}),
    ]
    compared = []
    for route, body in commands:
        before = sequence()
        request = urllib.request.Request(
            f"{daphne.url}/api/tables/{table.pk}/{route}",
            data=json.dumps(body).encode(),
            headers={
                "Authorization": f"Token {token}",
                "Content-Type": "application/json",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
        with urllib.request.urlopen(request, timeout=10) as answer:  # as the tablet sends it
            assert answer.status == 200
        wall.wait_for_function(
            f"() => Number(document.querySelector('#table-{table.pk}').dataset.sequence) > {before}"
        )
        shown, fresh = shown_and_fresh()
        compared.append(fresh)
        assert shown == fresh, f"after {route}"
        if route == "round/settle/" and len(compared) < 10:
            assert "Banker wins, 9 over 6" in shown and "$125.00 · 2 wagers" in shown
        if route == "round/open/":
            assert "Last: Round 1: Banker wins, 9 over 6" in shown
    fresh_reads = [url for url in fetched if url.endswith("/tile/")]
    assert len(fetched) == len(compared) and len(fresh_reads) == len(compared)  # the test's own
    assert "Player wins, 9 over 5" in shown
