"""The browser client against the real server, in Chromium: friends at one table by their
invitation links, a whole hand of Merrimack Valley and of Forty One played by tapping the
page at phone, tablet and desktop sizes; a reload in the middle of a trick; the engine's
reason for a refused card, in each page's language; French and Arabic pages; the
bidder's eight cards on a 360 px phone; touch targets; play now against the computer to
the end of a hand, its record downloaded and stepped through in the replay page."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from forties.actions import Action
from forties.record import Record, Replay, hand_summary
from forties.rules import RulesError, build_rules

from .pages import (
    BROKEN_WORDS_JS,
    DESKTOP,
    FOLLOW,
    PHONE,
    TABLET,
    act,
    body,
    get,
    hand_cards,
    measure_targets,
    mine,
    new_page,
    over,
    play_now,
    play_until,
    post,
    refusal,
    refusal_words,
    screenshot,
    wait_ready,
)

ARABIC = re.compile(r"[\u0600-\u06FF]")


def join_by_invites(browser: Any, links: list[str], viewports: list[dict[str, int]],
                    langs: list[str]) -> list[Any]:
    pages = []
    for i, (link, viewport, lang) in enumerate(zip(links, viewports, langs, strict=True)):
        page = new_page(browser, viewport, lang)
        page.goto(link)
        page.wait_for_selector("#join-name", state="visible")
        page.fill("#join-name", f"Friend {i + 1}")
        page.click("#join-go")
        wait_ready(page)
        pages.append(page)
    return pages


def test_four_friends_play_merrimack_valley(server: str, browser: Any, shots: Path) -> None:
    host = new_page(browser, PHONE)
    host.goto(server + "/")
    wait_ready(host)
    screenshot(host, shots, "home-phone", full=True)
    assert not measure_targets(host)
    host.select_option("#t-preset", "merrimack-valley")
    host.fill("#t-name", "Ann")

    # house rules from the rules' own list, each explained; a conflict in the engine's words
    host.click("#house summary")
    host.wait_for_selector("#opt-players")
    assert host.text_content("#opt-kitty-help") == (
        "Cards dealt to the kitty (with 4, two after each time round).")
    try:
        build_rules("merrimack-valley", {"go_on_top_card": True})
    except RulesError as e:
        conflict = str(e)
    else:  # pragma: no cover - the engine must refuse it
        raise AssertionError("going on the top card without going on the kitty is refused")
    host.check("#opt-go_on_top_card")
    host.wait_for_function("document.getElementById('rules-error').textContent !== ''")
    assert host.text_content("#rules-error") == conflict
    host.uncheck("#opt-go_on_top_card")
    host.wait_for_function("document.getElementById('rules-error').textContent === ''")

    host.click("#create")
    host.wait_for_selector("#created", state="visible")
    links = host.eval_on_selector_all("#invites input", "xs => xs.map(x => x.value)")
    assert len(links) == 3 and all("#invite=" in x for x in links)
    host.click("#go")
    host.wait_for_url("**/t/**")
    wait_ready(host)
    friends = join_by_invites(browser, links, [TABLET, DESKTOP, PHONE], ["en", "en", "en"])
    pages = [host, *friends]
    host.wait_for_function(
        "document.querySelectorAll('#waiting li[data-seat]').length === 4"
        " && !document.querySelector('#waiting').textContent.includes('empty')")
    host.click("#start")
    for p in pages:
        p.wait_for_function("document.body?.dataset.phase === 'auction'")
    seats = {int(body(p, "you")) for p in pages}
    assert seats == {0, 1, 2, 3}

    # chat: a quick phrase in each reader's language, free text shown as typed (never HTML)
    host.click("#b-chat")
    host.click("#phrases button[data-phrase='hearts-on-hearts']")
    host.fill("#chat-text", "<b>Good</b> & <i>luck</i>")
    host.press("#chat-text", "Enter")
    desktop = friends[1]  # the chat is open beside the table on a desktop
    desktop.wait_for_function("document.querySelectorAll('#chatlog li').length >= 2")
    lines = desktop.eval_on_selector_all("#chatlog li span", "ss => ss.map(s => s.textContent)")
    assert lines[-2:] == ["Hearts on hearts!", "<b>Good</b> & <i>luck</i>"]
    assert desktop.locator("#chatlog span b, #chatlog i").count() == 0
    host.click("#b-chat")

    # to the middle of the first trick
    play_until(pages, lambda: len(body(host, "trick").split()) == 2)
    # screen readers hear each play (the live region)
    assert host.get_attribute("#announce", "aria-live") == "polite"
    host.wait_for_function("/plays the .+ of /.test(document.getElementById('announce')"
                           ".textContent)")
    screenshot(host, shots, "table-phone")
    screenshot(friends[1], shots, "table-desktop")
    screenshot(friends[0], shots, "table-tablet")

    # a spectator sees the table and no hand
    table = host.evaluate("location.pathname")
    watcher = new_page(browser, TABLET)
    watcher.goto(server + table)
    wait_ready(watcher)
    assert body(watcher, "you") == "" and body(watcher, "trick") == body(host, "trick")
    assert watcher.locator("#hand button").count() == 0
    assert watcher.locator("#felt .badge").count() == 4
    watcher.context.close()

    # a reload comes back to exactly where it was
    page = friends[2]
    before = (hand_cards(page), body(page, "trick"), body(page, "version"))
    page.reload()
    wait_ready(page)
    page.wait_for_function("document.body?.dataset.phase === 'play'")
    assert (hand_cards(page), body(page, "trick"), body(page, "version")) == before

    # a dropped connection comes back by itself, with what was played meanwhile
    dropped = friends[0]
    dropped.evaluate("window.fortiesConnection.ws.close()")
    dropped.wait_for_function("document.body?.dataset.conn !== 'open'")
    others = [p for p in pages if p is not dropped]
    mover = next((p for p in others if mine(p)), None)
    if mover is not None:
        act(mover)
    seen = mover or host
    dropped.wait_for_function("v => document.body?.dataset.version === v",
                              arg=body(seen, "version"))
    dropped.wait_for_function("document.body?.dataset.conn === 'open'")
    assert body(dropped, "trick") == body(seen, "trick")

    # a card tapped out of turn: refused with the engine's reason in the page's words,
    # nothing played
    waiting = next(p for p in pages if not mine(p))
    version, to_act = body(waiting, "version"), body(waiting, "toAct")
    # (it is marked aria-disabled, so Playwright must be told to tap it anyway)
    waiting.locator("#hand button.card").first.click(force=True)
    waiting.wait_for_function("document.getElementById('refusal').textContent !== ''")
    # (seats named as the page names them, not by the engine's numbers from 0)
    names = {int(body(p, "you")): name for p, name in zip(
        pages, ["Ann", "Friend 1", "Friend 2", "Friend 3"], strict=True)}
    assert refusal(waiting) == f"It is {names[int(to_act)]}'s turn, not yours."
    assert body(waiting, "version") == version

    play_until(pages, lambda: over(host))
    for p in pages:
        p.wait_for_selector("#review", state="visible")
        hands = p.eval_on_selector_all(
            "#review .review-hands > div[data-seat]",
            "ds => ds.map(d => d.querySelectorAll('.card').length)")
        assert hands == [5, 5, 5, 5]
        assert not p.errors
    screenshot(host, shots, "review-phone", full=True)
    screenshot(friends[1], shots, "review-desktop")


def test_four_friends_play_forty_one_in_three_languages(server: str, browser: Any,
                                                        shots: Path) -> None:
    made = post(server, "/api/tables", {"preset": "forty-one", "name": "Ann", "public": False,
                                        "hints": False, "turn_seconds": None, "level": "basic"})
    host = new_page(browser, DESKTOP, "fr")
    host.goto(server + made["url"])
    wait_ready(host)
    links = [server + inv["url"] for inv in made["invites"]]
    friends = join_by_invites(browser, links, [PHONE, TABLET, PHONE], ["ar", "en", "en"])
    pages = [host, *friends]
    host.wait_for_selector("#start")
    host.wait_for_function(
        "document.querySelectorAll('#waiting li[data-seat] button').length === 0")
    host.click("#start")
    for p in pages:
        p.wait_for_function("document.body?.dataset.phase === 'auction'")

    # French for the host, Arabic (right to left) for the first friend
    assert host.evaluate("document.documentElement.lang") == "fr"
    assert host.text_content("#b-pad") == "Pointage"
    arabic = friends[0]
    assert arabic.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar", "rtl"]
    assert ARABIC.search(arabic.text_content("#status"))
    labels = arabic.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.ariaLabel)")
    assert len(labels) == 13 and all(ARABIC.search(x) for x in labels)

    play_until(pages, lambda: body(host, "phase") == "play", bid="3")
    screenshot(arabic, shots, "forty-one-arabic-phone")
    screenshot(host, shots, "forty-one-french-desktop")

    # a card that does not follow suit: the engine's reason in each page's language (the
    # cards named as the page names them), and nothing played
    refused = False

    def finished() -> bool:
        nonlocal refused
        if over(host):
            return True
        for p in pages:
            trick = body(p, "trick").split()
            if refused or not mine(p) or not trick:
                continue
            wrong = p.locator("#hand button.card.unplayable")
            if wrong.count():
                card = wrong.first.get_attribute("data-card")
                suit = trick[0][1]
                held = [c for c in hand_cards(p) if c[1] == suit]
                version = body(p, "version")
                wrong.first.click(force=True)
                p.wait_for_function("document.getElementById('refusal').textContent !== ''")
                lang = p.evaluate("document.documentElement.lang")
                assert refusal(p) == refusal_words(lang, FOLLOW, held, suit), card
                assert body(p, "version") == version and card in hand_cards(p)
                refused = True
        return False

    play_until(pages, finished, bid="3")
    assert refused, "no seat ever held a card it could not play"
    for p in pages:
        p.wait_for_selector("#review", state="visible")
        hands = p.eval_on_selector_all(
            "#review .review-hands > div[data-seat]",
            "ds => ds.map(d => d.querySelectorAll('.card').length)")
        assert hands == [13, 13, 13, 13]
        assert not p.errors
    screenshot(arabic, shots, "forty-one-review-arabic-phone", full=True)
    # Forty One's par, in the host's French: each partnership's tricks beside its bids
    host.wait_for_function("!document.getElementById('par').textContent.includes('…')",
                           timeout=120000)
    par = host.text_content("#par")
    # (the host's own partnership in the second person: "Vous et … feriez", "vous avez")
    # (French: "0 pli", "1 pli", "2 plis")
    tricks = r"(?:[01] pli|(?:[2-9]|1[0-3]) plis)"
    team = r".+ et .+ feraient {}" + tricks + r" \(ils ont annoncé \d+ \+ \d+\)"
    ours = r"\u2068?Vous\u2069? et .+ feriez {}" + tricks + r" \(vous avez annoncé \d+ \+ \d+\)"
    both = "(?:{0} ; {1}|{1} ; {0})"
    exact = ("À cartes ouvertes et au meilleur jeu, "
             + both.format(team.format(""), ours.format("")) + r"\.")
    about = (r"À cartes ouvertes et au meilleur jeu \(estimation de l'ordinateur\), "
             + both.format(team.format("environ "), ours.format("environ ")) + r"\.")
    # exact, unless the hand needed more search than this server allows a par
    assert re.fullmatch(exact, par or "") or re.fullmatch(about, par or ""), par


def test_play_now_to_the_end_of_a_hand_on_a_phone(server: str, browser: Any, shots: Path,
                                                  tmp_path: Path) -> None:
    page = new_page(browser, PHONE)
    play_now(page, server)
    assert page.evaluate("location.hash") == ""  # the seat's token left the address bar
    table = page.evaluate("location.pathname").split("/")[-1]
    assert not measure_targets(page)

    # bid 30 (the top): the bidder takes the kitty and holds eight cards
    play_until([page], lambda: body(page, "phase") == "draw" and mine(page), bidder=True)
    assert len(hand_cards(page)) == 8
    boxes = page.eval_on_selector_all(
        "#hand button.card", "bs => bs.map(b => { const r = b.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })")
    assert all(x0 >= 0 and y0 >= 0 and x1 <= 360 and y1 <= 640 for x0, y0, x1, y1 in boxes), boxes
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert not measure_targets(page)
    screenshot(page, shots, "bidder-eight-cards-phone")

    # the keyboard alone: the discard chosen with Space, sent with Enter
    version = body(page, "version")
    page.focus("#hand button.card >> nth=0")
    for _ in range(3):
        page.keyboard.press("Space")
        page.keyboard.press("ArrowRight")
    assert page.locator("#hand button.card[aria-pressed=true]").count() == 3
    page.focus("#discard")
    page.keyboard.press("Enter")
    page.wait_for_function("v => document.body?.dataset.version !== v", arg=version)
    assert len(hand_cards(page)) == 5

    # away: a computer player takes the seat; the tap that takes it back plays nothing
    page.click("#b-more")
    page.click("#b-away")
    page.wait_for_selector("#back", state="visible")
    page.click("#b-more")
    page.click("#back")
    page.wait_for_selector("#back", state="detached")

    play_until([page], lambda: over(page))
    page.wait_for_selector("#review", state="visible")
    assert not measure_targets(page)

    # the record of the finished hand, downloaded from the review, stepped through in the
    # replay page
    with page.expect_download() as got:
        page.click("#review a[download]")
    record = json.loads(Path(got.value.path()).read_text(encoding="utf-8"))
    assert record == get(server, f"/api/tables/{table}/record")
    assert record["format"] == "forties-record/1" and len(record["hands"]) == 1
    replay = new_page(browser, DESKTOP)
    replay.goto(server + "/replay")
    wait_ready(replay)
    path = tmp_path / f"record-{table}.json"
    path.write_text(json.dumps(record))
    replay.set_input_files("#file", str(path))
    replay.wait_for_selector("#player", state="visible")
    assert replay.text_content("#step-text") == "Hand 1: the deal"
    assert replay.eval_on_selector_all(
        "#hands > div", "ds => ds.map(d => d.querySelectorAll('.card').length)") == [5, 5, 5, 5]
    replay.click("#next")
    replay.wait_for_function("document.body?.dataset.step === '1'")
    assert re.fullmatch(r"You (pass|bid \d+)|.+ (passes|bids \d+)",
                        replay.text_content("#step-text"))
    for _ in range(12):
        replay.click("#next")
    screenshot(replay, shots, "replay-desktop")
    assert not measure_targets(replay)
    replay.click("#last")
    assert replay.text_content("#count") == f"Step {len(record['hands'][0]['actions']) + 1} of " \
        f"{len(record['hands'][0]['actions']) + 1}"
    # the same from the table's own link
    replay.goto(server + f"/replay?table={table}")
    replay.wait_for_selector("#player", state="visible")
    assert replay.text_content("#count") == f"Step 1 of {len(record['hands'][0]['actions']) + 1}"
    assert not page.errors and not replay.errors

    # the double-dummy par, once the server has worked it out (the first one of a fresh
    # install also compiles the solver: that is why it is looked at last, and given time)
    page.wait_for_function("!document.getElementById('par').textContent.includes('…')",
                           timeout=180000)
    assert re.fullmatch(r"With every card seen, .+ could take \d+ points\.",
                        page.text_content("#par"))
    screenshot(page, shots, "play-now-review-phone")


def test_home_page_in_french_and_arabic(server: str, browser: Any, shots: Path) -> None:
    page = new_page(browser, PHONE, "fr")
    page.goto(server + "/?lang=fr")
    wait_ready(page)
    assert page.text_content("#play") == "Jouer maintenant"
    page.click("#house summary")
    assert page.text_content("label[for=opt-kitty]") == "Talon"
    page.goto(server + "/?lang=ar")
    wait_ready(page)
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ar", "rtl"]
    assert page.text_content("#play") == "العب الآن"
    # right to left: the language picker sits at the left edge, the heading at the right
    heading = page.locator("h1").bounding_box()
    assert heading is not None and heading["x"] > 180
    assert not measure_targets(page)
    screenshot(page, shots, "home-arabic-phone")


def test_play_now_in_the_other_presets(server: str, browser: Any) -> None:
    """Traditional 45 (a card turned up, robbing) and Call Your Partner (five players; with
    no dealer's hold our bid of 30 wins, so the page names trump, discards and calls a
    card), each played to the end of a hand through the page."""
    page = new_page(browser, TABLET)
    seen: set[str] = set()
    for preset, options, players in (("nova-scotia", {}, 4),
                                     ("call-your-partner", {"dealer_may_hold": False}, 5)):
        made = post(server, "/api/play", {"preset": preset, "options": options,
                                          "level": "random"})
        page.goto(server + made["url"])
        wait_ready(page)
        assert page.locator("#felt .badge").count() == players

        deadline = time.monotonic() + 90
        while not over(page):
            assert time.monotonic() < deadline, "the hand did not finish"
            if mine(page):  # nothing moves while it is our turn: this is the phase acted in
                seen.add(body(page, "phase"))
                act(page, bidder=True)
            else:
                time.sleep(0.05)
        page.wait_for_selector("#review", state="visible")
        hands = page.eval_on_selector_all(
            "#review .review-hands > div[data-seat]",
            "ds => ds.map(d => d.querySelectorAll('.card').length)")
        assert hands == [5] * players, preset
    assert {"auction", "trump", "draw", "call", "play"} <= seen, seen
    assert not page.errors


PAD_CELLS_JS = """() => {
  const box = document.getElementById('pad-body');
  const table = box.querySelector('table');
  const bad = [];
  for (const c of table.querySelectorAll('th, td')) {
    const st = getComputedStyle(c);
    if (st.overflowWrap === 'anywhere' || st.overflowWrap === 'break-word'
        || st.wordBreak === 'break-all' || st.wordBreak === 'break-word' || st.hyphens === 'auto'
        || c.scrollWidth > c.clientWidth + 1) bad.push(c.textContent);
  }
  return {bad, table: table.scrollWidth, box: box.clientWidth,
          head: [...table.querySelectorAll('thead th')].map((c) => c.textContent),
          thrown: [...table.querySelectorAll('tr.thrown')].map((r) => r.textContent),
          who: [...table.querySelectorAll('td.who')].map((c) => c.textContent),
          nums: [...table.querySelectorAll('.total bdi')].map((b) =>
            [b.textContent, b.getAttribute('dir'), getComputedStyle(b).unicodeBidi])};
}"""


@pytest.mark.parametrize(("tie", "said"), [
    ("lower-partner", "Both partnerships reached 41 and their lower scores are level: a tie, "
                      "play on."),
    ("team-total", "Both partnerships reached 41 with the same total: a tie, play on.")])
def test_a_forty_one_tie_says_why_the_game_goes_on(server: str, browser: Any, tie: str,
                                                     said: str) -> None:
    """Both partnerships on the target with their partners above 0, and level by the tie
    rule: the game goes on, and the review says why (the terminal says it too). A tie is
    rare in play, so the hand's end is played for real and its scores, in the frames the
    page receives, are set to 41 each: the page reads them as it reads any scores."""
    made = post(server, "/api/play", {"preset": "forty-one", "options": {"tie": tie},
                                      "level": "random"})
    page = new_page(browser, PHONE)

    def level_scores(ws: Any) -> None:
        real = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            frame = json.loads(message)
            view = frame.get("view")
            if isinstance(view, dict) and view.get("phase") == "hand-over":
                view["scores"] = [41, 41, 41, 41]
            ws.send(json.dumps(frame))

        real.on_message(down)
        ws.on_message(lambda message: real.send(message))

    page.route_web_socket(re.compile(r".*/ws/.*"), level_scores)
    page.goto(server + made["url"])
    wait_ready(page)
    for _ in range(6):  # (a hand whose bids total under 11 is thrown in: the next one)
        play_until([page], lambda: over(page), bid="3")
        page.wait_for_selector("#review", state="visible")
        if page.locator("#result41").count():
            break
        page.click("#ready")
        page.wait_for_function("document.body?.dataset.phase === 'auction'")
    assert page.eval_on_selector_all("#review p[data-tie]",
                                     "ps => ps.map(p => p.textContent)") == [said]
    assert not page.locator("#review p[data-blocked]").count()
    assert not page.errors
    page.context.close()


def test_forty_one_pad_and_review_read_at_a_glance(server: str, browser: Any, shots: Path) -> None:
    """Forty One at a table of four: a thrown-in hand, then a played one (to 3, a house
    rule, so that someone reaches it). The score pad on a 360 px phone in English and in
    Arabic, and in the French desktop's side panel: a column a player (no Bid column), no
    word broken inside (no cell may break a word, none overflows, nor does the table), each
    total a number kept left to right, and the thrown-in hand one line saying so with no
    "took 0". The review of the thrown-in hand waits for no par; the played hand's review
    gives each seat's result and the hands as dealt sorted by suit; the end of the hand says
    who plays on, or the game's end the rule that ended it."""
    made = post(server, "/api/tables", {"preset": "forty-one", "name": "Ann", "public": False,
                                        "hints": False, "turn_seconds": None, "level": "basic",
                                        "options": {"target": 3}})
    host = new_page(browser, PHONE, "en")
    host.goto(server + made["url"])
    wait_ready(host)
    links = [server + inv["url"] for inv in made["invites"]]
    arabic, french, other = join_by_invites(browser, links, [PHONE, DESKTOP, PHONE],
                                            ["ar", "fr", "en"])
    pages = [host, arabic, french, other]
    host.wait_for_selector("#start")
    host.wait_for_function(
        "document.querySelectorAll('#waiting li[data-seat] button').length === 0")
    host.click("#start")

    # hand 1: everyone bids 1, the bids total 4: thrown in, no par to wait for
    play_until(pages, lambda: over(host), bid="1")
    for p in pages:
        p.wait_for_selector("#review", state="visible")
    assert host.text_content("#par") == "No cards were played this hand."
    assert french.text_content("#par") == "Aucune carte n'a été jouée à cette donne."
    assert not host.locator("#result41").count()
    for p in pages:
        p.click("#ready")

    # hand 2: everyone bids 3 (12 in all): played to its end
    host.wait_for_function("document.body?.dataset.phase === 'auction'")
    play_until(pages, lambda: over(host), bid="3")
    host.wait_for_selector("#result41")
    seats = host.eval_on_selector_all("#result41 > span", "ss => ss.map(s => s.textContent)")
    assert len(seats) == 4
    for s in seats:
        m = re.fullmatch(r"(You|Friend \d) bid 3, took (\d+): ([+-]3)", s)
        assert m, seats
        assert (int(m[2]) >= 3) == (m[3] == "+3"), s
    dealt = host.eval_on_selector_all(  # the hands as dealt, as the table holds them
        "#review .review-hands > div[data-seat]",
        "ds => ds.map(d => [...d.querySelectorAll('.card')].map(c => c.dataset.card))")
    assert len(dealt) == 4 and all(len(cards) == 13 and cards == sorted(cards, key=lambda c: (
        "CDHS".index(c[-1]), "23456789TJQKA".index(c[0]))) for cards in dealt), dealt
    ar_points = arabic.eval_on_selector_all(
        "#result41 bdi", "bs => bs.map(b => [b.textContent, b.getAttribute('dir')])")
    assert sorted(d for _, d in ar_points) == ["ltr"] * 4 and all(
        x in ("+3", "-3") for x, _ in ar_points), ar_points
    # the scores after the hand (the first was thrown in): who won, who plays on and why
    score = dict(host.eval_on_selector_all(
        "#result41 > span", "ss => ss.map(s => [+s.dataset.seat, +s.textContent.slice(-2)])"))
    assert sorted(score) == [0, 1, 2, 3] and set(score.values()) <= {3, -3}, score
    qualify = [t for t in ((0, 2), (1, 3)) if any(score[p] == 3 and score[q] > 0
                                                for p, q in (t, t[::-1]))]
    if len(qualify) == 1:  # one partnership has 3 with a partner above 0: it wins
        host.wait_for_function("document.body?.dataset.phase === 'game-over'")
        status = host.text_content("#status") or ""
        assert re.fullmatch(r".+ and .+ win the game: 3 with a partner above 0", status), status
    else:
        assert body(host, "phase") == "hand-over"
        blocked = host.eval_on_selector_all("#review p[data-blocked]",
                                            "ps => ps.map(p => p.textContent)")
        tie = host.eval_on_selector_all("#review p[data-tie]", "ps => ps.map(p => p.textContent)")
        if qualify:  # both have won, and are level (3 and 3 each): a tie plays on
            assert tie == ["Both partnerships reached 3 and their lower scores are level: a "
                           "tie, play on."] and not blocked, (tie, blocked)
        else:  # someone reached 3 (13 tricks for 12 bid), so his partner went down
            assert not tie and len(blocked) == sum(
                score[p] == 3 and score[(p + 2) % 4] < 0 for p in range(4)) and all(
                re.fullmatch(r"(You have 3 but your partner|Friend \d has 3 but the partner) is "
                             r"not above 0: play on\.", b) for b in blocked), (blocked, score)

    heads = {"en": ["Hand", "Player", "This hand", "Total"],
             "fr": ["Donne", "Joueur", "Cette donne", "Total"],
             "ar": ["الجولة", "اللاعب", "هذه الجولة", "المجموع"]}
    for p, lang in ((host, "en"), (arabic, "ar"), (french, "fr")):
        if not p.locator("#pad").is_visible():  # (the desktop's side panel may show it)
            p.click("#b-pad")
        p.wait_for_selector("#pad-body table.pad41")
        got = p.evaluate(PAD_CELLS_JS)
        assert not got["bad"], (lang, got["bad"])
        assert got["table"] <= got["box"], (lang, got)
        assert got["head"] == heads[lang], got["head"]  # no Bid column, no empty Note
        assert got["thrown"] == [{"en": "1bids total 4, under 11: thrown in",
                                  "fr": "1les annonces font 4, moins de 11 : donne annulée",
                                  "ar": "1مجموع الطلبات 4، أقل من 11: يُلغى الدور"}[lang]], got
        assert got["who"] == ["You", "Friend 1", "Friend 2", "Friend 3"] or lang != "en", got
        assert len(got["nums"]) == 4 and all(
            d == "ltr" and b == "isolate" and re.fullmatch(r"[+-]?\d+", x)
            for x, d, b in got["nums"]), got["nums"]
        assert not p.errors
        # the longest names a table gives its players still fit, each word whole
        longest = {"en": "Computer 4", "fr": "Ordinateur 4", "ar": "الحاسوب 4"}[lang]
        p.eval_on_selector_all("#pad-body td.who",
                               "(cs, n) => cs.forEach(c => { c.textContent = n; })", longest)
        again = p.evaluate(PAD_CELLS_JS)
        assert not again["bad"] and again["table"] <= again["box"], (lang, again)
    screenshot(host, shots, "forty-one-pad-phone", full=True)
    screenshot(arabic, shots, "forty-one-pad-arabic-phone", full=True)
    screenshot(french, shots, "forty-one-pad-french-desktop")


LAPTOP = {"width": 1280, "height": 800}
# every word of the pad's cells on one line (BROKEN_WORDS_JS), no cell overflowing
PAD_WORDS_JS = """() => {
  """ + BROKEN_WORDS_JS + """
  const box = document.getElementById('pad-body');
  const table = box.querySelector('table');
  const broken = brokenWords(table), overflow = [];
  for (const c of table.querySelectorAll('th, td')) {
    if (c.scrollWidth > c.clientWidth + 1) overflow.push(c.textContent);
  }
  const st = getComputedStyle(box);
  return {broken, overflow, rows: table.querySelectorAll('tbody tr').length,
          head: [...table.querySelectorAll('thead th')].map((c) => c.textContent),
          page: document.documentElement.scrollWidth, view: window.innerWidth,
          table: table.getBoundingClientRect().width, box: box.clientWidth,
          scrolls: st.overflowX === 'auto' || st.overflowX === 'scroll'};
}"""


PAD_HANDS_JS = """() => [...document.querySelectorAll('#pad-body tbody[data-hand]')].map((g) => ({
  hand: Number(g.dataset.hand), number: g.querySelector('th[scope=rowgroup]').textContent,
  bid: g.querySelector('tr.bidline td').textContent,
  sides: [...g.querySelectorAll('tr[data-side]')].map((r) => ({
    side: Number(r.dataset.side), who: r.querySelector('th[scope=row]').textContent,
    points: r.querySelector('td.points').textContent,
    total: r.querySelector('td.total').textContent,
    dirs: [...r.querySelectorAll('bdi')].map((b) => b.getAttribute('dir'))}))}))"""

PAD_FITS_JS = """() => {
  const box = document.getElementById('pad-body');
  return {scroll: box.scrollWidth, client: box.clientWidth};
}"""


def the_games_hands(server: str, table: str) -> list[dict[str, Any]]:
    """Each finished hand of ``table`` as the engine scores it, replayed from its record:
    the bid, the trump, made or set, each side's points and score after the hand."""
    rep = Replay(Record.from_json(get(server, f"/api/tables/{table}/record")))
    hands = []
    for h, st in rep.states():
        for text in rep.record.hands[h].actions:
            st.apply(Action.parse(text))
        out = hand_summary(st)
        out["made"] = st.made() if out["bidder"] is not None else None  # type: ignore[attr-defined]
        if out["made"] is not None:  # (what the bidding side took: bidder and partner)
            out["took"] = sum(out["points"][x] for x in st.bidding_sides())  # type: ignore[attr-defined]
        out["change"] = [a - b for a, b in zip(st.scores, st.start_scores, strict=True)]
        hands.append(out)
    return hands


@pytest.mark.parametrize(("preset", "options"), [
    ("merrimack-valley", {}), ("auction-45", {"players": 6, "teams": "two-threes"}),
    ("auction-45", {"players": 3}), ("call-your-partner", {})],
    ids=["mv", "a45-6", "a45-3", "cyp"])
def test_the_45s_pad_fits_a_phone_with_every_number(server: str, browser: Any, shots: Path,
                                                    preset: str,
                                                    options: dict[str, Any]) -> None:
    """The Forty-Fives score pad after two hands played out, at a table of four (Merrimack
    Valley, two teams), of six (Auction 45, two teams of three), of three and of five each
    for himself (Auction 45, Call Your Partner). On a 360 px phone in English, French and
    Arabic: no word of a heading or a cell split across two lines (each word's letters
    measured where they stand), no cell overflowing, and the pad needs no sideways scroll
    (its scrollWidth within its clientWidth), nor does the page; each hand holds every
    number the engine's replay of the record gives it: the bid, the trump, made or set,
    the points the bidding side took, each side's Points (what the hand did to its score,
    signed: the difference of its totals, the first hand's its total; a set bidder's
    "-20", not the 15 he took; a called partner's the bid he made with the bidder) and
    its score after the hand (numbers kept left to right in Arabic). At the table of
    three the player bids as high as he may until a bidder has been set. Still so with
    the longest names a table gives its sides ("Computer 2 & Computer 4 & Computer 6",
    long French names). On the laptop and the desktop the same pad fits its panel, word
    for word."""
    long_fr = "Jean-Baptiste Arsenault-Thériault & Marie-Madeleine Chiasson-Doucet"
    words = {lang: get(server, f"/i18n/{lang}.json")["messages"] for lang in ("en", "fr", "ar")}
    made = post(server, "/api/play", {"preset": preset, "options": options,
                                      "level": "random"})
    table = made["table"]
    player = new_page(browser, PHONE)
    player.goto(server + made["url"])
    wait_ready(player)
    want_set = options == {"players": 3}  # (a bid of 30 for 60 played at random)
    for k in range(6 if want_set else 2):
        if k:
            hand = body(player, "hand")
            player.click("#ready")
            player.wait_for_function("h => document.body?.dataset.hand !== h", arg=hand)
        play_until([player], lambda p=player: over(p), bidder=want_set)
        if body(player, "phase") == "game-over":
            break
        if k and (not want_set or any(x["made"] is False
                                      for x in the_games_hands(server, table))):
            break
    hands = the_games_hands(server, table)
    assert not want_set or any(x["made"] is False for x in hands), hands
    rules = build_rules(preset, options)
    sides, players = len(rules.sides), rules.players  # type: ignore[attr-defined]
    for viewport, lang in ((PHONE, "en"), (PHONE, "fr"), (PHONE, "ar"),
                           (LAPTOP, "en"), (LAPTOP, "fr"), (LAPTOP, "ar"), (DESKTOP, "ar")):
        p = new_page(browser, viewport, lang)
        p.goto(f"{server}/t/{table}#watch")
        wait_ready(p)
        if not p.locator("#pad").is_visible():  # (the desktop's side panel may show it)
            p.click("#b-pad")
        p.wait_for_selector("#pad-body table.pad tbody tr")  # (all hands come at once)
        where = (preset, players, viewport["width"], lang)
        got = p.evaluate(PAD_WORDS_JS)
        fit = p.evaluate(PAD_FITS_JS)
        assert got["rows"] >= 1 and not got["broken"] and not got["overflow"], (where, got)
        assert got["page"] <= got["view"], (where, got)
        assert fit["scroll"] <= fit["client"], (where, fit, got)
        # every hand, every number the engine gives it
        w = words[lang]
        # read as a table: the four column headings, each side's name the heading of its row
        heads = ["pad.hand", "pad.side" if sides < players else "pad.player41", "pad.points",
                 "pad.total41"]
        pad_body = p.locator("#pad-body")
        assert pad_body.get_by_role("columnheader").all_text_contents() == [w[x] for x in heads]
        names = p.locator("#pad-body tr[data-side] th").all_text_contents()
        rowheads = pad_body.get_by_role("rowheader").all_text_contents()
        assert names and set(names) <= set(rowheads), (where, names, rowheads)
        pad = p.evaluate(PAD_HANDS_JS)
        assert [x["hand"] for x in pad] == list(range(len(hands))), (where, pad)
        before = [0] * sides
        for line, game in zip(pad, hands, strict=True):
            assert line["number"] == str(line["hand"] + 1)
            if game["bidder"] is not None:
                note = w["pad.note.made" if game["made"] else "pad.note.set"]
                bid = w.get(f"bid.{game['bid']}", game["bid"])  # ("30 for 60" in words)
                assert bid in line["bid"] and note in line["bid"], (where, line)
                took = w["pad.bid_result_took"].split("{bid}")[1].format(
                    note=note, took=game["took"])  # (": set, took 15")
                assert line["bid"].endswith(took), (where, line, game)
            if game["trump"]:
                assert w[f"suit.{game['trump']}"] in line["bid"], (where, line)
            assert [s["side"] for s in line["sides"]] == list(range(sides)), (where, line)
            assert [s["total"] for s in line["sides"]] == [str(x) for x in game["scores"]], \
                (where, line, game)
            totals = [int(s["total"]) for s in line["sides"]]
            change = [t - b for t, b in zip(totals, before, strict=True)]
            assert [s["points"] for s in line["sides"]] == [
                f"{c:+d}" if c else "0" for c in change], (where, line, game)
            assert [int(s["points"]) for s in line["sides"]] == game["change"], (where, line)
            before = totals
            assert all(s["who"] and s["dirs"] == ["ltr", "ltr"] for s in line["sides"]), line
        if viewport is PHONE and lang != "en":
            screenshot(p, shots, f"45s-pad-{preset}-{players}-{lang}-phone", full=True)
        # the longest names and words a table may give its sides still read whole
        longest = {"en": "Computer 2 & Computer 4 & Computer 6",
                   "fr": long_fr, "ar": "الحاسوب 2 و الحاسوب 4 و الحاسوب 6"}[lang]
        p.eval_on_selector_all("#pad-body tr[data-side] th",
                               "(cs, n) => cs.forEach((c) => { c.textContent = n; })", longest)
        again = p.evaluate(PAD_WORDS_JS)
        fit = p.evaluate(PAD_FITS_JS)
        assert not again["broken"] and not again["overflow"], (where, again)
        assert again["page"] <= again["view"], (where, again)
        assert fit["scroll"] <= fit["client"], (where, fit, again)
        assert not p.errors
        p.context.close()
    player.context.close()
