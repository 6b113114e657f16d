"""Notices of a change of procedure: filed with the change, read and acknowledged by surveillance
(who, when, recorded), shown on the pit console as acknowledged or not."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from casino.models import Event, Pit
from tablegame import actions
from tablegame.actions import ActionError, NotAllowed
from tablegame.actions.notices import acknowledge_procedure_notice
from tablegame.actions.tables import file_pit_procedure
from tablegame.models import ProcedureNotice, Table
from tests.clients import logged_in
from tests.tablegame.conftest import deal_at, table_for


def later(minutes: int = 45) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(minutes=minutes)


def commission_change(dealer, floor) -> ProcedureNotice:
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    filed = actions.file_rules(
        table,
        profile="s42-mini",
        options={"commission_rate": "0.04"},
        effective_at=later(),
        actor=floor,
    )
    return ProcedureNotice.objects.get(rules=filed)


def test_a_commission_change_files_a_notice_saying_what_changes(db, dealer, floor):
    notice = commission_change(dealer, floor)
    assert notice.changes == "commission rate"
    assert "5 %" in notice.before and "4 %" in notice.after
    assert (notice.filed_by, notice.acknowledged_at) == (floor, None)


def test_an_option_that_needs_no_notice_files_none(db, dealer, floor):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    actions.file_rules(table, profile="s42-mini", options={"tie_odds": 9}, actor=floor)
    assert not ProcedureNotice.objects.exists()


def test_a_pit_procedure_change_files_a_notice_for_each_table(db, dealer, floor):
    file_pit_procedure(
        Pit.objects.get(), settlement="vigorish_all_then_pay", effective_at=later(), actor=floor
    )
    notices = ProcedureNotice.objects.all()
    assert {n.table for n in notices} == set(Table.objects.filter(profile__startswith="s42"))
    assert {n.changes for n in notices} == {"settlement procedure"}


def test_surveillance_acknowledges_a_notice_and_the_record_says_who(db, staff, dealer, floor):
    notice = commission_change(dealer, floor)
    officer = staff["surveillance"]
    acknowledge_procedure_notice(notice, actor=officer)
    notice.refresh_from_db()
    assert notice.acknowledged_by == officer and notice.acknowledged_at is not None
    event = Event.objects.get(chain=notice.table.chain, action="notice_acknowledged")
    assert event.actor == officer and event.data["notice"] == notice.pk
    with pytest.raises(ActionError, match="acknowledged this notice already"):
        acknowledge_procedure_notice(notice, actor=officer)


@pytest.mark.parametrize("who", ["floor", "pitboss", "dealer", "clerk", "accounting"])
def test_nobody_from_the_pit_acknowledges_for_surveillance(db, staff, dealer, floor, who):
    notice = commission_change(dealer, floor)
    with pytest.raises(NotAllowed, match="Only surveillance may acknowledge"):
        acknowledge_procedure_notice(notice, actor=staff[who])
    notice.refresh_from_db()
    assert notice.acknowledged_at is None


def test_surveillance_sees_the_notice_and_acknowledges_it_over_http(db, staff, dealer, floor):
    notice = commission_change(dealer, floor)
    officer = logged_in("surveillance")
    page = officer.get("/surveillance/notices/").content.decode()
    assert "1 notice to acknowledge" in page and "commission rate changes at" in page
    wall = officer.get("/surveillance/").content.decode()
    assert f'data-acknowledge="{notice.pk}"' in wall
    answer = officer.post(
        "/surveillance/notices/acknowledge/", {"notice": notice.pk}, "application/json"
    )
    assert answer.status_code == 200
    again = officer.post(
        "/surveillance/notices/acknowledge/", {"notice": notice.pk}, "application/json"
    )
    assert again.status_code == 409 and "already" in json.loads(again.content)["error"]
    page = officer.get("/surveillance/notices/?partial=1").content.decode()
    assert "No notice waiting" in page and "Acknowledged by surveillance" in page


def test_the_pit_may_not_open_the_notices_or_acknowledge(db, staff, dealer, floor):
    notice = commission_change(dealer, floor)
    boss = logged_in("pitboss")
    assert boss.get("/surveillance/notices/").status_code == 403
    answer = boss.post(
        "/surveillance/notices/acknowledge/", {"notice": notice.pk}, "application/json"
    )
    assert answer.status_code == 403
    notice.refresh_from_db()
    assert notice.acknowledged_at is None


def test_the_console_shows_whether_surveillance_acknowledged(db, staff, dealer, floor):
    notice = commission_change(dealer, floor)
    console = logged_in("floor")
    assert "not yet acknowledged by surveillance" in console.get("/floor/").content.decode()
    acknowledge_procedure_notice(notice, actor=staff["surveillance"])
    page = console.get("/floor/").content.decode()
    assert "not yet acknowledged" not in page
    assert "surveillance acknowledged (surveillance," in page
