"""A time no casino can mean is refused where it enters; one already stored breaks no page."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from casino.models import Pit
from tablegame.models import Table, TableRules
from tests.pit.conftest import dealer, floor, staff

__all__ = ["dealer", "floor", "staff"]

FAR = "9999-12-31 23:59"


def client_for(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password="baccarat")
    return client


@pytest.mark.parametrize("zone", ["UTC", "America/Los_Angeles", "Asia/Macau"])
def test_a_stored_far_future_rules_filing_breaks_no_page(db, staff: dict[str, User], zone):
    table = Table.objects.select_related("pit__casino").order_by("pk").first()
    assert table is not None
    casino = table.pit.casino
    casino.time_zone = zone
    casino.save()
    TableRules.objects.create(
        table=table,
        profile=table.profile,
        effective_at=datetime.datetime.max.replace(tzinfo=datetime.UTC),
        filed_by=staff["pitboss"],
    )
    for name in staff:
        client = Client()
        client.force_login(staff[name])
        assert client.get("/").status_code in (200, 302), name
    boss = client_for("pitboss")
    for url in ("/floor/", f"/floor/tables/{table.pk}/rules/"):
        assert boss.get(url, follow=True).status_code == 200, url
    assert client_for("surveillance").get("/surveillance/", follow=True).status_code == 200
    accountant = Client()
    accountant.force_login(staff["accounting"] if "accounting" in staff else staff["admin"])
    assert accountant.get("/accounting/").status_code == 200


def test_a_far_future_time_is_refused_at_the_rules_form(db, staff: dict[str, User]):
    table = Table.objects.order_by("pk").first()
    assert table is not None
    filed = TableRules.objects.filter(table=table).count()
    answer = client_for("pitboss").post(
        f"/floor/tables/{table.pk}/rules/file/",
        {"profile": table.profile, "options": {}, "effective_at": FAR},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "years" in answer.json()["error"]
    assert TableRules.objects.filter(table=table).count() == filed


def test_a_far_future_time_is_refused_at_the_pit_procedure_form(db, staff: dict[str, User]):
    before = TableRules.objects.count()
    answer = client_for("pitboss").post(
        "/floor/procedure/",
        {"effective_at": FAR, "pit": Pit.objects.get().pk},
        content_type="application/json",
    )
    assert answer.status_code == 400
    assert "years" in answer.json()["error"]
    assert TableRules.objects.count() == before
