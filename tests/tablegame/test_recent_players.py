"""The tablet offers to seat again the players seated at its table during the previous shoe and
the current one who are not seated now, read in one query (``tablegame.players``)."""

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


def test_the_list_is_read_in_one_query(table, django_assert_num_queries):
    with django_assert_num_queries(1):
        recent_players(table.pk)


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
