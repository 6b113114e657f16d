"""The wager-tracked result, read from the wagers' figures in the database, ties to the money the
dealer's settlement steps moved: House Money let ride on a wager that lost, and a California
table, where the house takes only the collection fees."""

from __future__ import annotations

from decimal import Decimal

from django.db.models import Sum
from django.utils import timezone

from accounting.reports import day_report
from tablegame import actions
from tablegame.models import SettlementStep, Table
from tests.tablegame.conftest import ready_table

#: How each settlement step moves the house's money at a banked table.
SIGN = {"collect": 1, "collect_vigorish": 1, "collect_fee": 1, "pay": -1, "ride": -1}


def money_moved(table: Table) -> Decimal:
    rows = (
        SettlementStep.objects.filter(round__table=table, round__state="settled")
        .values("action")
        .annotate(total=Sum("amount"))
    )
    return sum((SIGN.get(r["action"], 0) * r["total"] for r in rows), Decimal(0))


def tracked(table: Table) -> Decimal:
    day = table.pit.casino.gaming_day(timezone.now())
    return next(
        t for t in day_report(table.pit.casino, day).tables if t.table_id == table.pk
    ).tracked


def test_house_money_let_ride_on_a_losing_wager_is_collected_with_it(staff):
    dealer, floor = staff["dealer"], staff["floor"]
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="player", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["5H", "9C", "5D", "KS"]:  # a Player pair; Banker 9 against Player 0
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_house_money_wagers(table, rides={1: "player"}, actor=dealer)
    actions.settle_round(table, actor=dealer)
    # House Money 10 wins 3 to 1: 30 let ride on the Player wager, which loses 130.
    assert money_moved(table) == Decimal(100) == tracked(table)


def test_a_california_table_wins_only_its_collection_fees(staff):
    dealer = staff["dealer7"]  # the demo's dealer at MB-7
    table = Table.objects.get(profile="ca-commission-free")
    actions.open_table(table, actor=dealer)
    for seat in (1, 4):
        actions.seat_player(table, seat=seat, player=f"P{seat}", actor=dealer)
    actions.take_player_dealer(table, seat=4, actor=dealer)
    actions.receive_decks(table, decks=8, preinspected=True, actor=dealer)
    actions.cut_cards(
        table, seat=None, declined=[4, 1], position=100, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="KD", actor=dealer)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="50", actor=dealer)
    actions.set_player_dealer_bank(table, bank="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["4H", "9C", "2S", "KS"]:
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_round(table, actor=dealer)
    fees = SettlementStep.objects.filter(round__table=table, action="collect_fee")
    expected = fees.aggregate(total=Sum("amount"))["total"]
    assert expected > 0 and fees.filter(wager_type="").exists()  # the per-hand fee too
    assert tracked(table) == expected
