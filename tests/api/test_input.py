"""Malformed input is refused with 400, a readable error and the messages by field."""

from __future__ import annotations

from tablegame.models import TableRules


def test_a_malformed_card_is_refused_with_400_naming_the_field(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/no-more-bets/")
    response = tablet.post(mini, "round/cards/", {"card": "1S"})
    assert response.status_code == 400
    message = (
        "'1S' is not a card: write the rank (A, 2-9, T or 10, J, Q, K) then the suit "
        "(C, D, H, S), for example KH or 10D"
    )
    assert response.json() == {"error": f"card: {message}", "fields": {"card": [message]}}
    assert tablet.state(mini)["round"]["cards"] == []


def test_a_missing_field_is_refused_with_400(tablet, mini):
    response = tablet.post(mini, "round/cards/", {})
    assert response.status_code == 400
    assert response.json()["error"] == "card: This field is required."


def test_a_seat_asked_for_nobody_is_refused_in_words(tablet, mini):
    response = tablet.post(mini, "seats/3/sit/", {})
    assert response.status_code == 409
    assert response.json()["error"] == (
        "Give the player's name (or a description) or their card number."
    )


def test_an_amount_with_a_fraction_of_a_cent_is_refused_with_400(tablet, mini):
    tablet.do(mini, "round/open/")
    response = tablet.post(
        mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100.005"}
    )
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "amount": ["Ensure that there are no more than 2 decimal places."]
    }


def test_an_amount_sent_as_a_json_number_stays_exact(tablet, mini):
    tablet.do(mini, "round/open/")
    body = b'{"seat": 1, "type": "banker", "amount": 1234.10}'
    response = tablet.client.post(
        f"/api/tables/{mini.pk}/round/wagers/",
        body,
        content_type="application/json",
        headers={"Idempotency-Key": "exact"},
    )
    assert response.status_code == 200
    assert response.json()["round"]["wagers"][0]["amount"] == "1234.10"


def test_a_wager_type_that_does_not_exist_is_refused_with_400(tablet, mini):
    tablet.do(mini, "round/open/")
    response = tablet.post(mini, "round/wagers/", {"seat": 1, "type": "jackpot", "amount": "5"})
    assert response.status_code == 400
    assert response.json()["error"] == 'type: "jackpot" is not a valid choice.'


def test_a_body_that_is_not_json_is_refused_with_400(tablet, mini):
    response = tablet.client.post(
        f"/api/tables/{mini.pk}/seats/3/sit/", b"{player:", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.json()["error"].startswith("The body is not valid JSON")


def test_a_table_that_does_not_exist_is_404(tablet):
    assert tablet.client.get("/api/tables/999999/").json() == {"error": "There is no table 999999."}
    response = tablet.client.post("/api/tables/999999/open/", {}, format="json")
    assert (response.status_code, response.json()) == (404, {"error": "There is no table 999999."})


def test_a_decimal_rules_option_sent_as_a_json_number_is_filed_as_a_string(tablet_for, mini):
    floor = tablet_for("floor")
    body = {"profile": "ma-mini", "options": {"vigorish_rounding": 0.05}}
    response = floor.post(mini, "rules/", body)
    assert response.status_code == 200, response.content
    assert TableRules.objects.filter(table=mini).latest("pk").options == {
        "vigorish_rounding": "0.05"
    }


def test_get_is_the_only_method_of_a_table_and_post_of_a_command(tablet, mini):
    response = tablet.client.get(f"/api/tables/{mini.pk}/open/")
    assert response.status_code == 405
    assert response.json() == {"error": 'Method "GET" not allowed.'}
