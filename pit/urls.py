"""The pit's pages under ``/floor/``: a tile and the dealers' refusals of the console, Rules
Submissions, the pit's procedure, and the Complimentary Vigorish Forms, with their actions."""

from __future__ import annotations

from django.urls import URLPattern, path

from pit import refusals
from pit import views as console
from pit import views_forms as forms
from pit import views_rules as rules
from pit import views_seats as seats

urlpatterns: list[URLPattern] = [
    path("tables/<int:table_id>/tile/", console.floor_tile, name="floor_table_tile"),
    path("tables/<int:table_id>/rules/", rules.table_rules, name="floor_table_rules"),
    path("tables/<int:table_id>/rules/file/", rules.file_table_rules, name="floor_file_rules"),
    path("tables/<int:table_id>/seats/", rules.table_seats, name="floor_table_seats"),
    path("tables/<int:table_id>/decks/", rules.table_decks, name="floor_table_decks"),
    path("tables/<int:table_id>/players/", seats.seat_at_table, name="floor_seat_player"),
    path("refusals/", refusals.refusals_strip, name="floor_refusals"),
    path("procedure/", rules.pit_procedure, name="floor_pit_procedure"),
    path("forms/", forms.forms_page, name="vigorish_forms"),
    path("forms/<int:form_id>/pdf/", forms.form_pdf_view, name="vigorish_form_pdf"),
    path("forms/series/", forms.receive_series, name="receive_form_series"),
    path("forms/prepare/", forms.prepare, name="prepare_vigorish_form"),
    path("forms/void-blank/", forms.void_blank, name="void_blank_vigorish_form"),
    path("forms/sign/", forms.sign, name="sign_vigorish_form"),
    path("forms/patron/", forms.patron, name="record_patron_signature"),
    path("forms/deposit/", forms.deposit, name="deposit_vigorish_form"),
    path("forms/witness/", forms.witness, name="witness_vigorish_deposit"),
    path("forms/void/", forms.void, name="void_vigorish_form"),
    path("forms/sign-void/", forms.sign_void, name="sign_void_vigorish_form"),
    path("forms/forward/", forms.forward, name="forward_vigorish_duplicates"),
]
