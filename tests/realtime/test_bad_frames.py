"""A malformed frame from a screen is answered with an error frame; the socket stays open and
still hears the next notice."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from tablegame import actions, broadcast
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import ready_table

BINARY = "Send JSON in text frames; a binary frame is not read."


@pytest.mark.parametrize(
    ("frame", "error"),
    [
        ({"text": "open the round"}, "The frame is not JSON: Expecting value: line 1 column 1"),
        ({"text": '{"type": "hello"'}, "The frame is not JSON: Expecting ',' delimiter"),
        ({"text": ""}, "The frame is not JSON: Expecting value: line 1 column 1"),
        ({"text": "[" * 100_000}, "The frame is not JSON: it is nested too deeply."),
        ({"bytes": b"\x00\xff\x00"}, BINARY),
        ({"bytes": b'{"type": "hello"}'}, BINARY),
    ],
)
def test_a_malformed_frame_is_answered_and_the_table_socket_stays_open(floor_staff, frame, error):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    # The notices of the table's making go out first: the socket hears only what follows.
    assert broadcast.notices.wait_idle(timeout=10)
    before = last_sequence(table)
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        await opened(client)
        await client.send_input({"type": "websocket.receive", **frame})  # as the server hands it
        answer = await client.receive_json_from(timeout=3)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return answer, notice

    answer, notice = async_to_sync(scenario)()
    assert answer["type"] == "error"
    assert answer["error"].startswith(error)
    assert (notice["type"], notice["sequence"], notice["action"]) == (
        "changed",
        before + 1,
        "round_opened",
    )


@pytest.mark.parametrize(
    ("path", "user"),
    [("/ws/pits/{pit}/", "floor"), ("/ws/surveillance/", "surveillance")],
)
def test_the_pit_and_surveillance_sockets_answer_a_malformed_frame_and_stay_open(
    floor_staff, path, user
):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    assert broadcast.notices.wait_idle(timeout=10)
    client = socket(path.format(pit=table.pit_id), user=floor_staff[user])

    async def scenario():
        await opened(client)
        await client.send_to(text_data="{not json")
        answer = await client.receive_json_from(timeout=3)
        await client.send_to(bytes_data=b"\x01")
        second = await client.receive_json_from(timeout=3)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return answer, second, notice

    answer, second, notice = async_to_sync(scenario)()
    assert answer["type"] == "error"
    assert answer["error"].startswith("The frame is not JSON: Expecting property name")
    assert second == {"type": "error", "error": BINARY}
    assert (notice["type"], notice["table"], notice["action"]) == (
        "changed",
        table.pk,
        "round_opened",
    )
