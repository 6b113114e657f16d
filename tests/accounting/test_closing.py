"""Closing the gaming day: final; reopened only by two people, the second senior; by hand with
manage.py close_gaming_day, and on the schedule by a real Celery worker against Redis."""

from __future__ import annotations

import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounting import services
from accounting.models import DayReopening, GamingDay
from accounting.tasks import close_gaming_days
from casino.models import Event
from config.celery import app
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import chips

ROOT = Path(__file__).resolve().parents[2]


def _count_a_past_day(staff: dict[str, User], days_ago: int = 2) -> tuple[Table, datetime.date]:
    table = Table.objects.get(name="MB-1")
    day = table.pit.casino.gaming_day(timezone.now()) - datetime.timedelta(days=days_ago)
    services.record_inventory(
        table, day=day, kind="closer", chips=chips(d100=10), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip
    return table, day


def test_a_closed_day_is_final(staff):
    table, day = _count_a_past_day(staff)
    casino = table.pit.casino
    closed = services.close_gaming_day(casino, day, actor=staff["accounting"])
    assert closed is not None and closed.is_closed
    event = Event.objects.filter(action="gaming_day_closed").get()
    # Nothing counted before the closer of 1,000: the opener is 0 (and flagged in the report).
    assert event.data == {"day": day.isoformat(), "drop": "0.00", "win": "1000.00", "tables": 1}
    with pytest.raises(ActionError, match="is closed"):
        services.record_drop(
            table, day=day, currency=chips(d100=1), witness=staff["admin"],
            actor=staff["accounting"],
        )  # fmt: skip
    assert services.close_gaming_day(casino, day) is None  # closing again changes nothing


def test_a_day_that_has_not_ended_cannot_be_closed(staff):
    table = Table.objects.get(name="MB-1")
    today = table.pit.casino.gaming_day(timezone.now())
    with pytest.raises(ActionError, match="has not ended"):
        services.close_gaming_day(table.pit.casino, today)


def test_reopening_needs_a_second_senior_person_and_is_recorded(staff):
    table, day = _count_a_past_day(staff)
    casino = table.pit.casino
    services.close_gaming_day(casino, day)
    acct = staff["accounting"]
    with pytest.raises(ActionError, match="second person"):
        services.reopen_gaming_day(casino, day, reason="Recount", approver=acct, actor=acct)
    with pytest.raises(ActionError, match="Only an administrator"):
        services.reopen_gaming_day(
            casino, day, reason="Recount", approver=staff["pitboss"], actor=acct
        )
    with pytest.raises(ActionError, match="Say why"):
        services.reopen_gaming_day(casino, day, reason=" ", approver=staff["admin"], actor=acct)
    services.reopen_gaming_day(
        casino, day, reason="Box MB-1 recounted", approver=staff["admin"], actor=acct
    )
    assert GamingDay.objects.get(casino=casino, day=day).status == "open"
    reopening = DayReopening.objects.get()
    assert (reopening.reopened_by, reopening.approved_by) == (acct, staff["admin"])
    event = Event.objects.get(action="gaming_day_reopened")
    assert event.actor == acct and event.data["approved_by"] == "admin"
    # Reopened, the day takes the recount; the schedule leaves it to the people who reopened it.
    services.record_drop(table, day=day, currency=chips(d100=1), witness=staff["admin"], actor=acct)
    assert day not in services.days_due(casino, timezone.now())


def test_the_command_closes_a_day_by_hand(staff):
    _table, day = _count_a_past_day(staff)
    out = StringIO()
    call_command("close_gaming_day", "--day", day.isoformat(), "--user", "accounting", stdout=out)
    assert out.getvalue() == f"Demo Casino: gaming day {day} closed\n"
    closed = GamingDay.objects.get(day=day)
    assert closed.is_closed and closed.closed_by == staff["accounting"]
    with pytest.raises(CommandError, match="not a date"):
        call_command("close_gaming_day", "--day", "yesterday")


def test_the_schedule_closes_each_due_day_once(staff):
    table, day = _count_a_past_day(staff, days_ago=3)
    casino = table.pit.casino
    now = timezone.now()
    due = services.days_due(casino, now)
    assert due[0] == day and due == sorted(due) and len(due) >= 2
    closed = services.close_due_days(now)
    assert [d for _c, d in closed] == [d.isoformat() for d in due]
    assert services.close_due_days(now) == []
    assert app.conf.beat_schedule["close-gaming-days"]["task"] == close_gaming_days.name


def test_a_real_celery_worker_closes_the_due_days(floor_staff, worker):
    _table, day = _count_a_past_day(floor_staff, days_ago=2)
    closed = close_gaming_days.apply_async(queue=worker.queue).get(timeout=90)
    assert ["Demo Casino", day.isoformat()] in closed, worker.log.read_text()
    assert GamingDay.objects.get(day=day).is_closed
    assert Event.objects.filter(action="gaming_day_closed", data__day=day.isoformat()).exists()


def test_a_closed_day_reads_the_same_figures_from_its_summary(played_day, settings):
    from accounting.reports import day_report

    casino, day = played_day.casino, played_day.day
    live = day_report(casino, day)
    gaming_day = services.lock_day(casino, day)
    gaming_day.status = GamingDay.Status.CLOSED  # as closing does, without waiting for the end
    gaming_day.save(update_fields=["status"])
    from accounting.reports import freeze, thaw

    # Groups by table, type and result: MB-1 Banker won, Player lost, Player won, Tie lost;
    # the other table Banker won, Player lost.
    assert freeze(gaming_day) == 6
    frozen = day_report(casino, day)
    assert frozen.frozen and not live.frozen
    key = [(t.table_id, t.rounds, t.voids, t.shoes, t.tracked, t.theoretical, t.wagered)
           for t in live.tables]  # fmt: skip
    assert key == [
        (t.table_id, t.rounds, t.voids, t.shoes, t.tracked, t.theoretical, t.wagered)
        for t in frozen.tables
    ]
    assert frozen.wager_types == live.wager_types
    assert frozen.commission_at_payout == live.commission_at_payout
    thaw(gaming_day)
    assert not day_report(casino, day).frozen
