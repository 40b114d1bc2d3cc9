"""Markup in every name an account's pages show, in Chromium: a guest who typed
``<img src=x onerror=...>`` as their name at a table (shown as typed on My games, a
player's page and the table), a session whose browser called itself that (the account
page's signed-in browsers) and a passkey labelled so. On every page (home, the table, the
account page, My games, both players' pages, the leaderboard) the text is shown as text:
no dialog opens, no element of it is made, no script of it runs.

(A hostile-client test, kept with the browser tests for the session's Chromium.)"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from forties.web.accounts import COOKIE, Accounts
from forties.web.clubs import Clubs
from forties.web.limits import Rates
from forties.web.passkeys import Passkeys
from forties.web.service import Limits
from forties.web.store import Store
from tests.history_helpers import add_game, set_rating

from .conftest import serving
from .pages import PHONE, new_page, post, wait_ready

EVIL = "<img src=x onerror=alert(1)>"  # (within a name's 40 characters at a table)
EVIL_SVG = "<svg onload=alert(2)>"


def in_thread(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("hostile-text")
    limits = Limits(bot_delay=0.0, review_seconds=600.0, grace_seconds=600.0, par=False,
                    **Rates.lifted())
    with serving(folder, limits) as url:
        store = Store(f"sqlite:///{folder / 'tables.db'}")
        try:
            accounts = Accounts(store)
            me = in_thread(accounts.create("Marie"))
            paul = in_thread(accounts.create("Paul"))
            key = in_thread(accounts.new_session(me.id, EVIL))
            in_thread(accounts.new_session(me.id, EVIL_SVG))
            in_thread(Passkeys(store).add(me.id, "aGFuZGxl", "QUFBQUFBQUFBQUFBQUFBQQ",
                                          b"\x01" * 77, 0, [], EVIL))
            made = post(url, "/api/tables", {"preset": "merrimack-valley", "name": EVIL})
            now = time.time()
            seats = [{"name": "Marie", "kind": "person", "account": me.id, "side": 0},
                     {"name": EVIL, "kind": "person", "account": None, "side": 1},
                     {"name": "Paul", "kind": "person", "account": paul.id, "side": 0},
                     {"name": EVIL_SVG, "kind": "person", "account": None, "side": 1}]
            add_game(store, made["table"], "merrimack-valley", now - 60, seats, [120, 45],
                     [0])
            set_rating(store, me.id, "merrimack-valley", 30.0, 2.0, 30, now)
            clubs = Clubs(store)
            club = in_thread(clubs.create(me, {"name": EVIL}))
            in_thread(clubs.add_event(club.id, "hall", "nosuchevening", EVIL_SVG,
                                      now + 86400, "hall"))
            yield {"url": url, "key": key, "me": me.id, "paul": paul.id, "made": made,
                   "club": club.id}
        finally:
            store.close()


def pages(site: dict[str, Any]) -> list[tuple[str, str | None]]:
    """(path, the markup shown there as text; None: no name of a guest's there)."""
    return [("/", None), (site["made"]["url"], EVIL),
            ("/account", EVIL_SVG),  # (the other session's browser; this one's "This device")
            ("/me/games", EVIL), (f"/players/{site['me']}", EVIL),
            (f"/players/{site['paul']}", EVIL_SVG), ("/leaderboard/merrimack-valley", None),
            ("/clubs", EVIL), (f"/club/{site['club']}", EVIL_SVG)]


@pytest.mark.parametrize("n", range(9))
def test_markup_in_names_is_shown_as_text_on_every_page(browser: Any, site: dict[str, Any],
                                                        n: int) -> None:
    path, shown = pages(site)[n]
    page = new_page(browser, PHONE)
    page.context.add_cookies([{"name": COOKIE, "value": site["key"], "url": site["url"]}])
    dialogs: list[str] = []

    def dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()
    page.on("dialog", dialog)
    page.goto(site["url"] + path)
    wait_ready(page)
    if shown:  # (the name drawn: as text, or as the elements it must never make)
        page.wait_for_function("t => document.body.innerText.includes(t) || document"
                               ".querySelector('img[src=\"x\"], [onload], [onerror]')",
                               arg=shown)
    page.wait_for_timeout(300)  # (an image's error, had one been made, fires by then)
    made = page.evaluate("""() => ({
        imgs: [...document.querySelectorAll('img')].filter(i => i.getAttribute('src') === 'x'
              || i.hasAttribute('onerror')).length,
        svgs: [...document.querySelectorAll('[onload], [onerror]')].length,
    })""")
    assert made == {"imgs": 0, "svgs": 0}, (path, made)
    assert dialogs == [], (path, dialogs)
    if shown:
        assert page.evaluate("t => document.body.innerText.includes(t)", shown), path
    assert page.errors == [], (path, page.errors)
    page.context.close()
