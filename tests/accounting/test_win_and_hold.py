"""Win = closer - opener + credits - fills + drop, each term from its own rows; hold = win / drop;
the opener defaults to the last closer, and a counted one that differs is flagged."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from accounting import services
from accounting.reports import Figures, day_report
from tablegame.errors import ActionError
from tablegame.models import Table
from tests.accounting.conftest import chips
from tests.values import present

D = Decimal


@pytest.fixture
def counted(staff):
    """One table's day with every term different: opener 1,000, closer 1,300, fills 200 and 100,
    credit 50, drop 900 (and 5 in other contents)."""
    table = Table.objects.get(name="MB-1")
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now())
    sign = {"dealer": staff["dealer"], "floorperson": staff["floor"], "actor": staff["floor"]}
    services.record_inventory(table, day=day, kind="opener", chips=chips(d100=10), **sign)
    slip = {"carried_by": staff["pitboss"], "received_by": staff["dealer"], "actor": staff["floor"]}
    services.issue_slip(table, kind="fill", chips=chips(d100=2), **slip)
    services.issue_slip(table, kind="fill", chips=chips(d25=4), **slip)
    services.issue_slip(table, kind="credit", chips=chips(d5=10), **slip)
    services.record_inventory(table, day=day, kind="closer", chips=chips(d100=13), **sign)
    services.record_drop(
        table,
        day=day,
        currency=chips(d100=9),
        other=[{"item": "chips", "amount": "5"}, {"item": "a note", "amount": ""}],
        witness=staff["admin"],
        actor=staff["accounting"],
    )
    return table, day


def line(table, day):
    return next(t for t in day_report(table.pit.casino, day).tables if t.table_id == table.pk)


def test_each_term_of_the_win(counted):
    t = line(*counted)
    assert (t.closer, t.opener, t.credits, t.fills, t.drop) == (
        D(1300),
        D(1000),
        D(50),
        D(300),
        D(905),
    )
    assert t.win == D(1300) - D(1000) + D(50) - D(300) + D(905) == D(955)
    assert t.hold == D("105.52")  # 955 / 905


@pytest.mark.parametrize(
    ("term", "change", "effect"),
    [
        ("closer", 10, 10),
        ("opener", 10, -10),
        ("credits", 10, 10),
        ("fills", 10, -10),
        ("drop", 10, 10),
    ],
)
def test_each_term_moves_the_win_its_own_way(term, change, effect):
    base = Figures(opener=D(100), closer=D(120), fills=D(30), credits=D(5), drop=D(50))
    moved = Figures(**{**base.__dict__, term: getattr(base, term) + change})
    assert moved.win - base.win == effect


def test_hold_without_a_drop_is_none_and_rounds_half_up():
    assert Figures(closer=D(10)).hold is None
    assert Figures(drop=D(3), opener=D(2)).hold == D("33.33")  # win 1
    assert Figures(drop=D(8), opener=D(7)).hold == D("12.50")
    assert Figures(drop=D(6), opener=D(7)).hold == D("-16.67")


def test_without_a_counted_opener_the_last_closer_opens_the_day(staff):
    table = Table.objects.get(name="MB-1")
    day = table.pit.casino.gaming_day(timezone.now())
    sign = {"dealer": staff["dealer"], "floorperson": staff["floor"], "actor": staff["floor"]}
    earlier = day - datetime.timedelta(days=3)
    services.record_inventory(table, day=earlier, kind="closer", chips=chips(d100=7), **sign)
    services.record_inventory(table, day=day, kind="closer", chips=chips(d100=8), **sign)
    t = line(table, day)
    assert (t.opener, t.opener_source, t.win, t.flags) == (D(700), "last closer", D(100), [])
    assert present(services.opener_default(table, day)).total == D(700)


def test_a_counted_opener_unlike_the_last_closer_is_flagged(staff):
    table = Table.objects.get(name="MB-1")
    day = table.pit.casino.gaming_day(timezone.now())
    sign = {"dealer": staff["dealer"], "floorperson": staff["floor"], "actor": staff["floor"]}
    yesterday = day - datetime.timedelta(days=1)
    services.record_inventory(table, day=yesterday, kind="closer", chips=chips(d100=7), **sign)
    services.record_inventory(table, day=day, kind="opener", chips=chips(d100=6), **sign)
    t = line(table, day)
    assert t.opener_difference == D(-100)
    assert "Opener $600.00 differs from the last closer $700.00 by $-100.00" in t.flags
    assert "No closer counted: the tray is taken as unchanged" in t.flags


def test_an_inventory_is_signed_by_a_dealer_and_a_floorperson_who_differ(staff):
    table = Table.objects.get(name="MB-1")
    day = table.pit.casino.gaming_day(timezone.now())
    with pytest.raises(ActionError, match="not a dealer"):
        services.record_inventory(
            table, day=day, kind="opener", chips=chips(d100=1), dealer=staff["clerk"],
            floorperson=staff["floor"], actor=staff["floor"],
        )  # fmt: skip
    with pytest.raises(ActionError, match="not a denomination"):
        services.record_inventory(
            table, day=day, kind="opener", chips={"7": 1}, dealer=staff["dealer"],
            floorperson=staff["floor"], actor=staff["floor"],
        )  # fmt: skip
