"""The pages' reads, sent over HTTP as their scripts send them, and timed for the report.

A page sends one read of a thing at a time: a read asked for again while the same one is on its
way is sent once more when it comes back (``floor.js``'s and the wall's ``inFlight``/``again``),
or dropped where the script drops it (``Read.again``: the significant events' strip).
Each read's answer goes back to its page (``Page.answered``), which may ask for more.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from loadsim.pages import Page, Read
from loadsim.transport import HttpTransport


@dataclass(frozen=True, slots=True)
class Done:
    """One read as it went."""

    page: str
    what: str
    cause: str
    at: float
    """``time.monotonic()`` when it was sent."""
    took: float
    """Seconds of the request itself."""
    since: float
    """Seconds from the frame that made the page send it to its answer (``took`` and any wait
    behind the same read on its way)."""
    status: int


@dataclass
class Reader:
    """Sends the pages' reads; keeps what each did."""

    http: HttpTransport
    done: list[Done] = field(default_factory=list)
    _flying: set[tuple[int, str]] = field(default_factory=set)
    _again: dict[tuple[int, str], float] = field(default_factory=dict)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def load(self, page: Page) -> None:
        """The page opens: its reads one after the other; the first is the page itself."""
        for n, read in enumerate(page.opened()):
            status, body = await self._get(page, read, time.monotonic())
            if n == 0 and status == 200:
                page.loaded(body)
            else:
                self.send(page, page.answered(read, status, body))

    def send(self, page: Page, reads: list[Read], since: float | None = None) -> None:
        """Send these reads of the page (``since``: when the frame that asked came)."""
        began = time.monotonic() if since is None else since
        for read in reads:
            key = (id(page), read.path)
            if key in self._flying:
                if read.again:
                    self._again.setdefault(key, began)
                continue
            self._flying.add(key)
            task = asyncio.create_task(self._one(page, read, key, began))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _one(self, page: Page, read: Read, key: tuple[int, str], since: float) -> None:
        try:
            status, body = await self._get(page, read, since)
        finally:
            self._flying.discard(key)
        more = page.answered(read, status, body)
        again = self._again.pop(key, None)
        if again is not None:  # asked for again while on its way: what it read may be stale
            self.send(page, [read], again)
        if more:
            self.send(page, more, since)

    async def _get(self, page: Page, read: Read, since: float) -> tuple[int, bytes]:
        sent = time.monotonic()
        status, body = await self.http.read(read.path, user=page.user)
        now = time.monotonic()
        self.done.append(
            Done(page.kind, read.what, read.cause, sent, now - sent, now - since, status)
        )
        return status, body

    async def close(self) -> None:
        """Let the reads on their way finish (bounded), then forget the rest."""
        tasks = list(self._tasks)
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=10.0)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
