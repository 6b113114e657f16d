"""Supervisor orders from the pit console, each with who and why in the record: the deck-change
schedule, moving the player-dealer position, ordering the curator to pass, respreading an idle
table."""

from __future__ import annotations

import datetime
import json

import pytest
from django.utils import timezone

from casino.models import Event
from tablegame import actions
from tablegame.actions import ActionError, NotAllowed
from tablegame.actions.shoes import set_deck_schedule
from tablegame.models import DeckChange
from tests.clients import logged_in
from tests.tablegame.conftest import deal_at, ready_table, table_for
from tests.values import present


def last_event(table, action):
    return Event.objects.filter(chain=table.chain, action=action).latest("sequence")


# --- The deck-change schedule -------------------------------------------------------------------


def test_a_supervisor_brings_the_deck_change_forward_with_the_reason(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    when = timezone.now() + datetime.timedelta(hours=3)
    set_deck_schedule(table, due_at=when, reason="Marked cards suspected", actor=floor)
    assert DeckChange.objects.get(table=table).due_at == when
    event = last_event(table, "deck_schedule_set")
    assert event.actor == floor and event.data["reason"] == "Marked cards suspected"


def test_blank_calls_the_decks_due_now(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    set_deck_schedule(table, due_at=None, reason="Worn decks", actor=floor)
    assert DeckChange.objects.get(table=table).is_due()


@pytest.mark.parametrize(
    ("hours", "reason", "said"),
    [
        (25, "Busy night", "at least once every 24 hours"),
        (-2, "Busy night", "That time has passed"),
        (3, "  ", "Say why the deck change is rescheduled"),
    ],
)
def test_a_schedule_the_rules_do_not_allow_is_refused(db, dealer, floor, hours, reason, said):
    table = ready_table("ma-mini", dealer, floor)
    before = DeckChange.objects.get(table=table).due_at
    when = timezone.now() + datetime.timedelta(hours=hours)
    with pytest.raises(ActionError, match=said):
        set_deck_schedule(table, due_at=when, reason=reason, actor=floor)
    assert DeckChange.objects.get(table=table).due_at == before


def test_a_big_table_with_new_decks_every_shoe_has_no_time_to_set(db, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    with pytest.raises(ActionError, match="new decks after every shoe"):
        set_deck_schedule(table, due_at=None, reason="Worn", actor=floor)


def test_a_dealer_may_not_reschedule_the_deck_change(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    with pytest.raises(NotAllowed):
        set_deck_schedule(table, due_at=None, reason="Worn", actor=dealer)


def test_the_console_schedules_the_deck_change_in_the_casinos_time(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    zone = table.pit.casino.zone
    local = (timezone.now() + datetime.timedelta(hours=2)).astimezone(zone)
    typed = local.strftime("%Y-%m-%dT%H:%M")
    client = logged_in("floor")
    url = f"/floor/tables/{table.pk}/decks/"
    answer = client.post(url, {"due_at": typed, "reason": "Evening change"}, "application/json")
    assert answer.status_code == 200, answer.content
    due = present(DeckChange.objects.get(table=table).due_at).astimezone(zone)
    assert due.strftime("%Y-%m-%dT%H:%M") == typed
    refused = client.post(url, {"due_at": typed}, "application/json")
    assert refused.status_code == 409 and "Say why" in json.loads(refused.content)["error"]
    assert "Schedule the deck change" in client.get("/floor/").content.decode()
    assert logged_in("dealer").post(url, {"reason": "x"}, "application/json").status_code == 403


# --- The player-dealer position, the curator, an idle table ------------------------------------


def california(dealer, floor):
    table = deal_at(table_for("ca-commission-free"), dealer, floor)
    actions.open_table(table, actor=dealer)
    for seat in (1, 2, 4, 5):
        actions.seat_player(table, seat=seat, player=f"P{seat}", actor=dealer)
    actions.take_player_dealer(table, seat=4, actor=dealer)
    return table


def test_a_supervisor_moves_the_player_dealer_position_out_of_turn_saying_why(db, dealer, floor):
    table = california(dealer, floor)
    with pytest.raises(ActionError, match="Offer the player-dealer position to seat 2 first"):
        actions.take_player_dealer(table, seat=1, actor=floor)  # in turn, seat 2 comes first
    actions.take_player_dealer(table, seat=1, reason="Seat 4 asked to stop banking", actor=floor)
    table.refresh_from_db()
    assert (table.player_dealer_seat, table.previous_player_dealer_seat) == (1, 4)
    event = last_event(table, "player_dealer_taken")
    assert event.actor == floor and event.data["reason"] == "Seat 4 asked to stop banking"


def test_the_position_moves_only_to_a_seated_player_and_not_by_a_dealer(db, dealer, floor):
    table = california(dealer, floor)
    with pytest.raises(ActionError, match="Nobody sits at seat 3"):
        actions.take_player_dealer(table, seat=3, reason="Dispute", actor=floor)
    with pytest.raises(NotAllowed, match="move the player-dealer position"):
        actions.take_player_dealer(table, seat=1, reason="Dispute", actor=dealer)


def test_the_console_moves_the_position_over_the_api(db, dealer, floor):
    table = california(dealer, floor)
    client = logged_in("floor")
    page = client.get("/floor/").content.decode()
    assert 'data-route="player-dealer/" data-fields="seat,reason"' in page
    answer = client.post(
        f"/api/tables/{table.pk}/player-dealer/",
        {"seat": 2, "reason": "Seat 4 left for a break"},
        "application/json",
        headers={"Idempotency-Key": "move-1"},
    )
    assert answer.status_code == 200, answer.content
    assert last_event(table, "player_dealer_taken").data["reason"] == "Seat 4 left for a break"


def test_a_supervisor_orders_the_curator_to_pass_only_with_a_reason(db, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    with pytest.raises(ActionError, match="Say why the curator must pass"):
        actions.pass_shoe(table, ordered=True, actor=floor)
    actions.pass_shoe(table, ordered=True, reason="Slows the game down", actor=floor)
    event = last_event(table, "shoe_passed")
    assert (event.actor, event.data["reason"]) == (floor, "Slows the game down")


def test_a_supervisor_respreads_an_idle_table_with_the_reason(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    with pytest.raises(ActionError, match="Say why the cards are spread again"):
        actions.respread_idle_shoe(table, actor=floor)
    actions.respread_idle_shoe(table, reason="No play for an hour", actor=floor)
    event = last_event(table, "idle_respread")
    assert (event.actor, event.data["reason"]) == (floor, "No play for an hour")


def test_the_dealers_own_call_needs_no_reason(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    actions.respread_idle_shoe(table, actor=dealer)
    assert last_event(table, "idle_respread").data["reason"] == ""
