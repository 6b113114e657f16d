"""The pit console's supervisor actions and Rules Submissions, through the pages' endpoints."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

from django.utils import timezone

from casino.models import Event, Pit
from tablegame import actions
from tablegame.models import Table
from tests.clients import logged_in, post_json
from tests.pages_floor.shown import shown_text
from tests.tablegame.conftest import deal_at, ready_table, table_for
from tests.values import present


def local(minutes: int) -> str:
    """A time ``minutes`` from now as the supervisor types it: the casino's wall clock."""
    zone = Pit.objects.get().casino.zone
    moment = timezone.now().astimezone(zone) + datetime.timedelta(minutes=minutes)
    return moment.strftime("%Y-%m-%dT%H:%M")


def test_the_console_offers_a_void_only_while_the_outcome_is_unknown(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor)
    actions.open_round(table, actor=dealer)
    actions.place_wager(table, seat=1, wager="banker", amount="100", actor=dealer)
    actions.no_more_bets(table, actor=dealer)
    actions.deal_card(table, card="4H", actor=dealer)
    page = shown_text(logged_in("floor").get("/floor/").content.decode())
    assert "Void round 1" in page and "Reason (recorded)" in page
    assert "Player's cards: next player" in page
    assert "Respread (idle table)" not in page  # a round is in play
    for card in ("9C", "2S", "KS"):
        actions.deal_card(table, card=card, actor=dealer)
    assert "Void round 1" not in shown_text(logged_in("floor").get("/floor/").content.decode())


def test_the_clerk_sees_no_supervisor_actions(db, dealer, floor):
    ready_table("s42-mini", dealer, floor)
    page = logged_in("clerk").get("/floor/").content.decode()
    assert "Reason (recorded)" not in page and "Complimentary Vigorish Forms" in page


def test_a_table_rules_page_lists_every_option_and_files_a_change_with_notice(db, dealer, floor):
    table = deal_at(table_for("s42-mini-4"), dealer, floor)
    actions.open_table(table, actor=dealer)
    client = logged_in("floor")
    page = client.get(f"/floor/tables/{table.pk}/rules/").content.decode()
    for option in ("commission rate", "tie odds", "vigorish collection", "settlement"):
        assert f"<td>{option}</td>" in page
    assert "<td>decks in a manual shoe<br>" in page and "no maximum" in page
    url = f"/floor/tables/{table.pk}/rules/file/"
    status, answer = post_json(client, url, {"options": {"commission_rate": "0.05"}})
    assert status == 409 and "30 minutes before the commission rate change" in answer["error"]
    later = {"options": {"commission_rate": "0.05"}, "effective_at": local(31)}
    assert post_json(client, url, later)[0] == 200
    assert table.rules.commission_rate == Decimal("0.04")
    page = client.get(f"/floor/tables/{table.pk}/rules/").content.decode()
    assert "commission_rate 0.05" in page
    assert post_json(logged_in("dealer"), url, {"options": {"tie_odds": "9"}})[0] == 403


def test_options_the_texts_leave_to_the_licensee_are_accepted(db, dealer, floor):
    client = logged_in("pitboss")
    california = table_for("ca-commission-free")
    fees = {"player_line": "2.00", "banker_line": "2.00", "tie": "1.00"}
    body = {"options": {"collection_fees": json.dumps(fees)}}
    assert post_json(client, f"/floor/tables/{california.pk}/rules/file/", body)[0] == 200
    assert present(california.rules.collection_fees).player_line == Decimal("2.00")
    mini = table_for("s42-mini")
    body = {"options": {"decks": "6-10", "shuffler_decks": "12-24", "tie_odds": "9"}}
    assert post_json(client, f"/floor/tables/{mini.pk}/rules/file/", body)[0] == 200
    rules = mini.rules
    assert (rules.decks, rules.shuffler_decks, rules.tie_odds) == ((6, 10), (12, 24), 9)
    status, answer = post_json(
        client, f"/floor/tables/{mini.pk}/rules/file/", {"options": {"decks": "5-8"}}
    )
    assert status == 409 and "at least six decks" in answer["error"]


def test_the_pits_procedure_changes_from_the_console_at_a_stated_time(db, dealer, floor):
    pit = Pit.objects.get()
    client = logged_in("pitboss")
    body = {"pit": pit.pk, "settlement": "vigorish_all_then_pay", "effective_at": local(10)}
    status, answer = post_json(client, "/floor/procedure/", body)
    assert status == 409 and "30 minutes" in answer["error"]
    body["effective_at"] = local(40)
    assert post_json(client, "/floor/procedure/", body) == (200, {"done": True})
    later = timezone.now() + datetime.timedelta(minutes=41)
    for table in Table.objects.filter(profile__startswith="s42"):
        assert (
            present(table.rules_record(later)).submission.settlement.value
            == "vigorish_all_then_pay"
        )
    assert Event.objects.filter(action="rules_filed").count() == 4
    assert post_json(logged_in("dealer"), "/floor/procedure/", body)[0] == 403


def test_the_seats_of_a_table_change_between_rounds_within_its_rules(db, dealer, floor):
    table = ready_table("s42-mini", dealer, floor, seats=(1, 2, 5))
    client = logged_in("floor")
    url = f"/floor/tables/{table.pk}/seats/"
    status, answer = post_json(client, url, {"seats": 10, "reason": "More room"})
    assert status == 409 and "1 to 9 seats" in answer["error"]
    status, answer = post_json(client, url, {"seats": 4, "reason": "Smaller layout"})
    assert (
        status == 409 and answer["error"] == "Seat 5 is taken: it stays while someone sits there."
    )
    assert post_json(client, url, {"seats": 7, "reason": "Smaller layout"}) == (200, {"done": True})
    table.refresh_from_db()
    assert table.seat_count == 7 and table.seats.count() == 7
    event = Event.objects.filter(chain=table.chain, action="seats_set").get()
    assert (event.data["before"], event.data["seats"], event.data["reason"]) == (
        9,
        7,
        "Smaller layout",
    )
    assert post_json(logged_in("dealer"), url, {"seats": 8})[0] == 403
