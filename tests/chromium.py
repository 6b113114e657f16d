"""Debian's Chromium (/usr/bin/chromium) through Playwright, for the tests that drive pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class Chromium:
    """Debian's Chromium (/usr/bin/chromium) through Playwright, started by the test when its
    data is ready (``start()``), stopped by the test (``stop()``) or else after it."""

    def __init__(self) -> None:
        self._playwright: Playwright | None = None
        self._chromium: Browser | None = None

    def start(self) -> Browser:
        from playwright.sync_api import sync_playwright

        self._playwright = sync_playwright().start()
        self._chromium = self._playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        return self._chromium

    def stop(self) -> None:
        if self._chromium is not None:
            self._chromium.close()
        if self._playwright is not None:
            self._playwright.stop()
        self._chromium = self._playwright = None
