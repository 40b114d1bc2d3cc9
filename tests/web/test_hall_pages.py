"""The hall in the browser (Debian's Chromium, on the real server of tests/web/conftest.py):
a director sets an evening up, registers couples at the door with the keyboard, starts
it, the tables report their winners from a phone, a mistake is corrected, the
projector's standings follow by themselves, and the prizes come out with the tie worked
through on screen (the votes and the cut's cards)."""

from __future__ import annotations

import hashlib
import json
import urllib.request
from pathlib import Path
from typing import Any

from .pages import Held

PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.load(r)


def open_page(browser: Any, base: str, path: str, viewport: dict[str, int],
              locale: str = "en-US") -> Any:
    ctx = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 700,
                              locale=locale, base_url=base)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(path)
    return page


def scores(base: str, eid: str) -> dict[int, int]:
    return {s["couple"]: s["score"] for s in get(base, f"/api/hall/{eid}")["standings"]}


def board_score(page: Any, couple: int) -> str:
    return str(page.locator(f"#standings tr[data-couple='{couple}'] td").nth(3).inner_text())


def report_on_phone(phone: Any, table: int, winner: int | None) -> None:
    phone.locator(f"#tables button[data-table='{table}']").tap()
    phone.locator(f"#winners button[data-winner='{winner or 'none'}']").tap()
    phone.wait_for_function("document.getElementById('done').textContent !== ''")
    assert "Thank you" in phone.locator("#done").inner_text()


def test_a_director_runs_an_evening_from_the_door_to_the_prizes(
        server: str, browser: Any, shots: Path) -> None:
    director = open_page(browser, server, "/hall", DESKTOP)
    director.fill("input[name=title]", "Saint Joseph's hall")
    director.fill("input[name=games]", "2")
    director.fill("input[name=prizes]", "3")
    director.check("input[name=booby]")
    director.click("button[type=submit]")
    director.wait_for_url("**/director")
    assert "#key=" not in director.url  # the key leaves the address bar at once
    eid = director.url.split("/hall/")[1].split("/")[0]

    # at the door: four couples, typed and entered with the keyboard only
    for i, (a, b) in enumerate([("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")],
                               1):
        director.locator("#name-a").fill(a)
        director.keyboard.press("Tab")
        director.keyboard.type(b)
        director.keyboard.press("Enter")
        director.wait_for_function(f"document.getElementById('added').textContent"
                                   f".startsWith('Couple {i}')")
    assert len(get(server, f"/api/hall/{eid}")["couples"]) == 4
    report_url = director.locator("#report-link").get_attribute("href")
    assert report_url and "#key=" in report_url

    board = open_page(browser, server, f"/hall/{eid}", DESKTOP)
    board.wait_for_selector("#standings tr[data-couple='4']")
    director.locator("#begin").click()
    director.wait_for_selector(".tablecard[data-table='2']")
    board.wait_for_selector("#waiting")
    assert "1, 2" in board.locator("#waiting").inner_text()

    # the tables report from a phone; table 2 taps the wrong couple
    phone = open_page(browser, server, report_url, PHONE)
    phone.wait_for_selector("#tables button[data-table='2']")
    assert "#key=" not in phone.url
    phone.locator("#tables button[data-table='1']").tap()
    phone.screenshot(path=str(shots / "hall-phone-report.png"))
    phone.locator("#back").tap()
    report_on_phone(phone, 1, 1)
    # a table in already cannot be reported again from the phone
    phone.wait_for_selector("#tables button[data-table='1'][disabled]")
    board.wait_for_function("document.querySelector(\"#standings tr[data-couple='1'] "
                            "td:nth-child(4)\").textContent === '1'")
    report_on_phone(phone, 2, 4)
    assert scores(server, eid) == {1: 1, 2: 0, 3: 0, 4: 1}

    # the director corrects table 2: couple 3 won; the standings and moves follow
    last = director.locator("#last-tables .tablecard[data-table='2']")
    last.locator("button", has_text="Correct").click()
    last.locator("button", has_text="Couple 3 won").click()
    board.wait_for_function("document.querySelector(\"#standings tr[data-couple='3'] "
                            "td:nth-child(4)\").textContent === '1'")
    assert scores(server, eid) == {1: 1, 2: 0, 3: 1, 4: 0}
    director.screenshot(path=str(shots / "hall-director.png"), full_page=True)
    moves = board.locator("#moves").inner_text()
    assert "Couple 3 to table 1 (deals first)" in moves and "Couple 1 to table 2" in moves
    board.screenshot(path=str(shots / "hall-board-moves.png"))

    # game 2, from the phone: couple 3 wins at table 1, couple 4 at table 2
    phone.wait_for_selector("#tables button[data-table='1']:not([disabled])")
    assert director.locator("#door").is_visible()
    report_on_phone(phone, 1, 3)
    # the last game has begun: nobody can join now, and the door's form goes
    director.wait_for_selector("#door", state="hidden")
    report_on_phone(phone, 2, 4)
    assert scores(server, eid) == {1: 1, 2: 0, 3: 2, 4: 1}

    # the prizes: couple 3 first; couples 1 and 4 tie for second and third; booby couple 2
    board.wait_for_selector("#awards")
    director.wait_for_selector("button[data-vote='1-split']")
    director.locator("button[data-vote='1-split']").click()
    director.wait_for_selector("button[data-vote='4-cut']")
    director.locator("button[data-vote='4-cut']").click()
    director.locator("#cut-prize-2").click()
    board.wait_for_selector(".cut .cards span")
    cards = board.locator(".contest[data-contest='prize-2'] .cards li").all_inner_texts()
    assert len(cards) == 2 and cards[0].startswith("Couple 1 drew")
    # the projector names the draw beside its cards: the name that goes into the method
    shown = board.locator(".contest[data-contest='prize-2'] .draw-name").inner_text()
    assert shown.endswith(": cut/prize-2"), shown
    b = get(server, f"/api/hall/{eid}")
    order = b["contests"][0]["order"]
    assert sorted(order) == [1, 4]
    awards = board.locator("#awards").inner_text()
    assert "1st prize: Couple 3" in awards
    assert f"2nd prize: Couple {order[0]}" in awards and f"3rd prize: Couple {order[1]}" in awards
    assert "Booby prize: Couple 2" in awards
    # the seed, 128 bits of secrets, shown digit for digit (no JavaScript number holds it)
    seed = b["draws"]["seed_text"]
    assert b["draws"]["seed"] >= 2**64 and str(b["draws"]["seed"]) == seed
    assert hashlib.sha256(seed.encode()).hexdigest() == b["draws"]["seed_sha256"]
    assert f"The evening's seed: {seed}" in (board.locator("#draws").text_content() or "")
    board.screenshot(path=str(shots / "hall-board-prizes.png"), full_page=True)

    # the exports and the printed cards are there from the director's page
    for name in ("JSON", "standings (CSV)", "results (CSV)", "Punch cards"):
        assert director.locator("#links a", has_text=name).count() >= 1
    cards_page = director.context.new_page()
    cards_page.goto(f"/hall/{eid}/print/cards?lang=fr")
    assert "Couple 4" in cards_page.content() and "poinçonnées" in cards_page.content()
    for p in (director, board, phone):
        assert p.errors == []  # type: ignore[attr-defined]


def test_the_projector_and_the_phone_in_french(server: str, browser: Any) -> None:
    req = urllib.request.Request(server + "/api/hall", data=json.dumps({"games": 1}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        made = json.load(r)
    board = open_page(browser, server, f"/hall/{made['evening']}?lang=fr", PHONE, "fr-CA")
    board.wait_for_function("document.querySelector('#table-box h2').textContent "
                            "=== 'Classement'")
    # the phase line is written once the evening's state has come (after the headings)
    board.wait_for_function("document.querySelector('#phase').textContent"
                            ".includes('Inscriptions')", timeout=10_000)
    assert "Inscriptions" in board.locator("#phase").inner_text()
    phone = open_page(browser, server, made["report"] + "", PHONE, "fr-CA")
    phone.goto(f"/hall/{made['evening']}/report?lang=fr#key=" + made["report"].split("=")[1])
    phone.wait_for_function("document.querySelector('#step-table h2').textContent "
                            "=== 'Quelle table ?'")
    wrong = open_page(browser, server, f"/hall/{made['evening']}/director#key=nope", PHONE)
    wrong.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "director" in wrong.locator("#error").inner_text()


def test_a_duplicate_table_reports_its_points_from_a_phone(server: str, browser: Any) -> None:
    director = open_page(browser, server, "/hall", DESKTOP)
    director.fill("input[name=games]", "1")
    director.check("input[name=duplicate]")
    director.click("button[type=submit]")
    director.wait_for_url("**/director")
    eid = director.url.split("/hall/")[1].split("/")[0]
    for a, b in (("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")):
        director.fill("#name-a", a)
        director.fill("#name-b", b)
        director.click("#add")
        director.wait_for_function(f"document.getElementById('added').textContent"
                                   f".includes('{a}')")
    director.click("#begin")
    report_url = director.locator("#report-link").get_attribute("href")
    phone = open_page(browser, server, report_url, PHONE)
    phone.locator("#tables button[data-table='1']").tap()
    phone.locator("#winners button[data-winner='1']").tap()  # no points typed yet
    phone.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "points" in phone.locator("#error").inner_text()
    phone.fill("input[data-points='1']", "45")
    phone.fill("input[data-points='2']", "20")
    phone.locator("#winners button[data-winner='1']").tap()
    phone.wait_for_function("document.getElementById('done').textContent !== ''")
    table = get(server, f"/api/hall/{eid}")["current"]["tables"][0]
    assert table["winner"] == 1 and table["points"] == {"1": 45, "2": 20}
    assert phone.errors == []  # type: ignore[attr-defined]



def test_a_form_sent_before_the_page_has_started_waits_for_it(server: str, browser: Any) -> None:
    """The page's words are held back: the director sends the new evening's form, then a
    couple at the door, before either page has started. Neither reloads the page with the
    names in the address; each is sent once the page is ready."""
    ctx = browser.new_context(viewport=DESKTOP, base_url=server)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    words = Held(page, "**/i18n/*.json")  # the page's words, each time it loads
    page.goto("/hall", wait_until="domcontentloaded")
    page.fill("input[name=title]", "Before the words came")
    page.fill("input[name=games]", "1")
    page.click("button[type=submit]")
    assert "title=" not in page.url
    words.release()
    page.wait_for_url("**/director", wait_until="domcontentloaded")
    eid = page.url.split("/hall/")[1].split("/")[0]
    assert get(server, f"/api/hall/{eid}")["title"] == "Before the words came"

    page.fill("#name-a", "Ann")
    page.fill("#name-b", "Bob")
    page.press("#name-b", "Enter")
    assert "?" not in page.url and "Ann" not in page.url
    words.release()
    page.wait_for_function("document.getElementById('added').textContent.startsWith('Couple 1')")
    assert [c["names"] for c in get(server, f"/api/hall/{eid}")["couples"]] == [["Ann", "Bob"]]
    ctx.close()


def post_json(base: str, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def fits(page: Any) -> bool:
    """No sideways scrolling: the page is no wider than the phone's screen."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_misspelt_couple_is_corrected_from_the_directors_phone(
        server: str, browser: Any, shots: Path) -> None:
    made = post_json(server, "/api/hall", {"games": 1, "title": "Parish night"})
    eid, key = made["evening"], made["key"]
    for names in (["Ann", "Bob"], ["Cy", "Di"], ["Jonh", "Mary"]):
        post_json(server, f"/api/hall/{eid}/register", {"key": key, "names": names})
    director = open_page(browser, server, made["url"], PHONE)
    director.wait_for_selector("#couples li[data-couple='3'] button.rename")
    assert fits(director), "the director's page scrolls sideways on a 360 px phone"
    director.locator("#couples li[data-couple='3'] button.rename").tap()
    assert director.locator("#rename-a").input_value() == "Jonh"
    director.locator("#rename-a").fill("John")
    director.locator("#rename-b").press("Enter")
    director.wait_for_function("document.querySelector(\"#couples li[data-couple='3']\")"
                               ".textContent.includes('John & Mary')")
    assert [c["names"] for c in get(server, f"/api/hall/{eid}")["couples"]][2] == \
        ["John", "Mary"]
    # after the start too: the names follow on the standings
    post_json(server, f"/api/hall/{eid}/begin", {"key": key})
    director.wait_for_selector("#tables")
    director.locator("#couples-box summary").tap()
    director.locator("#couples li[data-couple='1'] button.rename").tap()
    director.locator("#rename-b").fill("Bobby")
    director.locator("#rename button[type=submit]").tap()
    director.wait_for_function("document.querySelector(\"#standings tr[data-couple='1']\")"
                               ".textContent.includes('Ann & Bobby')")
    assert fits(director)
    director.screenshot(path=str(shots / "hall-director-phone.png"), full_page=True)
    board = open_page(browser, server, f"/hall/{eid}", PHONE)
    board.wait_for_selector("#standings tr[data-couple='3']")
    assert "John & Mary" in board.locator("#standings").inner_text()
    assert fits(board), "the standings page scrolls sideways on a 360 px phone"
    assert director.errors == [] and board.errors == []  # type: ignore[attr-defined]
