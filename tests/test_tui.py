"""The full-screen table (``forties play``), driven by Textual's Pilot: a whole game
entered by keys and mouse, a resume after a crash, illegal choices explained, undo,
hint, help, the end-of-hand review and the replay viewer."""

from __future__ import annotations

import asyncio
import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import RichLog, Static

from forties import Action, Deal, Record, Verb, build_rules, referee
from forties.cards import card_name, parse_card
from forties.players import make_bot
from forties.tui.app import TableApp, bid_digits
from forties.tui.replay import ReplayApp
from forties.tui.screens import (
    CallScreen,
    ConfirmScreen,
    HelpScreen,
    LastTrickScreen,
    ReviewScreen,
)
from forties.tui.session import Session, write_atomic

SIZE = (80, 24)


def text_of(app: Any, selector: str) -> str:
    """The plain text a Static shows."""
    return str(app.screen.query_one(selector, Static).render())


def card_keys(card: str) -> tuple[str, str]:
    """The two keys that name a card: rank then suit (t for ten)."""
    return card[0].lower(), card[1].lower()


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the app has done everything the last input asked (hints included)."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def enter(pilot: Pilot[Any], app: TableApp, action: Action, mouse: bool) -> None:
    """Make ``action`` the way a person would: card keys or clicks for cards, a bid's
    amount (or p to pass) in the auction, a number and Enter or a click for the other
    choices."""
    v = app.session.view()
    phase = v["phase"]
    words = str(action).split()
    own = person_actions(app)
    if action.verb is Verb.PLAY or (action.verb is Verb.ROB and phase == "rob"):
        card = words[-1]
        if mouse:
            await pilot.click(f"#slot-{app.shown.index(card)}")
        else:
            await pilot.press(*card_keys(card))
    elif action.verb is Verb.DISCARD and phase == "draw":
        for card in words[2:]:
            if mouse:
                await pilot.click(f"#slot-{app.shown.index(card)}")
            else:
                await pilot.press(*card_keys(card))
        if mouse:
            await pilot.click("#choice-0")
        else:
            await pilot.press("enter")
    elif action.verb is Verb.CALL and action.arg:
        index = next(i for i, ch in enumerate(app.choices) if ch.kind == "call")
        await pilot.click(f"#choice-{index}")
        await settle(pilot)
        assert isinstance(app.screen, CallScreen)
        await pilot.click(f"#pick-{words[-1]}")
    else:
        index = next(i for i, ch in enumerate(app.choices) if ch.action == action)
        if mouse or (phase == "auction" and action.verb is Verb.HOLD):
            await pilot.click(f"#choice-{index}")
        elif phase == "auction" and action.verb is Verb.BID:
            # Its amount, and Enter where the digits could begin another bid too (Forty
            # One's 1 Enter): an Enter after digits that made the bid alone is swallowed
            # only within a moment, and a loaded machine may take longer to send it.
            digits = bid_digits(action.arg)
            alone = [a for a in app.amounts() if a.startswith(digits)] == [digits]
            await pilot.press(*digits, *(() if alone else ("enter",)))
        elif phase == "auction" and action.verb is Verb.PASS:
            await pilot.press("p")
        else:
            await pilot.press("0" if index == 9 else str(index + 1), "enter")
    await until_made(pilot, app, own)


def person_actions(app: TableApp) -> int:
    """How many actions the person has made in the game so far."""
    s = app.session
    return sum(Action.parse(a).seat == s.human for h in s.record.hands for a in h.actions)


async def until_made(pilot: Pilot[Any], app: TableApp, before: int, within: float = 10.0) -> None:
    """Wait until the person's action is in the record, or a screen over the table asks
    him more: settle's idleness is a guess (a busy thread or a loaded machine fools it),
    and the test must not read the table before the keys have moved it."""
    await settle(pilot)
    end = asyncio.get_running_loop().time() + within
    while person_actions(app) == before and app.at_table() and \
            asyncio.get_running_loop().time() < end:
        await pilot.pause(0.05)


async def play_to_end(pilot: Pilot[Any], app: TableApp, chosen: list[str],
                      max_steps: int = 2000) -> None:
    """Play the person's seat with the basic player's choices, alternating keyboard
    and mouse, through every end-of-hand review, until the game is over."""
    bot = make_bot("basic", random.Random(0))
    for step in range(max_steps):
        s = app.session
        if isinstance(app.screen, ReviewScreen):
            if s.state.over:
                return
            await pilot.press("enter")
            await settle(pilot)
            continue
        assert s.my_turn, f"waiting for nothing at step {step} ({s.state.phase})"
        action = bot.choose(s.view(), s.legal())
        chosen.append(str(action))
        before = len(s.record.hands[-1].actions) + len(s.record.hands)
        await enter(pilot, app, action, mouse=step % 2 == 1)
        after = len(app.session.record.hands[-1].actions) + len(app.session.record.hands)
        assert after > before, f"{action} was not made: {text_of(app, '#message')}"
    raise AssertionError("the game did not end")


def human_actions(record: Record, seat: int) -> list[str]:
    return [a for h in record.hands for a in h.actions if Action.parse(a).seat == seat]


@pytest.mark.asyncio
async def test_complete_game_by_keys_and_mouse(tmp_path: Path) -> None:
    """A whole game of Merrimack Valley (to 45, to keep it short) played through the
    table: every choice entered by keys or clicks lands in the record as intended, the
    record on disk is a finished legal game, and the last review names the winner."""
    save = tmp_path / "game.json"
    rules = build_rules("merrimack-valley", {"target": 45})
    session = Session.start(rules, seed=11, save_path=save)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    chosen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_to_end(pilot, app, chosen)
        review = text_of(app, "#review-text")
        await pilot.press("q")
        await settle(pilot)
    record = Record.loads(save.read_text())
    assert human_actions(record, 0) == chosen
    verdict, status = referee(record)
    assert status == 0 and verdict["over"] is True
    # Game to 45: the winning side reached 45 (rules.md section 2, target).
    winner = verdict["winner"]
    assert verdict["scores"][winner] >= 45
    names = " & ".join(record.players[s] for s in verdict["sides"][winner])
    assert f"Game over: {names} win" in review


@pytest.mark.asyncio
async def test_resume_after_a_crash(tmp_path: Path) -> None:
    """The record is written after every action: a copy taken mid-game (what a crash
    leaves) resumes at the same point, the same cards in hand, and plays on to the end."""
    save = tmp_path / "game.json"
    session = Session.start(build_rules("nova-scotia", {"target": 30}), seed=4, save_path=save)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    crash = tmp_path / "crashed.json"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bot = make_bot("basic", random.Random(0))
        for _ in range(4):
            while isinstance(app.screen, ReviewScreen):
                await pilot.press("enter")
                await settle(pilot)
            s = app.session
            await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
        shutil.copy(save, crash)  # the process dies here: this file is all that is left
        hand_then = sorted(app.session.view()["hand"])
        actions_then = [list(h.actions) for h in app.session.record.hands]
    assert not list(tmp_path.glob(".*.tmp")), "no temporary file is left behind"

    resumed = Session.resume(crash)
    assert [list(h.actions) for h in resumed.record.hands] == actions_then
    assert sorted(resumed.view()["hand"]) == hand_then
    app2 = TableApp(resumed, delay=0, resumed=True, par=False, autoplay=False)
    chosen: list[str] = []
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        log = app2.query_one("#log", RichLog)
        assert "Resumed" in "".join(str(line.text) for line in log.lines)
        shown = sorted(app2.shown)
        assert shown == sorted(app2.session.view()["hand"])
        await play_to_end(pilot, app2, chosen)
    verdict, status = referee(Record.loads(crash.read_text()))
    assert status == 0 and verdict["over"] is True


def trump_lead_deal() -> Deal:
    """Seat 0 holds only hearts; seat 1 (the person) holds 4H and four clubs; 2H is
    turned up (hearts trump) and AH lies in the stock, so nobody may rob."""
    hands = [["5H", "JH", "KH", "QH", "TH"], ["4H", "2C", "3C", "6C", "7C"],
             ["AS", "KS", "QS", "JS", "TS"], ["AD", "KD", "QD", "JD", "TD"]]
    used = {c for h in hands for c in h}
    rest = ["2H", "AH"] + [card_name(c) for c in range(52)
                           if card_name(c) not in used | {"2H", "AH"}]
    return Deal.from_json({"hands": hands, "kitty": [], "stock": rest})


@pytest.mark.asyncio
async def test_illegal_play_is_explained_then_undone(tmp_path: Path) -> None:
    """Traditional 45, hearts trump, seat 0 leads a heart: seat 1 holds 4H, a plain trump
    with no privilege, so it must follow (rules.md section 2, following) and a club is
    refused with the reason; the hint can only suggest 4H; undo takes the play back."""
    session = Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                            deal=trump_lead_deal(), seed=1, save_path=tmp_path / "g.json")
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        st = app.session.state
        assert st.turn == 1 and len(st.history) == 1  # seat 0 (left of dealer 3) led
        await pilot.press("2", "c")
        await settle(pilot)
        assert "You can't play 2♣: must play a trump: you hold 4♥" in text_of(app, "#message")
        await pilot.click(f"#slot-{app.shown.index('7C')}")
        await settle(pilot)
        assert "You can't play 7♣: must play a trump" in text_of(app, "#message")
        assert len(app.session.state.history) == 1
        await pilot.press("h")
        await settle(pilot)
        assert "play 4♥" in text_of(app, "#message")
        await pilot.press("4", "h")
        await settle(pilot)
        assert "1 play 4H" in [str(a) for a in app.session.state.history]
        await pilot.press("u")
        await settle(pilot)
        back = app.session.state
        assert [str(a) for a in back.history] == [str(st.history[0])]
        assert back.turn == 1 and "4H" in app.session.view()["hand"]


@pytest.mark.asyncio
async def test_forty_one_hand_fits_80_by_24() -> None:
    """Thirteen cards, the choices 1 to 13, the message and the footer all lie inside
    an 80 x 24 terminal."""
    session = Session.start(build_rules("forty-one"), seed=3)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session.my_turn and app.session.view()["phase"] == "auction"
        for selector in ("#slot-12", "#choice-12", "#message", "#scores", "#cell-0-1"):
            region = app.query_one(selector).region
            assert region.right <= 80 and region.bottom <= 24, selector
            assert region.width > 0, selector
        assert len(app.choices) == 13  # bids of 1 to 13 tricks (rules.md section 6)


def own_actions(app: TableApp) -> list[str]:
    """What the person (seat 0) has done in the current hand."""
    return [a for a in app.session.record.hands[-1].actions if a.startswith("0 ")]


@pytest.mark.asyncio
@pytest.mark.parametrize("preset, keys, made", [
    ("merrimack-valley", ("2", "5", "enter"), "0 bid 25"),  # the digits complete 25
    ("merrimack-valley", ("2", "0", "enter"), "0 bid 20"),
    ("merrimack-valley", ("1", "5"), "0 bid 15"),
    ("forty-one", ("1", "2", "enter"), "0 bid 12"),
    ("forty-one", ("1", "enter"), "0 bid 1"),  # 1 could begin 10 to 13: Enter bids 1
    ("forty-one", ("1", "0", "enter"), "0 bid 10"),
    ("forty-one", ("7",), "0 bid 7"),
    ("auction-45", ("2", "0", "enter"), "0 bid 20"),
])
async def test_a_bid_is_typed_by_its_amount(tmp_path: Path, preset: str,
                                            keys: tuple[str, ...], made: str) -> None:
    """In the auction the digits typed are the bid: "2 5 Enter" bids 25 (not the
    choice numbered 2 or 5), and Forty One's "1 2" bids 12; the Enter after digits that
    made the bid by themselves does nothing more. The row shows no choice numbers."""
    session = Session.start(build_rules(preset), seed=11, save_path=tmp_path / "g.json")
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.session.view()["phase"] == "auction" and app.session.my_turn
        labels = [str(app.query_one(f"#choice-{i}").render()) for i in range(3)]
        assert labels[1:] in (["15", "20"], ["2", "3"], ["20", "25"]), labels
        assert "Type your bid" in text_of(app, "#message")
        await pilot.press(*keys)
        await settle(pilot)
        assert own_actions(app)[:1] == [made]
        assert len(own_actions(app)) <= 1 or app.session.view()["phase"] != "trump"


@pytest.mark.asyncio
@pytest.mark.parametrize("preset, keys, said", [
    ("merrimack-valley", ("3", "5"), "35 is not a bid: the bids are 15, 20, 25, 30."),
    ("merrimack-valley", ("2", "enter"), "2 is not a bid: the bids are 15, 20, 25, 30."),
    ("merrimack-valley", ("9",), "9 is not a bid: the bids are 15, 20, 25, 30."),
    ("forty-one", ("0",), "0 is not a bid: the bids are 1 to 13."),
    ("forty-one", ("1", "4"), "14 is not a bid: the bids are 1 to 13."),
])
async def test_a_typed_amount_that_is_no_bid_is_refused(tmp_path: Path, preset: str,
                                                        keys: tuple[str, ...],
                                                        said: str) -> None:
    """Digits that make no bid are answered with the bids there are, and nothing is bid
    in their place; Esc clears digits half typed."""
    session = Session.start(build_rules(preset), seed=11, save_path=tmp_path / "g.json")
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*keys)
        await settle(pilot)
        assert said in text_of(app, "#message")
        assert own_actions(app) == []
        last = "2" if preset == "forty-one" else "5"
        await pilot.press("1", "escape", "1", last, "enter")  # the first 1 is cleared
        await settle(pilot)
        assert own_actions(app)[:1] == ["0 bid 12" if preset == "forty-one" else "0 bid 15"]


@pytest.mark.asyncio
async def test_thirty_for_sixty_is_typed_3060(tmp_path: Path) -> None:
    """Where 30 for 60 may be bid, "3 0 Enter" bids 30 and "3 0 6 0" bids 30 for 60."""
    rules = build_rules("merrimack-valley", {"bid_30_for_60": "true"})
    for keys, made in ((("3", "0", "enter"), "0 bid 30"),
                       (("3", "0", "6", "0"), "0 bid 30for60")):
        session = Session.start(rules, seed=11, save_path=tmp_path / "g.json")
        app = TableApp(session, delay=0, par=False, autoplay=False)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press(*keys)
            await settle(pilot)
            assert own_actions(app)[:1] == [made]


@pytest.mark.asyncio
async def test_the_enter_after_a_bid_is_not_lost_to_slow_computers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With no delay the computers answer a bid at once, before the next key is read:
    however long they think, the Enter of "1 5 Enter" is still the bid's, and is not taken
    as the choice of the moment after (keeping all cards in the draw, here). (The Enter's
    moment is 5 s here, not 1: the test's Enter must come within it of the computers'
    answer, and a loaded machine can hold the test back a second between two keys.)"""
    import time

    import forties.table

    monkeypatch.setattr(TableApp, "ENTER_AFTER_DIGITS", 5.0)
    fast_choice = forties.table.computer_choice
    slept: list[float] = []

    def slow_choice(level: str, key: str, view: dict[str, Any], legal: Any,
                    seats: Any = None) -> Action:
        if not slept:  # longer than the Enter's moment, once
            slept.append(TableApp.ENTER_AFTER_DIGITS + 0.5)
            time.sleep(slept[0])
        return fast_choice(level, key, view, legal, seats)

    monkeypatch.setattr(forties.table, "computer_choice", slow_choice)
    session = Session.start(build_rules("merrimack-valley"), seed=3)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1", "5", "enter")
        await settle(pilot)
        assert slept and own_actions(app) == ["0 bid 15"]
        assert app.session.view()["phase"] == "draw" and app.session.my_turn


@pytest.mark.asyncio
async def test_help_shows_the_rules_being_played() -> None:
    """The help screen explains the preset in play: Nova Scotia's turned-up trump, its
    robbing and its game of 45 (rules.md section 3)."""
    session = Session.start(build_rules("nova-scotia"), seed=2)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        body = str(app.screen.query_one("#help-body Static", Static).render())
        assert "turned up" in body and "rob" in body and "Game is 45" in body
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)


@pytest.mark.asyncio
async def test_review_reveals_every_hand_and_last_trick_on_demand() -> None:
    """After a hand the review lists every card each seat was dealt and every trick;
    during play, l shows the last trick."""
    session = Session.start(build_rules("merrimack-valley"), seed=8)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    bot = make_bot("basic", random.Random(0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        seen_last = False
        while not isinstance(app.screen, ReviewScreen):
            s = app.session
            v = s.view()
            if v["phase"] == "play" and v["tricks"] and not seen_last:
                await pilot.press("l")
                await settle(pilot)
                assert isinstance(app.screen, LastTrickScreen)
                t = v["tricks"][-1]
                body = str(app.screen.query_one("#last-trick", Static).render())
                assert f"{s.names[t['winner']]} won it" in body
                await pilot.press("escape")
                await settle(pilot)
                seen_last = True
            await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
        review = text_of(app, "#review-text")
        deal = app.session.record.hands[0].deal
        for seat, cards in enumerate(deal.hands):
            line = next(x for x in review.splitlines()
                        if x.startswith("  " + app.session.names[seat] + " "))
            for c in cards:
                from forties.tui.words import card_text

                assert card_text(card_name(c)) in line
        assert review.count("→") == 5  # five tricks, each with its winner
        assert seen_last


@pytest.mark.asyncio
async def test_call_a_partner_with_the_mouse(tmp_path: Path) -> None:
    """Call Your Partner: the person bids 30 (nobody can go higher), names trump, draws,
    then calls a card through the picker; a card above all his trumps is refused."""
    rules = build_rules("call-your-partner", {"dealer_may_hold": "false"})
    session = Session.start(rules, seed=21, save_path=tmp_path / "c.json")
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await enter(pilot, app, Action(0, Verb.BID, 30), mouse=True)
        assert app.session.state.phase.value == "trump"
        trump = next(a for a in app.session.legal() if a.verb is Verb.TRUMP)
        await enter(pilot, app, trump, mouse=True)
        bot = make_bot("basic", random.Random(0))
        while app.session.view()["phase"] == "draw":
            s = app.session
            await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=True)
        assert app.session.view()["phase"] == "call"
        t = app.session.view()["trump"]
        five = "5" + t
        mine = app.session.view()["hand"]
        index = next(i for i, ch in enumerate(app.choices) if ch.kind == "call")
        await pilot.click(f"#choice-{index}")
        await settle(pilot)
        assert isinstance(app.screen, CallScreen)
        if five not in mine:  # the 5 outranks every trump (rules.md section 5)
            await pilot.click(f"#pick-{five}")
            await settle(pilot)
            assert "You may not call" in str(app.screen.query_one("#call-message",
                                                                  Static).render())
        legal = [a for a in app.session.legal() if a.verb is Verb.CALL and a.arg]
        target = str(legal[0]).split()[-1]
        await pilot.click(f"#pick-{target}")
        await settle(pilot)
        assert f"0 call {target}" in app.session.record.hands[0].actions


@pytest.mark.asyncio
async def test_replay_steps_with_every_hand_visible(tmp_path: Path) -> None:
    """The replay viewer shows every seat's cards at the deal and steps an action at
    a time and a hand at a time."""
    session = Session.start(build_rules("merrimack-valley"), seed=5)
    session.run_bots()
    while not session.state.over:
        if session.new_hand_due:
            session.next_hand()
        elif session.my_turn:
            bot = make_bot("basic", random.Random(0))
            session.act(bot.choose(session.view(), session.legal()))
        session.run_bots()
        if len(session.record.hands) > 2:
            break
    record = Record.loads(session.record.dumps())
    app = ReplayApp(record)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        from forties.tui.words import card_text

        deal = record.hands[0].deal
        cells = [text_of(app, f"#cell-{r}-{c}") for r in range(3) for c in range(3)]
        for cards in deal.hands:
            shown = [card_text(card_name(c)) for c in cards]
            assert any(all(x in cell for x in shown) for cell in cells)
        assert "action 0 of" in text_of(app, "#title")
        await pilot.press("right", "right", "right")
        await settle(pilot)
        assert "action 3 of" in text_of(app, "#title")
        await pilot.press("pagedown")
        await settle(pilot)
        assert "hand 2 of" in text_of(app, "#title") and "action 0 of" in text_of(app, "#title")


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that fails half way leaves the previous record whole and no temporary
    file behind."""
    path = tmp_path / "g.json"
    write_atomic(path, "old")

    def boom(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("forties.tui.session.os.replace", boom)
    with pytest.raises(OSError):
        write_atomic(path, "new")
    assert path.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_parse_card_keys_cover_every_card() -> None:
    """Every card can be named by two keys, rank then suit (t for ten)."""
    for c in range(52):
        name = card_name(c)
        rank, suit = card_keys(name)
        assert parse_card(rank.upper() + suit.upper()) == c


def test_hint_adapter_prefers_the_expert_and_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hint key asks the expert when there is one (its explanation shown once, not
    repeating the action), and the basic player when the expert is missing, fails, or
    suggests what the rules refuse."""
    from forties import advice

    session = Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                            deal=trump_lead_deal(), seed=1)
    session.run_bots()

    class Said:
        action = "1 play 4H"
        explanation = "play 4H: the only trump you hold."

    def expert(said: Any) -> Any:
        return lambda state, seat, worlds=24: said()

    monkeypatch.setattr(advice, "expert_hint", expert(Said))
    adv = session.hint()
    assert (str(adv.action), adv.explanation, adv.source) == (
        "1 play 4H", "the only trump you hold", "expert")

    def broken(state: object, seat: int, worlds: int = 24) -> None:
        raise RuntimeError("not finished")

    class Wrong:
        action = "1 play 2C"  # a club on a trump lead, holding 4H: against the rules
        explanation = "keep your trump"

    monkeypatch.setattr(advice, "expert_hint", expert(Wrong))
    assert session.hint().source == "basic"
    monkeypatch.setattr(advice, "expert_hint", broken)
    adv = session.hint()
    # 4H is the only legal card (a trump led, 4H the only trump held), so the basic
    # player can suggest nothing else.
    assert (str(adv.action), adv.source) == ("1 play 4H", "basic")

    def missing(state: object, seat: int, worlds: int = 24) -> None:
        raise ImportError("no module named 'forties.analysis'")

    monkeypatch.setattr(advice, "expert_hint", missing)
    assert session.hint().source == "basic"


def test_par_adapter_words_whatever_the_solver_returns(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The par is shown from the solver's words, or its points; a solver that cannot
    answer (or none at all) leaves the par out."""
    from forties import advice as found
    from forties.tui import advice

    def solver(answer: Any) -> Any:
        return lambda s, budget=None: answer

    monkeypatch.setattr(found, "solver_par", solver(None))
    state = Session.start(build_rules("merrimack-valley"), seed=1).state
    assert advice.par(state) is None  # no par from the solver

    class Par:
        text = "With all cards seen, the bidders could take 25."

    monkeypatch.setattr(found, "solver_par", solver(Par()))
    assert advice.par(state) == "Double-dummy par: With all cards seen, the bidders could " \
                                "take 25."
    monkeypatch.setattr(found, "solver_par", solver(20))
    assert "the bidders take 20 points" in str(advice.par(state))

    def no_bidder(s: object, budget: object = None) -> int:
        raise ValueError("there is no bidder in this hand")

    monkeypatch.setattr(found, "solver_par", no_bidder)
    assert advice.par(state) is None


def test_replay_stops_at_an_illegal_action_with_the_reason() -> None:
    """A record whose seat 1 answers a heart lead (hearts trump) with a club while
    holding 4H is replayed up to that action, which is named with the reason."""
    import io

    from forties import Recorder, new_game
    from forties.tui.replay import build_frames, replay_plain

    rec = Recorder(new_game(build_rules("nova-scotia"), first_dealer=3,
                            deal=trump_lead_deal()))
    rec.apply("0 play 5H")
    rec.record.hands[0].actions.append("1 play 2C")
    frames, stopped = build_frames(rec.record)
    assert [f.index for f in frames] == [0, 1]
    assert stopped == "hand 1, action 2 (1 play 2C) is illegal: must play a trump: you hold 4H"
    out = io.StringIO()
    assert replay_plain(rec.record, out) == 1
    assert "Seat 0 leads 5H." in out.getvalue()
    assert out.getvalue().endswith(f"The record stops here: {stopped}\n")


# ----- the keyboard with a widget focused, as in a real terminal -------------------------------


@pytest.mark.asyncio
async def test_arrow_keys_reach_the_table_whatever_has_the_focus() -> None:
    """In a real terminal Textual focuses the first focusable widget (the log, once), and
    a log with more lines than it shows scrolls on ↑ ↓: the arrow keys and Enter must
    still move between the rows and along them, and nothing on the table may take the
    focus from them."""
    session = Session.start(build_rules("merrimack-valley"), seed=3)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    bot = make_bot("basic", random.Random(0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.focus_chain == []  # nothing on the table takes the focus
        log = app.query_one("#log", RichLog)
        log.can_focus = True  # what a real terminal gave the focus to
        for i in range(60):
            log.write(f"line {i}")
        app.set_focus(log)
        await settle(pilot)
        assert app.focused is log and log.max_scroll_y > 0
        while app.session.view()["phase"] != "draw":
            s = app.session
            await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
        assert app.focused is log and app.row == "hand"
        await pilot.press("right", "right")
        await settle(pilot)
        assert app.cursor == 2
        await pilot.press("down")
        await settle(pilot)
        assert app.row == "choices"
        await pilot.press("up")
        await settle(pilot)
        assert app.row == "hand"
        await pilot.press("space")  # mark the card under the cursor, then discard it
        await settle(pilot)
        marked = set(app.marked)
        assert len(marked) == 1
        await pilot.press("down", "enter")
        await settle(pilot)
        mine = [a for a in app.session.record.hands[0].actions if a.startswith("0 discard")]
        assert mine == [f"0 discard {marked.pop()}"]


async def reach_the_call(pilot: Pilot[Any], app: TableApp) -> None:
    """Bid 30 (nobody can go higher), name trump and draw, all by keys."""
    await enter(pilot, app, Action(0, Verb.BID, 30), mouse=False)
    trump = next(a for a in app.session.legal() if a.verb is Verb.TRUMP)
    await enter(pilot, app, trump, mouse=False)
    bot = make_bot("basic", random.Random(0))
    while app.session.view()["phase"] == "draw":
        s = app.session
        await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
    assert app.session.view()["phase"] == "call"


@pytest.mark.asyncio
async def test_call_a_partner_by_keyboard_and_confirm_going_alone(tmp_path: Path) -> None:
    """Call Your Partner by keys alone: the cursor starts on the choices, → Enter opens the
    call list, the arrows move in it; an illegal card is refused with its reason said
    once; a card of one's own hand (going alone) is asked again, n keeps the choice open,
    and y (typed by name at the table) calls it."""
    rules = build_rules("call-your-partner", {"dealer_may_hold": "false"})
    session = Session.start(rules, seed=21, save_path=tmp_path / "c.json")
    app = TableApp(session, delay=0, par=False, autoplay=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await reach_the_call(pilot, app)
        assert app.row == "choices"
        call_at = next(i for i, ch in enumerate(app.choices) if ch.kind == "call")
        await pilot.press(*["right"] * ((call_at - app.choice_cursor) % len(app.choices)))
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, CallScreen)
        from forties.tui.screens import CALL_GRID

        mine = app.session.view()["hand"]
        t = app.session.view()["trump"]
        allowed = {str(a).split()[-1] for a in app.session.legal() if a.arg}
        assert CALL_GRID[screen.cursor] in allowed and CALL_GRID[screen.cursor] not in mine

        async def move_to(card: str) -> None:
            steps = (CALL_GRID.index(card) - screen.cursor) % 52
            await pilot.press(*["right"] * steps)
            await settle(pilot)
            assert CALL_GRID[screen.cursor] == card

        five = f"5{t}"  # the 5 of trumps: never called, even from one's own hand
        assert five not in allowed
        await move_to(five)
        await pilot.press("enter")
        await settle(pilot)
        said = str(screen.query_one("#call-message", Static).render())
        assert said.count("never called") == 1, said
        refused = next((c for c in CALL_GRID if c not in allowed and c != five), None)
        if refused is not None:  # a trump above all the caller's trumps
            await move_to(refused)
            await pilot.press("enter")
            await settle(pilot)
            said = str(screen.query_one("#call-message", Static).render())
            assert said.count("call") == 1 and "outranks" in said, said
        own = next(c for c in mine if c in allowed)
        await move_to(own)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await settle(pilot)
        assert app.session.view()["phase"] == "call" and app.screen is not screen
        assert t  # trump was named
        await pilot.press(*card_keys(own))
        await settle(pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(pilot)
        assert f"0 call {own}" in app.session.record.hands[0].actions


# ----- the pace: forced cards, the review, computer players on a thread ------------------------


@pytest.mark.asyncio
async def test_a_forced_card_plays_itself_and_undo_keeps_it_undone(tmp_path: Path) -> None:
    """Hearts trump, a heart led, and 4H the person's only trump: with autoplay (the
    default) it is played without a key; undo takes it back and leaves the choice to the
    player; with --no-autoplay it waits."""
    session = Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                            deal=trump_lead_deal(), seed=1, save_path=tmp_path / "g.json")
    app = TableApp(session, delay=0, par=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [str(a) for a in app.session.state.history[:2]] == ["0 play 5H", "1 play 4H"]
        await pilot.press("u")
        await settle(pilot)
        assert [str(a) for a in app.session.state.history] == ["0 play 5H"]
        assert app.session.my_turn
    manual = Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                           deal=trump_lead_deal(), seed=1)
    app2 = TableApp(manual, delay=0, par=False, autoplay=False)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [str(a) for a in app2.session.state.history] == ["0 play 5H"]


@pytest.mark.asyncio
async def test_auto_next_deals_on_after_the_review_without_a_key() -> None:
    """With auto_next the review is shown, then the next hand is dealt by itself; without
    it the review waits for Enter."""
    for auto in (1.0, None):
        session = Session.start(build_rules("merrimack-valley"), seed=8)
        app = TableApp(session, delay=0, par=False, auto_next=auto, autoplay=False)
        bot = make_bot("basic", random.Random(0))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            # Until the first hand's review is up, or (on a busy machine, where the last
            # input can take longer than auto_next) already gone with the next hand dealt.
            while not isinstance(app.screen, ReviewScreen) and len(app.session.record.hands) == 1:
                s = app.session
                await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
            assert app.last_review_hand == 0  # the first hand's review was shown
            for _ in range(100):  # up to 10 s on a busy machine
                await pilot.pause(0.1)
                if len(app.session.record.hands) == 2:
                    break
            dealt = len(app.session.record.hands)
            assert dealt == (2 if auto else 1), auto
            assert isinstance(app.screen, ReviewScreen) is (auto is None)


@pytest.mark.asyncio
async def test_computer_players_think_on_a_thread_and_show_their_progress(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a delay the computer players decide on a worker thread; one that takes longer
    than a moment shows who is thinking and for how long, and the game goes on to the
    person's turn by itself. (Seat 0 thinks until the test has seen its progress, rather
    than for 2.2 s, in which the test had to catch the second of "1 s" on a loaded
    machine; a minute is the guard of a page that never shows it.)"""
    import re
    import threading

    import forties.table

    session = Session.start(build_rules("merrimack-valley"), human=1, first_dealer=3, seed=4)
    fast_choice = forties.table.computer_choice
    seen_it = threading.Event()

    def slow_choice(level: str, key: str, view: dict[str, Any], legal: Any,
                    seats: Any = None) -> Action:
        if view["seat"] == 0:
            seen_it.wait(60)
        return fast_choice(level, key, view, legal, seats)

    monkeypatch.setattr(forties.table, "computer_choice", slow_choice)
    app = TableApp(session, delay=0.01, par=False, autoplay=False)
    progress = re.compile(re.escape(app.session.names[0]) + r" is thinking… (\d+) s")
    async with app.run_test(size=SIZE) as pilot:
        seen = None
        try:
            for _ in range(600):  # (a minute at least)
                await pilot.pause(0.1)
                seen = progress.search(text_of(app, "#message"))
                if seen:
                    break
        finally:
            seen_it.set()
        assert seen and int(seen[1]) >= 1, text_of(app, "#message")
        for _ in range(600):
            if app.session.my_turn:
                break
            await pilot.pause(0.1)
        assert app.session.my_turn


# ----- words ----------------------------------------------------------------------------------


def test_drew_counts_the_cards_drawn_not_those_discarded() -> None:
    """After the draw each seat shows how many cards it drew from the stock: the bidder,
    who took the 3-card kitty, drew 3 fewer than he discarded. During the draw a seat
    shows what it discarded."""
    from forties import new_game
    from forties.tui.table import seat_status

    st = new_game(build_rules("merrimack-valley"), seed=12, first_dealer=3)
    bot = make_bot("basic", random.Random(0))
    before: dict[int, set[str]] = {}
    checked_during = False
    while st.phase.value != "play":
        seat = st.turn
        assert seat is not None
        if st.phase.value == "draw":
            before[seat] = set(st.view(seat)["hand"])
            first = next(iter(before))
            if seat != first:
                thrown = st.view(None)["discard_counts"][first]
                assert f"discarded {thrown}" in seat_status(st.view(None), first)
                checked_during = True
        st.apply(bot.choose(st.view(seat), st.legal_actions()))
    assert checked_during
    v = st.view(None)
    bidder = v["bidder"]
    for seat, held in before.items():
        drawn = len(set(st.view(seat)["hand"]) - held)
        status = seat_status(v, seat)
        if v["discard_counts"][seat]:
            assert f"drew {drawn}" in status, (seat, status, drawn)
    assert v["discard_counts"][bidder] - 3 == len(set(st.view(bidder)["hand"]) - before[bidder])


def test_refusals_say_the_reason_once() -> None:
    """A refusal whose reason already names the action is said once; others say what was
    refused and why."""
    from forties.tui.words import refusal

    v = {"phase": "call", "game": "forty-fives", "history": [], "seat": 0}
    call = Action(0, Verb.CALL, 1 << parse_card("5D"))
    said = refusal(v, call, "you may not call 5D: it outranks every trump you hold")
    assert said == "You may not call 5♦: it outranks every trump you hold."
    play = Action(1, Verb.PLAY, 1 << parse_card("2C"))
    v["phase"] = "play"
    assert refusal(v, play, "must play a trump: you hold 4H", fancy=False) == \
        "You can't play 2C: must play a trump: you hold 4H."


def test_the_hand_result_speaks_to_you() -> None:
    """The person's side set: "You bid 20 and were set", never "You ... was set"."""
    from forties import Record
    from forties.record import replay_record
    from forties.tui.words import hand_result

    from .helpers_engine import mv_record_json

    names = ["You", "Bob", "Cy", "Di"]
    record = Record.from_json(mv_record_json(players=names))
    st = replay_record(record)
    assert st is not None
    lines = hand_result(st.view(0), names)
    assert "You bid 20 and were set (took 15)." in lines
    other = hand_result(st.view(0), ["Ann", "Bob", "Cy", "Di"])
    assert "Ann bid 20 and was set (took 15)." in other


@pytest.mark.asyncio
async def test_r_shows_the_last_finished_hand_as_the_help_says() -> None:
    """The help says r is the last finished hand's review: during hand 2 it shows hand 1;
    during hand 1 it says there is none yet."""
    session = Session.start(build_rules("merrimack-valley"), seed=8)
    app = TableApp(session, delay=0, par=False, autoplay=False)
    bot = make_bot("basic", random.Random(0))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r")
        await settle(pilot)
        assert "No hand has finished yet" in text_of(app, "#message")
        while not isinstance(app.screen, ReviewScreen):
            s = app.session
            await enter(pilot, app, bot.choose(s.view(), s.legal()), mouse=False)
        first = text_of(app, "#review-text")
        await pilot.press("enter")
        await settle(pilot)
        assert len(app.session.record.hands) == 2 and not isinstance(app.screen, ReviewScreen)
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(app.screen, ReviewScreen)
        assert text_of(app, "#review-text") == first
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ReviewScreen)
    from forties.tui.screens import KEYS_HELP

    assert "r  the last finished hand's review" in KEYS_HELP
