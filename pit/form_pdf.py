"""A Complimentary Vigorish Form as a PDF: the original and the duplicate, each a page laid out as
the paper form (002 (c)(3)(iii)(A)): number, amount, patron, the three signatures, the patron's
signature or the statement why not, the deposit, and VOID across a void form. Times are in the
casino's time zone."""

from __future__ import annotations

import datetime
import io

from django.contrib.auth.models import User
from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import LETTER  # type: ignore[import-untyped]
from reportlab.lib.units import inch  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from tablegame.models import VigorishForm

WIDTH, HEIGHT = LETTER
MARGIN = 0.6 * inch
COPIES = (
    ("ORIGINAL", "To the drop box of the table, by the dealer"),
    ("DUPLICATE", "Kept by the pit clerk; to accounting at the end of the gaming day"),
)


def form_pdf(form: VigorishForm) -> bytes:
    """The form's two copies, one page each."""
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=LETTER)
    canvas.setTitle(f"Complimentary Vigorish Form {form.printed_number}")
    canvas.setAuthor(form.pit.casino.name)
    for copy, where in COPIES:
        _page(canvas, form, copy, where)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _when(form: VigorishForm, at: datetime.datetime | None) -> str:
    if at is None:
        return ""
    local = at.astimezone(form.pit.casino.zone)
    return local.strftime("%Y-%m-%d %H:%M %Z")


def _person(user: User | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _field(canvas: Canvas, x: float, y: float, width: float, label: str, value: str) -> None:
    """A labelled box of the form, the value written in it."""
    canvas.setStrokeColor(colors.black)
    canvas.rect(x, y, width, 0.5 * inch)
    canvas.setFont("Helvetica", 7)
    canvas.drawString(x + 4, y + 0.5 * inch - 10, label.upper())
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(x + 6, y + 8, value)


def _signature(
    canvas: Canvas, x: float, y: float, width: float, label: str, name: str, at: str
) -> None:
    """A signature line: the name of who signed on their own screen, and when."""
    canvas.setFont("Helvetica-Oblique", 12)
    canvas.drawString(x + 4, y + 6, name)
    canvas.setFont("Helvetica", 7)
    if at:
        canvas.drawRightString(x + width - 4, y + 6, f"signed {at}")
    canvas.line(x, y, x + width, y)
    canvas.drawString(x, y - 10, label.upper())


def _page(canvas: Canvas, form: VigorishForm, copy: str, where: str) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    full = right - left
    top = HEIGHT - MARGIN
    canvas.setLineWidth(1.5)
    canvas.rect(left, HEIGHT / 2 - 1.5 * inch, full, top - HEIGHT / 2 + 1.5 * inch)
    canvas.setLineWidth(0.8)
    # Heading: the casino, the form's title, its printed number, the copy.
    canvas.setFont("Helvetica-Bold", 10)
    canvas.drawString(left + 10, top - 20, form.pit.casino.name.upper())
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(left + 10, top - 42, "COMPLIMENTARY VIGORISH FORM")
    canvas.setFillColor(colors.darkred)
    canvas.setFont("Courier-Bold", 18)
    canvas.drawRightString(right - 10, top - 24, f"No. {form.printed_number}")
    canvas.setFillColor(colors.black)
    canvas.setFont("Helvetica-Bold", 11)
    canvas.drawRightString(right - 10, top - 44, copy)
    canvas.setFont("Helvetica", 7)
    canvas.drawRightString(right - 10, top - 54, where)
    # What the form records.
    half = (full - 30) / 2
    row = top - 1.4 * inch
    table = form.table.name if form.table else ""
    _field(canvas, left + 10, row, half / 2 - 5, "Pit", form.pit.name)
    _field(canvas, left + half / 2 + 15, row, half / 2 - 5, "Table / seat", _table_seat(form))
    _field(canvas, left + half + 20, row, half, "Gaming day", f"{form.gaming_day:%Y-%m-%d}")
    row -= 0.65 * inch
    amount = f"${form.amount}" if form.amount is not None else ""
    _field(canvas, left + 10, row, half, "Amount of vigorish not collected", amount)
    _field(canvas, left + half + 20, row, half, "Name of patron", form.patron_name)
    row -= 0.65 * inch
    _field(canvas, left + 10, row, full - 20, "Why not collected", form.reason)
    row -= 0.45 * inch
    canvas.setFont("Helvetica", 8)
    canvas.drawString(
        left + 10,
        row,
        f"Prepared by the pit clerk {_person(form.prepared_by)} "
        f"{_when(form, form.prepared_at)}" + (f" at {table}" if table else ""),
    )
    # Signatures.
    row -= 0.55 * inch
    third = (full - 40) / 3
    _signature(
        canvas,
        left + 10,
        row,
        third,
        "Dealer",
        _person(form.dealer),
        _when(form, form.dealer_signed_at),
    )
    _signature(
        canvas,
        left + third + 20,
        row,
        third,
        "Pit boss",
        _person(form.pit_boss),
        _when(form, form.pit_boss_signed_at),
    )
    _signature(
        canvas,
        left + 2 * third + 30,
        row,
        third,
        "Pit clerk",
        _person(form.clerk),
        _when(form, form.clerk_signed_at),
    )
    row -= 0.6 * inch
    _signature(
        canvas,
        left + 10,
        row,
        full - 20,
        "Signature of patron",
        form.patron_signature,
        _when(form, form.patron_part_at) if form.patron_signature else "",
    )
    row -= 0.4 * inch
    canvas.setFont("Helvetica", 7)
    canvas.drawString(
        left + 10,
        row,
        "IF THE PATRON'S SIGNATURE COULD NOT BE OBTAINED, STATEMENT OF THE DEALER OR PIT BOSS:",
    )
    canvas.setFont("Helvetica", 10)
    statement = form.no_signature_statement
    if statement:
        statement += f" ({_person(form.patron_part_by)}, {_when(form, form.patron_part_at)})"
    canvas.drawString(left + 10, row - 14, statement)
    row -= 0.5 * inch
    canvas.setFont("Helvetica", 8)
    deposit = "Original deposited in the drop box: "
    if form.deposited_at:
        deposit += (
            f"by {_person(form.deposited_by)} {_when(form, form.deposited_at)}; witnessed by "
            f"{_person(form.pit_boss)} (pit boss) {_when(form, form.deposit_pit_boss_at)} and "
            f"{_person(form.clerk)} (pit clerk) {_when(form, form.deposit_clerk_at)}"
        )
    canvas.drawString(left + 10, row, deposit)
    if form.forwarded_at:
        canvas.drawString(
            left + 10,
            row - 12,
            f"Duplicate forwarded to accounting by {_person(form.forwarded_by)} "
            f"{_when(form, form.forwarded_at)}",
        )
    if form.is_void:
        _void(canvas, form, left, row - 30)


def _table_seat(form: VigorishForm) -> str:
    if form.table is None:
        return ""
    return f"{form.table.name} / {form.seat}"


def _void(canvas: Canvas, form: VigorishForm, left: float, row: float) -> None:
    """VOID across the page, with the reason and the clerk's and pit boss's signatures."""
    canvas.setFont("Helvetica", 8)
    canvas.drawString(
        left + 10,
        row,
        f"VOID: {form.void_reason}. Pit clerk {_person(form.voided_by)} "
        f"{_when(form, form.voided_at)}; pit boss {_person(form.void_pit_boss)} "
        f"{_when(form, form.void_pit_boss_signed_at)}",
    )
    canvas.saveState()
    canvas.setFillColor(colors.Color(0.8, 0, 0, alpha=0.35))
    canvas.setFont("Helvetica-Bold", 120)
    canvas.translate(WIDTH / 2, HEIGHT * 0.68)
    canvas.rotate(25)
    canvas.drawCentredString(0, 0, "VOID")
    canvas.restoreState()
