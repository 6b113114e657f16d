"""How a dealer bot reaches the API: over HTTP (the load test), or in-process (query counts).

Over HTTP a bot signs in as the tablet does, with its session (and the CSRF token a page would
hold), or with an API token, as a script does (``--auth``); in-process, with a token. Both send
every command with an Idempotency-Key.
Over HTTP a command's answer is handed back (the tablet's page puts it in place); in-process,
only its status (and a refusal's text, for the report).
"""

from __future__ import annotations

import cProfile
import json
import time
from collections import defaultdict
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils.crypto import get_random_string

from loadsim import http1
from loadsim.dealer import Answer, route_label

#: A refusal's text kept for the report, at most.
ERROR_CHARS = 300


AUTHS = ("session", "token")


def session_headers(sessions: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each user's headers as a signed-in tablet sends them: the session's cookie, and the CSRF
    token in its cookie and its header (as ``static/js/http.js`` sends it)."""
    made = {}
    for user, key in sessions.items():
        csrf = get_random_string(32)
        cookie = f"{settings.SESSION_COOKIE_NAME}={key}; {settings.CSRF_COOKIE_NAME}={csrf}"
        made[user] = {"Cookie": cookie, "X-CSRFToken": csrf}
    return made


def token_headers(tokens: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each user's headers with their API token."""
    return {user: {"Authorization": f"Token {key}"} for user, key in tokens.items()}


class HttpTransport:
    """Keep-alive connections to the server (``http1``); one request at a time per bot.
    ``headers``: each user's, that sign them in (``session_headers`` or ``token_headers``)."""

    def __init__(
        self,
        base_url: str,
        headers: dict[str, dict[str, str]],
        *,
        connections: int,
        timeout: float,
    ) -> None:
        self.headers = headers
        self.client = http1.Client(base_url, connections=connections, timeout=timeout)

    async def get(self, path: str, *, user: str) -> tuple[int, Any]:
        try:
            got = await self.client.request("GET", path, self.headers[user])
        except (http1.HttpError, OSError, TimeoutError) as error:
            return 0, str(error)
        return got.status, json.loads(got.body) if got.status == 200 else None

    async def post(self, path: str, body: dict[str, Any], *, user: str, key: str) -> Answer:
        headers = {**self.headers[user], "Idempotency-Key": key}
        try:
            got = await self.client.request("POST", path, headers, json.dumps(body).encode())
        except (http1.HttpError, OSError, TimeoutError) as error:
            return Answer(0, f"{type(error).__name__}: {error}"[:ERROR_CHARS])
        if got.status == 200:
            return Answer(200, body=got.body)
        return Answer(got.status, got.body.decode(errors="replace")[:ERROR_CHARS])

    async def read(self, path: str, *, user: str) -> tuple[int, bytes]:
        """A page's GET as it is: its status (0: no answer) and body."""
        try:
            got = await self.client.request("GET", path, self.headers[user])
        except (http1.HttpError, OSError, TimeoutError):
            return 0, b""
        return got.status, got.body

    async def close(self) -> None:
        await self.client.close()


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
