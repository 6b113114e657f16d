"""Supervisors' rules: no void once the outcome is known, nobody verifies their own shuffle,
reasons recorded, and rule changes with surveillance's notice, the pit's procedure at once."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from casino.models import Event, Pit
from tablegame import actions
from tablegame.actions import ActionError
from tablegame.actions.tables import file_pit_procedure
from tablegame.models import Round, Table
from tests.tablegame.conftest import deal_at, ready_table, shuffle_steps, table_for
from tests.values import present


def dealing_round(table, dealer, cards):
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in cards:
        actions.deal_card(table, card=card, actor=dealer)
    return table.active_round()


def test_nobody_voids_a_round_whose_winner_is_known(db, staff, dealer, floor):
    table = ready_table("s42-mini", dealer, floor)
    game = dealing_round(table, dealer, ["4H", "9C", "2S", "KS"])  # Banker 9 over Player 6
    assert game.state == Round.State.COMPLETE
    for who in (dealer, floor, staff["pitboss"]):
        with pytest.raises(ActionError, match="not void once its outcome is known"):
            actions.void_round(table, reason="The player complains.", actor=who)
    assert actions.settle_round(table, actor=dealer).state == Round.State.SETTLED


def test_a_floorperson_voids_a_round_still_being_dealt_with_the_reason_recorded(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor)
    dealing_round(table, dealer, ["4H", "9C"])
    game = actions.void_round(table, reason="Cards dropped on the floor.", actor=floor)
    assert (game.state, game.void_reason) == (Round.State.VOID, "Cards dropped on the floor.")
    event = Event.objects.filter(chain=table.chain, action="round_void").get()
    assert event.data["reason"] == "Cards dropped on the floor." and event.actor == floor


def test_a_supervisor_never_verifies_their_own_shuffle_or_inspection(db, staff, dealer, floor):
    table = table_for("ma-mini")  # a feathered shuffle
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=floor)
    actions.inspect_decks(table, actor=floor)
    with pytest.raises(ActionError, match="someone other than the inspector"):
        actions.verify_inspection(table, actor=floor)
    actions.verify_inspection(table, actor=staff["pitboss"])
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, steps=shuffle_steps(table), actor=floor)
    with pytest.raises(ActionError, match="someone other than the one who shuffled"):
        actions.verify_shuffle(table, actor=floor)
    shoe = actions.verify_shuffle(table, actor=staff["pitboss"])
    assert shoe.shuffle_verified_by == staff["pitboss"]


def test_an_ordered_pass_of_the_shoe_and_a_new_limit_keep_their_reasons(db, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    actions.pass_shoe(table, ordered=True, reason="The curator delays the game.", actor=floor)
    actions.set_limit(
        table,
        wager="banker",
        minimum=Decimal("50"),
        maximum=Decimal("10000"),
        reason="High-limit evening.",
        actor=floor,
    )
    passed = Event.objects.filter(chain=table.chain, action="shoe_passed").get()
    assert (passed.data["ordered"], passed.data["reason"]) == (
        True,
        "The curator delays the game.",
    )
    limit = Event.objects.filter(chain=table.chain, action="limit_set").latest("sequence")
    assert limit.data["reason"] == "High-limit evening." and limit.actor == floor


@pytest.mark.parametrize(
    ("profile", "options", "what"),
    [
        ("s42-mini-4", {"commission_rate": "0.05"}, "commission rate"),
        (
            "s42-mini-nocommission",
            {"commission": "on_tie", "vigorish_rounding": "0.05"},
            "commission",
        ),
    ],
)
def test_a_commission_change_on_an_open_table_waits_for_surveillance_notice(
    db, dealer, floor, profile, options, what
):
    table = deal_at(table_for(profile), dealer, floor)
    actions.open_table(table, actor=dealer)
    before = table.rules
    with pytest.raises(ActionError, match=f"30 minutes before the {what} change"):
        actions.file_rules(table, profile=profile, options=options, actor=floor)
    soon = timezone.now() + datetime.timedelta(minutes=20)
    with pytest.raises(ActionError, match="30 minutes"):
        actions.file_rules(table, profile=profile, options=options, effective_at=soon, actor=floor)
    later = timezone.now() + datetime.timedelta(minutes=31)
    actions.file_rules(table, profile=profile, options=options, effective_at=later, actor=floor)
    assert table.rules == before  # still dealt as before until the stated time
    changed = present(table.rules_record(later)).submission
    assert (changed.commission, changed.commission_rate) != (
        before.commission,
        before.commission_rate,
    )


def test_a_submission_may_not_shorten_the_notice_below_thirty_minutes(db, dealer, floor):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    soon = timezone.now() + datetime.timedelta(minutes=5)
    with pytest.raises(ActionError, match="30 minutes"):
        actions.file_rules(
            table,
            profile="s42-mini",
            options={"commission_rate": "0.04", "procedure_change_notice_minutes": 0},
            effective_at=soon,
            actor=floor,
        )


def test_the_pits_settlement_procedure_changes_for_every_table_at_once(db, dealer, floor):
    pit = Pit.objects.get()
    for table in Table.objects.filter(profile__startswith="s42"):
        actions.open_table(table, actor=floor)  # the floor opens the pit's tables
    soon = timezone.now() + datetime.timedelta(minutes=10)
    with pytest.raises(ActionError, match="30 minutes before the settlement procedure"):
        file_pit_procedure(pit, settlement="vigorish_all_then_pay", effective_at=soon, actor=floor)
    later = timezone.now() + datetime.timedelta(minutes=45)
    filed = file_pit_procedure(
        pit, settlement="vigorish_all_then_pay", effective_at=later, actor=floor
    )
    s42 = set(Table.objects.filter(profile__startswith="s42"))
    assert {f.table for f in filed} == s42 and len(s42) == 4
    for table in s42:
        assert table.rules.settlement.value == "pay_then_vigorish_by_seat"  # not yet
        assert (
            present(table.rules_record(later)).submission.settlement.value
            == "vigorish_all_then_pay"
        )
    ma = table_for("ma-mini")
    assert (
        ma.rules_record(later) is None or present(ma.rules_record(later)).submission.source == "000"
    )
    # A later option at one table is filed against the pit's new procedure, not refused.
    after = later + datetime.timedelta(minutes=1)
    one = table_for("s42-mini")
    actions.file_rules(
        one,
        profile="s42-mini",
        options={"settlement": "vigorish_all_then_pay", "tie_odds": 9},
        effective_at=after,
        actor=floor,
    )
    assert present(one.rules_record(after)).submission.tie_odds == 9


def test_a_dealer_may_not_change_the_pits_procedure(db, dealer):
    with pytest.raises(actions.NotAllowed):
        file_pit_procedure(
            Pit.objects.get(),
            settlement="vigorish_all_then_pay",
            effective_at=timezone.now() + datetime.timedelta(hours=1),
            actor=dealer,
        )
