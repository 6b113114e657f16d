"""The round review shows every figure from the record and names each stored row that differs."""

from __future__ import annotations

import re
from decimal import Decimal

from django.db import connection

from casino.models import Event
from tablegame import actions
from tablegame.actions.corrections import correct_card
from tablegame.models import Round, SettlementStep, Wager
from tests.record.chains import triggers_bypassed
from tests.surveillance.test_pages import (
    BANKER_NATURAL,
    client_for,
    events_of,
    page_of,
    text_of,
)
from tests.tablegame.conftest import dealer, floor, play, ready_table, staff

__all__ = ["dealer", "floor", "staff"]  # the demo floor's fixtures


def review_of(game: Round) -> str:
    return page_of(client_for("surveillance"), f"/rounds/{game.pk}/")


def section(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, pattern
    return text_of(found.group(0))


def differences_of(page: str) -> str:
    return section(page, r'<div class="differences".*?</div>')


def wagers_of(page: str) -> str:
    return section(page, r'<table class="list wagers".*?</table>')


def test_the_reviews_winner_totals_and_announcement_come_from_the_record(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    with triggers_bypassed():  # as the tables' owner could: the application's role cannot
        Round.objects.filter(pk=game.pk).update(
            winner="player", player_total=9, banker_total=0, announcement="Player wins, 9 over 0"
        )
    page = review_of(game)
    final = section(page, r'<section class="card layout-final">.*?</section>')
    assert "Player 6 1 4♥ 3 2♠ Banker 9 2 9♣ 4 K♠" in final
    assert "Banker wins, 9 over 6" in final and "Player wins" not in final
    differences = differences_of(page)
    assert "The round's winner: the record says banker, the stored row player." in differences
    assert "The round's Player total: the record says 6, the stored row 9." in differences
    assert "The round's Banker total: the record says 9, the stored row 0." in differences
    assert "Chain intact" in page


def test_a_wager_rows_payout_edited_behind_the_records_back_is_a_difference(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = play(table, dealer, [(1, "banker", "100"), (5, "player", "40")], BANKER_NATURAL)
    with triggers_bypassed():  # as the tables' owner could: the application's role cannot
        Wager.objects.filter(round=game, seat=1).update(payout=Decimal("150.00"), vigorish=0)
    page = review_of(game)
    differences = differences_of(page)
    assert (
        "Wager at seat 1 on Banker: the record says payout $100.00, the stored row $150.00."
        in differences
    )
    assert (
        "Wager at seat 1 on Banker: the record says commission $5.00, the stored row $0.00."
        in differences
    )
    assert "seat 5" not in differences
    assert "1 Banker $100.00 win $100.00 $5.00 $0.00 dealer" in wagers_of(page)  # the record's
    assert "Chain intact" in page


def test_a_settlement_step_row_changed_behind_the_records_back_is_a_difference(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    with triggers_bypassed():  # as the tables' owner could: the application's role cannot
        SettlementStep.objects.filter(round=game, action="pay").update(amount=Decimal("95.00"))
    page = review_of(game)
    assert "Settlement: the record lists 2 steps, the stored rows 2, and they differ." in (
        differences_of(page)
    )
    steps = re.findall(r"<li class=\"a-[a-z_]+\">(.*?)</li>", page.split('id="steps"')[1])
    assert [text_of(s) for s in steps] == [
        "Collect commission seat 1 Banker $5.00",
        "Pay seat 1 Banker $100.00",
    ]


def test_house_money_and_its_ride_are_told_from_the_record(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.place_wager(table, seat=1, wager="house_money", amount="10", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["2H", "3C", "2S", "KD"]:  # Player pair of twos, 4; Banker 3
        actions.deal_card(table, card=card, actor=dealer)
    actions.settle_house_money_wagers(table, rides={1: "banker"}, actor=dealer)
    for card in ["5D", "4C"]:  # Player 9; Banker 7
        game = actions.deal_card(table, card=card, actor=dealer)
    game = actions.settle_round(table, actor=dealer)
    page = review_of(game)
    wagers = wagers_of(page)
    assert "1 House Money (rides on Banker) $10.00 win $30.00" in wagers
    assert "1 Banker $100.00 lose $0.00" in wagers
    steps = [text_of(s) for s in re.findall(r"<li class=\"a-[a-z_]+\">(.*?)</li>", page)]
    assert "House Money Let ride seat 1 Banker $30.00" in steps
    assert 'id="differences"' not in page


def test_a_void_round_is_told_with_its_returned_wagers(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="4H", actor=dealer)
    game = actions.void_round(table, reason="Shoe damaged, floor decision", actor=floor)
    page = review_of(game)
    assert "1 Banker $100.00 push" in wagers_of(page)
    steps = re.findall(r"<li class=\"a-[a-z_]+\">(.*?)</li>", page.split('id="steps"')[1])
    assert [text_of(s) for s in steps] == ["Return seat 1 Banker $100.00"]
    assert 'id="differences"' not in page


def test_an_event_that_no_longer_fits_its_kind_is_named_not_skipped(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    game = play(table, dealer, [(1, "banker", "100")], BANKER_NATURAL)
    second = Event.objects.filter(chain__table=table, action="card_dealt").order_by("sequence")[1]
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            """UPDATE casino_event SET data = (data - 'card') || jsonb_build_object('code', '9C')
               WHERE id = %s""",
            [second.pk],
        )
    page = review_of(game)
    assert (
        f"Event {second.sequence} (card_dealt) does not fit its kind, so the review cannot tell "
        "it: card_dealt: keys not in CardDealt: code; missing: card."
    ) in differences_of(page)
    row = dict((seq, words) for seq, _, words in events_of(page))[second.sequence]
    assert "Card dealt" in row and "Does not fit its kind" in row
    assert f"Chain broken at event {second.sequence}" in page


def test_an_approved_correction_reads_as_the_card_dealt_not_as_a_difference(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    for card in ["5H", *BANKER_NATURAL[1:]]:  # the first card keyed 5♥; it was the 4♥
        actions.deal_card(table, card=card, actor=dealer)
    correct_card(
        table, position=1, card="4H", approver=floor, reason="keyed in error", actor=dealer
    )
    game = actions.settle_round(table, actor=dealer)
    page = review_of(game)
    final = section(page, r'<section class="card layout-final">.*?</section>')
    assert "Player 6 1 4♥ 3 2♠ Banker 9 2 9♣ 4 K♠" in final
    assert 'class="differences"' not in page  # the stored rows agree with the record
    assert "5♥ keyed in error, corrected to 4♥, approved by floor" in text_of(page)


def test_a_void_approved_at_the_tablet_names_its_approver(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="4H", actor=dealer)
    game = actions.void_round(table, reason="Shoe damaged", approver=floor, actor=dealer)
    page = review_of(game)
    assert "State Void: wagers returned: Shoe damaged (approved by floor)" in text_of(page)
    assert "Wagers returned: Shoe damaged; approved by floor" in text_of(page)
    assert 'id="differences"' not in page
