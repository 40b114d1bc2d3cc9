"""Browser tests: the real server on 127.0.0.1 (a free port, its own database in a temporary
folder, computer players without delay) and Debian's Chromium driven by Playwright.

Screenshots go to a temporary folder, or to $FORTIES_SCREENSHOTS (``make screenshots``
sets it to docs/screenshots).
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..helpers_loop import BROWSER_LOOP, running

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@contextlib.contextmanager
def serving(folder: Path, limits: Any) -> Iterator[str]:
    """The real server on 127.0.0.1 (a free port, its own database in ``folder``) with
    ``limits`` (forties.web.service.Limits), in a thread: its address, then stopped."""
    import uvicorn

    from forties.web.app import ServerSettings, create_app

    app = create_app(ServerSettings(db_url=f"sqlite:///{folder / 'tables.db'}", limits=limits))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(15)
        sock.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a running server (one per test worker)."""
    from forties.web.limits import Rates
    from forties.web.service import Limits

    # (a Forty One par searches at most 5 million positions here, a second or so: a hand
    # that needs more gets the estimate, so labelled)
    limits = Limits(bot_delay=0.05, review_seconds=600.0, grace_seconds=600.0,
                    messages_per_second=200.0, message_burst=400.0, **Rates.lifted(),
                    par_budget=5_000_000)
    with serving(tmp_path_factory.mktemp("web"), limits) as url:
        yield url


# A predicate Playwright polls is run in the page: a bare expression ("x === 1") by eval at
# each poll, which the pages' Content-Security-Policy (no 'unsafe-eval') refuses; written
# as a function ("() => x === 1") it is compiled once, as the policy allows. The tests'
# predicates are given to Page.wait_for_function in either form.
FUNCTION = re.compile(r"\s*(async\s+)?(\(|function\b|[A-Za-z_$][\w$]*\s*=>)")


def as_function(predicate: str) -> str:
    return predicate if FUNCTION.match(predicate) else f"() => ({predicate})"


@pytest.fixture(scope="session")
def browser(pytestconfig: pytest.Config) -> Iterator[Any]:
    from playwright.sync_api import Page, sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install chromium)")
    polls = Page.wait_for_function

    def wait_for_function(self: Page, expression: str, *args: Any, **kwargs: Any) -> Any:
        return polls(self, as_function(expression), *args, **kwargs)

    Page.wait_for_function = wait_for_function  # type: ignore[method-assign]
    with sync_playwright() as p:
        loop = running()  # Playwright's, marked on this thread from now on (helpers_loop)
        pytestconfig.stash[BROWSER_LOOP] = loop
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
        del pytestconfig.stash[BROWSER_LOOP]
    Page.wait_for_function = polls  # type: ignore[method-assign]


@pytest.fixture(autouse=True)
def closes_its_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """A browser test's contexts (its pages) are closed when it ends, whether it closed
    them or not: a page left open keeps its scripts and its websocket running for the rest
    of the worker's session (a module's own server waited on them as it stopped). Those
    of the module's and the session's fixtures, made before the test, are left alone."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the tests save their screenshots."""
    env = os.environ.get("FORTIES_SCREENSHOTS")
    if env:
        Path(env).mkdir(parents=True, exist_ok=True)
        return Path(env)
    return tmp_path_factory.mktemp("screenshots")
