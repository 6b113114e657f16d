"""The master game report: drop, win and hold per table and game type for the day, month to
date and year to date, a hold outside the casino's bounds flagged."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.test import Client
from django.urls import reverse

from accounting import services
from accounting.reports import master_report
from tablegame.models import Table
from tests.accounting.conftest import chips

D = Decimal


def _day(staff, table, day, *, opener=None, closer, drop):
    sign = {"dealer": staff["dealer"], "floorperson": staff["floor"], "actor": staff["floor"]}
    if opener is not None:
        services.record_inventory(table, day=day, kind="opener", chips=chips(d100=opener), **sign)
    services.record_inventory(table, day=day, kind="closer", chips=chips(d100=closer), **sign)
    services.record_drop(
        table, day=day, currency=chips(d100=drop), witness=staff["admin"], actor=staff["accounting"]
    )


def test_day_month_and_year_to_date(staff):
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = datetime.date(2026, 3, 10)
    # In $100 pieces. 28 Feb: opener 100, closer 110, drop 20 -> win 30.
    _day(staff, table, datetime.date(2026, 2, 28), opener=100, closer=110, drop=20)
    # 9 Mar: no opener, so the last closer, 110; closer 100, drop 100 -> win 90.
    _day(staff, table, datetime.date(2026, 3, 9), closer=100, drop=100)
    # 10 Mar: opener the last closer, 100; closer 105, drop 50 -> win 55 (hold 110 %).
    # Month: drop 150, win 145 (96.67 %); year: drop 170, win 175 (102.94 %); all over 30 %.
    _day(staff, table, day, closer=105, drop=50)
    by_table, by_game = master_report(casino, day)
    line = next(line for line in by_table if line.name.endswith("MB-1"))
    h = D(100)  # a $100 chip or note
    assert (line.day.drop, line.day.win, line.day.hold) == (50 * h, 55 * h, D("110.00"))
    assert (line.month.drop, line.month.win) == (150 * h, 145 * h)
    assert (line.year.drop, line.year.win) == (170 * h, 175 * h)
    assert line.year.hold == D("102.94")
    assert line.flagged == ["day hold 110.00%", "MTD hold 96.67%", "YTD hold 102.94%"]
    assert [g.name for g in by_game] == ["Massachusetts Minibaccarat"]
    client = Client()
    client.force_login(staff["accounting"])
    page = client.get(reverse("accounting:master"), {"day": day.isoformat()})
    assert page.status_code == 200 and "YTD hold 102.94%" in page.content.decode()
