"""The pit console: every table live, what needs a supervisor, bounded queries."""

from __future__ import annotations

import pytest

from tablegame import actions
from tests.clients import logged_in
from tests.pages_floor.shown import shown_text
from tests.tablegame.conftest import ready_table, table_for


def test_the_console_lists_every_table_of_the_pit(db, staff):
    page = logged_in("floor").get("/floor/")
    assert page.status_code == 200
    for name in ("MB-1", "MB-8", "BB-1", "BB-2"):
        assert name in page.content.decode()


@pytest.mark.parametrize(
    ("username", "status"),
    [("dealer", 403), ("surveillance", 403), ("pitboss", 200), ("clerk", 200)],
)
def test_only_the_pit_staff_see_the_console(db, staff, username, status):
    assert logged_in(username).get("/floor/").status_code == status


def test_an_inspection_waiting_for_verification_is_shown_with_its_button(db, dealer, floor):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    assert "Verify the deck inspection" not in shown_text(
        logged_in("floor").get(f"/floor/tables/{table.pk}/tile/").content.decode()
    )
    actions.inspect_decks(table, actor=dealer)
    html = logged_in("floor").get(f"/floor/tables/{table.pk}/tile/").content.decode()
    assert "Verify the deck inspection" in shown_text(html)
    assert "<html" not in html and html.count('class="tile') == 1  # the one tile the page swaps in


def test_open_markers_and_the_cut_card_raise_alerts(db, dealer, floor):
    table = ready_table("ma-mini", dealer, floor, options={"vigorish_collection": "deferred"})
    from tests.tablegame.conftest import play

    play(table, dealer, [(2, "banker", "100")], ["4H", "9C", "2S", "KS"])
    actions.cut_card_out(table, actor=dealer)
    html = shown_text(logged_in("floor").get("/floor/").content.decode())
    assert "1 vigorish marker(s) open" in html
    assert "Cut card out in round 2" in html


def test_the_console_query_count_does_not_grow_with_tables(
    db, dealer, floor, django_assert_max_num_queries
):
    for profile in ("ma-mini", "s42-mini", "ma-big"):
        ready_table(profile, dealer, floor, seats=(1, 2))
    client = logged_in("floor")
    with django_assert_max_num_queries(12):
        client.get("/floor/")
