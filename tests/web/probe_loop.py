"""Run only by test_loop_marks.py, in this order, in one process: browser tests and
asyncio tests taking turns on one worker, as ``pytest -n --dist worksteal`` may give them.
(Not named test_*: the suite does not collect it by itself.)"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import pytest_asyncio


def page_text(browser: Any) -> str:
    page = browser.new_page()
    try:
        page.set_content("<p id=x>forties</p>")
        return str(page.inner_text("#x"))
    finally:
        page.close()


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def module_loop() -> Any:
    yield asyncio.get_running_loop()


def test_a_browser_page(browser: Any) -> None:
    assert page_text(browser) == "forties"


@pytest.mark.asyncio(loop_scope="module")
async def test_an_asyncio_test_after_the_browser(module_loop: Any) -> None:
    await asyncio.sleep(0)
    assert asyncio.get_running_loop() is module_loop


def test_asyncio_run_in_a_plain_test() -> None:
    async def one() -> int:
        await asyncio.sleep(0)
        return 1

    assert asyncio.run(one()) == 1


def test_the_browser_again(browser: Any) -> None:
    assert page_text(browser) == "forties"


@pytest.mark.asyncio(loop_scope="module")
async def test_the_last_test_is_asyncio(module_loop: Any) -> None:
    # the session's browser closes in this test's tear-down
    assert asyncio.get_running_loop() is module_loop
