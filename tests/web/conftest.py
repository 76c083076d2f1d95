"""Fixtures of the page's tests: the app over a temporary SQLite file, served by uvicorn on a free
port of 127.0.0.1 in a thread, and Debian's Chromium driven by Playwright (issue 17, Tests)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("SETTLE_TEST_CHROMIUM", "/usr/bin/chromium")
"""Debian's Chromium; ``SETTLE_TEST_CHROMIUM`` names another binary (the test of the missing-browser message)."""
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``settle serve``'s app over ``db`` in a uvicorn thread; :meth:`restart` stops it and starts a new
    process-level app over the same file (nothing kept in memory survives)."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self.port = free_port()
        self.thread: threading.Thread | None = None
        self.server: Any = None
        self.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        import uvicorn

        from settle.web import create_app

        self.app = create_app(self.db)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                    log_level="warning", access_log=False))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        assert self.thread is not None
        self.thread.join(20)

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "settle.db")
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"the browser tests need Debian's Chromium at {CHROMIUM}: run scripts/ensure-chromium "
                    "(as root it installs it; else: sudo apt-get install -y chromium)", pytrace=False)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A fresh browser context at phone size (360x740), English page language."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.set_default_timeout(15000)
    yield context
    context.close()
