"""A player is known by name, players' club card number or both: the seat keeps them, the
record names them, and what cannot be a name or a card is refused in words, changing nothing."""

from __future__ import annotations

import pytest

from casino.events import payload_of
from casino.models import Event
from tablegame import actions
from tablegame.events import PlayerLeft, PlayerSeated
from tablegame.models import Seat, Table
from tests.pit.conftest import deferred_table
from tests.tablegame.conftest import deal_at, play, table_for


@pytest.fixture
def table(db, dealer, floor) -> Table:
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    return table


def seated_events(table: Table) -> list[Event]:
    kinds = ("player_seated", "player_left")
    return list(Event.objects.filter(chain=table.chain_id, action__in=kinds).order_by("sequence"))


def seat_row(table: Table, number: int) -> Seat:
    return Seat.objects.get(table=table, number=number)


def test_a_player_known_by_card_alone_takes_the_seat_and_the_record_names_the_card(table, dealer):
    actions.seat_player(table, seat=3, card="  8812-3340 ", actor=dealer)
    seat = seat_row(table, 3)
    assert (seat.player_name, seat.player_card, seat.is_occupied) == ("", "88123340", True)
    assert seat.as_data() == {"number": 3, "player": None, "card": "88123340"}
    assert table.occupied_seats() == [3]
    [event] = seated_events(table)
    assert event.data == {"seat": 3, "player": "", "card": "88123340"}
    assert payload_of(event.action, event.data).describe() == "Seat 3: card 88123340"


def test_a_player_known_by_name_and_card_leaves_with_both_in_the_record(table, dealer):
    actions.seat_player(table, seat=2, player="Ann Lee", card="ab12", actor=dealer)
    actions.leave_seat(table, seat=2, actor=dealer)
    seated, left = (payload_of(e.action, e.data) for e in seated_events(table))
    assert seated == PlayerSeated(seat=2, player="Ann Lee", card="AB12")
    assert left == PlayerLeft(seat=2, player="Ann Lee", card="AB12")
    assert left.describe() == "Seat 2: Ann Lee (card AB12)"
    seat = seat_row(table, 2)
    assert (seat.player_name, seat.player_card, seat.occupied_since) == ("", "", None)


@pytest.mark.parametrize(
    ("player", "card", "refusal"),
    [
        ("", "", "Give the player's name (or a description) or their card number."),
        ("   ", " - ", "Give the player's name (or a description) or their card number."),
        ("Ann", "1" * 21, "A players' club card number is at most 20 characters."),
        ("Ann", "9" * 10_000, "A players' club card number is at most 20 characters."),
        ("Ann", "12\x0034", "A players' club card number is letters and digits only"),
        ("Ann", "12½4", "A players' club card number is letters and digits only"),
        ("Red\x00scarf", "", "The player's name holds a control character"),
        ("Ann\nLee", "", "The player's name holds a control character"),
        ("x" * 10_000, "", "The player's name may be at most 100 characters."),
    ],
    ids=["blank", "spaces", "card 21", "card 10k", "card NUL", "card ½", "NUL", "line", "long"],
)
def test_it_refuses_what_cannot_name_a_player_and_changes_nothing(
    table, dealer, player, card, refusal
):
    with pytest.raises(actions.ActionError) as refused:
        actions.seat_player(table, seat=4, player=player, card=card, actor=dealer)
    assert str(refused.value).startswith(refusal)
    assert not seat_row(table, 4).is_occupied
    assert seated_events(table) == []


def test_a_card_of_twenty_characters_is_kept_whole(table, dealer):
    actions.seat_player(table, seat=1, card="A1" * 10, actor=dealer)
    assert seat_row(table, 1).player_card == "A1" * 10


def test_a_seat_taken_by_a_carded_player_says_who_sits_there(table, dealer):
    actions.seat_player(table, seat=1, card="5500", actor=dealer)
    with pytest.raises(actions.ActionError, match=r"^Seat 1 is taken by card 5500\.$"):
        actions.seat_player(table, seat=1, player="Bo", actor=dealer)


def test_the_floor_changes_the_name_or_card_of_a_seated_player_in_the_same_sitting(
    table, dealer, floor
):
    actions.seat_player(table, seat=5, player="Tall man", actor=dealer)
    since = seat_row(table, 5).occupied_since
    actions.seat_player(table, seat=5, player="Wei Chen", card="77001", change=True, actor=floor)
    seat = seat_row(table, 5)
    assert (seat.player_name, seat.player_card, seat.occupied_since) == ("Wei Chen", "77001", since)
    last = seated_events(table)[-1]
    changed = payload_of(last.action, last.data)
    assert changed == PlayerSeated(seat=5, player="Wei Chen", card="77001", change=True)
    assert changed.describe() == "Seat 5: Wei Chen (card 77001), name or card changed"


def test_a_dealer_may_not_change_who_sits_at_a_seat(table, dealer):
    actions.seat_player(table, seat=5, player="Tall man", actor=dealer)
    with pytest.raises(actions.NotAllowed, match="Only a floorperson or pit boss may change"):
        actions.seat_player(table, seat=5, card="77001", change=True, actor=dealer)
    assert seat_row(table, 5).player_card == ""


def test_a_change_at_an_empty_seat_or_to_the_same_player_is_refused(table, dealer, floor):
    with pytest.raises(actions.ActionError, match="Seat 6 is empty: seat the player there"):
        actions.seat_player(table, seat=6, player="Ann", change=True, actor=floor)
    actions.seat_player(table, seat=6, player="Ann", actor=dealer)
    with pytest.raises(actions.ActionError, match=r"^Seat 6 is Ann already: nothing to change\.$"):
        actions.seat_player(table, seat=6, player=" Ann ", change=True, actor=floor)


def test_an_older_player_seated_event_without_a_card_still_reads_back():
    old = payload_of("player_seated", {"seat": 4, "player": "Red scarf"})
    assert old == PlayerSeated(seat=4, player="Red scarf", card=None, change=None)
    assert old.describe() == "Seat 4: Red scarf"
    assert old.as_data() == {"seat": 4, "player": "Red scarf"}  # stored as before the card
    left = payload_of("player_left", {"seat": 4, "player": "Red scarf"})
    assert left == PlayerLeft(seat=4, player="Red scarf")


def test_vigorish_marked_for_a_player_known_by_card_alone_names_the_card(db, dealer, floor):
    table = deferred_table(dealer, floor)
    actions.seat_player(table, seat=4, card="9001", actor=dealer)
    play(table, dealer, [(4, "banker", "100")], ["4H", "9C", "2S", "KS"])
    marker = table.markers.get(seat=4, status="open")
    assert marker.player_name == "card 9001"
