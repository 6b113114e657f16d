"""A Complimentary Vigorish Form as a PDF: the original and the duplicate, each a page laid out as
the paper form (002 (c)(3)(iii)(A)): number, amount, patron, the three signatures, the patron's
signature or the statement why not, the deposit, and VOID across a void form. Times are in the
casino's time zone.

Every name and sentence is printed in its own script (``casino.pdf_text``: fonts embedded, a
character no font has spelt as its code point, never ■) and fitted to its box: a value shrinks
to fit its field (down to 7 points), then wraps; the lines under the signatures wrap within the
frame and push the rest down."""

from __future__ import annotations

import datetime
import io

from django.contrib.auth.models import User
from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import LETTER  # type: ignore[import-untyped]
from reportlab.lib.units import inch  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from casino import pdf_text
from tablegame.vigorish_forms.models import VigorishForm

WIDTH, HEIGHT = LETTER
MARGIN = 0.6 * inch
#: The frame of a copy: the form is drawn inside it.
FRAME_BOTTOM = HEIGHT / 2 - 1.5 * inch
FIELD_HEIGHT = 0.5 * inch
#: A value shrinks to fit its field down to this size, then wraps.
SMALLEST = 7.0
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
    """A labelled box of the form, the value fitted in it (shrunk, then wrapped)."""
    canvas.setStrokeColor(colors.black)
    canvas.rect(x, y, width, FIELD_HEIGHT)
    pdf_text.draw(canvas, x + 4, y + FIELD_HEIGHT - 10, label.upper(), 7)
    fitted = field_layout(value, width)
    leading = fitted.size * 1.15
    bottom = y + 8 if len(fitted.lines) == 1 else y + 4
    for n, line in enumerate(reversed(fitted.lines)):
        pdf_text.draw(canvas, x + 6, bottom + n * leading, line, fitted.size, "bold")


def field_layout(value: str, width: float) -> pdf_text.Fitted:
    """How a field's value is printed in a box ``width`` wide: 12 points bold if it fits, else
    smaller, then on up to three lines."""
    return pdf_text.fit(value, width - 12, size=12, smallest=SMALLEST, lines=3, style="bold")


def _lines(canvas: Canvas, x: float, y: float, room: float, text: str, size: float) -> float:
    """``text`` wrapped within ``room`` from the baseline ``y`` down; returns the next baseline."""
    for line in pdf_text.wrap(text, size, room):
        pdf_text.draw(canvas, x, y, line, size)
        y -= size * 1.25
    return y


def _signature(
    canvas: Canvas, x: float, y: float, width: float, label: str, name: str, at: str
) -> None:
    """A signature line: the name of who signed on their own screen over it, what they signed as
    and when under it."""
    fitted = pdf_text.fit(name, width - 8, size=12, smallest=SMALLEST, lines=2, style="oblique")
    for n, line in enumerate(reversed(fitted.lines)):
        pdf_text.draw(canvas, x + 4, y + 6 + n * fitted.size * 1.15, line, fitted.size, "oblique")
    canvas.line(x, y, x + width, y)
    pdf_text.draw(canvas, x, y - 10, label.upper(), 7)
    if at:
        pdf_text.draw_right(canvas, x + width, y - 10, f"signed {at}", 7)


def _page(canvas: Canvas, form: VigorishForm, copy: str, where: str) -> None:
    left, right = MARGIN, WIDTH - MARGIN
    full = right - left
    top = HEIGHT - MARGIN
    canvas.setLineWidth(1.5)
    canvas.rect(left, FRAME_BOTTOM, full, top - FRAME_BOTTOM)
    canvas.setLineWidth(0.8)
    # Heading: the casino, the form's title, its printed number, the copy.
    number = f"No. {form.printed_number}"
    canvas.setFillColor(colors.darkred)
    canvas.setFont("Courier-Bold", 18)
    canvas.drawRightString(right - 10, top - 24, number)
    canvas.setFillColor(colors.black)
    room = full - 30 - canvas.stringWidth(number, "Courier-Bold", 18)
    casino = pdf_text.fit(form.pit.casino.name.upper(), room, size=10, smallest=6, style="bold")
    first = top - 20 + (len(casino.lines) - 1) * casino.size * 1.1
    for n, line in enumerate(casino.lines):
        pdf_text.draw(canvas, left + 10, first - n * casino.size * 1.1, line, casino.size, "bold")
    pdf_text.draw(canvas, left + 10, top - 42, "COMPLIMENTARY VIGORISH FORM", 16, "bold")
    pdf_text.draw_right(canvas, right - 10, top - 44, copy, 11, "bold")
    pdf_text.draw_right(canvas, right - 10, top - 54, where, 7)
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
    prepared = (
        f"Prepared by the pit clerk {_person(form.prepared_by)} "
        f"{_when(form, form.prepared_at)}" + (f" at {table}" if table else "")
    )
    row = _lines(canvas, left + 10, row, full - 20, prepared, 8)
    # Signatures.
    row -= 0.55 * inch - 10
    third = (full - 40) / 3
    signers = (
        ("Dealer", form.dealer, form.dealer_signed_at),
        ("Pit boss", form.pit_boss, form.pit_boss_signed_at),
        ("Pit clerk", form.clerk, form.clerk_signed_at),
    )
    for n, (label, person, at) in enumerate(signers):
        x = left + 10 + n * (third + 10)
        _signature(canvas, x, row, third, label, _person(person), _when(form, at))
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
    pdf_text.draw(
        canvas,
        left + 10,
        row,
        "IF THE PATRON'S SIGNATURE COULD NOT BE OBTAINED, STATEMENT OF THE DEALER OR PIT BOSS:",
        7,
    )
    statement = form.no_signature_statement
    if statement:
        statement += f" ({_person(form.patron_part_by)}, {_when(form, form.patron_part_at)})"
    below = _lines(canvas, left + 10, row - 14, full - 20, statement, 10)
    row = min(row - 0.5 * inch, below)  # the deposit where it always stood, or under a long one
    row = _lines(canvas, left + 10, row, full - 20, deposit_line(form), 8)
    if form.forwarded_at:
        forwarded = (
            f"Duplicate forwarded to accounting by {_person(form.forwarded_by)} "
            f"{_when(form, form.forwarded_at)}"
        )
        row = _lines(canvas, left + 10, row, full - 20, forwarded, 8)
    if form.is_void:
        _void(canvas, form, left, row - 8, full - 20)


def deposit_line(form: VigorishForm) -> str:
    """Who deposited the original in the drop box, and who witnessed it."""
    deposit = "Original deposited in the drop box: "
    if form.deposited_at:
        deposit += (
            f"by {_person(form.deposited_by)} {_when(form, form.deposited_at)}; witnessed by "
            f"{_person(form.pit_boss)} (pit boss) {_when(form, form.deposit_pit_boss_at)} and "
            f"{_person(form.clerk)} (pit clerk) {_when(form, form.deposit_clerk_at)}"
        )
    return deposit


def _table_seat(form: VigorishForm) -> str:
    if form.table is None:
        return ""
    return f"{form.table.name} / {form.seat}"


def _void(canvas: Canvas, form: VigorishForm, left: float, row: float, room: float) -> None:
    """VOID across the page, with the reason and the clerk's and pit boss's signatures."""
    _lines(
        canvas,
        left + 10,
        row,
        room,
        f"VOID: {form.void_reason}. Pit clerk {_person(form.voided_by)} "
        f"{_when(form, form.voided_at)}; pit boss {_person(form.void_pit_boss)} "
        f"{_when(form, form.void_pit_boss_signed_at)}",
        8,
    )
    canvas.saveState()
    canvas.setFillColor(colors.Color(0.8, 0, 0, alpha=0.35))
    canvas.setFont("Helvetica-Bold", 120)
    canvas.translate(WIDTH / 2, HEIGHT * 0.68)
    canvas.rotate(25)
    canvas.drawCentredString(0, 0, "VOID")
    canvas.restoreState()
