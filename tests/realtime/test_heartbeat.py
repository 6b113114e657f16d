"""The hello again, every ``HELLO_EVERY`` seconds or so: a screen learns of a lost notice, the last
of a table included, without polling (``tablegame.consumers``; live.js reads it as the first).

The beat is made short here (the module's constants); the socket works as in production.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from tablegame import actions, broadcast, consumers
from tablegame.consumers import TableConsumer
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import ready_table, table_for

BEAT = 0.2


@pytest.fixture(autouse=True)
def short_beat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(consumers, "HELLO_EVERY", BEAT)
    monkeypatch.setattr(consumers, "HELLO_GRACE", 1.0)


async def frames_until(client: Any, test: Any, *, timeout: float = 5.0) -> list[dict[str, Any]]:
    """Every frame up to and including the first that passes ``test``."""
    frames: list[dict[str, Any]] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not frames or not test(frames[-1]):
        left = deadline - asyncio.get_running_loop().time()
        frames.append(await client.receive_json_from(timeout=max(0.01, left)))
    return frames


def test_a_change_committed_without_its_notice_is_told_by_the_next_hello(floor_staff, monkeypatch):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)
    monkeypatch.setattr(broadcast.notices, "put", lambda notice: None)  # every notice lost

    async def scenario():
        hello = await opened(client)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        frames = await frames_until(client, lambda f: f["sequence"] != hello["sequence"])
        await client.disconnect()
        return hello, frames

    hello, frames = async_to_sync(scenario)()
    # Hellos only (the notice never left), saying the same until the round opened, then told.
    assert {f["type"] for f in frames} == {"hello"}
    assert frames[-1] == {"type": "hello", "table": table.pk, "sequence": hello["sequence"] + 1}
    assert last_sequence(table) == hello["sequence"] + 1


def test_nothing_missed_the_hello_says_what_the_screen_heard(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        first = await opened(client)
        again = await client.receive_json_from(timeout=5)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        frames = await frames_until(client, lambda f: f["type"] == "changed")
        after = await frames_until(client, lambda f: f["type"] == "hello")
        await client.disconnect()
        return first, again, frames[-1], after[-1]

    first, again, notice, after = async_to_sync(scenario)()
    assert again == first  # the same shape, the same sequence: nothing to reload
    assert after == {"type": "hello", "table": table.pk, "sequence": notice["sequence"]}


def test_a_hello_waits_for_the_notice_still_on_its_way(floor_staff, monkeypatch):
    # The notice leaves a while after its commit: a beat in between reads the new sequence, and
    # waits for the notice rather than tell the screen it missed one (it would reload for nothing).
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)
    put = broadcast.notices.put
    monkeypatch.setattr(
        broadcast.notices, "put", lambda notice: threading.Timer(BEAT * 4, put, (notice,)).start()
    )
    seen: list[tuple[str, int]] = []
    hello_again, table_changed = TableConsumer.hello_again, TableConsumer.table_changed

    async def reading(self: TableConsumer) -> dict[str, Any] | None:
        hello = await hello_again(self)
        seen.append(("read", hello["sequence"] if hello else -1))
        return hello

    async def forwarding(self: TableConsumer, event: dict[str, Any]) -> None:
        seen.append(("notice", event["sequence"]))
        await table_changed(self, event)

    monkeypatch.setattr(TableConsumer, "hello_again", reading)
    monkeypatch.setattr(TableConsumer, "table_changed", forwarding)

    async def scenario():
        hello = await opened(client)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        frames = await frames_until(client, lambda f: f["sequence"] != hello["sequence"])
        later = await client.receive_json_from(timeout=5)
        await client.disconnect()
        return hello, frames, later

    hello, frames, later = async_to_sync(scenario)()
    opened_at = hello["sequence"] + 1
    # A beat read the round opened before its notice came ...
    assert seen.index(("read", opened_at)) < seen.index(("notice", opened_at))
    # ... and the screen heard the notice first, then a hello saying the same: nothing missed.
    assert [f["type"] for f in frames] == ["hello"] * (len(frames) - 1) + ["changed"]
    assert frames[-1]["sequence"] == opened_at
    assert later == {"type": "hello", "table": table.pk, "sequence": opened_at}


def test_a_pit_socket_says_its_hello_again_in_the_same_shape(floor_staff):
    pit = table_for("ma-mini").pit
    client = socket(f"/ws/pits/{pit.pk}/", user=floor_staff["floor"])

    async def scenario():
        first = await opened(client)
        again = await client.receive_json_from(timeout=5)
        await client.disconnect()
        return first, again

    first, again = async_to_sync(scenario)()
    assert first["pit"] == pit.pk and len(first["tables"]) == pit.tables.count()
    assert again == first


def test_the_heartbeat_stops_when_the_socket_closes(floor_staff, monkeypatch):
    table = table_for("ma-mini")
    client = socket(f"/ws/tables/{table.pk}/", user=floor_staff["floor"])
    reads: list[int] = []
    hello_again = TableConsumer.hello_again

    async def counted(self: TableConsumer) -> dict[str, Any] | None:
        reads.append(self.table_id)
        return await hello_again(self)

    monkeypatch.setattr(TableConsumer, "hello_again", counted)

    def beating() -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks() if t.get_name().startswith("hello ")]

    async def scenario():
        await opened(client)
        await client.receive_json_from(timeout=5)
        await client.receive_json_from(timeout=5)
        while_open = len(beating())
        await client.disconnect()
        await asyncio.sleep(0)  # let the cancelled task end
        read_at_close = len(reads)
        await asyncio.sleep(BEAT * 5)
        return while_open, read_at_close, len(reads), len(beating())

    while_open, read_at_close, read_after, beating_after = async_to_sync(scenario)()
    assert while_open == 1 and read_at_close >= 2
    assert read_after == read_at_close  # no read of the database after the socket closed
    assert beating_after == 0
