"""The day report of an open day reads the tallies its settlements wrote; its figures are those
of the raw aggregate over every round and wager (``raw_day_report``), and a day without tallies
is tallied from its rows as the settlements do."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounting.reports import day_report, raw_day_report
from baccarat.profiles import PROFILES
from baccarat.wagertypes import WagerType
from casino.models import Casino
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tablegame.models import (
    Round,
    RoundTally,
    Table,
    TableLimit,
    VigorishMarker,
    WagerTally,
)
from tablegame.tallies.writes import AlreadyTallied, tally_from_rows
from tests.conftest import kept_for_the_module
from tests.record.chains import triggers_bypassed
from tests.record.test_sqlite_triggers import run
from tests.tablegame.conftest import deal_at, ready_table

BANKER_WINS = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9
PLAYER_WINS = ["9H", "2C", "KD", "3S"]  # Player 9, Banker 5
TIE = ["9H", "9C", "KD", "KS"]  # 9 each
PAIRS = ["5H", "5C", "5D", "5S"]  # a pair on each side, 0 each: both draw
COUPS = (BANKER_WINS, PLAYER_WINS, TIE, BANKER_WINS)


def _amount(table: Table, kind: WagerType) -> Decimal:
    limit = TableLimit.objects.filter(table=table, wager_type=kind.value).first()
    return min(max(Decimal(25), limit.minimum), limit.maximum) if limit else Decimal(25)


def _ready(profile: str, dealer: User, floor: User) -> Table:
    options = {"vigorish_collection": "deferred"} if profile == "s42-mini" else None
    return ready_table(profile, dealer, floor, options=options)


def _open(table: Table, dealer: User) -> None:
    table.refresh_from_db()
    rules = table.rules
    if rules.has_curator and table.curator_seat is None:
        actions.take_shoe(table, seat=None, declined=table.occupied_seats(), actor=dealer)
    if rules.player_dealer and table.player_dealer_seat is None:
        others = [s for s in table.occupied_seats() if s != 5]
        actions.take_player_dealer(table, seat=5, declined=others, actor=dealer)
    actions.open_round(table, actor=dealer)
    if rules.player_dealer:
        actions.set_player_dealer_bank(table, bank="500", actor=dealer)


def _round(table: Table, dealer: User, cards: list[str], *, sides: bool) -> Round:
    _open(table, dealer)
    rules = table.rules
    wagers = [(1, WagerType.BANKER), (2, WagerType.PLAYER)]
    if not rules.player_dealer:
        wagers.append((5, WagerType.TIE))
    if sides:
        side = [t for t in WagerType if t.value not in ("player", "banker", "tie", "house_money")]
        wagers += [(1, t) for t in side if rules.offers(t)]
    for seat, kind in wagers:
        amount = _amount(table, kind)
        actions.place_wager(table, seat=seat, wager=kind.value, amount=amount, actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in cards:
        actions.deal_card(table, card=card, actor=dealer)
    return actions.settle_round(table, actor=dealer)


def _house_money(table: Table, dealer: User) -> None:
    """House Money 10 wins on a Player pair and rides on the Player wager, which loses."""
    _open(table, dealer)
    actions.place_wager(table, seat=1, wager="player", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.place_wager(table, seat=2, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["5H", "9C", "5D", "KS"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_house_money_wagers(table, rides={1: "player"}, actor=dealer)
    actions.settle_round(table, actor=dealer)


def _void(table: Table, dealer: User, floor: User) -> None:
    _open(table, dealer)
    actions.place_wager(table, seat=1, wager="banker", amount=_amount(table, WagerType.BANKER),
                        actor=dealer)  # fmt: skip
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="5D", actor=dealer)
    actions.void_round(table, reason="Card dropped on the floor", actor=floor)


def _corrected(table: Table, dealer: User, floor: User) -> None:
    """The Banker's 9 keyed as an 8, corrected before settlement: Banker wins on 9."""
    _open(table, dealer)
    actions.place_wager(table, seat=1, wager="banker", amount=_amount(table, WagerType.BANKER),
                        actor=dealer)  # fmt: skip
    actions.no_more_bets(table, actor=dealer)
    for card in ["4H", "8C", "2S", "KS"]:
        actions.deal_card(table, card=card, actor=dealer)
    correct_card(table, position=2, card="9C", approver=floor, actor=dealer)
    actions.settle_round(table, actor=dealer)


def play_every_profile(staff: dict[str, User]) -> Any:
    dealer, floor = staff["dealer"], staff["floor"]
    casino = None
    for profile in PROFILES:
        table = _ready(profile, dealer, floor)
        casino = table.pit.casino
        for i, cards in enumerate(COUPS):
            _round(table, dealer, cards, sides=i % 2 == 0)
        if table.rules.offers(WagerType.HOUSE_MONEY):
            _house_money(table, dealer)
        if profile in ("ma-mini", "ca-commission-free"):
            _void(table, dealer, floor)
        if profile == "ma-mini":
            _corrected(table, dealer, floor)
    s42 = deal_at(Table.objects.get(profile="s42-mini"), dealer, floor)
    first, second = VigorishMarker.objects.filter(table=s42).order_by("pk")[:2]
    actions.collect_marker(s42, marker_id=first.pk, actor=dealer)
    actions.request_vigorish_form(s42, marker_id=second.pk, reason="Regular player",
                                  actor=floor)  # fmt: skip
    assert casino is not None
    return casino


@pytest.fixture(scope="module")
def every_profile_played(demo_floor: str, django_db_blocker: Any) -> Iterator[int]:
    """A table of every profile played on the demo floor (about 4 s), once for the module's
    tests, each of which changes it only in its own transaction; the casino's pk."""
    yield from kept_for_the_module(django_db_blocker, _play_every_profile_of_the_demo)


def _play_every_profile_of_the_demo() -> int:
    return int(play_every_profile({u.username: u for u in User.objects.all()}).pk)


@pytest.fixture
def casino(every_profile_played: int, seeded: str) -> Casino:
    """The casino of ``every_profile_played``, read for this test."""
    return Casino.objects.get(pk=every_profile_played)


def _tallies() -> list[tuple[Any, ...]]:
    wagers = WagerTally.objects.order_by("table", "rules", "type", "result", "award")
    played = RoundTally.objects.order_by("table", "shoe")
    return [
        *wagers.values_list(
            "table", "day", "rules", "decks", "type", "result", "award", "n", "amount",
            "payout", "vigorish", "returned", "fee", "ride_back",
        ),
        *played.values_list("table", "day", "shoe", "rounds", "voids", "hand_fees"),
    ]  # fmt: skip


def test_the_tallied_report_has_the_figures_of_the_raw_aggregate(casino):
    day = casino.gaming_day(timezone.now())
    report, raw = day_report(casino, day), raw_day_report(casino, day)
    total = report.total
    # The mix is what it says: every profile, a void, a correction, House Money let ride,
    # markers collected and forgiven, the player-dealer's fees.
    assert total.tables == len(PROFILES)
    house_money = sum(1 for rules in PROFILES.values() if rules.offers(WagerType.HOUSE_MONEY))
    assert total.voids == 2 and total.rounds == 4 * len(PROFILES) + house_money + 1
    assert report.corrections and report.markers_collected[0] == 1
    assert report.complimentary[0] == 1 and report.fees > 0
    assert WagerTally.objects.filter(type="house_money", ride_back__gt=0).exists()
    assert {line.type for line in report.wager_types} > {"banker", "player", "tie", "house_money"}
    assert report.tables == raw.tables
    assert report.wager_types == raw.wager_types
    assert report.total == raw.total
    for name in (
        "commission_at_payout", "commission_marked", "fees", "progressive_contributions",
        "progressive_hits", "markers_collected", "complimentary",
    ):  # fmt: skip
        assert getattr(report, name) == getattr(raw, name), name


def test_a_day_without_tallies_is_tallied_from_its_rows_as_the_settlements_do(casino):
    """``tally_from_rows`` (play loaded without settling it, as the benchmark does) writes the
    tallies the settlements wrote; a day that has tallies is never written again."""
    day = casino.gaming_day(timezone.now())
    written = _tallies()
    with pytest.raises(AlreadyTallied, match="tallied already"):
        tally_from_rows(casino, day)
    assert _tallies() == written
    with triggers_bypassed():  # the database refuses to remove a tally: as its owner
        WagerTally.objects.all().delete()
        RoundTally.objects.all().delete()
    assert tally_from_rows(casino, day) == (len(written) - RoundTally.objects.count(),
                                            RoundTally.objects.count())  # fmt: skip
    assert _tallies() == written


def test_the_migration_tallies_the_days_played_before_as_the_settlements_do(casino):
    """Migration 0010 tallies the days settled before the tallies existed with its own SQL and
    the models of its time (no current code): the rows the settlements wrote."""
    written = _tallies()
    with triggers_bypassed():  # the database refuses to remove a tally: as its owner
        WagerTally.objects.all().delete()
        RoundTally.objects.all().delete()
    migration = importlib.import_module("tablegame.migrations.0010_day_tallies")
    state = MigrationLoader(connection).project_state(("tablegame", "0010_day_tallies"))
    with connection.schema_editor() as editor:
        migration.tally_the_days_played(state.apps, editor)
    assert written and _tallies() == written


def test_the_open_days_report_reads_no_wager(casino):
    day = casino.gaming_day(timezone.now())
    with CaptureQueriesContext(connection) as queries:
        day_report(casino, day)
    read = " ".join(q["sql"] for q in queries.captured_queries)
    assert '"tablegame_wagertally"' in read
    assert 'FROM "tablegame_wager"' not in read and '"tablegame_settlementstep"' not in read


SQLITE_SCRIPT = """
from django.contrib.auth.models import User
from django.utils import timezone
from accounting.reports import day_report, raw_day_report
from tablegame.verification import check_day
from tests.accounting.test_tallies import _tallies, play_every_profile
staff = {u.username: u for u in User.objects.all()}
casino = play_every_profile(staff)
day = casino.gaming_day(timezone.now())
report, raw = day_report(casino, day), raw_day_report(casino, day)
print("rounds", report.total.rounds, "voids", report.total.voids)
print("same", report.tables == raw.tables and report.wager_types == raw.wager_types)
print("verified", check_day(casino, day).ok, len(_tallies()) > 0)
"""


@pytest.mark.slow  # builds the embedded demo's SQLite database from the migrations
def test_the_embedded_demo_on_sqlite_tallies_its_settlements_as_well(tmp_path):
    """``make run`` (SQLite): the tallies are written through the ORM, and agree with the
    record."""
    database = tmp_path / "db.sqlite3"
    for command in (("migrate", "--noinput"), ("seed_demo",)):
        done = run(*command, database=database)
        assert done.returncode == 0, done.stderr
    played = run("shell", "--no-imports", "-c", SQLITE_SCRIPT, database=database)
    assert played.returncode == 0, played.stderr
    lines = played.stdout.splitlines()
    assert "voids 2" in lines[0] and "same True" in lines and "verified True True" in lines, lines
