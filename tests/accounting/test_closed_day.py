"""A closed day is closed: no count of another day may change its figures (a table's opener is
the last closer before the day, so an earlier day's closer is part of it), and what the close
recorded is what the report shows, until the day is reopened by two people."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounting import services
from accounting.models import TableInventory
from accounting.reports import day_report
from casino.models import Casino, Event
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import chips


def _closer(table: Table, day: datetime.date, hundreds: int, staff: dict[str, User]) -> None:
    services.record_inventory(
        table, day=day, kind="closer", chips=chips(d100=hundreds), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip


def _closed_with(casino: Casino, day: datetime.date) -> dict[str, str]:
    """The figures the last close of ``day`` recorded."""
    event = Event.objects.filter(action="gaming_day_closed", data__day=day.isoformat()).latest(
        "created_at"
    )
    return {"drop": event.data["drop"], "win": event.data["win"]}


def _reported(casino: Casino, day: datetime.date) -> dict[str, str]:
    total = day_report(casino, day).total
    return {"drop": str(total.drop), "win": str(total.win)}


@pytest.fixture
def closed_day(staff: dict[str, User]) -> tuple[Table, datetime.date]:
    """MB-1's gaming day D (yesterday), closed with a win of $1,500: the closer of D-2 ($10,000)
    is its opener, its closer $11,000, its drop $500. D-1 is open and has no closer."""
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now()) - datetime.timedelta(days=1)
    _closer(table, day - datetime.timedelta(days=2), 100, staff)
    _closer(table, day, 110, staff)
    services.record_drop(
        table, day=day, currency=chips(d100=5), witness=staff["admin"], actor=staff["accounting"]
    )
    services.close_gaming_day(casino, day, actor=staff["accounting"])
    return table, day


def test_the_close_records_what_the_report_shows(closed_day):
    table, day = closed_day
    casino = table.pit.casino
    assert _closed_with(casino, day) == {"drop": "500.00", "win": "1500.00"}
    assert _reported(casino, day) == _closed_with(casino, day)


def test_a_closer_of_an_earlier_open_day_that_would_change_a_closed_day_is_refused(
    closed_day, staff
):
    table, day = closed_day
    casino = table.pit.casino
    earlier = day - datetime.timedelta(days=1)
    with pytest.raises(ActionError, match=f"closed gaming day {day:%Y-%m-%d}"):
        _closer(table, earlier, 120, staff)  # would make D's opener $12,000 and its win -$500
    assert not TableInventory.objects.filter(table=table, day=earlier).exists()
    assert (
        _reported(casino, day)
        == _closed_with(casino, day)
        == {
            "drop": "500.00",
            "win": "1500.00",
        }
    )


def test_once_the_day_is_reopened_the_closer_is_taken_and_the_next_close_records_it(
    closed_day, staff
):
    table, day = closed_day
    casino = table.pit.casino
    earlier = day - datetime.timedelta(days=1)
    services.reopen_gaming_day(
        casino, day, reason="MB-1's closer of the day before was never entered",
        approver=staff["admin"], actor=staff["accounting"],
    )  # fmt: skip
    _closer(table, earlier, 120, staff)
    assert day_report(casino, day).total.win == Decimal("-500.00")
    reopened = Event.objects.get(action="gaming_day_reopened", data__day=day.isoformat())
    assert reopened.actor == staff["accounting"] and reopened.data["approved_by"] == "admin"
    services.close_gaming_day(casino, day, actor=staff["accounting"])
    assert (
        _reported(casino, day)
        == _closed_with(casino, day)
        == {
            "drop": "500.00",
            "win": "-500.00",
        }
    )


def test_a_closer_before_another_closer_leaves_the_closed_day_alone(closed_day, staff):
    """D's opener is the closer of D-1 once that is counted: a closer of D-3 then changes only
    D-2's and D-1's figures, both open days, and is taken."""
    table, day = closed_day
    casino = table.pit.casino
    services.reopen_gaming_day(
        casino, day, reason="Enter the closer of the day before",
        approver=staff["admin"], actor=staff["accounting"],
    )  # fmt: skip
    _closer(table, day - datetime.timedelta(days=1), 100, staff)
    services.close_gaming_day(casino, day, actor=staff["accounting"])
    _closer(table, day - datetime.timedelta(days=3), 90, staff)
    assert (
        _reported(casino, day)
        == _closed_with(casino, day)
        == {
            "drop": "500.00",
            "win": "1500.00",
        }
    )


def test_an_opener_of_the_closed_day_itself_is_refused(closed_day, staff):
    table, day = closed_day
    with pytest.raises(ActionError, match=f"gaming day {day:%Y-%m-%d} is closed"):
        services.record_inventory(
            table, day=day, kind="opener", chips=chips(d100=120), dealer=staff["dealer"],
            floorperson=staff["floor"], actor=staff["floor"],
        )  # fmt: skip
