"""One request per tap: after the page has loaded, each tap that gives a command is one POST and
nothing else. The tablet's helps (whom to offer the shoe or the player-dealer position, the
bank's commitment, the settlement before Settle, last round's wagers) come with the answers; in
real Chromium at 1024x768, for the three kinds of table that have helps."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import log_in, wager
from tests.browser.dealer_screen import deal
from tests.tablegame.conftest import ready_table


def watched(page: Any) -> list[tuple[str, str]]:
    """The page's requests to the server (method and path), from now on."""
    made: list[tuple[str, str]] = []
    page.on(
        "request",
        lambda r: (
            made.append((r.method, r.url.split("//", 1)[1].split("/", 1)[1]))
            if "/static/" not in r.url
            else None
        ),
    )
    return made


def tablet(floor_staff, live_server, browser, profile: str) -> tuple[Any, Any]:
    table = ready_table(profile, floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:not(:empty)")
    return table, page


def only_posts(made: list[tuple[str, str]], commands: int) -> None:
    assert [m for m, _ in made] == ["POST"] * commands, made


def test_a_mini_table_round_and_its_repeat_cost_one_request_a_tap(
    floor_staff, live_server, browser
):
    _table, page = tablet(floor_staff, live_server, browser, "s42-mini")
    made = watched(page)
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    wager(page, 1, "banker", "100")
    wager(page, 2, "player", "25")
    page.click("text=No more bets")
    deal(page, ["4H", "9C", "2S", "KS"])
    # The settlement before Settle came with the card that completed the coup.
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    assert "Pay seat 1 Banker $100.00" in page.inner_text("#steps")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector('#repeat:text-is("Repeat last round\'s wagers (2)")')
    page.click("#repeat")
    page.wait_for_selector(".seat[data-seat='2'] .wager.w-player")
    page.wait_for_selector(".seat[data-seat='1'] .wager.w-banker")
    only_posts(made, 1 + 2 + 1 + 4 + 1 + 1 + 2)
    browser.stop()


def test_the_big_table_offers_the_shoe_from_the_answers(floor_staff, live_server, browser):
    _table, page = tablet(floor_staff, live_server, browser, "ma-big")
    made = watched(page)
    page.click("text=Pass the shoe (dealer's call)")
    page.wait_for_selector("#next-title:text-is('Offer the shoe to seat 2 (Player 2)')")
    page.click("text=Seat 2 declines")
    page.click("text=Seat 5 takes the shoe")
    page.wait_for_selector(".seat[data-seat='5'] .role:text-is('Holds the shoe')")
    only_posts(made, 2)
    browser.stop()


def test_the_california_bank_is_shown_from_the_answers(floor_staff, live_server, browser):
    _table, page = tablet(floor_staff, live_server, browser, "ca-commission-free")
    made = watched(page)
    page.wait_for_selector("#next-title:text-is('Who banks the game?')")
    page.click("text=Seat 2 takes the position")
    page.wait_for_selector(".seat[data-seat='2'] .role:text-is('Player-dealer')")
    page.click("text=Place your bets: open the round")
    page.fill("#bank", "100")
    page.click("#bank-set")
    page.wait_for_selector("#bank-commit:text('Bank $100.00')")
    wager(page, 5, "player", "100")
    page.wait_for_selector("#bank-commit:text('the wagers commit $100.00')")
    only_posts(made, 4)
    browser.stop()
