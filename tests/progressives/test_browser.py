"""In real Chromium against the real ASGI app (Daphne, Channels, Redis): the progressive page and a
linked table's display follow the meters with no reload, and the console's alerts panel shows an
alert the moment the watch raises it, until a floorperson acknowledges it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import ViewportSize

from casino.models import Pit
from pit.alerts import watch
from pit.models import Alert
from tablegame.actions.dealers import relieve_dealer
from tablegame.progressives.actions import configure_must_hit
from tests.browser.conftest import SHOTS, daphne, log_in, shot
from tests.progressives.conftest import big_table, low_draw, naturals, royal9_round
from tests.tablegame.conftest import ready_table

__all__ = ["daphne", "low_draw"]  # the fixtures

SCREEN = ViewportSize(width=1024, height=768)


def elsewhere(call: Callable[[], Any]) -> Any:
    """Run ``call`` in a thread of its own: Playwright's event loop holds this one, where Django
    refuses database queries. Returns its result (or raises its error)."""
    done: list[Any] = []

    def run() -> None:
        try:
            done.append(call())
        except Exception as error:  # raised again below, in the test
            done.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if isinstance(done[0], Exception):
        raise done[0]
    return done[0]


def test_the_progressive_page_and_a_linked_display_follow_the_meters_live(
    floor_staff, daphne, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    first = big_table(dealer, floor, "ma-big")
    second = big_table(dealer, floor, "ma-big-ez")
    configure_must_hit(
        Pit.objects.get(), name="Stax", configuration=1, tables=[first, second], actor=floor
    )
    chromium = browser.start()
    page = log_in(chromium, daphne, "floor")
    page.set_viewport_size(SCREEN)
    page.goto(f"{daphne.url}/progressives/")
    meter = page.locator(".meter.must-hit [data-amount]")
    assert meter.inner_text() == "$250.00"
    display = log_in(chromium, daphne, "floor")
    display.set_viewport_size(SCREEN)
    display.goto(f"{daphne.url}/display/{second.pk}/")
    strip = display.locator(".progressive-strip .ps-must-hit .ps-amount")
    strip.wait_for()
    assert strip.inner_text() == "$250.00"

    elsewhere(lambda: royal9_round(first, dealer, cards=naturals(first)))  # $15: Stax +$0.75

    page.locator(".meter.must-hit [data-amount]", has_text="$250.75").wait_for(timeout=10_000)
    star = page.locator(f".meter.royal9[data-table='{first.pk}'] dd").first
    assert star.inner_text().startswith("$50,000.90")
    page.locator(f".meter.royal9[data-table='{first.pk}'] details summary").click()
    shot(page, "progressives-page")
    display.locator(".progressive-strip .ps-must-hit .ps-amount", has_text="$250.75").wait_for(
        timeout=10_000
    )  # BB-2's display: the shared meter grew with BB-1's round
    shot(display, "progressives-display-strip")
    body = page.content() + display.content()
    browser.stop()
    from tablegame.models import MustHitProgressive

    hidden = MustHitProgressive.objects.get()
    assert str(hidden.hit_value) not in body and hidden.hit_nonce not in body
    assert hidden.amount == Decimal("250.75")


def test_an_alert_reaches_the_console_live_and_stays_until_acknowledged(
    floor_staff, daphne, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    relieve_dealer(table, actor=floor)  # MB-1 open with no dealer
    page = log_in(browser.start(), daphne, "floor")
    page.set_viewport_size(SCREEN)
    page.goto(f"{daphne.url}/floor/")
    page.locator("#alerts", has_text="No alert is waiting.").wait_for()

    elsewhere(watch)  # what Celery beat runs: MB-1 is open with no dealer

    item = page.locator("#alerts li[data-kind='no_dealer']")
    item.wait_for(timeout=10_000)
    assert "MB-1 is open with no dealer assigned." in item.inner_text()
    shot(page, "floor-alerts-panel")
    item.locator("button", has_text="Acknowledge").click()
    page.locator("#alerts", has_text="No alert is waiting.").wait_for(timeout=10_000)
    browser.stop()
    alert = Alert.objects.get(table=table)
    assert alert.acknowledged_by == floor


@pytest.mark.parametrize("profile", ["ma-big", "ma-big-ez"])  # the profiles with Royal 9
def test_a_must_hit_win_shows_on_the_tablet_and_display_until_the_floor_pays_it(
    floor_staff, daphne, browser, low_draw, profile
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = big_table(dealer, floor, profile)
    named = "" if profile == "ma-big" else f"-{profile}"  # the screenshots of each
    configure_must_hit(Pit.objects.get(), name="Stax", configuration=3, tables=[table], actor=floor)
    chromium = browser.start()
    tablet = log_in(chromium, daphne, "dealer")
    tablet.set_viewport_size(SCREEN)
    tablet.goto(f"{daphne.url}/dealer/{table.pk}/")
    display = log_in(chromium, daphne, "floor")
    display.set_viewport_size(SCREEN)
    display.goto(f"{daphne.url}/display/{table.pk}/")
    console = log_in(chromium, daphne, "floor")
    console.set_viewport_size(SCREEN)
    console.goto(f"{daphne.url}/progressives/")

    elsewhere(lambda: royal9_round(table, dealer, cards=naturals(table)))  # hits at $100.01

    won = f"Stax won: {table.name} seat 1, $100.01 (pay now)"
    for page in (tablet, display):
        pending = page.locator(".progressive-strip .ps-pending", has_text=won)
        pending.wait_for(timeout=10_000)
        # In sight on a 1024 x 768 screen without scrolling (the tablet's page is taller).
        box = pending.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SCREEN["height"]
    shot(tablet, f"progressives-tablet-win{named}")
    # As the dealer sees it, without scrolling.
    tablet.screenshot(path=str(SHOTS / f"progressives-tablet-win-screen{named}.png"))
    shot(display, f"progressives-display-win{named}")
    console.locator(".pending li", has_text="Stax win 1").wait_for(timeout=10_000)
    shot(console, f"progressives-page-win{named}")
    console.locator(".pending button", has_text="Paid").click()
    console.locator(".pending").wait_for(state="detached", timeout=10_000)
    display.locator(".progressive-strip .ps-pending").wait_for(state="detached", timeout=10_000)
    browser.stop()
    from tablegame.models import MustHitWin

    assert MustHitWin.objects.get().paid_by == floor
