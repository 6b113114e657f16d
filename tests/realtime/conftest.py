"""Live notices end to end: the real ASGI application, sessions, and the Redis channel layer.

Every test runs its socket work in one event loop (``async_to_sync`` of a scenario); actions are
called from it with ``sync_to_async``, so they run on the test's thread and database connection,
and their after-commit notices go through Redis to the consumer as in production.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import Max
from django.test import Client
from pytest_django import Settings

from casino.models import Event
from config.env import channel_layers_from_env
from tablegame.models import Table

ORIGIN = b"http://testserver"


@pytest.fixture(autouse=True)
def channel_layer_of_its_own(settings: Settings, redis_url: str) -> None:
    """The production Redis layer (``config.env``), under a prefix of this test's own.

    Another checkout running the suite on the same Redis has tables with the same ids; a prefix
    per test keeps their notices (and this test's leftovers) out of what these sockets hear.
    """
    layers = channel_layers_from_env({"REDIS_URL": redis_url})
    layers["default"]["CONFIG"]["prefix"] = f"test-{uuid.uuid4().hex[:12]}."
    settings.CHANNEL_LAYERS = layers


def socket(path: str, *, user: User | None = None, origin: bytes = ORIGIN) -> Any:
    """A WebSocket client for ``path`` on the real application, logged in as ``user`` if given.

    ``config.asgi`` is imported here, not at the top: its origin check copies ALLOWED_HOSTS when
    imported, and "testserver" joins them only once the test environment is set up.
    """
    from config.asgi import application

    headers = [(b"origin", origin)]
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def opened(client: Any) -> dict[str, Any]:
    """Connect and return the hello."""
    connected, _ = await client.connect()
    assert connected
    hello: dict[str, Any] = await client.receive_json_from()
    assert hello["type"] == "hello"
    return hello


async def refusal(client: Any) -> int:
    """Connect, expect to be closed at once, and return the close code."""
    connected, _ = await client.connect()
    assert connected  # accepted only to be told why in a code the browser sees
    closed = await client.receive_output()
    assert closed["type"] == "websocket.close"
    await client.disconnect()
    code: int = closed["code"]
    return code


class HeldOpen:
    """Runs ``change`` in a transaction on a thread (and connection) of its own, and commits it
    only when told: another process's transaction, as the consumer sees it.

    Not on the test's own thread: the consumer's thread-sensitive work runs there, and would wait
    for the test instead of showing whether a notice leaks out before the commit.
    """

    def __init__(self, change: Callable[[], object]) -> None:
        self._change = change
        self._changed, self._commit = threading.Event(), threading.Event()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run)

    def _run(self) -> None:
        try:
            with transaction.atomic():
                self._change()
                self._changed.set()
                self._commit.wait(timeout=10)
        except BaseException as error:
            self._error = error
        finally:
            self._changed.set()
            connection.close()

    async def change(self) -> None:
        """Make the change and return with its transaction still open."""
        self._thread.start()
        await asyncio.to_thread(self._changed.wait, 10)
        self._raise()

    async def commit(self) -> None:
        self._commit.set()
        await asyncio.to_thread(self._thread.join, 10)
        self._raise()

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error


def last_sequence(table: Table) -> int:
    return int(
        Event.objects.filter(chain__table=table).aggregate(last=Max("sequence"))["last"] or 0
    )
