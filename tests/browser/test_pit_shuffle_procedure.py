"""The pit's shuffle procedure changed on a table's rules page in real Chromium: every table of
the pit dealt under text 002 gets it at the stated time, each with surveillance's notice, and
the page lists what the filing changes (issue 27)."""

from __future__ import annotations

import datetime

from django.utils import timezone

from tablegame.models import ProcedureNotice, Table
from tests.browser.conftest import log_in, shot
from tests.tablegame.conftest import table_for
from tests.values import present


def test_the_pits_shuffle_procedure_is_changed_on_the_rules_page(floor_staff, live_server, browser):
    table = table_for("s42-mini")
    zone = table.pit.casino.zone
    when = (timezone.now() + datetime.timedelta(minutes=40)).astimezone(zone)
    chromium = browser.start()
    page = log_in(chromium, live_server, "pitboss")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}/floor/tables/{table.pk}/rules/")
    page.select_option("select[name=shuffle]", "laced")
    page.fill("input[name=pit_effective_at]", when.strftime("%Y-%m-%dT%H:%M"))
    page.click('button:has-text("Change the pit\'s procedure")')
    page.locator(".pending li:has-text('changes · shuffle laced')").wait_for()
    shot(page, "pit-shuffle-procedure-filed")
    browser.stop()
    section_42 = set(Table.objects.filter(profile__startswith="s42"))
    notices = ProcedureNotice.objects.all()
    assert {n.table for n in notices} == section_42
    assert {n.changes for n in notices} == {"shuffle procedure"}
    assert {t.rules.shuffle.value for t in section_42} == {"feathered"}  # until its time
    later = when + datetime.timedelta(minutes=1)
    assert {present(t.rules_record(later)).submission.shuffle.value for t in section_42} == {
        "laced"
    }
