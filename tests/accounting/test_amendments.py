"""A wrong count is corrected by an amendment on the table's page for the day: a new count that
points at the one it corrects, with why, made by accounting and approved by a second person who
signs with their password; the report reads the amended figure and says who amended it."""

from __future__ import annotations

import datetime
import html
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounting import services
from accounting.models import DropCount, TableInventory
from accounting.reports import TableDay, day_report
from casino.models import Event
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import PlayedDay, chips
from tests.clients import signed_in


def _amend(client: Client, day: PlayedDay, table: Table, count: str, **form: str) -> str:
    """Post the amendment form of the table's page; the page answered, as text (unescaped)."""
    url = reverse("accounting:table-day")
    where = {"day": day.day.isoformat(), "table": str(table.pk)}
    row: DropCount | TableInventory
    if count == "drop":
        row = DropCount.objects.current().get(table=table, day=day.day)
    else:
        row = TableInventory.objects.current().get(table=table, day=day.day, kind=count)
    page = client.post(url, {**where, "count": count, "row": str(row.pk), **form}, follow=True)
    assert page.status_code == 200
    return html.unescape(page.content.decode())


def _line(day: PlayedDay, table: Table) -> TableDay:
    return next(t for t in day_report(day.casino, day.day).tables if t.table_id == table.pk)


# MB-1's closer was 10,365 (103 x $100, 2 x $25, 3 x $5): 104 x $100 were in the tray.
RECOUNTED = {"chip_100": "104", "chip_25": "2", "chip_5": "3"}


def test_an_amended_closer_is_what_the_report_reads_and_says_who_amended_it(played_day):
    acct = signed_in(played_day.staff["accounting"])
    mb = played_day.mb
    assert _line(played_day, mb).win == Decimal("-135.00")
    page = _amend(
        acct, played_day, mb, "closer", **RECOUNTED, reason="A stack of $100 miscounted",
        approver="floor", approver_password="baccarat",
    )  # fmt: skip
    assert f"MB-1's closer of {played_day.day} amended to $10465.00, approved by floor." in page
    line = _line(played_day, mb)
    assert (line.closer, line.win) == (Decimal("10465.00"), Decimal("-35.00"))
    amendment = TableInventory.objects.get(amends__isnull=False)
    assert amendment.amends is not None and amendment.amends.total == Decimal("10365.00")
    assert (amendment.recorded_by, amendment.approved_by) == (
        played_day.staff["accounting"],
        played_day.staff["floor"],
    )
    event = Event.objects.get(action="table_inventory_amended")
    assert event.actor == played_day.staff["accounting"]
    assert (event.data["previous_total"], event.data["total"]) == ("10365.00", "10465.00")
    assert event.data["approved_by"] == "floor"
    report = acct.get(reverse("accounting:day"), {"day": played_day.day.isoformat()})
    assert (
        "Closer amended from $10365.00 to $10465.00 by accounting, approved by floor: "
        "A stack of $100 miscounted" in report.content.decode()
    )
    csv = acct.get(reverse("accounting:day-csv"), {"day": played_day.day.isoformat()})
    assert "amendment,MB-1,Closer,10365.00,10465.00,accounting,floor" in csv.content.decode()


def test_an_amended_drop_is_what_the_report_reads(played_day):
    acct = signed_in(played_day.staff["accounting"])
    mb = played_day.mb
    page = _amend(
        acct, played_day, mb, "drop", cash_100="6", cash_20="25",
        reason="A $100 note stuck in the box", approver="admin", approver_password="baccarat",
    )  # fmt: skip
    assert "amended to $1100.00, approved by admin." in page
    line = _line(played_day, mb)
    assert (line.drop, line.win, line.hold) == (
        Decimal("1100.00"),
        Decimal("-35.00"),
        Decimal("-3.18"),
    )
    report = day_report(played_day.casino, played_day.day)
    assert [a.text for a in report.amendments] == [
        "Drop amended from $1000.00 to $1100.00 by accounting, approved by admin: "
        "A $100 note stuck in the box"
    ]
    assert report.total.drop == Decimal("2300.00")
    event = Event.objects.get(action="drop_amended")
    assert event.actor == played_day.staff["accounting"] and event.data["approved_by"] == "admin"
    history = acct.get(
        reverse("accounting:table-day"), {"day": played_day.day.isoformat(), "table": mb.pk}
    ).content.decode()
    assert "A $100 note stuck in the box" in history and "amended" in history


def test_the_maker_cannot_approve_their_own_amendment(played_day):
    acct = signed_in(played_day.staff["accounting"])
    page = _amend(
        acct, played_day, played_day.mb, "drop", cash_100="6", cash_20="25", reason="Recount",
        approver="accounting", approver_password="baccarat",
    )  # fmt: skip
    assert "The second person to approve the amendment of a drop must be someone else." in page
    assert not DropCount.objects.filter(amends__isnull=False).exists()
    assert not Event.objects.filter(action="drop_amended").exists()
    with pytest.raises(ActionError, match="not the one who makes it"):
        services.amend_drop(
            DropCount.objects.get(table=played_day.mb), currency=chips(d100=6, d20=25),
            reason="Recount", approver=played_day.staff["accounting"],
            actor=played_day.staff["accounting"],
        )  # fmt: skip


def test_a_wrong_password_changes_nothing(played_day):
    acct = signed_in(played_day.staff["accounting"])
    page = _amend(
        acct, played_day, played_day.mb, "closer", **RECOUNTED, reason="Miscounted",
        approver="floor", approver_password="not-the-password",
    )  # fmt: skip
    assert "The second person's username or password is wrong (floor)." in page
    assert 'value="104"' in page and 'value="Miscounted"' in page  # the form keeps what was typed
    assert TableInventory.objects.filter(amends__isnull=False).count() == 0
    assert _line(played_day, played_day.mb).closer == Decimal("10365.00")
    assert not Event.objects.filter(action="table_inventory_amended").exists()


def test_the_pit_does_not_approve_a_drop_nor_the_count_room_a_tray(played_day):
    acct = signed_in(played_day.staff["accounting"])
    drop = _amend(
        acct, played_day, played_day.mb, "drop", cash_100="6", cash_20="25", reason="Recount",
        approver="floor", approver_password="baccarat",
    )  # fmt: skip
    assert "floor may not sign: Only the count room (accounting) may approve" in drop
    staff = played_day.staff
    other = User.objects.create_user("accounting2", password="baccarat")
    other.groups.set(staff["accounting"].groups.all())
    closer = _amend(
        acct, played_day, played_day.mb, "closer", **RECOUNTED, reason="Recount",
        approver="accounting2", approver_password="baccarat",
    )  # fmt: skip
    assert "accounting2 may not sign: Only a floorperson or pit boss" in closer
    assert not TableInventory.objects.filter(amends__isnull=False).exists()
    assert not DropCount.objects.filter(amends__isnull=False).exists()


def test_a_count_is_amended_again_from_the_one_that_stands(played_day):
    staff = played_day.staff
    closer = TableInventory.objects.get(table=played_day.mb, day=played_day.day, kind="closer")
    people = {"approver": staff["floor"], "actor": staff["accounting"]}
    first = services.amend_inventory(
        closer, chips=chips(d100=104, d25=2, d5=3), reason="Recount", **people
    )
    with pytest.raises(ActionError, match="amended already"):
        services.amend_inventory(closer, chips=chips(d100=105), reason="Again", **people)
    services.amend_inventory(first, chips=chips(d100=102, d25=2, d5=3), reason="Again", **people)
    assert _line(played_day, played_day.mb).closer == Decimal("10265.00")
    assert len(day_report(played_day.casino, played_day.day).amendments) == 2
    with pytest.raises(ActionError, match="already counted: accounting corrects"):
        services.record_inventory(
            played_day.mb, day=played_day.day, kind="closer", chips=chips(d100=1),
            dealer=staff["dealer"], floorperson=staff["floor"], actor=staff["floor"],
        )  # fmt: skip


def test_an_amendment_that_changes_nothing_or_says_not_why_is_refused(played_day):
    staff = played_day.staff
    closer = TableInventory.objects.get(table=played_day.mb, day=played_day.day, kind="closer")
    people = {"approver": staff["floor"], "actor": staff["accounting"]}
    with pytest.raises(ActionError, match="the same as MB-1's closer"):
        services.amend_inventory(
            closer, chips=chips(d100=103, d25=2, d5=3), reason="Recount", **people
        )
    with pytest.raises(ActionError, match="Say why"):
        services.amend_inventory(closer, chips=chips(d100=104), reason="  ", **people)
    with pytest.raises(ActionError, match="Only accounting may amend"):
        services.amend_inventory(
            closer, chips=chips(d100=104), reason="Recount", approver=staff["pitboss"],
            actor=staff["floor"],
        )  # fmt: skip
    assert not TableInventory.objects.filter(amends__isnull=False).exists()


def test_on_a_closed_day_an_amendment_waits_for_the_day_to_be_reopened(staff):
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now()) - datetime.timedelta(days=1)
    closer = services.record_inventory(
        table, day=day, kind="closer", chips=chips(d100=110), dealer=staff["dealer"],
        floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip
    drop = services.record_drop(
        table, day=day, currency=chips(d100=5), witness=staff["admin"], actor=staff["accounting"]
    )
    services.close_gaming_day(casino, day, actor=staff["accounting"])
    acct = signed_in(staff["accounting"])
    url = reverse("accounting:table-day")
    page = acct.get(url, {"day": day.isoformat(), "table": str(table.pk)}).content.decode()
    assert "The gaming day is closed: its counts are final" in page
    assert "Amend the closer" not in page
    posted = acct.post(
        url,
        {"day": day.isoformat(), "table": table.pk, "count": "drop", "row": drop.pk,
         "cash_100": "6", "reason": "Recount", "approver": "admin",
         "approver_password": "baccarat"},
        follow=True,
    ).content.decode()  # fmt: skip
    assert f"The gaming day {day:%Y-%m-%d} is closed" in posted
    people = {"approver": staff["floor"], "actor": staff["accounting"]}
    with pytest.raises(ActionError, match=f"gaming day {day:%Y-%m-%d} is closed"):
        services.amend_inventory(closer, chips=chips(d100=111), reason="Recount", **people)
    assert not TableInventory.objects.filter(amends__isnull=False).exists()
    assert not DropCount.objects.filter(amends__isnull=False).exists()
    services.reopen_gaming_day(
        casino, day, reason="MB-1's closer recounted", approver=staff["admin"],
        actor=staff["accounting"],
    )  # fmt: skip
    services.amend_inventory(closer, chips=chips(d100=111), reason="Recount", **people)
    assert day_report(casino, day).total.win == Decimal("11600.00")


def test_a_closer_amended_on_an_open_day_may_not_reach_a_closed_day_after_it(staff):
    """The closer of D-1 opens D: with D closed, amending it is refused, naming D."""
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now()) - datetime.timedelta(days=1)
    earlier = services.record_inventory(
        table, day=day - datetime.timedelta(days=1), kind="closer", chips=chips(d100=100),
        dealer=staff["dealer"], floorperson=staff["floor"], actor=staff["floor"],
    )  # fmt: skip
    services.close_gaming_day(casino, day, actor=staff["accounting"])
    with pytest.raises(ActionError, match=f"closed gaming day {day:%Y-%m-%d}"):
        services.amend_inventory(
            earlier, chips=chips(d100=90), reason="Recount", approver=staff["floor"],
            actor=staff["accounting"],
        )  # fmt: skip
