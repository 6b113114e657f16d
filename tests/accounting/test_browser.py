"""The accounting pages in Chromium at 1024x768: the day's report with its charts, and a drop
count entered through the form by two people."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from accounting.models import DropCount
from tests.browser.conftest import SHOTS, Served

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


def _log_in(chromium: Browser, live_server: Served, username: str) -> Page:
    """A page at 1024x768, logged in, on the home page."""
    page = chromium.new_page(viewport={"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "baccarat")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_selector("text=Your role")
    return page


def test_the_accountant_reads_the_day_and_counts_a_box(committed_day, live_server, browser):
    day = committed_day.day.isoformat()
    page = _log_in(browser.start(), live_server, "accounting")
    page.click('a.screen:has-text("Accounting")')
    page.fill("input[name=day]", day)
    page.click(".daypick button")
    page.wait_for_selector("#totals")
    totals = page.inner_text("#totals")
    assert "$2200.00" in totals and "$65.00" in totals and "2.95%" in totals
    assert page.locator("svg.chart").count() == 3
    assert page.locator("#tables tr.flagged").count() == 2
    assert "differ by $350.00" in page.inner_text("#exceptions")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1024  # nothing sticks out of a 1024-pixel screen
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "accounting-day.png"), full_page=False)
    page.screenshot(path=str(SHOTS / "accounting-day-full.png"), full_page=True)
    override = page.locator("#review li", has_text="override — Rules filed")
    assert "(by floor)" in override.inner_text()
    override.locator("a", has_text="review").click()  # accounting reads the review it links to
    page.wait_for_selector("text=The record, event by event")
    assert "The record, event by event" in page.inner_text("main")
    page.screenshot(path=str(SHOTS / "accounting-review.png"), full_page=False)
    page.go_back()
    page.wait_for_selector("#totals")

    page.click("text=Drop count")
    page.select_option("select[name=table]", label="Pit 1 · BB-1")
    page.fill("input[name=cash_100]", "7")
    page.fill("input[name=cash_20]", "3")
    page.fill("input[name=other_item] >> nth=0", "chips")
    page.fill("input[name=other_amount] >> nth=0", "25")
    page.fill("input[name=witness]", "admin")
    page.fill("input[name=witness_password]", "wrong")
    page.click("text=Record the count")
    assert "password is wrong" in page.inner_text(".notices")
    page.fill("input[name=witness]", "admin")
    page.fill("input[name=witness_password]", "baccarat")
    page.click("text=Record the count")
    assert "BB-1 drop of" in page.inner_text(".notices") and "$785.00" in page.inner_text(
        ".notices"
    )
    page.screenshot(path=str(SHOTS / "accounting-drop.png"), full_page=False)
    browser.stop()  # Playwright's loop leaves this thread; the database may be read again
    drop = DropCount.objects.get(table__name="BB-1")
    assert (drop.currency_total, drop.other_total, drop.witnessed_by.username) == (
        Decimal(760),
        Decimal(25),
        "admin",
    )
