"""Every time the alerts show is the casino's local time, never UTC (issue 28)."""

from __future__ import annotations

import datetime

from django.test import Client
from django.utils import timezone

from casino.models import Casino
from pit.alerts import acknowledge_alert, watch
from pit.models import Alert
from tablegame import actions
from tablegame.actions.dealers import relieve_dealer
from tablegame.models import DeckChange
from tests.tablegame.conftest import dealer, floor, ready_table, staff, table_for

__all__ = ["dealer", "floor", "staff"]

MACAU = "Asia/Macau"  # UTC+8, no daylight saving: 03:04 UTC is 11:04 there


def test_the_panel_shows_when_raised_and_acknowledged_in_the_casinos_time(db, dealer, floor):
    Casino.objects.update(time_zone=MACAU)
    relieve_dealer(ready_table("ma-mini", dealer, floor), actor=floor)  # MB-1 with no dealer
    (alert,) = watch()
    Alert.objects.filter(pk=alert.pk).update(
        raised_at=datetime.datetime(2026, 1, 2, 3, 4, tzinfo=datetime.UTC)
    )
    client = Client()
    client.force_login(floor)
    assert "since 11:04" in client.get("/alerts/").content.decode()

    acknowledge_alert(alert.pk, actor=floor)
    Alert.objects.filter(pk=alert.pk).update(
        acknowledged_at=datetime.datetime(2026, 1, 2, 5, 6, tzinfo=datetime.UTC)
    )
    page = client.get("/alerts/").content.decode()
    assert "acknowledged by floor at 13:06" in page


def test_decks_due_says_since_when_in_the_casinos_time(db, dealer, floor):
    Casino.objects.update(time_zone=MACAU)
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    watch(timezone.now() + datetime.timedelta(hours=25))

    changed = DeckChange.objects.get(table=table).changed_at
    local = changed.astimezone(datetime.timezone(datetime.timedelta(hours=8)))
    message = Alert.objects.get(kind="decks_due").message
    assert f"in use since {local:%Y-%m-%d %H:%M})." in message
    assert "UTC" not in message
