"""One round as JSON in, its settlement as JSON out (``settle_round``), and its refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from baccarat.errors import RulesError
from baccarat.roundjson import settle_round

ISSUE_EXAMPLE = {
    "profile": "ma-mini-ez",
    "player": ["2H", "3S", "KD"],
    "banker": ["3C", "KS", "4H"],
    "wagers": [{"seat": 1, "type": "banker", "amount": "100"}],
}


def round_with(**changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(ISSUE_EXAMPLE))
    data.update(changes)
    result: dict[str, Any] = data
    return result


def test_the_issue_example_is_a_dragon_7_and_the_banker_wager_pushes() -> None:
    out = settle_round(ISSUE_EXAMPLE)
    assert out["player_total"] == 5
    assert out["banker_total"] == 7
    assert out["winner"] == "banker"
    assert out["tags"] == ["dragon7"]
    assert out["wagers"] == [
        {
            "seat": 1,
            "type": "banker",
            "amount": "100.00",
            "outcome": "push",
            "payout": "0.00",
            "vigorish": "0.00",
        }
    ]
    assert out["order"] == [
        {"phase": "round", "action": "return", "seat": 1, "type": "banker", "amount": "100.00"}
    ]
    assert out["player"] == ["2H", "3S", "KD"] and out["banker"] == ["3C", "KS", "4H"]


def test_the_output_is_plain_json() -> None:
    out = settle_round(ISSUE_EXAMPLE)
    assert json.loads(json.dumps(out)) == out


def test_the_same_round_at_a_commission_table_pays_the_banker_less_5_percent() -> None:
    out = settle_round(round_with(profile="ma-mini"))
    assert out["wagers"][0] == {
        "seat": 1,
        "type": "banker",
        "amount": "100.00",
        "outcome": "win",
        "payout": "100.00",
        "vigorish": "5.00",
    }
    assert [(o["action"], o["amount"]) for o in out["order"]] == [
        ("collect_vigorish", "5.00"),
        ("pay", "100.00"),
    ]


def test_options_override_the_profile_and_a_house_money_payout_rides() -> None:
    data = {
        "profile": "ma-mini",
        "options": {"house_money_ride_portion": "0.5"},
        "player": ["4C", "4D"],
        "banker": ["2H", "5S"],
        "wagers": [
            {"seat": 2, "type": "house_money", "amount": "10", "ride": "player"},
            {"seat": 2, "type": "player", "amount": "25"},
        ],
    }
    out = settle_round(data)
    hm, player = out["wagers"]
    assert (hm["type"], hm["outcome"], hm["payout"], hm["ridden"]) == (
        "house_money",
        "win",
        "30.00",
        "15.00",
    )
    assert (player["amount"], player["outcome"], player["payout"]) == ("40.00", "win", "40.00")
    assert [(o["phase"], o["action"], o["type"], o["amount"]) for o in out["order"]] == [
        ("house_money", "pay", "house_money", "15.00"),
        ("house_money", "ride", "player", "15.00"),
        ("round", "pay", "player", "40.00"),
    ]


def test_a_california_round_reports_fees_coverage_and_the_player_dealers_net() -> None:
    data = {
        "profile": "ca-commission-free",
        "player": ["2C", "3D", "TC"],
        "banker": ["KH", "6S"],
        "player_dealer": {"seat": 5, "bank": "100"},
        "wagers": [
            {"seat": 2, "type": "player", "amount": "20"},
            {"seat": 4, "type": "banker", "amount": "100"},
            {"seat": 3, "type": "banker", "amount": "150"},
        ],
    }
    out = settle_round(data)
    assert out["player_dealer_net"] == "-100.00"
    seat3 = next(w for w in out["wagers"] if w["seat"] == 3)
    assert (seat3["payout"], seat3["returned"], seat3["fee"]) == ("70.00", "10.00", "1.00")
    assert out["order"][0] == {
        "phase": "fees",
        "action": "collect_fee",
        "seat": 5,
        "type": None,
        "amount": "1.00",
    }


def test_a_royal_9_award_is_named_and_paid_from_the_given_meter() -> None:
    data = {
        "profile": "ma-big",
        "player": ["KD", "9C"],  # chair 4's Personal King-9 on both hands
        "banker": ["9C", "KD"],
        "wagers": [{"seat": 4, "type": "royal9", "amount": "5"}],
        "progressives": {"star": "61234.56"},
    }
    (row,) = settle_round(data)["wagers"]
    assert (row["outcome"], row["payout"], row["award"]) == (
        "win",
        "61234.56",
        "personal_vs_personal",
    )


# --- refusals -------------------------------------------------------------------------------------


def test_an_illegal_sequence_of_cards_is_refused_with_the_reason() -> None:
    # Player 5 must draw: the Player's third card is missing
    with pytest.raises(RulesError, match="Player's hand must draw on 5"):
        settle_round(round_with(player=["2H", "3S"], banker=["3C", "KS"]))
    # Banker has a Natural 9: the Player may not draw
    with pytest.raises(RulesError, match="Natural"):
        settle_round(round_with(player=["2H", "3S", "KD"], banker=["4C", "5S"]))
    # no hand takes a fourth card
    with pytest.raises(RulesError, match="fourth"):
        settle_round(round_with(player=["2H", "3S", "KD", "AC"]))
    with pytest.raises(RulesError, match="two initial cards"):
        settle_round(round_with(player=["2H"]))


@pytest.mark.parametrize("card", ["ZZ", "11H", "1S", "KX", "", "K"])
def test_an_unknown_card_is_refused_naming_it(card: str) -> None:
    with pytest.raises(RulesError, match=f"'{card}' is not a card"):
        settle_round(round_with(player=[card, "3S", "KD"]))


def test_an_unknown_profile_is_refused_listing_the_known_ones() -> None:
    with pytest.raises(RulesError, match=r"Unknown rules profile 'vegas'.*ma-mini"):
        settle_round(round_with(profile="vegas"))


def test_a_wager_the_profile_does_not_offer_is_refused() -> None:
    data = round_with(wagers=[{"seat": 1, "type": "royal9", "amount": "5"}])
    with pytest.raises(RulesError, match="does not offer the Royal 9"):
        settle_round(data)


def test_an_unknown_wager_type_is_refused_listing_the_known_ones() -> None:
    data = round_with(wagers=[{"seat": 1, "type": "big", "amount": "5"}])
    with pytest.raises(RulesError, match=r"Wager 1: 'big' is not a wager type.*banker"):
        settle_round(data)


@pytest.mark.parametrize("amount", ["0", "-5", 0, -1, "0.00"])
def test_a_non_positive_amount_is_refused(amount: Any) -> None:
    data = round_with(wagers=[{"seat": 1, "type": "banker", "amount": amount}])
    with pytest.raises(RulesError, match="more than zero"):
        settle_round(data)


@pytest.mark.parametrize(
    "amount", ["ten", "1.005", "NaN", "sNaN", "Infinity", None, [5], "1e30", "1" + "0" * 39]
)
def test_an_amount_that_is_not_dollars_and_cents_is_refused(amount: Any) -> None:
    data = round_with(wagers=[{"seat": 1, "type": "banker", "amount": amount}])
    with pytest.raises(RulesError):
        settle_round(data)


@pytest.mark.parametrize(
    ("missing", "message"),
    [
        ("profile", "'profile' is required"),
        ("player", "'player' is required and must be a list"),
        ("banker", "'banker' is required and must be a list"),
        ("wagers", "'wagers' is required and must be a list"),
    ],
)
def test_a_missing_field_is_refused_by_name(missing: str, message: str) -> None:
    data = round_with()
    del data[missing]
    with pytest.raises(RulesError, match=message):
        settle_round(data)


@pytest.mark.parametrize(
    ("field", "message"), [("seat", "Wager 1 needs a seat"), ("type", "Wager 1: 'None'")]
)
def test_a_wager_missing_its_seat_or_type_is_refused_naming_the_wager(
    field: str, message: str
) -> None:
    row = {"seat": 1, "type": "banker", "amount": "100"}
    del row[field]
    with pytest.raises(RulesError, match=message):
        settle_round(round_with(wagers=[row]))


def test_a_wager_missing_its_amount_is_refused_naming_the_wager() -> None:
    with pytest.raises(RulesError, match=r"Wager 1 .*amount"):
        settle_round(round_with(wagers=[{"seat": 1, "type": "banker"}]))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([ISSUE_EXAMPLE], "must be a JSON object"),
        ("ma-mini-ez", "must be a JSON object"),
        (None, "must be a JSON object"),
        (round_with(profile=7), "'profile' is required and must be a name"),
        (round_with(player="2H 3S KD"), "'player' is required and must be a list"),
        (round_with(banker={"cards": []}), "'banker' is required and must be a list"),
        (round_with(player=[2, 3, 10]), "card codes"),
        (round_with(wagers={"seat": 1}), "'wagers' is required and must be a list"),
        (round_with(wagers=["banker"]), "Wager 1 must be an object"),
        (
            round_with(wagers=[{"seat": "1", "type": "banker", "amount": "5"}]),
            "Wager 1 needs a seat",
        ),
        (round_with(wagers=[{"seat": True, "type": "banker", "amount": "5"}]), "needs a seat"),
        (round_with(player_dealer="seat 3"), "'player_dealer' must give the seat and the bank"),
        (round_with(options={"decks": "many"}), "not a valid value for the option 'decks'"),
        (round_with(options={"colour": "red"}), "'colour' is not an option"),
        (round_with(options={"name": "x"}), "'name' is not an option"),
    ],
)
def test_bad_json_shapes_are_refused_with_a_clear_message(data: Any, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        settle_round(data)


def test_options_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(RulesError):
        settle_round(round_with(options=["house_money_ride_portion", "0.5"]))


def test_progressives_that_are_not_an_object_are_refused() -> None:
    with pytest.raises(RulesError):
        settle_round(round_with(progressives=["star", "60000"]))


def test_a_player_dealer_at_a_table_without_one_is_refused() -> None:
    with pytest.raises(RulesError, match="no player-dealer position"):
        settle_round(round_with(player_dealer={"seat": 3, "bank": "100"}))


def test_a_california_round_without_a_player_dealer_is_refused() -> None:
    data = round_with(profile="ca-commission-free")
    with pytest.raises(RulesError, match="needs a player-dealer"):
        settle_round(data)
