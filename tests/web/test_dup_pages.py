"""The duplicate session's pages in a browser: a phone reports a board by tapping (round,
table, board, the two scores), a refused score is said in one line beside the form; and
every page (new session, director, report, session, board, slips, recap, an online
player's) draws in
English, French and Arabic without a sideways scroll at 360 px, nor at twice the text
size, with no script error and no policy violation. (axe's rules: test_axe.py.)"""

from __future__ import annotations

from typing import Any

from .pages import PHONE, drawn, get, new_page, post
from .test_accessibility import DOUBLE_TEXT, SPILT
from .test_axe import findings
from .test_csp import WATCH


def hall_session(server: str) -> dict[str, Any]:
    """A hall session of 4 partnerships and 4 boards (round 1 plays boards 1 and 2),
    board 1 played at both tables."""
    made = post(server, "/api/dup", {
        "game": "auction-45", "boards": 4, "title": "Tuesday pairs",
        "partnerships": [{"name": n} for n in ("Ann & Bob", "Cy & Di", "Ed & Flo",
                                               "Gus & Hal")]})
    tables = made["report"].split("#key=")[1]
    for table, (ns, ew) in ((1, (20, 10)), (2, (-20, 15))):  # (North's contract: 20)
        post(server, f"/api/dup/{made['session']}/report",
             {"key": tables, "board": 1, "table": table, "ns": ns, "ew": ew,
              "contract": {"bidder": "N", "bid": "20", "trump": trump_of(server, made, 1, 0)}})
    # and an online session's player, for the page that finds its board table
    on = post(server, "/api/dup", {
        "game": "forty-one", "boards": 2, "mode": "online", "partnerships": [
            {"name": "Ann & Bob"}, {"name": "Cy & Di", "one_computer": "basic"},
            {"name": "Bots", "computer": "basic"}, {"name": "Ed & Flo"}]})
    # and a session of computers, which plays itself: its board page shows the play
    bots = post(server, "/api/dup", {
        "game": "merrimack-valley", "boards": 1, "mode": "online", "partnerships": [
            {"name": f"Bots {i}", "computer": "basic"} for i in range(1, 5)]})
    return {**made, "play": on["players"][0]["url"], "bots": bots["session"]}


def trump_of(server: str, made: dict[str, Any], board: int, seat: int) -> str:
    """A suit ``seat`` holds on ``board`` (Auction 45's bidder must hold a trump)."""
    slips = post(server, f"/api/dup/{made['session']}/slips", {"key": made["key"]})["slips"]
    return str(slips[board - 1]["hands"][seat]["cards"][0][-1])


def pages_of(made: dict[str, Any]) -> list[tuple[str, str]]:
    sid = made["session"]
    return [("/dup", "body[data-ready='1']"),
            (made["url"], "#progress li[data-table='2']"),
            (made["report"], "#rounds button[data-round='3']"),
            (f"/dup/{sid}", "#standings tr[data-pair='4']"),
            (f"/dup/{sid}/board/1", "body[data-shown='1'] #plays .play[data-table='2']"),
            (f"/dup/{sid}/print/slips", ".slip[data-board='4']"),
            (f"/dup/{sid}/recap", "body[data-ready='1'] table.results"),
            (made["play"], "body[data-status='playing'] #boards li[data-board='2']"),
            (f"/dup/{made['bots']}/board/1", "body[data-shown='1'] #plays .play ol.tricks")]


def test_a_phone_reports_a_board_by_tapping(server: str, browser: Any) -> None:
    made = hall_session(server)
    sid = made["session"]
    page = new_page(browser, PHONE)
    page.goto(server + made["report"])
    page.click("#rounds button[data-round='1']")
    page.click("#tables button[data-table='2']")
    assert page.is_disabled("#boards button[data-board='1']")  # (in already)
    page.click("#boards button[data-board='2']")
    # the score step at 360 px: the scores and the contract, nothing spills sideways
    assert page.evaluate(SPILT) == []
    assert findings(page) == []
    page.fill("#ns", "30")
    page.fill("#ew", "30")
    # the contract: East won the bid at 30, in a suit East holds
    trump = trump_of(server, made, 2, 1)
    page.select_option("#bidder", "1")
    page.select_option("#bid", "30")
    page.select_option("#trump", trump)
    page.click("#send")
    page.wait_for_function("document.getElementById('error').textContent.includes("
                           "'cannot both be scored')")
    page.fill("#ns", "10")  # (a score of the game, but not of East's 30)
    page.fill("#ew", "20")
    page.click("#send")
    page.wait_for_function("document.getElementById('error').textContent.includes("
                           "'cannot come from that contract')")
    page.fill("#ns", "30")  # (East set: the others took all 30)
    page.fill("#ew", "-30")
    page.click("#send")
    page.wait_for_function("document.getElementById('done').textContent !== ''")
    board = post(server, f"/api/dup/{sid}/board/2", {})
    assert [t["done"] for t in board["tables"]] == [False, True]
    post(server, f"/api/dup/{sid}/report", {"key": made["report"].split("#key=")[1],
                                            "board": 2, "table": 1, "ns": 10, "ew": 20})
    rows = post(server, f"/api/dup/{sid}/board/2", {})["rows"]
    assert rows[1]["contract"] == {"bidder": 1, "bid": "30", "trump": trump}
    assert (rows[1]["ns_score"], rows[1]["ew_score"]) == (30, -30)
    # the board's page: each table's contract beside its score
    page.goto(f"{server}/dup/{sid}/board/2")
    page.wait_for_selector("body[data-shown='1'] #rows tr[data-table='2'] .contract")
    assert "East 30" in page.inner_text("#rows tr[data-table='2'] .contract")
    assert "East 30" in page.inner_text("#plays .play[data-table='2'] h3")
    assert "#key=" not in page.url  # (the key is taken out of the address bar)
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_every_page_draws_on_a_phone_in_every_language(server: str, browser: Any) -> None:
    made = hall_session(server)
    assert get(server, f"/api/dup/{made['session']}")["complete"] == [1]
    for lang in ("en", "fr", "ar"):
        page = new_page(browser, PHONE, lang)
        page.add_init_script(WATCH)
        said: list[str] = []
        page.on("console", lambda m, said=said: said.append(m.text))
        for path, ready in pages_of(made):
            url = path.replace("#", f"?lang={lang}#") if "#" in path else f"{path}?lang={lang}"
            page.goto(server + url)
            page.wait_for_selector(ready, state="attached")
            drawn(page)
            assert page.evaluate(SPILT) == [], (lang, path)
            page.evaluate(DOUBLE_TEXT)
            drawn(page)
            spilt = page.evaluate(SPILT)
            assert spilt == [], (lang, path, "twice the text", spilt)
            assert page.evaluate("window.__violations") == [], (lang, path)
            assert page.evaluate("document.documentElement.dir") == (
                "rtl" if lang == "ar" else "ltr")
        assert not [m for m in said if "Content Security Policy" in m]
        assert not page.errors  # type: ignore[attr-defined]
        page.context.close()


def test_the_form_makes_an_online_session_with_computer_seats(server: str,
                                                              browser: Any) -> None:
    page = new_page(browser, PHONE)
    page.goto(f"{server}/dup")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#mode", "online")
    page.select_option("#game", "merrimack-valley")
    page.fill("#boards", "3")
    names = page.locator("#pairs .pair-name")
    for i, name in enumerate(["Ann & Bob", "Cy & Di", "Bots", "Ed & Flo"]):
        names.nth(i).fill(name)
    page.locator("#pairs .pair-kind").nth(1).select_option("mixed")
    page.locator("#pairs .pair-kind").nth(2).select_option("computer")
    page.locator("#pairs .pair-level").nth(2).select_option("expert")
    page.click("#create")
    page.wait_for_url("**/director")
    page.wait_for_selector("#links li[data-pair='4'][data-member='1']")
    sid = page.url.split("/dup/")[1].split("/")[0]
    v = get(server, f"/api/dup/{sid}")
    assert v["mode"] == "online" and v["game"] == "merrimack-valley" and v["boards"] == 3
    assert [(p["computer"], p["one_computer"]) for p in v["partnerships"]] == [
        (None, None), (None, "basic"), ("expert", None), (None, None)]
    # a link for each person: none for pair 2's computer seat, none for pair 3
    links = page.eval_on_selector_all(
        "#links li[data-pair]", "(xs) => xs.map((x) => `${x.dataset.pair}/${x.dataset.member}`)")
    assert links == ["1/0", "1/1", "2/0", "4/0", "4/1"]
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
