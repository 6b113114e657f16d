"""Fills and credits: numbered in order per casino and kind, also when requested at the same
moment from two screens (real PostgreSQL transactions in threads); a void needs two people."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from accounting import services
from accounting.models import SerialCounter, Slip
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import chips


def test_serials_are_given_in_order_without_gaps_under_concurrent_requests(floor_staff):
    staff = floor_staff
    tables = list(Table.objects.order_by("pk")[:4])
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def request(i: int) -> None:
        try:
            barrier.wait()
            services.issue_slip(
                tables[i % 4], kind="fill", chips=chips(d25=i + 1),
                carried_by=staff["pitboss"], received_by=staff["dealer"], actor=staff["floor"],
            )  # fmt: skip
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=request, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    serials = list(Slip.objects.order_by("requested_at", "pk").values_list("serial", flat=True))
    assert sorted(serials) == list(range(1, 9))
    by_serial = list(Slip.objects.order_by("serial").values_list("pk", flat=True))
    assert by_serial == sorted(by_serial)  # numbered in the order they were written
    assert SerialCounter.objects.get(kind="fill").last == 8


def test_a_refused_request_gives_its_number_back(staff):
    table = Table.objects.get(name="MB-1")
    slip = {"carried_by": staff["pitboss"], "received_by": staff["dealer"], "actor": staff["floor"]}
    with pytest.raises(ActionError):
        services.issue_slip(table, kind="fill", chips={}, **slip)
    with pytest.raises(ActionError, match="does not carry"):
        services.issue_slip(
            table, kind="fill", chips=chips(d5=1), carried_by=staff["floor"],
            received_by=staff["dealer"], actor=staff["floor"],
        )  # fmt: skip
    assert services.issue_slip(table, kind="fill", chips=chips(d5=1), **slip).serial == 1
    assert services.issue_slip(table, kind="credit", chips=chips(d5=1), **slip).serial == 1
    assert services.issue_slip(table, kind="fill", chips=chips(d5=1), **slip).serial == 2


def test_a_void_needs_a_second_person_who_signs_with_a_password(staff):
    table = Table.objects.get(name="MB-1")
    slip = services.issue_slip(
        table, kind="fill", chips=chips(d100=3), carried_by=staff["pitboss"],
        received_by=staff["dealer"], actor=staff["floor"],
    )  # fmt: skip
    floor = staff["floor"]
    signing = None  # the password alone (the pages pass their request: tests of the pages)
    rule = "authority:witness_slip_void"
    doing = "void a fill or credit"
    with pytest.raises(ActionError, match="someone else"):
        services.second_person(
            signing, "floor", "baccarat", first=floor, authority=rule, doing=doing
        )
    with pytest.raises(ActionError, match="wrong"):
        services.second_person(signing, "pitboss", "nope", first=floor, authority=rule, doing=doing)
    with pytest.raises(ActionError, match="may not sign"):
        services.second_person(
            signing, "dealer", "baccarat", first=floor, authority=rule, doing=doing
        )
    with pytest.raises(ActionError, match="someone else"):
        services.void_slip(slip, reason="Wrong table", witness=floor, actor=floor)
    witness = services.second_person(
        signing, "pitboss", "baccarat", first=floor, authority=rule, doing=doing
    )
    voided = services.void_slip(slip, reason="Wrong table", witness=witness, actor=floor)
    assert (voided.voided_by, voided.void_witness, voided.void_reason) == (
        floor,
        staff["pitboss"],
        "Wrong table",
    )
    with pytest.raises(ActionError, match="already void"):
        services.void_slip(slip, reason="Again", witness=witness, actor=floor)
