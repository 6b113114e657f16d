"""A row stored with a day no casino can mean (written straight to the database, as before the
forms checked their days) makes no page fail, and the scheduled close neither loops over the
centuries to it nor closes it: it closes the days it can mean and logs what it skipped."""

from __future__ import annotations

import datetime
import logging
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounting import services
from accounting.inputs import earliest_day
from accounting.models import GamingDay, TableInventory
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import chips

ANCIENT = datetime.date(1, 1, 1)
FAR_AHEAD = datetime.date(9999, 12, 31)


@pytest.fixture
def stored(staff):
    """MB-1 with a closer of year 0001 and one of 9999-12-31, and their gaming day rows."""
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    for day in (ANCIENT, FAR_AHEAD):
        TableInventory.objects.create(
            table=table, day=day, kind="closer", chips={"100": 10}, total=Decimal("1000.00"),
            dealer=staff["dealer"], floorperson=staff["floor"], recorded_by=staff["floor"],
        )  # fmt: skip
        GamingDay.objects.create(casino=casino, day=day)
    return table


@pytest.mark.parametrize(
    "page", ["day", "day-csv", "day-pdf", "master", "rounds", "close", "table-day", "inventory"]
)
def test_the_pages_open_with_a_stored_row_out_of_range(staff, stored, page):
    client = Client()
    client.force_login(staff["admin"])
    today = stored.pit.casino.gaming_day(timezone.now())
    for day in (today, today - datetime.timedelta(days=1)):
        answer = client.get(
            reverse(f"accounting:{page}"), {"day": day.isoformat(), "table": stored.pk}
        )
        assert answer.status_code == 200, (page, day)


def test_the_scheduled_close_skips_the_ancient_row_and_says_so(staff, stored, caplog):
    casino = stored.pit.casino
    now = timezone.now()
    day = casino.gaming_day(now) - datetime.timedelta(days=3)
    services.record_inventory(
        stored, day=day, kind="opener", chips=chips(d100=10), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip
    with caplog.at_level(logging.WARNING, logger="accounting.services"):
        closed = services.close_due_days(now)
    assert closed and len(closed) <= 3  # from the counted day to the last one due
    assert closed[0][1] == day.isoformat()
    assert not GamingDay.objects.get(day=ANCIENT).is_closed
    assert not GamingDay.objects.get(day=FAR_AHEAD).is_closed
    assert "skipped 1 gaming day row(s)" in caplog.text
    assert f"before {earliest_day(casino, now).isoformat()}" in caplog.text
    assert "first: 0001-01-01" in caplog.text


def test_a_closer_before_a_stored_far_ahead_closer_locks_only_days_it_can_mean(staff, stored):
    yesterday = stored.pit.casino.gaming_day(timezone.now()) - datetime.timedelta(days=1)
    services.record_inventory(
        stored, day=yesterday, kind="closer", chips=chips(d100=10), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip
    # yesterday, today, tomorrow (a count may be of it), and the two stored rows
    assert GamingDay.objects.count() == 5


def test_amending_the_ancient_row_is_refused_in_words(staff, stored):
    row = TableInventory.objects.get(day=ANCIENT)
    with pytest.raises(ActionError, match="more than 5 years before"):
        services.amend_inventory(
            row, chips=chips(d100=11), reason="Recount", approver=staff["admin"],
            actor=staff["accounting"],
        )  # fmt: skip
    assert TableInventory.objects.count() == 2


def test_a_long_gap_is_closed_a_bounded_number_of_days_per_run(staff, caplog):
    casino = Table.objects.get(name="MB-1").pit.casino
    now = timezone.now()
    first = casino.gaming_day(now) - datetime.timedelta(days=100)
    GamingDay.objects.create(casino=casino, day=first)
    with caplog.at_level(logging.WARNING, logger="accounting.services"):
        due = services.days_due(casino, now)
    assert len(due) == services.MOST_DAYS_PER_RUN
    assert due == [first + datetime.timedelta(days=n) for n in range(len(due))]
    assert "left to the next runs" in caplog.text


def test_a_refused_day_stops_its_casino_s_schedule_without_failing_it(staff, monkeypatch, caplog):
    table, now = Table.objects.get(name="MB-1"), timezone.now()
    day = table.pit.casino.gaming_day(now) - datetime.timedelta(days=3)
    services.record_inventory(
        table, day=day, kind="closer", chips=chips(d100=10), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip

    def disagrees(casino, when, actor=None):
        raise ActionError(f"The gaming day {when} is not closed: it disagrees.")

    monkeypatch.setattr(services, "close_gaming_day", disagrees)
    with caplog.at_level(logging.ERROR, logger="accounting.services"):
        assert services.close_due_days(now) == []
    assert f"the scheduled close stopped at {day}" in caplog.text
    assert caplog.text.count("stopped at") == 1  # the later days wait for it
    assert not GamingDay.objects.filter(status="closed").exists()
