"""The browser tests' own helpers (tests/web/pages.py) against the real page: ``act`` takes
no turn at a table still waiting for its players, whose page is in its first auction
already and marks it the host's turn, with nothing to tap until the host starts (a test
that starts a table and plays at once met that page and failed)."""

from __future__ import annotations

from typing import Any

from .pages import PHONE, act, body, mine, new_page, post, wait_ready


def test_act_leaves_a_table_waiting_for_its_players_alone(server: str,
                                                          browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                        "public": False, "hints": False,
                                        "turn_seconds": None, "level": "basic"})
    page = new_page(browser, PHONE)
    try:
        page.goto(server + made["url"])
        wait_ready(page)
        page.wait_for_selector("#start")
        # what the page says while it waits: the auction, the host's turn, no bid to tap
        assert body(page, "phase") == "auction" and mine(page)
        assert page.locator("#actions button.act").count() == 0
        version = body(page, "version")
        act(page)  # no turn yet: nothing tapped, nothing refused
        assert body(page, "version") == version and page.text_content("#refusal") == ""
        page.click("#start")
        page.wait_for_function("document.body?.dataset.mine === 'true'"
                               " && document.querySelectorAll('#actions button.act').length")
        version = body(page, "version")
        act(page)  # the host's turn now: a pass or a bid, and the table moves on
        assert body(page, "version") != version
    finally:
        page.context.close()
