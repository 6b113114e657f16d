"""A table whose house edge cannot be computed has no theoretical win: the page, the CSV and the
PDF say so for that table, with the reason, and every total it is part of is marked incomplete.
Never $0, never an error page.

The day of ``played_day``, with the edge of MB-3's rules (Mini-Baccarat 5 %) failing. MB-1's
theoretical win, from the published exact edges for eight decks (Banker 1.0579 %, Player
1.2351 %, Tie at 8 to 1 14.3596 %): Banker 100 x 1.0579 % + Player (50 + 100) x 1.2351 %
+ Tie 10 x 14.3596 % = 1.0579 + 1.8527 + 1.4360 = $4.35; the void round's wager counts for
nothing.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from accounting import reports
from baccarat.profiles import RulesSubmission
from tests.accounting.conftest import PlayedDay

REASON = "no edge for this pay table"
SAYS = f"theoretical win cannot be computed: Mini-Baccarat, 5 % commission, 8 decks: {REASON}"


@pytest.fixture
def edge_fails(played_day: PlayedDay, monkeypatch: pytest.MonkeyPatch) -> PlayedDay:
    computed = reports._edges

    def edges(rules: RulesSubmission, decks: int) -> dict[str, Fraction]:
        if rules.name == "s42-mini":
            raise ValueError(REASON)
        return computed(rules, decks)

    monkeypatch.setattr(reports, "_edges", edges)
    return played_day


def test_the_table_says_why_and_the_totals_are_incomplete(edge_fails):
    report = reports.day_report(edge_fails.casino, edge_fails.day)
    lines = {t.table: t for t in report.tables}
    mb1, mb3 = lines["MB-1"], lines["MB-3"]
    assert (mb1.theoretical, mb1.theoretical_error) == (Decimal("4.35"), "")
    assert mb3.theoretical_error == SAYS
    assert ("MB-3", SAYS[0].upper() + SAYS[1:]) in report.flags
    pit = dict(report.pits)["Pit 1"]
    for total in (pit, report.total):
        assert (total.theoretical, total.theoretical_unknown) == (Decimal("4.35"), ["MB-3"])
        assert not total.theoretical_missing
    games = dict(report.games)
    assert games["Mini-Baccarat, 5 % commission"].theoretical_missing
    assert not games["Massachusetts Minibaccarat"].theoretical_unknown
    banker = next(line for line in report.wager_types if line.type == "banker")
    assert banker.theoretical == Decimal("1.06")  # MB-1's Banker wager only
    assert REASON in banker.theoretical_error


def _get(played_day: PlayedDay, name: str) -> bytes:
    client = Client()
    client.force_login(played_day.staff["accounting"])
    answer = client.get(reverse(name), {"day": played_day.day.isoformat()})
    assert answer.status_code == 200
    return answer.content


def test_the_page_says_so_for_the_table_and_marks_the_totals(edge_fails):
    html = _get(edge_fails, "accounting:day").decode()
    row = html[html.index('data-table="MB-3"') :]
    theoretical = re.findall(r"<td[^>]*>(.*?)</td>", row[: row.index("</tr>")], re.S)[-1]
    assert ">cannot be computed</a>" in theoretical and "0.00" not in theoretical
    assert f'title="{SAYS}"' in theoretical
    exceptions = html[html.index('id="exceptions"') :]
    assert f"<strong>MB-3</strong>: {SAYS[0].upper() + SAYS[1:]}" in exceptions
    assert html.count("incomplete: without MB-3") >= 3  # the card, the pit, the casino


def test_the_csv_says_so_in_the_tables_theoretical_and_marks_the_totals(edge_fails):
    rows = list(csv.reader(io.StringIO(_get(edge_fails, "accounting:day-csv").decode())))
    header = rows[1]
    named = [dict(zip(header, row, strict=False)) for row in rows[2:] if row]
    mb3 = next(r for r in named if r["Level"] == "table" and r["Table"] == "MB-3")
    assert mb3["Theoretical"] == SAYS
    for level in ("pit", "casino"):
        total = next(r for r in named if r["Level"] == level)
        assert total["Theoretical"] == "4.35 incomplete: without MB-3"
    # MB-3's game has no other table: no figure at all.
    game = next(r for r in named if r["Level"] == "game" and r["Game"].startswith("Mini-Bacc"))
    assert game["Theoretical"] == "cannot be computed: MB-3"


def test_the_pdf_says_so_and_marks_the_totals(edge_fails):
    reader = PdfReader(io.BytesIO(_get(edge_fails, "accounting:day-pdf")))
    # Read without spaces: a narrow cell breaks its lines anywhere.
    text = "".join("".join(page.extract_text().split()) for page in reader.pages)
    for said in (
        "MB-3 ... 350.00 cannot be computed: see the exceptions",  # its variance, then theoretical
        SAYS[0].upper() + SAYS[1:],  # the exception, with the reason
        "CASINO TOTAL ... -285.00 350.00 4.35 incomplete: without MB-3",
    ):
        first, *rest = ["".join(part.split()) for part in said.split("...")]
        assert first in text
        if rest:
            assert rest[0] in text[text.index(first) :]
