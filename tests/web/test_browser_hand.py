"""The hand as the player reads it and the table laid out for each screen, in Chromium:
the hand at full contrast while it is the player's to read (his bid, the discard), sorted
as the engine ranks it with the trumps first (the ace of hearts among them) and marked in
words ("trump", "kitty"), a card that may not be played greyed with its rank still 4.5:1,
tap to raise then play, 13 cards within the screen on a phone and a 1280 x 800 desktop,
nothing cut off on a phone on its side during the bidding, and the undo of a table of one
person: accepted, then refused once the next seat has acted."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from forties import build_rules, new_game
from forties.cards import CARD_NAMES
from forties.fortyfives import TRUMP_ORDER
from forties.show import sort_hand
from forties.state import DealKey

from .conftest import serving
from .pages import act, body, catalog, new_page, over, post, screenshot, until, wait_ready

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
PHONE_SIDE = {"width": 844, "height": 390}
DESKTOP = {"width": 1440, "height": 900}
LAPTOP = {"width": 1280, "height": 800}

# the first key (in this order) that deals seat 0, who bids first, the ace of hearts
KEY = next(k for k in (DealKey(bytes([i]) + bytes(31)) for i in range(256))
           if CARD_NAMES.index("AH") in new_game(build_rules("merrimack-valley"), seed=k,
                                                 first_dealer=3).deal.hands[0])

# Each card of the hand as drawn: its name, classes, marks, and what its face is drawn
# with: the opacity of it and its ancestors, the face's fill and the rank's colour.
HAND_JS = """() => [...document.querySelectorAll('#hand button.card')].map((b) => {
  let op = 1;
  for (let e = b.querySelector('svg'); e; e = e.parentElement) {
    op *= Number(getComputedStyle(e).opacity);
  }
  return {card: b.dataset.card, label: b.getAttribute('aria-label'), cls: b.className,
    marks: [...b.querySelectorAll('.mark')].map((m) => m.textContent),
    opacity: op, face: getComputedStyle(b.querySelector('svg rect')).fill,
    ink: getComputedStyle(b.querySelector('svg text')).fill};
})"""

# What of the hand, the actions and the refusal lies outside the screen (scrolled to the top).
OUTSIDE_JS = """() => {
  window.scrollTo(0, 0);
  const out = [];
  for (const e of document.querySelectorAll('#hand button.card, #actions button, #refusal')) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.push(`${e.dataset.card || e.dataset.action || e.id} ${Math.round(r.left)},` +
               `${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
  }
  return {out, cards: document.querySelectorAll('#hand button.card').length,
          scroll: document.scrollingElement.scrollHeight - innerHeight};
}"""


SEATS_JS = """() => [...document.querySelectorAll('#felt .seat')].map((c) => {
  const b = c.querySelector('.badge');
  return {side: b.classList.contains('side-us') ? 'us' : b.classList.contains('side-them')
    ? 'them' : '', partner: [...b.querySelectorAll('.chip.partner')].map((x) => x.textContent),
    text: b.textContent};
})"""
TITLE_JS = """() => { const e = document.getElementById('title');
  return e.textContent.length > 0 && e.scrollWidth <= e.clientWidth + 1
    && e.scrollHeight <= e.clientHeight + 1; }"""
TURN_JS = """() => ({phase: document.body.dataset.phase, version: document.body.dataset.version,
  mine: document.body.dataset.mine === 'true'})"""
CARDS_JS = "() => [...document.querySelectorAll('#hand button')].map((b) => b.dataset.card)"


def luminance(css: str) -> float:
    r, g, b = (int(x) / 255 for x in re.findall(r"\d+", css)[:3])
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def full_contrast(page: Any, what: str) -> list[dict[str, Any]]:
    cards = page.evaluate(HAND_JS)
    assert cards, f"no hand drawn ({what})"
    dim = [c for c in cards if c["opacity"] < 1 or c["face"] != "rgb(255, 255, 255)"]
    assert not dim, f"cards dimmed while the player reads them ({what}): {dim}"
    return list(cards)


def play_hand(page: Any) -> bool:
    """Play the hand to its end, each card tapped twice (raised, then played); whether a
    card was unplayable (and then greyed with its rank 4.5:1 on its face) at some turn."""
    seen_grey = False
    deadline = time.monotonic() + 90
    while not over(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        seen = page.evaluate(TURN_JS)  # read at once (nothing moves while it is ours)
        if not seen["mine"]:
            page.wait_for_timeout(50)
            continue
        if seen["phase"] != "play":
            act(page, bidder=True)
            continue
        for c in page.evaluate(HAND_JS):
            if "unplayable" in c["cls"]:
                seen_grey = True
                assert contrast(c["ink"], c["face"]) >= 4.5 and c["opacity"] == 1, c
        first = page.locator("#hand button.card.legal").first
        card = first.get_attribute("data-card")
        first.click()
        until(page, "c => document.querySelector(`#hand button[data-card='${c}']`)"
              "?.classList.contains('raised')", "the card raised", card)
        assert body(page, "version") == seen["version"], "a first tap played the card"
        page.locator(f"#hand button[data-card='{card}']").click()
        until(page, "v => document.body.dataset.version !== v", "the card played",
              seen["version"])
    return seen_grey


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server (in this process) deals every new table from KEY."""
    monkeypatch.setattr(DealKey, "new", classmethod(lambda cls: KEY))


@pytest.mark.parametrize(("lang", "size"), [("en", DESKTOP), ("ar", PHONE)])
def test_the_hand_reads_in_rank_order_with_its_marks(server: str, browser: Any, shots: Path,
                                                     dealt: None, lang: str,
                                                     size: dict[str, int]) -> None:
    words = catalog(lang)
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, size, lang)
    page.goto(server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true'", "seat 0's first bid")
    assert body(page, "phase") == "auction"
    full_contrast(page, "his bid")
    # the seats: the partner marked in words, the sides by colour and word, a computer's
    # level that is no suit ("beginner level", not "Club player"), the game's name whole
    seats = page.evaluate(SEATS_JS)
    assert [x["side"] for x in seats] == ["them", "us", "them"], seats
    assert [x["partner"] for x in seats] == [[], [words["table.partner_chip"]], []], seats
    level = words["table.level_only"].replace("{level}", words["level_short.random"])
    assert all(level in x["text"] and words["level.basic"] not in x["text"] for x in seats)
    assert page.evaluate(TITLE_JS), "the game's name is cut in the bar"
    # the bid, clubs as trump when it is ours (the deal holds the jack, king and queen)
    deadline = time.monotonic() + 60
    while True:
        seen = page.evaluate(TURN_JS)
        assert time.monotonic() < deadline, f"no draw came: {seen}"
        if not seen["mine"]:
            page.wait_for_timeout(50)
            continue
        if seen["phase"] == "draw":
            break
        clubs = page.locator("#actions button[data-action$=' trump C']")
        if seen["phase"] == "trump" and clubs.count():
            clubs.click()
            until(page, "v => document.body.dataset.version !== v", "the trump named",
                  seen["version"])
        else:
            act(page, bidder=True)
    cards = full_contrast(page, "the discard")
    held = [c["card"] for c in cards]
    trump = body(page, "trump")
    assert "AH" in held and trump, (held, trump)
    assert held == sort_hand(held, trump, "forty-fives"), "not the engine's order"
    order = [CARD_NAMES[c] for c in TRUMP_ORDER["CDHS".index(trump)]]
    trumps = [c for c in held if c in order]
    assert held[:len(trumps)] == sorted(trumps, key=order.index) and "AH" in trumps, held
    kitty = set(page.evaluate("() => [...document.querySelectorAll("
                              "'#hand button.card.from-kitty')].map((b) => b.dataset.card)"))
    for c in cards:
        want = ([words["hand.badge.trump"]] if c["card"] in trumps else []) + \
            ([words["hand.badge.kitty"]] if c["card"] in kitty else [])
        assert c["marks"] == want, c
        assert all(w in c["label"] for w in want), c  # the name says what the card shows
    screenshot(page, shots, f"hand-draw-{lang}")
    # tap to raise (kept on this device), then play: on at the first card played
    page.click("#b-more")
    page.check("#raise-first")
    page.click("#b-more")
    until(page, "() => localStorage.getItem('forties.raise') === '1'", "the setting kept")
    seen_grey, hands = False, 0
    while not seen_grey and hands < 3:  # (the same deals each run: the key's)
        seen_grey = play_hand(page) or seen_grey
        hands += 1
        if not seen_grey:
            page.click("#ready")
            until(page, "document.body.dataset.phase !== 'hand-over'", "the next deal")
    assert seen_grey, "no card was ever unplayable in this deal: the check did not run"
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("lang", "size"), [("en", LAPTOP), ("en", PHONE), ("ar", SMALL_PHONE),
                                             ("fr", PHONE_SIDE)])
def test_thirteen_cards_within_the_screen(server: str, browser: Any, lang: str,
                                          size: dict[str, int]) -> None:
    """Forty One's 13 cards and its 13 bids (each with the points it is worth), all on the
    screen at the player's bid, without scrolling, on a laptop, a phone, a small phone and a
    phone on its side; and the 13 cards at his first card, the trick's cards on the table."""
    made = post(server, "/api/play", {"preset": "forty-one", "level": "random"})
    page = new_page(browser, size, lang)
    page.goto(server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true'", "the first bid")
    seen = page.evaluate(OUTSIDE_JS)
    assert seen["cards"] == 13 and not seen["out"], seen
    assert seen["scroll"] <= 0, f"the page scrolls {seen['scroll']} px at the bid"
    full_contrast(page, "a Forty One bid")
    deadline = time.monotonic() + 60
    while (turn := page.evaluate(TURN_JS))["phase"] != "play" or not turn["mine"]:
        assert time.monotonic() < deadline and turn["phase"] in ("auction", "play",
                                                                  "hand-over"), turn
        if turn["phase"] == "hand-over":  # (the bids under the least total: thrown in)
            page.click("#ready")
            until(page, "document.body.dataset.phase !== 'hand-over'", "the next deal")
        elif turn["mine"]:
            act(page, bid="4")
        else:
            page.wait_for_timeout(50)
    seen = page.evaluate(OUTSIDE_JS)
    assert seen["cards"] == 13 and not seen["out"], seen
    # each player's name and score on one line ("Computer 3 0", not "Computer" / "3 0")
    # (here and on the narrowest phone, where the line takes three)
    for width in (size["width"], 360):
        page.set_viewport_size({"width": width, "height": size["height"]})
        pairs = page.eval_on_selector_all("#scoreline .pair", PAIRS_JS)
        assert len(pairs) == 4 and all(n == 1 for _, n in pairs), (width, pairs)
    page.set_viewport_size(size)
    # each seat's phrases apart ("beginner level, bid 2, took 0", not "beginner level bid 2")
    words = catalog(lang)
    level = words["table.level_only"].replace("{level}", words["level_short.random"])
    texts = page.eval_on_selector_all("#felt .seat .badge", "bs => bs.map((b) => b.textContent)")
    assert texts and all(f"{level}{words['table.phrase_sep']}" in x for x in texts), texts
    page.context.close()


def test_nothing_cut_off_on_a_phone_on_its_side(server: str, browser: Any, shots: Path) -> None:
    """844 x 390 during the bidding: the bids and the hand on the screen, and still with a
    refusal (a card tapped in the auction) shown."""
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE_SIDE)
    page.goto(server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true'", "the first bid")
    seen = page.evaluate(OUTSIDE_JS)
    assert seen["cards"] == 5 and not seen["out"], seen
    page.locator("#hand button.card").first.dispatch_event("click")  # (aria-disabled: tapped)
    until(page, "document.getElementById('refusal').textContent !== ''", "a refusal")
    seen = page.evaluate(OUTSIDE_JS)
    assert not seen["out"], seen
    screenshot(page, shots, "bid-phone-side")
    page.context.close()


PAIRS_JS = """ps => ps.map((p) => { const r = document.createRange(); r.selectNodeContents(p);
  return [p.textContent, new Set([...r.getClientRects()].filter((q) => q.width > 0)
    .map((q) => Math.round(q.bottom))).size]; })"""
FELT_JS = """() => { window.scrollTo(0, 0);
  return [...document.querySelectorAll('#felt .badge, #felt .trumpline, #felt .played')]
    .map((e) => [e.className, Math.round(e.getBoundingClientRect().bottom)])
    .filter(([, bottom]) => bottom > innerHeight); }"""


def test_the_table_whole_on_a_phone_on_its_side_at_the_first_card(server: str,
                                                                   browser: Any) -> None:
    """844 x 390 at the player's first card: the seats, the trick, his own seat and the trump
    beside it on the screen (the trump was under the seat, cut by the screen's foot)."""
    made = post(server, "/api/play", {"preset": "auction-45", "level": "random"})
    page = new_page(browser, PHONE_SIDE)
    page.goto(server + made["url"])
    wait_ready(page)
    deadline = time.monotonic() + 60
    while (turn := page.evaluate(TURN_JS))["phase"] != "play" or not turn["mine"]:
        assert time.monotonic() < deadline, turn
        if turn["mine"]:
            act(page, bidder=True)
        else:
            page.wait_for_timeout(50)
    assert page.locator("#felt .trumpline").count() == 1
    low = page.evaluate(FELT_JS)
    assert not low, f"below the screen's foot (its height 390): {low}"
    seen = page.evaluate(OUTSIDE_JS)
    assert not seen["out"], seen
    assert not page.errors, page.errors
    page.context.close()


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose computer players wait 30 seconds before they act: the undo must
    reach it before the next seat acts, and a loaded machine may take seconds over the
    click, the answer and the next click (the test never waits the 30 s out)."""
    from forties.web.limits import Rates
    from forties.web.service import Limits

    limits = Limits(bot_delay=30.0, review_seconds=600.0, grace_seconds=600.0, par=False,
                    messages_per_second=200.0, message_burst=400.0, **Rates.lifted())
    with serving(tmp_path_factory.mktemp("slow"), limits) as url:
        yield url


def test_undo_until_the_next_player_acts(slow_server: str, server: str,
                                        browser: Any) -> None:
    """In Arabic on a phone: the bid taken back (the seat bids again, the page says so),
    then, once the next seat has acted, no undo offered and one sent refused in words.
    (The undo goes to a table whose computers wait 30 s, the refused one to a table whose
    computers play at once: the page waits for its turn to come back, when the table
    waits for it and nothing moves, then sends the undo on the table's version.)"""
    words = catalog("ar")
    made = post(slow_server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE, "ar")
    page.goto(slow_server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true'", "the first bid")
    hand = page.evaluate(CARDS_JS)
    version = int(body(page, "version"))
    page.locator("#actions button.act").last.click()  # the highest bid
    page.locator("#undo").click()
    until(page, "v => Number(document.body.dataset.version) === v + 2"
          " && document.body.dataset.mine === 'true'", "the bid taken back", version)
    assert page.evaluate("() => document.getElementById('announce').textContent").count(
        words["say.you.undo"]) == 1
    again = page.evaluate(CARDS_JS)
    assert again == hand and not page.locator("#undo").count()
    assert not page.errors, page.errors
    page.context.close()

    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, PHONE, "ar")
    page.goto(server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true'", "the first bid")
    version = int(body(page, "version"))
    page.locator("#actions button.act").last.click()
    until(page, "v => Number(document.body.dataset.version) >= v + 2"
          " && document.body.dataset.mine === 'true'", "the next seats' bids, then mine",
          version)
    assert not page.locator("#undo").count(), "an undo offered after the next seat acted"
    page.evaluate("() => window.fortiesConnection.act('0 undo',"
                  " Number(document.body.dataset.version))")
    until(page, "document.getElementById('refusal').textContent !== ''", "the refusal")
    assert page.locator("#refusal").text_content() == words["refusal.undo-acted"]
    assert not page.errors, page.errors
    page.context.close()


def test_a_full_table_waits_for_its_host_not_its_players(server: str, browser: Any) -> None:
    """Every seat taken (the host seats three computers) before the start: the host is told
    to start, one who watches that the host will; neither "Waiting for the players"."""
    words = catalog("fr")
    made = post(server, "/api/tables", {"preset": "merrimack-valley", "name": "Zoé",
                                        "level": "random"})
    host = new_page(browser, PHONE, "fr")
    host.goto(server + made["url"])
    wait_ready(host)
    host.wait_for_selector("#start")
    assert host.text_content("#status") == words["status.waiting"]  # three seats empty
    for seat in (1, 2, 3):  # a computer in each
        host.click(f"#waiting li[data-seat='{seat}'] button")
        until(host, "s => document.querySelector(`#waiting li[data-seat='${s}'] select`)"
              " === null", "the computer seated", seat)
    until(host, "w => document.getElementById('status').textContent === w",
          "the host told to start", words["status.waiting_start"])
    watcher = new_page(browser, PHONE, "fr")
    watcher.goto(f"{server}/t/{made['table']}#watch")
    wait_ready(watcher)
    assert watcher.text_content("#status") == words["status.waiting_host"]
    assert words["status.waiting"] not in (watcher.text_content("#status") or "")
    host.context.close()
    watcher.context.close()
