"""A card that may not be played, tapped at a French or an Arabic table: the page says why
in its own language, the cards named as it names them everywhere else, with no English;
the server's frame carries the engine's code and the seat's own cards beside its English
line (docs/web-protocol.md)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from .pages import (
    FOLLOW,
    FOLLOW_OR_TRUMP,
    PHONE,
    TRUMP,
    act,
    body,
    card_words,
    hand_cards,
    mine,
    new_page,
    over,
    post,
    refusal,
    refusal_words,
    wait_ready,
)

ARABIC = re.compile(r"[\u0600-\u06FF]")
LATIN = re.compile(r"[A-Za-z]")


def play_now(server: str, browser: Any, preset: str, lang: str) -> tuple[Any, list[Any]]:
    """A phone at a play-now table in ``lang`` (seat 0; computers in the others): the page,
    and the frames its websocket receives."""
    page = new_page(browser, PHONE, lang)
    frames: list[Any] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    sit_down(server, page, preset, lang)
    return page, frames


def sit_down(server: str, page: Any, preset: str, lang: str) -> None:
    """``page`` at a new play-now table of ``preset`` in ``lang`` (seat 0)."""
    made = post(server, "/api/play", {"preset": preset, "level": "random"})
    page.goto(f"{server}{made['url'].replace('#', f'?lang={lang}#')}")
    wait_ready(page)


def errors(frames: list[Any]) -> list[dict[str, Any]]:
    out = []
    for f in frames:
        msg = json.loads(f if isinstance(f, str) else f.decode())
        if msg.get("type") == "error":
            out.append(msg)
    return out


def refused_frame(page: Any, frames: list[Any]) -> dict[str, Any]:
    """Once the page shows a refusal: the one error frame its socket received."""
    page.wait_for_function("document.getElementById('refusal').textContent !== ''")
    for _ in range(100):
        if errors(frames):
            break
        page.wait_for_timeout(20)
    (frame,) = errors(frames)
    return frame


def my_turn(page: Any) -> bool:
    """One step of playing through the page: the next hand begun if one is over, a short
    wait if another seat is to act; whether it is this seat's turn."""
    if over(page) and page.locator("#ready:enabled").count():
        page.click("#ready")
        page.wait_for_function("!['hand-over', 'game-over'].includes("
                               "document.body.dataset.phase)")
        return False
    if not mine(page):
        time.sleep(0.05)
        return False
    return True


def tap_a_card_that_may_not_be_played(page: Any, frames: list[Any], bid: str | None,
                                      again: Callable[[], None]
                                      ) -> tuple[str, list[str], str, dict[str, Any]]:
    """Play through the page (hand after hand, and at a new table, ``again()``, when a
    game ends: a whole game may deal this seat no such card) until this seat, to play to
    a trick, holds a card it may not play; tap it. The card, the hand then, the trick,
    and the error frame."""
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if body(page, "phase") == "game-over":
            again()
            continue
        if not my_turn(page):
            continue
        wrong = page.locator("#hand button.card.unplayable")
        if body(page, "phase") == "play" and body(page, "trick") and wrong.count():
            card, hand, version = (wrong.first.get_attribute("data-card"), hand_cards(page),
                                   body(page, "version"))
            assert not errors(frames)
            # (it is marked aria-disabled, so Playwright must be told to tap it anyway)
            wrong.first.click(force=True)
            frame = refused_frame(page, frames)
            assert body(page, "version") == version and card in hand_cards(page)
            return str(card), hand, body(page, "trick"), frame
        act(page, bid=bid)
    raise AssertionError("no card that may not be played came to this seat")


def test_a_french_table_says_why_a_card_may_not_be_played(server: str, browser: Any) -> None:
    page, frames = play_now(server, browser, "forty-one", "fr")
    assert page.evaluate("document.documentElement.lang") == "fr"
    # (bidding 13 keeps the hand from being thrown in: the bids come to 11 or more)
    card, hand, trick, frame = tap_a_card_that_may_not_be_played(
        page, frames, "13", lambda: sit_down(server, page, "forty-one", "fr"))
    suit = trick.split()[0][1]
    held = [c for c in hand if c[1] == suit]
    assert card[1] != suit and held
    # the frame: the engine's code, the seat's own cards, the English line kept
    assert frame["code"] == "illegal" and frame["refusal"] == "follow"
    assert frame["params"] == {"suit": suit, "cards": frame["params"]["cards"]}
    assert sorted(frame["params"]["cards"]) == sorted(held)
    assert frame["message"].startswith("must follow ")
    # the page: French, the cards named as the page names them ("trois de pique")
    shown = refusal(page)
    assert shown == refusal_words("fr", FOLLOW, held, suit)
    assert shown.startswith("Il faut fournir à ") and " de " in shown
    assert "must" not in shown and "hold" not in shown
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", shown)  # no "3S": the page's own names
    assert not page.errors


def test_an_arabic_table_says_why_a_card_may_not_be_played(server: str, browser: Any) -> None:
    page, frames = play_now(server, browser, "nova-scotia", "ar")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar", "rtl"]
    card, hand, trick, frame = tap_a_card_that_may_not_be_played(
        page, frames, None, lambda: sit_down(server, page, "nova-scotia", "ar"))
    assert frame["code"] == "illegal"
    code, params = frame["refusal"], frame["params"]
    assert code in ("follow-or-trump", "trump"), frame
    assert params["cards"] and set(params["cards"]) <= set(hand) and card not in params["cards"]
    sentence = {"follow-or-trump": FOLLOW_OR_TRUMP, "trump": TRUMP}[code]
    if code == "follow-or-trump":
        assert params["suit"] == trick.split()[0][1]
    shown = refusal(page)
    assert shown == refusal_words("ar", sentence, params["cards"], params.get("suit", ""))
    assert ARABIC.search(shown) and not LATIN.search(shown)  # no English, no "7H"
    assert not page.errors


def test_a_french_table_says_why_a_bid_or_a_discard_is_refused(server: str,
                                                                 browser: Any) -> None:
    """A bid and a discard the engine refuses reach a French page in French: the page's
    own bid and discard are changed on their way to the server (a bid of 10, no discard
    from the bidder's eight cards), the server refuses them with their codes, the page
    says why in French with no English, and the next try goes through."""
    page = new_page(browser, PHONE, "fr")
    frames: list[Any] = []
    change: dict[str, str] = {}  # the next action of this kind ("bid", "discard") becomes...

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()

        def to_server(m: Any) -> None:
            msg = json.loads(m)
            if msg.get("type") == "act":
                seat, verb = msg["action"].split()[:2]
                if verb in change:
                    msg["action"] = f"{seat} {change.pop(verb)}"
            server_ws.send(json.dumps(msg))

        def to_page(m: Any) -> None:
            frames.append(m)
            ws.send(m)

        ws.on_message(to_server)
        server_ws.on_message(to_page)

    page.route_web_socket(re.compile(r"/ws/"), route)
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page.goto(f"{server}{made['url'].replace('#', '?lang=fr#')}")
    wait_ready(page)

    def refused(code: str) -> tuple[str, dict[str, Any]]:
        frame = refused_frame(page, frames)
        frames.clear()
        assert frame["code"] == "illegal" and frame["refusal"] == code, frame
        shown = refusal(page)
        assert not re.search(r"\b(bid|discard|hold|cards?)\b", shown), shown
        return shown, frame["params"]

    said: dict[str, str] = {}
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline and len(said) < 2:
        if not my_turn(page):
            continue
        phase, version = body(page, "phase"), body(page, "version")
        if phase == "auction" and "bid" not in said:
            change["bid"] = "bid 10"
            act(page, bidder=True)
            shown, params = refused("not-a-bid")
            assert params == {"bid": "10", "bids": ["15", "20", "25", "30"]}
            assert shown == "10 n'est pas une enchère ici. Les enchères possibles : 15, 20, 25, 30."
            assert body(page, "version") == version
            said["bid"] = shown
            act(page, bidder=True)  # the highest bid, as it is: taken
        elif phase == "draw" and "discard" not in said and len(hand_cards(page)) == 8:
            change["discard"] = "discard"
            act(page)
            shown, params = refused("discard-down")
            assert params == {"held": 8, "count": 3}
            assert shown == "Vous avez 8 cartes : écartez-en au moins 3 pour revenir à cinq."
            assert body(page, "version") == version and len(hand_cards(page)) == 8
            said["discard"] = shown
            act(page)  # the same discard, as it is: taken
        else:
            act(page, bidder=True)
    assert set(said) == {"bid", "discard"}, said
    assert not page.errors


def test_a_refused_robbing_of_the_pack_says_none_rather_than_an_empty_list(
        server: str, browser: Any) -> None:
    """A dealer robbing the pack who takes cards and gives none (or gives and takes none)
    is refused with an empty list beside the other: the page says "none" in its language
    instead of "you give  and take 3C". The error frames are put on the page's socket as
    the server sends them."""
    page = new_page(browser, PHONE, "fr")
    routes: list[Any] = []

    def route(ws: Any) -> None:
        server_ws = ws.connect_to_server()
        ws.on_message(server_ws.send)
        server_ws.on_message(ws.send)
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/"), route)
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    page.goto(f"{server}{made['url'].replace('#', '?lang=fr#')}")
    wait_ready(page)
    three, king = card_words("fr", "3C"), card_words("fr", "KD")
    for params, want in [
            ({"give": [], "take": ["3C"]}, "Prenez autant de cartes que vous en donnez : vous "
             f"n'en donnez aucune et prenez {three}."),
            ({"give": ["KD"], "take": []}, "Prenez autant de cartes que vous en donnez : vous "
             f"donnez {king} et n'en prenez aucune."),
            ({"give": ["KD"], "take": ["3C", "3C"]}, "Prenez autant de cartes que vous en "
             f"donnez : vous donnez {king} et prenez {three}, {three}.")]:
        routes[0].send(json.dumps({"type": "error", "code": "illegal", "message": "take as "
                                   "many as you give", "refusal": "pack-even", "params": params}))
        page.wait_for_function("(w) => document.getElementById('refusal').textContent"
                               ".replace(/[\\u2068\\u2069]/g, '') === w", arg=want)
        assert refusal(page) == want
    assert not page.errors


def test_a_seat_open_in_too_many_windows_says_so_in_the_pages_language(server: str,
                                                                      browser: Any) -> None:
    """The server's own refusals come in the page's words: a fifth window of one seat (four
    at once at most) is told in French to close one, not the server's English line."""
    first = new_page(browser, PHONE, "fr")
    made = post(server, "/api/play", {"preset": "merrimack-valley", "level": "random"})
    url = f"{server}{made['url'].replace('#', '?lang=fr#')}"  # (the seat's key after the #)
    first.goto(url)
    wait_ready(first)
    more = []
    for _ in range(4):
        p = new_page(browser, PHONE, "fr")
        p.goto(url)
        more.append(p)
    last = more[-1]
    last.wait_for_function("document.getElementById('refusal').textContent !== ''")
    assert refusal(last) == ("Cette place est ouverte dans trop de fenêtres : fermez-en une "
                             "et réessayez.")
    for p in [first, *more]:
        p.context.close()
