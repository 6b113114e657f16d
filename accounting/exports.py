"""The day's report as CSV, and as a PDF to file and sign (reportlab)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

from django.utils import timezone
from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import landscape, letter  # type: ignore[import-untyped]
from reportlab.lib.styles import getSampleStyleSheet  # type: ignore[import-untyped]
from reportlab.lib.units import inch  # type: ignore[import-untyped]
from reportlab.platypus import (  # type: ignore[import-untyped]
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.flowables import Flowable  # type: ignore[import-untyped]

from accounting.reports import DayReport, Figures, MasterLine, ProgressiveLine, TableDay

TABLE_COLUMNS = (
    "Pit",
    "Table",
    "Game",
    "Opener",
    "Closer",
    "Fills",
    "Credits",
    "Drop",
    "Win",
    "Hold %",
    "Rounds",
    "Wagered",
    "Wager-tracked",
    "Variance",
    "Theoretical",
)


def _money(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _hold(value: Decimal | None) -> str:
    return "" if value is None else f"{value:.2f}"


def _theoretical(f: Figures) -> str:
    """A table's theoretical win, or why it cannot be computed; a total without some tables'
    says so."""
    if isinstance(f, TableDay) and f.theoretical_error:
        return f.theoretical_error
    if f.theoretical_missing:
        return f"cannot be computed: {', '.join(f.theoretical_unknown)}"
    if f.theoretical_unknown:
        return f"{_money(f.theoretical)} incomplete: without {', '.join(f.theoretical_unknown)}"
    return _money(f.theoretical)


def _type_theoretical(error: str, theoretical: Decimal) -> str:
    return f"{_money(theoretical)} incomplete: {error}" if error else _money(theoretical)


def day_csv(report: DayReport) -> str:
    """One row per table, then per pit, per game type and the casino; amounts to the cent."""
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["Casino", report.casino.name, "Gaming day", report.day.isoformat()])
    w.writerow(["Level", *TABLE_COLUMNS, "Flags"])
    for t in report.tables:
        if t.tables:
            w.writerow(["table", t.pit, t.table, t.game, *_figures(t), "; ".join(t.flags)])
    for name, f in report.pits:
        if f.tables:
            w.writerow(["pit", name, "", "", *_figures(f), ""])
    for name, f in report.games:
        if f.tables:
            w.writerow(["game", "", "", name, *_figures(f), ""])
    w.writerow(["casino", "", "", "", *_figures(report.total), ""])
    if report.amendments:
        w.writerow([])
        w.writerow(["Count amended", "Table", "Count", "From", "To", "By", "Approved by", "Why"])
        for a in report.amendments:
            w.writerow(
                ["amendment", a.table, a.count, _money(a.before), _money(a.after), a.made_by,
                 a.approved_by, a.reason]
            )  # fmt: skip
    w.writerow([])
    w.writerow(
        ["Wager type", "Wagers", "Amount", "Won", "Paid", "Lost", "Collected", "Pushed",
         "Returned", "Commission", "Fees", "House result", "Theoretical"]
    )  # fmt: skip
    for line in report.wager_types:
        w.writerow(
            [line.label, line.count, _money(line.amount), line.won, _money(line.paid), line.lost,
             _money(line.collected), line.pushed, _money(line.returned), _money(line.commission),
             _money(line.fees), _money(line.result),
             _type_theoretical(line.theoretical_error, line.theoretical)]
        )  # fmt: skip
    _progressives_csv(w, report)
    return out.getvalue()


def _progressives_csv(w: Any, report: DayReport) -> None:
    """The contributions of the day by table, pit and casino; the must-hit meters' day; the
    liability now, line by line, by pit and for the casino."""
    w.writerow([])
    w.writerow(["Progressive contributions", "Pit", "Table", "Royal 9", "Must-hit", "Total"])
    for line in report.progressive_tables:
        w.writerow(["table", line.pit, line.name, *_put(line)])
    for line in report.progressive_pits:
        w.writerow(["pit", line.name, "", *_put(line)])
    if report.progressive_total is not None:
        w.writerow(["casino", "", "", *_put(report.progressive_total)])
    if report.must_hit:
        w.writerow([])
        w.writerow(["Must-hit meter", "Pit", "Tables", "Contributions", "Won", "Won amount",
                    "Paid", "Paid amount"])  # fmt: skip
        for m in report.must_hit:
            w.writerow(["must-hit", m.pit, m.tables, _money(m.contributed), m.won,
                        _money(m.won_amount), m.paid, _money(m.paid_amount)])  # fmt: skip
    w.writerow([])
    w.writerow(["Progressive liability (now)", "Pit", "Meter or win", "Amount", "Reset", "Owed"])
    for owed in report.liability:
        w.writerow([owed.kind, owed.pit, owed.name, _money(owed.amount), _money(owed.reset),
                    _money(owed.owed)])  # fmt: skip
    for pit, amount in report.liability_pits:
        w.writerow(["pit", pit, "", "", "", _money(amount)])
    w.writerow(["casino", "", "", "", "", _money(report.progressive_liability)])


def _put(line: ProgressiveLine) -> list[str]:
    return [_money(line.royal9), _money(line.must_hit), _money(line.total)]


def _progressives_pdf(report: DayReport, styles: Any) -> list[Flowable]:
    """The progressives' tables: contributions by table, pit and casino; the must-hit meters'
    day; the liability now, line by line, by pit and for the casino."""
    put = [["Pit", "Table", "Royal 9", "Must-hit", "Total"]]
    put += [[line.pit, line.name, *_put(line)] for line in report.progressive_tables]
    put += [[line.name, "", *_put(line)] for line in report.progressive_pits]
    if report.progressive_total is not None:
        put.append(["CASINO", "", *_put(report.progressive_total)])
    contributions = Table(put, repeatRows=1)
    contributions.setStyle(_GRID)
    out: list[Flowable] = [
        Paragraph(
            "Progressive contributions of the day (the controller's ledger)", styles["Heading3"]
        ),
        contributions,
    ]
    if report.must_hit:
        rows = [["Pit", "Meter", "Tables", "Contributions", "Won", "Won amount", "Paid",
                 "Paid amount"]]  # fmt: skip
        rows += [
            [m.pit, m.meter, m.tables, _money(m.contributed), str(m.won), _money(m.won_amount),
             str(m.paid), _money(m.paid_amount)]
            for m in report.must_hit
        ]  # fmt: skip
        meters = Table(rows, repeatRows=1)
        meters.setStyle(_GRID)
        out += [Paragraph("Must-hit meters", styles["Heading3"]), meters]
    owed = [["Pit", "Meter or win", "Amount", "Reset", "Owed"]]
    owed += [
        [line.pit, line.name, _money(line.amount), _money(line.reset), _money(line.owed)]
        for line in report.liability
    ]
    owed += [[pit, "", "", "", _money(amount)] for pit, amount in report.liability_pits]
    owed.append(["CASINO", "", "", "", _money(report.progressive_liability)])
    liability = Table(owed, repeatRows=1)
    liability.setStyle(_GRID)
    out += [
        Paragraph(
            "Progressive liability (now): each meter above its reset, and each must-hit win not "
            "yet paid",
            styles["Heading3"],
        ),
        liability,
    ]
    return out


def _figures(f: Figures) -> list[str]:
    return [
        _money(f.opener),
        _money(f.closer),
        _money(f.fills),
        _money(f.credits),
        _money(f.drop),
        _money(f.win),
        _hold(f.hold),
        str(f.rounds),
        _money(f.wagered),
        _money(f.tracked),
        _money(f.variance),
        _theoretical(f),
    ]


_GRID = TableStyle(
    [
        ("FONT", (0, 0), (-1, -1), "Helvetica", 7.5),
        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 7.5),
        ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e4d8")),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#999999")),
        ("ALIGN", (3, 1), (-1, -1), "RIGHT"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("REPEATROWS", (0, 0), (-1, 0)),
    ]
)


def day_pdf(report: DayReport, *, master: tuple[list[MasterLine], list[MasterLine]]) -> bytes:
    """The Table Games Daily Summary: the count and win by table, pit, game and casino; the
    recorded play beside it; the master game report; exceptions; and the signatures."""
    buffer = io.BytesIO()
    styles = getSampleStyleSheet()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=landscape(letter),
        leftMargin=0.5 * inch,
        rightMargin=0.5 * inch,
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
        title=f"Table Games Daily Summary {report.day.isoformat()}",
        author=report.casino.name,
    )
    zone = report.casino.zone
    story: list[Flowable] = [
        Paragraph(f"{report.casino.name}", styles["Title"]),
        Paragraph(
            f"Table Games Daily Summary — Gaming day {report.day:%A %d %B %Y}", styles["Heading2"]
        ),
        Paragraph(
            f"From {report.start.astimezone(zone):%Y-%m-%d %H:%M} to "
            f"{report.end.astimezone(zone):%Y-%m-%d %H:%M} ({report.casino.time_zone}). "
            f"Status: {report.status}. Prepared {timezone.now().astimezone(zone):%Y-%m-%d %H:%M}."
            " Win = closer - opener + credits - fills + drop; hold % = win ÷ drop.",
            styles["Normal"],
        ),
        Spacer(1, 8),
    ]
    small = styles["BodyText"].clone("small", fontSize=7, leading=8)
    rows: list[list[object]] = [list(TABLE_COLUMNS)]

    def cells(f: Figures) -> list[object]:
        figures: list[object] = list(_figures(f))
        if f.theoretical_missing:
            figures[-1] = Paragraph("cannot be computed: see the exceptions", small)
        elif f.theoretical_unknown:
            figures[-1] = Paragraph(
                f"{_money(f.theoretical)} incomplete: without {', '.join(f.theoretical_unknown)}",
                small,
            )
        return figures

    for t in report.tables:
        if t.tables:
            rows.append([t.pit, t.table, Paragraph(t.game, small), *cells(t)])
    for name, f in report.pits:
        if f.tables:
            rows.append([name, "", "", *cells(f)])
    for name, f in report.games:
        if f.tables:
            rows.append(["Game", "", Paragraph(name, small), *cells(f)])
    rows.append(["CASINO TOTAL", "", "", *cells(report.total)])
    # The theoretical win is wider: it may say that it cannot be computed, or is incomplete.
    widths = [0.45, 0.45, 1.35] + [0.62] * (len(TABLE_COLUMNS) - 4) + [0.9]
    grid = Table(rows, repeatRows=1, colWidths=[w * inch for w in widths])
    style = TableStyle(_GRID.getCommands())
    style.add("FONT", (0, len(rows) - 1), (-1, len(rows) - 1), "Helvetica-Bold", 7.5)
    grid.setStyle(style)
    story += [Paragraph("Count-room win and recorded play by table", styles["Heading3"]), grid]

    types = [["Wager type", "Wagers", "Amount", "Paid", "Collected", "Pushed", "Returned",
              "Commission", "Fees", "House result", "Theoretical"]]  # fmt: skip
    for line in report.wager_types:
        types.append(
            [line.label, str(line.count), _money(line.amount), _money(line.paid),
             _money(line.collected), _money(line.pushed_amount), _money(line.returned),
             _money(line.commission), _money(line.fees), _money(line.result),
             Paragraph(_type_theoretical(line.theoretical_error and "see the exceptions",
                                         line.theoretical), small)]
        )  # fmt: skip
    wt = Table(types, repeatRows=1)
    wt.setStyle(_GRID)
    story += [Paragraph("Wagers recorded, by type", styles["Heading3"]), wt]

    summary = [
        ["Commission collected at payout", _money(report.commission_at_payout)],
        ["Commission marked (deferred)", _money(report.commission_marked)],
        [f"Commission collected from markers ({report.markers_collected[0]})",
         _money(report.markers_collected[1])],
        [f"Complimentary vigorish, forms requested ({report.complimentary[0]})",
         _money(report.complimentary[1])],
        ["Collection fees", _money(report.fees)],
        ["Progressive contributions", _money(report.progressive_contributions)],
        ["Progressive liability (now)", _money(report.progressive_liability)],
    ]  # fmt: skip
    st = Table(summary, colWidths=[3.5 * inch, 1.2 * inch])
    st.setStyle(_GRID)
    story += [Paragraph("Commission, fees and progressives", styles["Heading3"]), st]
    story += _progressives_pdf(report, styles)

    by_table, by_game = master
    mrows = [["Table / game", "Drop day", "Win day", "Hold day", "Drop MTD", "Win MTD",
              "Hold MTD", "Drop YTD", "Win YTD", "Hold YTD", "Flag"]]  # fmt: skip
    for master_line in [*by_table, *by_game]:
        mrows.append(
            [master_line.name[:30],
             *(v for f in (master_line.day, master_line.month, master_line.year)
               for v in (_money(f.drop), _money(f.win), _hold(f.hold))),
             "; ".join(master_line.flagged)]
        )  # fmt: skip
    mt = Table(mrows, repeatRows=1)
    mt.setStyle(_GRID)
    story += [Paragraph("Master game report", styles["Heading3"]), mt]

    exceptions = [["Table", "Exception"]] + [[t, f] for t, f in report.flags]
    exceptions += [[line.table, f"Void round — {line.text}"] for line in report.voids]
    exceptions += [[line.table, f"Irregularity — {line.text}"] for line in report.irregularities]
    exceptions += [[line.table, f"Card corrected — {line.text}"] for line in report.corrections]
    exceptions += [[line.table, f"Override — {line.text}"] for line in report.overrides]
    exceptions += [[a.table, f"Count amended — {a.text}"] for a in report.amendments]
    if report.reconciliation is not None:
        exceptions += [["Forms", text] for text in report.reconciliation.exceptions]
    if len(exceptions) == 1:
        exceptions.append(["", "None"])
    et = Table(
        [[Paragraph(str(c), styles["BodyText"]) for c in row] for row in exceptions],
        colWidths=[1.2 * inch, 8.6 * inch],
        repeatRows=1,
    )
    et.setStyle(_GRID)
    story += [Paragraph("Exceptions for investigation", styles["Heading3"]), et]

    signatures = Table(
        [
            ["Prepared by (accounting)", "", "Date", ""],
            ["Reviewed by (accounting supervisor)", "", "Date", ""],
            ["Count team member", "", "Count team member", ""],
        ],
        colWidths=[2.6 * inch, 2.8 * inch, 1.6 * inch, 2.8 * inch],
        rowHeights=[0.45 * inch] * 3,
    )
    signatures.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), "Helvetica", 9),
                ("LINEBELOW", (1, 0), (1, -1), 0.75, colors.black),
                ("LINEBELOW", (3, 0), (3, -1), 0.75, colors.black),
                ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
            ]
        )
    )
    story += [
        KeepTogether(
            [
                Paragraph("Signatures", styles["Heading3"]),
                Paragraph(
                    "I have examined the figures above against the count sheets, the fill and "
                    "credit slips and the table inventory slips of this gaming day.",
                    styles["Normal"],
                ),
                signatures,
            ]
        )
    ]

    def footer(canvas: object, document: object) -> None:
        page = canvas.getPageNumber()  # type: ignore[attr-defined]
        canvas.setFont("Helvetica", 7)  # type: ignore[attr-defined]
        canvas.drawString(  # type: ignore[attr-defined]
            0.5 * inch,
            0.35 * inch,
            f"{report.casino.name} · Table Games Daily Summary · {report.day.isoformat()} · "
            f"page {page}",
        )

    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()
