"""The forms of accounting's pages, as their people use them: a floorperson requests a fill from
the pit and records a closer; a void signed by a witness; the day closed and reopened."""

from __future__ import annotations

import datetime

from django.urls import reverse
from django.utils import timezone

from accounting.models import DayReopening, GamingDay, Slip, TableInventory
from tablegame.models import Table
from tests.clients import signed_in


def test_a_floorperson_requests_a_fill_and_a_witness_signs_its_void(staff):
    table = Table.objects.get(name="MB-1")
    floor = signed_in(staff["floor"])
    answer = floor.post(
        reverse("accounting:slip"),
        {"table": table.pk, "kind": "fill", "chip_100": "12", "chip_25": "4",
         "carried_by": staff["pitboss"].pk, "received_by": staff["dealer"].pk},
        follow=True,
    )  # fmt: skip
    assert "Fill #1 for MB-1: $1300.00." in answer.content.decode()
    slip = Slip.objects.get()
    assert (slip.requested_by, slip.chips) == (staff["floor"], {"25": 4, "100": 12})
    refused = floor.post(
        reverse("accounting:slip-void"),
        {"slip": slip.pk, "reason": "Wrong table", "witness": "dealer",
         "witness_password": "baccarat"},
        follow=True,
    )  # fmt: skip
    assert "dealer may not sign" in refused.content.decode()
    done = floor.post(
        reverse("accounting:slip-void"),
        {"slip": slip.pk, "reason": "Wrong table", "witness": "pitboss",
         "witness_password": "baccarat"},
        follow=True,
    )  # fmt: skip
    assert "Fill #1 is void." in done.content.decode()
    slip.refresh_from_db()
    assert slip.void_witness == staff["pitboss"]


def test_the_opener_form_starts_from_the_last_closer(staff):
    table = Table.objects.get(name="MB-1")
    floor = signed_in(staff["floor"])
    today = table.pit.casino.gaming_day(timezone.now())
    yesterday = today - datetime.timedelta(days=1)
    signed = {"dealer": staff["dealer"].pk, "floorperson": staff["floor"].pk}
    floor.post(
        reverse("accounting:inventory"),
        {"table": table.pk, "day": yesterday.isoformat(), "kind": "closer", "chip_100": "40",
         **signed},
    )  # fmt: skip
    form = floor.get(reverse("accounting:inventory"), {"table": table.pk}).content.decode()
    assert 'name="chip_100" value="40"' in form
    assert "the last closer, <strong>$4000.00</strong>" in form
    assert TableInventory.objects.get().recorded_by == staff["floor"]


def test_closing_and_reopening_by_the_page(staff):
    table = Table.objects.get(name="MB-1")
    day = table.pit.casino.gaming_day(timezone.now()) - datetime.timedelta(days=1)
    acct = signed_in(staff["accounting"])
    url = reverse("accounting:close")
    page = acct.post(url, {"day": day.isoformat(), "action": "close"}, follow=True)
    assert f"Gaming day {day} closed." in page.content.decode()
    assert GamingDay.objects.get(day=day).closed_by == staff["accounting"]
    reopen = {"day": day.isoformat(), "action": "reopen", "reason": "Recount of MB-1"}
    page = acct.post(url, {**reopen, "approver": "pitboss", "approver_password": "baccarat"},
                     follow=True)  # fmt: skip
    assert "Only an administrator, a senior person" in page.content.decode()
    page = acct.post(url, {**reopen, "approver": "admin", "approver_password": "baccarat"},
                     follow=True)  # fmt: skip
    assert f"Gaming day {day} reopened." in page.content.decode()
    assert DayReopening.objects.get().approved_by == staff["admin"]
