"""EZ Baccarat on the tablet: a Banker win with a three-card 7 is a Dragon 7; the Banker wagers
push and are returned, the Dragon 7 wager is paid 40 to 1 (000 §7(a)(2), §7(a)(5), §11(a))."""

from __future__ import annotations

from tablegame.models import Round
from tests.browser.conftest import log_in, shot, wager
from tests.browser.dealer_screen import deal, screen_faults
from tests.tablegame.conftest import ready_table


def test_a_dragon_7_pushes_the_banker_wagers_and_pays_the_dragon_7_wager(
    floor_staff, live_server, browser
):
    table = ready_table("ma-mini-ez", floor_staff["dealer"], floor_staff["floor"])
    page = log_in(browser.start(), live_server, "dealer")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click("text=Place your bets: open the round")
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    wager(page, 1, "banker", "100")
    wager(page, 2, "dragon7", "25")
    wager(page, 5, "player", "25")
    page.click("text=No more bets")
    # Player 10, 6: stands on 6; the Banker's 2, 2 draws the 3: a three-card 7 over 6.
    deal(page, ["TS", "2S", "6C", "2C", "3H"])
    page.wait_for_selector("#next-title:text-is('Dragon 7: Banker wins, 7 over 6')")
    page.wait_for_selector("#settlement-title:text('To settle, in order')")
    assert page.inner_text("#b-cards") == "2♠\n2♣\n3♥"
    steps = page.locator("#steps li").all_inner_texts()
    assert steps == [
        "Collect seat 5 Player $25.00",
        "Pay seat 2 Dragon 7 $1000.00",
        "Return seat 1 Banker $100.00",
    ]
    shot(page, "dealer-ez-dragon7")
    assert screen_faults(page, None) == {}
    page.click("button:text-is('Settle')")
    page.wait_for_selector("#settlement-title:text-is('Round 1 settled, in order')")
    assert page.locator("#steps li").all_inner_texts() == steps
    browser.stop()

    game = Round.objects.get(table=table)
    recorded = [
        (s.action, s.seat, s.wager_type, str(s.amount)) for s in game.steps.order_by("index")
    ]
    assert recorded == [
        ("collect", 5, "player", "25.00"),
        ("pay", 2, "dragon7", "1000.00"),
        ("return", 1, "banker", "100.00"),
    ]
    banker, dragon = game.wagers.get(seat=1), game.wagers.get(seat=2)
    assert (banker.result, str(banker.payout)) == ("push", "0.00")
    assert (dragon.result, str(dragon.payout)) == ("win", "1000.00")
