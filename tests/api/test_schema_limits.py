"""The schema says what the API enforces: each pattern and range refuses what the input refuses
and allows what it takes, and each command lists every status it can answer."""

from __future__ import annotations

import re
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from rest_framework import serializers
from rest_framework.test import APIClient

from tablegame.api.schema import CARD, MONEY, NOT_BLANK, TEXT
from tablegame.api.serializers import MOST_SEATS, CardInput, HouseMoneyInput, SitInput, WagerInput
from tablegame.api.voids import VoidInput
from tests.api.conftest import command_views


@pytest.fixture
def schema(seeded: str) -> Any:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return response.json()


def takes(serializer: type[serializers.Serializer[Any]], **body: Any) -> bool:
    return serializer(data=body).is_valid()


def documents(pattern: str, text: str) -> bool:
    return re.search(pattern, text) is not None


@pytest.mark.parametrize(
    "amount",
    ["100", "100.00", "0.01", ".5", "9999999999.99", " 25 ", "+5", "5.", "5.100", "007.50"],
)
def test_an_amount_the_wager_takes_is_one_the_schema_allows(amount):
    assert takes(WagerInput, seat=1, type="banker", amount=amount)
    assert documents(MONEY, amount)


@pytest.mark.parametrize(
    "amount",
    ["0", "0.00", "-5", "0.001", "5.555", "10000000000", "", " ", "-", "five", "NaN", "1,000"],
)
def test_an_amount_the_wager_refuses_is_one_the_schema_refuses(amount):
    assert not takes(WagerInput, seat=1, type="banker", amount=amount)
    assert not documents(MONEY, amount)


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"]


def test_every_card_code_the_input_takes_is_one_the_schema_allows():
    for rank in RANKS:
        for suit in "CDHS":
            for code in (rank + suit, (rank + suit).lower(), f" {rank}{suit}\t"):
                assert takes(CardInput, card=code), code
                assert documents(CARD, code), code


@pytest.mark.parametrize("code", ["", "1H", "11H", "KX", "K", "H", "KHH", "0S", "K H", "KH\x00"])
def test_a_card_code_the_input_refuses_is_one_the_schema_refuses(code):
    assert not documents(CARD, code)
    if "\x00" not in code:  # a NUL is refused by the body's parser, before the input
        assert not takes(CardInput, card=code)


@pytest.mark.parametrize("name", ["", " ", "\t\n", "\x1c", "\u3000"])
def test_a_blank_name_is_taken_as_the_schema_says_for_a_card_may_name_the_player(name):
    assert takes(SitInput, player=name, card="12345")
    assert takes(SitInput, card="12345")
    assert documents(TEXT, name)
    assert not documents(NOT_BLANK, name)


def test_text_with_a_nul_is_refused_by_the_schema():
    assert documents(TEXT, "Red scarf")
    assert not documents(TEXT, "Red\x00scarf")
    assert documents(NOT_BLANK, " Red scarf ")


def test_rides_are_keyed_by_the_seats_the_schema_lists(schema):
    rides = schema["components"]["schemas"]["HouseMoneyInput"]["properties"]["rides"]
    assert set(rides["properties"]) == {str(n) for n in range(1, MOST_SEATS + 1)}
    assert rides["additionalProperties"] is False
    assert takes(HouseMoneyInput, rides={str(MOST_SEATS): "banker", "1": None})
    for key in ("0", str(MOST_SEATS + 1), "01", " 1", "x", ""):
        assert not takes(HouseMoneyInput, rides={key: "banker"}), key


def test_seats_are_bounded_as_the_schema_says(schema):
    wager = schema["components"]["schemas"]["WagerInput"]["properties"]["seat"]
    assert (wager["minimum"], wager["maximum"]) == (1, MOST_SEATS)
    assert takes(WagerInput, seat=MOST_SEATS, type="banker", amount="5")
    assert not takes(WagerInput, seat=MOST_SEATS + 1, type="banker", amount="5")
    assert not takes(WagerInput, seat=0, type="banker", amount="5")


def test_every_path_number_has_its_range(schema):
    for path, operations in schema["paths"].items():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path":
                    assert parameter["schema"]["minimum"] == 1, (path, parameter["name"])
                    assert "maximum" in parameter["schema"], (path, parameter["name"])
    sit = schema["paths"]["/api/tables/{table_id}/seats/{seat}/sit/"]["post"]["parameters"]
    (seat,) = [p for p in sit if p["name"] == "seat"]
    assert seat["schema"]["maximum"] == MOST_SEATS


def test_every_text_of_every_command_says_what_it_refuses(schema):
    for name, component in schema["components"]["schemas"].items():
        if not name.endswith("Input"):
            continue
        for field, described in component.get("properties", {}).items():
            if described.get("type") == "string" and described.get("format") != "date-time":
                assert "pattern" in described, (name, field)


def test_each_command_lists_every_status_it_answers(schema):
    approved = {"correct_card", "void_round"}
    for path, operations in schema["paths"].items():
        command = operations.get("post")
        if command is None:
            continue
        statuses = {"200", "400", "401", "403", "404", "409", "413", "415", "503"}
        if command["operationId"] in approved:
            statuses.add("429")
        assert set(command["responses"]) == statuses, path
        for status, response in command["responses"].items():
            if status != "200":
                body = response["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Error"}, (path, status)
        assert "Retry-After" in command["responses"]["503"]["headers"]


def test_links_lead_from_a_read_to_every_command_and_along_a_round(schema):
    read = schema["paths"]["/api/tables/{table_id}/"]["get"]["responses"]["200"]["links"]
    assert set(read) == {view.table_action.__name__ for view in command_views()}
    assert read["seat_player"]["parameters"]["seat"] == "$response.body#/seats/0/number"
    opened = schema["paths"]["/api/tables/{table_id}/round/open/"]["post"]["responses"]["200"]
    assert opened["links"]["place_wager"] == {
        "operationId": "place_wager",
        "parameters": {"table_id": "$request.path.table_id"},
    }
    operation_ids = {op["operationId"] for ops in schema["paths"].values() for op in ops.values()}
    for operations in schema["paths"].values():
        for operation in operations.values():
            for link in operation["responses"].get("200", {}).get("links", {}).values():
                assert link["operationId"] in operation_ids


@pytest.mark.parametrize(
    "given",
    [
        {},
        {"floorperson": "floor", "password": "baccarat"},
        {"floorperson": "floor"},
        {"password": "x"},
    ],
)
def test_the_void_takes_the_approvers_name_and_password_together_as_the_schema_says(schema, given):
    body = {"reason": "Shoe ran out", **given}
    documented = jsonschema.Draft4Validator(schema["components"]["schemas"]["VoidInput"])
    assert documented.is_valid(body) == takes(VoidInput, **body) == (len(given) != 1)
