"""On every bundled table, from the tablet alone: a round where both hands draw a third card,
then a tie. The tablet says which card comes next ("Player draws", "Banker draws"), calls the
result as the dealer announces it (000 §11(a)), and lists the settlement before Settle; on a tie
the Player and Banker wagers are returned (000 §7(a))."""

from __future__ import annotations

from functools import partial

from baccarat.profiles import PROFILES
from tablegame import actions
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.browser.dealer_screen import deal
from tests.tablegame.conftest import deal_at, ready_table

SEATS = {9: (1, 2, 5, 7), 14: (1, 2, 5, 9, 14)}
# Player 2, 3: 5, draws the King (0) and stays on 5; the Banker's King, 3 draws against a
# Player's third card of 0 (it stands only on a third card of 8) and takes the 5: 8 over 5.
BOTH_DRAW = ["2H", "KC", "3D", "3S", "KH", "5D"]
# Two naturals of 9.
TIE = ["9H", "9C", "KD", "QS"]


def open_with_wagers(page, name: str) -> None:
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
    page.wait_for_selector(".seat[data-seat='5'] .wager:text('Player $25.00')")
    page.click("text=No more bets")
    page.wait_for_selector("#card-pad:not([hidden])")


def settle(page) -> list[str]:
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    steps = page.locator("#steps li").all_inner_texts()
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text('settled')")
    result: list[str] = steps
    return result


def test_on_every_table_both_hands_draw_and_a_tie_pushes(floor_staff, live_server, browser):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    tables = {}
    for name, rules in PROFILES.items():
        table = ready_table(name, dealer, floor, seats=SEATS[rules.max_seats])
        if rules.player_dealer:
            actions.take_player_dealer(table, seat=1, actor=dealer)
        tables[name] = table
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    for name, table in tables.items():
        off_the_loop(partial(deal_at, table, dealer, floor))  # the floor moves the dealer
        page.goto(f"{live_server.url}/dealer/{table.pk}/")
        open_with_wagers(page, name)
        deal(page, BOTH_DRAW[:4])
        page.wait_for_selector("#next-title:text-is('Player draws')")
        deal(page, BOTH_DRAW[4:5])
        page.wait_for_selector("#next-title:text-is('Banker draws')")
        deal(page, BOTH_DRAW[5:])
        page.wait_for_selector("#next-title:text-is('Banker wins, 8 over 5')")
        assert page.inner_text("#p-cards") == "2♥\n3♦\nK♥", name
        assert page.inner_text("#b-cards") == "K♣\n3♠\n5♦", name
        steps = settle(page)
        assert any(s.startswith("Collect seat 5 Player $25.00") for s in steps), (name, steps)

        open_with_wagers(page, name)
        deal(page, TIE)
        page.wait_for_selector("#next-title:text-is('Tie hand, 9 to 9')")
        steps = settle(page)
        assert "Return seat 2 Banker $100.00" in steps, (name, steps)
        assert "Return seat 5 Player $25.00" in steps, (name, steps)
        shot(page, f"tablet-{name}-tie")
    browser.stop()
