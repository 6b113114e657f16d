"""A pit's and the casino's totals are the sums of exactly the table rows the report lists: a table
with nothing on the day (its tray taken from an earlier closer) added its opener and closer to
them ($349,366 against $98,986 for the rows shown), and counts of another day add nothing.

The day of ``played_day`` (tests/accounting/conftest.py) lists MB-1 and MB-3:
opener 10,000 + 5,000 = 15,000; closer 10,365 + 4,000 = 14,365; fills 2,000; credits 500;
drop 1,000 + 1,200 = 2,200; win -135 + 200 = 65.
"""

from __future__ import annotations

import csv
import datetime
import io
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from accounting import services
from accounting.reports import day_report
from tablegame.models import Table
from tests.accounting.conftest import PlayedDay, chips

COLUMNS = ("opener", "closer", "fills", "credits", "drop", "win")
LISTED = {
    "opener": Decimal("15000.00"),
    "closer": Decimal("14365.00"),
    "fills": Decimal("2000.00"),
    "credits": Decimal("500.00"),
    "drop": Decimal("2200.00"),
    "win": Decimal("65.00"),
}


@pytest.fixture
def other_days(played_day: PlayedDay) -> PlayedDay:
    """Besides the played day: MB-2, not dealt that day, closed $20,000 the day before; MB-1 is
    counted the next day ($10,365 opener, $12,000 closer), and MB-4 only the next day."""
    staff = played_day.staff
    signed = {"dealer": staff["dealer"], "floorperson": staff["floor"], "actor": staff["floor"]}
    mb2, mb4 = Table.objects.get(name="MB-2"), Table.objects.get(name="MB-4")
    before = played_day.day - datetime.timedelta(days=1)
    after = played_day.day + datetime.timedelta(days=1)
    services.record_inventory(mb2, day=before, kind="closer", chips=chips(d100=200), **signed)
    mb = played_day.mb
    opener = chips(d100=103, d25=2, d5=3)
    services.record_inventory(mb, day=after, kind="opener", chips=opener, **signed)
    services.record_inventory(mb, day=after, kind="closer", chips=chips(d100=120), **signed)
    services.record_inventory(mb4, day=after, kind="closer", chips=chips(d100=300), **signed)
    return played_day


def test_the_totals_are_the_sums_of_the_listed_rows(other_days):
    report = day_report(other_days.casino, other_days.day)
    listed = [t for t in report.tables if t.tables]
    assert [t.table for t in listed] == ["MB-1", "MB-3"]
    (pit_name, pit), *more = report.pits
    assert pit_name == "Pit 1" and more == []
    for column in COLUMNS:
        rows = sum((getattr(t, column) for t in listed), Decimal(0))
        assert rows == getattr(pit, column) == getattr(report.total, column) == LISTED[column]


class Rows(HTMLParser):
    """The cells of each row of the page's table "tables", with the row's section and class."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[str, str, list[str]]] = []
        self.inside = False
        self.section = ""
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.inside = found.get("id") == "tables"
        elif self.inside and tag in ("tbody", "tfoot"):
            self.section = tag
        elif self.inside and tag == "tr" and self.section:
            self.rows.append((self.section, found.get("class") or "", []))
        elif self.inside and tag == "td" and self.rows:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif tag == "td" and self.cell is not None and self.rows:
            self.rows[-1][2].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_the_page_shows_pit_and_casino_totals_equal_to_its_rows(other_days):
    client = Client()
    client.force_login(other_days.staff["accounting"])
    page = client.get(reverse("accounting:day"), {"day": other_days.day.isoformat()})
    parser = Rows()
    parser.feed(page.content.decode())
    # The cells after the name: opener, closer, fills, credits, drop, win.
    figures = [
        (section, cls, cells[0], [Decimal(c.removesuffix("*")) for c in cells[1:7]])
        for section, cls, cells in parser.rows
    ]
    tables = [f for f in figures if f[0] == "tbody"]
    assert [name for _s, _c, name, _v in tables] == ["MB-1", "MB-3"]
    sums = [sum(values, Decimal(0)) for values in zip(*(v for *_rest, v in tables), strict=True)]
    assert sums == [LISTED[c] for c in COLUMNS]
    pit = next(v for s, c, name, v in figures if s == "tfoot" and name == "Pit 1")
    casino = next(v for s, c, name, v in figures if s == "tfoot" and c == "total")
    assert pit == casino == sums


def test_the_csv_totals_are_the_sums_of_its_table_rows(other_days):
    client = Client()
    client.force_login(other_days.staff["accounting"])
    answer = client.get(reverse("accounting:day-csv"), {"day": other_days.day.isoformat()})
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    header = rows[1]
    named = [dict(zip(header, row, strict=False)) for row in rows[2:] if row]
    tables = [r for r in named if r["Level"] == "table"]
    assert [r["Table"] for r in tables] == ["MB-1", "MB-3"]
    for column in ("Opener", "Closer", "Fills", "Credits", "Drop", "Win"):
        listed = sum((Decimal(r[column]) for r in tables), Decimal(0))
        for level in ("pit", "casino"):
            total = next(r for r in named if r["Level"] == level)
            assert Decimal(total[column]) == listed == LISTED[column.lower()], (level, column)
