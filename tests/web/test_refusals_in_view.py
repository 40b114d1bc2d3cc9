"""A refusal where the eye is: on the table, the score pad and the hall's pages a refused
tap is answered beside the control that was tapped, inside the screen (a phone's and a
desktop's), and read out by a screen reader (a role=alert region whose text changes);
the pad refuses letters in words and a negative with the right words; the standings fit
a 360-pixel phone; the director's page puts the evening's results before the door."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import PHONE, mine, new_page, post, until, wait_ready
from .test_accessibility import LIVE_LOG, live

DESKTOP = {"width": 1440, "height": 900}
SIZES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

# Where the refusal `box` stands against the control `ctl` that caused it, and the screen:
# whether it is all inside the viewport, and the vertical gap between the two (px).
PLACE_JS = """([box, ctl]) => {
  const b = document.querySelector(box).getBoundingClientRect();
  const c = document.querySelector(ctl).getBoundingClientRect();
  return {inView: b.height > 0 && b.top >= 0 && b.bottom <= window.innerHeight
                  && b.left >= 0 && b.right <= window.innerWidth,
          gap: Math.max(0, b.top - c.bottom, c.top - b.bottom),
          box: [Math.round(b.top), Math.round(b.bottom)], ctl: [Math.round(c.top),
          Math.round(c.bottom)], height: window.innerHeight};
}"""


def beside(page: Any, box: str, control: str, near: float = 24) -> None:
    """The refusal ``box`` shows text, all inside the screen, within ``near`` px of the
    ``control`` that caused it, in a role=alert region a screen reader was given."""
    place = page.evaluate(PLACE_JS, [box, control])
    text = page.text_content(box)
    assert text and place["inView"], f"the refusal {text!r} is out of the screen: {place}"
    assert place["gap"] <= near, f"the refusal {text!r} is far from what was tapped: {place}"
    assert page.get_attribute(box, "role") == "alert"
    assert any(t == text for _, t in live(page)), f"not read out: {live(page)}"


@pytest.mark.parametrize("size", SIZES)
def test_a_refused_tap_at_the_table_is_answered_beside_it(server: str, browser: Any,
                                                          size: dict[str, int]) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page = new_page(browser, size)
    page.add_init_script(LIVE_LOG)
    page.goto(server + made["url"])
    wait_ready(page)
    until(page, "document.body.dataset.mine === 'true' && document.body.dataset.phase"
          " === 'auction' && document.querySelectorAll('#hand button.card').length === 5",
          "the player's turn to bid, with the five cards")
    assert mine(page)
    # a card tapped while the bids go round: refused, and said just above the hand
    card = page.locator("#hand button.card").last
    card.scroll_into_view_if_needed()
    card.click(force=True)
    until(page, "document.getElementById('refusal').textContent !== ''", "a refusal")
    beside(page, "#refusal", "#hand")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def pad_page(browser: Any, server: str, size: dict[str, int]) -> Any:
    page = new_page(browser, size)
    page.add_init_script(LIVE_LOG)
    page.goto(f"{server}/pad")
    page.select_option("#preset", "auction-45")
    page.click("#new button[type=submit]")
    page.wait_for_selector("#entry:not([hidden])")
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_pad_refuses_letters_and_negatives_in_words_beside_the_box(
        server: str, browser: Any, size: dict[str, int]) -> None:
    page = pad_page(browser, server, size)
    page.select_option("#bidder", label="Bob")
    page.select_option("#bid", "20")
    # letters in a points box: kept as typed, and refused in words (not counted as 0)
    page.fill("#points0", "twenty")
    page.fill("#points1", "10")
    page.click("#enter")
    until(page, "document.getElementById('error').textContent !== ''", "a refusal")
    said = str(page.text_content("#error"))
    assert said.replace("\u2068", "").replace("\u2069", "") == \
        "Ann and Cy: “twenty” is not a number"
    assert "\u2068twenty\u2069" in said  # (isolated: it reads right in an Arabic line too)
    assert page.input_value("#points0") == "twenty"
    assert page.get_attribute("#points0", "aria-invalid") == "true"
    assert page.evaluate("document.activeElement.id") == "points0"
    beside(page, "#error", "#points0")
    # a negative: said as a negative, beside the button that sent it
    page.fill("#points0", "-5")
    page.fill("#points1", "35")
    page.locator("#enter").scroll_into_view_if_needed()
    page.click("#enter")
    until(page, "document.getElementById('error').textContent.includes('-5')",
          "the refusal of a negative")
    assert page.text_content("#error") == ("Ann and Cy: -5 points? points are never below zero"
                                           " (write 0 for a side that took no trick)")
    assert page.get_attribute("#points0", "aria-invalid") is None
    beside(page, "#error", "#enter")
    page.context.close()


def director(browser: Any, server: str, size: dict[str, int], couples: int,
             begin: bool) -> Any:
    made = post(server, "/api/hall", {"games": 2, "title": "Parish night"})
    eid, key = made["evening"], made["key"]
    names = [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gus", "Hal"], ["Ida", "Jo"],
             ["Kit", "Lou"], ["Max", "Ned"], ["Oona", "Pat"]]
    for pair in names[:couples]:
        post(server, f"/api/hall/{eid}/register", {"key": key, "names": pair})
    if begin:
        post(server, f"/api/hall/{eid}/begin", {"key": key})
    page = new_page(browser, size)
    page.add_init_script(LIVE_LOG)
    page.goto(server + made["url"])
    return page


@pytest.mark.parametrize("size", SIZES)
def test_the_hall_answers_beside_the_tap_and_its_standings_fit_a_phone(
        server: str, browser: Any, size: dict[str, int]) -> None:
    page = director(browser, server, size, 8, begin=True)
    page.wait_for_selector("#tables .tablecard[data-table='4'] button")
    # tonight's work first: the tables' result buttons above the door's form
    top = page.evaluate("[document.querySelector('#tables button').getBoundingClientRect().top,"
                        " document.getElementById('register').getBoundingClientRect().top]")
    assert top[0] < top[1], f"the results come after the door's form: {top}"
    # a correction of a game not played yet: refused beside the form used
    page.locator("#fix-box summary").scroll_into_view_if_needed()
    page.click("#fix-box summary")
    page.fill("#fix-any input[name=game]", "9")
    page.fill("#fix-any input[name=table]", "1")
    page.click("#fix-any button[type=submit]")
    until(page, "document.getElementById('error').textContent !== ''", "a refusal")
    beside(page, "#error", "#fix-any")
    # the standings: the whole table inside a 360-pixel screen, or a word to swipe
    fits = page.evaluate("(() => { const s = document.querySelector('#standings-box .scroll');"
                         " return [s.scrollWidth, s.clientWidth,"
                         " document.querySelector('#standings-box .scroll-more').hidden,"
                         " document.documentElement.scrollWidth, window.innerWidth]; })()")
    assert fits[0] <= fits[1] + 1 and fits[2], f"the standings do not fit: {fits}"
    assert fits[3] <= fits[4], f"the page scrolls sideways: {fits}"
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
