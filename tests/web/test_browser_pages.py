"""What the table and home pages show, in Chromium: nothing wider than a 360-pixel phone in
French, no English left on a French table page (the rules line, a taken seat, the page of a
table that is not there), the More panel (no dead button, a readable rules line, the
``hidden`` attribute obeyed), the host's link for those who watch, the French review
line of the player's own bid, the Play-now player as a spectator's page names him, and
every seat's name whole (no word broken) at five and six players on a phone; a language
chosen in the address (?lang=) kept on the pages that follow."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from .pages import (
    BROKEN_WORDS_JS,
    PHONE,
    body,
    catalog,
    mine,
    new_page,
    over,
    play_until,
    post,
    wait_ready,
)

LOCALE = Path(__file__).resolve().parents[2] / "src" / "forties" / "web" / "locale"
DESKTOP_1280 = {"width": 1280, "height": 800}

# The page's width against the window's, and every visible element that sticks out of it
WIDER = """() => {
  const vw = window.innerWidth;
  const out = [];
  if (document.documentElement.scrollWidth > vw) {
    out.push(`page ${document.documentElement.scrollWidth} > ${vw}`);
  }
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > vw + 0.5 || r.left < -0.5)) {
      out.push(`${e.tagName}#${e.id} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
  }
  return out.slice(0, 8);
}"""


def french(mid: str) -> str:
    with open(LOCALE / "fr.po", "rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}[mid]


def fits(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
        page.evaluate(WIDER)


def test_a_french_phone_game_fits_the_screen_and_says_your_bid_in_french(
        server: str, browser: Any) -> None:
    page = new_page(browser, PHONE, "fr")
    page.goto(server + "/?lang=fr")
    wait_ready(page)
    fits(page)  # the home page, its "Jeu" drop-downs holding the longest French titles
    page.click("#house summary")
    page.wait_for_selector("#opt-players")
    fits(page)
    page.select_option("#play-preset", "merrimack-valley")
    page.fill("#play-name", "Zoé")
    page.click("#play")
    page.wait_for_url("**/t/**")
    wait_ready(page)
    fits(page)

    # hands until the player has taken the bid (the highest bid each time it is offered)
    for _ in range(4):
        play_until([page], lambda: over(page), bidder=True)
        page.wait_for_selector("#review", state="visible")
        page.click("#b-pad")
        page.wait_for_selector("#pad table.pad")
        fits(page)  # the review and the score pad, with "Ordinateur 2 & Ordinateur 4"
        line = page.text_content("#review p.scoreline") or ""
        if line.startswith("Vous"):
            break
        page.click("#b-pad")
        hand = body(page, "hand")
        page.click("#ready")
        page.wait_for_function("h => document.body?.dataset.hand !== h", arg=hand)
    else:
        raise AssertionError("the player never took the bid in four hands")
    assert line.startswith("Vous avez pris à 30 : "), line

    # the score pad in its panel beside the table, on a desktop
    page.set_viewport_size(DESKTOP_1280)
    page.wait_for_timeout(100)
    fits(page)
    inside = page.evaluate("""() => {
      const pad = document.querySelector('#pad table.pad').getBoundingClientRect();
      const box = document.getElementById('pad').getBoundingClientRect();
      return pad.left >= box.left - 0.5 && pad.right <= box.right + 0.5;
    }""")
    assert inside
    assert not page.errors
    page.context.close()


def test_a_french_table_page_has_no_english(server: str, browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                        "options": {"kitty": 4}})
    host = new_page(browser, PHONE, "fr")
    host.goto(server + made["url"])
    wait_ready(host)
    host.click("#b-more")
    rules = host.text_content("#rules-text")
    assert rules == french("table.house_rules").format(
        line=french("preset.merrimack-valley.summary"),
        rules=f"{french('option.kitty.label')}: 4")
    assert "house rules" not in rules and "pairs" not in rules

    # an invite used already: the page says so in French
    code = made["invites"][0]["url"].split("#invite=")[1]
    post(server, f"/api/tables/{made['table']}/join", {"invite": code, "name": "Bob"})
    late = new_page(browser, PHONE, "fr")
    late.goto(server + made["invites"][0]["url"])
    late.wait_for_selector("#join-name", state="visible")
    late.fill("#join-name", "Eve")
    late.click("#join-go")
    late.wait_for_function("document.getElementById('join-error').textContent !== ''")
    assert late.text_content("#join-error") == french("error.code.taken")

    # a table that is not there: the server's own page, in the browser's language
    late.goto(server + "/t/NoSuchTable")
    assert late.evaluate("document.documentElement.lang") == "fr"
    assert late.text_content("h1") == french("missing.title")
    assert late.text_content("p") == french("missing.text")
    assert not host.errors and not late.errors
    host.context.close()
    late.context.close()


def test_a_spectator_names_the_play_now_player_in_the_pages_language(
        server: str, browser: Any) -> None:
    """A Play-now table keeps "You" as the name of the person who started it (the record's
    word for him, which the replay reads as "you"). His own page says "Vous"; a spectator's
    page, in French, Arabic or English, calls him "Player 1" in its own words, never the
    English "You" (nor "Vous": the spectator is not him): at his place at the table, in the
    review of the hand and on the score pad."""
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    player = new_page(browser, PHONE, "fr")
    player.goto(server + made["url"])
    wait_ready(player)
    play_until([player], lambda: over(player), bidder=False)
    assert player.text_content(".badge[data-seat='0'] .name") == "Vous"
    player.context.close()
    for lang, name, you in (("fr", "Joueur 1", "Vous"), ("ar", "اللاعب 1", "أنت"),
                            ("en", "Player 1", "You")):
        p = new_page(browser, PHONE, lang)
        p.goto(f"{server}/t/{made['table']}#watch")
        wait_ready(p)
        p.wait_for_selector("#review .review-hands .who")
        p.click("#b-pad")
        p.wait_for_selector("#pad-body table.pad tbody tr")
        assert p.text_content(".badge[data-seat='0'] .name") == name, lang
        whos = p.eval_on_selector_all("#review .review-hands .who",
                                      "ws => ws.map(w => w.textContent)")
        assert whos[0] == name, (lang, whos)
        sides = p.eval_on_selector_all("#pad-body th.who", "ws => ws.map(w => w.textContent)")
        assert any(x.startswith(f"{name} & ") for x in sides), (lang, sides)
        shown = " | ".join([*whos, *sides, p.text_content("#review") or ""])
        assert not re.search(r"\bYou\b", shown) and not re.search(rf"\b{you}\b", shown), \
            (lang, shown)
        assert not p.errors
        p.context.close()


def test_the_lobby_names_a_seated_computer_player_in_the_pages_language(
        server: str, browser: Any) -> None:
    """A public table's host seats a computer player while waiting for people: the French
    home page's lobby names it "Ordinateur (Joueur de club)", not the server's English
    "Computer (basic)"; the host's own name stays as he typed it."""
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                        "public": True})
    seated = post(server, f"/api/tables/{made['table']}/seat",
                  {"token": made["token"], "seat": 1, "level": "basic"})
    assert seated["seats"][1]["name"] == "Computer (basic)"  # what the server stores
    page = new_page(browser, PHONE, "fr")
    page.goto(server + "/?lang=fr")
    entry = page.locator("#lobby li", has_text="Ann")
    entry.wait_for()
    text = entry.inner_text()
    computer = french("replay.computer").format(level=french("level.basic"))
    assert f"Ann, {computer}" in text, text
    assert "Computer" not in text, text
    assert not page.errors
    page.context.close()


def test_the_lobby_marks_a_rated_table_in_the_pages_language(
        server: str, browser: Any) -> None:
    """A public rated table is marked "classée" in the French home page's lobby; an
    unrated one is not marked."""
    for name, rated in (("Rita", True), ("Ugo", False)):
        post(server, "/api/tables", {"preset": "merrimack-valley", "name": name,
                                     "public": True, "rated": rated})
    page = new_page(browser, PHONE, "fr")
    page.goto(server + "/?lang=fr")
    mark = french("home.lobby.rated")
    rated = page.locator("#lobby li", has_text="Rita")
    rated.wait_for()
    assert mark in rated.inner_text(), rated.inner_text()
    assert mark not in page.locator("#lobby li", has_text="Ugo").inner_text()
    assert not page.errors
    page.context.close()


def test_the_more_panel_has_no_dead_button_and_a_readable_rules_line(
        server: str, browser: Any) -> None:
    play = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE)
    page.goto(server + play["url"])
    wait_ready(page)
    page.click("#b-more")
    page.wait_for_selector("#more", state="visible")
    shown = page.eval_on_selector_all(
        "#more button, #more a.button",
        "bs => bs.filter(b => b.getClientRects().length).map(b => b.textContent.trim())")
    assert "Hint" not in shown and shown, shown
    # the rules line: dark on the white panel, 4.5 : 1 at least
    ratio = page.evaluate("""() => {
      const lum = (c) => {
        const [r, g, b] = c.match(/\\d+/g).slice(0, 3).map(Number).map((v) => {
          v /= 255;
          return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const text = lum(getComputedStyle(document.getElementById('rules-text')).color);
      const back = lum(getComputedStyle(document.getElementById('more')).backgroundColor);
      return (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05);
    }""")
    assert ratio >= 4.5, ratio
    assert page.text_content("#rules-text")
    page.context.close()

    # a spectator has no seat to leave: the hidden "I'm away" is not drawn (buttons are
    # inline-flex, which must not beat the hidden attribute)
    watcher = new_page(browser, PHONE)
    watcher.goto(server + f"/t/{play['table']}")
    wait_ready(watcher)
    watcher.click("#b-more")
    assert watcher.get_attribute("#b-away", "hidden") is not None
    assert watcher.evaluate("getComputedStyle(document.getElementById('b-away')).display") \
        == "none"
    assert not watcher.errors
    watcher.context.close()


def test_the_host_hands_out_a_watch_link(server: str, browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                        "hints": True})
    host = new_page(browser, PHONE)
    host.goto(server + made["url"])
    wait_ready(host)
    host.wait_for_selector("#watch-waiting-url")
    assert host.locator("#hint").count() == 0  # (no hint before the game starts)
    link = host.input_value("#watch-waiting-url")
    assert link == f"{server}/t/{made['table']}#watch"
    host.wait_for_selector("#start")
    host.click("#start")  # the empty seats get computer players
    host.wait_for_function("document.body?.dataset.phase === 'auction'")
    host.click("#b-more")
    assert host.input_value("#watch-link-url") == link

    # someone else opens it: the table, no seat, no cards
    watcher = new_page(browser, PHONE)
    watcher.goto(link)
    wait_ready(watcher)
    assert body(watcher, "you") == ""
    assert watcher.locator("#felt .badge").count() == 4
    assert watcher.locator("#hand button, #hand .card").count() == 0
    assert not mine(watcher)
    # the host's own browser (which keeps the host's seat) watches by it too
    second = host.context.new_page()
    second.goto(link)
    wait_ready(second)
    assert body(second, "you") == "" and second.locator("#hand .card").count() == 0
    # and a guest sees no watch link to hand out
    assert watcher.locator("#watch-link-url, #watch-waiting-url").count() == 0
    assert not host.errors and not watcher.errors
    host.context.close()
    watcher.context.close()


# Every word of the seats' labels on one line (BROKEN_WORDS_JS). Also: the page's width
# and the bottom of the hand's cards.
FELT_WORDS = """() => {
  """ + BROKEN_WORDS_JS + """
  const broken = [...document.querySelectorAll('#felt .badge')].flatMap(brokenWords);
  const cards = [...document.querySelectorAll('#hand button.card')];
  return {broken, names: [...document.querySelectorAll('#felt .badge')].map((b) => b.innerText),
          page: document.documentElement.scrollWidth, view: window.innerWidth,
          cards: cards.length, height: window.innerHeight,
          bottom: Math.max(0, ...cards.map((c) => c.getBoundingClientRect().bottom))};
}"""


def test_the_seats_names_stay_whole_at_five_and_six_on_a_phone(
        server: str, browser: Any) -> None:
    """At a table of five (Call Your Partner) or six (Auction 45), and of four, on a 360 px
    phone in English, French and Arabic: the player's own page shows every seat's name with
    no word broken inside ("Ordinateur" whole, its number on the next line), no sideways
    scroll and the hand's cards on the screen; a spectator's page shows the Play-now player
    "Marie-Christine Tremblay (déconnecté)" in the middle, no word broken (but after the
    hyphen); and so it is still with that long name at every seat."""
    long_name = "Marie-Christine Tremblay"
    for preset, options in (("call-your-partner", {}), ("auction-45", {"players": 6}),
                            ("merrimack-valley", {})):
        made = post(server, "/api/play", {"preset": preset, "options": options,
                                          "level": "random", "name": long_name})
        for lang in ("en", "fr", "ar"):
            player = new_page(browser, PHONE, lang)
            player.goto(server + made["url"])
            wait_ready(player)
            player.wait_for_selector("#hand button.card")
            got = player.evaluate(FELT_WORDS)
            where = (preset, lang, "player")
            assert got["broken"] == [], (where, got)
            assert got["page"] <= got["view"], (where, got)
            assert got["cards"] and got["bottom"] <= got["height"], (where, got)
            player.context.close()

            watcher = new_page(browser, PHONE, lang)
            watcher.goto(f"{server}/t/{made['table']}#watch")
            wait_ready(watcher)
            watcher.wait_for_function(
                "n => document.querySelector('.badge[data-seat=\"0\"]')?.innerText.includes(n)",
                arg=long_name)
            got = watcher.evaluate(FELT_WORDS)
            where = (preset, lang, "spectator")
            assert got["broken"] == [], (where, got)
            assert got["page"] <= got["view"], (where, got)
            # the long name at every seat
            watcher.eval_on_selector_all("#felt .badge .name",
                                         "(ns, n) => ns.forEach((x) => { x.textContent = n; })",
                                         long_name)
            got = watcher.evaluate(FELT_WORDS)
            assert got["broken"] == [], (where, "long names", got)
            assert got["page"] <= got["view"], (where, "long names", got)
            assert not player.errors and not watcher.errors
            watcher.context.close()


def test_a_language_chosen_in_the_address_stays_on_the_next_page(
        server: str, browser: Any) -> None:
    """An English browser opens the home page as /?lang=fr (or /?lang=ar) and taps Play now:
    the table it comes to is in French (in Arabic, right to left), though its address has
    no ?lang=; the same for /pad?lang=fr and the new pad it starts."""
    for lang in ("fr", "ar"):
        page = new_page(browser, PHONE)  # en-US
        page.goto(f"{server}/?lang={lang}")
        wait_ready(page)
        assert page.evaluate("document.documentElement.lang") == lang
        page.click("#play")
        page.wait_for_url("**/t/**")
        wait_ready(page)
        assert "lang=" not in page.url
        assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") \
            == [lang, "rtl" if lang == "ar" else "ltr"]
        assert page.text_content("#b-pad") == catalog(lang)["table.pad"]
        assert not page.errors
        page.context.close()

    page = new_page(browser, PHONE)
    page.goto(f"{server}/pad?lang=fr")
    page.wait_for_selector("#new:not([hidden])")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    assert "/pad/" in page.url and "lang=" not in page.url
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.text_content("#enter") == catalog("fr")["pad.ui.enter"]
    assert not page.errors
    page.context.close()


def test_the_french_par_line_agrees_with_its_side(server: str, browser: Any) -> None:
    """The review's par line in French, its verb agreeing with the side it names: the player
    who took the bid reads "Vous pouviez faire … points à cartes ouvertes." (never "Vous
    pouvaient"; "0 point" and "1 point" in the singular); a spectator of the same table
    reads of that player as one other seat, "Joueur 1 pouvait …" (or, with a partner,
    "Joueur 1 & Ordinateur 3 pouvaient …")."""
    made = post(server, "/api/play", {"preset": "call-your-partner", "level": "random"})
    page = new_page(browser, PHONE, "fr")
    page.goto(server + made["url"])
    wait_ready(page)
    words = catalog("fr")
    for _ in range(5):
        play_until([page], lambda: over(page), bidder=True)
        page.wait_for_selector("#review #par")
        page.wait_for_function("!document.getElementById('par').textContent.includes('…')",
                               timeout=180000)
        par = page.text_content("#par") or ""
        if re.search(r"\bVous\b", par):  # the player's side
            break
        hand = body(page, "hand")
        page.click("#ready")
        page.wait_for_function("h => document.body?.dataset.hand !== h", arg=hand)
    else:
        raise AssertionError("the player never took the bid in five hands")
    got = re.fullmatch(r"(.+) (\w+) faire (\d+) (points?) à cartes ouvertes\.", par)
    assert got and got[2] == "pouviez", par
    assert got[4] == ("point" if int(got[3]) < 2 else "points"), par  # "0 point", "5 points"
    side = got[1]
    assert side == "Vous" or side.startswith("Vous & "), par
    watcher = new_page(browser, PHONE, "fr")
    watcher.goto(f"{server}/t/{made['table']}#watch")
    wait_ready(watcher)
    watcher.wait_for_function("!(document.getElementById('par')?.textContent ?? '…')"
                              ".includes('…')", timeout=180000)
    seen = watcher.text_content("#par") or ""
    other = side.replace("Vous", words["table.player_n"].format(seat=1), 1)
    verb = "pouvaient" if " & " in other else "pouvait"
    assert seen == f"{other} {verb} faire {got[3]} {got[4]} à cartes ouvertes.", seen
    assert not page.errors and not watcher.errors
    page.context.close()
    watcher.context.close()
