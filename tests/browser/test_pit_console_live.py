"""The pit console's newer pieces in real Chromium at 1024x768: notices of procedure changes
acknowledged by surveillance and seen so on the console, live over Daphne's sockets; the forms
page following other people's signatures live; the deck-change schedule and moving the
player-dealer position from the console by tapping, with their reasons."""

from __future__ import annotations

import datetime

from django.utils import timezone
from playwright.sync_api import ViewportSize

from casino.models import Event
from tablegame import actions
from tablegame.models import DeckChange, ProcedureNotice, VigorishForm
from tablegame.vigorish_forms import actions as forms
from tests.browser.conftest import log_in, shot
from tests.pit.conftest import deferred_table, requested_marker
from tests.tablegame.conftest import deal_at, ready_table, table_for
from tests.values import present

SMALL = ViewportSize(width=1024, height=768)


def screen(chromium, server, username, path):
    page = log_in(chromium, server, username)
    page.set_viewport_size(SMALL)
    page.goto(f"{server.url}{path}")
    return page


def test_surveillance_acknowledges_a_notice_and_the_console_shows_it_live(
    floor_staff, daphne, browser
):
    table = deal_at(table_for("s42-mini-4"), floor_staff["dealer"], floor_staff["floor"])
    actions.open_table(table, actor=floor_staff["dealer"])
    zone = table.pit.casino.zone
    when = (timezone.now() + datetime.timedelta(minutes=40)).astimezone(zone)
    chromium = browser.start()
    wall = screen(chromium, daphne, "surveillance", "/surveillance/")
    wall.wait_for_selector("#live-status:text-is('Live')")
    console = screen(chromium, daphne, "floor", "/floor/")
    rules = screen(chromium, daphne, "pitboss", f"/floor/tables/{table.pk}/rules/")
    rules.locator("[data-option=commission_rate]").fill("0.05")
    rules.fill("input[name=effective_at]", when.strftime("%Y-%m-%dT%H:%M"))
    rules.click("button:has-text('File the Rules Submission')")
    rules.locator("text=not yet acknowledged by surveillance").wait_for()
    shot(rules, "notice-rules-page-filed")

    notice = wall.locator("#notices .notice.waiting")  # no reload: the socket's notice
    notice.locator("text=commission rate changes at").wait_for(timeout=5000)
    tile = console.locator(f"[data-table='{table.pk}']")
    tile.locator("text=not yet acknowledged by surveillance").wait_for(timeout=5000)
    shot(wall, "notice-surveillance-wall")
    shot(console, "notice-console-waiting")
    notice.locator("button:has-text('Acknowledge')").click()
    wall.locator("#notices h2:has-text('No notice waiting')").wait_for(timeout=5000)
    tile.locator("text=surveillance acknowledged (surveillance,").wait_for(timeout=5000)
    shot(console, "notice-console-acknowledged")
    browser.stop()
    filed = ProcedureNotice.objects.get()
    assert (
        filed.acknowledged_by == floor_staff["surveillance"] and filed.changes == "commission rate"
    )


def test_the_forms_page_shows_a_form_prepared_and_signed_elsewhere_without_a_reload(
    floor_staff, daphne, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    table = deferred_table(dealer, floor)
    marker = requested_marker(table, dealer)
    pit = table.pit
    forms.receive_form_series(pit, first_number=7001, last_number=7050, actor=floor_staff["clerk"])
    chromium = browser.start()
    boss = screen(chromium, daphne, "pitboss", "/floor/forms/")
    boss.wait_for_selector("#live-status:text-is('Live.')")
    boss.locator(f"[data-marker='{marker.pk}']").wait_for()
    loads = []
    boss.on("framenavigated", lambda frame: loads.append(frame.url))
    # The dealer's page (the pit of their table) follows over the table's own socket, no poll.
    dealing = screen(chromium, daphne, "dealer", "/floor/forms/")
    dealing.wait_for_selector("#live-status:text-is('Live.')")
    clerk = screen(chromium, daphne, "clerk", "/floor/forms/")
    clerk.locator(f"[data-marker='{marker.pk}'] input[name=patron_name]").fill("Ana Ruiz")
    with clerk.expect_navigation():
        clerk.locator(f"[data-marker='{marker.pk}'] button:has-text('Prepare form')").click()
    boss.locator("a:text('007001')").wait_for(timeout=5000)  # the clerk's form, live
    shot(boss, "forms-live-boss-sees-prepared")
    with boss.expect_navigation():
        boss.locator("button:has-text('Sign as pit boss')").click()
    clerk.locator("[data-form] td:has-text('pitboss')").first.wait_for(timeout=5000)
    shot(clerk, "forms-live-clerk-sees-signature")
    dealing.locator("[data-form] td:has-text('pitboss')").first.wait_for(timeout=5000)
    assert dealing.inner_text("#live-status") == "Live."  # never fell back to polling
    browser.stop()
    assert loads == [f"{daphne.url}/floor/forms/"]  # the boss's page loaded again only on his tap
    form = VigorishForm.objects.get()
    assert (form.pit_boss, form.patron_name) == (floor_staff["pitboss"], "Ana Ruiz")


def test_the_console_schedules_the_deck_change_and_moves_the_player_dealer(
    floor_staff, live_server, browser
):
    dealer, floor = floor_staff["dealer"], floor_staff["floor"]
    mini = ready_table("ma-mini", dealer, floor)
    ca = deal_at(table_for("ca-commission-free"), dealer, floor)
    actions.open_table(ca, actor=dealer)
    for seat in (1, 2, 4):
        actions.seat_player(ca, seat=seat, player=f"P{seat}", actor=dealer)
    actions.take_player_dealer(ca, seat=4, actor=dealer)
    zone = mini.pit.casino.zone
    due = (timezone.now() + datetime.timedelta(hours=3)).astimezone(zone)
    page = screen(browser.start(), live_server, "floor", "/floor/")
    tile = page.locator(f"[data-table='{mini.pk}']")
    tile.locator("summary:text('Supervisor')").click()
    tile.locator("input[name=due_at]").fill(due.strftime("%Y-%m-%dT%H:%M"))
    tile.locator("button:has-text('Schedule the deck change')").click()
    page.locator("#error:has-text('Say why the deck change is rescheduled')").wait_for()
    tile.locator("input[name=reason]").fill("Marked cards suspected")
    tile.locator("button:has-text('Schedule the deck change')").click()
    page.locator(
        f"[data-table='{mini.pk}'] dd:has-text('due {due:%b} {due.day}, {due:%H:%M}')"
    ).wait_for()
    shot(page, "console-deck-schedule")
    tile = page.locator(f"[data-table='{ca.pk}']")
    tile.locator("summary:text('Supervisor')").click()
    tile.locator("select[name=seat]").select_option("1")
    tile.locator("input[name=reason]").fill("Seat 4 asked to stop banking")
    tile.locator("button:has-text('Move the position')").click()
    page.locator(
        f"[data-table='{ca.pk}'] select[name=seat] option[selected]:text-is('1')"
    ).wait_for(state="attached")
    shot(page, "console-player-dealer-moved")
    browser.stop()
    schedule = DeckChange.objects.get(table=mini)
    assert present(schedule.due_at).astimezone(zone).strftime("%H:%M") == due.strftime("%H:%M")
    moved = Event.objects.filter(chain=ca.chain, action="player_dealer_taken").latest("sequence")
    assert (moved.actor, moved.data["reason"]) == (floor, "Seat 4 asked to stop banking")
