"""A hall's organizer who has never run a duplicate session, on a 360-pixel phone, in
English and French: the new session's form offers no computer players while the session
is in the hall (the hall refuses them), the board slips number the rest of the pack so
that a dealer stacks it in order with card 1 on top, and the tables' phone shows no
"Start again" before anything is picked, says a score that one hand cannot give in
the reader's language, and starts again by itself once the table's last board is in; the
standings' headings ("Matchpoints", "Donnes", "المركز") are not cut across two lines. A
club's director starts one from the club's page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .pages import PHONE, catalog
from .test_browser_passkeys import NO_SIDEWAYS, device, local
from .test_browser_regulars import fill, post, signed_up

NAMES = ("Ann & Bob", "Cy & Di", "Ed & Flo", "Gus & Hal")


def shown(page: Any, selector: str) -> int:
    """How many of ``selector``'s elements take room on the page."""
    return int(page.evaluate(
        "(s) => [...document.querySelectorAll(s)].filter((e) => e.offsetParent !== null)"
        ".length", selector))


# the words of the standings' and results' headings cut across two lines ("Ran" / "g")
BROKEN_WORDS = """() => [...document.querySelectorAll('#standings th, table.results th')]
  .flatMap((th) => {
    const out = [];
    const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) out.push(m[0]);
      }
    }
    return out;
  })"""


# the cards on the page whose suit sign stands left of their rank
RANK_THEN_SUIT = """() => [...document.querySelectorAll('.card')].filter((c) => {
    const text = c.firstChild, r = document.createRange();
    r.setStart(text, 0); r.setEnd(text, 1);
    const rank = r.getBoundingClientRect().left;
    r.setStart(text, text.length - 1); r.setEnd(text, text.length);
    return r.getBoundingClientRect().left < rank;
  }).map((c) => c.dataset.card)"""


def error_is(page: Any, text: str) -> None:
    page.wait_for_function("(w) => document.getElementById('error').textContent === w",
                           arg=text)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_hall_organizer_sets_up_prints_the_slips_and_reports_from_a_phone(
        server: str, browser: Any, lang: str) -> None:
    words = catalog(lang)
    director = device(browser, lang, PHONE)
    director.goto(f"{server}/hall?lang={lang}")  # (the hall's page is linked from home)
    director.wait_for_function(  # (in the page's language once its words are in)
        "(w) => document.getElementById('dup-link').textContent === w",
        arg=words["hall.new.dup"])
    director.click("#dup-link")
    director.wait_for_url("**/dup")
    director.goto(f"{server}/dup?lang={lang}")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    # in the hall, every seat is a person's: no computer to choose
    assert shown(director, "#fill-box") == 0 and shown(director, ".online-only") == 0
    director.select_option("#mode", "online")
    assert shown(director, "#fill-box") == 1 and shown(director, ".online-only") == 8
    director.select_option("#mode", "hall")
    assert shown(director, "#fill-box") == 0 and shown(director, ".online-only") == 0
    director.fill("#title", "Friday pairs")
    director.select_option("#game", "merrimack-valley")
    director.fill("#boards", "4")
    for i, name in enumerate(NAMES):
        director.locator(".pair-name").nth(i).fill(name)
    director.click("#create")
    director.wait_for_url("**/director")
    director.wait_for_selector("#links a[href$='/print/slips']")
    report = director.get_attribute("#links a[href*='/report#key=']", "href")
    sid = report.split("/")[2]
    # the slips: the rest of Merrimack Valley's pack numbered from the top, by fives
    director.click("#links a[href$='/print/slips']")
    director.wait_for_selector(".slip[data-board='4']")
    stock = director.locator(".slip[data-board='1'] .stock")
    assert stock.locator("strong").inner_text() == f"{words['dup.stock']}: "
    cards = stock.locator(".card").count()
    assert cards == 52 - 4 * 5 - 3
    assert stock.locator(".pos").all_inner_texts() == [str(n) for n in range(1, cards + 1, 5)]
    assert director.evaluate(NO_SIDEWAYS)
    # on the Arabic page, right to left, a card still reads rank then suit ("A♠", "10♦")
    director.goto(director.url.split("?")[0] + "?lang=ar")
    director.wait_for_selector(".slip[data-board='4']")
    assert director.evaluate(RANK_THEN_SUIT) == []
    # a table's phone
    phone = device(browser, lang, PHONE)
    phone.goto(f"{server}{report}".replace("#", f"?lang={lang}#"))
    phone.wait_for_selector("#rounds button[data-round='3']")
    assert shown(phone, "#back") == 0  # (nothing picked yet: nothing to start again)
    phone.click("#rounds button[data-round='1']")
    assert shown(phone, "#back") == 1
    phone.click("#tables button[data-table='1']")
    phone.click("#boards button[data-board='1']")
    phone.fill("#ns", "20")
    phone.fill("#ew", "20")
    phone.select_option("#bidder", "0")  # (the contract: North 20 in spades)
    phone.select_option("#bid", "20")
    phone.select_option("#trump", "S")
    phone.click("#send")
    error_is(phone, words["dup.err.score"])
    phone.fill("#ew", "10")
    phone.click("#send")
    phone.wait_for_function("document.getElementById('done').textContent !== ''")
    # the table's last board of the round: the phone starts again, that table done
    phone.click("#boards button[data-board='2']")
    phone.fill("#ns", "25")
    phone.fill("#ew", "5")
    phone.select_option("#bidder", "0")  # (North 20 again, made with 25)
    phone.select_option("#bid", "20")
    phone.select_option("#trump", "S")
    phone.click("#send")
    phone.wait_for_selector("#step-round:not([hidden])")
    assert phone.inner_text("#done") == fill(words["dup.report.thanks"], b=2, t=1)
    phone.click("#rounds button[data-round='1']")
    assert phone.is_disabled("#tables button[data-table='1']")
    assert phone.is_enabled("#tables button[data-table='2']")
    # the standings and the results, read on the phone: no heading's word cut in two
    table2 = {"key": report.split("#key=")[1], "table": 2}
    for board, ns, ew in ((1, 20, 10), (2, 10, 20)):
        phone.evaluate("""([url, body]) => fetch(url, {method: 'POST', headers:
            {'Content-Type': 'application/json'}, body: JSON.stringify(body)})""",
                       [f"/api/dup/{sid}/report", {**table2, "board": board, "ns": ns, "ew": ew}])
    for shown_in in (lang, "ar"):
        phone.goto(f"{server}/dup/{sid}?lang={shown_in}")
        phone.wait_for_selector("table.results th")
        assert phone.evaluate(BROKEN_WORDS) == [], shown_in
        tops = phone.locator("table.results td .mp").first.inner_text()
        assert re.search(r"\(\d+,\d\d[\u00a0\u202f]%\)" if shown_in == "fr" else r"\(\d+\.\d\d%\)",
                         tops), tops  # (a percentage as the page's language writes it)
        assert phone.evaluate(NO_SIDEWAYS)
    assert not director.errors and not phone.errors
    for page in (director, phone):
        page.context.close()


def test_a_clubs_director_starts_a_duplicate_session_from_the_club(
        server: str, browser: Any) -> None:
    """From the club's page (the only way to /dup a club's organizer is shown) the session
    is the club's: the form says so and takes the club's game, and the session enters the
    club's calendar with its Direct link."""
    words = catalog("en")
    base = local(server)
    director, _ = signed_up(browser, base, "en", "Organizer from the Club", PHONE)
    club = post(director, "/api/clubs", {"name": "Thursday Pairs", "preset": "forty-one"})
    club_id = club["body"]["club"]
    director.goto(f"{base}/club/{club_id}")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    director.click("#dup-link")
    director.wait_for_selector("#club-note:not([hidden])")
    assert director.inner_text("#club-note") == fill(words["dup.new.club"],
                                                     name="Thursday Pairs")
    assert director.input_value("#game") == "forty-one"
    director.fill("#boards", "4")
    for i, name in enumerate(NAMES):
        director.locator(".pair-name").nth(i).fill(name)
    director.click("#create")
    director.wait_for_url("**/director")
    sid = director.url.split("/dup/")[1].split("/")[0]
    director.goto(f"{base}/club/{club_id}")
    director.wait_for_function("document.body?.dataset.ready === '1'")
    direct = director.locator(f"#upcoming li[data-event='{sid}'] a.direct, "
                              f"#past li[data-event='{sid}'] a.direct")
    assert direct.get_attribute("href") == f"/dup/{sid}/director"
    # someone who is not a member, sent the club's address, is told how to join it
    guest = device(browser, "en", PHONE)
    guest.goto(f"{base}/club/{club_id}")
    guest.wait_for_function("document.body?.dataset.ready === '1'")
    assert guest.inner_text("#you") == words["club.not_member"]
    assert "ask one of its directors for an invite link" in words["club.not_member"]
    assert not director.errors and not guest.errors
    director.context.close()
    guest.context.close()


def test_a_clubs_evening_is_set_and_shown_in_the_readers_own_time(server: str,
                                                                  browser: Any) -> None:
    """A director in Halifax (summer: UTC-3) adds an evening at 19:30 by the hall's clock:
    it is kept as 22:30 UTC, shown to the director at 19:30 and to a member in Paris
    (UTC+2) at 00:30 the next day; the form says nothing of UTC."""
    words = catalog("en")
    base = local(server)
    director, _ = signed_up(browser, base, "en", "Halifax Director", PHONE)
    made = post(director, "/api/clubs", {"name": "Harbour Club"})
    club_id = made["body"]["club"]
    halifax = browser.new_context(viewport=PHONE, locale="en-CA",
                                  timezone_id="America/Halifax")
    halifax.add_cookies(director.context.cookies())
    page = halifax.new_page()
    page.goto(f"{base}/club/{club_id}")
    page.wait_for_function("document.body?.dataset.ready === '1'")
    assert page.inner_text("label:has(#evening-time) span") == words["club.evening.time"]
    assert "UTC" not in page.inner_text("#evening-box")
    page.fill("#evening-title", "Summer night")
    page.fill("#evening-date", "2099-07-01")
    page.fill("#evening-time", "19:30")
    page.click("#evening-go")
    page.wait_for_selector("#upcoming li")
    assert "7:30" in page.inner_text("#upcoming li .when")
    kept = page.evaluate(f"fetch('/api/clubs/{club_id}').then((r) => r.json())")
    assert kept["upcoming"][0]["when"] == "2099-07-01T22:30Z"
    paris = browser.new_context(viewport=PHONE, locale="en-GB", timezone_id="Europe/Paris")
    reader = paris.new_page()
    reader.goto(f"{base}/club/{club_id}")
    reader.wait_for_selector("#upcoming li")
    when = reader.inner_text("#upcoming li .when")
    assert "Jul 2, 2099" in when and "12:30" in when, when  # (the next day in Paris)
    for ctx in (halifax, paris, director.context):
        ctx.close()
