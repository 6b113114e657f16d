"""Every other command over HTTP reaches its action with the right arguments."""

from __future__ import annotations

from typing import Any

from tablegame.models import Table, TableRules, VigorishMarker, Wager
from tests.api.conftest import Tablet, ready_table, table_for
from tests.tablegame.conftest import deal_at


def steps(state: dict[str, Any]) -> list[tuple[str, int, str | None, str]]:
    return [(s["action"], s["seat"], s["type"], s["amount"]) for s in state["round"]["steps"]]


def deal(tablet: Tablet, table: Table, cards: list[str]) -> dict[str, Any]:
    for card in cards:
        state = tablet.do(table, "round/cards/", {"card": card})
    result: dict[str, Any] = state
    return result


def test_house_money_is_settled_before_third_cards_and_rides_on_the_seat_named(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(mini, "round/wagers/", {"seat": 1, "type": "house_money", "amount": "10"})
    tablet.do(mini, "round/no-more-bets/")
    state = deal(tablet, mini, ["2H", "3C", "2S", "KD"])  # Player pair of twos
    assert state["round"]["state"] == "house_money"
    tablet.do(mini, "round/house-money/", {"rides": {"1": "banker"}})
    deal(tablet, mini, ["5D", "4C"])
    state = tablet.do(mini, "round/settle/")
    assert steps(state)[0] == ("ride", 1, "banker", "30.00")
    assert ("collect", 1, "banker", "130.00") in steps(state)


def test_rides_keyed_by_something_other_than_a_seat_are_refused_with_400(tablet, mini):
    response = tablet.post(mini, "round/house-money/", {"rides": {"first": "banker"}})
    assert response.status_code == 400
    assert response.json()["error"] == 'rides: Key the rides by seat number, e.g. "1".'


def test_a_wager_is_withdrawn_and_a_round_voided_with_every_wager_returned(
    tablet, tablet_for, mini
):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(mini, "round/wagers/", {"seat": 2, "type": "tie", "amount": "5"})
    state = tablet.do(mini, "round/wagers/withdraw/", {"seat": 2, "type": "tie"})
    assert [(w["seat"], w["type"]) for w in state["round"]["wagers"]] == [(1, "banker")]
    tablet.do(mini, "round/no-more-bets/")
    deal(tablet, mini, ["4H"])
    refused = tablet.post(mini, "round/void/", {"reason": "Shoe ran out"})
    assert refused.status_code == 409
    assert "void when the shoe runs out" in refused.json()["error"]
    state = tablet_for("floor").do(mini, "round/void/", {"reason": "Shoe damaged"})
    assert (state["round"]["state"], state["round"]["void_reason"]) == ("void", "Shoe damaged")
    assert steps(state) == [("return", 1, "banker", "100.00")]


def test_a_player_leaving_while_wagers_are_open_takes_their_wagers_with_them(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(mini, "round/wagers/", {"seat": 5, "type": "player", "amount": "50"})
    tablet.do(mini, "round/wagers/", {"seat": 5, "type": "tie", "amount": "5"})
    state = tablet.do(mini, "seats/5/leave/")
    assert [(w["seat"], w["type"]) for w in state["round"]["wagers"]] == [(1, "banker")]
    assert list(Wager.objects.filter(round__table=mini).values_list("seat", flat=True)) == [1]
    refused = tablet.post(mini, "round/wagers/withdraw/", {"seat": 5, "type": "tie"})
    assert (refused.status_code, refused.json()["error"]) == (409, "Seat 5 has no tie wager.")


def test_an_irregularity_is_reported_and_the_card_goes_where_the_rules_say(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/no-more-bets/")
    deal(tablet, mini, ["6H", "2C", "KS", "3D"])  # Player 6 stands, Banker 5 draws
    body = {"kind": "unauthorized_player_third", "card": "4S", "disclosed": True}
    state = tablet.do(mini, "round/irregularities/", body)
    game = state["round"]
    assert (game["state"], game["player_total"], game["banker_total"]) == ("complete", 6, 9)
    assert game["irregularities"][0]["kind"] == "unauthorized_player_third"


def test_vigorish_markers_are_collected_or_turned_into_a_form_request(
    tablet, tablet_for, dealer, floor
):
    table = ready_table("ma-mini", dealer, floor, options={"vigorish_collection": "deferred"})
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "banker", "amount": "100"})
    tablet.do(table, "round/wagers/", {"seat": 5, "type": "banker", "amount": "40"})
    tablet.do(table, "round/no-more-bets/")
    deal(tablet, table, ["4H", "9C", "2S", "KS"])
    state = tablet.do(table, "round/settle/")
    by_seat = {m["seat"]: m for m in state["markers"]}
    assert (by_seat[2]["amount"], by_seat[5]["amount"]) == ("5.00", "2.00")
    # A round that marks nothing leaves the markers as they stand (``tablet.do`` checks the
    # tablet's state, its answer put in place, against the whole state).
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "banker", "amount": "100"})
    tablet.do(table, "round/no-more-bets/")
    deal(tablet, table, ["9H", "2C", "KD", "3S"])  # Player 9, Banker 5: Banker loses
    state = tablet.do(table, "round/settle/")
    assert {m["seat"]: m["amount"] for m in state["markers"]} == {2: "5.00", 5: "2.00"}
    state = tablet.do(table, f"markers/{by_seat[2]['id']}/collect/")
    state = tablet.do(table, f"markers/{by_seat[5]['id']}/form/", {"reason": "Left in a hurry"})
    assert state["markers"] == []
    assert VigorishMarker.objects.get(pk=by_seat[5]["id"]).reason == "Left in a hurry"
    response = tablet.post(table, f"markers/{by_seat[2]['id']}/collect/")
    assert (response.status_code, response.json()["error"]) == (
        409,
        "The marker at seat 2 is already collected.",
    )


def test_the_floor_files_rules_and_limits_and_the_dealer_clears_a_seat(tablet, tablet_for, mini):
    floor = tablet_for("floor")
    body = {"profile": "ma-mini", "options": {"vigorish_collection": "deferred"}}
    state = floor.do(mini, "rules/", body)
    assert state["rules"]["vigorish_collection"] == "deferred"
    assert TableRules.objects.filter(table=mini).count() == 2
    body = {"wager": "tie", "minimum": "10", "maximum": "250.50"}
    state = floor.do(mini, "limits/", body)
    assert state["limits"]["tie"] == {"minimum": "10.00", "maximum": "250.50"}
    state = tablet.do(mini, "seats/5/leave/")
    assert {s["number"]: s["player"] for s in state["seats"]}[5] is None


def test_the_cut_card_comes_out_the_shoe_ends_and_the_table_closes(tablet, mini):
    tablet.do(mini, "round/open/")
    state = tablet.do(mini, "shoe/cut-card/")
    assert state["shoe"]["cut_card_round"] == 1
    for cards in (["9H", "2C", "KS", "3D"], ["8H", "2C", "KS", "3D"]):
        if state["round"]["state"] == "settled":
            tablet.do(mini, "round/open/")
        tablet.do(mini, "round/no-more-bets/")
        deal(tablet, mini, cards)
        state = tablet.do(mini, "round/settle/")
    assert state["shoe"]["call"] == "shoe_over"
    response = tablet.post(mini, "round/open/")
    assert response.json() == {"error": "The last hand has been dealt: end the shoe and reshuffle."}
    state = tablet.do(mini, "shoe/end/")
    assert state["shoe"] is None
    state = tablet.do(mini, "close/")
    assert state["table"]["status"] == "closed"


def test_a_floorperson_orders_a_recut_and_the_shoe_is_cut_again(tablet, tablet_for, dealer):
    table = table_for("ma-mini")
    tablet.do(table, "open/")
    tablet.do(table, "seats/1/sit/", {"player": "Ann"})
    tablet.do(table, "shoe/receive/", {"decks": 8, "preinspected": True})
    cut = {"seat": 1, "position": 120, "cover_from_back": 20}
    tablet.do(table, "shoe/cut/", cut)
    state = tablet_for("floor").do(table, "shoe/recut/", {"reason": "Cut card showing"})
    assert state["shoe"]["state"] == "shuffled"
    response = tablet.post(table, "shoe/cut/", cut)
    assert response.json() == {"error": "Seat 1 is not offered the cut."}  # nobody else sits
    state = tablet.do(table, "shoe/cut/", {**cut, "seat": None})
    assert state["shoe"]["state"] == "cut"


def test_the_big_table_shoe_is_passed_and_offered_in_order(tablet, dealer, floor):
    table = ready_table("ma-big", dealer, floor, seats=(1, 3, 10))
    state = tablet.do(table, "curator/pass/", {"ordered": True})
    assert state["table"]["curator_seat"] is None
    response = tablet.post(table, "curator/", {"seat": 10})
    assert (response.status_code, response.json()["error"]) == (
        409,
        "Offer the shoe to seat 3 first.",
    )
    state = tablet.do(table, "curator/", {"seat": 10, "declined": [3]})
    assert state["table"]["curator_seat"] == 10


def test_the_california_player_dealer_takes_the_position_and_sets_a_bank(tablet, dealer, floor):
    table = deal_at(table_for("ca-commission-free"), dealer, floor)
    tablet.do(table, "open/")
    for seat in (1, 2, 4):
        tablet.do(table, f"seats/{seat}/sit/", {"player": f"P{seat}"})
    state = tablet.do(table, "player-dealer/", {"seat": 4})
    assert state["table"]["player_dealer_seat"] == 4
    tablet.do(table, "shoe/receive/", {"decks": 8, "preinspected": True})
    cut = {"seat": None, "declined": [4, 2, 1], "position": 100, "cover_from_back": 20}
    tablet.do(table, "shoe/cut/", cut)
    tablet.do(table, "shoe/burn/", {"first_card": "KD"})
    tablet.do(table, "round/open/")
    state = tablet.do(table, "round/player-dealer-bank/", {"bank": "100"})
    assert state["round"]["player_dealer_bank"] == "100.00"


def test_royal_9_meters_move_on_the_tablet_as_the_settlement_feeds_and_pays_them(
    tablet, dealer, floor
):
    table = ready_table("ma-big", dealer, floor, seats=(1, 2))
    tablet.do(table, "round/open/")
    tablet.do(table, "round/wagers/", {"seat": 1, "type": "royal9", "amount": "5"})
    tablet.do(table, "round/wagers/", {"seat": 2, "type": "royal9", "amount": "5"})
    tablet.do(table, "round/no-more-bets/")
    deal(tablet, table, ["2H", "KC", "3S", "9D"])  # seat 1's Personal King-9, to the Banker
    state = tablet.do(table, "round/settle/")  # checked against the whole state, meters too
    assert state["meters"]["spade"] == "450.00"  # paid in full, reseeded
    assert state["meters"]["star"] == "50000.60"
