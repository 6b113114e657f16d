"""A dealer plays a whole round on the tablet in real Chromium."""

from __future__ import annotations

from tablegame.models import Round
from tests.browser.conftest import log_in, shot
from tests.browser.dealer_screen import tap_card
from tests.tablegame.conftest import ready_table


def test_a_dealer_plays_a_round_on_the_tablet(floor_staff, live_server, browser):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat:has(.seat-no:text-is('1'))", position={"x": 16, "y": 12})
    page.click("#w-types button[data-type='banker']")
    page.fill("#w-amount", "6000")
    page.click("text=Take the wager")
    page.wait_for_selector("#error:not([hidden])")
    assert "maximum" in page.inner_text("#error")
    assert page.input_value("#w-amount") == "6000"  # what the dealer typed is kept
    page.fill("#w-amount", "100")
    page.click("text=Take the wager")
    shot(page, "dealer-wager")
    page.wait_for_selector(".wager:text('Banker $100.00')")
    page.click("text=No more bets")
    page.wait_for_selector('#pad-expected:text-is("Player\'s first card")')
    # Each card's answer is put in place: the tablet does not read the whole table again.
    reads: list[str] = []
    page.on(
        "request", lambda r: reads.append(r.url) if r.method == "GET" and "/api/" in r.url else None
    )
    for card in ["4H", "9C", "2S", "KS"]:
        tap_card(page, card)
        page.wait_for_function(
            "n => document.querySelectorAll('#p-cards .playing, #b-cards .playing').length >= n",
            arg=["4H", "9C", "2S", "KS"].index(card) + 1,
        )
    page.wait_for_selector("#next-title:text('Banker wins, 9 over 6')")
    assert reads == []
    shot(page, "dealer-complete")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement:not([hidden])")
    steps = page.inner_text("#steps")
    assert "Collect commission seat 1 Banker $5.00" in steps
    assert "Pay seat 1 Banker $100.00" in steps
    shot(page, "dealer-settled")
    browser.stop()  # Playwright's loop leaves the thread; the ORM may run again
    game = Round.objects.get(table=table)
    assert game.state == Round.State.SETTLED
    assert [c.code for c in game.cards.order_by("position")] == ["4H", "9C", "2S", "KS"]


def test_the_tablet_offers_the_tables_wagers_by_the_engines_labels_in_layout_order(
    floor_staff, live_server, browser
):
    table = ready_table("ma-big-ez", floor_staff["dealer"], floor_staff["floor"])
    offered = [t.short_label for t in table.rules.offered_wagers]
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    page.click(".seat:has(.seat-no:text-is('2'))", position={"x": 16, "y": 12})
    shown = page.locator("#w-types button").all_inner_texts()
    assert shown == offered
    assert shown[:4] == ["Player", "Banker", "Tie", "DB Player"]  # the engine's short labels
    assert shown[-1] == "Royal 9"
    page.click("#w-types button[data-type='dragon_bonus_player']")
    page.fill("#w-amount", "100")
    page.click("text=Take the wager")
    # On the seat, by its short name or its mark where the seat is narrow; named in full on hover.
    line = page.locator(".seat[data-seat='2'] .wager.w-dragon_bonus_player")
    line.wait_for()
    assert line.inner_text() in ("DB Player $100.00", "DBP $100.00")
    assert line.get_attribute("title") == "Dragon Bonus on Player $100.00"
    page.click("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")
    ink, paper = page.eval_on_selector(
        "#deck button", "b => [getComputedStyle(b).color, getComputedStyle(b).backgroundColor]"
    )
    assert ink != paper  # the keypad's ranks can be read
    page.click("#card-pad summary")
    assert page.locator("#irregular-actions button").all_inner_texts() == [
        "Card drawn in error, not seen",
        "Card drawn in error, seen",
        "Unauthorized Player third card, not seen",
        "Unauthorized Player third card, seen",
        "Card found face up",
    ]
    shot(page, "dealer-tablet-1024")
