"""Plain mode: the game as lines of text, for any terminal and for screen readers.

One line per event; on the player's turn a prompt says what to do and lists the
choices, the first of them always legal. Cards are written in ASCII (``10H``,
``QS``). Colour is used only on a terminal, never when ``NO_COLOR`` is set.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from ..actions import Action, ActionSyntaxError, Verb, parse_bid
from ..cards import SUIT_NAMES, SUITS, CardError, card_name, mask_of_names, parse_suit
from ..numerals import whole
from ..rules import FORTY_ONE, PRESETS
from ..show import sort_hand
from .advice import hint_line, par_within
from .session import Session
from .words import (
    bid_words,
    card_text,
    cards_text,
    discard_range,
    game_name,
    game_result,
    is_red,
    partners,
    plain_word,
    pretty,
    refusal,
    rules_in_words,
    side_names,
    so_far,
    task,
)

PAR_SECONDS = 5.0  # the most a player waits for the double-dummy par after a hand
COMMANDS = ("help", "hint", "undo", "hand", "table", "last", "rules", "quit")


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never with NO_COLOR set or TERM=dumb."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return stream.isatty()


class Plain:
    """The plain-text client: reads commands from ``inp``, writes lines to ``out``."""

    def __init__(self, session: Session, inp: TextIO = sys.stdin, out: TextIO = sys.stdout,
                 color: bool | None = None, par: bool = True, autoplay: bool = True,
                 auto_next: bool = False) -> None:
        self.s = session
        self.par = par
        self.autoplay = autoplay  # play the player's only legal card by itself
        self.auto_next = auto_next  # deal the next hand without asking for Enter
        self.autoplay_hold: tuple[int, int] | None = None  # not again where undo landed
        self.warned = False
        self.inp = inp
        self.out = out
        self.color = use_color(out) if color is None else color

    # ----- output ---------------------------------------------------------------------

    def say(self, line: str, style: str = "") -> None:
        if self.color and style:
            codes = {"bold": "1", "red": "31", "dim": "2", "green": "32"}[style]
            line = f"\x1b[{codes}m{line}\x1b[0m"
        self.out.write(line + "\n")
        self.out.flush()

    def cards(self, names: Sequence[str]) -> str:
        if not self.color:
            return cards_text(names, fancy=False)
        return " ".join(f"\x1b[31m{card_text(n, False)}\x1b[0m" if is_red(n)
                        else card_text(n, False) for n in names)

    def ask(self, prompt: str = "> ") -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            return None
        return line.strip()

    # ----- the game -------------------------------------------------------------------

    def run(self, resumed: bool = False) -> int:
        """Play until the game ends or the player quits; the exit status."""
        s = self.s
        self.intro(resumed)
        try:
            while True:
                if s.state.over and s.state.hand_over:
                    self.review()
                    self.say(game_result(s.view(), s.names), "bold")
                    return 0
                if s.new_hand_due:
                    self.review()
                    if not self.auto_next:
                        line = self.ask("Press Enter for the next hand (or type quit): ")
                        if line is None or line.lower() in ("q", "quit", "exit"):
                            self.saved_note()
                            return 0
                    s.next_hand()
                    self.opening()
                    continue
                if s.bots_turn:
                    if s.levels[s.state.turn or 0] in ("expert", "oracle"):
                        self.search_note()
                    for text in s.bot_step():
                        self.say(pretty(text, False))
                    continue
                if not self.turn():
                    self.saved_note()
                    return 0
        except KeyboardInterrupt:
            self.say("")
            self.saved_note()
            return 130

    def intro(self, resumed: bool) -> None:
        s = self.s
        v = s.view()
        preset = PRESETS[s.record.rules.preset]
        self.say(f"forties: {game_name(preset.name)}. Type help for the commands.")
        mates = partners(v, s.human)
        me = f"You play seat {s.human}" + (
            f"; your partner is {' and '.join(s.names[p] for p in mates)}." if mates else ".")
        self.say(me)
        if s.save_path is not None:
            self.say(f"The game is saved as it goes to {s.save_path}")
        if resumed:
            self.say(f"Resuming hand {v['hand_index'] + 1}.")
            if not s.state.hand_over:
                self.opening()
                self.so_far()
        else:
            self.opening()

    def opening(self) -> None:
        """The hand's first lines (the cards come with the first prompt)."""
        for line in self.s.opening():
            self.say(line)

    def so_far(self) -> None:
        """The current hand's actions so far, in words (after a resume)."""
        for line in so_far(self.s.view(), self.s.names, self.s.human, fancy=False):
            self.say(pretty(line, False))

    def search_note(self) -> None:
        """Once, before the first search of a session that must load (or compile) it."""
        from ..warmup import is_warm

        if not self.warned and not is_warm():
            self.warned = True
            self.say("(Loading the computer players' search: the first time after an "
                     "install it compiles, up to a minute; the command forties warm-up "
                     "does it beforehand.)", "dim")

    def position(self) -> tuple[int, int]:
        rec = self.s.record
        return len(rec.hands), len(rec.hands[-1].actions)

    def saved_note(self) -> None:
        p = self.s.save_path
        if p is not None and not self.s.state.over:
            self.say(f"Saved. Resume with: forties play --resume {p}")

    def turn(self) -> bool:
        """Prompt for the player's action and make it; False if the player quits."""
        s = self.s
        while s.my_turn:
            v = s.view()
            legal = s.legal()
            if self.autoplay and v["phase"] == "play" and len(legal) == 1 and \
                    self.autoplay_hold != self.position():
                self.say(f"Your only legal card: {self.cards([str(legal[0]).split()[-1]])}.")
                for text in s.act(legal[0]):
                    self.say(pretty(text, False))
                continue
            hand = sort_hand(v["hand"], v.get("trump"), v["game"])
            self.say(f"Your cards: {self.cards(hand)}")
            self.say(pretty(task(v, legal, s.names, False), False), "bold")
            self.say("Choices: " + ", ".join(self.choices(v, legal)) + ".")
            line = self.ask()
            if line is None:
                return False
            if not line:
                continue
            word = line.lower().split()[0]
            if word in ("quit", "exit", "q"):
                return False
            if word in COMMANDS or word == "?":
                self.command(word)
                continue
            action = parse_plain(v, legal, line)
            if isinstance(action, str):
                self.say(action, "red")
                continue
            why = s.reason(action)
            if why is not None:
                self.say(refusal(v, action, why, False), "red")
                continue
            for text in s.act(action):
                self.say(pretty(text, False))
        return True

    def choices(self, v: dict[str, Any], legal: Sequence[Action]) -> list[str]:
        """The choices to list, each what to type, the first always legal."""
        phase = v["phase"]
        if phase == "draw":
            lo, hi = discard_range(legal)
            hand = sort_hand(v["hand"], v.get("trump"), v["game"])
            first = "keep" if lo == 0 else "discard " + " ".join(
                card_text(c, False) for c in hand[-lo:])
            return [first, f"discard up to {hi} of your cards (for example: discard "
                           f"{card_text(hand[-1], False)})"]
        if phase == "rob-pack":
            pile = v.get("pack") or []
            return ["pass", f"rob followed by the cards you give and as many you take from "
                            f"the discards ({cards_text(pile, False)})"]
        if phase == "call":
            best = next((a for a in legal if a.verb is Verb.CALL and a.arg), None)
            example = plain_word(v, best) if best else "AS"
            return ["alone", f"call a card (for example: call {example.split()[-1]})"]
        if phase in ("rob", "play"):
            hand = sort_hand(v["hand"], v.get("trump"), v["game"])
            cards = sorted((a for a in legal if a.verb in (Verb.ROB, Verb.PLAY)),
                           key=lambda a: hand.index(str(a).split()[-1]))
            return ["pass"] * (phase == "rob") + [plain_word(v, a) for a in cards]
        return [plain_word(v, a) for a in legal]

    def command(self, word: str) -> None:
        s = self.s
        v = s.view()
        if word in ("help", "?"):
            self.say("Type one of the choices listed, or a command:")
            self.say("  hint: what the computer would do, and why")
            self.say("  undo: take back your last action")
            self.say("  hand: your cards; table: the bid, trump, trick and scores; "
                     "last: the last trick")
            self.say("  rules: the rules being played; quit: stop (the game is saved)")
            bid = "4" if v["game"] == FORTY_ONE else "20"  # Forty One bids 1 to 13 tricks
            self.say(f"Cards are rank then suit: 10H, QS, AD, 5C. Bids are numbers: {bid}. "
                     "Suits by name: hearts.")
        elif word == "hint":
            self.search_note()
            adv = s.hint()
            self.say(hint_line(v, adv, False))
        elif word == "undo":
            if s.undo():
                self.autoplay_hold = self.position()  # a forced card undone stays undone
                self.say("Undone: your last action and the computer players' after it.")
                self.opening()
                self.so_far()
            else:
                self.say("Nothing to undo yet.")
        elif word == "hand":
            self.say(f"Your cards: {self.cards(sort_hand(v['hand'], v.get('trump'), v['game']))}")
        elif word == "table":
            for line in table_lines(v, s.names):
                self.say(line)
        elif word == "last":
            if v["tricks"]:
                self.say(trick_line(v["tricks"][-1], len(v["tricks"]), v, s.names))
            else:
                self.say("No trick has been played yet this hand.")
        elif word == "rules":
            for line in rules_in_words(s.record.rules, fancy=False):
                self.say(line)

    def review(self) -> None:
        """The hand just finished, every hand as dealt and every trick."""
        s = self.s
        r = s.review()
        v = r.view
        self.say(f"Hand {r.hand_index + 1} over. The hands as dealt:")
        for seat, cards in enumerate(r.deal.hands):
            names = sort_hand([card_name(c) for c in cards], v.get("trump"), v["game"])
            self.say(f"  {s.names[seat]}: {self.cards(names)}")
        if r.deal.kitty:
            self.say(f"  Kitty: {self.cards([card_name(c) for c in r.deal.kitty])}")
        for i, t in enumerate(r.tricks):
            self.say("  " + trick_line(t, i + 1, v, s.names))
        if r.play_start is not None and self.par:
            text = par_within(r.play_start, PAR_SECONDS, s.names)
            if text:
                self.say(pretty(text, False))


def trick_line(t: dict[str, Any], number: int, v: dict[str, Any], names: Sequence[str]) -> str:
    n = v["players"]
    plays = ", ".join(f"{names[(t['leader'] + k) % n]} {card_text(c, False)}"
                      for k, c in enumerate(t["cards"]))
    won = f"; {names[t['winner']]} won" if t["winner"] is not None else ""
    return f"Trick {number}: {plays}{won}."


def table_lines(v: dict[str, Any], names: Sequence[str]) -> list[str]:
    """The state of the table in a few lines: bid, trump, the trick, the scores."""
    out = []
    if v["game"] == "forty-one":
        out.append("Bids: " + ", ".join(
            f"{names[s]} {b if b is not None else '-'} (took {v['taken'][s]})"
            for s, b in enumerate(v["bids"])))
    else:
        if v.get("bid"):
            out.append(f"{names[v['bidder']]} bid {bid_words(v, v['bid'])}.")
        elif v.get("high_bid"):
            out.append(f"High bid: {names[v['high_bidder']]} {bid_words(v, v['high_bid'])}.")
        if v.get("trump"):
            out.append(f"Trump: {SUIT_NAMES[SUITS.index(v['trump'])]}.")
    trick = v.get("trick")
    if trick and trick["cards"]:
        out.append(trick_line({**trick, "winner": None}, len(v["tricks"]) + 1, v, names))
    out.append("Scores: " + ", ".join(
        f"{side} {v['scores'][i]}" for i, side in enumerate(side_names(v, names))) + ".")
    return out


# ----- reading what the player types ----------------------------------------------------


def parse_plain(v: dict[str, Any], legal: Sequence[Action], text: str) -> Action | str:
    """The action the player typed, or a message saying what was not understood."""
    seat = v["seat"]
    phase = v["phase"]
    words = text.lower().replace(",", " ").split()
    verb, rest = words[0], words[1:]
    parsers: dict[str, Callable[[], Action]] = {}

    def auction() -> Action:
        if verb in ("pass", "p"):
            return Action(seat, Verb.PASS)
        if verb == "hold":
            return Action(seat, Verb.HOLD)
        value = rest[0] if verb == "bid" and rest else "".join(words)
        return Action(seat, Verb.BID, parse_bid(value))

    def raise_() -> Action:
        if verb in ("pass", "keep", "p"):
            return Action(seat, Verb.PASS)
        if verb in ("raise", "30"):
            return Action(seat, Verb.RAISE, 30)
        if any(a.verb is not Verb.PASS and a.verb is not Verb.RAISE for a in legal):
            return trump()  # naming trump (or going on the kitty) keeps the bid
        raise ActionSyntaxError("type raise or keep")

    def trump() -> Action:
        if verb in ("go", "throw"):
            go = next((a for a in legal if a.verb is Verb.DISCARD), None)
            if go is None:
                raise ActionSyntaxError("you may not go on the kitty here")
            return go
        word = rest[0] if verb == "trump" and rest else verb
        return Action(seat, Verb.TRUMP, parse_suit(word))

    def draw() -> Action:
        if verb in ("keep", "none") and not rest:
            return Action(seat, Verb.DISCARD, 0)
        cards = rest if verb == "discard" else words
        return Action(seat, Verb.DISCARD, mask_of_names(cards))

    def rob() -> Action:
        if verb in ("pass", "p", "no"):
            return Action(seat, Verb.PASS)
        cards = rest if verb == "rob" else words
        return Action(seat, Verb.ROB, mask_of_names(cards))

    def call() -> Action:
        if verb in ("alone", "none") or rest == ["none"]:
            return Action(seat, Verb.CALL, 0)
        cards = rest if verb == "call" else words
        if len(cards) != 1:
            raise ActionSyntaxError("call one card")
        return Action(seat, Verb.CALL, mask_of_names(cards))

    def play() -> Action:
        cards = rest if verb == "play" else words
        if len(cards) != 1:
            raise ActionSyntaxError("play one card, for example: 10H")
        return Action(seat, Verb.PLAY, mask_of_names(cards))

    def booked() -> Action:
        if verb in ("pass", "p", "no"):
            return Action(seat, Verb.PASS)
        word = rest[0] if verb == "ask" and rest else verb
        asked = whole(word, most=2)
        if asked is None:
            raise ActionSyntaxError("type ask and a seat number, or pass")
        return Action(seat, Verb.ASK, asked)

    def answer() -> Action:
        if verb in ("yes", "no") or (verb == "answer" and rest and rest[0] in ("yes", "no")):
            word = verb if verb != "answer" else rest[0]
            return Action(seat, Verb.ANSWER, 1 if word == "yes" else 0)
        raise ActionSyntaxError("answer yes or no")

    def fold() -> Action:
        if verb in ("fold", "stay"):
            return Action(seat, Verb.FOLD if verb == "fold" else Verb.STAY)
        raise ActionSyntaxError("type fold or stay")

    parsers.update({"auction": auction, "raise": raise_, "trump": trump, "draw": draw,
                    "rob": rob, "rob-pack": rob, "call": call, "play": play,
                    "booked": booked, "answer": answer, "fold": fold})
    try:
        return parsers[phase]()
    except (ActionSyntaxError, CardError, ValueError, IndexError) as e:
        return f"Not understood: {text!r} ({e}). Type one of the choices, or help."


def run_plain(session: Session, resumed: bool = False, inp: TextIO | None = None,
              out: TextIO | None = None, autoplay: bool = True, auto_next: bool = False) -> int:
    """Play ``session`` in plain mode on standard input and output."""
    return Plain(session, inp or sys.stdin, out or sys.stdout, autoplay=autoplay,
                 auto_next=auto_next).run(resumed)
