"""The score pad in Debian's Chromium on a 360 x 640 phone: a short game kept from the
new-pad form to the winner, a bad hand refused in one line, a past hand corrected, the
watchers' link following it read-only, and the page in French and Arabic; on
forties serve's own server (tests/web/conftest.py). Pictures: web-pad-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .pages import Held

PHONE = {"width": 360, "height": 640}


def phone(browser: Any, lang: str = "en") -> Any:
    ctx = browser.new_context(viewport=PHONE, locale=lang, has_touch=True, is_mobile=True)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    return page


def enter(page: Any, bidder: str, bid: str, points: tuple[int, int]) -> None:
    page.select_option("#bidder", label=bidder)
    page.select_option("#bid", bid)
    page.fill("#points0", str(points[0]))
    page.fill("#points1", str(points[1]))
    page.click("#enter")


def totals(page: Any, hand: int) -> list[str]:
    cells = page.locator(f"#sheet tbody tr:nth-child({hand}) td").all_inner_texts()
    return cells[:-1]


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_short_game_on_a_phone(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser)
    page.goto(f"{server}/pad")
    page.select_option("#preset", "merrimack-valley")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.fill("#options", "target=50")
    assert fits_the_phone(page)
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    assert "#key=" not in page.url  # the key left the address bar for this phone's storage
    assert page.inner_text("#next") == "Hand 1: Ann deals"
    assert page.is_hidden("#cancel") and page.is_hidden("#undo")
    watch_url = page.input_value("#share")

    enter(page, "Bob", "20", (10, 20))
    page.wait_for_selector("#sheet tbody tr:nth-child(1)")
    assert totals(page, 1) == ["10", "20"]
    enter(page, "Ann", "25", (20, 20))  # 40 points: refused in one line, nothing entered
    page.wait_for_function("document.getElementById('error').textContent.includes('add up')")
    assert page.inner_text("#error") == "the points add up to 40: a hand has 30 (25 when " \
                                        "no trump was played)"
    enter(page, "Ann", "25", (25, 5))
    page.wait_for_selector("#sheet tbody tr:nth-child(2)")
    assert totals(page, 2) == ["35", "25"] and page.inner_text("#next") == "Hand 3: Cy deals"

    # hand 1 was written wrong: Bob took 25, not 20
    page.click("#sheet tbody tr:nth-child(1) button.pad-fix")
    assert page.inner_text("#entry-title") == "Correct hand 1" and page.is_visible("#cancel")
    page.fill("#points0", "5")
    page.fill("#points1", "25")
    page.click("#enter")
    page.wait_for_function(
        "document.querySelector('#sheet tbody tr:nth-child(2) td').textContent === '30'")
    assert totals(page, 1) == ["5", "25"] and totals(page, 2) == ["30", "30"]

    watcher = phone(browser)
    watcher.goto(watch_url)
    watcher.wait_for_selector("#sheet tbody tr:nth-child(2)")
    assert watcher.is_hidden("#entry") and watcher.is_visible("#watching")
    assert watcher.locator("button.pad-fix").count() == 0

    enter(page, "Ann", "20", (20, 10))
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result") == "Ann and Cy win: first to 50"
    assert page.is_hidden("#entry") and fits_the_phone(page)
    page.screenshot(path=str(shots / "web-pad-phone.png"), full_page=True)
    watcher.wait_for_selector("#result:not([hidden])", timeout=20_000)
    assert watcher.inner_text("#result") == "Ann and Cy win: first to 50"
    csv = page.evaluate("fetch(document.getElementById('csv').href).then(r => r.text())")
    assert csv.splitlines()[-1].endswith("Ann and Cy win: first to 50")


def test_forty_one_in_french_and_arabic(browser: Any, server: str, shots: Path) -> None:
    page = phone(browser, "fr")
    page.goto(f"{server}/pad?lang=fr")
    page.select_option("#preset", "forty-one")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    assert page.inner_text("#enter") == "Inscrire la donne"
    for i, b in enumerate((2, 2, 2, 2)):
        page.fill(f"#bid{i}", str(b))
    page.click("#enter")
    page.wait_for_selector("#sheet tbody tr:nth-child(1)")
    assert "moins de 11 : donne annulée" in page.inner_text("#sheet tbody tr:nth-child(1)")
    assert page.inner_text("#next") == "Donne 2 : Bob distribue"
    page.select_option("#lang", "ar")
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.inner_text("#next") == "الدور 2: يوزّع Bob"
    assert fits_the_phone(page)
    page.screenshot(path=str(shots / "web-pad-arabic-phone.png"), full_page=True)


def test_hands_typed_offline_are_kept_and_sent_later(browser: Any, server: str) -> None:
    page = phone(browser)
    page.goto(f"{server}/pad")
    page.select_option("#preset", "nova-scotia")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    page.context.set_offline(True)
    page.fill("#trump", "JD")
    page.fill("#points0", "25")
    page.fill("#points1", "5")
    page.click("#enter")
    page.wait_for_selector("#offline:not([hidden])")
    assert "hands waiting on this phone: 1." in page.inner_text("#offline")
    assert page.locator("#sheet tr.pad-pending").count() == 1
    page.context.set_offline(False)
    page.wait_for_selector("#offline", state="hidden", timeout=20_000)
    assert totals(page, 1) == ["25", "5"]
    assert "JD turned up" in page.inner_text("#sheet tbody tr:nth-child(1)")


def test_the_new_pad_form_shows_once_it_can_be_sent(browser: Any, server: str) -> None:
    """While the games the pad keeps have not come, the form is not there to tap (a tap
    would reload the page); once they come, it is, and it makes the pad."""
    page = phone(browser)
    games = Held(page, "**/api/pads/presets")
    page.goto(f"{server}/pad", wait_until="domcontentloaded")
    games.asked()
    assert page.is_hidden("#new")
    games.release()
    page.wait_for_selector("#new:not([hidden])")
    page.select_option("#preset", "nova-scotia")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    assert "?" not in page.url
    page.context.close()


def test_a_french_pad_names_the_sides_and_refuses_in_french(browser: Any, server: str) -> None:
    page = phone(browser, "fr")
    page.goto(f"{server}/pad?lang=fr")
    page.select_option("#preset", "auction-45")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    heads = page.locator("#sheet thead th").all_inner_texts()
    assert heads[1:3] == ["Ann et Cy", "Bob et Di"], heads
    labels = page.locator("#fields .pad-row label span").all_inner_texts()
    assert labels[-2:] == ["Ann et Cy", "Bob et Di"], labels
    enter(page, "Bob", "20", (20, 15))
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.inner_text("#error") == \
        "les points font 35 : une donne en vaut 30 (25 quand aucun atout n'a été joué)"
    # points that are not fives: the server's word for it, and the old message gone
    page.fill("#points0", "12")
    page.fill("#points1", "18")
    page.click("#enter")
    page.wait_for_function("document.getElementById('error').textContent.includes('cinq')")
    assert page.inner_text("#error").startswith("Ann et Cy : 12 points ? les points vont par")
    # one point is "1 point" in French (the pad said "1 points ?")
    page.fill("#points0", "1")
    page.fill("#points1", "29")
    page.click("#enter")
    page.wait_for_function("document.getElementById('error').textContent.includes(' 1 ')")
    assert page.inner_text("#error").startswith("Ann et Cy : 1 point ? les points vont par")
    # the watchers' page, in a fresh browser: French headings too
    watch = phone(browser, "fr")
    pid = page.url.split("/pad/")[1].split("?")[0].split("#")[0]
    watch.goto(f"{server}/pad/{pid}?lang=fr")
    watch.wait_for_selector("#sheet thead th:nth-child(2)")
    assert watch.locator("#sheet thead th").all_inner_texts()[1:3] == ["Ann et Cy", "Bob et Di"]
    watch.context.close()
    page.context.close()


def test_a_stale_refusal_goes_at_the_next_tap(browser: Any, server: str) -> None:
    page = phone(browser)
    page.goto(f"{server}/pad")
    page.select_option("#preset", "auction-45")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    enter(page, "Bob", "20", (20, 15))
    page.wait_for_function("document.getElementById('error').textContent.includes('35')")
    page.fill("#points0", "12")
    page.fill("#points1", "18")
    page.click("#enter")
    page.wait_for_function("!document.getElementById('error').textContent.includes('35')")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert page.inner_text("#error") == \
        "Ann and Cy: 12 points? points go by fives (5 a trick, 5 more for the best trump)"
    page.fill("#points0", "1")
    page.fill("#points1", "29")
    page.click("#enter")
    page.wait_for_function("document.getElementById('error').textContent.includes(' 1 ')")
    assert page.inner_text("#error") == \
        "Ann and Cy: 1 point? points go by fives (5 a trick, 5 more for the best trump)"
    assert page.locator("#sheet tbody tr").count() == 0
    page.context.close()


def test_the_new_pad_form_follows_a_language_switch(browser: Any, server: str) -> None:
    page = phone(browser)
    page.goto(f"{server}/pad?lang=en")
    page.wait_for_selector("#new:not([hidden])")
    assert page.locator("#names label span").first.inner_text() == "Seat 1"
    english = page.inner_text("#preset-summary")
    page.select_option("#lang", "fr")
    page.wait_for_function("document.querySelector('#names label span').textContent"
                           " !== 'Seat 1'")
    assert page.locator("#names label span").first.inner_text() == "Place 1"
    assert page.inner_text("#preset-summary") != english
    assert page.locator("#first-dealer option").first.inner_text() == "Place 1"
    assert page.title() == "Feuille de marque"  # the tab's title too
    page.context.close()


def test_a_house_rule_of_six_players_gives_the_form_six_seats(browser: Any,
                                                              server: str) -> None:
    """The new-pad form seats the players the house rules say (players=6 on Auction 45),
    not the preset's four: the server refuses a names list one short or one long."""
    page = phone(browser)
    page.goto(f"{server}/pad")
    page.select_option("#preset", "auction-45")
    page.wait_for_selector("#name3")
    assert page.locator("#names input").count() == 4
    page.fill("#options", "players=6, teams=three-pairs")
    page.wait_for_selector("#name5")
    assert page.locator("#names input").count() == 6
    assert page.locator("#first-dealer option").count() == 6
    page.fill("#name4", "Eve")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    assert page.inner_text("#error") == ""
    assert page.locator("#bidder option", has_text="Eve").count() == 1
    page.context.close()
