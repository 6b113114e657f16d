"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright against a live server."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Response

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "test-output"


def off_the_loop(call: Callable[[], Any]) -> None:
    """Run ``call`` (database work) in a thread of its own: once the browser has started,
    Playwright's event loop holds the test's thread, where Django refuses queries."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            call()
        except BaseException as error:  # raised again below, in the test
            failed.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]


class Served(Protocol):
    """A server the browser talks to: pytest-django's ``live_server``, or Daphne."""

    @property
    def url(self) -> str: ...


def log_in(
    browser: Browser, live_server: Served, username: str, *, width: int = 1280, height: int = 900
) -> Page:
    """A new browser page logged in through the login form."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("response", _print_refusal)
    page.goto(f"{live_server.url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "baccarat")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_server.url}/**")
    return page


def wager(page: Page, seat: int, kind: str, chip: str) -> None:
    """Tap a wager onto ``seat`` on the dealer's tablet: the seat, the kind, the chip."""
    page.click(f".seat[data-seat='{seat}']", position={"x": 16, "y": 12})
    page.click(f"#w-types button[data-type='{kind}']")
    page.click(f"#chips button:text-is('+{chip}')")
    page.wait_for_selector(f".seat[data-seat='{seat}'] .wager.w-{kind}")


def _print_refusal(response: Response) -> None:
    """A command the server refused, with what the page sent and the answer: pytest shows it
    with a failed test's output (a step that waits in vain often follows a refused command)."""
    request = response.request
    if response.status < 400 or request.method != "POST" or "/api/" not in response.url:
        return
    try:
        answer = response.text()[:300]
    except Exception as error:  # the page closed meanwhile
        answer = f"(unread: {error})"
    print(f"refused {response.status}: POST {response.url} {request.post_data} -> {answer}")


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


class Server:
    """A server of the test's own, at ``url``."""

    def __init__(self, url: str) -> None:
        self.url = url


def database_url() -> str:
    """DATABASE_URL of the test database, for a server of the test's own: PostgreSQL's, or the
    SQLite file of ``make test-sqlite`` (config/env.py puts it beside the one given)."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    return (
        f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}"
        f":{db['PORT'] or 5432}/{db['NAME']}"
    )


@pytest.fixture
def daphne(floor_staff: dict[str, User]) -> Iterator[Server]:
    """The real ASGI app under Daphne, on the test database: the pages and the sockets in one
    process, as ``make run`` serves them. With REDIS_URL (``make test``) the Redis channel
    layer; without (``make test-sqlite``) the demo's in-memory one, which the process's own
    commands tell its sockets through."""
    # Daphne runs with the default password hashers, not the tests' fast one.
    hasher = PBKDF2PasswordHasher()
    User.objects.update(password=hasher.encode("baccarat", hasher.salt()))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DEBUG": "true",  # serve the static files too
        "PYTHONUNBUFFERED": "1",
    }
    SHOTS.mkdir(exist_ok=True)
    log = open(SHOTS / "daphne.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "config.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        yield Server(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()
