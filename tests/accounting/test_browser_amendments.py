"""In Chromium at 1024x768: the accountant opens a table's day from the report, amends its closer
with a floorperson's password, reads the amended report, and changes a threshold on the settings
page."""

from __future__ import annotations

from accounting.models import AccountingSettings, TableInventory
from tests.accounting.test_browser import _log_in
from tests.browser.conftest import SHOTS


def test_the_accountant_amends_a_closer_and_sets_a_threshold(committed_day, live_server, browser):
    day = committed_day.day.isoformat()
    page = _log_in(browser.start(), live_server, "accounting")
    page.goto(f"{live_server.url}/accounting/?day={day}")
    page.click('#tables a:has-text("MB-1")')
    page.wait_for_selector("#amend-closer")
    assert "$-135.00" in page.inner_text("#figures")
    page.click("#amend-closer summary")
    form = page.locator("#amend-closer form")
    form.locator("input[name=chip_100]").fill("104")
    form.locator("input[name=reason]").fill("A stack of $100 miscounted")
    form.locator("input[name=approver]").fill("floor")
    form.locator("input[name=approver_password]").fill("wrong")
    form.locator("button").click()
    assert "password is wrong" in page.inner_text(".notices")
    form = page.locator("#amend-closer form")
    assert form.locator("input[name=chip_100]").input_value() == "104"  # kept as typed
    form.locator("input[name=approver]").fill("floor")
    form.locator("input[name=approver_password]").fill("baccarat")
    form.locator("button").click()
    assert "amended to $10465.00, approved by floor" in page.inner_text(".notices")
    assert "$-35.00" in page.inner_text("#figures")
    page.click("#amend-drop summary")  # what the next form looks like
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "accounting-table-day.png"), full_page=False)
    page.screenshot(path=str(SHOTS / "accounting-table-day-full.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024

    page.click("text=Daily report")
    page.wait_for_selector("#amendments")
    assert "approved by floor: A stack of $100 miscounted" in page.inner_text("#amendments")
    assert "amended" in page.inner_text('#tables tr[data-table="MB-1"]').lower()
    page.locator("#amendments").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "accounting-day-amended.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024

    page.click("text=Settings")
    page.fill("input[name=hold_high]", "101")
    page.click("text=Change the settings")
    assert "A hold bound is a percentage from 0 to 100." in page.inner_text(".notices")
    page.fill("input[name=hold_high]", "15")
    page.click("text=Change the settings")
    assert "Highest hold 30.00% → 15.00%" in page.inner_text("#changes")
    page.screenshot(path=str(SHOTS / "accounting-settings.png"), full_page=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    browser.stop()  # Playwright's loop leaves this thread; the database may be read again
    assert TableInventory.objects.filter(amends__isnull=False).count() == 1
    assert AccountingSettings.objects.get().hold_high == 15
