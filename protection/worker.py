"""The follower's process (``manage.py protect``): woken by the tables' notices, sweeping for
the ones the channel layer dropped.

A listener thread joins surveillance's group (it hears every table's notice, as the wall does)
and names the tables that changed; the main loop reads them in batches, at most every
``BATCH_EVERY`` seconds, so a floor's thousand commands a second make one read a second, each
for many tables at once (``follower.follow``). Every ``SWEEP_EVERY`` seconds, and on start, it
also reads every table whose record moved past what it read (``follower.behind``): a notice lost
is priced late, never missed. With the in-memory channel layer (the embedded demo: another
process's sockets cannot be heard) it sweeps only, every second.

Nothing here is on a dealer's request: the notices are sent after commit by the request's
process's sender thread (``tablegame.broadcast``), and this process only reads them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.db import close_old_connections, connection

from protection import console
from protection.follower import Progress, behind, follow
from tablegame.broadcast import SURVEILLANCE_GROUP

log = logging.getLogger(__name__)

#: Seconds between two reads of the tables that changed, at most: the batch's window. A read
#: costs about the same for one table as for two hundred; a second keeps an alert within about
#: two seconds of its round and the follower's CPU a small share of a core on a full floor
#: (``bench/RESULTS.md`` "Game protection").
BATCH_EVERY = 1.0
#: Seconds between two sweeps of every table's record.
SWEEP_EVERY = 5.0
#: Seconds between two notices to a pit's consoles that its players' ratings moved, at least:
#: each makes every console of the pit read its ratings panel again.
PANEL_EVERY = 5.0
#: Tables read in one transaction at most.
BATCH_TABLES = 200


class Follower:
    """The tables to read, filled by the listener and emptied by the loop."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._due: set[int] = set()
        self._wake = threading.Event()

    def changed(self, table_id: int) -> None:
        with self._lock:
            self._due.add(table_id)
        self._wake.set()

    def take(self) -> set[int]:
        with self._lock:
            due, self._due = self._due, set()
        self._wake.clear()
        return due

    def wait(self, timeout: float) -> None:
        self._wake.wait(timeout)


def run(
    *,
    stop: threading.Event | None = None,
    sweep_every: float = SWEEP_EVERY,
    batch_every: float = BATCH_EVERY,
    on_batch: Callable[[Progress], None] | None = None,
) -> None:
    """Follow the floor until ``stop`` is set (forever without it)."""
    stop = stop or threading.Event()
    follower = Follower()
    layer = get_channel_layer()
    listening = layer is not None and not isinstance(layer, InMemoryChannelLayer)
    if listening:
        threading.Thread(
            target=_listen, args=(follower, stop), name="protection-listener", daemon=True
        ).start()
    else:
        sweep_every = min(sweep_every, 1.0)
    swept_at = 0.0
    pacer = console.Pacer(PANEL_EVERY)
    while not stop.is_set():
        follower.wait(timeout=batch_every if listening else sweep_every)
        due = follower.take()
        if time.monotonic() - swept_at >= sweep_every:
            try:
                due |= set(behind())
            except Exception:
                log.exception("protection: the sweep failed; trying again")
                close_old_connections()
            swept_at = time.monotonic()
        for chunk in _chunks(sorted(due), BATCH_TABLES):
            try:
                progress = follow(chunk, pacer=pacer)
            except Exception:  # the database away: the next sweep reads them again
                log.exception("protection: reading tables %s failed", chunk)
                close_old_connections()
                continue
            if on_batch is not None:
                on_batch(progress)
        try:
            console.tell_waiting(pacer)
        except Exception:  # the channel layer away: told on the next change
            log.exception("protection: telling the pits' consoles failed")
        if listening and not stop.is_set():
            stop.wait(batch_every)  # a batch's window: the notices of many tables at once
    connection.close()


def _chunks(ids: list[int], size: int) -> list[list[int]]:
    return [ids[i : i + size] for i in range(0, len(ids), size)]


def _listen(follower: Follower, stop: threading.Event) -> None:
    """Hear every table's notice (surveillance's group); reconnect when Redis goes away."""
    loop = asyncio.new_event_loop()
    while not stop.is_set():
        try:
            loop.run_until_complete(_hear(follower, stop))
        except Exception:
            log.warning("protection: the notices stopped; listening again", exc_info=True)
            stop.wait(1.0)


async def _hear(follower: Follower, stop: threading.Event) -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(SURVEILLANCE_GROUP, channel)
    try:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(layer.receive(channel), timeout=1.0)
            except TimeoutError:
                continue
            if message.get("type") == "table.changed":
                follower.changed(int(message["table"]))
    finally:
        await layer.group_discard(SURVEILLANCE_GROUP, channel)
