"""The tablet offers to seat again the players seated at its table during the previous shoe and
the current one who are not seated now, by their latest name (one per card number where they gave
one), read in one query (``tablegame.players``)."""

from __future__ import annotations

import pytest
from django.test import Client

from tablegame import actions
from tablegame.models import Table
from tablegame.players import recent_players
from tests.tablegame.conftest import deal_at, table_for


def shoe(table: Table, dealer) -> None:
    actions.receive_decks(table, decks=8, actor=dealer)


def sit(table: Table, dealer, seat: int, player: str = "", card: str = "") -> None:
    actions.seat_player(table, seat=seat, player=player, card=card, actor=dealer)


def leave(table: Table, dealer, seat: int) -> None:
    actions.leave_seat(table, seat=seat, actor=dealer)


@pytest.fixture
def table(db, dealer, floor) -> Table:
    """Three shoes: players come and go in each; the third is in play."""
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    shoe(table, dealer)
    sit(table, dealer, 1, "Long gone")  # sat and left two shoes ago
    leave(table, dealer, 1)
    sit(table, dealer, 2, "Regular", "4400")  # sat two shoes ago, left during the last
    actions.end_shoe(table, actor=dealer)
    shoe(table, dealer)
    sit(table, dealer, 3, card="9001")
    sit(table, dealer, 4, "Stays")  # seated still
    leave(table, dealer, 2)
    leave(table, dealer, 3)
    actions.end_shoe(table, actor=dealer)
    shoe(table, dealer)
    sit(table, dealer, 5, "Ann Lee", "12345")
    leave(table, dealer, 5)
    return table


def test_it_offers_last_shoe_s_and_this_shoe_s_players_not_seated_now_latest_first(table):
    assert recent_players(table.pk) == [
        {"player": "Ann Lee", "card": "12345"},
        {"player": None, "card": "9001"},
        {"player": "Regular", "card": "4400"},
    ]


def test_a_player_seated_again_is_no_longer_offered(table, dealer):
    sit(table, dealer, 6, card="9001")
    assert {"player": None, "card": "9001"} not in recent_players(table.pk)


def test_between_shoes_it_offers_the_last_shoe_s_players(table, dealer):
    actions.end_shoe(table, actor=dealer)
    assert recent_players(table.pk) == [{"player": "Ann Lee", "card": "12345"}]


def rename(table: Table, floor, seat: int, player: str = "", card: str = "") -> None:
    """The pit changes the name or card of the player at ``seat``: the same sitting."""
    actions.seat_player(table, seat=seat, player=player, card=card, change=True, actor=floor)


def test_a_player_renamed_while_seated_is_offered_by_the_new_name_only(table, dealer, floor):
    sit(table, dealer, 6, "Jon Smith", "777")
    rename(table, floor, 6, "John Smith", "777")
    leave(table, dealer, 6)
    offered = recent_players(table.pk)
    assert offered[0] == {"player": "John Smith", "card": "777"}
    assert [p for p in offered if p["card"] == "777"] == [offered[0]]


def test_a_name_mistyped_then_corrected_without_a_card_is_offered_as_corrected(
    table, dealer, floor
):
    sit(table, dealer, 6, "Bbo")
    rename(table, floor, 6, "Bob")
    leave(table, dealer, 6)
    offered = recent_players(table.pk)
    assert offered[0] == {"player": "Bob", "card": None}
    assert {"player": "Bbo", "card": None} not in offered


def test_a_card_given_after_sitting_down_is_offered_with_the_name_once(table, dealer, floor):
    sit(table, dealer, 6, "Dee")
    rename(table, floor, 6, "Dee", "5150")
    leave(table, dealer, 6)
    offered = recent_players(table.pk)
    assert offered[0] == {"player": "Dee", "card": "5150"}
    assert not [p for p in offered if p["player"] == "Dee" and p["card"] is None]


def test_a_player_renamed_and_still_seated_is_offered_by_no_name(table, dealer, floor):
    sit(table, dealer, 6, "Ann Lee", "12345")  # back, and renamed at the seat
    rename(table, floor, 6, "Ann Lee-Park", "12345")
    assert [p for p in recent_players(table.pk) if p["card"] == "12345"] == []


def test_a_card_seated_again_under_another_name_is_offered_by_its_latest(table, dealer):
    sit(table, dealer, 6, "A. Lee", "12345")
    leave(table, dealer, 6)
    offered = recent_players(table.pk)
    assert offered[0] == {"player": "A. Lee", "card": "12345"}
    assert [p for p in offered if p["card"] == "12345"] == [offered[0]]


def test_a_player_renamed_in_a_sitting_begun_before_the_last_shoe_is_offered_renamed(
    db, dealer, floor
):
    table = deal_at(table_for("ma-mini"), dealer, floor)
    actions.open_table(table, actor=dealer)
    shoe(table, dealer)
    sit(table, dealer, 1, "Old Name", "31")  # seated two shoes ago
    actions.end_shoe(table, actor=dealer)
    shoe(table, dealer)
    actions.end_shoe(table, actor=dealer)
    shoe(table, dealer)
    rename(table, floor, 1, "New Name", "31")  # renamed in this shoe, then gone
    leave(table, dealer, 1)
    assert recent_players(table.pk) == [{"player": "New Name", "card": "31"}]


def test_the_list_is_read_in_one_query(table, dealer, floor, django_assert_num_queries):
    for seat in (6, 7, 8):  # more players, renamed: still one query
        sit(table, dealer, seat, f"Guest {seat}", f"80{seat}")
        rename(table, floor, seat, f"Player {seat}", f"80{seat}")
        leave(table, dealer, seat)
    with django_assert_num_queries(1):
        assert len(recent_players(table.pk)) == 6


def test_the_tablet_s_read_costs_its_session_its_dealer_and_the_list(
    table, django_assert_num_queries
):
    client = Client()
    assert client.login(username="dealer", password="baccarat")
    with django_assert_num_queries(3):  # the session and user, the dealer's table, the list
        answer = client.get(f"/api/tables/{table.pk}/players/recent/")
    assert answer.status_code == 200


def test_the_tablet_reads_the_list_at_its_table(table):
    client = Client()
    assert client.login(username="dealer", password="baccarat")
    answer = client.get(f"/api/tables/{table.pk}/players/recent/")
    assert answer.status_code == 200
    assert answer.json()["players"][0] == {"player": "Ann Lee", "card": "12345"}


def test_a_dealer_reads_no_names_of_another_table(table):
    client = Client()
    assert client.login(username="dealer2", password="baccarat")
    answer = client.get(f"/api/tables/{table.pk}/players/recent/")
    assert answer.status_code == 403
    assert "a dealer acts only at their own table" in answer.json()["error"]
