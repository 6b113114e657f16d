"""The database itself keeps the meters honest: not only the code (migration 0005's triggers and
the models' CHECK constraints), whatever query is sent."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models import F

from casino.models import Pit
from tablegame import events
from tablegame.actions.common import record
from tablegame.models import MustHitProgressive, MustHitWin, ProgressiveEntry, ProgressiveMeter
from tablegame.progressives.actions import configure_must_hit
from tests.progressives.conftest import big_table, naturals, royal9_round


def refused(update) -> bool:
    """Whether the database refuses ``update``, its deferred checks included (as at commit)."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            update()
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the checks due at commit, now
    except DatabaseError:
        return True
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    return False


def won(meter: ProgressiveMeter, update) -> Callable[[], None]:
    """``update`` with what a win writes beside it: the ledger's hit line and the event."""

    def write() -> None:
        ProgressiveEntry.objects.create(
            royal9=meter,
            kind=ProgressiveEntry.Kind.HIT,
            table=meter.table,
            before=meter.amount,
            after=meter.amount,
        )
        record(
            meter.table,
            None,
            events.ProgressiveHit(round=1, seat=1, meter=meter.name, paid=meter.amount),
        )
        update()

    return write


@pytest.fixture
def live_spade(db, dealer, floor) -> ProgressiveMeter:
    table = big_table(dealer, floor)
    royal9_round(table, dealer)
    return ProgressiveMeter.objects.get(table=table, name="spade")  # 450.75, live


def test_a_live_meter_never_goes_down_by_any_query(live_spade):
    meters = ProgressiveMeter.objects.filter(pk=live_spade.pk)
    assert refused(lambda: meters.update(amount=Decimal("450.10")))
    assert refused(lambda: meters.update(amount=F("reseed")))  # a reset without a win
    assert refused(lambda: meters.update(amount=Decimal("450"), hits=F("hits") + 2))
    assert refused(lambda: meters.update(amount=Decimal("449"), hits=F("hits") + 1))
    assert refused(lambda: meters.update(live=False, amount=Decimal("450")))
    assert refused(lambda: meters.delete())
    assert meters.get().amount == Decimal("450.75")


def test_a_live_meter_goes_back_to_its_reseed_only_with_a_win(live_spade):
    meters = ProgressiveMeter.objects.filter(pk=live_spade.pk)
    # A reset dressed as a win: refused when the transaction commits (no ledger line, no event).
    assert refused(lambda: meters.update(amount=Decimal("450"), hits=F("hits") + 1))
    assert (meters.get().amount, meters.get().hits) == (Decimal("450.75"), 0)
    assert refused(
        lambda: (
            ProgressiveEntry.objects.create(
                royal9=live_spade, kind="hit", before=Decimal("450.75"), after=Decimal("450.75")
            ),
            meters.update(amount=Decimal("450"), hits=F("hits") + 1),
        )
    )
    win = won(live_spade, lambda: meters.update(amount=Decimal("450"), hits=F("hits") + 1))
    assert not refused(win)  # with its ledger line and its event, in one transaction
    assert (meters.get().amount, meters.get().hits) == (Decimal("450"), 1)
    assert not refused(lambda: meters.update(amount=Decimal("451")))  # up is always fine


def test_a_live_meters_parameters_change_only_with_a_win(live_spade):
    meters = ProgressiveMeter.objects.filter(pk=live_spade.pk)
    assert refused(lambda: meters.update(reseed=Decimal("400")))
    assert refused(lambda: meters.update(contribution=Decimal("0.01")))
    assert not refused(lambda: meters.update(next_reseed=Decimal("400")))  # waits for the win
    assert not refused(
        won(
            live_spade,
            lambda: meters.update(
                reseed=Decimal("400"), amount=Decimal("400"), hits=F("hits") + 1, next_reseed=None
            ),
        )
    )


def test_a_must_hit_meter_stays_below_its_hidden_value_and_keeps_it_while_live(db, dealer, floor):
    table = big_table(dealer, floor)
    configure_must_hit(Pit.objects.get(), name="Stax", configuration=1, tables=[table], actor=floor)
    meters = MustHitProgressive.objects.all()
    hit_value = meters.get().hit_value
    assert refused(lambda: meters.update(amount=hit_value))  # CHECK: it would have hit
    assert refused(lambda: meters.update(hit_value=Decimal("1000.01")))  # CHECK: over maximum
    royal9_round(table, dealer, cards=naturals(table))  # live now
    assert refused(lambda: meters.update(hit_value=F("hit_value") - Decimal("0.01")))
    assert refused(lambda: meters.update(maximum=Decimal("900")))
    assert refused(lambda: meters.update(amount=Decimal("250")))
    # A reset dressed as a win: no win of that number, no ledger line, no event.
    assert refused(lambda: meters.update(amount=F("reset"), hits=F("hits") + 1))
    assert meters.get().amount == Decimal("250.75")


def test_the_ledger_and_the_wins_are_kept_as_written(db, dealer, floor, low_draw):
    table = big_table(dealer, floor)
    configure_must_hit(Pit.objects.get(), name="Stax", configuration=3, tables=[table], actor=floor)
    royal9_round(table, dealer, cards=naturals(table))  # hits at once (low draw)
    entries = ProgressiveEntry.objects.all()
    assert refused(lambda: entries.update(after=Decimal("1")))
    assert refused(lambda: entries.delete())
    wins = MustHitWin.objects.all()
    assert refused(lambda: wins.update(amount=Decimal("1")))
    assert refused(lambda: wins.update(seat=9))
    assert refused(lambda: wins.delete())
    assert not refused(lambda: wins.update(status="paid"))
    assert refused(lambda: wins.update(status="pending"))
