"""The screens that watch the floor: a socket each, noting when each table's notice arrives.

Per table, its tablet and its display (``ws/tables/<id>/``); per pit, its console
(``ws/pits/<id>/``); and the surveillance wall (``ws/surveillance/``, every table). A screen keeps
the sequence its hello gave for each table and the arrival time of every event it was told of
after it (a command's notice tells all its events); what it should have heard is read from the
record afterwards (``report``). A screen whose socket closes opens it again, as the page script
does, and what it missed in between counts as lost.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

#: A screen whose socket closes tries again this many times.
RECONNECTS = 5


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
    duplicates: int = 0
    disconnects: int = 0
    refused: str = ""
    """Why the socket was refused or could not be opened (empty when it was)."""
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def take(self, text: str) -> None:
        """One frame from the server."""
        now = time.monotonic()
        message: Any = json.loads(text)
        if not isinstance(message, dict):
            return
        if message.get("type") == "hello":
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
        for number in told:
            if number in heard:
                self.duplicates += 1
            else:
                heard[number] = now

    def _hello(self, table: int, sequence: int) -> None:
        if table in self.tables:
            self.hello.setdefault(table, sequence)


async def watch(
    screen: Screen,
    http: aiohttp.ClientSession,
    *,
    base_url: str,
    cookie: str,
    stop: asyncio.Event,
) -> None:
    """Keep the screen's socket open until ``stop``, opening it again if it closes."""
    url = base_url.replace("http", "ws", 1) + "/" + screen.path
    headers = {"Cookie": cookie, "Origin": base_url}
    for _ in range(RECONNECTS + 1):
        try:
            async with http.ws_connect(url, headers=headers, autoping=True) as socket:
                async for frame in socket:
                    if frame.type is aiohttp.WSMsgType.TEXT:
                        screen.take(frame.data)
                    elif frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.ERROR):
                        break
                code = socket.close_code
        except (aiohttp.ClientError, TimeoutError, OSError) as error:
            screen.refused = screen.refused or f"{type(error).__name__}: {error}"
            code = None
        if stop.is_set():
            return
        if code is not None and code >= 4000:  # refused by the server: opening again won't help
            screen.refused = f"closed with {code}"
            screen.ready.set()
            return
        screen.disconnects += 1
        await asyncio.sleep(1.0)
    screen.ready.set()
