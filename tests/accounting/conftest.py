"""A gaming day at two tables of the demo floor, played through the real actions, with its
count: inventories, fills and credits, and drop boxes entered through accounting's services.

Hand-worked figures (the seeded day of ``played_day``):

MB-1 (Massachusetts Minibaccarat, commission collected at payout)
  round 1: Banker 100 (seat 1) wins on 9 against 6: paid 100, commission 5 collected;
           Player 50 (seat 2) loses: collected 50.                                  house -45
  round 2: Player 100 (seat 1) wins on 9 against 5: paid 100; Tie 10 (seat 2) lost.  house -90
  round 3: void after one card (Banker 25 returned).
  opener 10,000 (counted, equal to the last closer); fill #1 2,000; credit #1 500;
  closer 10,365; drop 1,000.   win = 10,365 - 10,000 + 500 - 2,000 + 1,000 = -135 (hold -13.50 %)
MB-3 (Mini-Baccarat 5 %, commission deferred as a marker)
  round 1: Banker 200 (seat 1) wins: paid 200, commission 10 marked, later collected. house -190
  round 2: Player 40 (seat 3) loses.                                                 house +40
  opener not counted: the last closer, 5,000; fill #2 1,000 VOID; closer 4,000; drop 1,200.
                               win = 4,000 - 5,000 + 1,200 = 200 (hold 16.67 %)
Casino: drop 2,200, win 65, hold 2.95 %; wager-tracked -135 + -150 = -285.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from accounting import services
from casino.models import Casino
from tablegame import actions
from tablegame.models import Table, VigorishMarker
from tests.conftest import commits_for_real
from tests.tablegame.conftest import play, ready_table

BANKER_WINS = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9
PLAYER_WINS = ["9H", "2C", "KD", "3S"]  # Player 9, Banker 5


@pytest.fixture
def staff(seeded: str) -> dict[str, User]:
    return {u.username: u for u in User.objects.all()}


@dataclass
class PlayedDay:
    casino: Casino
    day: datetime.date
    mb: Table
    s42: Table
    staff: dict[str, User]


def chips(**by_denomination: int) -> dict[str, int]:
    """``chips(d100=3, d25=2)`` is ``{"100": 3, "25": 2}``."""
    return {k.removeprefix("d").replace("_", "."): v for k, v in by_denomination.items()}


@dataclass(frozen=True)
class DayPlayedOnce:
    """Where the day played once a run (``played_once``) is: its tables and gaming day."""

    mb: int  #: MB-1's pk
    s42: int  #: MB-3's pk
    day: datetime.date


@pytest.fixture(scope="session")
def played_once(demo_floor: str, django_db_blocker: Any) -> DayPlayedOnce:
    """The day of the module docstring, played on the demo floor and committed once a run (about
    0.4 s) for every rolled-back test that asks for ``played_day``; those run after the other
    tests on the demo floor (``tests.conftest._run_order``), which never see it."""
    with django_db_blocker.unblock():
        played = play_the_day({u.username: u for u in User.objects.all()})
    return DayPlayedOnce(played.mb.pk, played.s42.pk, played.day)


@pytest.fixture
def played_day(
    request: pytest.FixtureRequest, played_once: DayPlayedOnce, staff: dict[str, User]
) -> PlayedDay:
    """The day played once a run (``played_once``), read afresh for this test, which changes
    it only in its own transaction (rolled back)."""
    assert not commits_for_real(request.node), "a test that commits plays its own: committed_day"
    mb, s42 = Table.objects.get(pk=played_once.mb), Table.objects.get(pk=played_once.s42)
    return PlayedDay(mb.pit.casino, played_once.day, mb, s42, staff)


def play_the_day(staff: dict[str, User]) -> PlayedDay:
    """The day of the module docstring, through the actions and services."""
    dealer, floor, acct = staff["dealer"], staff["floor"], staff["accounting"]
    s42_dealer = staff["dealer3"]  # the demo's dealer at MB-3 (s42-mini): one table each
    mb = ready_table("ma-mini", dealer, floor)
    s42 = ready_table(
        "s42-mini", s42_dealer, floor, seats=(1, 3), options={"vigorish_collection": "deferred"}
    )
    casino = mb.pit.casino
    day = casino.gaming_day(timezone.now())
    yesterday = day - datetime.timedelta(days=1)
    inventory = {"dealer": dealer, "floorperson": floor, "actor": floor}
    services.record_inventory(mb, day=yesterday, kind="closer", chips=chips(d100=100), **inventory)
    services.record_inventory(s42, day=yesterday, kind="closer", chips=chips(d100=50), **inventory)
    services.record_inventory(mb, day=day, kind="opener", chips=chips(d100=100), **inventory)

    play(mb, dealer, [(1, "banker", "100"), (2, "player", "50")], BANKER_WINS)
    play(mb, dealer, [(1, "player", "100"), (2, "tie", "10")], PLAYER_WINS)
    actions.open_round(mb, actor=dealer)
    actions.place_wager(mb, seat=1, wager="banker", amount="25", actor=dealer)
    actions.no_more_bets(mb, actor=dealer)
    actions.deal_card(mb, card="5D", actor=dealer)
    actions.void_round(mb, reason="Card dropped on the floor", actor=floor)

    play(s42, s42_dealer, [(1, "banker", "200")], BANKER_WINS)
    marker = VigorishMarker.objects.get(table=s42)
    actions.collect_marker(s42, marker_id=marker.pk, actor=s42_dealer)
    play(s42, s42_dealer, [(3, "player", "40")], BANKER_WINS)

    slip = {"carried_by": staff["pitboss"], "received_by": dealer, "actor": floor}
    services.issue_slip(mb, kind="fill", chips=chips(d100=20), **slip)
    services.issue_slip(mb, kind="credit", chips=chips(d25=20), **slip)
    void = services.issue_slip(s42, kind="fill", chips=chips(d100=10), **slip)
    services.void_slip(void, reason="Wrong table", witness=staff["pitboss"], actor=floor)

    services.record_inventory(
        mb, day=day, kind="closer", chips=chips(d100=103, d25=2, d5=3), **inventory
    )
    services.record_inventory(s42, day=day, kind="closer", chips=chips(d100=40), **inventory)
    witness = staff["admin"]
    services.record_drop(mb, day=day, currency=chips(d100=5, d20=25), witness=witness, actor=acct)
    services.record_drop(s42, day=day, currency=chips(d100=12), witness=witness, actor=acct)
    return PlayedDay(casino, day, mb, s42, staff)


@pytest.fixture
def committed_day(floor_staff: dict[str, User]) -> PlayedDay:
    """A day played at the demo floor, committed so that a live server sees it."""
    return play_the_day(floor_staff)
