"""After a change commits, tell the screens watching the table, without making the request wait.

Channels delivers at most once, so a notice is a hint: it carries the table, its event sequence
number and, when the action gives it, the change itself; a screen that sees a gap in the sequence
reloads the table state over HTTP.

Three kinds of group hear about a table (``tablegame/consumers.py`` puts sockets in them): the
table's own, its pit's, and surveillance's, which hears every table.

The request never talks to Redis. ``announce_change`` (called by ``transaction.on_commit``) puts
the notice on a bounded queue of this process and returns; one daemon thread per process, the
sender, with an event loop of its own, takes what is queued and sends each notice once to each of
its groups: on the pub/sub layer (``config/env.py``) one pipelined round trip per batch of
notices, on another Redis layer one ``group_send`` per group. A daemon thread rather than a task on
the ASGI server's loop: it works the same under uvicorn or daphne, in Celery workers, management
commands and tests, and the enqueue costs the request the same few microseconds either way
(bench/RESULTS.md "Notices"). A full queue, a notice that cannot be serialized, or a batch Redis
refused or did not answer drops notices; they are counted (``notice_counts()``) and logged at most
once every ``LOG_INTERVAL`` seconds, never silently.

A batch is never cut short for taking long. Redis away or hung is found out by the connection's
own timeouts (``config/env.py``: half a second to connect, two for each answer), which bound each
wait on Redis, one at a time. A limit on the whole batch (two seconds, until 2026-11-27) also
counted the time this process waited for a core or for the GIL before it wrote anything: on a busy
machine (a floor at full pace, a process stalled) it cancelled sends mid-way, losing notices about
to be written and counting as dropped those Redis had taken. The test:
``tests/realtime/test_notice_delivery.py``.

A notice never carries a player's wagers to repeat: every member of staff may follow a table's
socket (another table's dealer, a display), but only the table's own dealer and the floor may read
its helps (``api:table``, ``tests/api/test_help_scope.py``). ``notice_change`` takes the parts in
``WITHHELD`` (``repeat``: the last round's wagers, for the tablet's "repeat") out of the change
and names them in ``"withheld"``; the table's tablet reads them over HTTP, as any screen reads
what a notice does not say (``static/js/dealer.js``). The answer to the command itself, which
goes only to the person who gave it, keeps them. The test:
``tests/realtime/test_notice_withholds_wagers.py``.

The in-memory layer (the embedded demo, one process) is sent to inline: its sockets live on the
server's own loop, which a thread of ours cannot wake, and it has no network to wait on.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import BaseChannelLayer, InMemoryChannelLayer, get_channel_layer
from channels_redis.pubsub import RedisPubSubChannelLayer  # type: ignore[import-untyped]

from tablegame.models import Table

log = logging.getLogger(__name__)

#: The channel-layer group of the surveillance room: every table's notices.
SURVEILLANCE_GROUP = "surveillance"

#: Notices a process keeps waiting for the sender; past it new ones are dropped (and counted).
QUEUE_SIZE = 10_000
#: Notices sent in one round trip at most.
BATCH_SIZE = 500
#: Seconds a process waits at exit for its last notices to be sent.
EXIT_WAIT = 2.0
#: Seconds between two log lines about dropped notices, at least.
LOG_INTERVAL = 10.0


#: Parts of the table state a command's answer may hold that its notice never carries: they are
#: for the table's own screens, which read them over HTTP (``notice_change``).
WITHHELD = ("repeat",)


def notice_change(answer: dict[str, Any], text: str | None = None) -> str:
    """What the screens hear of a command's ``answer``, as JSON text (``text``: the answer's own,
    if written already): the answer itself, or, when it holds parts of ``WITHHELD``, a copy
    without them that names them in ``"withheld"`` (the screens that need them read them again).
    No query: the answer has what it needs."""
    withheld = [name for name in WITHHELD if name in answer]
    if not withheld:
        return json.dumps(answer) if text is None else text
    told = {name: value for name, value in answer.items() if name not in withheld}
    told["changed"] = [name for name in answer.get("changed", ()) if name not in withheld]
    told["withheld"] = withheld
    return json.dumps(told)


def table_group(table_id: int) -> str:
    """The channel-layer group of screens watching one table."""
    return f"table.{table_id}"


def pit_group(pit_id: int) -> str:
    """The channel-layer group of screens watching every table of one pit."""
    return f"pit.{pit_id}"


def announce_change(
    table_id: int,
    sequence: int,
    action: str,
    *,
    pit_id: int | None = None,
    change: dict[str, Any] | None = None,
    change_text: str | None = None,
) -> None:
    """Queue the change notice for the table's, its pit's and surveillance's groups; never raises.

    Called after commit (``transaction.on_commit``). ``change`` (the event and what changed, plain
    JSON values: numbers with a fraction as strings), or ``change_text`` (the same already as JSON
    text: a command's stored answer, less what ``notice_change`` withholds), is forwarded to the
    screens as it is (``change``: less what ``WITHHELD`` names). The frame the screens
    get is written here once, as text (``notice_frame``): each socket sends it unchanged, however
    many watch. Without ``pit_id`` the table's pit is looked up by primary key (one indexed
    query); a caller holding the table passes ``table.pit_id``.
    """
    if change is not None and change_text is None:
        try:
            change_text = notice_change(change)
        except (TypeError, ValueError):
            log.warning("change notice %r cannot be sent", change, exc_info=True)
            notices.put_failed()
            return
    message: dict[str, Any] = {
        "type": "table.changed",
        "table": table_id,
        "sequence": sequence,
        "action": action,
        "text": notice_frame(table_id, sequence, action, change_text),
    }
    groups = [table_group(table_id)]
    try:
        if pit_id is None:
            pit_id = _pit_of(table_id)
        if pit_id is not None:
            groups.append(pit_group(pit_id))
    except Exception:  # no pit screen this time; the table and surveillance still hear it
        log.warning("could not find the pit of table %s", table_id, exc_info=True)
    groups.append(SURVEILLANCE_GROUP)
    notices.put(Notice(groups=tuple(groups), message=message))


def announce_refusal(table_id: int, frame: dict[str, Any], *, pit_id: int | None) -> None:
    """Queue a dealer's refusal that was kept (``tablegame.refusals``) for the table's pit's and
    surveillance's screens, as ``frame`` (``{"type": "refused", ...}``); never raises. Not for
    the table's own screens: the dealer was told it. Called after the refusal's commit."""
    try:
        text = json.dumps(frame)
    except (TypeError, ValueError):
        log.warning("refusal notice %r cannot be sent", frame, exc_info=True)
        notices.put_failed()
        return
    groups = (SURVEILLANCE_GROUP,) if pit_id is None else (pit_group(pit_id), SURVEILLANCE_GROUP)
    message = {"type": "table.refused", "table": table_id, "text": text}
    notices.put(Notice(groups=groups, message=message))


def meter_group(meter_id: int) -> str:
    """The channel-layer group of the screens of every table linked to a must-hit meter."""
    return f"musthit.{meter_id}"


def announce_meter(meter_id: int, name: str, amount: Decimal, *, read: bool = False) -> None:
    """Queue a must-hit meter's new amount for the screens of every table it is linked to (its
    tables' sockets join ``meter_group``): a shared meter moves with each table's rounds, and a
    table's own notices tell only its own. ``read``: what changed is more than the amount (a
    win, a payment, a link, new parameters): the screens read the meter again. Never raises;
    called after commit."""
    frame = {"type": "meter", "meter": name, "amount": str(amount), "read": read}
    message = {"type": "meter.changed", "text": json.dumps(frame)}
    notices.put(Notice(groups=(meter_group(meter_id),), message=message))


def announce_mark(table_id: int, pit_id: int | None) -> None:
    """Queue a notice that a table's marks changed (``tablegame.marks``) for its pit's screens
    and surveillance's, which read its marks again; never raises. Called after commit. A mark
    is no event of the table's chain: the notice carries no sequence, and a lost one is made
    good by the screens' own reading of the open marks (the wall's, every half minute)."""
    frame = json.dumps({"type": "mark", "table": table_id})
    message = {"type": "table.marked", "table": table_id, "text": frame}
    groups = (SURVEILLANCE_GROUP,) if pit_id is None else (pit_group(pit_id), SURVEILLANCE_GROUP)
    notices.put(Notice(groups=groups, message=message))


def announce_panel(name: str, pit_id: int, tables: list[int]) -> None:
    """Queue a notice for the pit's screens that a console panel (``tablegame.panels``) changed
    for ``tables`` of the pit: the console reads the panel again; never raises. Called after
    commit. A panel is no event of a chain: the notice carries no sequence, and a lost one is
    made good by the next, or by the console's reading of its panels when its socket says
    hello again after a gap."""
    frame = json.dumps({"type": "panel", "panel": name, "pit": pit_id, "tables": tables})
    message = {"type": "pit.panel", "pit": pit_id, "text": frame}
    notices.put(Notice(groups=(pit_group(pit_id),), message=message))


def announce_pit_forms(
    pit_id: int, sequence: int, action: str, *, table_id: int | None = None
) -> None:
    """Queue a notice for the pit's screens that its Complimentary Vigorish Forms changed (an
    event of the pit's own chain, numbered ``sequence``), and for the screens of the form's
    table (``table_id``: a dealer's forms page watches its own table); never raises. Called
    after commit."""
    message = {"type": "pit.forms", "pit": pit_id, "sequence": sequence, "action": action}
    groups = (
        (pit_group(pit_id),) if table_id is None else (pit_group(pit_id), table_group(table_id))
    )
    notices.put(Notice(groups=groups, message=message))


def notice_frame(table_id: int, sequence: int, action: str, change_text: str | None) -> str:
    """What a screen receives (``tablegame/consumers.py``), as JSON text."""
    frame = {"type": "changed", "table": table_id, "sequence": sequence, "action": action}
    head = json.dumps(frame)
    return head if change_text is None else f'{head[:-1]}, "change": {change_text}}}'


def notice_counts() -> NoticeCounts:
    """What this process's publisher has done so far (the bench and the tests read it)."""
    return notices.counts()


def _pit_of(table_id: int) -> int | None:
    pit_id: int | None = Table.objects.filter(pk=table_id).values_list("pit_id", flat=True).first()
    return pit_id


@dataclass(frozen=True, slots=True)
class Notice:
    """One message for one or more groups."""

    groups: tuple[str, ...]
    message: dict[str, Any]


@dataclass(slots=True)
class Progress:
    """How far the sender got with one batch."""

    sent: int = 0
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class NoticeCounts:
    """A publisher's counters since the process started (or forked)."""

    sent: int
    """Notices handed to the channel layer, each once per group."""
    dropped_queue_full: int
    """Notices refused because the queue was full (Redis slower than the floor, or away)."""
    dropped_send_failed: int
    """Notices lost with a batch Redis refused or did not take in time, or not serializable."""
    waiting: int
    """Notices queued or being sent now."""

    @property
    def dropped(self) -> int:
        return self.dropped_queue_full + self.dropped_send_failed


class Publisher:
    """A bounded queue and the daemon thread that empties it into the channel layer.

    The thread starts with the first notice, and again in a forked child (gunicorn, Celery's
    prefork pool), which has the parent's queue and counters but not its thread.
    """

    def __init__(
        self,
        *,
        capacity: int = QUEUE_SIZE,
        batch_size: int = BATCH_SIZE,
        log_interval: float = LOG_INTERVAL,
    ) -> None:
        self.capacity = capacity
        self.batch_size = batch_size
        self.log_interval = log_interval
        self._reset()

    def _reset(self) -> None:
        """A new queue, counters at zero, no thread yet (at start, and in a forked child)."""
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._queue: queue.Queue[Notice] = queue.Queue(self.capacity)
        self._started = False
        self._sent = self._dropped_full = self._dropped_failed = self._waiting = 0
        self._logged_at = 0.0
        self._logged_dropped = 0
        self._layer: BaseChannelLayer | None = None

    def put(self, notice: Notice) -> None:
        """Hand the notice to the sender and return at once; a full queue drops it, counted."""
        layer = get_channel_layer()
        if layer is None:
            return
        if isinstance(layer, InMemoryChannelLayer):
            with self._lock:
                self._waiting += 1
            self._send_inline(layer, notice)
            return
        with self._lock:
            self._waiting += 1
            start, self._started = not self._started, True
        if start:
            threading.Thread(target=self._run, name="notice-sender", daemon=True).start()
        try:
            self._queue.put_nowait(notice)
        except queue.Full:
            self._done(sent=0, dropped_full=1)

    def put_failed(self) -> None:
        """Count a notice that could not even be written (never silently lost)."""
        with self._lock:
            self._waiting += 1
        self._done(sent=0, dropped_failed=1)

    def counts(self) -> NoticeCounts:
        with self._lock:
            return NoticeCounts(
                sent=self._sent,
                dropped_queue_full=self._dropped_full,
                dropped_send_failed=self._dropped_failed,
                waiting=self._waiting,
            )

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every queued notice is sent or dropped; False if ``timeout`` ran out."""
        with self._idle:
            return self._idle.wait_for(lambda: self._waiting == 0, timeout)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        waiting = self._queue
        while True:
            batch = [waiting.get()]
            while len(batch) < self.batch_size:
                try:
                    batch.append(waiting.get_nowait())
                except queue.Empty:
                    break
            progress = Progress()
            try:
                # Not bounded here: a send is given up only when Redis itself fails or does not
                # answer in time (the connection's timeouts), never because this thread was slow.
                loop.run_until_complete(self._send(batch, progress))
            except Exception as error:  # Redis away, refusing or not answering: the rest is lost
                self._done(
                    sent=progress.sent, dropped_failed=len(batch) - progress.sent, error=error
                )
            else:
                self._done(sent=progress.sent, dropped_failed=progress.skipped)

    async def _send(self, batch: Sequence[Notice], progress: Progress) -> None:
        """Send the batch, counting in ``progress`` what went and what could not be serialized."""
        layer = get_channel_layer()
        if layer is not self._layer:
            await _forget(self._layer)
            self._layer = layer
        if layer is None:
            progress.sent = len(batch)  # nobody listens anywhere: nothing to lose
            return
        if isinstance(layer, RedisPubSubChannelLayer):
            await _publish_pipelined(layer, batch, progress)
            return
        for notice in batch:
            try:
                await asyncio.gather(*(layer.group_send(g, notice.message) for g in notice.groups))
            except (TypeError, ValueError):
                log.warning("change notice %r cannot be sent", notice.message, exc_info=True)
                progress.skipped += 1
            else:
                progress.sent += 1

    def _send_inline(self, layer: BaseChannelLayer, notice: Notice) -> None:
        try:
            async_to_sync(_send_each)(layer, notice)
        except Exception as error:
            self._done(sent=0, dropped_failed=1, error=error)
        else:
            self._done(sent=1)

    def _done(
        self,
        *,
        sent: int,
        dropped_full: int = 0,
        dropped_failed: int = 0,
        error: BaseException | None = None,
    ) -> None:
        with self._lock:
            self._sent += sent
            self._dropped_full += dropped_full
            self._dropped_failed += dropped_failed
            self._waiting -= sent + dropped_full + dropped_failed
            self._idle.notify_all()
            dropped = self._dropped_full + self._dropped_failed
            now = time.monotonic()
            report = dropped > self._logged_dropped and now - self._logged_at >= self.log_interval
            if report:
                since = dropped - self._logged_dropped
                self._logged_dropped, self._logged_at = dropped, now
                full, failed = self._dropped_full, self._dropped_failed
        if report:
            log.warning(
                "dropped %d change notices so far (%d since the last report; queue full %d, "
                "send failed %d); screens reload when they see the gap or the next hello%s",
                dropped,
                since,
                full,
                failed,
                f"; last error {type(error).__name__}: {error}" if error else "",
            )


async def _forget(layer: BaseChannelLayer | None) -> None:
    """Close the sender's connections of a layer the settings no longer name (tests do that)."""
    if isinstance(layer, RedisPubSubChannelLayer):
        try:
            await layer.flush()  # on the pub/sub layer: this loop's connections, nothing else
        except Exception:
            log.debug("closing the old channel layer's connections failed", exc_info=True)


async def _publish_pipelined(
    layer: RedisPubSubChannelLayer, batch: Sequence[Notice], progress: Progress
) -> None:
    """PUBLISH every notice to each of its groups' Redis channels, one pipeline per shard.

    The channel names, the shard of each and the serialization are the layer's own, so its
    subscribers hear exactly what ``group_send`` would have told them.
    """
    here = layer._get_layer()  # this loop's half of the layer
    pipelines: dict[int, Any] = {}
    serialized = 0
    for notice in batch:
        try:
            data = layer.serialize(notice.message)
        except Exception:
            log.warning("change notice %r cannot be serialized", notice.message, exc_info=True)
            progress.skipped += 1
            continue
        serialized += 1
        for group in notice.groups:
            channel = here._get_group_channel_name(group)
            shard = here._get_shard(channel)
            key = id(shard)
            if key not in pipelines:
                shard._ensure_redis()
                pipelines[key] = shard._redis.pipeline(transaction=False)
            pipelines[key].publish(channel, data)
    await asyncio.gather(*(pipeline.execute() for pipeline in pipelines.values()))
    progress.sent += serialized


async def _send_each(layer: BaseChannelLayer, notice: Notice) -> None:
    for group in notice.groups:
        await layer.group_send(group, notice.message)


#: This process's publisher.
notices = Publisher()
os.register_at_fork(after_in_child=notices._reset)


@atexit.register
def _flush_at_exit() -> None:
    """A command that changed tables (``seed_demo``, the bench) lets its last notices out."""
    notices.wait_idle(timeout=EXIT_WAIT)
