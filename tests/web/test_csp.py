"""The pages under the server's Content-Security-Policy (web.guard): each page of the site
runs in Chromium, its scripts and styles and its table's websocket allowed, with no
violation reported (neither a securitypolicyviolation event nor a console line)."""

from __future__ import annotations

from typing import Any

from .pages import DESKTOP, new_page, post, wait_ready

WATCH = """window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"""


def violations(browser: Any, url: str, ready: str | None) -> list[str]:
    """What the page at ``url`` reports of the policy once ``ready`` (a selector) is there."""
    page = new_page(browser, DESKTOP)
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    page.add_init_script(WATCH)
    answer = page.goto(url)
    assert "script-src 'self';" in answer.headers.get("content-security-policy", ""), url
    if ready is None:
        wait_ready(page)
    else:
        page.wait_for_selector(ready, state="attached")
    page.wait_for_load_state("load")
    found = list(page.evaluate("window.__violations")) + [
        m for m in said if "Content Security Policy" in m]
    found += page.errors  # type: ignore[attr-defined]
    page.context.close()
    return found


def test_every_page_runs_under_the_policy(browser: Any, server: str) -> None:
    table = post(server, "/api/play", {"preset": "auction-45"})
    evening = post(server, "/api/hall", {"games": 1})["evening"]
    session = post(server, "/api/dup", {"game": "forty-one", "boards": 1, "partnerships": [
        {"name": n} for n in ("A", "B", "C", "D")]})["session"]
    pages = {"/": None, table["url"]: "body[data-conn='open']", "/replay": None,
             "/pad": "#new", "/hall": "#new", f"/hall/{evening}": "#phase",
             f"/hall/{evening}/print/cards": ".sheet", "/t/nosuchtable": "h1",
             "/account": None, "/me/games": None, "/leaderboard": None,
             "/leaderboard/merrimack-valley": None, "/dup": None,
             f"/dup/{session}": None, f"/dup/{session}/recap": None,
             f"/dup/{session}/board/1": None, "/clubs": None,
             # a club's seasons and a season (nobody's here: their one-line refusal shown)
             "/club/none/seasons": "#error:not(:empty)",
             "/club/none/season/none": "#error:not(:empty)"}
    for path, ready in pages.items():
        assert violations(browser, server + path, ready) == [], path


def test_another_site_cannot_frame_a_table(browser: Any, server: str) -> None:
    """A page of another site that frames a table's page gets nothing in the frame (the
    hall's player page, of the same site, frames its tables: test_hall_online.py)."""
    table = post(server, "/api/play", {"preset": "auction-45"})
    page = new_page(browser, DESKTOP)
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text))
    with page.expect_console_message(lambda m: "frame-ancestors" in m.text, timeout=15_000):
        page.set_content(f'<iframe src="{server}{table["url"]}"></iframe>')
    assert any("frame-ancestors" in m and "blocked" in m for m in said), said
    page.context.close()
