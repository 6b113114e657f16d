"""The database itself keeps the meters honest: not only the code (migration 0005's triggers and
the models' CHECK constraints), whatever query is sent."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import DatabaseError, transaction
from django.db.models import F

from casino.models import Pit
from tablegame.actions.progressives import configure_must_hit
from tablegame.models import MustHitProgressive, MustHitWin, ProgressiveEntry, ProgressiveMeter
from tests.progressives.conftest import big_table, naturals, royal9_round


def refused(update) -> bool:
    try:
        with transaction.atomic():
            update()
    except DatabaseError:
        return True
    return False


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
    assert not refused(lambda: meters.update(amount=Decimal("450"), hits=F("hits") + 1))
    assert (meters.get().amount, meters.get().hits) == (Decimal("450"), 1)
    assert not refused(lambda: meters.update(amount=Decimal("451")))  # up is always fine


def test_a_live_meters_parameters_change_only_with_a_win(live_spade):
    meters = ProgressiveMeter.objects.filter(pk=live_spade.pk)
    assert refused(lambda: meters.update(reseed=Decimal("400")))
    assert refused(lambda: meters.update(contribution=Decimal("0.01")))
    assert not refused(lambda: meters.update(next_reseed=Decimal("400")))  # waits for the win
    assert not refused(
        lambda: meters.update(
            reseed=Decimal("400"), amount=Decimal("400"), hits=F("hits") + 1, next_reseed=None
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
