"""A rated table as the waiting panel shows it: the host ticks "Rated game", the invited
guest's page says before the start that the game counts; the start, with a guest at the
table, is refused in the page's own words (each language's); unticked, the game starts.
axe finds nothing in the panel, its checkbox and its line, on a phone and a desktop."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import DESKTOP, PHONE, TABLET, catalog, new_page, post, wait_ready
from .test_axe import RULES, axe_script


def panel_findings(page: Any) -> list[str]:
    """What axe finds in the waiting panel, at a phone's size and a desktop's."""
    page.evaluate(axe_script())
    out = []
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        got = page.evaluate("(rules) => axe.run('#waiting', rules)", RULES)
        out += [f"{size['width']}px: {v['id']}" for v in got["violations"]]
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_the_host_rates_the_table_and_a_guest_is_told_before_the_start(
        server: str, browser: Any, lang: str) -> None:
    words = catalog(lang)
    made = post(server, "/api/tables", {"preset": "forty-one", "name": "Ann",
                                        "level": "basic"})
    host = new_page(browser, TABLET, lang)
    host.goto(server + made["url"])
    wait_ready(host)
    assert host.text_content("#rated-note") == words["waiting.rated_no"]
    friend = new_page(browser, PHONE, lang)
    friend.goto(server + made["invites"][0]["url"])
    friend.fill("#join-name", "Bob")
    friend.click("#join-go")
    wait_ready(friend)
    assert friend.locator("#rated").count() == 0  # (the host's choice alone)
    host.check("#rated")
    friend.wait_for_function("(want) => document.getElementById('rated-note')"
                             ".textContent === want", arg=words["waiting.rated_yes"])
    host.wait_for_function("document.getElementById('rated').checked")
    assert panel_findings(host) == [] and panel_findings(friend) == []
    host.set_viewport_size(TABLET)
    host.click("#start")  # Bob is a guest: the rated game does not start
    host.wait_for_function("(want) => document.getElementById('waiting-error')"
                           ".textContent === want", arg=words["error.code.rated_guests"])
    assert host.locator("#waiting").is_visible()
    host.uncheck("#rated")
    friend.wait_for_function("(want) => document.getElementById('rated-note')"
                             ".textContent === want", arg=words["waiting.rated_no"])
    host.click("#start")
    host.wait_for_selector("#waiting", state="hidden")
    assert not host.errors and not friend.errors
    host.context.close()
    friend.context.close()
