"""The pit in real Chromium: a Complimentary Vigorish Form signed on four screens, and the
supervisor's console actions and rule changes with their reasons and notice."""

from __future__ import annotations

from decimal import Decimal

from playwright.sync_api import ViewportSize

from casino.models import Event, Pit
from tablegame import actions
from tablegame.models import Round, TableLimit, VigorishForm
from tests.browser.conftest import log_in, shot
from tests.pit.conftest import deferred_table, requested_marker
from tests.tablegame.conftest import ready_table, table_for

SMALL = ViewportSize(width=1024, height=768)


def screen(browser, live_server, username):
    page = log_in(browser, live_server, username)
    page.set_viewport_size(SMALL)
    page.goto(f"{live_server.url}/floor/forms/")
    return page


def click(page, row, label):
    with page.expect_navigation():  # done: the page reloads with the change
        page.locator(row).locator("button", has_text=label).click()


def test_a_form_goes_from_the_clerk_to_the_drop_box_on_each_persons_screen(
    floor_staff, live_server, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = deferred_table(dealer, floor)
    marker = requested_marker(table, dealer)
    pit = Pit.objects.get().pk
    chromium = browser.start()  # no query from here on: Playwright's loop runs in this thread
    clerk = screen(chromium, live_server, "clerk")
    clerk.fill("input[name=first]", "4501")
    clerk.fill("input[name=last]", "4600")
    clerk.click("button:has-text('Receive series')")
    clerk.locator("td:text('Forms 004501-004600')").wait_for()
    clerk.locator(f"[data-marker='{marker.pk}'] input[name=patron_name]").fill("Ana Ruiz")
    click(clerk, f"[data-marker='{marker.pk}']", "Prepare form")
    clerk.locator("a:text('004501')").wait_for()
    shot(clerk, "pit-forms-clerk-prepared")
    row = f"[data-form='{clerk.locator('[data-form]').first.get_attribute('data-form')}']"

    dealing = screen(chromium, live_server, "dealer")
    assert dealing.locator("text=Forms received").count() == 0  # unused forms: the clerk's only
    click(dealing, row, "Sign as dealer")
    dealing.locator(row).locator("input[name=statement]").fill("Patron left before the shoe ended")
    click(dealing, row, "Record patron's part")
    boss = screen(chromium, live_server, "pitboss")
    click(boss, row, "Sign as pit boss")
    clerk.reload()
    click(clerk, row, "Sign as pit clerk")
    dealing.reload()
    click(dealing, row, "Original into the drop box")
    boss.reload()
    click(boss, row, "I saw the deposit")
    clerk.reload()
    click(clerk, row, "I saw the deposit")
    clerk.locator(f"{row} td:has-text('Original in the drop box')").wait_for()
    shot(clerk, "pit-forms-deposited")
    click(clerk, f"[data-pit='{pit}']", "to accounting")
    clerk.locator(f"{row} td:has-text('duplicate to accounting')").wait_for()
    shot(clerk, "pit-forms-forwarded")
    browser.stop()
    form = VigorishForm.objects.get()
    assert (form.dealer, form.pit_boss, form.clerk) == (
        dealer,
        floor_staff["pitboss"],
        floor_staff["clerk"],
    )
    assert form.status == VigorishForm.Status.DEPOSITED and form.forwarded_at is not None


def test_the_console_voids_a_round_being_dealt_and_sets_a_limit_with_reasons(
    floor_staff, live_server, browser
):
    dealer = floor_staff["dealer"]
    table = ready_table("s42-mini", dealer, floor_staff["floor"])
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="4H", actor=dealer)
    page = log_in(browser.start(), live_server, "floor")
    page.set_viewport_size(SMALL)
    page.goto(f"{live_server.url}/floor/")
    tile = page.locator(f"[data-table='{table.pk}']")
    tile.locator("summary:text('Supervisor')").click()
    tile.locator("input[name=reason]").fill("Card dropped face up on the floor")
    shot(page, "floor-console-supervisor")
    tile.locator("button:has-text('Void round 1')").click()
    page.locator(f"[data-table='{table.pk}'] dd:has-text('—')").first.wait_for()
    tile = page.locator(f"[data-table='{table.pk}']")
    if not tile.locator("details[open]").count():
        tile.locator("summary:text('Supervisor')").click()
    tile.locator("select[name=wager]").select_option("banker")
    tile.locator("input[name=minimum]").fill("50")
    tile.locator("input[name=maximum]").fill("10000")
    tile.locator("input[name=reason]").fill("High-limit evening")
    tile.locator("button:has-text('Set limit')").click()
    page.locator(f"[data-table='{table.pk}'] option:has-text('$50.00')").wait_for(state="attached")
    shot(page, "floor-console-after-void-and-limit")
    browser.stop()
    game = Round.objects.get(table=table)
    assert (game.state, game.void_reason) == (Round.State.VOID, "Card dropped face up on the floor")
    limit = TableLimit.objects.get(table=table, wager_type="banker")
    assert (limit.minimum, limit.maximum) == (Decimal("50.00"), Decimal("10000.00"))
    event = Event.objects.filter(chain=table.chain, action="limit_set").latest("sequence")
    assert event.data["reason"] == "High-limit evening"


def test_a_commission_change_is_refused_without_notice_on_the_rules_page(
    floor_staff, live_server, browser
):
    table = table_for("s42-mini-4")
    actions.open_table(table, actor=floor_staff["dealer4"])  # the demo's dealer at MB-4
    page = log_in(browser.start(), live_server, "pitboss")
    page.set_viewport_size(SMALL)
    page.goto(f"{live_server.url}/floor/tables/{table.pk}/rules/")
    page.locator("[data-option=commission_rate]").fill("0.05")
    page.click("button:has-text('File the Rules Submission')")
    error = page.locator("#error")
    error.wait_for()
    assert "30 minutes before the commission rate change" in error.inner_text()
    shot(page, "table-rules-refused-without-notice")
    browser.stop()
    assert table.rules.commission_rate == Decimal("0.04")
