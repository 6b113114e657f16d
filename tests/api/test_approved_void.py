"""``round/void/`` with a floorperson's username and password: the dealer's tablet voids a round the
shoe could still complete; a wrong password or an approver who is no supervisor changes nothing."""

from __future__ import annotations

from typing import Any

from casino.models import Event
from tablegame.api.approvals import WRONG_APPROVAL
from tablegame.api.voids import BOTH_OR_NEITHER
from tablegame.models import CommandRecord, Round, Table
from tests.api.conftest import Tablet, new_key
from tests.values import present

APPROVED = {"reason": "Shoe damaged", "floorperson": "floor", "password": "baccarat"}


def dealing(tablet: Tablet, table: Table) -> None:
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "tie", "amount": "5"})
    tablet.do(table, "round/no-more-bets/")
    tablet.do(table, "round/cards/", {"card": "4H"})


def voids(table: Table) -> list[dict[str, Any]]:
    return [e.data for e in Event.objects.filter(chain=table.chain_id, action="round_void")]


def unchanged(table: Table) -> bool:
    game = Round.objects.get(table=table)
    return game.state == Round.State.DEALING and not game.steps.exists() and voids(table) == []


def test_the_dealer_voids_mid_shoe_with_the_floorpersons_password_and_every_wager_returns(
    tablet, mini
):
    dealing(tablet, mini)
    state = tablet.do(mini, "round/void/", APPROVED)
    game = state["round"]
    assert (game["state"], game["void_reason"]) == ("void", "Shoe damaged")
    assert [(s["action"], s["seat"], s["type"], s["amount"]) for s in game["steps"]] == [
        ("return", 2, "tie", "5.00"),
        ("return", 1, "banker", "100.00"),
    ]
    assert {w["result"] for w in game["wagers"]} == {"push"}
    (void,) = voids(mini)
    assert void["approved_by"] == "floor"
    event = Event.objects.get(chain=mini.chain_id, action="round_void")
    assert present(event.actor).username == "dealer"
    stored = [f"{c.command} {c.response}" for c in CommandRecord.objects.all()]
    assert not any("baccarat" in text for text in stored)  # the password is kept nowhere


def test_a_wrong_password_is_refused_with_403_and_nothing_changes(tablet, mini):
    dealing(tablet, mini)
    response = tablet.post(mini, "round/void/", APPROVED | {"password": "guess"})
    assert response.status_code == 403
    assert response.json() == {"error": WRONG_APPROVAL}
    unknown = tablet.post(mini, "round/void/", APPROVED | {"floorperson": "nobody"})
    assert (unknown.status_code, unknown.json()["error"]) == (403, WRONG_APPROVAL)
    assert unchanged(mini)


def test_an_approver_who_is_a_dealer_is_refused_as_a_wrong_password_is(tablet, mini):
    dealing(tablet, mini)
    for approver in ("dealer2", "dealer"):  # another dealer, or the dealer themself
        response = tablet.post(mini, "round/void/", APPROVED | {"floorperson": approver})
        assert (response.status_code, response.json()) == (403, {"error": WRONG_APPROVAL})
    assert unchanged(mini)


def test_without_an_approval_the_dealer_is_refused_mid_shoe_as_before(tablet, mini):
    dealing(tablet, mini)
    response = tablet.post(mini, "round/void/", {"reason": "Shoe damaged"})
    assert response.status_code == 409
    assert "void when the shoe runs out" in response.json()["error"]
    half = tablet.post(mini, "round/void/", {"reason": "Shoe damaged", "floorperson": "floor"})
    assert (half.status_code, half.json()["error"]) == (400, BOTH_OR_NEITHER)
    assert unchanged(mini)


def test_the_approved_void_sent_twice_with_one_key_voids_once_and_answers_the_same(tablet, mini):
    dealing(tablet, mini)
    key = new_key()
    first = tablet.post(mini, "round/void/", APPROVED, key=key)
    assert first.status_code == 200
    events = Event.objects.filter(chain=mini.chain_id).count()
    again = tablet.post(mini, "round/void/", APPROVED, key=key)
    assert (again.status_code, again.content) == (200, first.content)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert Event.objects.filter(chain=mini.chain_id).count() == events
    assert len(voids(mini)) == 1
    other = tablet.post(mini, "round/void/", APPROVED | {"floorperson": "pitboss"}, key=key)
    assert other.status_code == 409  # the key names the approver too
    missing = tablet.post(mini, "round/void/", APPROVED, key=None)
    assert missing.status_code == 400
