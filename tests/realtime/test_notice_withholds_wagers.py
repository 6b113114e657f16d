"""A settlement's notice is heard by every screen that follows the table, another table's dealer
and a display included: it never carries the last round's wagers to repeat, which only the
table's own dealer and the floor may read (issue 28). The tablet that settled has them in its
answer; the table's tablet reads them over HTTP when a notice says it withheld them."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from tablegame.broadcast import notice_change
from tests.realtime.conftest import opened, socket
from tests.tablegame.conftest import ready_table

WAGERS = [
    {"seat": 1, "type": "banker", "amount": "100"},
    {"seat": 2, "type": "player", "amount": "50"},
]


def test_a_settlement_notice_carries_no_wager_to_repeat(floor_staff: dict[str, User]) -> None:
    dealer, other_dealer, display = (
        floor_staff["dealer"],
        floor_staff["dealer2"],
        floor_staff["clerk"],
    )
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    tablet = APIClient()
    tablet.force_login(dealer)
    api = f"/api/tables/{table.pk}/"

    def post(route: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = tablet.post(
            api + route,
            body or {},
            format="json",
            headers={"Idempotency-Key": route + json.dumps(body)},
        )
        assert answer.status_code == 200, answer.content
        data: dict[str, Any] = answer.json()
        return data

    def play() -> dict[str, Any]:
        post("round/open/")
        for wager in WAGERS:
            post("round/wagers/", wager)
        post("round/no-more-bets/")
        for card in ["4H", "9C", "2S", "KS"]:  # Player 6, Banker natural 9
            post("round/cards/", {"card": card})
        return post("round/settle/")

    listeners = [socket(api.replace("/api/", "/ws/"), user=u) for u in (other_dealer, display)]

    async def scenario() -> tuple[dict[str, Any], list[str]]:
        for client in listeners:
            await opened(client)
        answer = await sync_to_async(play)()
        heard: list[str] = []
        for client in listeners:
            while True:
                frame = await client.receive_from(timeout=3)
                if json.loads(frame)["sequence"] == answer["sequence"]:
                    heard.append(frame)
                    break
            await client.disconnect()
        return answer, heard

    answer, heard = async_to_sync(scenario)()
    repeat = [(w["seat"], w["type"], w["amount"]) for w in answer["repeat"]]
    assert repeat == [(1, "banker", "100.00"), (2, "player", "50.00")]  # the tablet's own answer
    for frame in heard:
        change = json.loads(frame)["change"]
        assert change["events"][-1]["action"] == "round_settled"
        assert "repeat" not in change and "repeat" not in change["changed"]
        assert change["withheld"] == ["repeat"]
        assert change["round"]["state"] == "settled"  # the rest of the change rides on it
    # The table's tablet reads the state again, as its dealer may, and offers the same wagers.
    state = tablet.get(api).json()
    assert state["sequence"] == answer["sequence"]
    assert state["repeat"] == answer["repeat"]
    refused = APIClient()
    refused.force_login(other_dealer)
    assert refused.get(api).status_code == 403


def test_a_change_without_helps_is_told_as_answered() -> None:
    answer = {"sequence": 3, "events": [], "changed": ["round"], "patched": [], "round": {}}
    text = json.dumps(answer)
    assert notice_change(answer, text) is text
    told = json.loads(notice_change({**answer, "changed": ["round", "repeat"], "repeat": [1]}))
    assert told == {**answer, "withheld": ["repeat"]}
