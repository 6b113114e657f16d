"""Complimentary Vigorish Forms reconciled: originals from the drop against the day's forms and
the clerk's duplicates; a form missing from the drop, a gap in the numbers, flagged."""

from __future__ import annotations

from decimal import Decimal

from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounting import services
from accounting.reports import day_report
from tablegame.models import Table
from tablegame.vigorish_forms.models import VigorishForm, VigorishFormSeries
from tests.accounting.conftest import chips
from tests.values import present


def _forms(staff, table, day, numbers_used, void=()):
    series = VigorishFormSeries.objects.create(
        pit=table.pit, first_number=4501, last_number=4550,
        next_number=max(numbers_used) + 1, received_by=staff["clerk"],
    )  # fmt: skip
    for number in numbers_used:
        if number in void:
            VigorishForm.objects.create(
                series=series, number=number, pit=table.pit, gaming_day=day, status="void",
                prepared_by=staff["clerk"], void_reason="Spoiled", voided_by=staff["clerk"],
            )  # fmt: skip
        else:
            VigorishForm.objects.create(
                series=series, number=number, pit=table.pit, gaming_day=day, status="deposited",
                table=table, seat=1, amount=Decimal("12.50"), prepared_by=staff["clerk"],
                forwarded_at=timezone.now(), forwarded_by=staff["clerk"],
            )  # fmt: skip


def test_a_form_missing_from_the_drop_and_a_gap_are_flagged(staff):
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now())
    # 4501, 4502 used, 4503 VOID, 4504 never written (a gap), 4505 used; next is 4506.
    _forms(staff, table, day, [4501, 4502, 4503, 4505], void=(4503,))
    services.record_drop(
        table, day=day, currency=chips(d100=1), forms="004501 4505 4599",
        witness=staff["admin"], actor=staff["accounting"],
    )  # fmt: skip
    rec = day_report(casino, day).reconciliation
    assert rec is not None
    assert (rec.used, rec.void, rec.amount) == (3, 1, Decimal("37.50"))
    assert rec.exceptions == [
        "Form 004502 (MB-1, $12.50): original missing from the drop",
        "Form 004599 was counted in the drop but no form of the day has it",
        "Gap in the serial numbers of Forms 004501-004550: 004504",
    ]
    assert [(f.number, f.original, f.flagged) for f in rec.forms] == [
        ("004501", "MB-1", False),
        ("004502", "", True),
        ("004503", "", False),
        ("004505", "MB-1", False),
    ]
    client = Client()
    client.force_login(staff["accounting"])
    html = client.get(reverse("accounting:day"), {"day": day.isoformat()}).content.decode()
    assert "004502 (MB-1, $12.50): original missing from the drop" in html


def test_every_form_accounted_for_leaves_nothing_to_flag(staff):
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now())
    _forms(staff, table, day, [4501, 4502])
    services.record_drop(
        table, day=day, currency=chips(d100=1), forms="4501 4502", witness=staff["admin"],
        actor=staff["accounting"],
    )  # fmt: skip
    assert present(day_report(casino, day).reconciliation).exceptions == []
