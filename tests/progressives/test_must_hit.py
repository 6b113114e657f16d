"""Must-hit progressives (004 §13(j)): standalone or linked, the hidden hit value, the winner drawn
among the round's Royal 9 players, wins queued and paid in order, parameters of a live meter."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest
from django.test import Client

from casino.models import Event, Pit
from tablegame.actions import ActionError
from tablegame.models import MustHitProgressive, MustHitWin, ProgressiveEntry
from tablegame.progressives.actions import (
    configure_must_hit,
    link_must_hit,
    pay_must_hit_win,
    set_must_hit_configuration,
    unlink_must_hit,
)
from tablegame.progressives.screens import table_progressives
from tests.progressives.conftest import big_table, naturals, royal9_round
from tests.tablegame.conftest import play
from tests.values import present


@pytest.fixture
def two_tables(db, dealer, floor):
    return big_table(dealer, floor, "ma-big"), big_table(dealer, floor, "ma-big-ez")


def stax(tables, floor, configuration=3) -> MustHitProgressive:
    pit = Pit.objects.get(pk=tables[0].pit_id)
    return configure_must_hit(
        pit, name="Stax", configuration=configuration, tables=list(tables), actor=floor
    )


def test_a_new_meter_starts_at_its_reset_with_a_hit_value_drawn_between_reset_and_maximum(
    two_tables, floor
):
    meter = stax(two_tables, floor, configuration=1)
    assert (meter.reset, meter.maximum, meter.increment_rate) == (
        Decimal("250"),
        Decimal("1000"),
        Decimal("0.05"),
    )
    assert meter.amount == Decimal("250")
    assert Decimal("250") < meter.hit_value <= Decimal("1000")
    reset = Event.objects.filter(chain=two_tables[0].chain, action="progressive_reset").last()
    assert reset is not None
    sealed = hashlib.sha256(f"{meter.hit_value}:{meter.hit_nonce}".encode()).hexdigest()
    assert reset.data["commitment"] == sealed
    assert set(meter.tables.all()) == set(two_tables)


def test_linked_tables_feed_one_meter_and_it_hits_at_its_hidden_value(
    two_tables, dealer, floor, low_draw
):
    low_draw.spread = 50  # the hit value is $100.50
    meter = stax(two_tables, floor)
    first, second = two_tables
    royal9_round(first, dealer, cards=naturals(first))  # $15 at 2 %: 0.30
    meter.refresh_from_db()
    assert meter.amount == Decimal("100.30")
    game = play(
        second,
        dealer,
        [(2, "royal9", "5"), (3, "royal9", "5")],
        naturals(second),
    )  # 0.20 more reaches 100.50: it hits here
    meter.refresh_from_db()
    assert (meter.amount, meter.hits) == (Decimal("100"), 1)
    win = MustHitWin.objects.get()
    assert (win.table, win.round, win.seat, win.amount) == (second, game, 2, Decimal("100.50"))
    assert win.participants == [2, 3] and win.status == "pending"
    won = Event.objects.get(chain=second.chain, action="must_hit_won")
    assert won.data["amount"] == "100.50" and won.data["seat"] == 2
    # The commitment recorded before the hit is the revealed value with its nonce.
    reset = Event.objects.filter(
        chain=second.chain, action="progressive_reset", sequence__lt=won.sequence
    ).last()
    sealed = present(reset).data["commitment"]
    assert sealed == hashlib.sha256(f"100.50:{won.data['nonce']}".encode()).hexdigest()
    # Both tables' screens show the win pending until it is paid.
    for table in two_tables:
        assert [p["seat"] for p in table_progressives(table)["pending"]] == [2]


def test_wins_are_paid_in_the_order_they_happened(two_tables, dealer, floor, low_draw):
    meter = stax(two_tables, floor)  # low_draw: each hit value is the reset plus a cent
    first, second = two_tables
    royal9_round(first, dealer, cards=naturals(first))
    royal9_round(second, dealer, cards=naturals(second))
    wins = list(MustHitWin.objects.filter(meter=meter).order_by("number"))
    assert [(w.number, w.table) for w in wins] == [(1, first), (2, second)]
    with pytest.raises(ActionError, match=r"Stax win 1 at BB-1 .* came first"):
        pay_must_hit_win(wins[1], actor=floor)
    with pytest.raises(ActionError, match="floorperson or pit boss"):
        pay_must_hit_win(wins[0], actor=dealer)
    pay_must_hit_win(wins[0], actor=floor)
    pay_must_hit_win(wins[1], actor=floor)
    assert set(MustHitWin.objects.values_list("status", flat=True)) == {"paid"}
    assert Event.objects.filter(action="must_hit_paid").count() == 2
    with pytest.raises(ActionError, match="paid already"):
        pay_must_hit_win(wins[0], actor=floor)


def test_a_live_meter_keeps_its_configuration_until_it_is_next_won(
    two_tables, dealer, floor, low_draw
):
    low_draw.spread = 100  # each hit value is the reset plus $1.00
    meter = stax(two_tables, floor, configuration=3)
    meter = set_must_hit_configuration(meter, configuration=2, actor=floor)  # not live: at once
    assert (meter.maximum, meter.configuration) == (Decimal("500"), 2)
    royal9_round(two_tables[0], dealer, cards=naturals(two_tables[0]))  # 5 % of $15: 100.75
    meter = set_must_hit_configuration(meter, configuration=1, actor=floor)
    meter.refresh_from_db()
    assert (meter.configuration, meter.next_configuration, meter.reset) == (2, 1, Decimal("100"))
    pending = table_progressives(two_tables[0])["must_hit"][0]["pending_change"]
    assert pending == "configuration 1 from the next reset"
    royal9_round(two_tables[0], dealer, cards=naturals(two_tables[0]))  # 101.50: it hits
    meter.refresh_from_db()
    assert (meter.configuration, meter.reset, meter.amount) == (1, Decimal("250"), Decimal("250"))
    assert meter.next_configuration is None and MustHitWin.objects.get().amount == Decimal("101")


def test_the_hit_value_is_on_no_screen_and_in_no_answer(two_tables, dealer, floor):
    meter = stax(two_tables, floor, configuration=1)
    royal9_round(two_tables[0], dealer, cards=naturals(two_tables[0]))
    meter.refresh_from_db()
    secret = str(meter.hit_value)
    client = Client()
    client.force_login(floor)
    for url in (
        f"/api/tables/{two_tables[0].pk}/",
        "/progressives/",
        "/progressives/state.json",
        f"/display/{two_tables[0].pk}/",
        f"/dealer/{two_tables[0].pk}/",
        f"/tables/{two_tables[0].pk}/progressives.json",
    ):
        body = client.get(url).content.decode()
        assert secret not in body and meter.hit_nonce not in body, url
    recorded = " ".join(str(e.data) for e in Event.objects.all())
    assert secret not in recorded and meter.hit_nonce not in recorded


def test_links_stay_within_one_pit_and_one_meter_per_table(two_tables, dealer, floor):
    first, second = two_tables
    meter = stax([first], floor)
    with pytest.raises(ActionError, match="already feeds a must-hit meter"):
        link_must_hit(meter, table=first, actor=floor)
    link_must_hit(meter, table=second, actor=floor)
    assert set(meter.tables.all()) == {first, second}
    unlink_must_hit(second, actor=floor)
    assert list(meter.tables.all()) == [first]
    event = Event.objects.filter(chain=second.chain, action="must_hit_linked").last()
    assert event is not None
    assert event.data == {"meter": "Stax", "linked": False, "tables": ["BB-1"]}


def test_a_table_without_the_royal_9_wager_cannot_feed_a_must_hit(db, dealer, floor):
    from tests.tablegame.conftest import ready_table

    mini = ready_table("ma-mini", dealer, floor)
    with pytest.raises(ActionError, match="does not offer the Royal 9 wager"):
        configure_must_hit(
            Pit.objects.get(), name="Stax", configuration=1, tables=[mini], actor=floor
        )
    assert not ProgressiveEntry.objects.exists()
