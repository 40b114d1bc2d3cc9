"""Which event loop the main thread is marked as running, test by test.

Playwright's sync API runs its event loop in a greenlet of the main thread, so from the
moment a worker's browser starts until the session ends, that thread is marked as running
Playwright's loop, between its calls as well as during them. An asyncio test given to the
same worker afterwards (``pytest -n --dist worksteal`` does that near the end of a run)
then fails to set up: "Runner.run() cannot be called from a running event loop".

So each phase of each test (set-up, call, tear-down) starts with the mark it needs: the
browser's loop for a test that uses the ``browser`` fixture, none for every other test.
The browser fixture records its loop here. (Closing the browser needs no mark: its
tear-down comes in the worker's last test's tear-down, whatever that test is.)
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

BROWSER_LOOP: pytest.StashKey[Any] = pytest.StashKey()


def running() -> asyncio.AbstractEventLoop | None:
    return asyncio.events._get_running_loop()


def mark(loop: asyncio.AbstractEventLoop | None) -> None:
    asyncio.events._set_running_loop(loop)


def mark_for(item: pytest.Item) -> None:
    """Before a phase of ``item``: the browser's loop if it uses the browser, else none."""
    uses_browser = "browser" in getattr(item, "fixturenames", ())
    mark(item.config.stash.get(BROWSER_LOOP, None) if uses_browser else None)
