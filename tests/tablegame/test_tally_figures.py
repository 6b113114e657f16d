"""What a settled round adds to the day's tallies (``tablegame.tallies.figures``), and the gaming
day the tallies' statement computes from the casino's setting (``casino.gaming_day``)."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from casino.models import Casino
from tablegame.play.rows import CasinoRow, from_model
from tablegame.tallies.figures import SettledWager, round_figures, wager_groups

D = Decimal


def test_wagers_of_a_type_and_result_are_one_group_with_their_sums():
    groups = wager_groups(
        [
            SettledWager(1, "banker", "win", D(100), payout=D(100), vigorish=D(5)),
            SettledWager(2, "banker", "win", D(20), payout=D(20), vigorish=D(1)),
            SettledWager(3, "player", "lose", D(50)),
        ]
    )
    banker = next(g for g in groups if g["type"] == "banker")
    assert len(groups) == 2
    assert (banker["n"], banker["amount"], banker["payout"], banker["vigorish"]) == (
        2,
        D(120),
        D(120),
        D(6),
    )


def test_house_money_let_ride_on_a_losing_wager_comes_back_to_the_house():
    groups = wager_groups(
        [
            SettledWager(1, "house_money", "win", D(10), payout=D(30), ride="player", ridden=D(30)),
            SettledWager(1, "player", "lose", D(100)),
            SettledWager(2, "house_money", "win", D(10), payout=D(30), ride="player", ridden=D(30)),
            SettledWager(2, "player", "win", D(100), payout=D(100)),
        ]
    )
    house_money = next(g for g in groups if g["type"] == "house_money")
    assert house_money["n"] == 2 and house_money["ride_back"] == D(30)


def test_taken_back_the_figures_are_negative():
    (group,) = wager_groups([SettledWager(1, "tie", "lose", D(10))], sign=-1)
    assert (group["n"], group["amount"]) == (-1, D(-10))


def test_a_round_counts_its_fees_per_hand_and_a_void_round_none():
    steps = [("collect_fee", "", D(1)), ("collect_fee", "banker", D(2)), ("pay", "", D(5))]
    assert round_figures(void=False, steps=steps) == {
        "rounds": 1,
        "voids": 0,
        "hand_fees": D(1),
    }
    assert round_figures(void=True, steps=steps) == {"rounds": 0, "voids": 1, "hand_fees": 0}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("zone", "start", "at", "day"),
    [
        # The clocks go forward at 02:00 on 8 March 2026: 05:59 and 06:00 EDT.
        ("America/New_York", "06:00", "2026-03-08T09:59:00+00:00", "2026-03-07"),
        ("America/New_York", "06:00", "2026-03-08T10:00:00+00:00", "2026-03-08"),
        ("America/New_York", "06:00", "2026-01-15T10:59:00+00:00", "2026-01-14"),  # 05:59 EST
        ("America/New_York", "06:00", "2026-07-01T09:59:00+00:00", "2026-06-30"),  # 05:59 EDT
        ("America/New_York", "06:00", "2026-07-01T10:00:00+00:00", "2026-07-01"),
        ("UTC", "00:00", "2026-01-01T00:00:00+00:00", "2026-01-01"),
        ("Asia/Kolkata", "04:30", "2026-01-01T23:00:00+00:00", "2026-01-02"),  # 04:30 on the 2nd
        ("Asia/Kolkata", "04:30", "2026-01-01T22:59:00+00:00", "2026-01-01"),
    ],
)
def test_the_settlements_gaming_day_is_the_casinos(zone, start, at, day):
    """A settlement tallies its round under the gaming day its casino's row, as the state in
    play holds it, gives (``CasinoRow.gaming_day``): the casino's own."""
    casino = Casino.objects.create(
        name=f"Day {zone} {start}",
        time_zone=zone,
        gaming_day_start=datetime.time.fromisoformat(start),
    )
    instant = datetime.datetime.fromisoformat(at)
    expected = casino.gaming_day(instant)
    held = from_model(CasinoRow, Casino.objects.get(pk=casino.pk))
    assert held.gaming_day(instant) == expected == datetime.date.fromisoformat(day)
