"""The day as CSV, and as a PDF to file and sign, read back with pypdf."""

from __future__ import annotations

import csv
import io

from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.browser.conftest import SHOTS


def _get(played_day, name):
    client = Client()
    client.force_login(played_day.staff["accounting"])
    return client.get(reverse(name), {"day": played_day.day.isoformat()})


def test_the_pdf_reads_back_with_the_figures_and_the_signature_lines(played_day):
    response = _get(played_day, "accounting:day-pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert f"table-games-{played_day.day}.pdf" in response["Content-Disposition"]
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "accounting-day.pdf").write_bytes(response.content)  # to look at
    reader = PdfReader(io.BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Demo Casino" in text
    assert f"Gaming day {played_day.day:%A %d %B %Y}" in text
    assert "CASINO TOTAL" in text
    # The casino's row, a cell a line: opener, closer, fills, credits, drop, win, hold.
    assert "CASINO TOTAL\n15000.00\n14365.00\n2000.00\n500.00\n2200.00\n65.00\n2.95\n" in text
    assert f"{played_day.s42.name}" in text and "-135.00" in text and "16.67" in text
    assert "Master game report" in text
    assert "differ by $350.00" in text  # the exception for investigation
    assert "Void round" in text
    for line in ("Prepared by (accounting)", "Reviewed by (accounting supervisor)",
                 "Count team member"):  # fmt: skip
        assert line in text
    assert reader.metadata is not None
    assert reader.metadata.title == f"Table Games Daily Summary {played_day.day}"


def test_the_csv_has_a_row_per_table_pit_game_and_the_casino(played_day):
    response = _get(played_day, "accounting:day-csv")
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    header = rows[1]
    casino = next(r for r in rows if r and r[0] == "casino")
    got = dict(zip(header, casino, strict=False))
    assert (got["Drop"], got["Win"], got["Hold %"], got["Wager-tracked"]) == (
        "2200.00", "65.00", "2.95", "-285.00"
    )  # fmt: skip
    mb = next(r for r in rows if r and r[0] == "table" and r[2] == played_day.mb.name)
    assert dict(zip(header, mb, strict=False))["Win"] == "-135.00"
    banker = next(r for r in rows if r and r[0] == "Banker")
    assert banker[:5] == ["Banker", "2", "300.00", "2", "300.00"]
