"""The OpenAPI schema describes every endpoint, its body and the state document it answers."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.serializers import ListSerializer
from rest_framework.test import APIClient

from casino.page_commands import KEY_MAX_LENGTH
from tablegame import actions
from tablegame.api.schema import (
    NOT_BLANK,
    CommandAnswer,
    EventInfo,
    RoundInfo,
    ShoeInfo,
    TableInfo,
    TableState,
    WagerInfo,
)
from tablegame.api.urls import COMMANDS
from tablegame.play.parts import table_state_now
from tests.api.conftest import command_views


@pytest.fixture
def schema(seeded) -> dict[str, Any]:
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    result: dict[str, Any] = response.json()
    return result


def test_the_schema_lists_the_tables_and_every_command(schema):
    paths = schema["paths"]
    assert "/api/tables/" in paths
    assert "/api/tables/{table_id}/" in paths
    for route, _ in COMMANDS:
        path = "/api/tables/{table_id}/" + route.replace("<int:", "{").replace(">", "}")
        assert "post" in paths[path], path
    assert len(COMMANDS) == 36


def test_every_command_with_input_describes_its_body_and_its_key_header(schema):
    cards = schema["paths"]["/api/tables/{table_id}/round/cards/"]["post"]
    assert cards["operationId"] == "deal_card"
    assert cards["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/CardInput"
    }
    (key,) = [p for p in cards["parameters"] if p["name"] == "Idempotency-Key"]
    assert (key["in"], key["required"]) == ("header", True)
    assert key["schema"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": KEY_MAX_LENGTH,
        "pattern": NOT_BLANK,
    }
    assert set(cards["responses"]) == {
        "200", "400", "401", "403", "404", "409", "413", "415", "503"
    }  # fmt: skip
    for status in ("400", "403", "409", "413", "415", "503"):
        error = cards["responses"][status]["content"]["application/json"]["schema"]
        assert error == {"$ref": "#/components/schemas/Error"}
    reads = schema["paths"]["/api/tables/{table_id}/"]["get"]["responses"]
    assert set(reads) == {"200", "400", "401", "403", "404", "406", "503"}
    wager = schema["components"]["schemas"]["WagerInput"]
    assert set(wager["required"]) == {"seat", "type", "amount"}
    opened = schema["paths"]["/api/tables/{table_id}/open/"]["post"]
    assert "requestBody" not in opened


def test_the_documented_state_names_the_keys_of_the_real_state(tablet, mini):
    tablet.do(mini, "round/open/")
    tablet.do(mini, "round/wagers/", {"seat": 1, "type": "banker", "amount": "100"})
    tablet.do(mini, "round/no-more-bets/")
    for card in ["4H", "9C", "2S", "KS"]:
        tablet.do(mini, "round/cards/", {"card": card})
    state = table_state_now(mini.pk)
    assert state is not None
    assert set(TableState().fields) == set(state)
    assert set(TableInfo().fields) == set(state["table"])
    assert set(ShoeInfo().fields) == set(state["shoe"])
    assert set(RoundInfo().fields) == set(state["round"])
    wagers = RoundInfo().fields["wagers"]
    assert isinstance(wagers, ListSerializer) and isinstance(wagers.child, WagerInfo)
    assert set(wagers.child.fields) == set(state["round"]["wagers"][0])


def test_the_documented_answer_names_the_keys_of_real_answers(tablet, mini):
    answers = [tablet.post(mini, "round/open/").json()]
    body = {"seat": 1, "type": "banker", "amount": "100"}
    answers.append(tablet.post(mini, "round/wagers/", body).json())
    answers.append(tablet.post(mini, "round/no-more-bets/").json())
    for card in ["4H", "9C", "2S", "KS"]:
        answers.append(tablet.post(mini, "round/cards/", {"card": card}).json())
    answers.append(tablet.post(mini, "round/settle/").json())
    documented = set(CommandAnswer().fields)
    for answer in answers:
        assert set(answer) <= documented
        assert set(answer["changed"]) | set(answer["patched"]) <= documented
        for event in answer["events"]:
            assert set(event) == set(EventInfo().fields)
        if "round" in answer["patched"]:
            assert set(answer["round"]) < set(RoundInfo().fields)
        if "round" in answer["changed"]:
            assert set(answer["round"]) == set(RoundInfo().fields)


def test_every_action_has_its_endpoint():
    endpoints = {view.table_action for view in command_views()}
    readers = {"ActionError", "NotAllowed", "active_round", "current_shoe", "expected_next"}
    missing = [
        n for n in actions.__all__ if n not in readers and getattr(actions, n) not in endpoints
    ]
    assert missing == []


def test_the_void_takes_a_reason_and_optionally_the_approving_floorpersons_credentials(schema):
    void = schema["paths"]["/api/tables/{table_id}/round/void/"]["post"]
    assert void["operationId"] == "void_round"
    assert void["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/VoidInput"
    }
    (key,) = [p for p in void["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["required"] is True
    body = schema["components"]["schemas"]["VoidInput"]
    assert set(body["properties"]) == {"reason", "floorperson", "password"}
    assert body["required"] == ["reason"]
