"""The pages of an account's games in Chromium (``web.history``): My games lists the
account's games, its filters change the list, a hand of a real game opens at its deal in the
replay (with the par at the cards); a player's page draws the rating history as a chart
with the same points as a table; the leaderboard fits a 360-pixel phone in English and in
French; axe finds nothing on the three pages in English, French and Arabic.

The server is the real one on 127.0.0.1; the game opened in the replay is played on it (a
seat's client playing random legal cards against computer players, two hands); the games'
index is written by the test, as ``web.games`` would write it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from forties.ratings import REASONS
from forties.web.accounts import COOKIE, Account, Accounts
from forties.web.limits import Rates
from forties.web.service import Limits
from forties.web.store import Store
from tests.client import SeatClient
from tests.history_helpers import add_game, set_rating, set_stats

from .conftest import serving
from .pages import PHONE, get, new_page, post, wait_ready
from .test_axe import findings

DAY = 86400.0


def in_thread(coro: Any) -> Any:
    """A coroutine run to its end on a loop of its own (Playwright's holds this thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def two_hands(base: str) -> str:
    """A Play-now table of Merrimack Valley whose person plays random legal cards until the
    third hand is dealt (or the game ends): its id. Its record then has two finished hands."""
    made = post(base, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                    "name": "Marie"})
    seat = SeatClient(base.replace("http:", "ws:", 1), made["table"],
                      made["token"]).autoplay(seed=7).start()
    try:
        await seat.wait_for(lambda c: bool(c.view) and (
            c.over or c.view.get("hand_index", 0) >= 2), timeout=120)
    finally:
        await seat.stop()
    return str(made["table"])


class Site:
    def __init__(self, url: str, store: Store, me: Account, key: str, paul: Account,
                 table: str, hands: int) -> None:
        self.url, self.store, self.me, self.key = url, store, me, key
        self.paul, self.table, self.hands = paul, table, hands


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("history")
    limits = Limits(bot_delay=0.0, review_seconds=600.0, grace_seconds=600.0,
                    messages_per_second=200.0, message_burst=400.0, **Rates.lifted(),
                    par_budget=5_000_000)
    with serving(folder, limits) as url:
        store = Store(f"sqlite:///{folder / 'tables.db'}")
        try:
            accounts = Accounts(store)
            me = in_thread(accounts.create("Marie"))
            paul = in_thread(accounts.create("Paul"))
            key = in_thread(accounts.new_session(me.id, "tests"))
            table = in_thread(two_hands(url))
            hands = len(get(url, f"/api/tables/{table}/record")["hands"])
            assert hands >= 2, "the game ended in its first hand: no second hand to open"
            now = time.time()
            seats = [{"name": "Marie", "kind": "person", "account": me.id, "side": 0},
                     {"name": "Computer (random)", "kind": "computer", "level": "random",
                      "account": None, "side": 1},
                     {"name": "Paul", "kind": "person", "account": paul.id, "side": 0},
                     {"name": "Computer (random)", "kind": "computer", "level": "random",
                      "account": None, "side": 1}]
            add_game(store, table, "merrimack-valley", now - 60, seats, [45, 20], [0],
                     hands=hands)
            add_game(store, "old-forty-one", "forty-one", now - 3 * DAY,
                     [dict(s, kind="person", name=n, account=None) if s["account"] is None
                      else s for s, n in zip(seats, ["", "Zoé", "", "Karim"], strict=True)],
                     [41, 30], [1], rated=True, counted=False, why=REASONS["guest"])
            add_game(store, "solo-auction", "auction-45", now - 2 * DAY,
                     [seats[0], {"name": "Bob", "kind": "person", "account": None,
                                 "side": 1},
                      {"name": "Ann", "kind": "person", "account": None, "side": 0},
                      {"name": "Cy", "kind": "person", "account": None, "side": 1}],
                     [120, 85], [0], rated=True, counted=True,
                     ratings={0: (1100.0, 1125.0)})
            set_rating(store, me.id, "auction-45", 30.0, 2.0, 30, now,
                       history=[(now - 3 * DAY, 1400.0), (now - 2 * DAY, 1450.0),
                                (now - DAY, 1430.0), (now, 1600.0)])
            set_rating(store, paul.id, "auction-45", 28.0, 2.0, 40, now)
            set_stats(store, me.id, "auction-45", "", {
                "games": 4, "won": 3, "hands": 10, "hands_won": 6, "points": 75,
                "par_hands": 8, "par_equal": 6, "bids": {"30for60": {"made": 1, "set": 1}}})
            yield Site(url, store, me, key, paul, table, hands)
        finally:
            store.close()


def signed_in(browser: Any, site: Site, lang: str = "en", viewport: Any = PHONE) -> Any:
    page = new_page(browser, viewport, lang)
    page.context.add_cookies([{"name": COOKIE, "value": site.key, "url": site.url}])
    return page


def listed(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#games li.game", "els => els.map(e => e.dataset.table)"))


def test_my_games_filters_and_a_hand_in_the_replay(browser: Any, site: Site) -> None:
    page = signed_in(browser, site)
    page.goto(site.url + "/me/games?lang=en")
    wait_ready(page)
    assert listed(page) == [site.table, "solo-auction", "old-forty-one"]
    first = page.locator(f"li.game[data-table='{site.table}']")
    assert "With: Paul" in first.inner_text()
    assert "Against: Computer (Beginner), Computer (Beginner)" in first.inner_text()
    old = page.locator("li.game[data-table='old-forty-one']").inner_text()
    assert "Against: Zoé, Karim" in old and "Lost" in old
    assert "A seat was played by a guest without an account" in old
    assert "Rating +25, now 1125." in page.locator(
        "li.game[data-table='solo-auction']").inner_text()
    # the filters: by game, then by partner (kept in the address)
    page.select_option("#family", "forty-one")
    page.click("#filter-form button[type=submit]")
    page.wait_for_url("**family=forty-one**")
    wait_ready(page)
    assert listed(page) == ["old-forty-one"]
    page.goto(site.url + "/me/games?lang=en")
    wait_ready(page)
    page.select_option("#partner", site.paul.id)
    page.click("#filter-form button[type=submit]")
    page.wait_for_url(f"**partner={site.paul.id}**")
    wait_ready(page)
    assert listed(page) == [site.table, "old-forty-one"]  # (not the game without Paul)
    # the second hand of the real game, opened in the replay at its deal
    page.click(f"li.game[data-table='{site.table}'] .hands-box summary")
    page.click(f"li.game[data-table='{site.table}'] a:text-is('Hand 2')")
    page.wait_for_url(f"**/replay?table={site.table}&hand=2")
    page.wait_for_function("document.body?.dataset.ready === '1' || "
                           "document.getElementById('error').textContent !== ''", timeout=60000)
    assert page.text_content("#error") == "" and page.errors == []  # type: ignore[attr-defined]
    assert page.text_content("#step-text") == "Hand 2: the deal"
    step = int(page.evaluate("document.body.dataset.step"))
    assert step > 0
    # the par at the cards: from the first lead on, the replay says it
    pars = []
    for _ in range(40):
        page.click("#next")
        pars.append(page.text_content("#step-par") or "")
        if pars[-1]:
            break
    assert pars[-1], "no par said at any card of hand 2"
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_a_guest_is_asked_to_sign_in_and_refusals_are_translated(
        browser: Any, site: Site) -> None:
    page = new_page(browser, PHONE, "fr")
    page.goto(site.url + "/me/games?lang=fr")
    wait_ready(page)
    page.wait_for_selector("#signin:not([hidden])")
    assert "Connectez-vous" in page.inner_text("#signin")
    # a player who does not exist (or was deleted): said in the page's language
    page.goto(site.url + "/players/nobody?lang=fr")
    wait_ready(page)
    assert page.text_content("#error") == "Ce joueur n'existe pas."
    page.goto(site.url + "/leaderboard/chess?lang=fr")
    wait_ready(page)
    assert page.text_content("#error") == "Ce jeu n'existe pas."
    page.context.close()


def test_the_player_page_draws_the_rating_history_and_its_table(
        browser: Any, site: Site) -> None:
    page = new_page(browser, PHONE, "en")  # a guest reading Marie's page
    page.goto(site.url + f"/players/{site.me.id}?lang=en")
    wait_ready(page)
    assert page.text_content("h1") == "Marie"
    chart = page.locator("figure.chart[data-family='auction-45']")
    points = chart.locator("svg polyline").get_attribute("points") or ""
    assert len(points.split()) == 4
    ys = [float(p.split(",")[1]) for p in points.split()]
    # higher ratings are drawn higher (SVG's y grows downwards): 1400, 1450, 1430, 1600
    assert ys[3] < ys[1] < ys[2] < ys[0]
    label = chart.locator("svg").get_attribute("aria-labelledby")
    assert page.text_content(f"#{label}") == \
        "Auction 45: 4 rated games, from 1400 to 1600."
    page.click("figure.chart[data-family='auction-45'] details summary")
    rows = page.eval_on_selector_all(
        "#chart-auction-45-table tbody tr", "rs => rs.map(r => r.cells[2].textContent)")
    assert rows == ["1400", "1450", "1430", "1600"]
    assert "1600 (30 rated games)" in page.inner_text("#ratings")
    stats = page.inner_text("#stats")
    assert "Points a hand\t7.5" in stats and "30 for 60\t1\t1" in stats
    assert page.locator("#regular-actions").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_leaderboard_on_a_phone(browser: Any, site: Site, lang: str) -> None:
    page = new_page(browser, PHONE, lang)
    page.goto(site.url + f"/leaderboard/auction-45?lang={lang}")
    wait_ready(page)
    names = page.eval_on_selector_all("#players tr", "rs => rs.map(r => r.cells[1].textContent)")
    assert names == ["Marie", "Paul"]
    assert page.eval_on_selector_all(
        "#players tr", "rs => rs.map(r => r.cells[0].textContent)") == ["1", "2"]
    heading = {"en": "Leaderboards", "fr": "Classements"}[lang]
    assert page.text_content("h1") == heading
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the table's four columns are all within the screen: nothing to scroll sideways for
    assert page.evaluate("(() => { const t = document.getElementById('board'); "
                         "return t.scrollWidth <= t.parentElement.clientWidth; })()")
    page.click("#players tr >> nth=0 >> a")
    page.wait_for_url(f"**/players/{site.me.id}**")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_axe_finds_nothing_on_the_history_pages(browser: Any, site: Site, lang: str) -> None:
    page = signed_in(browser, site, lang)
    found: list[str] = []
    for path in (f"/me/games?lang={lang}", f"/players/{site.me.id}?lang={lang}",
                 f"/leaderboard/auction-45?lang={lang}"):
        page.goto(site.url + path)
        wait_ready(page)
        for d in page.query_selector_all("details"):
            d.evaluate("d => { d.open = true; }")
        found += findings(page)
    assert not found, "\n".join(found)
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_pages_keep_to_keyboard_order(browser: Any, site: Site) -> None:
    """Tab reaches the filters, then the games' links, in the page's order."""
    page = signed_in(browser, site)
    page.goto(site.url + "/me/games?lang=en")
    wait_ready(page)
    seen = []
    for _ in range(14):
        page.keyboard.press("Tab")
        seen.append(page.evaluate(
            "document.activeElement.id || document.activeElement.textContent"))
    assert seen.index("family") < seen.index("partner") < seen.index("Show")
    assert "Watch it again" in seen[seen.index("Show"):]
    page.context.close()

