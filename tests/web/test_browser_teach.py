"""Hints that teach and the game explained in place, in the browser, on a phone and on a
desktop: Play now offers hints; a hint shows the best choices with their values and one
reason naming cards in full; a discard hint marks the cards to throw on the cards
themselves; each bid says what it means where it is chosen; the score line says the
target."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .pages import (
    PHONE,
    act,
    body,
    card_words,
    catalog,
    measure_targets,
    mine,
    new_page,
    over,
    play_now,
    play_until,
    post,
    until,
    wait_ready,
)

DESKTOP = {"width": 1440, "height": 900}
FULL_NAME = re.compile(r"\b(Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace) "
                       r"of (Clubs|Diamonds|Hearts|Spades)\b")
VALUE = re.compile(r"[+\u2212]?\d+\.\d")

# what the hint shows, read in one go
HINT_JS = """() => ({
  text: document.getElementById('hint-text').textContent,
  choices: [...document.querySelectorAll('#hint-choices li')].map((li) => ({
    action: li.dataset.action, what: li.querySelector('.what').textContent,
    value: li.querySelector('.num').textContent, chosen: li.classList.contains('chosen')})),
  marked: [...document.querySelectorAll('#hand button.card')].filter((b) =>
    b.querySelector('.hint-mark')).map((b) => [b.dataset.card, b.getAttribute('aria-label'),
    b.querySelector('.hint-mark').textContent]),
})"""


def ask_hint(page: Any) -> dict[str, Any]:
    version = body(page, "version")
    page.click("#hint")
    until(page, "v => document.body.dataset.version === v"
          " && document.querySelectorAll('#hint-choices li').length >= 2",
          "a hint with at least two valued choices", arg=version, timeout=90)
    return dict(page.evaluate(HINT_JS))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_play_now_hints_teach_and_bids_explain(server: str, browser: Any,
                                              size: dict[str, int]) -> None:
    page = new_page(browser, size)
    play_now(page, server)

    # the score line says what the game is played to
    until(page, "() => /to 120/.test(document.getElementById('scoreline').textContent)",
          "the target in the score line")
    assert re.fullmatch(r"Us 0 · Them 0 · to 120", page.text_content("#scoreline"))

    play_until([page], lambda: body(page, "phase") == "auction" and mine(page))
    # each bid says what it means, beside it
    meanings = page.eval_on_selector_all(
        "#actions button.act[data-action*=' bid ']",
        "bs => bs.map(b => [b.dataset.action.split(' ')[2], b.querySelector('.meaning')"
        " ? b.querySelector('.meaning').textContent : ''])")
    assert meanings, "no bid offered"
    for _bid, meaning in meanings:
        assert meaning == "of the 30 points", meanings
    assert page.locator("#actions button.act[data-action$=' pass'] .meaning").text_content() \
        == "no bid"
    assert page.text_content("#bid-prompt") == \
        "Points of the 30 your side must take:"

    # a hint at Play now: the best choices with their values, and one reason naming cards
    # in full (the trumps the hand would hold)
    got = ask_hint(page)
    assert 2 <= len(got["choices"]) <= 3, got
    assert all(VALUE.fullmatch(c["value"]) for c in got["choices"]), got
    assert sum(c["chosen"] for c in got["choices"]) == 1, got
    assert got["text"].startswith("Hint: ") and FULL_NAME.search(got["text"]), got
    assert re.search(r"\. (With \w+ as trump, your trumps would be|The most trumps your hand)",
                     got["text"]), got
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", got["text"]), got  # no card codes
    assert not measure_targets(page)  # the bids with their meanings: 44 px targets still

    # the bidder (bid the top) throws from eight cards: the hint marks them on the cards
    play_until([page], lambda: body(page, "phase") == "draw" and mine(page), bidder=True)
    got = ask_hint(page)
    chosen = next(c for c in got["choices"] if c["chosen"])
    throw = chosen["action"].split()[2:]
    assert len(throw) >= 3, got  # eight cards down to five at least
    assert sorted(m[0] for m in got["marked"]) == sorted(throw), got
    for _card, label, mark in got["marked"]:  # (the card's own name, its marks, the hint's)
        assert mark == "Throw" and label.endswith(", hint: Throw") and re.match(
            r"(\w+|10) of (Clubs|Diamonds|Hearts|Spades)\b", label), label
    # (a choice is said by the shorter of what it throws and what it keeps)
    assert re.match(r"(Throw|Keep) ", chosen["what"]) and FULL_NAME.search(chosen["what"]), got
    assert re.search(r"\. You keep .+(; the dealer gives you [1-4] in place of the rest|"
                     r" and throw the rest, down to five)\.", got["text"]), got
    # every mark inside the page's width
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    act(page)  # (the discard the tests' player makes: the hint goes with the position)
    until(page, "() => !document.querySelector('#hand .hint-mark')"
          " && document.getElementById('hint-text').textContent === ''",
          "the hint gone with the position it was for")
    play_until([page], lambda: over(page))
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "en"), (DESKTOP, "en"), (PHONE, "ar")],
                         ids=["phone", "desktop", "phone-ar"])
def test_the_game_over_summary(server: str, browser: Any, size: dict[str, int],
                               lang: str) -> None:
    """A game to 5 (a house rule) at Play now, played to its end: the review sums the game
    up, the score hand by hand as a chart whose words give every score, each side's bids
    made and set, each hand's par beside what was taken, with Play again and New game; the
    chart runs the way the page reads (in Arabic, from the right), its scores inside it."""
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "options": {"target": 5}})
    page = new_page(browser, size, lang=lang)
    page.goto(server + made["url"])
    wait_ready(page)
    for _ in range(6):
        play_until([page], lambda: over(page), bidder=True)
        if page.evaluate("() => document.body.dataset.phase === 'game-over'"
                         " || !!document.getElementById('summary')"):
            break
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase === 'auction'")
    until(page, "() => !!document.querySelector('#summary .summary-pars li')",
          "the summary with the par of the hand", timeout=120)
    pad = page.evaluate("() => document.querySelectorAll('#pad-body tbody').length")
    got = page.evaluate("""() => ({
      lines: document.querySelectorAll('#score-chart polyline').length,
      dots: document.querySelectorAll('#score-chart circle').length,
      name: document.querySelector('#score-chart svg').getAttribute('aria-label'),
      role: document.querySelector('#score-chart svg').getAttribute('role'),
      bids: [...document.querySelectorAll('#summary .summary-bids li')].map((li) => li.textContent),
      pars: [...document.querySelectorAll('#summary .summary-pars li')].map((li) => li.textContent),
      again: document.getElementById('rematch')?.textContent,
      fresh: document.getElementById('new-game')?.getAttribute('href'),
      heading: document.querySelector('#review h2').textContent,
      wide: document.documentElement.scrollWidth,
      xs: document.querySelector('#score-chart polyline').getAttribute('points').split(' ')
        .map((p) => Number(p.split(',')[0])),
      ticks: [...document.querySelectorAll('#score-chart text')].map((e) => {
        const b = e.getBBox(); return [b.x, b.x + b.width]; })})""")
    assert got["lines"] == 2 and got["dots"] == 2 * pad, got  # (a dot a side a hand)
    # the game's start on the side the page starts from, every label inside the chart
    assert (got["xs"][0] > got["xs"][-1]) if lang == "ar" else (got["xs"][0] < got["xs"][-1]), got
    assert all(a >= 0 and b <= 320 for a, b in got["ticks"]), got
    assert got["wide"] <= size["width"], got
    assert not page.errors, page.errors
    if lang != "en":
        page.context.close()
        return
    assert got["role"] == "img" and re.fullmatch(
        r"The score after each hand: .+: -?\d+(, -?\d+)*; .+: -?\d+(, -?\d+)*", got["name"]), got
    assert len(got["bids"]) == 2 and all(
        re.fullmatch(r".+: bids made \d+, set \d+", b) for b in got["bids"]), got
    assert got["pars"] and all(re.fullmatch(r"Hand \d+ \(.+\): took \d+, par \d+", p)
                               for p in got["pars"]), got
    assert got["again"] == "Play again, same seats" and got["fresh"] == "/", got
    assert got["heading"] == "The game is over" and got["wide"] <= size["width"], got
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("size", "lang"), [(PHONE, "ar"), (DESKTOP, "fr")],
                         ids=["phone-ar", "desktop-fr"])
def test_the_first_game_teaches_each_rule_when_it_first_matters(
        server: str, browser: Any, size: dict[str, int], lang: str) -> None:
    """"Teach me the rules as we play" at Play now: the bidding explained at the first bid
    (from this table's rules: bids from 15, the dealer bagged), then, once trump is named,
    the order of trumps with the five, the jack and the ace of hearts named in full; each
    note once, and gone when dismissed."""
    words = catalog(lang)
    page = new_page(browser, size, lang)
    play_now(page, server, learn=True)
    play_until([page], lambda: body(page, "phase") == "auction" and mine(page))
    until(page, "() => document.getElementById('teach')?.dataset.topic === 'bidding'",
          "the bidding explained at the first bid")
    text = page.text_content("#teach .text")
    assert text == " ".join([words["teach.bidding"].format(min=15), words["teach.bonus_best"],
                             words["teach.bagged"].format(min=15)]), text
    assert page.get_attribute("#teach", "role") == "status"
    box = page.locator("#teach").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    assert not measure_targets(page)
    page.click("#teach button.dismiss")
    assert page.locator("#teach").is_hidden()
    # bid the top and name the first suit: the order of trumps, when it first matters
    play_until([page], lambda: body(page, "phase") not in ("auction", "trump"), bidder=True)
    until(page, "() => document.getElementById('teach')?.dataset.topic === 'trumps'",
          "the order of trumps once trump is named")
    suit = page.evaluate("() => document.querySelector('.trumpline').getAttribute('aria-label')")
    trump = next(s for s in "CDHS" if words[f"suit.{s}"] in suit)
    text = page.text_content("#teach .text")
    for card in (f"5{trump}", f"J{trump}", "AH"):
        assert card_words(lang, card) in text, (card, text)
    seen = page.evaluate("() => JSON.parse(localStorage.getItem("
                         "`forties.teach.${location.pathname.split('/')[2]}`)).seen")
    assert seen[:2] == ["bidding", "trumps"], seen
    assert page.is_checked("#teach-on")
    assert not page.errors, page.errors
    page.context.close()
