"""A dealer taps a card the shoe cannot hold: the tablet refuses it in plain words, and the
surveillance wall, open in a second page, shows it at once in its strip of significant events
and on the table's tile, with the words and the time; a reload shows it still (it was kept);
the round void by the floor then joins it live."""

from __future__ import annotations

from django.core.cache import cache

from tablegame import actions
from tests.browser.conftest import log_in, off_the_loop, shot
from tests.browser.dealer_screen import tap_card
from tests.tablegame.conftest import ready_table


def test_an_impossible_card_tapped_on_the_tablet_is_marked_on_the_wall(
    floor_staff, daphne, browser
):
    cache.clear()  # the minute's counts of refusals kept are another test's
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    shoe = table.current_shoe()
    assert shoe is not None
    shoe.remaining["AS"] = 0  # every ace of spades seen
    shoe.save(update_fields=["remaining"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)

    chromium = browser.start()
    wall = log_in(chromium, daphne, "surveillance")
    wall.set_viewport_size({"width": 1024, "height": 768})
    wall.goto(f"{daphne.url}/surveillance/")
    tile = wall.locator(f"#table-{table.pk}")
    tile.wait_for()
    wall.wait_for_selector("#live-status:text-is('Live')", timeout=15000)
    assert wall.locator("#sig-list .sig-item").count() == 0

    tablet = log_in(chromium, daphne, "dealer")
    tablet.goto(f"{daphne.url}/dealer/{table.pk}/")
    tablet.wait_for_selector("#deck button[data-card='AS']")
    tap_card(tablet, "AS")
    tablet.wait_for_selector("#error:not([hidden])")
    words = "There is no A♠ left in this shoe"
    assert words in tablet.inner_text("#error")

    item = wall.locator("#sig-list .sig-item.refused").first
    item.wait_for(timeout=3000)  # from the socket: no reload, well before any poll
    assert words in item.inner_text()
    assert "Card not in the shoe" in item.inner_text() and "dealer" in item.inner_text()
    mark = tile.locator(".sig-mark")
    mark.wait_for(timeout=3000)
    assert "Card not in the shoe" in mark.inner_text() and words in mark.inner_text()
    clock = item.locator("time").inner_text()  # in the casino's time, as the server writes it
    shot(wall, "surveillance-significant-live")

    wall.reload()
    wall.locator(f"#table-{table.pk} .sig-mark").wait_for(timeout=5000)
    assert words in wall.inner_text(f"#table-{table.pk} .sig-mark")
    assert wall.locator("#sig-list .sig-item.refused").count() == 1
    assert wall.locator("#sig-list .sig-item.refused time").inner_text() == clock
    shot(wall, "surveillance-significant-reloaded")

    # A significant event of the record (the floor voids the round) joins them live, newest
    # first, and marks the tile in its place.
    off_the_loop(lambda: actions.void_round(table, reason="Camera lost the layout", actor=floor))
    newest = wall.locator("#sig-list .sig-item").first
    wall.wait_for_function(
        "() => document.querySelector('#sig-list .sig-item').dataset.kind === 'round_void'",
        timeout=3000,
    )
    assert "Round void" in newest.inner_text() and "Camera lost the layout" in newest.inner_text()
    assert wall.locator("#sig-list .sig-item").count() == 2
    wall.wait_for_function(
        "id => (document.querySelector(`#table-${id} .sig-mark`) || {}).textContent"
        "?.includes('Round void')",
        arg=table.pk,
        timeout=5000,
    )

    wall.click("nav a:text-is('Significant events')")
    wall.wait_for_selector("#significant-list")
    assert wall.locator("#significant-list tbody tr").count() == 2
    shot(wall, "surveillance-significant-page")
    browser.stop()
