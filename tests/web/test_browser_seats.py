"""The browser client at the moments around a seat: the turn timer running out (a computer
player takes the seat, the page says so, and the tap that takes it back plays nothing);
a rematch after a game (the page moves to the new table, the same seats); the dealer
robbing the pack (the cards chosen through the page); a friend who leaves the table and
comes back, told at once."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import serving
from .pages import PHONE, TABLET, act, body, get, hand_cards, mine, new_page, post, wait_ready

# The timer's table: a turn of 10 s, and a computer that has the seat waits 10 s before it
# plays, time enough for a loaded machine to show the page's button and take the seat
# back (3 s was not always). The computer waits no longer than the turn, so that its move,
# due when the seat was taken back, comes before the next turn runs out (see the test).
TURN_SECONDS = 10
BOT_DELAY = float(TURN_SECONDS)


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose computer players take their time (the turn timer's test)."""
    from forties.web.limits import Rates
    from forties.web.service import Limits

    limits = Limits(bot_delay=BOT_DELAY, review_seconds=600.0, grace_seconds=600.0, par=False,
                    messages_per_second=200.0, message_burst=400.0, **Rates.lifted())
    with serving(tmp_path_factory.mktemp("slow"), limits) as url:
        yield url


def test_out_of_time_the_computer_takes_the_seat_and_the_tap_back_plays_nothing(
        slow_server: str, browser: Any) -> None:
    made = post(slow_server, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                             "public": False, "hints": False,
                                             "turn_seconds": TURN_SECONDS, "level": "random"})
    page = new_page(browser, PHONE)
    frames: list[Any] = []  # (what the page's websocket receives, in order)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    # this phone's clock is an hour slow: the countdown goes by the seconds left
    page.add_init_script("(() => { const real = Date.now;"
                         " Date.now = () => real() - 3600 * 1000; })()")
    page.goto(slow_server + made["url"])
    wait_ready(page)
    page.click("#start")
    page.wait_for_function("document.body?.dataset.mine === 'true'")
    # the countdown, from the seconds the server says are left
    page.wait_for_selector("#turn-timer:not([hidden])")
    assert re.fullmatch(r"0:(10|0\d)", page.text_content("#turn-timer") or "")
    version, cards = body(page, "version"), hand_cards(page)

    # out of time: a computer player has the seat, and the page says so
    page.wait_for_selector("#back", state="visible", timeout=30000)
    assert page.locator("#felt .badge.away[data-seat='0']").count() == 1
    assert "away" in (page.text_content("#announce") or "")
    page.click("#back")
    page.wait_for_selector("#back", state="detached")
    # the tap that took the seat back played nothing: the same turn, the same cards
    assert mine(page)
    assert (body(page, "version"), hand_cards(page)) == (version, cards)
    assert page.locator("#felt .badge.away").count() == 0
    page.wait_for_selector("#turn-timer:not([hidden])")  # a turn again, not the one run out
    assert re.fullmatch(r"0:(10|0[1-9])", page.text_content("#turn-timer") or "")
    # and the computer's move, due when the seat was taken back, is never played: the
    # seat's next event is its next time out (the server's own clocks put that move, due
    # BOT_DELAY after the first time out, before the next, due TURN_SECONDS after the
    # seat was taken back: an order that no load can change)
    def after_back() -> list[dict[str, Any]]:
        told = [m["event"] for m in (json.loads(f if isinstance(f, str) else f.decode())
                                     for f in frames) if m.get("type") == "event"]
        kinds = [e["kind"] for e in told]
        assert "back" in kinds, kinds
        return told[kinds.index("back") + 1:]

    deadline = time.monotonic() + 60  # (a guard: the next event is due in TURN_SECONDS)
    while not after_back():
        assert time.monotonic() < deadline, "nothing happened after the seat was taken back"
        page.wait_for_timeout(100)
    after = after_back()
    assert (after[0]["kind"], after[0].get("seat")) == ("away", 0), after
    page.wait_for_selector("#back", state="visible")
    assert not page.errors
    page.context.close()


def finish_game(page: Any, limit: float = 120.0) -> None:
    """Play through the page to the end of the game, ready after each hand."""
    deadline = time.monotonic() + limit
    while body(page, "phase") != "game-over" and not page.locator("#rematch").count():
        assert time.monotonic() < deadline, "the game did not finish"
        if mine(page):
            act(page)
        elif body(page, "phase") == "hand-over" and page.locator("#ready:enabled").count():
            page.click("#ready")
        else:
            time.sleep(0.05)


def test_a_rematch_moves_the_page_to_the_new_table_with_the_same_seats(
        server: str, browser: Any) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "name": "Ann", "options": {"target": 5}})
    page = new_page(browser, TABLET)
    page.goto(server + made["url"])
    wait_ready(page)
    old = made["table"]
    finish_game(page)
    page.wait_for_selector("#rematch", state="visible")
    page.click("#rematch")
    page.wait_for_url(re.compile(r".*/t/(?!" + re.escape(old) + r"(?:$|#))[^/#]+(?:#.*)?$"))
    wait_ready(page)
    new = page.evaluate("location.pathname").split("/")[-1]
    assert new != old and page.evaluate("location.hash") == ""
    assert body(page, "you") == "0" and body(page, "phase") == "auction"
    before, after = get(server, f"/api/tables/{old}"), get(server, f"/api/tables/{new}")
    assert [(s["name"], s["kind"]) for s in after["seats"]] == [
        (s["name"], s["kind"]) for s in before["seats"]]
    assert after["seats"][0]["name"] == "Ann" and after["status"] == "playing"
    # the seat's key for the new table is kept: a reload is still Ann's seat
    page.reload()
    wait_ready(page)
    assert body(page, "you") == "0"
    assert not page.errors
    page.context.close()


def test_the_dealer_robs_the_pack_through_the_page(server: str, browser: Any,
                                                   shots: Path) -> None:
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random",
                                      "options": {"dealer_robs_pack": True}})
    page = new_page(browser, PHONE)
    page.goto(server + made["url"])
    wait_ready(page)
    # the first hand played by the computer (the seat handed over), the second dealt by us
    page.click("#b-more")
    page.click("#b-away")
    page.wait_for_selector("#back", state="visible")
    page.wait_for_function("document.body?.dataset.phase === 'hand-over'", timeout=60000)
    page.click("#b-more")
    page.click("#back")
    page.click("#ready")
    page.wait_for_function("document.body?.dataset.hand === '1'")
    deadline = time.monotonic() + 60
    while not (body(page, "phase") == "rob-pack" and mine(page)):
        assert time.monotonic() < deadline, "the dealer was never asked to rob the pack"
        if mine(page) and body(page, "phase") == "draw":
            # discard one card or more (the pack then has at least one to take)
            version = body(page, "version")
            cards = page.locator("#hand button.card")
            k = 0
            while k == 0 or page.get_attribute("#discard", "aria-disabled") == "true":
                cards.nth(k).click()
                k += 1
            page.click("#discard")
            page.wait_for_function("v => document.body?.dataset.version !== v", arg=version)
        elif mine(page):
            act(page)
        else:
            time.sleep(0.05)

    # the robbing screen: the pack's cards beside the hand; one given for one taken
    pack = page.eval_on_selector_all("#actions button.card", "bs => bs.map(b => b.dataset.card)")
    held = hand_cards(page)
    assert pack and held and not set(pack) & set(held)
    rob = page.locator("#actions button.act[data-action*=' rob']")
    assert page.locator("#actions button.act[data-action$=' pass']").count() == 1  # or not
    assert rob.get_attribute("aria-disabled") == "true"  # nothing chosen yet
    page.click(f"#hand button.card[data-card='{held[0]}']")
    page.click(f"#actions button.card[data-card='{pack[0]}']")
    assert page.get_attribute(f"#actions button.card[data-card='{pack[0]}']",
                              "aria-pressed") == "true"
    assert rob.get_attribute("aria-disabled") is None  # one for one: it may be sent
    page.screenshot(path=str(shots / "web-rob-pack-phone.png"))
    version = body(page, "version")
    rob.click()
    page.wait_for_function("v => document.body?.dataset.version !== v", arg=version)
    now = hand_cards(page)
    assert pack[0] in now and held[0] not in now and len(now) == len(held)
    assert not page.errors
    page.context.close()


def test_a_friend_who_leaves_and_comes_back_is_told_at_once(server: str, browser: Any) -> None:
    made = post(server, "/api/tables", {"preset": "forty-one", "name": "Ann", "public": False,
                                        "hints": False, "turn_seconds": None, "level": "basic"})
    host = new_page(browser, TABLET)
    host.goto(server + made["url"])
    wait_ready(host)
    friend = new_page(browser, PHONE)
    link = server + made["invites"][0]["url"]
    friend.goto(link)
    friend.fill("#join-name", "Bob")
    friend.click("#join-go")
    wait_ready(friend)
    table = friend.evaluate("location.href")
    friend.goto("about:blank")  # the phone leaves the page
    host.wait_for_function("document.getElementById('notice').textContent"
                           " === 'Bob has left the table'")
    assert host.locator("#waiting li[data-seat='1']").count() == 1
    friend.goto(table)  # and comes back (its seat's key kept on the phone)
    wait_ready(friend)
    host.wait_for_function("document.getElementById('notice').textContent"
                           " === 'Bob is back at the table'")
    assert not host.errors and not friend.errors
    host.context.close()
    friend.context.close()
