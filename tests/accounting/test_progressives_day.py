"""The progressives of the day report: each table's contributions to its Royal 9 meters and to its
must-hit meter, by pit and for the casino; each must-hit meter's day; the liability now, line by
line (the must-hit meters and unpaid wins were missing from both).

A hand-worked day (Massachusetts big table, 004 §13(i)-(j)). BB-1 and BB-2 feed the must-hit meter
"Stax", configuration 3 (reset $100, maximum $200, increment 2 %); its hidden hit values are drawn
at $100.50. Every wager is the $5 Royal 9 wager, every hand a natural without a Royal 9 (no award).
Royal 9 rates: Star 6 %, Spade 5 %, Heart 5 % (reseeds $50,000, $450, $450).

  round 1, BB-1, seats 1-3 ($15): Royal 9 0.90 + 0.75 + 0.75 = 2.40; Stax 2 % = 0.30 -> 100.30
  round 2, BB-2, seats 2-3 ($10): Royal 9 0.60 + 0.50 + 0.50 = 1.60; Stax 0.20 -> 100.50: it hits.
           Win 1, $100.50, to seat 2 (the lowest of 2 and 3); Stax back to $100. Win 1 is paid.
  round 3, BB-1 ($15): Royal 9 2.40; Stax 0.30 -> 100.30
  round 4, BB-1 ($15): Royal 9 2.40; Stax would reach 100.60 but stops at its hit value 100.50:
           0.20. Win 2, $100.50, to seat 1, not paid. Stax back to $100.

Contributions: BB-1 Royal 9 3 x 2.40 = 7.20, Stax 0.30 + 0.30 + 0.20 = 0.80, total 8.00;
               BB-2 Royal 9 1.60, Stax 0.20, total 1.80; Pit 1 and the casino 8.80 + 1.00 = 9.80.
Stax's day: contributions 1.00; 2 wins, $201.00; 1 paid, $100.50.
Liability now (above the reset, and the unpaid win):
  BB-1 Star 50,002.70 (2.70), Spade 452.25 (2.25), Heart 452.25 (2.25);
  BB-2 Star 50,000.60 (0.60), Spade 450.50 (0.50), Heart 450.50 (0.50);
  Stax 100.00 (0.00); Stax win 2 (BB-1 seat 1) 100.50.
  Pit 1 and the casino: 7.20 + 1.60 + 0 + 100.50 = 109.30.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from accounting.reports import day_report
from casino.models import Casino, Pit
from tablegame.models import MustHitWin
from tablegame.progressives import draw
from tablegame.progressives.actions import configure_must_hit, pay_must_hit_win
from tests.conftest import kept_for_the_module
from tests.progressives.conftest import LowDraw, big_table, naturals, royal9_round

D = Decimal


@pytest.fixture(scope="module")
def stax_day_kept(demo_floor: str, django_db_blocker: Any) -> Iterator[tuple[int, datetime.date]]:
    """The day of ``stax_day`` played once for the module's tests, each of which changes it only
    in its own transaction: the casino's pk and the day."""
    yield from kept_for_the_module(django_db_blocker, _play_stax_day)


@pytest.fixture
def stax_day(stax_day_kept: tuple[int, datetime.date], staff: dict[str, User]) -> dict[str, object]:
    """Stax, a must-hit meter at BB-1 and BB-2, hit at each (the first win paid), and Royal 9
    rounds at both, on the demo floor."""
    casino, day = stax_day_kept
    return {"casino": Casino.objects.get(pk=casino), "day": day, "staff": staff}


def _play_stax_day() -> tuple[int, datetime.date]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(draw, "RANDOM", LowDraw(spread=50))  # hit values $100.50
        return _play_stax_day_drawn_low()


def _play_stax_day_drawn_low() -> tuple[int, datetime.date]:
    dealer, floor = (User.objects.get(username=name) for name in ("dealer", "floor"))
    bb1 = big_table(dealer, floor, "ma-big")
    bb2 = big_table(dealer, floor, "ma-big-ez")
    pit = Pit.objects.get(pk=bb1.pit_id)
    stax = configure_must_hit(pit, name="Stax", configuration=3, tables=[bb1, bb2], actor=floor)
    assert stax.hit_value == D("100.50")
    royal9_round(bb1, dealer, seats=(1, 2, 3), cards=naturals(bb1))
    royal9_round(bb2, dealer, seats=(2, 3), cards=naturals(bb2))
    pay_must_hit_win(MustHitWin.objects.get(number=1), actor=floor)
    royal9_round(bb1, dealer, seats=(1, 2, 3), cards=naturals(bb1))
    royal9_round(bb1, dealer, seats=(1, 2, 3), cards=naturals(bb1))
    wins = list(MustHitWin.objects.order_by("number").values_list("table__name", "seat", "status"))
    assert wins == [("BB-2", 2, "paid"), ("BB-1", 1, "pending")]
    casino = pit.casino
    return casino.pk, casino.gaming_day(timezone.now())


def test_the_contributions_are_each_tables_by_pit_and_casino(stax_day):
    report = day_report(stax_day["casino"], stax_day["day"])
    rows = [(r.pit, r.name, r.royal9, r.must_hit, r.total) for r in report.progressive_tables]
    assert rows == [
        ("Pit 1", "BB-1", D("7.20"), D("0.80"), D("8.00")),
        ("Pit 1", "BB-2", D("1.60"), D("0.20"), D("1.80")),
    ]
    ((pit),) = report.progressive_pits
    total = report.progressive_total
    assert total is not None
    for line in (pit, total):
        assert (line.royal9, line.must_hit, line.total) == (D("8.80"), D("1.00"), D("9.80"))
    assert report.progressive_contributions == D("9.80")
    ((stax),) = report.must_hit
    assert (stax.meter, stax.tables, stax.contributed) == ("Stax", "BB-1, BB-2", D("1.00"))
    assert (stax.won, stax.won_amount, stax.paid, stax.paid_amount) == (
        2,
        D("201.00"),
        1,
        D("100.50"),
    )


def test_the_liability_is_each_meter_above_its_reset_and_the_unpaid_win(stax_day):
    report = day_report(stax_day["casino"], stax_day["day"])
    lines = [(line.name, line.amount, line.reset, line.owed) for line in report.liability]
    assert lines == [
        ("BB-1 Star", D("50002.70"), D("50000"), D("2.70")),
        ("BB-1 Spade", D("452.25"), D("450"), D("2.25")),
        ("BB-1 Heart", D("452.25"), D("450"), D("2.25")),
        ("BB-2 Star", D("50000.60"), D("50000"), D("0.60")),
        ("BB-2 Spade", D("450.50"), D("450"), D("0.50")),
        ("BB-2 Heart", D("450.50"), D("450"), D("0.50")),
        ("Stax", D("100.00"), D("100"), D("0.00")),
        ("Stax win 2 unpaid (BB-1 seat 1)", D("100.50"), None, D("100.50")),
    ]
    assert report.liability_pits == [("Pit 1", D("109.30"))]
    assert report.progressive_liability == D("109.30")


def _get(stax_day: dict[str, object], name: str) -> bytes:
    client = Client()
    staff = stax_day["staff"]
    assert isinstance(staff, dict)
    client.force_login(staff["accounting"])
    answer = client.get(reverse(name), {"day": str(stax_day["day"])})
    assert answer.status_code == 200
    return answer.content


def _cells(html: str, table_id: str) -> list[list[str]]:
    """The text of each row's cells of the page's table ``table_id``."""
    table = html[html.index(f'id="{table_id}"') :]
    table = table[: table.index("</table>")]
    return [
        [
            " ".join(re.sub(r"<[^>]+>", "", cell).split())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        if "<td" in row
    ]


def test_the_page_shows_them(stax_day):
    html = _get(stax_day, "accounting:day").decode()
    assert _cells(html, "progressive-contributions") == [
        ["Pit 1", "BB-1", "7.20", "0.80", "8.00"],
        ["Pit 1", "BB-2", "1.60", "0.20", "1.80"],
        ["Pit 1", "", "8.80", "1.00", "9.80"],
        ["Casino", "", "8.80", "1.00", "9.80"],
    ]
    assert _cells(html, "must-hit") == [
        ["Pit 1", "Stax", "BB-1, BB-2", "1.00", "2 · 201.00", "1 · 100.50"]
    ]
    liability = _cells(html, "progressive-liability")
    assert liability[6:] == [
        ["Pit 1", "Stax", "100.00", "100.00", "0.00"],
        ["Pit 1", "Stax win 2 unpaid (BB-1 seat 1)", "100.50", "—", "100.50"],
        ["Pit 1", "", "", "", "109.30"],
        ["Casino", "", "", "", "109.30"],
    ]


def test_the_csv_has_them(stax_day):
    rows = [r for r in csv.reader(io.StringIO(_get(stax_day, "accounting:day-csv").decode())) if r]
    start = rows.index(
        ["Progressive contributions", "Pit", "Table", "Royal 9", "Must-hit", "Total"]
    )
    assert rows[start + 1 : start + 5] == [
        ["table", "Pit 1", "BB-1", "7.20", "0.80", "8.00"],
        ["table", "Pit 1", "BB-2", "1.60", "0.20", "1.80"],
        ["pit", "Pit 1", "", "8.80", "1.00", "9.80"],
        ["casino", "", "", "8.80", "1.00", "9.80"],
    ]
    assert ["must-hit", "Pit 1", "BB-1, BB-2", "1.00", "2", "201.00", "1", "100.50"] in rows
    assert ["must_hit", "Pit 1", "Stax", "100.00", "100.00", "0.00"] in rows
    assert ["unpaid", "Pit 1", "Stax win 2 unpaid (BB-1 seat 1)", "100.50", "", "100.50"] in rows
    assert ["pit", "Pit 1", "", "", "", "109.30"] in rows
    assert ["casino", "", "", "", "", "109.30"] in rows


def test_the_pdf_has_them(stax_day):
    reader = PdfReader(io.BytesIO(_get(stax_day, "accounting:day-pdf")))
    text = "\n".join(page.extract_text() for page in reader.pages)
    for line in (
        "Pit 1\nBB-1\n7.20\n0.80\n8.00",
        "Pit 1\nBB-2\n1.60\n0.20\n1.80",
        "CASINO\n8.80\n1.00\n9.80",
        "Pit 1\nStax\nBB-1, BB-2\n1.00\n2\n201.00\n1\n100.50",
        "Stax win 2 unpaid (BB-1 seat 1)\n100.50\n100.50",
        "CASINO\n109.30",
    ):
        assert line in text, line
