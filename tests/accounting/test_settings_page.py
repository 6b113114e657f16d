"""Accounting sets its variance threshold, hold bounds and close delay on a page: each change is
an event in the record with the old and new values and who made it, listed on the page, and
the report's flags follow it; bad values are refused in plain words and change nothing."""

from __future__ import annotations

import datetime
import html
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounting import services
from accounting.models import AccountingSettings
from accounting.reports import day_report
from casino.models import Casino, Event
from casino.record import deployment_casino
from tablegame.errors import ActionError
from tests.clients import signed_in

DEFAULTS = {
    "variance_threshold": "100.00",
    "hold_low": "8.00",
    "hold_high": "30.00",
    "close_after_hours": "10",
}


def _casino() -> Casino:
    casino = deployment_casino()
    assert casino is not None
    return casino


def _url() -> str:
    """The page's address, resolved when a test runs (resolving it on import would load the
    URLs with the settings of collection time, DEBUG's static route included)."""
    return reverse("accounting:settings")


def _post(client: Client, **changed: str) -> str:
    page = client.post(_url(), {**DEFAULTS, **changed}, follow=True)
    assert page.status_code == 200
    return html.unescape(page.content.decode())


def test_a_change_is_recorded_listed_and_flags_the_report(played_day):
    s42 = played_day.s42  # hold 16.67 %, variance $350
    lines = {t.table_id: t for t in day_report(played_day.casino, played_day.day).tables}
    assert not lines[s42.pk].hold_flagged and lines[s42.pk].variance_flagged
    acct = signed_in(played_day.staff["accounting"])
    page = _post(acct, hold_high="15", variance_threshold="400")
    assert "Settings changed; the change is recorded." in page
    assert "Variance threshold $100.00 → $400.00; Highest hold 30.00% → 15.00%" in page
    event = Event.objects.get(action="accounting_settings_changed")
    assert event.actor == played_day.staff["accounting"]
    assert event.data["changes"] == [
        {"setting": "variance_threshold", "before": "100.00", "after": "400.00"},
        {"setting": "hold_high", "before": "30.00", "after": "15.00"},
    ]
    report = day_report(played_day.casino, played_day.day)
    lines = {t.table_id: t for t in report.tables}
    assert lines[s42.pk].hold_flagged and not lines[s42.pk].variance_flagged
    assert (s42.name, "Hold 16.67% is outside 8.00%-15.00%") in report.flags


def test_the_close_delay_set_on_the_page_is_the_schedules(staff):
    casino = _casino()
    acct = signed_in(staff["accounting"])
    _post(acct, close_after_hours="48")
    assert AccountingSettings.of(casino).close_after_hours == 48
    now = timezone.now()
    yesterday = casino.gaming_day(now) - datetime.timedelta(days=1)
    services.lock_day(casino, yesterday - datetime.timedelta(days=3))  # a first day with a row
    assert yesterday not in services.days_due(casino, now)  # it ended less than 48 hours ago


@pytest.mark.parametrize(
    ("changed", "refusal"),
    [
        ({"variance_threshold": "-1"}, "The variance threshold is from $0 to $1,000,000.00"),
        ({"variance_threshold": "2000000"}, "The variance threshold is from $0 to"),
        ({"variance_threshold": "ten"}, "The variance threshold is not a number: 'ten'."),
        ({"variance_threshold": "1.005"}, "to two decimal places at most"),
        ({"hold_low": "30", "hold_high": "20"}, "The lowest hold (30.00%) must be below the"),
        ({"hold_low": "12", "hold_high": "12"}, "must be below the highest (12.00%)"),
        ({"hold_high": "101"}, "A hold bound is a percentage from 0 to 100."),
        ({"hold_low": "-2"}, "A hold bound is a percentage from 0 to 100."),
        ({"close_after_hours": "0"}, "The close delay is a whole number of hours from 1 to 72"),
        ({"close_after_hours": "100"}, "from 1 to 72: '100' is not."),
        ({"close_after_hours": "2.5"}, "The close delay is a whole number of hours"),
        ({}, "These are the settings already: nothing was changed."),
    ],
)
def test_bad_values_are_refused_and_change_nothing(staff, changed, refusal):
    acct = signed_in(staff["accounting"])
    page = _post(acct, **changed)
    assert refusal in page
    for name, value in changed.items():  # the form keeps what was typed
        assert f'name="{name}" inputmode' in page and f'value="{value}"' in page
    assert not AccountingSettings.objects.exists()
    assert not Event.objects.filter(action="accounting_settings_changed").exists()


def test_only_accounting_and_the_administrator_set_them(staff):
    assert (
        signed_in(staff["pitboss"]).post(_url(), {**DEFAULTS, "hold_low": "1"}).status_code == 403
    )
    assert "Only accounting may set accounting" in html.unescape(
        signed_in(staff["floor"]).get(_url()).content.decode()
    )
    with pytest.raises(ActionError, match="Only accounting may set"):
        services.set_accounting_settings(_casino(), **DEFAULTS, actor=staff["pitboss"])
    assert "Settings changed" in _post(signed_in(staff["admin"]), hold_low="5")
    assert AccountingSettings.objects.get().hold_low == Decimal("5.00")
