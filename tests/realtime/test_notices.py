"""Notices leave without holding the request: a slow, dead or returning Redis, a full queue."""

from __future__ import annotations

import logging
import socket as sockets
import subprocess
import time
from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from pytest_django import Settings

from config.env import channel_layers_from_env
from tablegame import actions, broadcast
from tablegame.broadcast import Notice, Publisher, announce_change, notice_counts
from tests.realtime.conftest import last_sequence, opened, socket
from tests.tablegame.conftest import ready_table

#: Generous: the action alone takes a few tens of milliseconds; a stalled send took 5 s.
PROMPT = 1.0


def free_port() -> int:
    with sockets.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def hung_redis() -> Iterator[int]:
    """A port that accepts connections and never answers: Redis hung, or a network black hole."""
    with sockets.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


class OwnRedis:
    """A Redis server of the test's own, on a free port, which the test may stop and start."""

    def __init__(self) -> None:
        self.port = free_port()
        self.server: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        self.server = subprocess.Popen([*command, "--save", ""], stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                sockets.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.server is not None:
            self.server.terminate()
            self.server.wait(5)
            self.server = None


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    redis = OwnRedis()
    redis.start()
    yield redis
    redis.stop()


def layers_at(settings: Settings, port: int) -> None:
    """The production channel layer (``config.env``), pointed at ``port``."""
    settings.CHANNEL_LAYERS = channel_layers_from_env({"REDIS_URL": f"redis://127.0.0.1:{port}/0"})


def settled() -> broadcast.NoticeCounts:
    """The process's counters once every notice queued so far is sent or dropped."""
    assert broadcast.notices.wait_idle(timeout=10)
    return notice_counts()


@pytest.mark.parametrize("redis", ["hung", "closed"])
def test_a_command_returns_promptly_and_counts_its_notice_dropped_when_redis_is_away(
    floor_staff, settings, hung_redis, redis
):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    layers_at(settings, hung_redis if redis == "hung" else free_port())
    before = settled()

    started = time.monotonic()
    actions.open_round(table, actor=dealer)
    took = time.monotonic() - started

    assert took < PROMPT
    assert table.active_round() is not None
    after = settled()
    assert after.dropped_send_failed == before.dropped_send_failed + 1
    assert after.sent == before.sent


def test_a_full_queue_drops_notices_counts_them_and_says_so(settings, hung_redis, caplog):
    layers_at(settings, hung_redis)
    publisher = Publisher(capacity=2, log_interval=60)
    notice = Notice(groups=("table.1",), message={"type": "table.changed", "table": 1})

    with caplog.at_level(logging.WARNING, logger="tablegame.broadcast"):
        for _ in range(10):
            publisher.put(notice)
        full = publisher.counts().dropped_queue_full
        assert publisher.wait_idle(timeout=10)  # each batch: the connection's 2 s, in turn

    counts = publisher.counts()
    # Two wait in the queue, and the sender holds a batch: at most 8 find it full. How many
    # batches the sender took while the ten were put depends on when its thread ran; every
    # notice it took failed against the hung Redis and is counted as such.
    assert 1 <= full <= 8
    assert counts.dropped_queue_full == full
    assert counts.dropped_send_failed == 10 - full
    assert counts.dropped == 10 and counts.sent == 0 and counts.waiting == 0
    reports = [r.getMessage() for r in caplog.records if "change notices" in r.getMessage()]
    assert len(reports) == 1  # at most one line a minute here, however many are dropped
    assert reports[0].startswith("dropped 1 change notices so far")


def test_an_idle_socket_stays_open_and_hears_the_next_change(floor_staff):
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        await opened(client)
        quiet = await client.receive_nothing(timeout=6.5, interval=0.5)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return quiet, notice

    quiet, notice = async_to_sync(scenario)()
    assert quiet
    assert (notice["action"], notice["sequence"]) == ("round_opened", last_sequence(table))


def test_screens_hear_changes_again_once_redis_is_back(floor_staff, settings, own_redis):
    layers_at(settings, own_redis.port)
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)
    before = settled()

    async def scenario():
        hello = await opened(client)
        await sync_to_async(own_redis.stop)()
        await sync_to_async(actions.open_round)(table, actor=dealer)  # its notice is lost
        lost = await sync_to_async(settled)()
        await sync_to_async(own_redis.start)()
        heard = None
        for probe in range(1, 21):  # the socket's process subscribes again by itself
            await sync_to_async(announce_change)(table.pk, hello["sequence"] + 1 + probe, "probe")
            if not await client.receive_nothing(timeout=0.5):
                heard = await client.receive_json_from()
                break
        await client.disconnect()
        return hello, lost, heard

    hello, lost, heard = async_to_sync(scenario)()
    assert lost.dropped_send_failed == before.dropped_send_failed + 1
    assert last_sequence(table) == hello["sequence"] + 1  # the round opened all the same
    assert heard is not None and heard["action"] == "probe"
    # The first it hears is past the lost one: a gap, so the screen reloads the table.
    assert heard["sequence"] > hello["sequence"] + 1


def test_a_notice_carries_the_change_to_every_screen_when_it_has_one(floor_staff):
    table = ready_table("ma-mini", floor_staff["dealer"], floor_staff["floor"])
    screens = [
        socket(f"/ws/tables/{table.pk}/", user=floor_staff["dealer"]),
        socket(f"/ws/pits/{table.pit_id}/", user=floor_staff["floor"]),
        socket("/ws/surveillance/", user=floor_staff["surveillance"]),
    ]
    change = {"event": {"kind": "card_dealt", "card": "9H"}, "round": {"player": ["9H"]}}

    async def scenario():
        for screen in screens:
            await opened(screen)
        await sync_to_async(announce_change)(table.pk, 42, "card_dealt", change=change)
        notices = [await screen.receive_json_from(timeout=3) for screen in screens]
        for screen in screens:
            await screen.disconnect()
        return notices

    assert async_to_sync(scenario)() == 3 * [
        {
            "type": "changed",
            "table": table.pk,
            "sequence": 42,
            "action": "card_dealt",
            "change": change,
        }
    ]


def test_the_embedded_demo_hears_notices_on_the_in_memory_layer(floor_staff, settings):
    settings.CHANNEL_LAYERS = channel_layers_from_env({})
    dealer = floor_staff["dealer"]
    table = ready_table("ma-mini", dealer, floor_staff["floor"])
    client = socket(f"/ws/tables/{table.pk}/", user=dealer)

    async def scenario():
        await opened(client)
        await sync_to_async(actions.open_round)(table, actor=dealer)
        notice = await client.receive_json_from(timeout=3)
        await client.disconnect()
        return notice

    assert async_to_sync(scenario)()["action"] == "round_opened"
