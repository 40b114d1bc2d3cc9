"""Plain mode (``forties play --plain``): a whole hand through a real pseudo-terminal,
Ctrl-C losing nothing, NO_COLOR honoured, and the prompt's words understood."""

from __future__ import annotations

import io
import os
import pty
import random
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from forties import Deal, Record, build_rules, referee
from forties.cards import card_name
from forties.players import make_bot
from forties.tui.plain import Plain, parse_plain
from forties.tui.session import Session

PROMPT = "> "
NEXT_HAND = "Press Enter for the next hand (or type quit): "


class Terminal:
    """A child process on a pseudo-terminal, read and typed into like a person would."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            # A runner started in the background ignores Ctrl-C, and an ignored signal
            # stays ignored across exec: give the child the default a person's shell has.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.raw = ""
        self.mark = 0  # where the output stood when we last typed
        self.status: int | None = None

    @property
    def text(self) -> str:
        return self.raw.replace("\r\n", "\n")

    def read_until(self, *endings: str, timeout: float = 60.0) -> str:
        """Read until the output ends with one of ``endings``; which one."""
        deadline = time.monotonic() + timeout
        while True:
            fresh = self.text[self.mark:]
            for e in endings:
                if fresh.endswith(e):
                    return e
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(left, 0))
            if not ready:
                raise AssertionError(f"no {endings!r} in time ({self.signals()}); the "
                                     f"screen ends:\n{self.text[-1500:]}")
            try:
                data = os.read(self.fd, 4096)
            except OSError:  # EIO: the child has closed the terminal
                data = b""
            if not data:
                return ""
            self.raw += data.decode("utf-8", "replace")

    def signals(self) -> str:
        """The child's signal masks, as its /proc status gives them: which it blocks,
        ignores and catches (SIGINT is bit 2, 0x2), to tell a lost Ctrl-C's cause."""
        try:
            with open(f"/proc/{self.pid}/status", encoding="ascii") as f:
                rows = [x.strip() for x in f if x.startswith(("SigBlk", "SigIgn", "SigCgt"))]
        except OSError:
            return "no /proc status"
        return ", ".join(rows)

    def type(self, line: str) -> None:
        self.mark = len(self.text)
        os.write(self.fd, line.encode())

    def wait(self) -> int:
        """Read to the end of the child's output; its exit status."""
        try:
            self.read_until("\x00", timeout=60)  # drain until the child closes the pty
        finally:
            self.close(grace=10.0)
        assert self.status is not None
        return os.waitstatus_to_exitcode(self.status)

    def close(self, grace: float = 0.0) -> None:
        """Reap the child, ending it after ``grace`` seconds (a failed test must not leave
        it running)."""
        if self.status is None:
            deadline = time.monotonic() + grace
            while True:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    break
                if time.monotonic() >= deadline:
                    os.kill(self.pid, signal.SIGKILL)
                    _, status = os.waitpid(self.pid, 0)
                    break
                time.sleep(0.02)
            self.status = status
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def first_choice(text: str) -> str:
    """The first choice of the last prompt: plain mode lists a legal one first."""
    line = [x for x in text.splitlines() if x.startswith("Choices: ")][-1]
    return line[len("Choices: "):].split(",")[0].strip().rstrip(".")


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update({"FORTIES_DATA": str(tmp_path), "TERM": "xterm", **extra})
    return env


def play_argv(save: Path, seed: int) -> list[str]:
    return [sys.executable, "-m", "forties.cli", "play", "--plain", "--no-autoplay", "--seed",
            str(seed), "--save", str(save)]


def test_a_whole_hand_through_a_pty(tmp_path: Path) -> None:
    """Bid, draw and play a whole Merrimack Valley hand at the prompt, then quit: the
    transcript has no colour (NO_COLOR), every card played is in the saved record, and
    the scores printed are the referee's."""
    save = tmp_path / "plain.json"
    term = Terminal(play_argv(save, 7), env_for(tmp_path, NO_COLOR="1"))
    typed: list[str] = []
    try:
        for _ in range(60):
            got = term.read_until(PROMPT, NEXT_HAND)
            if got == NEXT_HAND:
                term.type("quit\n")
                break
            assert got == PROMPT
            answer = first_choice(term.text)
            typed.append(answer)
            term.type(answer + "\n")
        else:
            raise AssertionError("the hand did not end")
        status = term.wait()
    finally:
        term.close()
    out = term.text
    assert status == 0
    assert "\x1b[" not in out  # NO_COLOR: not one escape sequence
    assert "Hand 1 over. The hands as dealt:" in out
    record = Record.loads(save.read_text())
    verdict, code = referee(record)
    assert code == 0 and len(verdict["hands"][0]["tricks"]) == 5
    # What the player typed at the play prompts are his five cards, in order.
    plays = [a.split()[-1] for a in record.hands[0].actions if a.startswith("0 play")]
    assert [t.replace("10", "T") for t in typed[-5:]] == plays
    scores = ", ".join(f"{' & '.join(record.players[s] for s in side)} {verdict['scores'][i]}"
                       for i, side in enumerate(verdict["sides"]))
    assert f"Scores: {scores}." in out
    assert f"Saved. Resume with: forties play --resume {save}" in out


def test_ctrl_c_loses_nothing_and_colour_on_a_terminal(tmp_path: Path) -> None:
    """Ctrl-C at the prompt ends the game with its record saved up to the last action
    (the game resumes from it); without NO_COLOR a terminal gets colour."""
    save = tmp_path / "ctrlc.json"
    term = Terminal(play_argv(save, 3), env_for(tmp_path))
    try:
        for _ in range(3):
            assert term.read_until(PROMPT, NEXT_HAND) == PROMPT
            term.type(first_choice(term.text.replace("\x1b[0m", "")) + "\n")
        term.read_until(PROMPT)
        term.type("\x03")
        status = term.wait()
    finally:
        term.close()
    assert status == 130
    assert "\x1b[1m" in term.raw  # the prompts are bold on a colour terminal
    assert f"Resume with: forties play --resume {save}" in term.text
    record = Record.loads(save.read_text())
    mine = [a for a in record.hands[0].actions if a.startswith("0 ")]
    assert len(mine) == 3  # the three answers typed, none lost
    resumed = Session.resume(save)
    assert resumed.my_turn and resumed.record.hands[0].actions == record.hands[0].actions


def trump_lead_deal() -> Deal:
    """Seat 0 holds only hearts, seat 1 holds 4H and four clubs, 2H is turned up."""
    hands = [["5H", "JH", "KH", "QH", "TH"], ["4H", "2C", "3C", "6C", "7C"],
             ["AS", "KS", "QS", "JS", "TS"], ["AD", "KD", "QD", "JD", "TD"]]
    used = {c for h in hands for c in h} | {"2H", "AH"}
    rest = ["2H", "AH"] + [card_name(c) for c in range(52) if card_name(c) not in used]
    return Deal.from_json({"hands": hands, "kitty": [], "stock": rest})


def run_lines(session: Session, lines: list[str]) -> str:
    out = io.StringIO()
    Plain(session, io.StringIO("".join(x + "\n" for x in lines)), out, color=False,
          autoplay=False).run()
    return out.getvalue()


def test_illegal_card_explained_and_hint_in_plain() -> None:
    """A heart led with hearts trump: the player holding 4H may not play a club
    (rules.md section 2: a plain trump must follow a trump lead); the reason is printed,
    the hint names 4H, the only legal card, and 4H is then played."""
    session = Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                            deal=trump_lead_deal(), seed=1)
    out = run_lines(session, ["2c", "hint", "4h", "quit"])
    assert "Choices: 4H." in out
    assert "You can't play 2C: must play a trump: you hold 4H." in out
    assert "Hint: play 4H; " in out or "Hint (basic player): play 4H; " in out
    assert "—" not in out  # (a dash that a screen reader reads out)
    assert "You play 4H." in out


def test_undo_and_words_at_the_prompt() -> None:
    """'undo' takes back the last action; bids are typed as numbers, suits by name."""
    session = Session.start(build_rules("merrimack-valley"), seed=9)
    session.run_bots()
    v = session.view()
    assert v["phase"] == "auction" and session.my_turn
    legal = session.legal()
    bid = parse_plain(v, legal, "30")
    assert str(bid) == "0 bid 30"
    assert str(parse_plain(v, legal, "pass")) == "0 pass"
    assert "Not understood" in str(parse_plain(v, legal, "lots"))
    before = list(session.record.hands[0].actions)
    out = run_lines(session, ["pass", "undo", "quit"])
    assert "Undone" in out
    assert session.record.hands[0].actions == before and session.my_turn


def test_hand_sorted_as_a_player_holds_it() -> None:
    """Trumps first in trump order (rules.md section 1: with diamonds trump, 5D JD AH
    are the top three), then the other suits, each best first."""
    from forties.show import sort_hand

    assert sort_hand(["2C", "KS", "AH", "JD", "5D", "QS"], "D", "forty-fives") == \
        ["5D", "JD", "AH", "KS", "QS", "2C"]
    # Clubs not trump: K Q J A 2 ... (rules.md: "highest in red, lowest in black").
    assert sort_hand(["2C", "AC", "KC", "TC"], "H", "forty-fives") == ["KC", "AC", "2C", "TC"]


def test_others_discards_are_told_by_count_only() -> None:
    """What the table says comes from the player's view: another seat's discards are a
    number of cards, never the cards; the player's own are named."""
    import random
    import re

    from forties.players import make_bot

    session = Session.start(build_rules("merrimack-valley"), seed=9)
    bot = make_bot("basic", random.Random(0))
    lines = session.run_bots()
    while session.view()["phase"] in ("auction", "raise", "trump", "draw"):
        if session.my_turn:
            lines += session.act(bot.choose(session.view(), session.legal()))
        lines += session.run_bots()
    others = [x for x in lines if " discards " in x and not x.startswith("You")]
    assert others, "the other seats discarded"
    for x in others:
        assert re.fullmatch(r"\w+ discards \d\.", x), x


def test_rules_in_words_for_merrimack_valley() -> None:
    """The help's account of Merrimack Valley follows rules.md section 3: kitty 3, bids
    15 to 30, dealer bagged, keep at least one, bidder leads, trumps must follow, 120."""
    from forties.tui.words import rules_in_words

    text = " ".join(rules_in_words(build_rules("merrimack-valley")))
    for fact in ("3 to the kitty", "Bids: 15, 20, 25, 30", "dealer is bagged",
                 "discard all but 1", "The bidder leads the first trick",
                 "you must play a trump", "Game is 120"):
        assert fact in text, fact


def test_plain_words_for_every_kind_of_choice() -> None:
    """Suits by name, discards as cards or 'keep', a call as a card or 'alone'."""
    from forties import Action

    v = {"seat": 2, "phase": "trump"}
    assert str(parse_plain(v, [], "hearts")) == "2 trump H"
    assert str(parse_plain(v, [], "trump s")) == "2 trump S"
    v["phase"] = "draw"
    assert str(parse_plain(v, [], "discard 7c 10s")) == "2 discard 7C TS"
    assert str(parse_plain(v, [], "keep")) == "2 discard"
    v["phase"] = "call"
    assert str(parse_plain(v, [], "alone")) == "2 call none"
    assert str(parse_plain(v, [], "call as")) == "2 call AS"
    v["phase"] = "rob"
    assert str(parse_plain(v, [], "9c")) == "2 rob 9C"
    v["phase"] = "play"
    assert parse_plain(v, [], "10h") == Action.parse("2 play TH")


def test_plain_plays_a_forced_card_and_deals_on_when_asked() -> None:
    """Plain mode: the player's only legal card plays itself (said so) unless autoplay is
    off; with auto_next the next hand is dealt without asking for Enter."""
    from .test_tui import trump_lead_deal

    def forced() -> Session:
        return Session.start(build_rules("nova-scotia"), human=1, first_dealer=3,
                             deal=trump_lead_deal(), seed=1)

    out = io.StringIO()
    s = forced()
    Plain(s, io.StringIO("quit\n"), out, color=False).run()
    assert "Your only legal card: 4H." in out.getvalue()
    assert "1 play 4H" in s.record.hands[0].actions
    s = forced()
    Plain(s, io.StringIO("quit\n"), io.StringIO(), color=False, autoplay=False).run()
    assert "1 play 4H" not in s.record.hands[0].actions
    for auto_next in (True, False):
        s = Session.start(build_rules("merrimack-valley"), seed=6)
        bot = make_bot("basic", random.Random(0))
        while not s.state.hand_over:
            if s.my_turn:
                s.act(bot.choose(s.view(), s.legal()))
            s.run_bots()
        out = io.StringIO()
        Plain(s, io.StringIO("quit\n"), out, color=False, par=False,
              auto_next=auto_next).run()
        assert ("Press Enter for the next hand" in out.getvalue()) is not auto_next
        assert len(s.record.hands) == (2 if auto_next else 1)


def test_plain_says_why_the_first_search_may_take_a_while(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the first expert move of a session whose search is not loaded yet, plain
    mode says once that it may compile (so a long wait is never silent)."""
    from forties import warmup

    monkeypatch.setattr(warmup, "is_warm", lambda: False)
    s = Session.start(build_rules("merrimack-valley"), seed=2, opponents="expert",
                      first_dealer=0)  # seat 1, an expert, bids first
    out = io.StringIO()
    Plain(s, io.StringIO("quit\n"), out, color=False).run()
    assert out.getvalue().count("compiles, up to a minute") == 1
    # no punctuation a screen reader reads out (backticks round the command)
    assert "the command forties warm-up does it beforehand" in out.getvalue()
    assert "`" not in out.getvalue()


def test_naming_trump_at_the_raise_keeps_the_bid() -> None:
    """Auction 45: the winner at 20 may name trump at once (declining the raise) by
    typing the suit; 'keep' and 'raise' still work; the prompt says so."""
    from forties import Action, new_game
    from forties.tui.words import choice_label, doing, task

    g = new_game("auction-45", seed=5)
    while g.phase.value != "raise":
        legal = g.legal_actions()
        bids = [a for a in legal if a.verb.value == "bid"]
        g.apply(bids[0] if bids and g.high == 0 else legal[0])
    seat = g.turn
    assert seat is not None
    v, legal = g.view(seat), list(g.legal_actions())
    named = parse_plain(v, legal, "spades")
    assert isinstance(named, Action) and str(named) == f"{seat} trump S"
    assert str(parse_plain(v, legal, "keep")) == f"{seat} pass"
    assert str(parse_plain(v, legal, "raise")) == f"{seat} raise 30"
    assert "naming trump keeps it" in task(v, legal, ["A", "B", "C", "D"])
    assert choice_label(v, Action.parse(f"{seat} trump S"), fancy=False) == "Spades"
    assert doing(v, named, fancy=False) == "name spades trump"
