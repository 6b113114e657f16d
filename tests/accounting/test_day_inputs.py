"""A gaming day given to an accounting page is one a casino can mean, or the page says why with a
400 and changes nothing: never a server error, never yesterday in its place."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounting import services
from accounting.inputs import YEARS_BACK, BadInput
from accounting.models import GamingDay, TableInventory
from casino.models import Event
from tablegame.models import Table
from tests.clients import signed_in

PAGES = ("day", "day-csv", "day-pdf", "master", "rounds", "close", "table-day", "drop", "inventory")
WRONG = {
    "9999-12-31": "has not begun yet",
    "0001-01-01": f"more than {YEARS_BACK} years before",
    "garbage": "is not a date",
    "2026-02-30": "is not a date",
    "2026-1-1": "is not a date",
}


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("day", WRONG)
def test_a_page_refuses_a_day_no_casino_can_mean(staff, page, day):
    table = Table.objects.get(name="MB-1")
    answer = signed_in(staff["admin"]).get(
        reverse(f"accounting:{page}"), {"day": day, "table": table.pk}
    )
    assert answer.status_code == 400
    assert WRONG[day] in answer.content.decode()


def test_tomorrow_has_no_report_yet(staff):
    today = Table.objects.get(name="MB-1").pit.casino.gaming_day(timezone.now())
    tomorrow = today + datetime.timedelta(days=1)
    acct = signed_in(staff["accounting"])
    assert acct.get(reverse("accounting:day"), {"day": tomorrow.isoformat()}).status_code == 400
    shown = acct.get(reverse("accounting:day"), {"day": today.isoformat()})
    assert shown.status_code == 200
    assert 'aria-label="Next day"' not in shown.content.decode()  # no link to a refused page


def test_no_day_given_still_opens_yesterday(staff):
    today = Table.objects.get(name="MB-1").pit.casino.gaming_day(timezone.now())
    answer = signed_in(staff["accounting"]).get(reverse("accounting:day"))
    assert answer.status_code == 200
    assert answer.context["day"] == today - datetime.timedelta(days=1)


def test_closing_a_garbage_day_closes_nothing(staff):
    acct = signed_in(staff["accounting"])
    for day in ("garbage", "9999-12-31", "0001-01-01", "²"):
        answer = acct.post(reverse("accounting:close"), {"action": "close", "day": day})
        assert answer.status_code == 400
        assert "Nothing was changed." in answer.content.decode()
    assert not GamingDay.objects.exists()
    assert not Event.objects.filter(action="gaming_day_closed").exists()


def test_a_year_0001_inventory_is_refused_and_nothing_is_saved(staff):
    table = Table.objects.get(name="MB-1")
    events = Event.objects.count()
    answer = signed_in(staff["floor"]).post(
        reverse("accounting:inventory"),
        {"table": table.pk, "day": "0001-01-01", "kind": "closer", "chip_100": "40",
         "dealer": staff["dealer"].pk, "floorperson": staff["floor"].pk},
    )  # fmt: skip
    assert answer.status_code == 400
    assert "0001-01-01 is more than 5 years before" in answer.content.decode()
    assert not TableInventory.objects.exists() and not GamingDay.objects.exists()
    assert Event.objects.count() == events


def test_the_service_refuses_a_year_0001_count_too(staff):
    table = Table.objects.get(name="MB-1")
    with pytest.raises(BadInput, match="more than 5 years before"):
        services.record_inventory(
            table, day=datetime.date(1, 1, 1), kind="closer", chips={"100": 4},
            dealer=staff["dealer"], floorperson=staff["floor"], actor=staff["floor"],
        )  # fmt: skip
    assert not TableInventory.objects.exists() and not GamingDay.objects.exists()


def test_an_unreadable_casino_or_table_id_is_no_server_error(staff):
    acct = signed_in(staff["accounting"])
    answer = acct.get(reverse("accounting:day"), {"casino": "²"})
    assert answer.status_code == 400 and "is not a casino" in answer.content.decode()
    assert acct.get(reverse("accounting:day"), {"casino": "9" * 30}).status_code == 400
    assert acct.get(reverse("accounting:day"), {"casino": str(2**62)}).status_code == 404
    assert acct.get(reverse("accounting:table-day"), {"table": "²"}).status_code == 200
    assert acct.get(reverse("accounting:slip-void"), {"slip": "9" * 30}).status_code == 200
