"""The pit console, open in real Chromium over Daphne's sockets, sees a player's rating appear
once game protection's follower has rated a settled round (its notice, no reload: the panel is
read again), the figures those the ratings page has; the rating links to the session's page; a
dealer's refusal appears on the console's strip as it is kept; the pit clerk's console has no
ratings panel."""

from __future__ import annotations

import uuid
from decimal import ROUND_HALF_UP, Decimal

from django.contrib.auth.models import User
from rest_framework.test import APIClient

from protection.follower import follow
from protection.models import PlayerSession
from protection.ratings import dollars
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.protection.conftest import play, ready_table
from tests.protection.test_ratings import ROUNDS, _by_hand


def test_the_console_shows_a_rating_once_the_follower_rated_the_round_and_a_refusal_live(
    floor_staff, daphne, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("mini-pairs", dealer, floor)
    follow([table.pk])  # the players' sessions, no round yet
    session = PlayerSession.objects.get(table=table, seat=1, left_at__isnull=True)
    exact = _by_hand(ROUNDS[:1])
    theo = (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        Decimal("0.01"), ROUND_HALF_UP
    )

    chromium = browser.start()
    console = log_in(chromium, daphne, "pitboss", width=1024, height=768)
    loads: list[str] = []
    console.on("framenavigated", lambda frame: loads.append(frame.url))
    console.goto(f"{daphne.url}/floor/?pits=all")
    console.wait_for_selector("#live-status:text-is('Live')", timeout=15000)
    panel = console.locator(f".console-panel[data-panel='ratings'][data-pit='{table.pit_id}']")
    row = panel.locator("tr[data-seat='1']")
    row.wait_for(timeout=5000)
    assert " ".join(row.inner_text().split()).startswith(f"Player 1 {table.name} 1 ")
    assert row.locator("td").nth(4).inner_text() == "0"  # no round played yet
    console.locator("#refusals:has-text('No refusal in the last 12 hours.')").wait_for()

    def settle_and_follow() -> None:
        play(table, dealer, [(1, "banker", "25"), (1, "player_pair", "5")], ROUNDS[0])
        follow([table.pk])

    off_the_loop(settle_and_follow)
    rounds = row.locator("td").nth(4)
    rounds.wait_for(state="attached")
    console.wait_for_function(
        "() => document.querySelector(\".console-panel tr[data-seat='1'] td:nth-child(5)\")"
        ".textContent === '1'",
        timeout=5000,
    )
    cells = [c.strip() for c in row.locator("td").all_inner_texts()]
    # Player 7 over 6: the Banker loses $25 and the Player Pair $5.
    assert cells[4:] == ["1", "$30.00", dollars(Decimal("-30.00")), dollars(theo), "—"]
    shot(console, "console-ratings-after-a-round")

    def refuse_a_late_wager() -> None:
        tablet = APIClient()
        tablet.force_login(User.objects.get(pk=dealer.pk))  # its password as Daphne's hasher has it
        for route, body in (
            ("round/open/", {}),
            ("round/wagers/", {"seat": 1, "type": "banker", "amount": "25"}),
            ("round/no-more-bets/", {}),
            ("round/wagers/", {"seat": 2, "type": "player", "amount": "25"}),
        ):
            url = f"/api/tables/{table.pk}/{route}"
            answer = tablet.post(
                url, body, format="json", headers={"Idempotency-Key": uuid.uuid4().hex}
            )
            assert answer.status_code == (
                409 if route == "round/wagers/" and body["seat"] == 2 else 200
            )

    off_the_loop(refuse_a_late_wager)
    print(
        list(
            __import__("tablegame.models", fromlist=["x"]).TableRefusal.objects.values_list(
                "kind", flat=True
            )
        )
        if False
        else "",
    )
    refusal = console.locator("#refusals li[data-kind='late_wager']")
    refusal.wait_for(timeout=5000)
    assert table.name in refusal.inner_text() and "Wager after no more bets" in refusal.inner_text()
    assert "review" not in refusal.inner_text()  # a pit boss may not open a round's review
    shot(console, "console-refusal-strip")
    assert loads == [f"{daphne.url}/floor/?pits=all"]  # all of it without a reload

    row.locator("a").click()
    console.wait_for_url(f"**/protection/sessions/{session.pk}/")

    clerk = log_in(chromium, daphne, "clerk", width=1024, height=768)
    clerk.goto(f"{daphne.url}/floor/?pits=all")
    clerk.wait_for_selector("#live-status:text-is('Live')", timeout=15000)
    clerk.locator("#refusals li[data-kind='late_wager']").wait_for(timeout=5000)
    assert clerk.locator(".console-panel").count() == 0
    browser.stop()
