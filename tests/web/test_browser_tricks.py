"""Tricks a player can follow, at a table of one person and computer players that keep the
person's pace (a server with no pace of its own): each card played moves to the trick; the
finished trick's winner is said in words on the felt, for a time that follows the pace
chosen in More (kept on the device), before the next trick starts; with reduced motion
nothing moves and the words are still there; a tap on the trick, or its button from the
keyboard, shows the last trick in place."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serving
from .pages import act, catalog, mine, new_page, post, until, wait_ready, where

# What the page showed, as it showed it: each time the words stood on the felt (their
# text, from when to when), when each trick began (its first card), the most animations
# each card of the trick had while shown, and the most animations running in the page.
# (A mutation observer's callback runs once the drawing's script is done: a card that
# moves is moving by then.)
WATCH_JS = """(() => {
  const feel = window.__feel = { words: [], leads: [], cards: {}, running: 0, tones: 0,
                                 buzz: [], delays: [] };
  // the delays the page asks of its timers (its own figures: a loaded machine may run a
  // timer late, never asks another delay)
  const later = window.setTimeout;
  window.setTimeout = function (fn, ms, ...rest) {
    feel.delays.push(Number(ms) || 0);
    return later.call(this, fn, ms, ...rest);
  };
  // the tones made, and the vibrations asked for (a phone's, or none where there is none)
  const tone = BaseAudioContext.prototype.createOscillator;
  BaseAudioContext.prototype.createOscillator = function () {
    feel.tones += 1;
    return tone.call(this);
  };
  if (navigator.vibrate) navigator.vibrate = (p) => { feel.buzz.push(p); return true; };
  let shown = null, trick = '';
  const look = () => {
    const w = document.getElementById('trick-words');
    const text = w ? w.textContent : '';
    const now = performance.now();
    if (shown && text !== shown.text) {
      shown.end = now; feel.words.push(shown); shown = null;
    }
    if (text && !shown) shown = { text, start: now, hand: document.body.dataset.hand };
    for (const c of document.querySelectorAll('#felt .played .card')) {
      const k = c.dataset.card;
      feel.cards[k] = Math.max(feel.cards[k] || 0, c.getAnimations().length);
    }
    feel.running = Math.max(feel.running, document.getAnimations().length);
    const nowTrick = document.body.dataset.trick || '';
    if (nowTrick && !trick) feel.leads.push(now);
    trick = nowTrick;
  };
  document.addEventListener('DOMContentLoaded', () => new MutationObserver(look)
    .observe(document.body, { childList: true, subtree: true, attributes: true,
              attributeFilter: ['data-trick'] }));
})()"""

# a finished trick's words on the felt, in seconds (static/feel.js PACES: hold + sweep),
# and the hold before its cards go, which the next trick waits for
WORDS = {"slow": 3.05, "normal": 1.82, "fast": 0.88}
HOLD = {"slow": 2.6, "normal": 1.5, "fast": 0.7}


def held_for(page: Any, *paces: str) -> bool:
    """Whether the page set its timers for the words of finished tricks at ``paces``, in
    that order: the hold, then the words' end (in milliseconds, one after the other)."""
    delays = page.evaluate("window.__feel.delays")
    pairs = list(itertools.pairwise(delays))
    at = 0
    for pace in paces:
        want = (round(HOLD[pace] * 1000), round(WORDS[pace] * 1000))
        if want not in pairs[at:]:
            return False
        at += pairs[at:].index(want) + 1
    return True
PHONE_TALL = {"width": 390, "height": 844}
DESKTOP_WIDE = {"width": 1440, "height": 900}


@pytest.fixture
def computers_waited(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[int, int], float]:
    """The seconds the server's computers wait before they lead after a finished trick,
    by hand and trick (its own figures: the server runs in this process)."""
    from forties.web.pace import after_trick
    from forties.web.turns import Turns

    waited: dict[tuple[int, int], float] = {}
    real = Turns.computer_delay

    def computer_delay(self: Turns, live: Any) -> float:
        seconds = real(self, live)
        state = live.table.state
        if after_trick(live.table):
            waited[(state.hand_index, len(state.tricks))] = seconds
        return seconds

    monkeypatch.setattr(Turns, "computer_delay", computer_delay)
    return waited


def waited_for_the_words(lang: str, said: list[dict[str, Any]], k: int, pace: str,
                         waited: dict[tuple[int, int], float]) -> bool:
    """Whether the trick after the ``k``th words ``said`` began only once the words had
    been there their pace's hold: led by the player (who leads once the words are gone),
    or by a computer that waited the pace's time after a trick, which is the hold or more
    (the server's own figure: timed on the page, from the words to the next card, a
    loaded machine's late drawing of the words could shorten it)."""
    from forties.web.pace import PACES

    w = said[k]
    if w["text"] == catalog(lang)["say.you.trick"]:
        return True
    trick = sum(x["hand"] == w["hand"] for x in said[:k + 1])
    return waited.get((int(w["hand"]), trick)) == PACES[pace].trick >= HOLD[pace]


@pytest.fixture(scope="module")
def paced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with no pace of its own: its computers keep the one person's."""
    from forties.web.limits import Rates
    from forties.web.service import Limits

    limits = Limits(review_seconds=600.0, grace_seconds=600.0, par=False,
                    messages_per_second=200.0, message_burst=400.0, **Rates.lifted())
    with serving(tmp_path_factory.mktemp("paced"), limits) as url:
        yield url


def open_table(server: str, browser: Any, viewport: dict[str, int], lang: str,
               reduced: bool = False) -> Any:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, viewport, lang)
    if reduced:
        page.emulate_media(reduced_motion="reduce")
    page.add_init_script(WATCH_JS)
    page.goto(server + made["url"])
    wait_ready(page)
    return page


def words_said(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate("window.__feel.words"))


def words_up(page: Any) -> bool:
    return bool(page.evaluate("Boolean(document.getElementById('trick-words'))"))


def play_tricks(page: Any, count: int, limit: float = 40.0) -> None:
    """Play (passing, then the first card allowed) until ``count`` tricks' words have come
    and gone; the player reads the words before leading, as a person would."""
    deadline = time.monotonic() + limit
    while len(words_said(page)) < count:
        assert time.monotonic() < deadline, f"{count} tricks not seen: {where([page])}"
        if mine(page) and not words_up(page):
            act(page)
        else:
            time.sleep(0.05)


def set_pace(page: Any, pace: str) -> None:
    if page.get_attribute("#b-more", "aria-expanded") != "true":
        page.click("#b-more")
    page.click(f"#feel button[data-pace='{pace}']")
    assert page.get_attribute(f"#feel button[data-pace='{pace}']", "aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('forties.pace')") == pace


def seconds(w: dict[str, Any]) -> float:
    return (float(w["end"]) - float(w["start"])) / 1000


def on_to_the_next_trick(page: Any, w: dict[str, Any]) -> None:
    """Play on until the trick after the words ``w`` has its first card."""
    deadline = time.monotonic() + 20
    while True:  # (the player leads it, once the words are gone, if the trick was his)
        leads = [float(t) for t in page.evaluate("window.__feel.leads") if t > w["start"]]
        if leads:
            break
        assert time.monotonic() < deadline, f"no trick after the words {w}: {where([page])}"
        if mine(page) and not words_up(page):
            act(page)
        else:
            time.sleep(0.05)


def said_as(lang: str, text: str) -> bool:
    """Whether ``text`` is a trick's winner as the page says it in ``lang``."""
    words = catalog(lang)
    name = re.escape(words["say.trick"]).replace(re.escape("{name}"), ".+")
    return text == words["say.you.trick"] or re.fullmatch(name, text) is not None


def at_my_turn_after_a_trick(page: Any) -> None:
    until(page, "() => document.body.dataset.mine === 'true' && document.body.dataset.phase"
          " === 'play' && !document.getElementById('peek').hidden"
          " && !document.getElementById('trick-words')",
          "the player's turn in play after a trick, its words gone", timeout=30)


def test_cards_move_and_the_winner_is_said_for_as_long_as_the_pace_holds_it(
        paced_server: str, browser: Any,
        computers_waited: dict[tuple[int, int], float]) -> None:
    page = open_table(paced_server, browser, PHONE_TALL, "en")
    set_pace(page, "fast")
    play_tricks(page, 1)
    # the sounds are off until the player turns them on; the phone buzzed at his turns
    assert page.evaluate("window.__feel.tones") == 0
    assert not page.is_checked("#sounds")
    page.check("#sounds")
    assert page.evaluate("localStorage.getItem('forties.sounds')") == "on"
    assert page.evaluate("window.__feel.buzz").count(80) >= 1
    set_pace(page, "slow")
    play_tricks(page, 2)
    fast, slow = words_said(page)[:2]
    # the winner in words, for as long as the pace holds them (the page's timers set for
    # the fast pace's hold, then the slow one's, 3.5 times longer), and not cut short by
    # the next trick (the computers wait for it). (How long they stayed is checked from
    # below only: a loaded machine runs the page's timers late, never early; upper bounds
    # and the ratio of the two were missed by a right page under load.)
    assert said_as("en", fast["text"]) and said_as("en", slow["text"]), (fast, slow)
    assert held_for(page, "fast", "slow"), page.evaluate("window.__feel.delays")
    assert WORDS["fast"] * 0.95 <= seconds(fast), fast
    assert WORDS["slow"] * 0.95 <= seconds(slow), slow
    # the next trick began only once the words had been there the pace's hold
    on_to_the_next_trick(page, slow)
    said = words_said(page)
    assert waited_for_the_words("en", said, 0, "fast", computers_waited), \
        (said[:2], computers_waited)
    assert waited_for_the_words("en", said, 1, "slow", computers_waited), \
        (said[:2], computers_waited)
    # the cards played moved in (each of them from its seat or the hand)
    moved = page.evaluate("window.__feel.cards")
    assert len(moved) >= 8 and all(n > 0 for n in moved.values()), moved
    # and were heard: a tone on turning the sounds on, then the cards and the trick
    assert page.evaluate("window.__feel.tones") >= 6
    # the pace stays on the device: the page opened again starts at slow
    page.reload()
    wait_ready(page)
    page.click("#b-more")
    assert page.get_attribute("#feel button[data-pace='slow']", "aria-pressed") == "true"
    page.click("#b-more")

    # a tap on the trick shows the last one in place, with who took it; a tap again, back
    at_my_turn_after_a_trick(page)
    page.locator("#felt .played").first.tap()
    until(page, "() => (document.getElementById('trick-words') || {}).textContent"
          "?.startsWith('Last trick')", "the last trick in words after a tap on the trick")
    assert page.locator("#felt.peeking .played .card").count() == 4
    assert page.get_attribute("#peek", "aria-pressed") == "true"
    page.locator("#felt .played").first.tap()
    until(page, "() => !document.getElementById('trick-words')", "the last trick put away")
    assert page.get_attribute("#peek", "aria-pressed") == "false"
    assert page.errors == []  # type: ignore[attr-defined]


def test_with_reduced_motion_nothing_moves_and_the_words_stay(
        paced_server: str, browser: Any,
        computers_waited: dict[tuple[int, int], float]) -> None:
    page = open_table(paced_server, browser, DESKTOP_WIDE, "fr", reduced=True)
    play_tricks(page, 1)
    [normal] = words_said(page)[:1]
    assert said_as("fr", normal["text"]), normal
    assert held_for(page, "normal"), page.evaluate("window.__feel.delays")
    assert WORDS["normal"] * 0.95 <= seconds(normal), normal
    on_to_the_next_trick(page, normal)
    assert waited_for_the_words("fr", words_said(page), 0, "normal", computers_waited), \
        (words_said(page)[:1], computers_waited)
    feel = page.evaluate("window.__feel")
    assert len(feel["cards"]) >= 4 and feel["running"] == 0, feel  # nothing moved

    # the last trick from the keyboard: its button beside the status line
    at_my_turn_after_a_trick(page)
    page.focus("#peek")
    page.keyboard.press("Enter")
    until(page, "() => (document.getElementById('trick-words') || {}).textContent"
          "?.startsWith('Dernier pli')", "the last trick in words from the keyboard")
    assert page.locator("#felt.peeking .played .card").count() == 4
    # and read out: who took it, and its four cards by name
    said = page.text_content("#announce") or ""
    assert "Dernier pli" in said and said.count(" de ") >= 4, said
    page.keyboard.press("Enter")
    until(page, "() => !document.getElementById('trick-words')", "the last trick put away")
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.errors == []  # type: ignore[attr-defined]
