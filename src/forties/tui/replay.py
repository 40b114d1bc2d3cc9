"""``forties replay``: step through any game record with every hand visible.

The record is replayed once into frames, one per action (and one at the start of
each hand); the screen shows a frame: each seat's cards in its place, the trick,
trump, the bid, the kitty, the scores, and what happened so far in the hand. An
illegal action ends the frames with the referee's reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, TextIO

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Footer, RichLog, Static

from ..actions import Action, ActionSyntaxError
from ..cards import CARD_NAMES
from ..record import Record, RecordError, Replay
from ..show import sort_hand
from ..state import DealError, GameState
from .app import CSS, compose_table
from .table import draw_table, scores_text
from .words import cards_text, game_name, hand_start, narrate, pretty


@dataclass
class Frame:
    """The game after ``index`` actions of hand ``hand``, and those actions in words."""

    hand: int
    index: int
    state: GameState
    lines: list[str] = field(default_factory=list)


def build_frames(record: Record) -> tuple[list[Frame], str | None]:
    """Every position of ``record`` in order, and why the replay stopped early (or None)."""
    names = record.players
    frames: list[Frame] = []
    replay = Replay(record)
    try:
        for h, st in replay.states():
            before = st.view(None)
            frames.append(Frame(h, 0, st.clone(), hand_start(before, names, None, False)))
            for i, text in enumerate(record.hands[h].actions):
                try:
                    a = Action.parse(text)
                except ActionSyntaxError as e:
                    return frames, f"hand {h + 1}, action {i + 1}: {e}"
                why = st.reason(a)
                if why is not None:
                    return frames, f"hand {h + 1}, action {i + 1} ({text}) is illegal: {why}"
                st.apply(a)
                after = st.view(None)
                lines = narrate(before, after, names, None, False, actions=[text])
                frames.append(Frame(h, i + 1, st.clone(), lines))
                before = after
    except (RecordError, DealError) as e:
        return frames, str(e)
    return frames, None


class ReplayApp(App[None]):
    """The replay viewer: ← → one action, PgUp PgDn one hand, Home End."""

    CSS = CSS + """
    .seat { content-align: center top; }
    #help-line { height: 1; padding: 0 1; color: $text-muted; }
    """
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,n", "step(1)", "Next"),
        Binding("left,backspace,b", "step(-1)", "Back"),
        Binding("pagedown,right_square_bracket", "hand(1)", "Next hand"),
        Binding("pageup,left_square_bracket", "hand(-1)", "Previous hand"),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("q,escape,ctrl+c", "quit", "Quit"),
    ]

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record
        self.frames, self.stopped = build_frames(record)
        self.at = 0

    def compose(self) -> ComposeResult:
        yield from compose_table()
        yield Static("", id="message", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        preset = game_name(self.record.rules.preset)
        self.title = f"Replay · {preset}"
        self.query_one("#scores", Static).border_title = "Scores"
        self.query_one("#log", RichLog).can_focus = False
        self.query_one("#log", RichLog).border_title = "This hand"
        self.show()

    def show(self) -> None:
        msg = self.query_one("#message", Static)
        if not self.frames:
            msg.update(Text(f"Nothing to replay: {self.stopped or 'the record has no hands'}"))
            return
        f = self.frames[self.at]
        st = f.state
        v = st.view(None)
        names = self.record.players
        hands = len(self.record.hands)
        total = len(self.record.hands[f.hand].actions)
        self.query_one("#title", Static).update(Text(
            f"{self.title}  ·  hand {f.hand + 1} of {hands}  ·  action {f.index} of {total}"))

        def hand_of(seat: int) -> list[str]:
            return sort_hand(st.view(seat)["hand"], v.get("trump"), v["game"])

        deal = self.record.hands[f.hand].deal
        kitty = [CARD_NAMES[c] for c in deal.kitty]
        draw_table(self, v, names, 0, None, hand_of, kitty)
        self.query_one("#scores", Static).update(
            scores_text(v, names, None, self.record.rules.target))
        log = self.query_one("#log", RichLog)
        log.clear()
        start = self.at
        while start > 0 and self.frames[start].hand == f.hand and self.frames[start].index > 0:
            start -= 1
        for fr in self.frames[start:self.at + 1]:
            for line in fr.lines:
                log.write(Text(pretty(line)))
        last = self.at == len(self.frames) - 1
        if last and self.stopped:
            msg.update(Text(f"The record stops here: {pretty(self.stopped)}", style="bold red"))
        elif last:
            msg.update(Text("The end of the record." + (
                "" if st.over else " (The game was not finished.)")))
        else:
            nxt = self.record.hands[f.hand].actions[f.index] if f.index < total else None
            msg.update(Text(f"Next: {pretty(nxt)}" if nxt else "Next: the next deal"))

    def action_step(self, step: int) -> None:
        self.at = max(0, min(len(self.frames) - 1, self.at + step))
        self.show()

    def action_hand(self, step: int) -> None:
        if not self.frames:
            return
        here = self.frames[self.at].hand
        target = max(0, min(here + step, self.frames[-1].hand))
        if step < 0 and self.frames[self.at].index > 0:
            target = here
        self.at = next(i for i, f in enumerate(self.frames) if f.hand == target)
        self.show()

    def action_go(self, where: int) -> None:
        self.at = where % max(len(self.frames), 1)
        self.show()


def replay_plain(record: Record, out: TextIO) -> int:
    """The whole record as lines, every hand visible; exit status 1 if it has an illegal
    action."""
    frames, stopped = build_frames(record)
    names = record.players
    for f in frames:
        if f.index == 0:
            out.write("\n" if f.hand else "")
            for line in f.lines:
                out.write(pretty(line, False) + "\n")
            deal = record.hands[f.hand].deal
            v = f.state.view(None)
            for seat, cards in enumerate(deal.hands):
                shown = sort_hand([CARD_NAMES[c] for c in cards], v.get("trump"), v["game"])
                out.write(f"{names[seat]}: {cards_text(shown, False)}\n")
            if deal.kitty:
                out.write(f"Kitty: {cards_text([CARD_NAMES[c] for c in deal.kitty], False)}\n")
            continue
        for line in f.lines:
            out.write(pretty(line, False) + "\n")
    if stopped:
        out.write(f"The record stops here: {pretty(stopped, False)}\n")
        return 1
    if frames and frames[-1].state.over:
        from ..show import game_end

        out.write(game_end(frames[-1].state, record) + "\n")
    return 0

