"""The tablet offers a person only what the access policy lets them do, in real Chromium."""

from __future__ import annotations

from tablegame import actions
from tablegame.actions.dealers import relieve_dealer
from tablegame.models import Shoe
from tests.browser.conftest import log_in, shot
from tests.tablegame.conftest import table_for


def test_the_dealer_waits_for_the_floor_to_verify_the_inspection_and_the_floorperson_verifies(
    floor_staff, live_server, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    chromium = browser.start()

    page = log_in(chromium, live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.wait_for_selector("#next-title:text-is('A floorperson verifies the inspection')")
    assert "Waiting for a floorperson" in page.inner_text("#next-detail")
    assert page.locator("#actions button").count() == 0  # no button that would answer 403
    shot(page, "dealer-waits-for-floor")

    page = log_in(chromium, live_server, "floor")
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("button:text-is('Verified (floorperson)')")
    page.wait_for_selector("#next-title:text-is('Spread the cards for the first player')")
    browser.stop()
    shoe = table.current_shoe()
    assert shoe is not None and shoe.state == Shoe.State.VERIFIED
    assert shoe.verified_by == floor


def test_a_dealer_with_no_table_opening_anothers_tablet_sees_why_they_cannot_deal(
    floor_staff, live_server, browser
):
    relieve_dealer(table_for("ma-mini-ez"), actor=floor_staff["floor"])  # dealer2: on a break
    table = table_for("ma-mini")  # MB-1: the demo's dealer deals it
    chromium = browser.start()

    page = log_in(chromium, live_server, "dealer2")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    assert page.inner_text("#not-yours h1") == "You cannot deal MB-1"
    assert page.inner_text("#refusal") == (
        "dealer deals this table: ask the floor to assign you here first."
    )
    assert page.locator("#actions button, #own-table").count() == 0
    shot(page, "dealer-not-assigned")

    page = log_in(chromium, live_server, "dealer3")  # at MB-3: sent back to their own table
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    assert "You are assigned to MB-3" in page.inner_text("#refusal")
    page.click("#own-table")
    page.wait_for_selector("#next-title:text-is('The table is closed')")
    assert page.inner_text("#t-name") == "MB-3"
    browser.stop()
