"""A finished hand played again on the table's own page: on the felt, the seats with the
names the table showed, the trick in the middle; a step on and back, play and pause, the
last step; the hand's par from the deal once it is known, and the par from each card's
position, saying where a card changed it; on a phone and a desktop; after
a second hand, either hand of the game."""

from __future__ import annotations

from typing import Any

from .pages import PHONE, new_page, over, play_until, post, until, wait_ready

DESKTOP = {"width": 1440, "height": 900}


def step(page: Any) -> int:
    return int(page.get_attribute("#replayer", "data-step") or -1)


def test_a_finished_hand_is_played_again_on_the_felt(server: str, browser: Any) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "name": "Ann"})
    page = new_page(browser, PHONE)
    page.goto(server + made["url"])
    wait_ready(page)
    play_until([page], lambda: over(page), limit=90, bidder=True)  # (a hand played out)
    page.wait_for_selector("#review:not([hidden])")
    names = page.locator("#review .review-hands > div[data-seat] .who").all_inner_texts()
    page.click("#replay-here")
    page.wait_for_selector("#replayer[data-step='0']")
    assert page.inner_text("#rp-text") == "Hand 1: the deal"
    seats = page.locator("#replayer .replay-seat")
    assert seats.count() == 4
    shown = [seats.nth(i).locator(".who bdi").inner_text() for i in range(4)]
    assert shown == names, (shown, names)
    assert page.get_attribute("#replayer .replay-seat[data-seat='0']", "data-place") == "bottom"
    assert all(seats.nth(i).locator(".card").count() == 5 for i in range(4))
    assert page.is_disabled("#rp-prev") and page.is_enabled("#rp-next")
    assert page.is_hidden("#rp-hand")  # (one hand played: nothing to choose)
    # a step on, and back
    page.click("#rp-next")
    page.wait_for_selector("#replayer[data-step='1']")
    first = page.inner_text("#rp-text")
    assert first and first != "Hand 1: the deal"
    page.click("#rp-prev")
    page.wait_for_selector("#replayer[data-step='0']")
    # play: the steps go by themselves; pause: they stop, and one tap is one step
    page.click("#rp-play")
    assert page.get_attribute("#rp-play", "aria-pressed") == "true"
    until(page, "+document.getElementById('replayer').dataset.step >= 2",
          "the replay to go on by itself", timeout=15)
    page.click("#rp-play")
    assert page.get_attribute("#rp-play", "aria-pressed") == "false"
    at = step(page)
    page.click("#rp-next")
    assert step(page) == at + 1
    # the last step: the last trick on the felt, four cards with their players' names
    page.click("#rp-last")
    assert page.is_disabled("#rp-next")
    played = page.locator("#replayer .replay-trick .replay-played")
    assert played.count() == 4
    assert set(played.locator(".who").all_inner_texts()) <= set(names)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1], f"the page scrolls sideways at {size}: {width}"
        box = page.locator("#replayer .replay-felt").bounding_box()
        assert box and box["width"] <= size["width"], box
    # the hand's par, once the server has worked it out, at every step
    until(page, "() => { const p = document.getElementById('par');"
          " return p && !p.textContent.includes('\\u2026'); }",
          "the hand's par in the review", timeout=90)
    par = page.inner_text("#par")
    page.click("#rp-first")
    assert page.inner_text("#rp-par") == f"From the deal: {par}"
    page.click("#rp-next")
    assert page.inner_text("#rp-par") == f"From the deal: {par}"
    # the par at each card: the server's figure from that position, and the step where a
    # card changed it says so (and only there)
    steps = page.evaluate("""async () => {
        const rec = await (await fetch(location.pathname.replace('/t/', '/api/tables/')
          + '/record')).json();
        const r = await fetch('/api/replay', { method: 'POST',
          headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ record: rec }) });
        return (await r.json()).steps.map((s) => (s.par ? s.par.points : null)); }""")
    assert sum(p is not None for p in steps) >= 21, steps  # (first lead, then 20 cards)
    page.click("#rp-first")
    for i, points in enumerate(steps):
        if i:
            page.click("#rp-next")
        shown = page.inner_text("#rp-step-par")
        before = steps[i - 1] if i else None
        changed = points is not None and before is not None and points != before
        assert (f": {points} points for " in shown) if points is not None else shown == "", (
            i, shown)
        assert (f"This card changed it from {before} to {points}." in shown) == changed, (
            i, shown)
        assert page.get_attribute("#rp-step-par", "data-changed") == str(changed).lower()
    page.click("#rp-close")
    page.wait_for_selector("#replayer", state="detached")
    assert page.evaluate("document.activeElement.id") == "replay-here"
    # after a second hand: either hand of the game, chosen from the replay
    page.click("#ready")
    until(page, "document.body.dataset.hand === '1'", "the second hand")
    play_until([page], lambda: over(page), limit=90, bidder=True)
    page.click("#replay-here")
    page.wait_for_selector("#replayer[data-step='0']")
    assert page.inner_text("#rp-text") == "Hand 2: the deal"
    assert page.locator("#rp-hand option").all_inner_texts() == ["Hand 1: the deal",
                                                                 "Hand 2: the deal"]
    page.select_option("#rp-hand", "0")
    assert page.inner_text("#rp-h") == "Hand 1, played again"
    assert page.inner_text("#rp-text") == "Hand 1: the deal"
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
