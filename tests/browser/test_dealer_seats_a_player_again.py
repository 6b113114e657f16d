"""A dealer seats again, with one tap, a player who sat at the table earlier in the shoe."""

from __future__ import annotations

from casino.models import Event
from tablegame import actions
from tablegame.models import Seat
from tests.browser.conftest import log_in, shot
from tests.tablegame.conftest import ready_table


def test_a_dealer_taps_a_suggested_player_and_the_seat_and_record_name_them(
    floor_staff, live_server, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.seat_player(table, seat=3, player="Ann Lee", card="12345", actor=dealer)
    actions.leave_seat(table, seat=3, actor=dealer)
    page = log_in(browser.start(), live_server, "dealer", width=1024, height=768)
    page.goto(f"{live_server.url}/dealer/{table.pk}/")
    page.click(".seat[data-seat='4'] button.sit")
    suggested = page.locator("#sit-chips button:text-is('Ann Lee · card 12345')")
    suggested.wait_for()
    # Seated now, so not offered: the players at seats 1, 2 and 5.
    assert page.locator("#sit-chips button").all_inner_texts() == ["Ann Lee · card 12345"]
    shot(page, "dealer-seat-a-player-again")
    suggested.click()
    seated = page.locator(".seat[data-seat='4'] .seat-who:text-is('Ann Lee')")
    seated.wait_for()
    assert seated.get_attribute("title") == "Ann Lee · card 12345"
    assert not page.locator("#sit").is_visible()
    shot(page, "dealer-player-seated-again")
    browser.stop()  # Playwright's loop leaves the thread; the ORM may run again
    seat = Seat.objects.get(table=table, number=4)
    assert (seat.player_name, seat.player_card) == ("Ann Lee", "12345")
    event = Event.objects.filter(chain=table.chain_id).latest("sequence")
    assert (event.action, event.data) == (
        "player_seated",
        {"seat": 4, "player": "Ann Lee", "card": "12345"},
    )
    assert event.actor == dealer
