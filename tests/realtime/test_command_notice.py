"""A command over the API is told to every screen once, as the change itself: a screen puts it in
place of its state and shows exactly what a reload would show."""

from __future__ import annotations

from typing import Any

from asgiref.sync import async_to_sync, sync_to_async
from rest_framework.test import APIClient

from tests.api.conftest import apply_answer
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import ready_table


def test_a_command_reaches_the_other_screens_once_with_what_it_changed(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    tablet, other = APIClient(), APIClient()
    tablet.force_login(dealer)
    other.force_login(floor_staff["pitboss"])
    api = f"/api/tables/{table.pk}/"
    shown: dict[str, Any] = other.get(api).json()  # what another screen shows before
    assert shown["sequence"] == last_sequence(table)
    client = socket(f"/ws/tables/{table.pk}/", user=floor_staff["pitboss"])

    def post(route: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = tablet.post(api + route, body, format="json", headers={"Idempotency-Key": route})
        assert answer.status_code == 200, answer.content
        result: dict[str, Any] = answer.json()
        return result

    async def scenario() -> list[dict[str, Any]]:
        await opened(client)
        notices = []
        for route, body in (
            ("round/open/", {}),
            ("round/wagers/", {"seat": 1, "type": "banker", "amount": "100"}),
            ("round/no-more-bets/", {}),
            ("round/cards/", {"card": "4H"}),
        ):
            answer = await sync_to_async(post)(route, body)
            notice = await client.receive_json_from(timeout=3)
            assert notice["change"] == answer  # the tablet's answer, word for word
            notices.append(notice)
        assert await client.receive_nothing(timeout=0.3)  # one notice per command
        await client.disconnect()
        return notices

    for notice in async_to_sync(scenario)():
        assert notice["change"]["events"][0]["sequence"] == shown["sequence"] + 1
        shown = apply_answer(shown, notice["change"])
    assert shown == other.get(api).json()
