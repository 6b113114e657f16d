"""A dealer's command refused for a reason surveillance must see (a card not in the shoe, a wager
after no more bets, a card not due, a wager over the limit or under the minimum, a card code that
is no card) is refused as before, the table as it was, and kept: who, which command, the words
the dealer was told, the input, the round and shoe, and when (``tablegame.refusals``). A slip of
no such kind, and an accepted command, keep nothing."""

from __future__ import annotations

import datetime

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from casino import refusals
from casino.models import Event
from tablegame.actions.dealers import relieve_dealer
from tablegame.models import CommandRecord, Round, TableRefusal
from tests.api.conftest import table_for
from tests.api.test_refusals import _state, in_dealing, refused


@pytest.fixture(autouse=True)
def counts_of_this_test_only():
    """The minute's counts (``tablegame.refusals``) are the cache's: another test's are not ours."""
    cache.clear()
    yield
    cache.clear()


def statements(captured: CaptureQueriesContext) -> list[str]:
    """The SQL sent, less the test's savepoints (in production the refusal's own transaction)."""
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


def only_refusal(table):
    rows = list(TableRefusal.objects.filter(table=table))
    assert len(rows) == 1
    return rows[0]


def test_an_impossible_card_is_refused_the_table_intact_and_kept_with_who_what_and_when(
    tablet, mini
):
    shoe = mini.current_shoe()
    shoe.remaining["AS"] = 0
    shoe.save(update_fields=["remaining"])
    in_dealing(tablet, mini)
    status, error = refused(tablet, mini, "round/cards/", {"card": "AS"})
    assert status == 409

    kept = only_refusal(mini)
    game = Round.objects.get(table=mini, state="dealing")
    assert (kept.kind, kept.command, kept.words, kept.given) == (
        "card_not_in_shoe",
        "deal_card",
        error,
        {"card": "AS"},
    )
    assert (kept.username, kept.user.username) == ("dealer", "dealer")
    assert (kept.round_id, kept.round_number, kept.shoe_number) == (game.pk, 1, shoe.number)
    assert timezone.now() - kept.at < datetime.timedelta(seconds=30)


def test_a_wager_after_no_more_bets_is_refused_and_kept_with_its_seat_wager_and_amount(
    tablet, mini
):
    in_dealing(tablet, mini)
    body = {"seat": 2, "type": "player", "amount": "100"}
    status, error = refused(tablet, mini, "round/wagers/", body)
    assert status == 409
    kept = only_refusal(mini)
    assert (kept.kind, kept.command, kept.words) == ("late_wager", "place_wager", error)
    assert kept.given == {"seat": 2, "wager": "player", "amount": "100.00"}


def test_a_wager_withdrawn_after_no_more_bets_is_kept_as_a_late_wager(tablet, mini):
    in_dealing(tablet, mini)
    status, _ = refused(tablet, mini, "round/wagers/withdraw/", {"seat": 1, "type": "banker"})
    assert status == 409
    assert (only_refusal(mini).kind, only_refusal(mini).command) == (
        "late_wager",
        "withdraw_wager",
    )


def test_a_wager_over_the_table_maximum_is_kept(tablet, mini):
    tablet.do(mini, "round/open/")
    refused(tablet, mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "5000.01"})
    kept = only_refusal(mini)
    assert (kept.kind, kept.words) == (
        "over_limit",
        "The Banker maximum is $5000.00; $5000.01 is over it.",
    )


def test_a_card_when_none_is_due_is_kept_as_an_illegal_deal(tablet, mini):
    in_dealing(tablet, mini)
    for card in ["2H", "3C", "3S", "KS", "8D"]:  # Player draws an 8; Banker 3 stands on an 8
        tablet.do(mini, "round/cards/", {"card": card})
    refused(tablet, mini, "round/cards/", {"card": "4D"})
    kept = only_refusal(mini)
    assert (kept.kind, kept.words, kept.given) == (
        "illegal_deal",
        "The coup is complete: no card is due.",
        {"card": "4D"},
    )


def test_a_card_before_no_more_bets_is_kept_as_an_illegal_deal(tablet, mini):
    tablet.do(mini, "round/open/")
    refused(tablet, mini, "round/cards/", {"card": "4D"})
    assert only_refusal(mini).kind == "illegal_deal"


def test_a_wager_under_the_table_minimum_is_refused_and_kept_with_its_amount(tablet, mini):
    tablet.do(mini, "round/open/")
    status, error = refused(
        tablet, mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "1"}
    )
    assert (status, error) == (409, "The Banker minimum is $25.00; $1.00 is too little.")
    kept = only_refusal(mini)
    assert (kept.kind, kept.command, kept.words) == ("under_limit", "place_wager", error)
    assert kept.given == {"seat": 1, "wager": "banker", "amount": "1.00"}
    assert (kept.round_number, kept.shoe_number) == (1, mini.current_shoe().number)


def mistyped(tablet, table, route, body):
    """POST a body with a card code that is no card: answered 400 as before (the input's
    words), the table, its record and the commands' records as they were; the answer."""
    before = (_state(table), Event.objects.count(), CommandRecord.objects.count())
    response = tablet.post(table, route, body)
    assert response.status_code == 400, response.content
    assert (_state(table), Event.objects.count(), CommandRecord.objects.count()) == before
    return response.json()


def test_a_mistyped_card_is_refused_as_before_the_table_intact_and_kept_as_typed(tablet, mini):
    in_dealing(tablet, mini)
    answer = mistyped(tablet, mini, "round/cards/", {"card": "Q7"})
    assert answer["fields"] == {
        "card": [
            "'Q7' is not a card: write the rank (A, 2-9, T or 10, J, Q, K) then the suit "
            "(C, D, H, S), for example KH or 10D"
        ]
    }
    kept = only_refusal(mini)
    game = Round.objects.get(table=mini, state="dealing")
    assert (kept.kind, kept.command, kept.words, kept.given) == (
        "mistyped_card",
        "deal_card",
        answer["error"],
        {"card": "Q7"},
    )
    assert (kept.username, kept.round_id, kept.round_number) == ("dealer", game.pk, 1)
    assert kept.shoe_number == mini.current_shoe().number
    assert TableRefusal.objects.count() == 1


def test_a_mistyped_card_too_long_for_a_card_is_kept_cut_short(tablet, mini):
    in_dealing(tablet, mini)
    mistyped(tablet, mini, "round/cards/", {"card": "queen of hearts, the second one"})
    kept = only_refusal(mini)
    assert kept.kind == "mistyped_card"
    assert kept.given == {"card": "queen of hearts, the"}  # its first 20 characters
    assert kept.words.startswith("card: 'queen of hearts, the second one' is not a card")


def test_a_mistyped_first_card_of_the_burn_is_kept_with_its_round_unknown(tablet, mini):
    mistyped(tablet, mini, "shoe/burn/", {"first_card": "7"})
    kept = only_refusal(mini)
    assert (kept.kind, kept.command, kept.given) == (
        "mistyped_card",
        "burn_cards",
        {"first_card": "7"},
    )
    assert (kept.round_id, kept.shoe_number) == (None, mini.current_shoe().number)


def test_a_mistyped_correction_keeps_the_card_and_never_the_approvers_password(tablet, mini):
    in_dealing(tablet, mini)
    tablet.do(mini, "round/cards/", {"card": "4D"})
    body = {"position": 1, "card": "4", "floorperson": "floor", "password": "baccarat"}
    mistyped(tablet, mini, "round/corrections/", body)
    kept = only_refusal(mini)
    assert (kept.command, kept.given) == ("correct_card", {"card": "4"})
    assert "baccarat" not in str(kept.given) + kept.words


def test_a_card_missing_blank_or_not_text_is_no_typing_and_not_kept(tablet, mini):
    in_dealing(tablet, mini)
    for body in ({}, {"card": "  "}, {"card": None}, {"card": ["KH"]}):
        mistyped(tablet, mini, "round/cards/", body)
    assert not TableRefusal.objects.exists()


def test_a_mistyped_card_at_a_table_the_dealer_may_not_act_at_is_not_kept(
    tablet, tablet_for, mini, floor
):
    other = table_for("s42-mini")  # MB-3: dealer3 deals it, not our dealer
    mistyped(tablet, other, "round/cards/", {"card": "ZZ"})
    relieve_dealer(other, actor=floor)
    mistyped(tablet_for("dealer3"), mini, "round/cards/", {"card": "ZZ"})  # assigned nowhere
    assert not TableRefusal.objects.exists()


def test_mistyped_cards_past_the_minutes_bound_are_counted_without_reading_the_table(
    tablet, mini, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(refusals, "KEPT_PER_MINUTE", 2)
    in_dealing(tablet, mini)
    for _ in range(2):
        tablet.post(mini, "round/cards/", {"card": "XX"})
    with CaptureQueriesContext(connection) as past:
        tablet.post(mini, "round/cards/", {"card": "XX"})
    touching = [sql for sql in statements(past) if "tablegame_t" in sql]
    assert len(touching) == 1 and touching[0].startswith("UPDATE")  # the count on the last
    tablet.post(mini, "round/cards/", {"card": "XX"})
    rows = list(TableRefusal.objects.filter(table=mini).order_by("pk"))
    assert [row.more for row in rows] == [0, 2]


def test_a_slip_of_no_significance_is_refused_and_not_kept(tablet, mini):
    tablet.do(mini, "round/open/")
    status, error = refused(
        tablet, mini, "round/wagers/", {"seat": 4, "type": "banker", "amount": "100"}
    )
    assert (status, error) == (409, "Seat 4 is empty: seat the player first.")
    assert not TableRefusal.objects.exists()


def test_an_accepted_command_keeps_nothing(tablet, mini):
    in_dealing(tablet, mini)
    tablet.do(mini, "round/cards/", {"card": "4D"})
    assert not TableRefusal.objects.exists()


def test_a_kept_refusal_costs_one_insert_and_one_of_no_significance_nothing(tablet, mini):
    tablet.do(mini, "round/open/")
    with CaptureQueriesContext(connection) as kept:  # over the maximum
        tablet.post(mini, "round/wagers/", {"seat": 2, "type": "player", "amount": "9000"})
    with CaptureQueriesContext(connection) as slip:  # at an empty seat
        tablet.post(mini, "round/wagers/", {"seat": 4, "type": "player", "amount": "9000"})
    kept_sql, slip_sql = statements(kept), statements(slip)
    touching = [sql for sql in kept_sql if "tablegame_tablerefusal" in sql]
    assert len(touching) == 1 and touching[0].startswith("INSERT")
    assert len(kept_sql) == len(slip_sql) + 1
    assert TableRefusal.objects.count() == 1


def test_refusals_past_the_minutes_bound_are_counted_on_the_last_one_kept(
    tablet, mini, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(refusals, "KEPT_PER_MINUTE", 2)  # the bound shared with the access refusals
    in_dealing(tablet, mini)
    for _ in range(5):
        tablet.post(mini, "round/wagers/", {"seat": 2, "type": "player", "amount": "100"})
    rows = list(TableRefusal.objects.filter(table=mini).order_by("pk"))
    assert [row.more for row in rows] == [0, 3]


def test_a_correction_to_a_card_not_in_the_shoe_is_kept_without_the_approvers_password(
    tablet, mini
):
    shoe = mini.current_shoe()
    shoe.remaining["AS"] = 0
    shoe.save(update_fields=["remaining"])
    in_dealing(tablet, mini)
    tablet.do(mini, "round/cards/", {"card": "4D"})
    body = {"position": 1, "card": "AS", "floorperson": "floor", "password": "baccarat"}
    status, error = refused(tablet, mini, "round/corrections/", body)
    assert status == 409
    kept = only_refusal(mini)
    assert (kept.kind, kept.command, kept.words) == ("card_not_in_shoe", "correct_card", error)
    assert kept.given == {"position": 1, "card": "AS", "reason": "", "approver": "floor"}
    assert "baccarat" not in str(kept.given)


def test_a_mistyped_card_costs_the_reads_of_where_it_was_typed_and_one_insert(tablet, mini):
    """Refused by the input before any command's read: the table, the dealer's assignments, the
    round in play with its shoe are read for the refusal alone, then it is inserted."""
    in_dealing(tablet, mini)
    with CaptureQueriesContext(connection) as typo:
        tablet.post(mini, "round/cards/", {"card": "XX"})
    with CaptureQueriesContext(connection) as blank:  # refused by the input alike, kept not
        tablet.post(mini, "round/cards/", {"card": ""})
    typo_sql, blank_sql = statements(typo), statements(blank)
    assert len(typo_sql) == len(blank_sql) + 4
    read = [sql.split(" FROM ", 1)[1].split()[0] for sql in typo_sql[-4:-1]]
    assert read == ['"tablegame_table"', '"tablegame_dealerassignment"', '"tablegame_round"']
    assert typo_sql[-1].startswith('INSERT INTO "tablegame_tablerefusal"')
