"""Faults done to a playing floor, one after another, and how it came back (issue 28).

The run owns its PostgreSQL cluster and its Redis (``Services``), so that it may restart them,
and the production process shape (``loadsim.server``'s gunicorn and uvicorn, and here a Celery
worker and beat as ``docker-compose.yml`` runs them). In turn, at fixed moments of the window:

- ``web worker``: ``kill -9`` of one gunicorn worker, one in the middle of a request if one is
  seen within ``BUSY_WAIT`` (its master starts another);
- ``socket server``: ``kill -9`` of the uvicorn server and its workers, started again on its port;
- ``celery worker``, ``celery beat``: ``kill -9`` of the process and its children, started again;
- ``redis``: ``kill -9`` of Redis with every socket open, started again (empty);
- ``postgresql``: PostgreSQL restarted (``pg_ctl restart -m fast``: every connection ends).

A screen is back when, after the fault was repaired, it heard a frame and knows each of its
tables' sequence as the record had it once repaired (by a notice or a hello). After the run,
``check`` reads the record: every command a bot was answered 200 must have its command record
(lost if not); no event may belong to two commands' answers, nor to none (doubled); no round
settled twice; ``verify_record`` passes.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import signal
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import Error as DatabaseError

from casino.models import Event
from loadsim import floor as floor_db
from loadsim.dealer import CommandLog
from loadsim.screens import Screen
from loadsim.server import Server, descendants, restart_sockets
from loadsim.services import Celery, Services, kill_tree, wait_until
from tablegame.events import TableEvent
from tablegame.models import CommandRecord

T = TypeVar("T")

FAULTS = ("web worker", "socket server", "celery worker", "celery beat", "redis", "postgresql")
#: How long the record may stay unreachable for a read of the run (a restart takes seconds).
DATABASE_WAIT = 90.0
POLL = 0.1


async def retrying_database(work: Callable[..., T], *args: Any) -> T:
    """ORM work in a thread, tried again while the database does not answer (a restart)."""
    deadline = time.monotonic() + DATABASE_WAIT
    while True:
        try:
            return await asyncio.to_thread(floor_db.in_thread, work, *args)
        except DatabaseError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


@dataclass
class Watched:
    """What the run hands the faults: the server, the screens, the tables, the bots' log."""

    server: Server
    screens: list[Screen]
    tables: Sequence[floor_db.SimTable]
    log: CommandLog


@dataclass
class FaultResult:
    fault: str
    at: float
    """``time.monotonic()`` of the fault."""
    wall: float = 0.0
    """``time.time()`` of the fault."""
    repaired_seconds: float = 0.0
    """From the fault until the part was running again."""
    back_seconds: dict[str, list[float]] = field(default_factory=dict)
    """Each screen kind: each screen's seconds from the fault until it was back."""
    not_back: list[str] = field(default_factory=list)
    """Screens not back before the next fault (or the window's end)."""


@dataclass
class FaultRun:
    """The faults of one run, each at its moment of the window (every ``every`` seconds)."""

    services: Services
    celery: Celery
    env: Mapping[str, str]
    cwd: Path
    socket_workers: int
    every: float
    faults: Sequence[str] = FAULTS
    results: list[FaultResult] = field(default_factory=list)
    watched: Watched | None = None

    @property
    def window(self) -> float:
        """The measured window the faults need: each with ``every`` seconds after it."""
        return self.every * (len(self.faults) + 0.5)

    async def run(self, watched: Watched, until: float) -> None:
        self.watched = watched
        start = time.monotonic()
        for n, name in enumerate(self.faults):
            at = start + self.every * (n + 0.5)
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            result = FaultResult(name, time.monotonic(), time.time())
            await asyncio.to_thread(self._do, name, watched.server)
            result.repaired_seconds = time.monotonic() - result.at
            end = min(until, at + self.every * 0.95)
            await self._screens_back(result, watched, end)
            self.results.append(result)

    def _do(self, name: str, server: Server) -> None:
        """Do the fault, then restart what a supervisor would, and wait until it runs."""
        if name == "web worker":
            master = server.parts["http"][0]
            workers = [pid for pid in descendants([master]) if pid != master]
            killed = _busy(workers)
            os.kill(killed, signal.SIGKILL)

            def respawned() -> bool:
                now = [pid for pid in descendants([master]) if pid != master]
                return len(now) == len(workers) and killed not in now

            wait_until(respawned, "gunicorn did not start another worker")
        elif name == "socket server":
            for process in server.processes:
                if process.pid in server.parts["sockets"]:
                    kill_tree(process.pid)
                    process.wait()
            restart_sockets(server, workers=self.socket_workers, env=self.env, cwd=self.cwd)
        elif name in ("celery worker", "celery beat"):
            self.celery.kill(name)
            self.celery.start(name)
        elif name == "redis":
            self.services.kill_redis()
            self.services.start_redis()
        elif name == "postgresql":
            self.services.restart_postgres()
        else:
            raise ValueError(f"No such fault: {name}")

    async def _screens_back(self, result: FaultResult, watched: Watched, end: float) -> None:
        """Each screen's time until it heard a frame after the repair and knows each of its
        tables' sequence as the record had it then."""
        repaired = time.monotonic()
        head = await retrying_database(floor_db.last_sequences, watched.tables)
        waiting = [s for s in watched.screens if s.last and not s.refused]
        while waiting and time.monotonic() < end:
            now = time.monotonic()
            for screen in list(waiting):
                if screen.heard_at >= repaired and all(
                    screen.last.get(t, -1) >= head[t] for t in screen.last if t in head
                ):
                    result.back_seconds.setdefault(screen.kind, []).append(now - result.at)
                    waiting.remove(screen)
            await asyncio.sleep(POLL)
        result.not_back = [f"{s.kind} {s.path}" for s in waiting]

    # -- after the run ----------------------------------------------------------------------

    def check(self) -> dict[str, Any]:
        """What the record says of the bots' commands, per fault (ORM, after the run)."""
        assert self.watched is not None, "the run did not start its faults"
        sent = self.watched.log.sent
        table_ids = [t.id for t in self.watched.tables]
        records: dict[str, tuple[int, int, str]] = {
            key: (table, status, response)
            for key, table, status, response in CommandRecord.objects.filter(
                key__in=[s.key for s in sent if s.key]
            ).values_list("key", "table_id", "status", "response")
        }
        # Each event belongs to the answer of one command: the bots' are every command there is.
        claimed: dict[tuple[int, int], int] = defaultdict(int)
        for table, status, response in records.values():
            if status == 200:
                for event in json.loads(response).get("events", ()):
                    claimed[(table, event["sequence"])] += 1
        first = {t: min((s for (tt, s) in claimed if tt == t), default=0) for t in table_ids}
        chains = {t.chain_id: t.id for t in self.watched.tables}
        events = Event.objects.filter(chain_id__in=chains).order_by("chain_id", "sequence")
        unclaimed: dict[str, int] = defaultdict(int)
        settled: dict[tuple[int, int, int], int] = defaultdict(int)
        shoes: dict[int, int] = defaultdict(int)
        for chain_id, sequence, action, data in events.values_list(
            "chain_id", "sequence", "action", "data"
        ):
            table = chains[chain_id]
            if sequence >= first[table] > 0 and (table, sequence) not in claimed:
                unclaimed[action] += 1
            if action == TableEvent.SHOE_ENDED:
                shoes[table] += 1
            elif action == TableEvent.ROUND_SETTLED and isinstance(data, dict):
                settled[(table, shoes[table], data.get("round", -1))] += 1
        doubled_events = {k for k, n in claimed.items() if n > 1}

        def bucket(moment: float) -> int:
            return sum(1 for r in self.results if r.at <= moment) - 1

        rows: dict[int, dict[str, int]] = defaultdict(
            lambda: dict.fromkeys(("attempted", "accepted", "retried", "lost", "doubled"), 0)
        )
        for s in sent:
            row = rows[bucket(s.sent)]
            row["attempted"] += 1
            row["retried"] += s.tries > 1
            if s.status != 200:
                continue
            row["accepted"] += 1
            record = records.get(s.key)
            if record is None or record[1] != 200:
                row["lost"] += 1
                continue
            sequences = [e["sequence"] for e in json.loads(record[2]).get("events", ())]
            row["doubled"] += any((record[0], q) in doubled_events for q in sequences)
        verified, said = _verify_record()
        return {
            "faults": [
                {
                    "fault": r.fault,
                    **rows[n],
                    "repaired_seconds": round(r.repaired_seconds, 2),
                    "back_seconds": {
                        kind: {"max": round(max(v), 2), "p95": round(_p95(v), 2), "screens": len(v)}
                        for kind, v in sorted(r.back_seconds.items())
                    },
                    "not_back": r.not_back,
                }
                for n, r in enumerate(self.results)
            ],
            "before_faults": rows[-1],
            "events_of_no_command": dict(unclaimed),
            "events_of_two_commands": len(doubled_events),
            "rounds_settled_twice": sum(1 for n in settled.values() if n > 1),
            "rounds_settled": len(settled),
            "verify_record": verified,
            "verify_record_said": said,
        }


#: System calls (x86-64) of a gunicorn worker's threads when idle: waiting on a queue or a
#: condition (futex: the thread pool's, the notices' sender, the connection pool's) or, its main
#: thread, for connections (epoll_wait, epoll_pwait). A request waiting on PostgreSQL polls.
IDLE_CALLS = {"202", "232", "281"}
#: How long the web worker fault watches for a worker in the middle of a request.
BUSY_WAIT = 3.0


def _busy(workers: Sequence[int]) -> int:
    """A worker with a request thread at work (not waiting on its pool's queue) if one is seen
    within ``BUSY_WAIT`` seconds, so that the kill cuts a request; else the first."""
    deadline = time.monotonic() + BUSY_WAIT
    while time.monotonic() < deadline:
        for pid in workers:
            for task in _threads(pid):
                if _syscall(pid, task) not in IDLE_CALLS:
                    return pid
        time.sleep(0.001)
    return workers[0]


def _threads(pid: int) -> list[int]:
    try:
        return [int(t.name) for t in Path(f"/proc/{pid}/task").iterdir()]
    except OSError:
        return []


def _syscall(pid: int, task: int) -> str:
    """The number of the system call the thread is in (``running`` when in none)."""
    try:
        return Path(f"/proc/{pid}/task/{task}/syscall").read_text().split()[0]
    except (OSError, IndexError):
        return "202"


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def _verify_record() -> tuple[bool, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_record", stdout=out, stderr=err)
    except (CommandError, SystemExit) as failure:
        return False, f"{failure} {err.getvalue()} {out.getvalue()}".strip()[-2000:]
    return True, out.getvalue().strip()[-500:]
