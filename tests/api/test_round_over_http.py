"""A table's day over HTTP only: open, seat, a shoe from receipt to burn, one round, settlement.

Once with session login (and its CSRF token, as the browser sends it), once with API tokens.
"""

from __future__ import annotations

from decimal import Decimal
from io import StringIO
from typing import Any

from django.core.management import call_command
from rest_framework.test import APIClient

from baccarat.seating import cut_offer_order
from casino.record import verify_chain
from tablegame.models import Round, RoundTally, SettlementStep, WagerTally
from tests.api.conftest import Tablet, table_for


def walk_a_round(dealer: Tablet, floor: Tablet) -> dict[str, Any]:
    """Everything from a closed MB-1 to a settled round; returns the final table state."""
    table = table_for("ma-mini")
    dealer.do(table, "open/")
    for seat in (1, 2, 5):
        dealer.do(table, f"seats/{seat}/sit/", {"player": f"Player {seat}"})
    state = dealer.do(table, "shoe/receive/", {"decks": 8})
    assert state["shoe"]["state"] == "received"
    dealer.do(table, "shoe/inspect/")
    floor.do(table, "shoe/verify/")
    dealer.do(table, "shoe/spread/")
    dealer.do(table, "shoe/wash/")
    steps = ["plug", "riffle", "riffle", "turn", "strip", "cut", "feather"]
    dealer.do(table, "shoe/shuffle/", {"steps": steps})
    floor.do(table, "shoe/verify-shuffle/")
    first = cut_offer_order(table.rules, [1, 2, 5])[0]
    dealer.do(table, "shoe/cut/", {"seat": first, "position": 120, "cover_from_back": 20})
    state = dealer.do(table, "shoe/burn/", {"first_card": "3D"})
    assert state["shoe"]["state"] == "in_play"
    assert state["shoe"]["cards_left"] == 8 * 52 - 1 - 3

    state = dealer.do(table, "round/open/")
    assert state["round"]["expected"] == "Take wagers, then call no more bets."
    dealer.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    dealer.do(table, "round/wagers/", {"seat": 2, "type": "player", "amount": "50.00"})
    dealer.do(table, "round/wagers/", {"seat": 5, "type": "banker", "amount": 37})
    state = dealer.do(table, "round/no-more-bets/")
    assert state["round"]["expected"] == "Player's first card"
    for card in ["4H", "9C", "2S", "KS"]:  # Player 6, Banker natural 9
        state = dealer.do(table, "round/cards/", {"card": card})
    assert state["round"]["expected"] == "Settle the round."
    result: dict[str, Any] = dealer.do(table, "round/settle/")
    return result


def check_settled(state: dict[str, Any]) -> None:
    game = state["round"]
    assert (game["state"], game["winner"]) == ("settled", "banker")
    assert (game["player_total"], game["banker_total"]) == (6, 9)
    assert [(s["action"], s["seat"], s["type"], s["amount"]) for s in game["steps"]] == [
        ("collect", 2, "player", "50.00"),
        ("collect_vigorish", 5, "banker", "2.00"),
        ("pay", 5, "banker", "37.00"),
        ("collect_vigorish", 1, "banker", "5.00"),
        ("pay", 1, "banker", "100.00"),
    ]
    wagers = {(w["seat"], w["type"]): w for w in game["wagers"]}
    assert wagers[(5, "banker")]["amount"] == "37.00"  # a JSON number, kept exact
    assert wagers[(1, "banker")]["vigorish"] == "5.00"
    assert SettlementStep.objects.count() == 5
    assert verify_chain(table_for("ma-mini").chain_id).ok
    # What the command wrote with its record is in the database as the answer says.
    table = table_for("ma-mini")
    stored = Round.objects.get(table=table)
    assert (stored.state, stored.winner, stored.settled_at is not None) == (
        "settled",
        "banker",
        True,
    )
    assert sorted((w.seat, w.type, w.result, str(w.vigorish)) for w in stored.wagers.all()) == [
        (1, "banker", "win", "5.00"),
        (2, "player", "lose", "0.00"),
        (5, "banker", "win", "2.00"),
    ]
    assert stored.shoe.physical_cards_left == state["shoe"]["cards_left"] == 8 * 52 - 4 - 4
    assert RoundTally.objects.get(table=table).rounds == 1
    banker = WagerTally.objects.get(table=table, type="banker")
    assert (banker.n, banker.amount, banker.vigorish) == (2, Decimal("137.00"), Decimal("7.00"))


def session_tablet(username: str) -> Tablet:
    """Logged in through the login page, sending the CSRF token as the page's script does."""
    client = APIClient(enforce_csrf_checks=True)
    page = client.get("/login/")
    token = page.cookies["csrftoken"].value
    response = client.post(
        "/login/",
        {"username": username, "password": "baccarat", "csrfmiddlewaretoken": token},
        format="multipart",
    )
    assert response.status_code == 302
    client.credentials(HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
    return Tablet(client)


def token_tablet(username: str) -> Tablet:
    """With a token issued by the management command."""
    out = StringIO()
    call_command("issue_token", username, stdout=out)
    key = out.getvalue().strip()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return Tablet(client)


def test_a_dealer_plays_a_whole_round_over_http_with_a_session_login(seeded):
    check_settled(walk_a_round(session_tablet("dealer"), session_tablet("floor")))


def test_a_dealer_plays_a_whole_round_over_http_with_an_api_token(seeded):
    check_settled(walk_a_round(token_tablet("dealer"), token_tablet("floor")))


def test_a_session_command_without_its_csrf_token_is_refused(seeded):
    tablet = session_tablet("dealer")
    tablet.client.credentials()  # the CSRF header forgotten
    response = tablet.post(table_for("ma-mini"), "open/")
    assert response.status_code == 403
    assert response.json()["error"].startswith("CSRF Failed")
    assert table_for("ma-mini").status == "closed"
