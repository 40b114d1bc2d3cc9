"""axe-core's WCAG 2.1 A and AA rules (and the label-in-name rule, which axe counts as
experimental: a card's accessible name holds the letters printed on it) find nothing on
any page: home, score pad, the hall's pages (new evening, director, standings, report),
the replay, the account's pages as a guest sees them (the account, My games, a
leaderboard, the clubs; signed in: test_browser_passkeys and test_browser_history), and the table at
the bid, at the end of a hand (its review, and the hand played again on it) and at the
end of the game (its summary, with its link to make an account); each at a phone's size
and a desktop's, in English, French and Arabic (right to left). One browser; one context
a test, its pages measured at both sizes."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from .pages import PHONE, new_page, over, play_until, post, until, wait_ready

DESKTOP = {"width": 1440, "height": 900}
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
         "rules": {"label-content-name-mismatch": {"enabled": True}},
         "resultTypes": ["violations"]}


@cache
def axe_script() -> str:
    """axe-core's script, as axe-playwright-python carries it (read once)."""
    from axe_playwright_python.sync_playwright import Axe

    return str(Axe().axe_script)


def findings(page: Any) -> list[str]:
    """What axe finds on the page as it is, at a phone's size and then a desktop's: each
    rule broken, with its first three elements."""
    out = []
    if not page.evaluate("typeof window.axe === 'object'"):  # (once a page: 0.5 MB of script)
        page.evaluate(axe_script())
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.evaluate("() => new Promise((done) => requestAnimationFrame("
                      "() => requestAnimationFrame(() => done(null))))")
        result = page.evaluate("(rules) => axe.run(document, rules)", RULES)
        for v in result["violations"]:
            where = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            out.append(f"{page.url.split('#')[0]} at {size['width']}px: {v['id']} "
                       f"({len(v['nodes'])}) {where}")
    return out


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_axe_finds_nothing_on_any_page(server: str, browser: Any, lang: str) -> None:
    hall = post(server, "/api/hall", {"games": 2, "title": "Parish night"})
    eid, key = hall["evening"], hall["key"]
    for names in (["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"], ["Ida", "Jo"]):
        post(server, f"/api/hall/{eid}/register", {"key": key, "names": names})
    post(server, f"/api/hall/{eid}/begin", {"key": key})
    page = new_page(browser, PHONE, lang)
    found: list[str] = []
    q = f"?lang={lang}"
    pages = [("/", "#play-preset option"), ("/pad", "#preset option"),
             ("/hall", "#new button[type=submit]"),
             (hall["url"].replace("#", q + "#"), "#tables .tablecard"),
             (f"/hall/{eid}", "#standings tr[data-couple='5']"),
             (hall["report"].replace("#", q + "#"), "#tables button"),
             ("/replay", "main"), ("/account", "body[data-ready='1']"),
             ("/me/games", "body[data-ready='1']"),
             ("/leaderboard/merrimack-valley", "body[data-ready='1']"),
             ("/clubs", "body[data-ready='1']"),
             # a club's seasons and a season as a stranger finds them (nobody's here; a
             # real season's standings: test_season_page)
             ("/club/none/seasons", "#error:not(:empty)"),
             ("/club/none/season/none", "#error:not(:empty)")]
    for path, ready in pages:
        page.goto(server + (path if "?" in path else path + q))
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        found += findings(page)
    assert not found, "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_axe_finds_nothing_at_the_table(server: str, browser: Any, lang: str) -> None:
    """The table (a game to 5): the player's bid, the end of the first hand with its review
    and the hand played again, and the end of the game with its summary."""
    page = new_page(browser, PHONE, lang)
    found: list[str] = []
    q = f"?lang={lang}"
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "options": {"target": 5}})
    page.goto(f"{server}{made['url'].replace('#', q + '#')}")
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true' && document.body.dataset.phase"
          " === 'auction' && document.querySelectorAll('#hand button.card').length === 5",
          "the player's turn to bid, with the five cards")
    found += findings(page)
    play_until([page], lambda: over(page), limit=90, bidder=True)  # (a hand played out)
    page.wait_for_selector("#review:not([hidden])")
    found += findings(page)
    page.click("#replay-here")  # the hand played again on the table's page
    page.wait_for_selector("#replayer[data-step], #rp-error:not(:empty)")
    assert page.text_content("#rp-error") == "", page.text_content("#rp-error")
    page.click("#rp-last")
    found += findings(page)
    for _ in range(6):
        if page.evaluate("() => document.body.dataset.phase === 'game-over'"
                         " || !!document.getElementById('summary')"):
            break
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase === 'auction'")
        play_until([page], lambda: over(page), limit=90, bidder=True)
    page.wait_for_selector("#summary")
    found += findings(page)
    assert not found, "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ar"])
def test_axe_finds_nothing_on_the_duplicate_pages(server: str, browser: Any, lang: str) -> None:
    """The duplicate session's pages: new session, director, the tables' phone, the
    session, a board shown, the board slips and the recap."""
    from .test_dup_pages import hall_session, pages_of

    page = new_page(browser, PHONE, lang)
    found: list[str] = []
    for path, ready in pages_of(hall_session(server)):
        url = path.replace("#", f"?lang={lang}#") if "#" in path else f"{path}?lang={lang}"
        page.goto(server + url)
        page.wait_for_selector(ready, state="attached")
        page.wait_for_load_state("networkidle")
        found += findings(page)
    assert not found, "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_light_colours_follow_the_device_and_axe_finds_nothing(server: str,
                                                                   browser: Any) -> None:
    """The colours chosen "as this device" follow its light or dark setting as it changes;
    the light ones pass axe's rules (contrast included) on the home page, the score pad
    and the table at the player's bid."""
    page = new_page(browser, PHONE, "fr")
    page.emulate_media(color_scheme="light")
    page.goto(f"{server}/?lang=fr")
    wait_ready(page)
    colours = "document.documentElement.dataset.colours"
    assert page.evaluate(colours) == "dark"  # today's green felt, until chosen otherwise
    page.select_option("#theme", "system")
    assert page.evaluate(colours) == "light"
    page.emulate_media(color_scheme="dark")
    until(page, f"{colours} === 'dark'", "the dark colours when the device turns dark")
    page.emulate_media(color_scheme="light")
    until(page, f"{colours} === 'light'", "the light colours when the device turns light")
    found = findings(page)
    page.goto(f"{server}/pad?lang=fr")
    page.wait_for_selector("#preset option", state="attached")
    found += findings(page)
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page.goto(f"{server}{made['url'].replace('#', '?lang=fr#')}")
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true' && document.body.dataset.phase"
          " === 'auction' && document.querySelectorAll('#hand button.card').length === 5",
          "the player's turn to bid, with the five cards")
    assert page.evaluate(colours) == "light"  # the choice is the device's, on every page
    found += findings(page)
    assert not found, "\n".join(found)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
