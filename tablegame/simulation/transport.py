"""How a dealer bot reaches the API: over HTTP (the load test), or in-process (query counts).

Both authenticate with the staff's API tokens and send every command with an Idempotency-Key.
Neither reads a command's answer beyond its status (and a refusal's text, for the report).
"""

from __future__ import annotations

import cProfile
import json
import time
from collections import defaultdict
from typing import Any

import aiohttp
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tablegame.simulation.dealer import Answer, route_label

#: A refusal's text kept for the report, at most.
ERROR_CHARS = 300


class HttpTransport:
    """Keep-alive connections to the server; one request at a time per bot."""

    def __init__(
        self, base_url: str, tokens: dict[str, str], *, connections: int, timeout: float
    ) -> None:
        self.base_url = base_url
        self.headers = {user: {"Authorization": f"Token {key}"} for user, key in tokens.items()}
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=connections, force_close=False),
            timeout=aiohttp.ClientTimeout(total=timeout),
            cookie_jar=aiohttp.DummyCookieJar(),  # tokens only: no session, no CSRF
            json_serialize=json.dumps,
        )

    async def get(self, path: str, *, user: str) -> tuple[int, Any]:
        try:
            async with self.session.get(self.base_url + path, headers=self.headers[user]) as got:
                return got.status, await got.json() if got.status == 200 else None
        except (aiohttp.ClientError, TimeoutError) as error:
            return 0, str(error)

    async def post(self, path: str, body: dict[str, Any], *, user: str, key: str) -> Answer:
        headers = {**self.headers[user], "Idempotency-Key": key}
        try:
            async with self.session.post(self.base_url + path, json=body, headers=headers) as got:
                if got.status == 200:
                    await got.read()
                    return Answer(200)
                return Answer(got.status, (await got.text())[:ERROR_CHARS])
        except (aiohttp.ClientError, TimeoutError) as error:
            return Answer(0, f"{type(error).__name__}: {error}"[:ERROR_CHARS])

    async def close(self) -> None:
        await self.session.close()


class InProcessTransport:
    """Django's test client in this process, counting each command's SQL queries by route.

    The requests run in one worker thread (asgiref's thread-sensitive executor), where the
    database connection lives; the bot awaits them like HTTP calls.
    """

    def __init__(self, tokens: dict[str, str], *, profile: bool = False) -> None:
        self.profiler = cProfile.Profile(time.thread_time) if profile else None
        """With ``profile``: every command's request profiled (its thread's CPU time: waiting for
        PostgreSQL is not counted)."""
        self.clients = {
            user: Client(HTTP_HOST="127.0.0.1", HTTP_AUTHORIZATION=f"Token {key}")
            for user, key in tokens.items()
        }
        self.queries: dict[str, list[int]] = defaultdict(list)
        """Route (``/api/tables/<n>/`` cut off) -> the query count of each time it ran."""
        self.refusals: list[str] = []

    async def get(self, path: str, *, user: str) -> tuple[int, Any]:
        return await sync_to_async(self._get, thread_sensitive=True)(path, user)

    def _get(self, path: str, user: str) -> tuple[int, Any]:
        got = self.clients[user].get(path)
        return got.status_code, got.json() if got.status_code == 200 else None

    async def post(self, path: str, body: dict[str, Any], *, user: str, key: str) -> Answer:
        return await sync_to_async(self._post, thread_sensitive=True)(path, body, user, key)

    def _post(self, path: str, body: dict[str, Any], user: str, key: str) -> Answer:
        with CaptureQueriesContext(connection) as captured:
            if self.profiler:
                self.profiler.enable()
            try:
                got = self.clients[user].post(
                    path,
                    json.dumps(body),
                    content_type="application/json",
                    headers={"Idempotency-Key": key},
                )
            finally:
                if self.profiler:
                    self.profiler.disable()
        if got.status_code == 200:
            route = route_label(path.split("/", 4)[4])
            self.queries[route].append(len(captured.captured_queries))
            return Answer(200)
        return Answer(got.status_code, got.content.decode(errors="replace")[:ERROR_CHARS])

    async def close(self) -> None:
        pass
