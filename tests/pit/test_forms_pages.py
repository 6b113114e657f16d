"""The forms page, its endpoints (each person on their own screen) and the PDF of a form."""

from __future__ import annotations

import io
import json

import pytest
from django.test import Client
from pypdf import PdfReader

from casino.models import Pit
from tablegame.models import VigorishForm
from tests.browser.conftest import SHOTS
from tests.clients import logged_in
from tests.pit.conftest import deferred_table, requested_marker


def post(client: Client, command: str, **body):
    answer = client.post(f"/floor/forms/{command}/", body, content_type="application/json")
    return answer.status_code, json.loads(answer.content)


@pytest.mark.parametrize(
    ("username", "status"),
    [
        ("dealer", 200),
        ("pitboss", 200),
        ("clerk", 200),
        ("floor", 200),
        ("surveillance", 403),
        ("accounting", 403),
    ],
)
def test_the_forms_page_is_for_the_people_of_the_form(db, staff, username, status):
    assert logged_in(username).get("/floor/forms/").status_code == status


def test_only_the_clerks_screen_shows_the_unused_forms(db, staff):
    pit = Pit.objects.get()
    assert post(logged_in("clerk"), "series", pit=pit.pk, first=4501, last=4600) == (
        200,
        {"done": True},
    )
    clerk_page = logged_in("clerk").get("/floor/forms/").content.decode()
    assert "Forms received" in clerk_page and "Forms 004501-004600" in clerk_page
    for other in ("pitboss", "dealer", "floor"):
        page = logged_in(other).get("/floor/forms/").content.decode()
        assert "Forms received" not in page and "004501-004600" not in page


def test_a_form_from_request_to_accounting_on_four_screens(db, staff, dealer, floor):
    pit = Pit.objects.get()
    table = deferred_table(dealer, floor)
    marker = requested_marker(table, dealer)
    clerk, boss, dealing = logged_in("clerk"), logged_in("pitboss"), logged_in("dealer")
    post(clerk, "series", pit=pit.pk, first=1, last=50)
    assert "The patron left in a hurry." in clerk.get("/floor/forms/").content.decode()
    status, answer = post(boss, "prepare", marker=marker.pk)
    assert status == 403 and answer["error"] == (
        "Only a pit clerk may prepare a Complimentary Vigorish Form."
    )
    assert post(clerk, "prepare", marker=marker.pk, patron_name="Ana Ruiz")[0] == 200
    form = VigorishForm.objects.get()
    assert form.patron_name == "Ana Ruiz"
    dealer_page = dealing.get("/floor/forms/").content.decode()
    assert "Sign as dealer" in dealer_page and "Sign as pit boss" not in dealer_page
    for client in (dealing, boss, clerk):
        assert post(client, "sign", form=form.pk) == (200, {"done": True})
    assert post(boss, "patron", form=form.pk, statement="Left the casino.")[0] == 200
    assert post(boss, "deposit", form=form.pk)[0] == 403  # the dealer deposits
    assert post(dealing, "deposit", form=form.pk)[0] == 200
    assert post(boss, "witness", form=form.pk)[0] == 200
    assert post(clerk, "witness", form=form.pk)[0] == 200
    status, answer = post(clerk, "witness", form=form.pk)
    assert status == 409 and answer["error"] == "You witnessed this deposit already."
    assert post(clerk, "forward", pit=pit.pk)[0] == 200
    form.refresh_from_db()
    assert form.status == VigorishForm.Status.DEPOSITED and form.forwarded_at is not None


def test_a_refusal_is_a_sentence_and_bad_input_is_refused(db, staff):
    clerk = logged_in("clerk")
    assert post(clerk, "prepare") == (409, {"error": "Choose the vigorish to document."})
    assert post(clerk, "sign", form=99999) == (
        409,
        {"error": "There is no Complimentary Vigorish Form 99999."},
    )
    answer = clerk.post("/floor/forms/sign/", "[1]", content_type="application/json")
    assert answer.status_code == 400
    assert clerk.get("/floor/forms/sign/").status_code == 405


def pdf_text(client: Client, form: VigorishForm) -> list[str]:
    answer = client.get(f"/floor/forms/{form.pk}/pdf/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    SHOTS.mkdir(exist_ok=True)
    (SHOTS / f"vigorish-form-{form.printed_number}.pdf").write_bytes(answer.content)
    return [page.extract_text() for page in PdfReader(io.BytesIO(answer.content)).pages]


def test_the_pdf_has_the_original_and_the_duplicate_as_the_paper_form(db, staff, dealer, floor):
    pit = Pit.objects.get()
    table = deferred_table(dealer, floor)
    marker = requested_marker(table, dealer)
    clerk, boss, dealing = logged_in("clerk"), logged_in("pitboss"), logged_in("dealer")
    post(clerk, "series", pit=pit.pk, first=4501, last=4510)
    post(clerk, "prepare", marker=marker.pk, patron_name="Ana Ruiz")
    form = VigorishForm.objects.get()
    for client in (dealing, boss, clerk):
        post(client, "sign", form=form.pk)
    post(dealing, "patron", form=form.pk, signature="Ana Ruiz")
    original, duplicate = pdf_text(dealing, form)
    for text in (original, duplicate):
        assert "COMPLIMENTARY VIGORISH FORM" in text
        assert "No. 004501" in text
        assert "$5.00" in text and "Ana Ruiz" in text
        assert "DEMO CASINO" in text and f"{table.name} / 2" in text
        for who in ("dealer", "pitboss", "clerk"):
            assert who in text
        assert "EST" in text or "EDT" in text  # the casino's time zone, not UTC
    assert "ORIGINAL" in original and "DUPLICATE" not in original
    assert "DUPLICATE" in duplicate and "accounting" in duplicate
    assert "VOID" not in original


def test_a_void_form_prints_void_with_both_signatures(db, staff):
    pit = Pit.objects.get()
    clerk, boss = logged_in("clerk"), logged_in("pitboss")
    post(clerk, "series", pit=pit.pk, first=1, last=5)
    post(clerk, "void-blank", pit=pit.pk, reason="Torn in the printer")
    form = VigorishForm.objects.get()
    post(boss, "sign-void", form=form.pk)
    original, duplicate = pdf_text(clerk, form)
    assert "VOID" in original and "VOID" in duplicate
    assert "Torn in the printer" in original and "clerk" in original and "pitboss" in original
