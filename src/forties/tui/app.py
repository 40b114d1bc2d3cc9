"""``forties play``: the full-screen table (Textual).

The table shows every seat round it (you at the bottom), the auction, the trick,
trump, the kitty, the scores and the bid to make; your hand along the bottom
with the legal cards marked; the choices of the moment (pass, bids, suits) as
buttons; a log of what happened. Keyboard first, mouse too. Everything shown
comes from the player's view of the game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static

from .. import advice
from ..actions import BID_30_FOR_60, BID_60_FOR_120, Action, Verb
from ..cards import mask_of_names, parse_card
from ..fortyfives import bid_ladder
from ..rules import FortyFivesRules
from ..show import sort_hand
from ..state import GameState
from .advice import hint_line
from .screens import (
    CallScreen,
    ConfirmScreen,
    HelpScreen,
    LastTrickScreen,
    PackScreen,
    ReviewScreen,
)
from .session import Session
from .table import draw_table, scores_text
from .widgets import CardPicked, CardSlot, ChoicePicked, ChoiceSlot
from .words import (
    card_text,
    choice_label,
    discard_range,
    game_name,
    game_result,
    is_red,
    pretty,
    refusal,
    so_far,
    suit_text,
    task,
)

MAX_CARDS = 13
MAX_CHOICES = 16
DIGITS = tuple("0123456789")  # a key that is a digit ("²" is not: isdigit() says it is)

KEYS_BY_PHASE = {
    "auction": "Type your bid (as 25) then Enter, or click it, or ← → Enter.  p pass  h hint",
    "raise": "Click a choice, or ← → Enter.  h hint",
    "trump": "Click a suit, or its number then Enter, or ← → Enter.  h hint",
    "draw": "Click (or Space) marks a card to discard; Enter discards them.  h hint",
    "rob": "Click the card to give up for the turned-up card, or p to pass.",
    "rob-pack": "Pass, or open the pack to choose what to take and what to give.",
    "call": "Go alone, or call a card: ← → Enter, click Call, or type it (a s is A♠).",
    "play": "Click a card, or type it (5 h is 5♥), or ← → Enter.  h hint  l last trick",
    "booked": "Click a choice, or ← → Enter: ask an opponent 'booked?', or don't.",
    "answer": "Click your answer, or Enter.",
    "fold": "Fold or stay: click a choice, or ← → Enter.",
}


def bid_digits(arg: int) -> str:
    """The digits that type a bid in the auction: 25 is "25", 30 for 60 is "3060"."""
    return {BID_30_FOR_60: "3060", BID_60_FOR_120: "60120"}.get(arg, str(arg))


def compose_table() -> ComposeResult:
    """The title, the 3x3 table of seats, the scores and the log: shared with replays."""
    yield Static("", id="title", markup=False)
    with Horizontal(id="main"):
        with Grid(id="table"):
            for r in range(3):
                for c in range(3):
                    yield Static("", id=f"cell-{r}-{c}", classes="cell", markup=False)
        with Vertical(id="side"):
            yield Static("", id="scores", markup=False)
            log = RichLog(id="log", wrap=True, markup=False, max_lines=400, min_width=10)
            log.can_focus = False  # focused, it would take the arrow keys from the table
            yield log


@dataclass(frozen=True)
class Choice:
    """A button of the choices row: an action, or a step that opens a picker."""

    label: str
    action: Action | None
    kind: str = "act"  # act, discard (confirm the marked cards), call, pack


CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary; color: $text; padding: 0 1; }
#main { height: 1fr; }
#table { width: 1fr; grid-size: 3 3; grid-gutter: 0; }
.cell { height: 1fr; width: 1fr; padding: 0 1; content-align: center middle; }
.seat { border: round $panel-lighten-2; border-title-align: center;
        border-subtitle-align: center; padding: 0 1; text-align: center; }
.seat.to-act { border: heavy $accent; }
.seat.me { border: round $success; }
.seat.me.to-act { border: heavy $success; }
.info { border: blank; color: $text-muted; content-align: left top; }
#cell-1-1 { content-align: center middle; text-align: center; }
#side { width: 28; }
#scores { height: auto; border: round $panel-lighten-2; border-title-align: left;
          padding: 0 1; }
#log { height: 1fr; border: round $panel-lighten-2; border-title-align: left;
       scrollbar-size-vertical: 1; scrollbar-background: $surface;
       scrollbar-color: $panel-lighten-2; background: $surface; }
#hand { height: 4; padding: 0 1; }
.card { width: 5; height: 4; border: round $panel-lighten-2; content-align: center top;
        display: none; }
.card.shown { display: block; }
.card.red { color: $error; }
.card.legal { border: round $success; text-style: bold; }
.card.illegal { text-opacity: 55%; }
.card.cursor { border: double $accent; }
.card.marked { background: $warning 35%; }
#choices { height: 1; padding: 0 1; }
.choice { width: auto; height: 1; padding: 0 1; margin-right: 1; background: $boost;
          display: none; }
.choice.shown { display: block; }
.choice.illegal { text-opacity: 55%; }
.choice.cursor { background: $accent; color: $text; text-style: bold; }
#message { height: 2; padding: 0 1; }
.dialog { background: $surface; border: round $accent; padding: 0 1; }
#help-body { width: 78; height: 22; }
#review { width: 78; height: auto; max-height: 22; }
#review-body { height: auto; max-height: 19; }
#review-keys { height: 1; color: $accent; }
.small { width: auto; height: auto; max-width: 76; }
#call-grid { grid-size: 13 4; grid-gutter: 0; width: 66; height: 4; }
.pick { width: 5; height: 1; content-align: center middle; }
.pick.red { color: $error; }
.pick.illegal { text-opacity: 45%; }
.pick.marked { background: $warning 50%; }
.pick.mine { text-style: underline; }
.pick.cursor { background: $accent; color: $text; text-style: bold; }
.pick-row { grid-size: 13; grid-rows: 1; height: auto; width: 66; }
ModalScreen { align: center middle; }
"""


class TableApp(App[None]):
    """One game of Forty-Fives (or Forty One) against computer players."""

    CSS = CSS
    TITLE = "forties"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "Help"),
        Binding("h", "hint", "Hint"),
        Binding("u,ctrl+z", "undo", "Undo"),
        Binding("l", "last_trick", "Last trick"),
        Binding("r", "review", "Review", show=False),
        Binding("p", "pass", "Pass", show=False),
        # Priority: the table's keys, whatever widget has the focus; check_action lets
        # them through to a screen over the table (help, review, pickers).
        Binding("left", "move(-1)", show=False, priority=True),
        Binding("right", "move(1)", show=False, priority=True),
        Binding("up", "row(-1)", show=False, priority=True),
        Binding("down", "row(1)", show=False, priority=True),
        Binding("enter", "enter", show=False, priority=True),
        Binding("space", "mark", show=False, priority=True),
        Binding("escape", "clear", show=False, priority=True),
        Binding("ctrl+q", "quit", "Save & quit", priority=True),
        Binding("ctrl+c", "quit", show=False, priority=True),
    ]

    TABLE_KEYS = frozenset({"move", "row", "enter", "mark", "clear"})
    SLOW_SECONDS = 1.0  # a computer player or a hint taking longer shows its progress
    # An Enter this soon after digits that made a bid by themselves is part of typing it
    # ("2 5 Enter"), never a choice of the next moment (the trump, say).
    ENTER_AFTER_DIGITS = 1.0
    FIRST_SEARCH_NOTE = ("(the first search after an install compiles the solver once, up "
                         "to a minute; `forties warm-up` does it beforehand)")

    def __init__(self, session: Session, delay: float = 0.6, resumed: bool = False,
                 new_session: Callable[[], Session] | None = None, par: bool = True,
                 autoplay: bool = True, auto_next: float | None = None) -> None:
        super().__init__()
        self.session = session
        self.par = par
        self.delay = delay
        self.autoplay = autoplay  # play the person's only legal card by itself
        self.auto_next = auto_next  # seconds the review stays up before the next deal
        self.autoplay_hold: tuple[int, int] | None = None  # not again where undo landed
        self.thinking: str | None = None  # who is working something out: a name, "hint"
        self.thinking_since = 0.0
        self.resumed = resumed
        self.new_session = new_session
        self.cursor = 0
        self.choice_cursor = 0
        self.row = "hand"
        self.marked: set[str] = set()
        self.pending = ""
        self.amount = ""  # the digits of a bid typed so far in the auction
        self.amount_done = 0.0  # when typed digits last made (or tried) a bid
        self.shown: list[str] = []
        self.choices: list[Choice] = []
        self.timer: Timer | None = None
        self.reviewing = False
        self.last_review_hand = -1
        self.moment: tuple[Any, ...] = ()

    # ----- layout ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from compose_table()
        with Horizontal(id="hand"):
            for i in range(MAX_CARDS):
                yield CardSlot(i)
        with Horizontal(id="choices"):
            for i in range(MAX_CHOICES):
                yield ChoiceSlot(i)
        yield Static("", id="message", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        preset = game_name(s.record.rules.preset)
        self.title = f"forties · {preset}"
        self.query_one("#scores", Static).border_title = "Scores"
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#log", RichLog).border_title = "What happened"
        if self.resumed:
            self.log_lines([f"Resumed from {s.save_path}."])
            v = s.view()
            if not s.state.hand_over or s.new_hand_due:
                self.log_lines(s.opening())
                self.log_lines(so_far(v, s.names, s.human))
        else:
            self.log_lines(s.opening())
        self.refresh_table()
        self.set_interval(0.5, self.show_progress)
        if any(lv in ("expert", "oracle") for lv in s.levels):
            self.run_worker(self.load_search, thread=True, group="warm-up")
        self.after_change()

    @staticmethod
    def load_search() -> None:
        """Load the compiled search while the player looks at his cards, so the first
        expert decision takes a tenth of a second, not the second the loading takes."""
        from ..warmup import warm_up

        warm_up()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The table's keys work only at the table; over it, a screen has them."""
        return action not in self.TABLE_KEYS or self.at_table()

    def position(self) -> tuple[int, int]:
        """Where the game is: hands dealt and actions in the last one."""
        rec = self.session.record
        return len(rec.hands), len(rec.hands[-1].actions)

    def show_progress(self) -> None:
        """Seconds spent so far by a slow computer player or hint (twice a second)."""
        if self.thinking is None or not self.at_table():
            return
        spent = time.monotonic() - self.thinking_since
        if spent < self.SLOW_SECONDS:
            return
        who = "Thinking about a hint" if self.thinking == "hint" else \
            f"{self.thinking} is thinking"
        note = f" {self.FIRST_SEARCH_NOTE}" if spent >= 3 else ""
        self.say(f"{who}… {int(spent)} s{note}")

    # ----- the flow of the game -------------------------------------------------------

    def after_change(self) -> None:
        """Let the computer players act, or show the hand's review, or wait for you."""
        s = self.session
        if s.bots_turn:
            self.schedule_bots()
        elif s.my_turn:
            self.maybe_autoplay()
        elif s.state.hand_over and not self.reviewing and \
                self.last_review_hand != s.state.hand_index:
            if self.delay > 0 and self.timer is None:  # let the last trick be seen
                self.timer = self.set_timer(self.delay * 2.5, self.review_due)
            elif self.delay <= 0:
                self.show_review()

    def review_due(self) -> None:
        self.timer = None
        s = self.session
        if s.state.hand_over and not self.reviewing and \
                self.last_review_hand != s.state.hand_index:
            self.show_review()

    def forced_card(self) -> Action | None:
        """The person's card when it is his only legal play (and autoplay is on)."""
        s = self.session
        if not self.autoplay or not s.my_turn or s.view()["phase"] != "play" or \
                self.autoplay_hold == self.position():
            return None
        legal = s.legal()
        return legal[0] if len(legal) == 1 else None

    def maybe_autoplay(self) -> None:
        """Play a forced card by itself, after the same pause as a computer player's."""
        card = self.forced_card()
        if card is None:
            return
        if self.delay <= 0:
            self.do(card)
        elif self.timer is None:
            self.timer = self.set_timer(self.delay, self.autoplay_due)

    def autoplay_due(self) -> None:
        self.timer = None
        card = self.forced_card()
        if card is not None and self.at_table():
            self.do(card)

    def schedule_bots(self) -> None:
        if self.timer is not None or self.thinking is not None:
            return
        if self.delay <= 0:
            self.log_lines(self.session.run_bots())
            self.refresh_table()
            self.after_change()
            return
        v = self.session.view()
        pause = self.delay
        if v["phase"] == "play" and v["trick"] and not v["trick"]["cards"] and v["tricks"]:
            pause = self.delay * 2.5  # let the finished trick be seen
        self.timer = self.set_timer(pause, self.bot_step)

    def bot_step(self) -> None:
        """The computer player to act works out its action on a thread (an expert may
        search for a second or more; the table stays live and shows its progress)."""
        self.timer = None
        s = self.session
        if not s.bots_turn or self.thinking is not None:
            return
        decide = s.bot_decision()
        where = self.position()
        self.thinking = s.names[s.state.turn or 0]
        self.thinking_since = time.monotonic()

        def work() -> None:
            action = decide()
            self.call_from_thread(self.bot_decided, action, where)

        self.run_worker(work, thread=True, group="bots")

    def bot_decided(self, action: Action, where: tuple[int, int]) -> None:
        self.thinking = None
        s = self.session
        if where == self.position() and s.bots_turn:  # else undone meanwhile: think again
            self.log_lines(s.bot_step(action))
            self.refresh_table()
        self.after_change()

    def stop_bots(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def show_review(self, look_back: bool = False) -> None:
        s = self.session
        self.reviewing = True
        if s.state.over and self.last_review_hand != s.state.hand_index:
            self.log_lines([game_result(s.view(), s.names)])
        self.last_review_hand = s.state.hand_index
        auto = None if look_back or s.state.over else self.auto_next
        self.push_screen(ReviewScreen(s.review(), s.names, s.state.over, look_back, self.par,
                                      auto_next=auto), self.review_done)

    def review_done(self, result: str | None) -> None:
        self.reviewing = False
        s = self.session
        if result == "quit":
            self.exit()
        elif result == "next" and s.new_hand_due:
            self.log_lines(s.next_hand())
            self.marked.clear()
            self.cursor = 0
            self.refresh_table()
            self.after_change()
        elif result == "new-game" and s.state.over and self.new_session is not None:
            self.session = self.new_session()
            self.query_one("#log", RichLog).clear()
            self.log_lines(["A new game.", *self.session.opening()])
            self.last_review_hand = -1
            self.refresh_table()
            self.after_change()
        else:
            self.refresh_table()

    def do(self, action: Action) -> bool:
        """Make the player's action, or explain why it is not allowed."""
        s = self.session
        if not s.my_turn:
            return False
        why = s.reason(action)
        if why is not None:
            self.say(refusal(s.view(), action, why), error=True)
            self.bell()
            return False
        self.log_lines(s.act(action))
        self.marked.clear()
        self.pending = ""
        self.amount = ""
        self.refresh_table()
        self.after_change()
        return True

    # ----- drawing the table ----------------------------------------------------------

    def log_lines(self, lines: list[str]) -> None:
        log = self.query_one("#log", RichLog)
        for line in lines:
            log.write(Text(pretty(line)))

    def say(self, text: str, error: bool = False) -> None:
        """The message under the choices: ``text`` and, below it, the keys of the moment."""
        msg = self.query_one("#message", Static)
        out = Text(text, style="bold red" if error else "bold")
        keys = self.keys_now()
        if keys:
            out.append("\n" + keys, style="dim")
        msg.update(out)

    def keys_now(self) -> str:
        s = self.session
        if not s.my_turn:
            return "? help   l last trick   ctrl+q save and quit"
        v = s.view()
        if v["game"] == "forty-one" and v["phase"] == "auction":
            return "Type your bid (1 to 13) then Enter, or click it, or ← → Enter.  h hint"
        return KEYS_BY_PHASE.get(v["phase"], "")

    def refresh_table(self) -> None:
        s = self.session
        v = s.view()
        legal = s.legal()
        moment = (v["hand_index"], v["phase"], v["to_act"])
        if moment != self.moment:  # a new step of the hand: the cursor goes where it acts
            self.moment = moment
            # Calling a partner starts on its choices: a card of one's own hand is rarely
            # the card to call.
            self.row = "hand" if self.card_phase(v["phase"]) and v["phase"] != "call" \
                else "choices"
            self.choice_cursor = -1  # on the first legal choice, once the choices are made
            self.pending = ""
            self.amount = ""
        self.draw_title(v)
        self.draw_seats(v)
        self.draw_scores(v)
        self.draw_hand(v, legal)
        self.draw_choices(v, legal)
        if s.my_turn:
            self.say(pretty(task(v, legal, s.names)))
        elif s.state.hand_over:
            self.say("The hand is over. Enter: the review and the next hand."
                     if not s.state.over else "The game is over. r: the last hand's review.")
        elif self.thinking is None or time.monotonic() - self.thinking_since < \
                self.SLOW_SECONDS:
            self.say(f"{s.names[v['to_act']]} is thinking…")

    def draw_title(self, v: dict[str, Any]) -> None:
        bits = [self.title, f"Hand {v['hand_index'] + 1}"]
        if v.get("trump"):
            bits.append(f"Trump {suit_text(v['trump'])}")
        self.query_one("#title", Static).update(Text("  ·  ".join(bits)))

    def draw_seats(self, v: dict[str, Any]) -> None:
        s = self.session
        draw_table(self, v, s.names, s.human, s.human)

    def draw_scores(self, v: dict[str, Any]) -> None:
        s = self.session
        self.query_one("#scores", Static).update(
            scores_text(v, s.names, s.human, s.record.rules.target))

    def draw_hand(self, v: dict[str, Any], legal: Any) -> None:
        phase = v["phase"]
        self.shown = sort_hand(v["hand"], v.get("trump"), v["game"])
        playable: set[str] = set()
        if self.session.my_turn and phase == "play":
            playable = {str(a).split()[-1] for a in legal}
        kitty = set(v.get("kitty") or []) if phase == "draw" else set()
        self.cursor = min(self.cursor, max(len(self.shown) - 1, 0))
        for i in range(MAX_CARDS):
            slot = self.query_one(f"#slot-{i}", CardSlot)
            if i >= len(self.shown):
                slot.card = None
                slot.set_classes("card")
                continue
            c = self.shown[i]
            slot.card = c
            cls = ["card", "shown"]
            if is_red(c):
                cls.append("red")
            if phase == "play" and self.session.my_turn:
                cls.append("legal" if c in playable else "illegal")
            if c in self.marked:
                cls.append("marked")
            if self.session.my_turn and self.row == "hand" and i == self.cursor and \
                    self.card_phase(phase):
                cls.append("cursor")
            slot.set_classes(" ".join(cls))
            key = str(i + 1) if i < 9 else ("0" if i == 9 else "")
            mark = "✕" if c in self.marked else ""
            label = Text(f"{card_text(c):>3}\n")
            label.append(f"{mark}{key}{'k' if c in kitty and not mark else ''}".center(3),
                         style="dim")
            slot.update(label)

    @staticmethod
    def card_phase(phase: str) -> bool:
        return phase in ("play", "draw", "rob", "call")

    def draw_choices(self, v: dict[str, Any], legal: Any) -> None:
        s = self.session
        self.choices = self.make_choices(v, legal) if s.my_turn else []
        if not self.choices:
            self.row = "hand"
        if self.choice_cursor < 0:
            self.choice_cursor = next((i for i, ch in enumerate(self.choices) if ch.kind != "act"
                                       or ch.action is None or s.reason(ch.action) is None), 0)
        self.choice_cursor = min(self.choice_cursor, max(len(self.choices) - 1, 0))
        for i in range(MAX_CHOICES):
            slot = self.query_one(f"#choice-{i}", ChoiceSlot)
            if i >= len(self.choices):
                slot.set_classes("choice")
                continue
            ch = self.choices[i]
            cls = ["choice", "shown"]
            if ch.kind == "act" and ch.action is not None and s.reason(ch.action) is not None:
                cls.append("illegal")
            if self.row == "choices" and i == self.choice_cursor:
                cls.append("cursor")
            slot.set_classes(" ".join(cls))
            # In the auction the digits typed are a bid's amount, not a choice's number.
            key = "" if v["phase"] == "auction" else str(i + 1) if i < 9 else \
                ("0" if i == 9 else "")
            slot.update(f"{key} {ch.label}" if key and ch.label != str(i + 1) else ch.label)

    def make_choices(self, v: dict[str, Any], legal: Any) -> list[Choice]:
        """The buttons for this moment; illegal ones are shown too, and explained."""
        s = self.session
        seat = s.human
        phase = v["phase"]
        rules = s.record.rules
        acts: list[Action] = []
        if phase == "auction":
            if v["game"] == "forty-one":
                acts = [Action(seat, Verb.BID, k) for k in range(1, 14)]
            else:
                assert isinstance(rules, FortyFivesRules)
                acts = [Action(seat, Verb.PASS)] + [Action(seat, Verb.BID, b)
                                                    for b in bid_ladder(rules)]
                if rules.dealer_may_hold and seat == v["dealer"]:
                    acts.append(Action(seat, Verb.HOLD))
        elif phase == "raise":  # naming trump (or going on the kitty) keeps the bid
            acts = [Action(seat, Verb.PASS), Action(seat, Verb.RAISE, 30)]
            acts += [a for a in legal if a.verb in (Verb.TRUMP, Verb.DISCARD)]
        elif phase == "trump":
            acts = [Action(seat, Verb.TRUMP, t) for t in (3, 2, 0, 1)]
            acts += [a for a in legal if a.verb is Verb.DISCARD]
        elif phase == "draw":
            k = len(self.marked)
            lo, _ = discard_range(legal)
            label = f"Discard {k} marked" if k else ("Keep all my cards" if lo == 0
                                                      else "Mark cards to discard")
            return [Choice(label, None, "discard")]
        elif phase == "rob":
            acts = [Action(seat, Verb.PASS)]
        elif phase == "rob-pack":
            return [Choice("Don't rob", Action(seat, Verb.PASS)),
                    Choice("Rob the pack…", None, "pack")]
        elif phase == "call":
            return [Choice("Go alone", Action(seat, Verb.CALL, 0)),
                    Choice("Call a card…", None, "call")]
        elif phase in ("booked", "answer", "fold"):
            acts = list(legal)
        return [Choice(choice_label(v, a), a) for a in acts]

    # ----- input ----------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        # Any other key between the digits that made a bid and an Enter (arrows and space
        # included, which bindings take before on_key) makes that Enter the next moment's.
        if isinstance(event, events.Key) and not event.is_forwarded and event.key != "enter":
            self.amount_done = 0.0
        await super().on_event(event)

    def on_key(self, event: events.Key) -> None:
        """Digits point at a card or choice (in the auction they are the bid's amount);
        a rank then a suit names a card."""
        s = self.session
        if not s.my_turn or self.reviewing or len(self.screen_stack) > 1:
            return
        ch = (event.character or "").upper()
        if not ch:
            return
        phase = s.view()["phase"]
        if phase == "auction" and ch in DIGITS:
            event.stop()
            self.type_amount(ch)
            return
        if self.pending and ch in "CDHS":
            event.stop()
            event.prevent_default()  # "5 h" is the five of hearts, not a hint
            self.typed_card(ch)
            return
        if self.pending == "1" and ch == "0":
            self.pending = "10"
            event.stop()
            return
        if ch in DIGITS:
            event.stop()
            index = 9 if ch == "0" else int(ch) - 1
            if self.card_phase(phase) and self.row == "hand":
                if index < len(self.shown):
                    self.cursor = index
                self.pending = ch
            elif index < len(self.choices):
                self.choice_cursor = index
                self.row = "choices"
            self.refresh_table()
            if phase == "call":
                self.pending = ch  # "5 s" calls the 5 of spades
            return
        if ch in "TJQKA" and self.card_phase(phase):
            self.pending = ch
            event.stop()
            return
        self.pending = ""

    # ----- a bid typed by its amount ---------------------------------------------------

    def amounts(self) -> dict[str, int]:
        """The auction's bids by the digits that type them: {"15": choice index, ...}."""
        return {bid_digits(ch.action.arg): i for i, ch in enumerate(self.choices)
                if ch.action is not None and ch.action.verb is Verb.BID}

    def bids_listed(self) -> str:
        amounts = list(self.amounts())
        if self.session.view()["game"] == "forty-one":
            return f"the bids are {amounts[0]} to {amounts[-1]}"
        plain = [a for a in amounts if a not in ("3060", "60120")]
        extra = "; 3060 is 30 for 60" if "3060" in amounts else ""
        return f"the bids are {', '.join(plain)}{extra}"

    def type_amount(self, digit: str) -> None:
        """One more digit of the bid: the bid is made once the digits can only be that
        amount (in Forty One, 12; else on Enter); digits that are no bid are refused."""
        typed = self.amount + digit
        amounts = self.amounts()
        could_be = [a for a in amounts if a.startswith(typed)]
        if not could_be:
            self.amount = ""
            self.say(f"{typed} is not a bid: {self.bids_listed()}.", error=True)
            self.bell()
            return
        self.amount = typed
        if typed in amounts:
            self.choice_cursor, self.row = amounts[typed], "choices"
        if could_be == [typed]:
            self.bid_typed()
            # Timed from when the bid and the computers' answers to it are done (with no
            # delay they answer here, an expert for seconds), so the Enter typed meanwhile
            # is still the digits' and not a choice of the moment that follows.
            self.amount_done = time.monotonic()
            return
        self.refresh_table()
        self.say(f"Your bid: {typed}… Enter to bid it, or more digits (Esc clears)."
                 if typed in amounts else f"Your bid: {typed}…")

    def bid_typed(self) -> None:
        """Make the bid of the digits typed, or say why there is none."""
        typed, self.amount = self.amount, ""
        index = self.amounts().get(typed)
        if index is None:
            self.refresh_table()
            self.say(f"{typed} is not a bid: {self.bids_listed()}.", error=True)
            self.bell()
            return
        self.choice_cursor, self.row = index, "choices"
        action = self.choices[index].action
        assert action is not None
        self.refresh_table()
        self.do(action)  # or says why not (a bid under the high bid, say)

    def typed_card(self, suit: str) -> None:
        """The rank typed so far (``self.pending``) and ``suit``: a card by name."""
        card = ("T" if self.pending in ("10", "1") else self.pending) + suit
        self.pending = ""
        self.card_key(card)

    def card_key(self, card: str) -> None:
        """A card typed by name: play it, mark it, give it up, or call it."""
        if card not in self.shown and self.session.view()["phase"] != "call":
            self.say(f"You don't hold {card_text(card)}.", error=True)
            self.bell()
            return
        if card in self.shown:
            self.cursor = self.shown.index(card)
        self.activate(card)

    def activate(self, card: str) -> None:
        s = self.session
        v = s.view()
        phase = v["phase"]
        bit = 1 << parse_card(card)
        if phase == "play":
            self.do(Action(s.human, Verb.PLAY, bit))
        elif phase == "draw":
            self.marked ^= {card}
            self.refresh_table()
            lo, hi = discard_range(s.legal())
            self.say(f"{len(self.marked)} marked to discard ({lo} to {hi} allowed). "
                     "Enter to discard them.")
        elif phase == "rob":
            self.do(Action(s.human, Verb.ROB, bit))
        elif phase == "call":
            self.called(card)
        else:
            self.say("Choose from the row below the cards (← → and Enter, or a number).")

    @on(CardPicked)
    def card_clicked(self, event: CardPicked) -> None:
        if not self.session.my_turn:
            return
        if event.card in self.shown:
            self.cursor = self.shown.index(event.card)
        self.row = "hand"
        self.activate(event.card)

    @on(ChoicePicked)
    def choice_clicked(self, event: ChoicePicked) -> None:
        if not self.session.my_turn or event.index >= len(self.choices):
            return
        self.choice_cursor = event.index
        self.choose(self.choices[event.index])

    def choose(self, ch: Choice) -> None:
        s = self.session
        if ch.kind == "act" and ch.action is not None:
            self.do(ch.action)
        elif ch.kind == "discard":
            self.confirm_discard()
        elif ch.kind == "call":
            allowed = [str(a).split()[-1] for a in s.legal() if a.verb is Verb.CALL and a.arg]

            def check(card: str) -> str | None:
                a = Action(s.human, Verb.CALL, 1 << parse_card(card))
                why = s.reason(a)
                return refusal(s.view(), a, why) if why else None

            self.push_screen(CallScreen(allowed, self.shown, check), self.called)
        elif ch.kind == "pack":
            v = s.view()

            def check_rob(mask: int) -> str | None:
                why = s.reason(Action(s.human, Verb.ROB, mask))
                return pretty(why) if why else None

            self.push_screen(PackScreen(v.get("pack") or [], self.shown, check_rob),
                             self.robbed)

    def called(self, card: str | None) -> None:
        """Call ``card``; one of the caller's own cards (going alone) is asked again."""
        if card is None:
            return
        s = self.session
        action = Action(s.human, Verb.CALL, 1 << parse_card(card))
        if card not in self.shown or s.reason(action) is not None:
            self.do(action)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.do(action)
            else:
                self.say("Not called. Call another card, or go alone.")

        self.push_screen(ConfirmScreen(
            f"{card_text(card)} is in your own hand: calling it means you play alone, "
            "with no partner. Call it?"), confirmed)

    def robbed(self, mask: int | None) -> None:
        if mask is not None:
            self.do(Action(self.session.human, Verb.ROB, mask))

    def confirm_discard(self) -> None:
        self.do(Action(self.session.human, Verb.DISCARD, mask_of_names(self.marked)))

    # ----- actions (keys) -------------------------------------------------------------

    def at_table(self) -> bool:
        """Whether the table itself is in front (no help, review or picker over it)."""
        return len(self.screen_stack) == 1

    def action_move(self, step: int) -> None:
        if not self.at_table():
            return
        if self.row == "hand" and self.shown:
            self.cursor = (self.cursor + step) % len(self.shown)
        elif self.choices:
            self.choice_cursor = (self.choice_cursor + step) % len(self.choices)
        self.pending = ""
        self.amount = ""
        self.refresh_table()

    def action_row(self, step: int) -> None:
        if not self.at_table():
            return
        phase = self.session.view()["phase"]
        if self.choices and self.card_phase(phase):
            self.row = "choices" if self.row == "hand" else "hand"
            self.refresh_table()
        elif self.choices:  # one row only (bids, suits): ↑ ↓ move along it too
            self.action_move(step)

    def action_enter(self) -> None:
        if not self.at_table():
            return
        s = self.session
        if s.state.hand_over and not self.reviewing:
            self.show_review(look_back=s.state.over)
            return
        if not s.my_turn:
            return
        phase = s.view()["phase"]
        self.pending = ""
        if phase == "auction" and self.amount:
            self.bid_typed()
            return
        if time.monotonic() - self.amount_done < self.ENTER_AFTER_DIGITS:
            self.amount_done = 0.0  # "2 5 Enter": the digits made the bid; Enter is theirs
            return
        if phase == "draw":
            self.confirm_discard()
        elif self.row == "hand" and self.card_phase(phase) and self.shown:
            self.activate(self.shown[self.cursor])
        elif self.choices:
            self.choose(self.choices[self.choice_cursor])

    def action_mark(self) -> None:
        if not self.at_table():
            return
        s = self.session
        if s.my_turn and s.view()["phase"] == "draw" and self.shown:
            self.activate(self.shown[self.cursor])
        else:
            self.action_enter()

    def action_clear(self) -> None:
        if not self.at_table():
            return
        self.pending = ""
        if self.amount:
            self.amount = ""
            self.refresh_table()
        if self.marked:
            self.marked.clear()
            self.refresh_table()

    def action_pass(self) -> None:
        if not self.at_table():
            return
        s = self.session
        if s.my_turn:
            self.do(Action(s.human, Verb.PASS))

    def action_hint(self) -> None:
        if not self.at_table():
            return
        s = self.session
        if self.pending:  # "5 h" is the five of hearts, not a hint
            self.typed_card("H")
            return
        if not s.my_turn:
            self.say("A hint is for your turn.")
            return
        self.say("Thinking about a hint…")
        where = self.position()
        if self.thinking is None:
            self.thinking, self.thinking_since = "hint", time.monotonic()
        state = s.state.clone()
        self.run_worker(lambda: self.think(state, where), thread=True, exclusive=True,
                        group="hint")

    def think(self, state: GameState, where: tuple[int, int]) -> None:
        adv = advice.hint(state, self.session.human)
        self.call_from_thread(self.show_hint, adv, where)

    def show_hint(self, adv: advice.Advice, where: tuple[int, int]) -> None:
        s = self.session
        if self.thinking == "hint":
            self.thinking = None
        if where != self.position() or not s.my_turn:
            return  # the game moved on while the hint was being worked out
        v = s.view()
        if adv.action.verb in (Verb.PLAY, Verb.ROB) and adv.action.arg.bit_count() == 1:
            c = str(adv.action).split()[-1]
            if c in self.shown:
                self.cursor, self.row = self.shown.index(c), "hand"
        elif adv.action.verb is Verb.DISCARD and v["phase"] == "draw":
            self.marked = set(str(adv.action).split()[2:])
        else:
            for i, ch in enumerate(self.choices):
                if ch.action == adv.action:
                    self.choice_cursor, self.row = i, "choices"
        self.refresh_table()
        self.say(hint_line(v, adv))

    def action_undo(self) -> None:
        if not self.at_table():
            return
        self.stop_bots()
        if self.session.undo():
            self.autoplay_hold = self.position()  # a forced card undone is not replayed
            self.marked.clear()
            self.log_lines(["Undone: your last action and the computer players' after it."])
            self.last_review_hand = -1 if not self.session.state.hand_over else \
                self.last_review_hand
            self.refresh_table()
            self.after_change()
        else:
            self.say("Nothing to undo yet.")

    def action_last_trick(self) -> None:
        if not self.at_table():
            return
        self.push_screen(LastTrickScreen(self.session.view(), self.session.names))

    def action_review(self) -> None:
        """The review of the last finished hand: this one once it is over, else the one
        before it."""
        if not self.at_table():
            return
        s = self.session
        if s.state.hand_over:
            self.show_review(look_back=True)
        elif len(s.record.hands) > 1:
            self.push_screen(ReviewScreen(s.review(len(s.record.hands) - 2), s.names, False,
                                          True, self.par), self.review_done)
            self.reviewing = True
        else:
            self.say("No hand has finished yet: its review comes when it is over.")

    def action_help(self) -> None:
        if not self.at_table():
            return
        self.push_screen(HelpScreen(self.session.record.rules))

