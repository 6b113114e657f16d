"""Settled means final (issue 27): the application's database role cannot change a settled
round, its wagers, its steps or the day's tallies, nor reset a progressive meter without a win;
what the tables' owner rewrites behind the database's back, ``check_day`` and ``verify_record``
name, round by round."""

from __future__ import annotations

import datetime
import io
from decimal import Decimal

import psycopg
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone

from accounting.reports import day_report
from tablegame.models import ProgressiveMeter, Round, RoundTally, Wager, WagerTally
from tablegame.verification import check_day
from tests.progressives.conftest import big_table, royal9_round
from tests.record.chains import triggers_bypassed
from tests.record.conftest import AsApp
from tests.tablegame.conftest import play, ready_table

BANKER_WINS = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9
PLAYER_WINS = ["9H", "2C", "KD", "3S"]  # Player 9, Banker 5


@pytest.fixture
def staff(seeded: str) -> dict[str, User]:
    """The demo floor's people by role name (this folder's ``dealer`` is a bare user)."""
    return {u.username: u for u in User.objects.all()}


def _played(staff):
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    first = play(table, dealer, [(1, "banker", "100"), (2, "player", "50")], BANKER_WINS)
    second = play(table, dealer, [(1, "player", "100"), (2, "tie", "10")], PLAYER_WINS)
    return table, first, second


def _verify_record(*args: str) -> tuple[str, str]:
    """What ``verify_record`` prints, and the error it ends with ("" when all is well)."""
    out = io.StringIO()
    try:
        call_command("verify_record", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), str(error)
    return out.getvalue(), ""


@pytest.mark.usefixtures("record_cleared_after")
def test_the_application_role_cannot_change_settled_play(as_app: AsApp, staff):
    table, first, second = _played(staff)
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now())
    before = day_report(casino, day).total
    banker = Wager.objects.get(round=first, seat=1)
    tally = WagerTally.objects.get(table=table, type="banker", result="win")
    played = RoundTally.objects.get(table=table)
    tampers = {
        "a payout raised": "UPDATE tablegame_wager SET payout = payout + 1000 "
        f"WHERE id = {banker.pk}",
        "a wager removed": f"DELETE FROM tablegame_wager WHERE id = {banker.pk}",
        "a wager added": "INSERT INTO tablegame_wager (round_id, seat, type, amount, ride, "
        "placed_at, result, payout, vigorish, returned, ridden, fee, award) VALUES "
        f"({first.pk}, 3, 'banker', 500, '', now(), '', 0, 0, 0, 0, 0, '')",
        "the winner changed": f"UPDATE tablegame_round SET winner = 'player' WHERE id = {first.pk}",
        "settled later": "UPDATE tablegame_round SET settled_at = settled_at + interval '1 day' "
        f"WHERE id = {second.pk}",
        "a round removed": f"DELETE FROM tablegame_round WHERE id = {second.pk}",
        "a step changed": "UPDATE tablegame_settlementstep SET amount = amount + 1 "
        f"WHERE round_id = {first.pk}",
        "a step removed": f"DELETE FROM tablegame_settlementstep WHERE round_id = {first.pk}",
        "a tally's payout raised": "UPDATE tablegame_wagertally SET payout = payout + 1000 "
        f"WHERE id = {tally.pk}",
        "a tally lowered": f"UPDATE tablegame_wagertally SET n = n - 1 WHERE id = {tally.pk}",
        "a tally moved to another day": "UPDATE tablegame_wagertally SET day = day - 1 "
        f"WHERE id = {tally.pk}",
        "a tally removed": f"DELETE FROM tablegame_wagertally WHERE id = {tally.pk}",
        "fees without a round": "UPDATE tablegame_roundtally SET hand_fees = hand_fees + 10 "
        f"WHERE id = {played.pk}",
        "a round made a void": "UPDATE tablegame_roundtally SET rounds = rounds - 1, "
        f"voids = voids + 1 WHERE id = {played.pk}",
    }
    for what, statement in tampers.items():
        with pytest.raises(psycopg.Error, match=r"final|tally|settled") as refused:
            as_app(statement)
        assert refused.value.sqlstate == "P0001", what  # the guard's own refusal
    assert day_report(casino, day).total == before
    assert check_day(casino, day).ok
    # What the guard lets through (a tally grows by a wager) the check against the record names.
    as_app(
        "UPDATE tablegame_wagertally SET n = n + 1, payout = payout + 1000 WHERE id = %s",
        tally.pk,
    )
    check = check_day(casino, day)
    assert [str(d) for d in check.discrepancies] == [
        f"{table.name}: the tally of banker win (8 decks) holds n 2 where the record adds up "
        "to 1, payout 1100.00 where the record adds up to 100.00 (rounds: shoe 1 round 1)"
    ]
    said, error = _verify_record("--day", str(day))
    assert (
        f"Settled play, {casino}, gaming day {day}: 2 rounds, 2 settlement events, 5 tally rows: "
        "1 DISCREPANCY" in said
    )
    assert f"  {table.name}: the tally of banker win (8 decks) holds n 2" in said
    assert f"he play of {casino}, gaming day {day} disagrees with the record." in error


@pytest.mark.usefixtures("record_cleared_after")
def test_a_meter_is_not_reset_without_a_win(as_app: AsApp, staff):
    table = big_table(staff["dealer"], staff["floor"])
    royal9_round(table, staff["dealer"])
    meter = ProgressiveMeter.objects.get(table=table, name="spade")
    amount = meter.amount
    assert amount > meter.reseed
    for statement in (
        "UPDATE tablegame_progressivemeter SET amount = reseed, hits = hits + 1 WHERE id = %s",
        "UPDATE tablegame_progressivemeter SET amount = 0, reseed = 0, hits = hits + 1 "
        "WHERE id = %s",
    ):
        with pytest.raises(psycopg.Error, match="without its ledger line and its event"):
            as_app(statement, meter.pk)
    meter.refresh_from_db()
    assert (meter.amount, meter.hits) == (amount, 0)


def test_what_the_owner_rewrites_is_named_round_by_round(staff):
    table, first, second = _played(staff)
    casino = table.pit.casino
    day = casino.gaming_day(timezone.now())
    assert check_day(casino, day).ok
    with triggers_bypassed():  # the tables' owner, past the guards
        Wager.objects.filter(round=first, seat=1).update(payout=Decimal("1100.00"))
        Round.objects.filter(pk=second.pk).update(
            settled_at=second.settled_at + datetime.timedelta(days=1)
        )
    check = check_day(casino, day)
    assert [str(d) for d in check.discrepancies] == [
        f"{table.name} shoe 1 round 1: seat 1 banker: payout 1100.00 in the rows, 100.00 in the "
        "record",
        f"{table.name} round 2: the record holds a settlement (event "
        f"{_settled_sequence(table, 2)}, {second.settled_at.astimezone(datetime.UTC):%H:%M:%S}) "
        "that no settled round of the rows shows",
        f"{table.name}: the tally of player win (8 decks) holds n 1 where the record adds up to 0,"
        " amount 100.00 where the record adds up to 0, payout 100.00 where the record adds up to 0",
        f"{table.name}: the tally of tie lose (8 decks) holds n 1 where the record adds up to 0, "
        "amount 10.00 where the record adds up to 0",
        f"{table.name}: the round tally of shoe 1 holds rounds 2 where the record adds up to 1 "
        "(rounds: shoe 1 round 1)",
    ]


def _settled_sequence(table, number: int) -> int:
    from casino.models import Event

    return Event.objects.get(
        chain_id=table.chain_id, action="round_settled", data__round=number
    ).sequence
