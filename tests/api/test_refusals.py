"""A refused command answers 4xx with the action's own message, and the table is as it was."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from casino.models import Event
from tablegame import actions
from tablegame.actions.dealers import relieve_dealer
from tablegame.models import Table
from tablegame.snapshots import table_state_text
from tests.api.conftest import Tablet, table_for


def refused(
    tablet: Tablet, table: Table, route: str, body: dict[str, Any] | None = None
) -> tuple[int, str]:
    """POST the command; check that the state (and the event record) did not change (the state
    as the server keeps it: a dealer at a table not theirs may not read it)."""
    before, events = _state(table), Event.objects.filter(chain__table=table).count()
    response = tablet.post(table, route, body)
    assert _state(table) == before
    assert Event.objects.filter(chain__table=table).count() == events
    assert set(response.json()) == {"error"}
    return response.status_code, response.json()["error"]


def _state(table: Table) -> object:
    text = table_state_text(table.pk)
    assert text is not None
    return json.loads(text)


def in_dealing(tablet: Tablet, table: Table) -> None:
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")


def test_it_refuses_a_wager_after_no_more_bets(tablet, mini):
    in_dealing(tablet, mini)
    status, error = refused(
        tablet, mini, "round/wagers/", {"seat": 2, "type": "player", "amount": "100"}
    )
    assert (status, error) == (
        409,
        "No more bets: a wager may not be made, raised or withdrawn now.",
    )


def test_it_refuses_a_bet_over_the_table_limit(tablet, mini):
    tablet.do(mini, "round/open/")
    body = {"seat": 1, "type": "banker", "amount": "5000.01"}
    status, error = refused(tablet, mini, "round/wagers/", body)
    assert (status, error) == (409, "The Banker maximum is $5000.00; $5000.01 is over it.")


def test_it_refuses_a_card_the_shoe_cannot_hold(tablet, mini):
    shoe = mini.current_shoe()
    shoe.remaining["AS"] = 0
    shoe.save(update_fields=["remaining"])
    in_dealing(tablet, mini)
    status, error = refused(tablet, mini, "round/cards/", {"card": "AS"})
    assert status == 409
    assert error.startswith("There is no A♠ left in this shoe")


def test_it_refuses_a_card_when_the_coup_is_complete(tablet, mini):
    in_dealing(tablet, mini)
    for card in ["2H", "3C", "3S", "KS", "8D"]:  # Player draws an 8; Banker 3 stands on an 8
        state = tablet.do(mini, "round/cards/", {"card": card})
    assert state["round"]["state"] == "complete"
    status, error = refused(tablet, mini, "round/cards/", {"card": "4D"})
    assert (status, error) == (409, "The coup is complete: no card is due.")


def test_it_refuses_a_card_before_no_more_bets(tablet, mini):
    tablet.do(mini, "round/open/")
    status, error = refused(tablet, mini, "round/cards/", {"card": "4D"})
    assert (status, error) == (409, 'Call "no more bets" before dealing.')


def test_it_refuses_to_settle_a_coup_that_is_not_complete(tablet, mini):
    in_dealing(tablet, mini)
    tablet.do(mini, "round/cards/", {"card": "2H"})
    status, error = refused(tablet, mini, "round/settle/")
    assert (status, error) == (
        409,
        "The coup is not complete: deal the cards the rules call for.",
    )


def test_only_a_floorperson_verifies_the_inspection_and_a_dealer_gets_403(tablet, dealer):
    table = table_for("ma-mini")
    actions.open_table(table, actor=dealer)
    actions.receive_decks(table, decks=8, actor=dealer)
    actions.inspect_decks(table, actor=dealer)
    status, error = refused(tablet, table, "shoe/verify/")
    assert (status, error) == (403, "Only a floorperson or pit boss may verify a deck inspection.")


@pytest.mark.parametrize("username", ["surveillance", "clerk", "accounting"])
def test_staff_away_from_the_table_may_read_it_but_not_change_it(tablet_for, mini, username):
    tablet = tablet_for(username)
    assert tablet.state(mini)["table"]["status"] == "open"
    status, error = refused(tablet, mini, "round/open/")
    assert (status, error) == (403, "Only a dealer or floorperson or pit boss may open a round.")


def test_a_request_without_login_is_refused_with_401_and_says_how_to_log_in(seeded):
    table = table_for("ma-mini")
    client = APIClient()
    for response in (
        client.get(f"/api/tables/{table.pk}/"),
        client.post(f"/api/tables/{table.pk}/open/"),
        client.get("/api/tables/"),
    ):
        assert response.status_code == 401
        assert response.headers["WWW-Authenticate"] == "Token"
        assert response.json() == {
            "error": "Log in, or send your API token as the header 'Authorization: Token <key>'."
        }
    assert table_for("ma-mini").status == "closed"


def test_a_wrong_token_is_refused_with_401(seeded):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/tables/")
    assert response.status_code == 401
    assert response.json() == {"error": "Invalid token."}


def test_a_dealer_at_a_table_not_theirs_is_refused_with_403_and_told_where_they_deal(
    tablet, tablet_for, mini, floor
):
    other = table_for("s42-mini")  # MB-3: the demo's dealer3 deals it
    status, error = refused(tablet, other, "open/")
    assert (status, error) == (
        403,
        "You are assigned to MB-1: a dealer acts only at their own table.",
    )
    relieve_dealer(other, actor=floor)  # dealer3 is on a break: assigned nowhere
    status, error = refused(tablet_for("dealer3"), mini, "round/open/")
    assert (status, error) == (
        403,
        "dealer deals this table: ask the floor to assign you here first.",
    )
    status, error = refused(tablet_for("dealer3"), other, "open/")
    assert (status, error) == (
        403,
        "The floor has not assigned you to this table: ask a floorperson.",
    )
    tablet.do(mini, "round/open/")  # at their own table, the dealer deals
