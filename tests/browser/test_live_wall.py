"""The dealer plays a round on the tablet while surveillance watches the wall in a second
browser: the wall follows over real websockets (Daphne, Channels, Redis), with no reload."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection

from tests.browser.conftest import SHOTS, log_in
from tests.browser.test_dealer_tablet import tap_card
from tests.tablegame.conftest import ready_table

ROOT = Path(__file__).resolve().parents[2]


class Server:
    def __init__(self, url: str) -> None:
        self.url = url


@pytest.fixture
def daphne(floor_staff) -> Iterator[Server]:
    """The real ASGI app under Daphne, on the test database, with the Redis channel layer."""
    # Daphne runs with the default password hashers, not the tests' fast one.
    hasher = PBKDF2PasswordHasher()
    User.objects.update(password=hasher.encode("baccarat", hasher.salt()))
    db = connection.settings_dict
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}",
        "DEBUG": "true",  # serve the static files too
        "PYTHONUNBUFFERED": "1",
    }
    SHOTS.mkdir(exist_ok=True)
    log = open(SHOTS / "daphne.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield Server(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


def test_the_wall_shows_each_card_as_the_dealer_enters_it(floor_staff, daphne, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance")
    wall.goto(f"{daphne.url}/surveillance/")
    tile = wall.locator(f"#table-{table.pk}")
    tile.wait_for()
    dealer = log_in(chromium, daphne, "dealer")
    dealer.goto(f"{daphne.url}/dealer/{table.pk}/")
    dealer.click("text=Place your bets: open the round")
    dealer.wait_for_selector("#next-title:text-is('Place your bets')")
    dealer.click(".seat:has(.seat-no:text-is('1'))")
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
