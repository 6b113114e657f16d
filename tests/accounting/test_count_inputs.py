"""Counts and amounts typed into accounting's forms are whole pieces and finite amounts to the
cent that fit their columns; text holds no NUL. Anything else is refused in words, and nothing is
saved: never a server error."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounting.models import AccountingSettings, DropCount, GamingDay, Slip, TableInventory
from casino.models import Event
from tablegame.models import Table
from tests.clients import signed_in


def _stored() -> tuple[int, ...]:
    """What accounting has stored, read back from the database."""
    return (
        TableInventory.objects.count(),
        DropCount.objects.count(),
        Slip.objects.count(),
        GamingDay.objects.count(),
        AccountingSettings.objects.count(),
        Event.objects.count(),
    )


def _post(client: Client, page: str, form: dict[str, object]) -> tuple[int, str]:
    answer = client.post(reverse(f"accounting:{page}"), form)
    return answer.status_code, html.unescape(answer.content.decode())


BAD_COUNTS = {
    "²": "must be a whole number of pieces",
    "9" * 5000: "must be a whole number of pieces",
    "1e3": "must be a whole number of pieces",
    "-4": "must be a whole number of pieces",
    "1000001": "at most 1,000,000",
}


@pytest.mark.parametrize("count", BAD_COUNTS)
def test_an_inventory_count_that_is_not_whole_pieces_is_refused(staff, count):
    table = Table.objects.get(name="MB-1")
    before = _stored()
    status, page = _post(
        signed_in(staff["floor"]),
        "inventory",
        {"table": table.pk, "kind": "closer", "chip_100": count, "chip_25": "4",
         "dealer": staff["dealer"].pk, "floorperson": staff["floor"].pk},
    )  # fmt: skip
    assert status == 200 and BAD_COUNTS[count] in page
    assert _stored() == before


@pytest.mark.parametrize("count", ["²", "9" * 5000])
def test_a_fill_count_that_is_not_whole_pieces_is_refused(staff, count):
    table = Table.objects.get(name="MB-1")
    before = _stored()
    status, page = _post(
        signed_in(staff["floor"]),
        "slip",
        {"table": table.pk, "kind": "fill", "chip_100": count,
         "carried_by": staff["pitboss"].pk, "received_by": staff["dealer"].pk},
    )  # fmt: skip
    assert status == 200 and "must be a whole number of pieces" in page
    assert _stored() == before


def _drop(staff, **typed: object) -> tuple[int, str]:
    table = Table.objects.get(name="MB-1")
    return _post(
        signed_in(staff["accounting"]),
        "drop",
        {"table": table.pk, "cash_100": "5", "witness": "admin", "witness_password": "baccarat",
         **typed},
    )  # fmt: skip


BAD_AMOUNTS = {
    "1e400": "too large",
    "NaN": "an amount to the cent",
    "Infinity": "an amount to the cent",
    "-Infinity": "an amount to the cent",
    "sNaN": "an amount to the cent",
    "10000000000": "too large",
    "0.001": "an amount to the cent",
    "ten": "is not an amount",
}


@pytest.mark.parametrize("amount", BAD_AMOUNTS)
def test_a_drop_amount_that_is_not_money_is_refused(staff, amount):
    before = _stored()
    status, page = _drop(staff, other_item="Voucher", other_amount=amount)
    assert status == 200 and BAD_AMOUNTS[amount] in page
    assert _stored() == before


@pytest.mark.parametrize("forms", ["²", "9" * 5000, "0", "1000000000"])
def test_a_form_serial_that_is_not_one_is_refused(staff, forms):
    before = _stored()
    status, page = _drop(staff, forms=forms)
    assert status == 200 and "is not the serial number of a form" in page
    assert _stored() == before


@pytest.mark.parametrize("count", ["²", "9" * 5000])
def test_a_banknote_count_that_is_not_whole_pieces_is_refused(staff, count):
    before = _stored()
    status, page = _drop(staff, cash_20=count)
    assert status == 200 and "must be a whole number of pieces" in page
    assert _stored() == before


@pytest.mark.parametrize(
    ("page", "field"),
    [("drop", "other_item"), ("drop", "witness"), ("slip-void", "reason"), ("close", "reason"),
     ("inventory", "kind"), ("table-day", "approver"), ("settings", "hold_low")],
)  # fmt: skip
def test_a_nul_character_in_any_field_is_refused(staff, page, field):
    table = Table.objects.get(name="MB-1")
    before = _stored()
    status, shown = _post(
        signed_in(staff["admin"]),
        page,
        {"table": table.pk, "other_amount": "1", field: "Void\x00ed"},
    )
    assert status == 400
    assert "holds a NUL character, which cannot be stored" in shown
    assert _stored() == before


SETTINGS = {"variance_threshold": "100", "hold_low": "5", "hold_high": "30",
            "close_after_hours": "10"}  # fmt: skip


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [("variance_threshold", "1e400", "out of range"), ("hold_low", "NaN", "not a number"),
     ("hold_high", "Infinity", "not a number"), ("close_after_hours", "²", "whole number"),
     ("close_after_hours", "9" * 5000, "whole number")],
)  # fmt: skip
def test_a_setting_that_is_not_a_number_in_range_is_refused(staff, field, typed, said):
    before = _stored()
    status, page = _post(signed_in(staff["accounting"]), "settings", {**SETTINGS, field: typed})
    assert status == 200 and said in page
    assert _stored() == before


def test_an_other_item_described_at_length_is_refused_not_cut(staff):
    before = _stored()
    status, page = _drop(staff, other_item="Voucher " * 20, other_amount="5")
    assert status == 200 and "in 100 characters or fewer" in page
    assert _stored() == before
