"""The browser client with a screen reader, a keyboard, a phone and large text, measured as
an accessibility review measures it: every change of a live region (what a screen reader
reads out), where the keyboard focus is, the contrast of the focus ring, the size of each
control, and whether a page scrolls sideways."""

from __future__ import annotations

import re
import time
from typing import Any

from .pages import (
    PHONE,
    act,
    body,
    drawn,
    hand_cards,
    measure_targets,
    mine,
    new_page,
    over,
    post,
    until,
    wait_ready,
    where,
)

# Every change of a live region's text (role=status/alert/log or aria-live other than off),
# as [region id, its text]: what a screen reader is given to read.
LIVE_LOG = """(() => {
  window.__live = [];
  const live = '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"], [role="log"]';
  const watch = () => new MutationObserver((changes) => {
    const seen = new Set();
    for (const c of changes) {
      const node = c.target.nodeType === 1 ? c.target : c.target.parentElement;
      const region = node && node.closest(live);
      if (!region || seen.has(region)) continue;
      seen.add(region);
      const text = region.id === 'announce' && region.lastElementChild
        ? region.lastElementChild.textContent : region.textContent;
      if (text) window.__live.push([region.id || region.className, text]);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  if (document.body) watch(); else document.addEventListener('DOMContentLoaded', watch);
})()"""


def live(page: Any) -> list[tuple[str, str]]:
    return [(a, b) for a, b in page.evaluate("window.__live")]


def focused(page: Any) -> str:
    return str(page.evaluate("(() => { const e = document.activeElement;"
                             " return e ? e.tagName + '#' + (e.id || '') : ''; })()"))


def test_the_turn_timer_is_not_read_out_every_second(server: str, browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                        "public": False, "hints": True, "turn_seconds": 30,
                                        "level": "random"})
    page = new_page(browser, PHONE)
    page.add_init_script(LIVE_LOG)
    page.goto(server + made["url"])
    wait_ready(page)
    page.click("#start")
    page.wait_for_function("document.body?.dataset.mine === 'true'")
    timer = ".statusrow .timer:not([hidden])"
    page.wait_for_selector(timer)
    until(page, "window.__live.some(([r, t]) => r === 'status' && t === 'Your turn to bid')",
          "the status line to say it is the player's turn")
    heard = len(live(page))
    first = page.text_content(timer)
    until(page, "sel => document.querySelector(sel).getAttribute('aria-label')",
          "the countdown's label", arg=timer)
    left = int(re.sub(r"\D", "", page.get_attribute(timer, "aria-label") or ""))
    # three seconds of the countdown, watched
    until(page, "([sel, left]) => parseInt(document.querySelector(sel)"
                ".getAttribute('aria-label')) <= left - 3", "the countdown to run 3 s",
          arg=[timer, left], timeout=20)
    # the countdown runs, but nothing is read out while the player thinks
    assert page.text_content(timer) != first
    assert live(page)[heard:] == []
    # the countdown says what it means to a screen reader that goes to it
    assert re.fullmatch(r"\d+ seconds left", page.get_attribute(timer, "aria-label") or "")
    assert page.get_attribute(timer, "role") == "timer"
    # and the status was said once
    said = [text for region, text in live(page) if region == "status"]
    assert said.count("Your turn to bid") == 1
    assert page.text_content("#status") == "Your turn to bid"
    assert not page.errors
    page.context.close()


def play_hand(page: Any, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while not over(page):
        assert time.monotonic() < deadline, f"the hand did not finish: {where([page])}"
        if mine(page):
            act(page)
        else:
            time.sleep(0.05)


def test_a_french_screen_reader_hears_each_thing_once_and_you_in_the_second_person(
        server: str, browser: Any) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE, "fr")
    page.add_init_script(LIVE_LOG)
    page.goto(server + made["url"])
    wait_ready(page)

    # away and back, said to the player as "vous"
    page.click("#b-more")
    page.click("#b-away")
    page.wait_for_selector("#back")
    page.click("#back")
    page.wait_for_selector("#back", state="detached")
    page.wait_for_function("document.getElementById('announce').textContent.includes('de retour')")
    page.click("#b-more")

    # a chat message is read once, with the player's name in French
    page.click("#b-chat")
    page.click("#phrases button[data-phrase='hearts-on-hearts']")
    page.wait_for_selector("#chatlog li")
    until(page, "window.__live.some(([, t]) => t.includes('Cœur sur cœur'))",
          "the chat message read out")
    said = [text for _, text in live(page) if "Cœur sur cœur" in text]
    assert said == ["Vous : Cœur sur cœur !"] or said == ["Vous: Cœur sur cœur !"]
    page.click("#b-chat")

    # a whole hand through the page; at its end the result is read out and the focus,
    # which was on the card just played, is on the review's heading. (While the player was
    # away, the computer may have played the rest of the first hand in their seat, on a
    # busy machine: that hand is not the player's, and the next one is played instead.)
    if not over(page) and not hand_cards(page):
        page.wait_for_function("['hand-over', 'game-over'].includes(document.body?.dataset.phase)")
    if over(page):
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase !== 'hand-over'")
    heard = len(live(page))
    play_hand(page)
    page.wait_for_function("document.activeElement.tagName === 'H2'")
    assert page.evaluate("document.activeElement.closest('#review') !== null")
    until(page, "!document.getElementById('par').textContent.includes('…')", "the par shown",
          timeout=30)
    drawn(page)
    assert focused(page) == "H2#"  # still there once the review is drawn again (the par)
    result = [text for region, text in live(page)[heard:]
              if region == "announce" and "Scores :" in text]
    assert len(result) == 1 and re.search(r"\d", result[0]), live(page)[-6:]
    assert ("La donne est finie" in page.text_content("#status")
            and "La donne est finie" not in result[0])

    # next hands until the player has taken a trick and dealt
    for _ in range(6):
        texts = [text for _, text in live(page)]
        if "Vous prenez le pli" in texts and any(re.search(r"vous donnez$", x) for x in texts):
            break
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase !== 'hand-over'")
        play_hand(page)
    texts = [text for _, text in live(page)]
    assert "Vous prenez le pli" in texts
    assert any(re.fullmatch(r"Donne \d+ : vous donnez", x) for x in texts)
    assert "Vous vous absentez ; l'ordinateur joue pour vous pour l'instant" in texts
    assert "Vous êtes de retour" in texts
    assert not [x for x in texts if re.search(r"Vous (prend|donne|s'absente|est)\b|\bYou\b", x)]
    # whose turn it is: said by the status line, not again by the announcements
    status = {text for region, text in live(page) if region == "status"}
    announced = {text for region, text in live(page) if region == "announce"}
    assert "À vous : jouez une carte" in status, status
    assert not status & announced, status & announced
    assert not page.errors
    page.context.close()


def test_a_hand_entered_on_the_pad_is_read_out_and_the_focus_goes_to_the_next(
        server: str, browser: Any) -> None:
    page = new_page(browser, PHONE)
    page.add_init_script(LIVE_LOG)
    page.goto(f"{server}/pad")
    page.wait_for_selector("#new:not([hidden])")
    page.select_option("#preset", "merrimack-valley")
    page.fill("#name0", "Ann")
    page.fill("#name1", "Bob")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    # the watch link's field has a name
    assert page.get_by_role("textbox", name="Link for the others at the table (to watch):") \
        .count() == 1
    page.select_option("#bidder", label="Bob")
    page.select_option("#bid", "20")
    page.fill("#points0", "10")
    page.fill("#points1", "20")
    page.press("#points1", "Enter")  # the keyboard's way to send the form
    page.wait_for_selector("#sheet tbody tr:nth-child(1)")
    until(page, "window.__live.some(([r]) => r === 'announce')", "the hand read out")
    assert page.evaluate("document.activeElement.closest('#fields') !== null"), focused(page)
    said = [text for region, text in live(page) if region == "announce"]
    assert len(said) == 1, live(page)
    assert "Bob bid 20: made" in said[0] and "Hand 2: Bob deals" in said[0]
    assert re.search(r"\b10\b", said[0]) and re.search(r"\b20\b", said[0])
    assert not measure_targets(page), measure_targets(page)
    page.context.close()


def test_watch_it_again_in_french_names_the_players_in_french(server: str, browser: Any) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE)
    page.goto(server + made["url"])
    wait_ready(page)
    play_hand(page)
    replay = new_page(browser, PHONE, "fr")
    replay.goto(f"{server}/replay?table={made['table']}&lang=fr")
    replay.wait_for_selector("#player:not([hidden])")
    texts = []
    whos = set()
    for _ in range(80):
        texts.append(replay.text_content("#step-text"))
        whos.update(replay.eval_on_selector_all("#hands .who", "ws => ws.map(w => w.textContent)"))
        if replay.is_disabled("#next"):
            break
        replay.click("#next")
    joined = " | ".join(texts)
    assert "You" not in joined and "Computer" not in joined, joined
    assert re.search(r"Vous (annoncez|passez)", joined), joined
    assert re.search(r"Ordinateur \(Débutant\) [234]", " ".join(whos)), whos
    assert not [w for w in whos if "You" in w or "Computer" in w], whos
    # whose turn: said in words, the arrow is not read
    replay.click("#first")
    turn = replay.locator("#hands .who", has=replay.locator("[aria-hidden=true]"))
    assert turn.count() == 1
    assert turn.locator(".sr-only").text_content() == " (à son tour)"

    # the keyboard: Enter on "Last step" disables it, and the focus stays in the player
    replay.focus("#last")
    replay.keyboard.press("Enter")
    assert focused(replay) == "BUTTON#prev"
    replay.focus("#first")
    replay.keyboard.press("Enter")
    assert focused(replay) == "BUTTON#next"
    assert not replay.errors and not page.errors
    page.context.close()
    replay.context.close()


def test_the_bidders_eight_cards_fit_a_french_phone_with_a_timer_and_hints(
        server: str, browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Zoé",
                                        "public": False, "hints": True, "turn_seconds": 30,
                                        "level": "random"})
    page = new_page(browser, PHONE, "fr")
    page.goto(server + made["url"])
    wait_ready(page)
    page.click("#start")
    deadline = time.monotonic() + 120
    # hands until the player takes the bid (the highest bid each time) and has the kitty
    while not (body(page, "phase") == "draw" and mine(page)
               and page.locator("#hand button.card").count() == 8):
        assert time.monotonic() < deadline, f"the player never took the bid: {where([page])}"
        if body(page, "phase") == "hand-over":
            hand = body(page, "hand")
            page.click("#ready")
            page.wait_for_function("h => document.body?.dataset.hand !== h", arg=hand)
        elif mine(page):
            act(page, bidder=True)
        else:
            time.sleep(0.05)
    page.wait_for_selector("#hint")
    page.wait_for_selector(".statusrow .timer:not([hidden])")
    drawn(page)
    got = page.evaluate("""() => ({
      scrollY: window.scrollY, height: window.innerHeight,
      bottom: Math.max(...[...document.querySelectorAll('#hand button.card')]
        .map((b) => b.getBoundingClientRect().bottom)),
      discard: document.getElementById('discard').getBoundingClientRect().bottom })""")
    assert got["scrollY"] == 0
    assert got["bottom"] <= got["height"], got
    assert got["discard"] <= got["height"], got
    # the seats' names are not broken in the middle of a word ("Ordinateu / r 3")
    broken = page.evaluate("""() => {
      const out = [];
      for (const name of document.querySelectorAll('#felt .badge .name')) {
        const node = name.firstChild;
        let at = 0;
        for (const word of node.textContent.split(' ')) {
          const r = document.createRange();
          r.setStart(node, at);
          r.setEnd(node, at + word.length);
          const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
          if (tops.size > 1) out.push(word);
          at += word.length + 1;
        }
      }
      return out;
    }""")
    assert broken == []
    assert not page.errors
    page.context.close()


# The keyboard focus: its rings (the outline, and a box-shadow halo round it) and the
# colour it is drawn on (the first background among the element's parents).
FOCUS_RING = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const cs = getComputedStyle(e);
  let p = e.parentElement;
  let bg = 'rgb(255, 255, 255)';
  while (p) {
    const c = getComputedStyle(p).backgroundColor;
    if (c && c !== 'transparent' && !/rgba\\(.*, 0\\)$/.test(c)) { bg = c; break; }
    p = p.parentElement;
  }
  return { what: e.tagName + '#' + (e.id || e.textContent.trim().slice(0, 16)),
           outline: cs.outlineStyle === 'none' ? null
             : [cs.outlineColor, parseFloat(cs.outlineWidth)],
           offset: parseFloat(cs.outlineOffset), shadow: cs.boxShadow, bg };
}"""


def rgb(text: str) -> tuple[float, ...]:
    return tuple(float(x) for x in re.findall(r"[\d.]+", text)[:3])


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    def lum(c: tuple[float, ...]) -> float:
        f = [v / 255 for v in c]
        g = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in f]
        return 0.2126 * g[0] + 0.7152 * g[1] + 0.0722 * g[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def focus_contrast(page: Any, stops: int = 10) -> list[tuple[str, float]]:
    """Tab through ``stops`` focus stops: each one's best ring (at least 2 px wide)
    against the colour round it."""
    out = []
    for _ in range(stops):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring is None:
            continue
        bg = rgb(ring["bg"])
        rings: list[tuple[tuple[float, ...], float]] = []
        inner = 0.0
        if ring["outline"]:
            rings.append((rgb(ring["outline"][0]), ring["outline"][1]))
            inner = ring["offset"] + ring["outline"][1]
        for shadow in re.findall(r"(rgba?\([^)]*\))\s+0px 0px 0px ([\d.]+)px", ring["shadow"]):
            rings.append((rgb(shadow[0]), float(shadow[1]) - inner))
        best = max((contrast(c, bg) for c, width in rings if width >= 2), default=0.0)
        out.append((ring["what"], round(best, 2)))
    return out


def test_the_focus_ring_stands_out_on_white_panels_and_on_the_felt(
        server: str, browser: Any) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE)
    page.goto(server + made["url"])
    wait_ready(page)
    page.focus("#b-more")
    page.keyboard.press("Enter")  # the More panel (white), its controls
    rings = focus_contrast(page, 6)
    page.goto(f"{server}/pad")  # the new pad's form, on a white card
    page.wait_for_selector("#new:not([hidden])")
    rings += focus_contrast(page, 8)
    page.goto(f"{server}/hall")  # the hall's paper-coloured page
    page.wait_for_selector("input[name=title]")
    rings += focus_contrast(page, 8)
    page.goto(f"{server}/")  # and the felt, as before
    wait_ready(page)
    rings += focus_contrast(page, 6)
    assert len(rings) >= 20
    assert [r for r in rings if r[1] < 3] == [], rings
    page.context.close()


# Tall text: the root's size doubled (and the body's where a page sets it in pixels).
DOUBLE_TEXT = """() => {
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const before = parseFloat(getComputedStyle(document.body).fontSize);
  document.documentElement.style.fontSize = (2 * root) + 'px';
  if (parseFloat(getComputedStyle(document.body).fontSize) < 1.9 * before) {
    document.body.style.fontSize = (2 * before) + 'px';
  }
}"""

SPILT = """() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const width = document.documentElement.scrollWidth;
  if (width > vw) out.push(`page ${width}`);
  for (const e of document.querySelectorAll('body *')) {
    if (e.offsetParent === null || e.closest('.sr-only')) continue;
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > vw + 1 || r.left < -1)) {
      out.push(`${e.tagName}#${e.id} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
    }
  }
  return out.slice(0, 6);
}"""


# What shows that a page without a table is drawn: the new pad's form, the new evening's.
LOADED = {"/pad": "#new:not([hidden])", "/hall": "input[name=title]"}


def test_no_page_scrolls_sideways_on_a_phone_nor_at_twice_the_text_size(
        server: str, browser: Any) -> None:
    for lang in ("en", "fr", "ar"):
        made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
        page = new_page(browser, PHONE, lang)
        page.goto(f"{server}/hall?lang={lang}")  # the new evening's form, at its own size
        page.wait_for_selector("input[name=title]")
        drawn(page)
        assert page.evaluate(SPILT) == [], (lang, "/hall")
        for path in ("/", "/pad", "/hall", "/replay", "/clubs",
                     made["url"].replace("#", f"?lang={lang}#")):
            page.goto(server + (path if path.startswith("/t/") else f"{path}?lang={lang}"))
            if path.startswith("/t/") or path in ("/", "/replay", "/clubs"):
                wait_ready(page)
            else:  # (the pad's and the hall's forms, drawn once the page has asked)
                page.wait_for_selector(LOADED[path])
            drawn(page)
            page.evaluate(DOUBLE_TEXT)
            drawn(page)
            assert page.evaluate(SPILT) == [], (lang, path)
        page.context.close()


def test_the_hall_pages_controls_are_44_pixels(server: str, browser: Any) -> None:
    page = new_page(browser, PHONE)
    page.goto(f"{server}/hall")
    page.wait_for_selector("input[name=title]")
    drawn(page)
    assert measure_targets(page) == []
    page.fill("input[name=title]", "Parish hall")
    page.click("button[type=submit]")
    page.wait_for_url("**/director")
    page.fill("#name-a", "Ann")
    page.fill("#name-b", "Bob")
    page.click("#add")
    page.wait_for_function("document.getElementById('added').textContent !== ''")
    page.wait_for_selector("#links a")
    # (links inside a sentence, such as the tables' long link, are exempt)
    small = [x for x in measure_targets(page) if not x.startswith("A report-link")]
    assert small == []
    page.context.close()
