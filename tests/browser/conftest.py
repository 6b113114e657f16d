"""Real Chromium (Debian's /usr/bin/chromium) driven by Playwright against a live server."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection

from tests.record.chains import triggers_bypassed

SHOTS = Path(__file__).resolve().parents[2] / "test-output"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def floor_staff(transactional_db: None) -> Iterator[dict[str, User]]:
    """The demo floor, committed so the live server sees it; events removed afterwards."""
    call_command("seed_demo", verbosity=0)
    yield {u.username: u for u in User.objects.all()}
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM casino_event")


@pytest.fixture
def browser() -> Iterator[object]:
    """Chromium, started by the test when its data is ready (``browser.start()``).

    Playwright's sync API runs an event loop in this thread; starting it only after the test
    has prepared its tables keeps the actions' after-commit notices out of that loop.
    """

    class Browser:
        def __init__(self) -> None:
            self._playwright: object | None = None
            self._chromium: object | None = None

        def start(self) -> object:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            self._chromium = self._playwright.chromium.launch(  # type: ignore[attr-defined]
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            return self._chromium

        def stop(self) -> None:
            if self._chromium is not None:
                self._chromium.close()  # type: ignore[attr-defined]
            if self._playwright is not None:
                self._playwright.stop()  # type: ignore[attr-defined]
            self._chromium = self._playwright = None

    handle = Browser()
    yield handle
    handle.stop()


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


def log_in(browser: object, live_server: object, username: str) -> object:
    """A new browser page logged in through the login form."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page.on("response", _print_refusal)  # type: ignore[attr-defined]
    page.goto(f"{live_server.url}/login/")  # type: ignore[attr-defined]
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "baccarat")
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_url(f"{live_server.url}/**")  # type: ignore[attr-defined]
    return page


def _print_refusal(response: Any) -> None:
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


def shot(page: object, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path
