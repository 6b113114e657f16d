"""Rules Submissions over time, California's player-dealer, and the big table's shoe."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from tablegame import actions
from tablegame.models import Round
from tests.tablegame.conftest import deal_at, play, ready_table, table_for
from tests.values import present


def test_a_procedure_change_needs_thirty_minutes_notice_to_surveillance(db, dealer, floor):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="30 minutes"):
        actions.file_rules(
            table,
            profile="s42-mini",
            options={"settlement": "vigorish_all_then_pay"},
            actor=floor,
        )
    assert table.rules.settlement.value == "pay_then_vigorish_by_seat"


def test_every_section_42_table_of_a_pit_keeps_one_settlement_procedure(db, dealer, floor):
    table = table_for("s42-mini")
    later = timezone.now() + datetime.timedelta(hours=1)
    with pytest.raises(actions.ActionError, match="same rules uses one settlement"):
        actions.file_rules(
            table,
            profile="s42-mini",
            options={"settlement": "vigorish_all_then_pay"},
            effective_at=later,
            actor=floor,
        )


def test_a_filed_option_takes_effect_at_its_time(db, dealer, floor):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    later = timezone.now() + datetime.timedelta(hours=1)
    actions.file_rules(
        table, profile="ma-mini", options={"tie_odds": 9}, effective_at=later, actor=floor
    )
    assert table.rules.tie_odds == 8
    assert present(table.rules_record(later)).submission.tie_odds == 9


def test_a_dealer_may_not_change_the_rules(db, dealer):
    with pytest.raises(actions.NotAllowed):
        actions.file_rules(table_for("ma-mini"), profile="ma-mini", actor=dealer)


def test_an_impossible_option_is_refused_in_plain_words(db, floor):
    with pytest.raises(actions.ActionError, match="at least 8 to 1"):
        actions.file_rules(
            table_for("ma-mini"), profile="ma-mini", options={"tie_odds": 7}, actor=floor
        )


def test_the_california_bank_covers_wagers_until_exhausted_and_the_position_rotates(
    db, dealer, floor
):
    table = deal_at(table_for("ca-commission-free"), dealer, floor)
    actions.open_table(table, actor=dealer)
    for seat in (1, 2, 4, 5):
        actions.seat_player(table, seat=seat, player=f"P{seat}", actor=dealer)
    actions.take_player_dealer(table, seat=4, actor=dealer)
    actions.receive_decks(table, decks=8, preinspected=True, actor=dealer)
    actions.cut_cards(
        table, seat=None, declined=[5, 4, 2, 1], position=100, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="KD", actor=dealer)
    for _hand in range(2):
        actions.open_round(table, actor=dealer)
        actions.set_player_dealer_bank(table, bank="100", actor=dealer)
        actions.place_wager(table, seat=2, wager="banker", amount="50", actor=dealer)
        actions.place_wager(table, seat=1, wager="banker", amount="80", actor=dealer)
        with pytest.raises(actions.ActionError, match="banks the game"):
            actions.place_wager(table, seat=4, wager="player", amount="25", actor=dealer)
        actions.no_more_bets(table, actor=dealer)
        for card in ["2H", "3C", "3S", "KS", "KD", "4H"]:  # Banker 7 over Player 5
            game = actions.deal_card(table, card=card, actor=dealer)
        game = actions.settle_round(table, actor=dealer)
    seat1 = game.wagers.get(seat=1)
    assert (seat1.payout, seat1.returned) == (Decimal("50.00"), Decimal("30.00"))
    assert game.steps.filter(action="collect_fee").count() == 3
    table.refresh_from_db()
    assert table.player_dealer_seat is None  # two hands banked: the position moves on
    with pytest.raises(actions.ActionError, match="Offer the player-dealer position to seat 2"):
        actions.take_player_dealer(table, seat=1, actor=dealer)
    actions.take_player_dealer(table, seat=2, actor=dealer)


def test_a_simulated_round_refuses_wagers(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = actions.open_round(table, actor=dealer)
    Round.objects.filter(pk=game.pk).update(simulated=True)
    with pytest.raises(actions.ActionError, match="simulated round"):
        actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)


def test_new_decks_are_required_after_every_shoe_on_the_big_table(db, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    play(table, dealer, [], ["9H", "2C", "KS", "3D"])
    actions.end_shoe(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="New decks are required"):
        actions.receive_decks(table, decks=8, new_decks=False, actor=dealer)


def test_an_automatic_shuffler_deals_one_batch_per_shoe_alternately(db, dealer, floor):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    with pytest.raises(actions.ActionError, match="two equal batches"):
        actions.receive_decks(table, decks=13, automatic_shuffler=True, actor=dealer)
    first = actions.receive_decks(
        table, decks=12, automatic_shuffler=True, preinspected=True, actor=dealer
    )
    assert (first.decks, first.batch, first.cards_left) == (6, 0, 6 * 52)
    actions.end_shoe(table, actor=dealer)
    second = actions.receive_decks(
        table, decks=12, automatic_shuffler=True, new_decks=False, actor=dealer
    )
    assert second.batch == 1 and second.back_colour == "batch 2"
    actions.shuffle_decks(table, machine=True, actor=dealer)


def test_royal_9_wagers_feed_the_meters_and_a_personal_king_9_pays_the_whole_meter(
    db, dealer, floor
):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    meters = {m.name: m.amount for m in table.meters.all()}
    assert meters == {"star": Decimal("50000"), "spade": Decimal("450"), "heart": Decimal("450")}
    # Seat 1's Personal King-9 is KC 9D (the first non-suited King-9): the Banker holds it.
    game = play(
        table,
        dealer,
        [(1, "royal9", "5"), (2, "royal9", "5")],
        ["2H", "KC", "3S", "9D"],
    )
    seat1 = game.wagers.get(seat=1)
    assert (seat1.result, seat1.award) == ("win", "banker_personal")
    assert seat1.payout == Decimal("450.50")  # reseed plus 5 % of the two $5 wagers
    meters = {m.name: m.amount for m in table.meters.all()}
    assert meters["spade"] == Decimal("450")  # paid in full, reseeded
    assert meters["star"] == Decimal("50000.60")
    assert game.wagers.get(seat=2).award == "any"


def test_issue_token_prints_a_token_that_authenticates_the_api(db, dealer):
    from io import StringIO

    from django.core.management import call_command
    from django.test import Client

    out = StringIO()
    call_command("issue_token", "dealer", stdout=out)
    key = out.getvalue().strip()
    answer = Client().get("/api/tables/", HTTP_AUTHORIZATION=f"Token {key}")
    assert answer.status_code == 200
    assert len(answer.json()) == 10 or "results" in answer.json()


def test_a_california_wager_may_be_taken_before_the_bank_is_set(db, dealer, floor):
    table = deal_at(table_for("ca-commission-free"), dealer, floor)
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
    with pytest.raises(actions.ActionError, match="bank before no more bets"):
        actions.no_more_bets(table, actor=dealer)
    actions.set_player_dealer_bank(table, bank="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
