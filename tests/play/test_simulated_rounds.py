"""A simulated round (a card found face up, 000 §13(c)(2), (d)) as the tablet deals it over the
API: each answer is what the table then shows, whichever of the two rounds ends first; at a
California table it pays and collects nothing, not even the player-dealer's fee. Found by the
tablet's state machine (``tests/commands``)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tablegame import actions
from tablegame.models import Round, SettlementStep, Table
from tests.api.conftest import Tablet
from tests.tablegame.conftest import dealer, floor, ready_table, staff

__all__ = ["dealer", "floor", "staff"]

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]


def tablet_of(user: User) -> Tablet:
    client = APIClient()
    client.force_login(user)
    return Tablet(client)


def interrupted(table: Table, tablet: Tablet, first: str) -> None:
    """A round open with a Banker wager at seat 1, its first card dealt, then a card found face
    up: the simulated round starts with it."""
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    tablet.do(table, "round/cards/", {"card": first})
    tablet.do(table, "round/irregularities/", {"kind": "card_face_up", "card": "7C"})


def test_the_round_a_simulated_round_interrupted_is_shown_once_settled_after_it(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    tablet = tablet_of(dealer)
    interrupted(table, tablet, "9H")
    for card in ["2C", "KS", "3D", "4D"]:  # the simulated round: P 7C KS, B 2C 3D 4D
        tablet.do(table, "round/cards/", {"card": card})
    resumed = tablet.do(table, "round/settle/")  # checked against a fresh read by ``do``
    assert resumed["round"]["simulated"] is False and resumed["round"]["number"] == 1
    for card in ["2S", "KC", "3H"]:  # the real round goes on: P 9H KC, B 2S 3H
        tablet.do(table, "round/cards/", {"card": card})
    settled = tablet.do(table, "round/settle/")
    # The real round, settled after the simulated one numbered after it, is the one shown.
    assert (settled["round"]["number"], settled["round"]["state"]) == (1, "settled")
    assert [w["result"] for w in settled["round"]["wagers"]] == ["lose"]


def test_a_simulated_round_voided_answers_with_the_round_it_interrupted(dealer, floor):
    table = ready_table("ma-mini", dealer, floor)
    tablet = tablet_of(dealer)
    interrupted(table, tablet, "9H")
    approved = {"reason": "the floor decides", "floorperson": "floor", "password": "baccarat"}
    answer = tablet.post(table, "round/void/", approved)
    assert answer.status_code == 200, answer.content
    kept = tablet.state(table)
    assert answer.json()["round"] == kept["round"]
    assert (kept["round"]["number"], kept["round"]["state"]) == (1, "dealing")


def test_a_simulated_round_at_a_california_table_pays_and_collects_nothing(dealer, floor):
    table = ready_table("ca-commission-free", dealer, floor)
    actions.take_player_dealer(table, seat=2, actor=dealer)
    tablet = tablet_of(dealer)
    tablet.do(table, "round/open/")
    tablet.do(table, "round/player-dealer-bank/", {"bank": "100"})
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "50"})
    tablet.do(table, "round/no-more-bets/")
    tablet.do(table, "round/cards/", {"card": "9H"})
    tablet.do(table, "round/irregularities/", {"kind": "card_face_up", "card": "7C"})
    for card in ["2C", "KS", "3D", "4D"]:
        tablet.do(table, "round/cards/", {"card": card})
    tablet.do(table, "round/settle/")
    simulated = Round.objects.get(table=table, simulated=True)
    assert simulated.state == "settled"
    assert not SettlementStep.objects.filter(round=simulated).exists()  # no fee, nothing paid
