"""The pit enters players from the console: a floorperson seats a player known by name, card or
both at a seat of a table, and changes the name or card of one seated; the record keeps each."""

from __future__ import annotations

import pytest

from casino.models import Event
from tablegame import actions
from tablegame.models import Seat, Table
from tests.clients import logged_in, post_json
from tests.tablegame.conftest import deal_at, table_for


@pytest.fixture
def table(db, dealer, floor) -> Table:
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    return table


def url(table: Table) -> str:
    return f"/floor/tables/{table.pk}/players/"


def test_a_floorperson_seats_a_carded_player_from_the_console(table):
    status, answer = post_json(
        logged_in("floor"), url(table), {"player_seat": "3", "player": "Wei Chen", "card": "7700 1"}
    )
    assert (status, answer) == (
        200,
        {"done": True, "seat": {"number": 3, "player": "Wei Chen", "card": "77001"}},
    )
    seat = Seat.objects.get(table=table, number=3)
    assert (seat.player_name, seat.player_card) == ("Wei Chen", "77001")
    event = Event.objects.filter(chain=table.chain_id).latest("sequence")
    assert (event.action, event.data) == (
        "player_seated",
        {"seat": 3, "player": "Wei Chen", "card": "77001"},
    )
    assert event.actor is not None and event.actor.username == "floor"


def test_a_floorperson_gives_the_card_of_a_player_the_dealer_seated_by_name(table, dealer):
    actions.seat_player(table, seat=2, player="Tall man", actor=dealer)
    body = {"player_seat": 2, "player": "Tall man", "card": "5501", "change": True}
    assert post_json(logged_in("floor"), url(table), body)[0] == 200
    seat = Seat.objects.get(table=table, number=2)
    assert (seat.player_name, seat.player_card) == ("Tall man", "5501")
    event = Event.objects.filter(chain=table.chain_id).latest("sequence")
    assert event.data == {"seat": 2, "player": "Tall man", "card": "5501", "change": True}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"player_seat": 3}, 409, "Give the player's name (or a description) or their card"),
        ({"player": "Ann"}, 409, "Choose the seat."),
        ({"player_seat": 3, "card": "1" * 10_000}, 409, "A players' club card number is at most"),
        ({"player_seat": 3, "player": ["Ann"]}, 400, "Type the player's name as text."),
        ({"player_seat": 3, "player": "Ann", "change": "yes"}, 400, "Say whether the player sits"),
        ({"player_seat": 99, "player": "Ann"}, 409, "There is no seat 99 at MB-1."),
    ],
    ids=["no one", "no seat", "long card", "not text", "change?", "no such seat"],
)
def test_the_console_refuses_what_cannot_seat_anyone_in_words(table, body, status, error):
    events = Event.objects.count()
    got, answer = post_json(logged_in("floor"), url(table), body)
    assert got == status
    assert answer["error"].startswith(error)
    assert Event.objects.count() == events
    assert not Seat.objects.filter(table=table).exclude(player_name="", player_card="").exists()


def test_a_pit_clerk_may_not_seat_a_player(table):
    status, answer = post_json(logged_in("clerk"), url(table), {"player_seat": 3, "player": "Ann"})
    assert status == 403
    assert answer == {"error": "Only a dealer or floorperson or pit boss may seat a player."}


def test_the_console_tile_offers_the_seats_with_who_sits_there(table, dealer):
    actions.seat_player(table, seat=2, player="Ann", card="12", actor=dealer)
    page = logged_in("floor").get("/floor/?pits=all").content.decode()
    assert '<option value="2">2 · Ann (card 12)</option>' in page
    assert '<option value="3">3 · empty</option>' in page
    assert "Change name or card" in page
