"""A settlement's notice is heard by every screen that follows the table (the pit's, a display,
surveillance): it never carries the last round's wagers to repeat, which only the table's own
dealer and the floor may read (issue 28); another table's dealer may not follow it at all. The
tablet that settled has them in its answer; the table's tablet reads them over HTTP when a notice
says it withheld them."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from casino.models import AccessRefusal
from tablegame.broadcast import notice_change
from tests.realtime.conftest import opened, refusal, socket
from tests.tablegame.conftest import ready_table

WAGERS = [
    {"seat": 1, "type": "banker", "amount": "100"},
    {"seat": 2, "type": "player", "amount": "50"},
]


def test_a_settlement_notice_carries_no_wager_to_repeat(floor_staff: dict[str, User]) -> None:
    dealer, pit, surveillance = (floor_staff[u] for u in ("dealer", "clerk", "surveillance"))
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

    listeners = [socket(api.replace("/api/", "/ws/"), user=u) for u in (pit, surveillance)]

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
    refused.force_login(floor_staff["dealer2"])
    assert refused.get(api).status_code == 403


def test_a_change_without_helps_is_told_as_answered() -> None:
    answer = {"sequence": 3, "events": [], "changed": ["round"], "patched": [], "round": {}}
    text = json.dumps(answer)
    assert notice_change(answer, text) is text
    told = json.loads(notice_change({**answer, "changed": ["round", "repeat"], "repeat": [1]}))
    assert told == {**answer, "withheld": ["repeat"]}


def test_another_tables_dealer_may_not_follow_the_table(floor_staff: dict[str, User]) -> None:
    """Its notices carry the round in play, wagers and all: a dealer follows only the table
    they may deal, as they read only its state (refused 4403, the reason said, the refusal
    kept); the table's own dealer follows it."""
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    path = f"/ws/tables/{table.pk}/"

    other, own = (socket(path, user=floor_staff[u]) for u in ("dealer2", "dealer"))

    async def scenario() -> tuple[int, dict[str, Any]]:
        code = await refusal(other)
        hello = await opened(own)
        await own.disconnect()
        return code, hello

    code, hello = async_to_sync(scenario)()
    assert code == 4403
    assert hello["table"] == table.pk
    kept = AccessRefusal.objects.get(username="dealer2")
    assert (kept.what, kept.path) == ("socket:table", path)


def test_another_tables_display_under_a_dealers_account_reads_its_roads(
    floor_staff: dict[str, User],
) -> None:
    """The display page of a table the dealer may not deal opens, without the table's socket
    (display.js reads the roads every few seconds instead); their own table's display follows
    it live."""
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    browser = APIClient()
    browser.force_login(floor_staff["dealer2"])
    other = browser.get(f"/display/{table.pk}/")
    assert other.status_code == 200
    assert "js/live.js" not in other.content.decode()
    browser.force_login(floor_staff["dealer"])
    assert "js/live.js" in browser.get(f"/display/{table.pk}/").content.decode()
