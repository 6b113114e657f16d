"""House Money settled before any third card with its payout let ride, and deferred commission
marked on the seats, then collected or sent to a Complimentary Vigorish Form, on the tablet."""

from __future__ import annotations

from tablegame.models import Round, VigorishMarker
from tests.browser.conftest import log_in, shot, wager
from tests.browser.dealer_screen import deal, screen_faults
from tests.tablegame.conftest import ready_table


def test_house_money_rides_and_marked_commission_is_collected_on_the_tablet(
    floor_staff, live_server, browser
):
    table = ready_table(
        "ma-mini",
        floor_staff["dealer"],
        floor_staff["floor"],
        options={"vigorish_collection": "deferred"},
    )
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")

    # House Money: settled on the first four cards, the payout let ride on the Banker wager.
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    wager(page, 1, "banker", "100")
    wager(page, 1, "house_money", "5")
    page.click("text=No more bets")
    deal(page, ["2H", "3C", "2S", "KD"])
    page.wait_for_selector("#next-title:text-is('Settle House Money before any third card')")
    page.select_option("#ride-1", "banker")
    shot(page, "dealer-house-money")
    assert screen_faults(page, None) == {}
    page.click("text=House Money settled")
    page.wait_for_selector("#card-pad:not([hidden])")
    deal(page, ["5D", "4C"])
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")

    # Banker wins twice: commission is marked on seats 1 and 2.
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    wager(page, 1, "banker", "100")
    wager(page, 2, "banker", "25")
    page.click("text=No more bets")
    deal(page, ["4H", "9C", "2S", "KS"])
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#markers-card:not([hidden])")
    assert page.locator("#markers li").all_inner_texts()[0].startswith("Seat 2 (Player 2): $1.25")
    shot(page, "dealer-markers")
    page.click("#markers li:has-text('Seat 1') button:text-is('Collected')")
    page.wait_for_selector("#markers li:has-text('Seat 1')", state="detached")
    page.click("#markers li:has-text('Seat 2') button:text-is('Vigorish form')")
    page.wait_for_selector("#ask[open]")
    page.fill("#ask-input", "A regular, comped by the pit boss")
    page.click("#ask-ok")
    page.wait_for_selector("#markers-card", state="hidden")
    browser.stop()

    first = Round.objects.get(table=table, number=1)
    house_money = first.wagers.get(type="house_money")
    assert house_money.ride == "banker"
    assert first.steps.filter(phase="house_money").exists()
    statuses = dict(VigorishMarker.objects.filter(table=table).values_list("seat", "status"))
    assert statuses == {1: "collected", 2: "form_requested"}
