"""A tap on a table another transaction holds: the server answers 503 "busy" with Retry-After and
does nothing; the tablet sends the same command again (its key unspent) after that wait, and it
lands once, with no error shown to the dealer."""

from __future__ import annotations

from tablegame.models import Round
from tests.api.test_busy_table import row_held
from tests.browser.conftest import log_in, off_the_loop
from tests.tablegame.conftest import ready_table


def test_a_tap_on_a_busy_table_is_sent_again_and_lands_once(floor_staff, live_server, browser):
    table = ready_table("s42-mini", floor_staff["dealer"], floor_staff["floor"])
    # Held from before the page opens (its own state is read meanwhile), until the tap is busy.
    with row_held(table, as_a_command=True):
        page = log_in(browser.start(), live_server, "dealer")
        page.set_viewport_size({"width": 1024, "height": 768})
        page.goto(f"{live_server.url}/dealer/{table.pk}/")
        page.wait_for_selector("#next-title:not(:empty)")
        busy = lambda r: "/round/open/" in r.url and r.status == 503  # noqa: E731
        with page.expect_response(busy):
            page.click("text=Place your bets: open the round")
    # The holder is gone: the tablet's next try, after Retry-After, opens the round.
    page.wait_for_selector("#next-title:text-is('Place your bets')")
    assert page.locator("#error").is_hidden()
    opened: list[int] = []
    off_the_loop(lambda: opened.append(Round.objects.filter(table=table).count()))
    assert opened == [1]
    browser.stop()
