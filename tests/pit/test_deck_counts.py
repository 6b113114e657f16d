"""Deck counts as the texts allow them, per table: 002 at least six decks, at least twelve with a
shuffler, no maximum; 000 and 004 six to eight; a batch shuffle machine on a big table
(004 §4(e)) as an option of its Rules Submission. A bigger shoe deals and settles."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from baccarat.errors import RulesError
from baccarat.profiles import rules_submission
from baccarat.shoe import check_decks
from tablegame import actions
from tablegame.actions import ActionError
from tablegame.models import ProcedureNotice, Round
from tests.clients import logged_in
from tests.tablegame.conftest import deal_at, play, ready_table, table_for
from tests.values import present

BANKER_NATURAL = ["4H", "9C", "2S", "KS"]  # Player 6, Banker 9


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("s42-mini", {"decks": [6, 12]}),
        ("s42-mini", {"decks": [10, 40]}),
        ("s42-mini", {"shuffler_decks": [12, 24]}),
        ("ma-big", {"shuffler_decks": [12, 16]}),
        ("ma-mini", {"decks": [8, 8], "shuffler_decks": None}),
    ],
)
def test_the_counts_the_texts_allow_are_accepted(profile, options):
    rules = rules_submission(profile, options)
    for key, value in options.items():
        assert getattr(rules, key) == (tuple(value) if value else None)


@pytest.mark.parametrize(
    ("profile", "options", "said"),
    [
        ("s42-mini", {"decks": [4, 8]}, "at least six decks; at least 12 with an automated"),
        ("s42-mini", {"shuffler_decks": [8, 10]}, "not 8-10 decks with the shuffler"),
        ("s42-mini", {"shuffler_decks": [13, 13]}, "two equal batches: an even number"),
        ("ma-mini", {"decks": [6, 12]}, "six to eight decks; 12 to 16"),
        ("ma-big", {"decks": [6, 9]}, "six to eight decks (004 §3(a))"),
        ("ma-big", {"shuffler_decks": [12, 20]}, "12 to 16 decks (004 §4(e))"),
        ("ca-commission-free", {"decks": [6, 8]}, "eight decks"),
    ],
)
def test_counts_outside_the_text_are_refused_saying_what_it_allows(profile, options, said):
    with pytest.raises(RulesError, match=said.replace("(", r"\(").replace(")", r"\)")):
        rules_submission(profile, options)


def test_a_royal9_big_table_shuffler_deals_a_six_or_eight_deck_batch():
    rules = rules_submission("ma-big", {"shuffler_decks": [12, 16]})
    check_decks(rules, 16, automatic_shuffler=True)
    with pytest.raises(RulesError, match="two batches of six or eight"):
        check_decks(rules, 14, automatic_shuffler=True)


def test_the_console_sets_twelve_decks_at_a_002_table_and_refuses_four(db, staff, dealer):
    table = deal_at(table_for("s42-mini"), dealer, staff["floor"])
    client = logged_in("floor")
    url = f"/floor/tables/{table.pk}/rules/file/"
    refused = client.post(url, {"options": {"decks": "4-8"}}, "application/json")
    assert refused.status_code == 409
    assert "at least six decks" in json.loads(refused.content)["error"]
    assert table.rules.decks == (6, 8)
    done = client.post(url, {"options": {"decks": "6-12"}}, "application/json")
    assert done.status_code == 200 and table.rules.decks == (6, 12)
    page = client.get(f"/floor/tables/{table.pk}/rules/").content.decode()
    assert "no maximum" in page


def test_a_twelve_deck_shoe_deals_and_settles(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor, decks=12, options={"decks": [6, 12]})
    shoe = table.current_shoe()
    assert shoe is not None
    assert shoe.decks == 12 and shoe.cards_left == 12 * 52 - 1  # the burn card shown
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    assert game.state == Round.State.SETTLED
    wager = game.wagers.get(seat=1)
    assert (wager.result, wager.payout, wager.vigorish) == ("win", Decimal("100"), Decimal("5"))
    assert present(table.current_shoe()).cards_left == 12 * 52 - 1 - 4


def test_twenty_four_decks_in_a_shuffler_deal_a_twelve_deck_batch(db, dealer, floor):
    table = deal_at(table_for("s42-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    actions.file_rules(table, profile="s42-mini", options={"shuffler_decks": [12, 24]}, actor=floor)
    actions.seat_player(table, seat=1, player="Ana", actor=dealer)
    shoe = actions.receive_decks(table, decks=24, automatic_shuffler=True, actor=dealer)
    assert (shoe.decks, shoe.batch, shoe.back_colour) == (12, 0, "batch 1")
    actions.inspect_decks(table, actor=dealer)
    actions.verify_inspection(table, actor=floor)
    actions.spread_decks(table, actor=dealer)
    actions.wash_decks(table, actor=dealer)
    actions.shuffle_decks(table, machine=True, actor=dealer)
    actions.cut_cards(
        table, seat=None, declined=[1], position=300, cover_from_back=20, actor=dealer
    )
    actions.burn_cards(table, first_card="3D", actor=dealer)
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    assert game.state == Round.State.SETTLED


def test_a_big_table_takes_a_batch_shuffler_with_notice_and_deals_from_it(db, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    with pytest.raises(ActionError, match="30 minutes before the automatic shuffler change"):
        actions.file_rules(
            table, profile="ma-big", options={"shuffler_decks": [12, 16]}, actor=floor
        )
    when = timezone.now() + datetime.timedelta(minutes=31)
    filed = actions.file_rules(
        table,
        profile="ma-big",
        options={"shuffler_decks": [12, 16]},
        effective_at=when,
        actor=floor,
    )
    notice = ProcedureNotice.objects.get(rules=filed)
    assert notice.changes == "automatic shuffler" and "shuffler of 12-16 decks" in notice.after
    actions.end_shoe(table, actor=dealer)
    with pytest.raises(ActionError, match="not dealt with an automatic shuffler"):
        actions.receive_decks(table, decks=16, automatic_shuffler=True, actor=dealer)  # not yet


def test_a_closed_big_table_takes_a_batch_shuffler_once_surveillance_has_had_notice(
    db, dealer, floor
):
    table = deal_at(table_for("ma-big"), dealer, floor)
    with pytest.raises(ActionError, match="30 minutes before the automatic shuffler change"):
        actions.file_rules(
            table, profile="ma-big", options={"shuffler_decks": [12, 16]}, actor=floor
        )
    when = timezone.now() + datetime.timedelta(minutes=31)
    actions.file_rules(
        table,
        profile="ma-big",
        options={"shuffler_decks": [12, 16]},
        effective_at=when,
        actor=floor,
    )
    with mock.patch("django.utils.timezone.now", return_value=when + datetime.timedelta(minutes=1)):
        actions.open_table(table, actor=dealer)
        actions.seat_player(table, seat=1, player="Ana", actor=dealer)
        actions.take_shoe(table, seat=1, actor=dealer)
        shoe = actions.receive_decks(table, decks=16, automatic_shuffler=True, actor=dealer)
        assert (shoe.decks, shoe.batch) == (8, 0)
        state = logged_in("dealer").get(f"/api/tables/{table.pk}/").json()
    assert state["rules"]["shuffler_decks"] == [12, 16] and state["rules"]["decks"] == [6, 8]
