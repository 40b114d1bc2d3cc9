"""An online hall evening in the browser, on the real server (``forties serve``'s app):
two couples of people and two of computer players; and every hall page loads with no
error in the console."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from .test_hall_pages import DESKTOP, get, open_page


def post(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def table_frame(page: Any, not_url: str | None = None) -> Any:
    """The web table shown in a player's page (once it is a new one)."""
    page.wait_for_function("u => { const f = document.getElementById('table');"
                           " return !f.hidden && f.src.includes('/t/') && f.src !== u; }",
                           arg=not_url or "")
    frame = page.locator("#table").element_handle().content_frame()
    frame.wait_for_selector("body[data-ready='1']", state="attached")
    return frame


def test_an_online_evening_plays_itself_out(server: str, browser: Any, shots: Path) -> None:
    """Two couples of people and two of computer players, two games to 5 points: each
    person plays in the page their link opens; when a table's game ends its result goes
    in by itself, the next game's tables are made, and each person's page opens their
    next table; the standings page follows it all."""
    from .pages import play_until

    made = post(server, "/api/hall", {"games": 2, "online": True, "title": "Online night",
                                      "options": {"target": 5}})
    eid, key = made["evening"], made["key"]
    links: list[str] = []
    for i, players in enumerate(("people", "people", "computer", "computer"), 1):
        r = post(server, f"/api/hall/{eid}/register",
                 {"key": key, "names": [f"Player {2 * i - 1}", f"Player {2 * i}"],
                  "players": players})
        links += r.get("players", [])
    assert len(links) == 4
    players = [open_page(browser, server, url, DESKTOP) for url in links]
    for p in players:
        p.wait_for_function("document.getElementById('status').textContent !== ''")
    board = open_page(browser, server, f"/hall/{eid}", DESKTOP)
    post(server, f"/api/hall/{eid}/begin", {"key": key})

    shown: list[str | None] = [None] * 4
    for game in (1, 2):
        frames = []
        for i, p in enumerate(players):
            frames.append(table_frame(p, shown[i]))
            shown[i] = p.locator("#table").get_attribute("src")
        for p in players:  # the line under the table may follow the table by a moment
            p.wait_for_function("g => document.getElementById('status').textContent"
                                ".includes('Game ' + g)", arg=game, timeout=30000)
        said = [p.locator("#status").inner_text() for p in players]
        assert all(f"Game {game}" in x for x in said), said

        def game_done(game: int = game) -> bool:
            b = get(server, f"/api/hall/{eid}")
            return bool(b["status"]["game"] > game or b["status"]["phase"] in
                        ("prizes", "finished"))

        play_until(frames, game_done, limit=120.0)
    b = get(server, f"/api/hall/{eid}")
    assert b["status"]["phase"] in ("prizes", "finished")
    assert sum(s["score"] for s in b["standings"]) == 4  # two tables, two games
    board.wait_for_selector("#prizes h2")
    board.screenshot(path=str(shots / "hall-online-board.png"), full_page=True)
    for p in players:
        p.wait_for_function("document.getElementById('status').textContent"
                            ".includes('over')")
        assert p.errors == []  # type: ignore[attr-defined]



def two_couples_begun(server: str) -> tuple[dict[str, Any], list[str]]:
    """An online evening of one game, Ann & Bob and Cy & Di at its table (people), begun:
    the evening as made, and the four players' links."""
    made = post(server, "/api/hall", {"games": 1, "online": True})
    eid, key = made["evening"], made["key"]
    links: list[str] = []
    for names in (["Ann", "Bob"], ["Cy", "Di"]):
        links += post(server, f"/api/hall/{eid}/register",
                      {"key": key, "names": names, "players": "people"})["players"]
    post(server, f"/api/hall/{eid}/begin", {"key": key})
    return made, links

def test_a_players_page_fits_a_phone(server: str, browser: Any) -> None:
    from .test_hall_pages import PHONE, fits

    _, links = two_couples_begun(server)
    page = open_page(browser, server, links[0], PHONE)
    table_frame(page)
    assert fits(page), "the player's page scrolls sideways on a 360 px phone"
    # the table has the phone's whole width, not a frame inside the page's margins
    width = page.evaluate("document.getElementById('table').getBoundingClientRect().width")
    assert width >= page.evaluate("window.innerWidth") - 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_computer_couple_plays_under_its_registered_names(server: str, browser: Any) -> None:
    """A couple the director registered as computer players ("Bot & Cee") sits at the web
    table under those names, and each of its badges still says it is a computer player of
    its level: nobody takes "Bot" for a person, and anyone tells the couples apart."""
    made = post(server, "/api/hall", {"games": 1, "online": True})
    eid, key = made["evening"], made["key"]
    links = post(server, f"/api/hall/{eid}/register",
                 {"key": key, "names": ["Ann", "Bob"], "players": "people"})["players"]
    post(server, f"/api/hall/{eid}/register",
         {"key": key, "names": ["Bot", "Cee"], "players": "computer", "level": "basic"})
    post(server, f"/api/hall/{eid}/begin", {"key": key})
    for lang, computer, says in (("en-US", "(computer)", "Computer · club level"),
                                 ("fr-CA", "(ordinateur)", "Ordinateur · niveau club")):
        page = open_page(browser, server, links[0], DESKTOP, locale=lang)
        frame = table_frame(page)
        frame.wait_for_selector(".badge .name")
        badges = frame.eval_on_selector_all(
            ".badge", "bs => bs.map(b => [b.querySelector('.name').textContent, b.textContent,"
                      " b.getAttribute('title')])")
        names = sorted(n for n, _, _ in badges)
        assert names == sorted(["Bob", "Bot", "Cee", "You" if lang == "en-US" else "Vous"]), \
            badges
        for name, text, title in badges:
            if name in ("Bot", "Cee"):
                # a computer under a name of its own says it is one, with its level
                assert says in text and title == computer, badges
            else:
                assert says.split(" · ")[0] not in text and title is None, badges
        assert page.errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_the_hall_pages_log_no_error(server: str, browser: Any) -> None:
    """Each of the hall's pages (the new evening's form, the director's, the standings, the
    report form, an online player's with its table) loads with nothing in the console's
    errors, not even a missing /favicon.ico."""
    made, links = two_couples_begun(server)
    for path, ready in (("/hall", "input[name=title]"), (made["url"], "#name-a"),
                        (made["board"], "#standings tr"), (made["report"], "#tables button"),
                        (links[0], None)):
        ctx = browser.new_context(viewport=DESKTOP, base_url=server)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        errors: list[str] = []
        page.on("console", lambda m, e=errors: m.type == "error" and e.append(m.text))
        page.on("pageerror", lambda x, e=errors: e.append(str(x)))
        page.goto(path)
        if ready:
            page.wait_for_selector(ready, state="attached")
        else:
            table_frame(page)
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        assert errors == [], (path, errors)
        ctx.close()
