"""Royal 9 meters (004 §13(i)): contributions by each meter's rate, wins, reseeds, the Star
option, each in the ledger and the record."""

from __future__ import annotations

from decimal import Decimal

import pytest

from casino.models import Event
from tablegame.actions import ActionError
from tablegame.models import ProgressiveEntry, ProgressiveMeter
from tablegame.progressives.actions import set_star_option
from tablegame.progressives.ledger import liability, liability_lines
from tablegame.progressives.screens import table_progressives
from tests.progressives.conftest import big_table, royal9_round
from tests.tablegame.conftest import play
from tests.values import present


def meters(table) -> dict[str, Decimal]:
    return {m.name: m.amount for m in ProgressiveMeter.objects.filter(table=table)}


def test_each_meter_takes_its_own_rate_of_the_royal_9_wagers_and_says_so_in_the_record(
    db, dealer, floor
):
    table = big_table(dealer, floor)
    game = royal9_round(table, dealer)  # three $5 wagers: $15
    assert meters(table) == {
        "star": Decimal("50000.90"),  # 6 %
        "spade": Decimal("450.75"),  # 5 %
        "heart": Decimal("450.75"),
    }
    lines = ProgressiveEntry.objects.filter(round=game, kind="contribution")
    assert sorted((present(e.royal9).name, e.before, e.after, e.wagered) for e in lines) == [
        ("heart", Decimal("450"), Decimal("450.75"), Decimal("15")),
        ("spade", Decimal("450"), Decimal("450.75"), Decimal("15")),
        ("star", Decimal("50000"), Decimal("50000.90"), Decimal("15")),
    ]
    event = Event.objects.get(chain=table.chain, action="progressive_contributed")
    assert event.data["wagered"] == "15.00"
    assert {m["meter"]: m["amount"] for m in event.data["meters"]}["star"] == "50000.90"


def test_a_round_without_royal_9_wagers_leaves_the_meters_and_the_ledger_alone(db, dealer, floor):
    table = big_table(dealer, floor)
    play(table, dealer, [(1, "banker", "100")], ["4H", "5C", "2S", "3S"])
    assert meters(table)["star"] == Decimal("50000")
    assert not ProgressiveEntry.objects.exists()


def test_a_won_meter_starts_again_at_its_reseed_and_the_win_is_in_the_ledger(db, dealer, floor):
    table = big_table(dealer, floor, seats=(1, 2))
    royal9_round(table, dealer, seats=(1, 2))  # the Spade holds 450.50
    # Seat 1's Personal King-9 is K♣ 9♦: the Banker holds it: the Spade pays in full.
    game = play(table, dealer, [(1, "royal9", "5")], ["2H", "KC", "3S", "9D"])
    assert game.wagers.get(seat=1).payout == Decimal("450.75")
    spade = ProgressiveMeter.objects.get(table=table, name="spade")
    assert (spade.amount, spade.hits) == (Decimal("450"), 1)
    kinds = list(
        ProgressiveEntry.objects.filter(royal9=spade, round=game).values_list(
            "kind", "before", "after"
        )
    )
    assert kinds == [
        ("contribution", Decimal("450.50"), Decimal("450.75")),
        ("hit", Decimal("450.75"), Decimal("450.75")),
        ("reset", Decimal("450.75"), Decimal("450")),
    ]
    actions = list(
        Event.objects.filter(chain=table.chain, action__startswith="progressive").values_list(
            "action", flat=True
        )
    )
    assert actions[-2:] == ["progressive_hit", "progressive_reset"]


def test_the_star_option_changes_at_once_on_a_new_meter_and_waits_for_a_win_on_a_live_one(
    db, dealer, floor
):
    table = big_table(dealer, floor)
    star = set_star_option(table, option=1, actor=floor)
    assert (star.amount, star.reseed, star.next_reseed) == (
        Decimal("25000"),
        Decimal("25000"),
        None,
    )
    royal9_round(table, dealer)
    star = set_star_option(table, option=2, actor=floor)
    assert (star.amount, star.reseed) == (Decimal("25000.90"), Decimal("25000"))
    assert star.next_reseed == Decimal("50000")
    view = table_progressives(table)["royal9"][0]
    assert (
        view["name"] == "Star" and "reseed $50,000.00 from the next win" in view["pending_change"]
    )
    event = Event.objects.filter(chain=table.chain, action="progressive_parameters").last()
    assert event is not None
    assert event.data["effective"] == "next_reset"


def test_only_a_supervisor_sets_the_star_option_and_only_options_1_and_2(db, dealer, floor):
    table = big_table(dealer, floor)
    with pytest.raises(ActionError, match="floorperson or pit boss"):
        set_star_option(table, option=1, actor=dealer)
    with pytest.raises(ActionError, match="options 1 and 2"):
        set_star_option(table, option=3, actor=floor)


def test_the_display_data_names_each_chairs_personal_king_9_and_the_fixed_prizes(db, dealer, floor):
    table = big_table(dealer, floor)
    data = table_progressives(table)
    assert data["personal"]["1"] == "K♣ 9♦"
    assert len(set(data["personal"].values())) == table.seat_count
    assert data["prizes"]["suited_vs_suited"] == "1500"


def test_the_liability_is_every_meter_above_its_reseed_plus_the_unpaid_wins(db, dealer, floor):
    table = big_table(dealer, floor)
    before = liability()
    royal9_round(table, dealer)
    assert liability() - before == Decimal("2.40")
    lines = {line.name: line for line in liability_lines()}
    star = lines["BB-1 Star"]
    assert (star.amount, star.reset, star.owed) == (
        Decimal("50000.90"),
        Decimal("50000"),
        Decimal("0.90"),
    )
    assert sum(line.owed for line in lines.values()) == liability()
