"""The screens that watch the floor: a socket each, noting when each table's notice arrives.

Per table, its tablet and its display (``ws/tables/<id>/``); per pit, its console and its
progressives page (``ws/pits/<id>/``); and the surveillance wall (``ws/surveillance/``, every
table). Each is a page (``loadsim.pages``) that sends the reads its script would for each frame.
A screen keeps the sequence its first hello gave for each table and the arrival time of every
event it was told of after it (a command's notice tells all its events); what it should have
heard is read from the record afterwards (``report``). A screen whose socket closes opens it
again, as the page script does, and what it missed in between counts as lost.

It also follows each table as the page script (``static/js/live.js``) does, to tell the report
which of the notices it never heard it knew it had missed: a notice whose first event is past the
last sequence it knew means the ones between were lost (a gap: the page reloads the table), and so
does a later hello (the server's heartbeat, or the hello of a socket opened again) past it: those
are lost, then recovered by the hello.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from loadsim.pages import Page
from loadsim.reading import Reader

#: A screen whose socket closes opens it again after these waits, doubling from the first to the
#: last, each drawn from its second half, and from the first again once a hello comes (live.js).
FIRST_RETRY = 1.0
LAST_RETRY = 30.0


@dataclass
class Screen:
    kind: str
    """``tablet``, ``display``, ``pit`` or ``surveillance``."""
    path: str
    user: str
    """Whose session it is opened with."""
    tables: frozenset[int]
    """The simulated tables it should hear."""
    hello: dict[int, int] = field(default_factory=dict)
    """Each table's sequence in the first hello."""
    seen: dict[int, dict[int, float]] = field(default_factory=dict)
    """Table -> sequence -> ``time.monotonic()`` of arrival."""
    last: dict[int, int] = field(default_factory=dict)
    """Each table's last sequence the screen knows of (heard, or said by a hello), as live.js."""
    missed: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    """Table -> ``(how, after, upto)``: the screen learned it missed the sequences after ``after``
    up to ``upto``, by a ``"gap"`` (a notice skipped them) or a ``"hello"`` (one said more)."""
    hellos: int = 0
    """Hellos after the first: the heartbeat's, and those of a socket opened again."""
    late: int = 0
    """Notices that came after a later one of their table (out of order)."""
    duplicates: int = 0
    disconnects: int = 0
    heard_at: float = 0.0
    """``time.monotonic()`` of its last frame."""
    refused: str = ""
    """Why the socket was refused or could not be opened (empty when it was)."""
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    page: Page | None = None
    """The page whose socket this is: it sends the reads its script would (``loadsim.pages``)."""
    reader: Reader | None = None

    def take(self, text: str) -> None:
        """One frame from the server."""
        now = self.heard_at = time.monotonic()
        message: Any = json.loads(text)
        if not isinstance(message, dict):
            return
        if self.page is not None and self.reader is not None:
            self.reader.send(self.page, self.page.frame(message), now)
        if message.get("type") == "hello":
            if self.ready.is_set():
                self.hellos += 1
            if "sequence" in message:
                self._hello(message["table"], message["sequence"])
            for line in message.get("tables", ()):
                self._hello(line["table"], line["sequence"])
            self.ready.set()
            return
        table, sequence = message.get("table"), message.get("sequence")
        if not isinstance(table, int) or not isinstance(sequence, int):
            return
        # One notice per command: its last event's sequence, and (with the change) every event.
        change = message.get("change")
        told = {sequence}
        if isinstance(change, dict):
            told |= {
                e["sequence"]
                for e in change.get("events", ())
                if isinstance(e, dict) and isinstance(e.get("sequence"), int)
            }
        heard = self.seen.setdefault(table, {})
        fresh = {number for number in told if number not in heard}
        self.duplicates += len(told) - len(fresh)
        for number in fresh:
            heard[number] = now
        last = self.last.get(table)
        if last is None:  # not a table of this screen's hello
            return
        if min(told) > last + 1:  # the page script sees a gap, and reloads the table
            self.missed.setdefault(table, []).append(("gap", last, min(told) - 1))
        if max(told) > last:
            self.last[table] = max(told)
        elif fresh:
            self.late += 1  # after a later notice (or a hello) of its table

    def _hello(self, table: int, sequence: int) -> None:
        if table not in self.tables:
            return
        last = self.last.get(table)
        if last is None:  # the first hello: where the screen starts
            self.hello[table] = self.last[table] = sequence
        elif sequence > last:  # the screen learns it missed what is between
            self.missed.setdefault(table, []).append(("hello", last, sequence))
            self.last[table] = sequence


async def watch(
    screen: Screen,
    http: aiohttp.ClientSession,
    *,
    base_url: str,
    cookie: str,
    stop: asyncio.Event,
) -> None:
    """Keep the screen's socket open until ``stop``, opening it again if it closes, as live.js
    does (a refusal by the server, close code 4000 and up, is final)."""
    url = base_url.replace("http", "ws", 1) + "/" + screen.path
    headers = {"Cookie": cookie, "Origin": base_url}
    retries = 0
    while not stop.is_set():
        hellos, was_ready = screen.hellos, screen.ready.is_set()
        try:
            # Asking for per-message deflate, as browsers do (the server declines it).
            async with http.ws_connect(url, headers=headers, autoping=True, compress=15) as socket:
                async for frame in socket:
                    if frame.type is aiohttp.WSMsgType.TEXT:
                        screen.take(frame.data)
                    elif frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                        break
                code = socket.close_code
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            if not screen.ready.is_set():
                screen.refused = screen.refused or f"{type(error).__name__}: {error}"
            code = None
        if stop.is_set():
            return
        if code is not None and code >= 4000:  # refused by the server: opening again won't help
            screen.refused = f"closed with {code}"
            screen.ready.set()
            return
        screen.disconnects += 1
        if screen.hellos > hellos or (screen.ready.is_set() and not was_ready):
            retries = 0  # a hello came on this socket
        wait = min(LAST_RETRY, FIRST_RETRY * 2**retries)
        retries += 1
        await asyncio.sleep(wait * (0.5 + random.random() / 2))
