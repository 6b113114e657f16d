"""Every bundled table on the tablet, at 1024 by 768 and 768 by 1024: a round from "place your
bets" to the settlement fits the screen without scrolling, every target is at least 44 px, and
its text passes WCAG AA contrast (computed from the rendered colours, and by axe-core from npm
when it can be fetched). Screenshots of each table and step in test-output/."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from baccarat.profiles import PROFILES
from tablegame import actions
from tests.browser.conftest import SHOTS, log_in, off_the_loop, shot
from tests.browser.dealer_screen import AXE_VERSION, SIZES, axe_script, deal, screen_faults
from tests.tablegame.conftest import deal_at, ready_table

SEATS = {9: (1, 2, 5, 7), 14: (1, 2, 5, 9, 14)}


def look(page, profile: str, step: str, axe: str | None, faults: dict[str, Any]) -> None:
    """Check and photograph the screen at both sizes, then go back to landscape."""
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        found = screen_faults(page, axe)
        if found:
            faults[f"{profile} {step} {name}"] = found
        shot(page, f"tablet-{profile}-{step}-{name}")
    page.set_viewport_size({"width": 1024, "height": 768})


def test_every_table_fits_the_tablet_readably_at_both_sizes(floor_staff, live_server, browser):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    tables = {}
    for name, rules in PROFILES.items():
        table = ready_table(name, dealer, floor, seats=SEATS[rules.max_seats])
        if rules.player_dealer:
            actions.take_player_dealer(table, seat=1, actor=dealer)
        tables[name] = table
    axe = axe_script()
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    faults: dict[str, Any] = {}
    for name, table in tables.items():
        off_the_loop(partial(deal_at, table, dealer, floor))  # the floor moves the dealer
        page.goto(f"{live_server.url}/dealer/{table.pk}/")
        page.click("text=Place your bets: open the round")
        page.wait_for_selector("#next-title:text-is('Place your bets')")
        if PROFILES[name].player_dealer:
            page.fill("#bank", "1000")
            page.click("#bank-set")
            page.wait_for_selector("#bank-commit")
        page.click(".seat[data-seat='2']", position={"x": 16, "y": 12})
        page.click("#w-types button[data-type='banker']")
        page.click("#chips button:text-is('+100')")
        page.wait_for_selector(".seat[data-seat='2'] .wager:text('Banker $100.00')")
        page.click(".seat[data-seat='5']", position={"x": 16, "y": 12})
        page.click("#w-types button[data-type='player']")
        page.click("#chips button:text-is('+25')")
        page.click("#chips button:text-is('+25')")
        page.wait_for_selector(".seat[data-seat='5'] .wager:text('Player $50.00')")
        if PROFILES[name].royal9:  # a wager of one amount: one chip, and the chair's combination
            page.click(".seat[data-seat='9']", position={"x": 16, "y": 12})
            page.click("#w-types button[data-type='royal9']")
            page.click("#chips button:text-is('Royal 9 Progressive $5.00')")
            page.wait_for_selector(".seat[data-seat='9'] .personal")
        look(page, name, "1-betting", axe, faults)
        page.click("text=No more bets")
        page.wait_for_selector("#card-pad:not([hidden])")
        deal(page, ["4H", "9C"])
        look(page, name, "2-dealing", axe, faults)
        deal(page, ["2S", "KS"])
        page.wait_for_selector("#settlement-title:text('To settle, in order')")
        look(page, name, "3-complete", axe, faults)
        page.click("button:text-is('Settle')")
        page.wait_for_selector("#settlement-title:text('settled')")
    # The dialog of the page's own, as it asks for a player's name or card.
    page.click("button[aria-label='Seat a player at seat 3']")
    page.wait_for_selector("#sit[open]")
    look(page, "mini-pairs", "4-dialog", axe, faults)
    browser.stop()
    SHOTS.mkdir(exist_ok=True)
    report = {"axe-core": AXE_VERSION if axe else "not fetched", "faults": faults}
    (SHOTS / "tablet-screen-faults.json").write_text(json.dumps(report, indent=2))
    assert faults == {}


def test_the_cut_card_and_the_last_hand_are_called_in_a_banner(floor_staff, live_server, browser):
    table = ready_table("s42-mini", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Cut card came out")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#call:text-is('Cut card out: one more hand after this one')")
    page.click("text=No more bets")
    deal(page, ["9H", "2C", "KS", "3D"])
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#call:text-is('Next round is the LAST HAND')")
    assert page.inner_text("#next-title") == "Ready for the LAST HAND"
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets: LAST HAND')")
    assert page.inner_text("#call") == "LAST HAND of this shoe"
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        assert screen_faults(page, None) == {}
        shot(page, f"tablet-last-hand-{name}")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.click("text=No more bets")
    deal(page, ["9H", "2C", "KS", "3D"])
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#call:text-is('Shoe over: collect markers, end the shoe')")
    assert "Place your bets" not in page.inner_text("#actions")
    page.click("#actions button:text-is('End the shoe')")
    page.click("#ask-ok")  # the page asks first: a shoe ended cannot be undone
    page.wait_for_selector("#next-title:text-is('Bring decks to the table')")
    page.click("text=Reshuffle the decks in use")  # no new inspection: shuffle them again
    page.wait_for_selector("#next-title:text-is('Shuffle')")
