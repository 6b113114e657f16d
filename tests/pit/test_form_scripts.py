"""A Complimentary Vigorish Form prints every patron's and signer's name in its own script (it
printed ■ for every letter outside Latin), and every line of it stays inside the form's frame (the
deposit line ran out of it)."""

from __future__ import annotations

import io
import unicodedata
from typing import Any

import pytest
from django.contrib.auth.models import User
from pypdf import PdfReader
from pypdf.generic import DictionaryObject
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from casino import pdf_text
from casino.models import Pit
from pit import form_pdf
from tablegame.models import VigorishForm
from tablegame.vigorish_forms import actions as forms
from tests.browser.conftest import SHOTS
from tests.pit.conftest import deferred_table, requested_marker

#: A patron's name in each script the form must print.
NAMES = {
    "Chinese": "王小明",
    "Japanese": "山田 さくら",
    "Korean": "김민준",
    "Greek": "Ελένη Παπαδοπούλου",
    "Hebrew": "דוד כהן",
    "Arabic": "فاطمة الزهراء",
    "Cyrillic": "Анна Каренина",
    "Vietnamese": "Nguyễn Thị Hương",
}
#: The staff who sign, with long names in other scripts: the deposit line names three of them.
SIGNERS = {
    "dealer": ("Анастасия Александровна", "Преображенская-Воскресенская"),
    "pitboss": ("Κωνσταντίνος Αλέξανδρος", "Παπαγεωργίου-Χατζηδημητρίου"),
    "clerk": ("Maximiliana Bartholomea", "Wolfeschlegelsteinhausenbergerdorff"),
}


def a_deposited_form(staff: dict[str, User], patron: str) -> VigorishForm:
    """A form prepared for ``patron``, signed by all three, signed by the patron, deposited by
    the dealer and witnessed by the pit boss and the clerk."""
    for username, (first, last) in SIGNERS.items():
        user = staff[username]
        user.first_name, user.last_name = first, last
        user.save(update_fields=["first_name", "last_name"])
    dealer, boss, clerk = staff["dealer"], staff["pitboss"], staff["clerk"]
    pit = Pit.objects.get()
    marker = requested_marker(deferred_table(dealer, staff["floor"]), dealer)
    forms.receive_form_series(pit, first_number=4501, last_number=4510, actor=clerk)
    form = forms.prepare_vigorish_form(marker, patron_name=patron, actor=clerk)
    for signer in (dealer, boss, clerk):
        forms.sign_vigorish_form(form, actor=signer)
    forms.record_patron_signature(form, signature=patron, actor=dealer)
    forms.deposit_vigorish_form(form, actor=dealer)
    forms.witness_vigorish_deposit(form, actor=boss)
    forms.witness_vigorish_deposit(form, actor=clerk)
    form.refresh_from_db()
    return form


def pdf_pages(form: VigorishForm) -> list[str]:
    """Each page's text as a reader extracts it, in logical order, in Unicode's composed form
    (joined Arabic letters are printed as their contextual forms)."""
    reader = PdfReader(io.BytesIO(form_pdf.form_pdf(form)))
    return [unicodedata.normalize("NFKC", page.extract_text()) for page in reader.pages]


@pytest.mark.parametrize("script", list(NAMES))
def test_the_patrons_name_is_printed_in_its_script(db, staff, script):
    name = NAMES[script]
    assert pdf_text.missing(name) == [], f"no font of the form has these {script} characters"
    form = a_deposited_form(staff, name)
    for page in pdf_pages(form):
        assert "■" not in page
        # Printed twice on each copy: the name of the patron, and the patron's signature.
        assert page.count(name) == 2, page
        for first, last in SIGNERS.values():
            assert f"{first} {last}" in page.replace("\n", " ")


def test_the_fonts_are_embedded_in_the_pdf(db, staff):
    form = a_deposited_form(staff, NAMES["Chinese"])
    reader = PdfReader(io.BytesIO(form_pdf.form_pdf(form)))
    resources = reader.pages[0]["/Resources"].get_object()
    assert isinstance(resources, DictionaryObject)
    fonts = resources["/Font"].get_object()
    assert isinstance(fonts, DictionaryObject)
    embedded = set()
    for ref in fonts.values():
        font = ref.get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is not None and "/FontFile2" in descriptor.get_object():
            embedded.add(str(font["/BaseFont"]).split("+")[-1])  # a subset: "ABCDEF+DejaVuSans"
    assert {"DejaVuSans", "DejaVuSans-Bold", "DroidSansFallback"} <= embedded


def test_a_character_no_font_has_is_spelt_out_not_printed_as_a_box():
    thai = "สมชาย"  # no font shipped with the app has Thai
    assert pdf_text.missing(f"Somchai {thai}") == sorted({f"U+{ord(c):04X}" for c in thai})
    drawn = "".join(run.text for run in pdf_text.runs(f"Somchai {thai}"))
    assert drawn == "Somchai " + "".join(f"[U+{ord(c):04X}]" for c in thai)


def test_right_to_left_names_are_drawn_in_visual_order():
    runs = pdf_text.runs("Mr דוד כהן")
    assert [run.text for run in runs] == ["Mr ןהכ דוד"]


class Recording(Canvas):  # type: ignore[misc]
    """A canvas that keeps where each string was drawn, and how wide it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.drawn: list[tuple[int, float, float, float, str]] = []

    def drawString(self, x: float, y: float, text: str, *args: Any, **kwargs: Any) -> None:
        width = pdfmetrics.stringWidth(text, self._fontname, self._fontsize)
        self.drawn.append((self.getPageNumber(), x, x + width, y, text))
        super().drawString(x, y, text, *args, **kwargs)


def test_a_long_deposit_line_wraps_inside_the_frame(db, staff, monkeypatch):
    form = a_deposited_form(staff, NAMES["Greek"])
    deposit = form_pdf.deposit_line(form)
    room = form_pdf.WIDTH - 2 * form_pdf.MARGIN - 20
    assert pdf_text.width(deposit, 8) > room  # one line would run out of the frame
    canvases: list[Recording] = []

    def recording(*args: Any, **kwargs: Any) -> Recording:
        canvases.append(Recording(*args, **kwargs))
        return canvases[-1]

    monkeypatch.setattr(form_pdf, "Canvas", recording)
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / "vigorish-form-in-every-script.pdf").write_bytes(form_pdf.form_pdf(form))
    left = form_pdf.MARGIN
    right = form_pdf.WIDTH - form_pdf.MARGIN
    for page, start, end, y, text in canvases[0].drawn:
        assert left < start and end < right, (page, text)
        assert form_pdf.FRAME_BOTTOM < y < form_pdf.HEIGHT - form_pdf.MARGIN, (page, text)
    # Every word of the deposit line is on the page, on lines of their own under the signatures.
    lines = pdf_text.wrap(deposit, 8, room)
    assert len(lines) >= 2 and " ".join(lines) == deposit
    page_one = " ".join(t for page, *_rest, t in canvases[0].drawn if page == 1)
    for word in deposit.split():
        assert word in page_one


def test_a_long_name_shrinks_to_fit_its_field_then_wraps():
    box = 240.0
    short = form_pdf.field_layout("Ana Ruiz", box)
    assert (short.size, short.lines) == (12, ["Ana Ruiz"])
    long = "Maximiliana Wolfeschlegelsteinhausenbergerdorff"
    assert pdf_text.width(long, 12, "bold") > box - 12
    shrunk = form_pdf.field_layout(long, box)
    assert shrunk.size < 12 and shrunk.lines == [long]
    assert pdf_text.width(long, shrunk.size, "bold") <= box - 12
    longer = "Maximiliana Bartholomea Wolfeschlegelsteinhausenbergerdorff"
    assert pdf_text.width(longer, form_pdf.SMALLEST, "bold") > box - 12
    two = form_pdf.field_layout(longer, box)  # wrapped between words, never inside one
    assert two.lines == ["Maximiliana Bartholomea", "Wolfeschlegelsteinhausenbergerdorff"]
    longest = " ".join(["王小明"] * 30)
    wrapped = form_pdf.field_layout(longest, box)
    assert wrapped.size >= form_pdf.SMALLEST and 1 < len(wrapped.lines) <= 3
    assert all(pdf_text.width(line, wrapped.size, "bold") <= box - 12 for line in wrapped.lines)
    assert " ".join(wrapped.lines) == longest
