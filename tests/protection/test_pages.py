"""Surveillance reads a table's edges, its alerts and its seats' side bets against the edge."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from protection.follower import follow
from protection.models import Edge
from tests.clients import signed_in
from tests.protection.conftest import play, ready_table, strip_rounds

pytestmark = pytest.mark.django_db


def _side_bets(turn: int) -> list[tuple[int, str, str]]:
    """Seat 1 bets the Banker every round, and Dragon 7 from the tenth round on."""
    return [(1, "banker", "25"), *([(1, "dragon7", "10")] if turn >= 9 else [])]


def test_the_wall_shows_the_alert_and_links_to_the_tables_page(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16)
    follow([table.pk])
    wall = signed_in(staff["surveillance"]).get("/surveillance/")
    page = wall.content.decode()
    assert "Shoe 1: favours the players: Dragon 7 since round" in page
    assert f'href="/protection/tables/{table.pk}/?back=/surveillance/"' in page
    marks = signed_in(staff["surveillance"]).get("/surveillance/marks/").json()["tables"]
    assert list(marks) == [str(table.pk)]


def test_the_tables_page_shows_each_wagers_edge_and_the_side_bets_placed_when_it_was_theirs(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16, wagers=_side_bets)
    follow([table.pk])
    answer = signed_in(staff["surveillance"]).get(
        f"/protection/tables/{table.pk}/?back=/surveillance/"
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "Shoe 1: the edge of each wager, round by round" in page
    for label in ("Banker", "Player", "Tie", "Dragon 7", "Panda 8"):
        assert f"<th>{label}</th>" in page
    assert page.count('<svg class="edge-line"') >= 5
    assert '<a href="/surveillance/">Back</a>' in page
    theirs = Edge.objects.filter(table=table, round__gte=10, favourable__contains=["dragon7"])
    assert theirs.exists()
    first = theirs.order_by("round").first()
    assert first is not None
    assert f"round {first.round}: Dragon 7 $10.00" in page


def test_the_page_reads_its_edges_again_only_when_a_round_was_priced(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("s42-mini", dealer, floor)
    play(table, dealer, [(1, "banker", "25")], ["AC", "AD", "7H", "7S"])
    follow([table.pk])
    client = signed_in(staff["surveillance"])
    url = f"/protection/tables/{table.pk}/edges/"
    with CaptureQueriesContext(connection) as unchanged:
        assert client.get(url, {"shoe": "1", "round": "2"}).status_code == 204
    reads = [q for q in unchanged.captured_queries if "protection_edge" in q["sql"]]
    assert len(reads) == 1
    play(table, dealer, [(1, "banker", "25")], ["2C", "2D", "7C", "7D"])
    follow([table.pk])
    fresh = client.get(url, {"shoe": "1", "round": "2"})
    assert fresh.status_code == 200
    assert 'data-round="3"' in fresh.content.decode()


def test_only_surveillance_reads_game_protection(staff: dict[str, User]) -> None:
    for name in ("floor", "pitboss", "clerk", "dealer", "accounting"):
        refused = signed_in(staff[name]).get("/protection/")
        assert refused.status_code == 403
        assert "Only surveillance may watch the tables&#x27; edges" in refused.content.decode()
    assert signed_in(staff["surveillance"]).get("/protection/").status_code == 200


def test_a_shoe_that_is_no_number_is_not_found(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("s42-mini", dealer, floor)
    client = signed_in(staff["surveillance"])
    for shoe in ("0", "-1", "x", "9" * 30, "1\x00"):
        assert client.get(f"/protection/tables/{table.pk}/", {"shoe": shoe}).status_code == 404
    assert client.get("/protection/tables/999999/").status_code == 404


def test_the_floor_page_lists_every_table_with_what_favours_the_players(
    staff: dict[str, User], dealer: User, floor: User
) -> None:
    table = ready_table("ma-mini-ez", dealer, floor)
    strip_rounds(table, dealer, 16)
    follow([table.pk])
    page = signed_in(staff["surveillance"]).get("/protection/").content.decode()
    assert f'href="/protection/tables/{table.pk}/?back=/protection/"' in page
    assert '<b class="theirs">Dragon 7 \u2212' in page
    assert "up to date" in page
    assert "not followed yet" in page  # the demo's other tables
