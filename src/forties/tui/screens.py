"""Screens over the table: help with the rules being played, the end-of-hand review,
the last trick, and the pickers for calling a partner and robbing the pack."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..cards import CARD_NAMES, card_name, mask_of_names
from ..rules import Rules, describe
from ..show import sort_hand
from . import advice
from .session import HandReview
from .table import cards_line
from .widgets import CardPicked, PickCard
from .words import (
    bid_words,
    card_text,
    game_result,
    hand_result,
    is_red,
    rank_tables,
    rules_in_words,
    suit_text,
)

KEYS_HELP = """\
Playing with the keyboard
  ← →       move along your cards (or the choices)    ↑ ↓  switch rows
  Enter     play the card, or make the choice, under the cursor
  1-9, 0    point at the card or choice of that number, then Enter
  2 5 Enter in the auction, the digits typed are your bid (3060: 30 for 60)
  5 h, t d  type a card, rank then suit (t is ten): it is played
  Space     mark a card to discard; Enter discards the marked cards
  p         pass              h  a hint: the computer's choice and why
  u         undo your last action (and the computer players' after it)
  l         the last trick    r  the last finished hand's review
  ? or F1   this help         Ctrl+Q  save and quit
With the mouse: click a card to play it (or mark it), or click a choice.
The game is saved after every action: forties play --resume FILE."""


def _card(name: str, style: str = "") -> Text:
    return Text(card_text(name), style=("red " if is_red(name) else "") + style)


class HelpScreen(ModalScreen[None]):
    """The keys, and the rules of the preset being played, in words and in full."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark,f1", "close", "Close")]

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules

    def compose(self) -> ComposeResult:
        text = Text()
        text.append("Help  (Esc to close, ↑ ↓ to scroll)\n\n", style="bold")
        text.append(KEYS_HELP + "\n\n")
        text.append("The rules being played\n", style="bold")
        for para in rules_in_words(self.rules):
            text.append("• " + para + "\n")
        if self.rules.game == "forty-fives":
            text.append("\nThe cards\n", style="bold")
            text.append("\n".join(rank_tables()) + "\n")
        text.append("\nEvery option\n", style="bold")
        text.append(describe(self.rules) + "\n")
        with VerticalScroll(id="help-body", classes="dialog"):
            yield Static(text, markup=False)

    def action_close(self) -> None:
        self.dismiss(None)


def review_text(r: HandReview, names: Sequence[str]) -> Text:
    """The end-of-hand review: the hands as dealt, the tricks, the points, the scores."""
    v = r.view
    n = v["players"]
    out = Text()
    out.append(f"Hand {r.hand_index + 1} is over", style="bold")
    out.append(f"  (dealer {names[r.dealer]})\n")
    if v["game"] == "forty-fives" and v.get("bid"):
        out.append(f"{names[v['bidder']]} bid {bid_words(v, v['bid'])}; trump "
                   f"{suit_text(v['trump'])}\n")
    out.append("The hands as dealt\n", style="bold")
    width = max(len(x) for x in names) + 1
    for seat, cards in enumerate(r.deal.hands):
        shown = sort_hand([card_name(c) for c in cards], v.get("trump"), v["game"])
        out.append(f"  {names[seat]:<{width}} ")
        out.append_text(cards_line(shown))
        out.append("\n")
    if r.deal.kitty:
        out.append(f"  {'Kitty':<{width}} ")
        out.append_text(cards_line([CARD_NAMES[c] for c in r.deal.kitty]))
        out.append("\n")
    if v.get("up_card"):
        out.append("  Turned up: ")
        out.append_text(_card(v["up_card"]))
        out.append("\n")
    if r.tricks:
        out.append("The tricks\n", style="bold")
    for i, t in enumerate(r.tricks):
        out.append(f"  {i + 1:>2}  ")
        for k, c in enumerate(t["cards"]):
            seat = (t["leader"] + k) % n
            if k:
                out.append("  ")
            out.append(f"{names[seat]} ")
            out.append_text(_card(c, "bold" if seat == t["winner"] else ""))
        out.append(f"  → {names[t['winner']]}\n")
    if v["game"] == "forty-one" and any(b is not None for b in v["bids"]):
        out.append("Bids: " + ", ".join(f"{names[s]} {b}" for s, b in enumerate(v["bids"]))
                   + "\n")
    if not r.tricks:
        if v["game"] == "forty-one":
            out.append(f"The bids total {sum(b or 0 for b in v['bids'])}, too few: the hand "
                       "is thrown in.\n")
        else:
            out.append("Everyone passed: the hand is thrown in.\n")
    else:
        for line in hand_result(v, names):
            out.append(line + "\n")
    if v["over"]:
        out.append(game_result(v, names) + "\n", style="bold")
    return out


class ReviewScreen(ModalScreen[str]):
    """Every hand revealed after the hand; Enter for the next hand (or a new game)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "next", "Next hand"),
        Binding("n", "new_game", "New game", show=False),
        Binding("escape", "close", "Back to the table"),
        Binding("ctrl+q,q", "quit", "Quit"),
    ]

    def __init__(self, review: HandReview, names: Sequence[str], game_over: bool,
                 look_back: bool = False, par: bool = True,
                 auto_next: float | None = None) -> None:
        super().__init__()
        self.auto_next = auto_next  # seconds before the next hand deals itself, if set
        self.review = review
        self.par = par
        self.names = list(names)
        self.game_over = game_over
        self.look_back = look_back

    def compose(self) -> ComposeResult:
        with Vertical(id="review", classes="dialog"):
            with VerticalScroll(id="review-body"):
                yield Static(review_text(self.review, self.names), id="review-text",
                             markup=False)
                yield Static("", id="par", markup=False)
            if self.look_back:
                foot = "Esc or Enter: back to the table"
            elif self.game_over:
                foot = "n: a new game    q: quit    Esc: look at the table"
            elif self.auto_next is not None:
                foot = f"The next hand deals itself in {self.auto_next:.0f} s.  Enter: now"
            else:
                foot = "Enter: deal the next hand    Esc: look at the table first"
            yield Static(foot, id="review-keys", markup=False)

    def on_mount(self) -> None:
        if self.auto_next is not None:
            self.set_timer(self.auto_next, self.action_next)
        if self.review.play_start is not None and self.par:
            self.query_one("#par", Static).update("Working out the double-dummy par…")
            self.solve_par()
        else:
            self.query_one("#par", Static).display = False

    @work(thread=True, exclusive=True)
    def solve_par(self) -> None:
        assert self.review.play_start is not None
        text = advice.par(self.review.play_start, self.names)
        self.app.call_from_thread(self.show_par, text)

    def show_par(self, text: str | None) -> None:
        par = self.query_one("#par", Static)
        if text:
            par.update(text)
        else:
            par.display = False

    def action_next(self) -> None:
        self.dismiss("close" if self.look_back else "new-game" if self.game_over else "next")

    def action_new_game(self) -> None:
        if self.game_over and not self.look_back:
            self.dismiss("new-game")

    def action_close(self) -> None:
        self.dismiss("close")

    def action_quit(self) -> None:
        self.dismiss("quit")


class LastTrickScreen(ModalScreen[None]):
    """The last trick played, on demand."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,enter,space,l", "close", "Close")]

    def __init__(self, view: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.view_ = view
        self.names = list(names)

    def compose(self) -> ComposeResult:
        v = self.view_
        text = Text()
        if not v["tricks"]:
            text.append("No trick has been played yet this hand.")
        else:
            t = v["tricks"][-1]
            text.append(f"Trick {len(v['tricks'])}\n", style="bold")
            for k, c in enumerate(t["cards"]):
                seat = (t["leader"] + k) % v["players"]
                text.append(f"  {self.names[seat]:<8} ")
                text.append_text(_card(c, "bold" if seat == t["winner"] else ""))
                text.append("  led\n" if k == 0 else "\n")
            text.append(f"{self.names[t['winner']]} won it.")
        text.append("\n\nAny key to close", style="dim")
        yield Static(text, id="last-trick", classes="dialog small", markup=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


CALL_GRID = [rank + suit for suit in "SHCD" for rank in "AKQJT98765432"]  # 4 rows of 13


class CallScreen(ModalScreen[str | None]):
    """Call Your Partner: pick the card whose holder partners you (or go alone): click
    it, type it, or move to it with the arrow keys and press Enter."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Cancel"),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("up", "move(-13)", show=False),
        Binding("down", "move(13)", show=False),
        Binding("enter,space", "pick", "Call"),
    ]

    def __init__(self, allowed: Sequence[str], hand: Sequence[str] = (),
                 check: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.allowed = set(allowed)
        self.hand = set(hand)
        self.check = check  # why a card may not be called, in the player's words
        self.rank = ""
        # The cursor starts on the best card one may call and does not hold.
        self.cursor = next((i for i, c in enumerate(CALL_GRID)
                            if c in self.allowed and c not in self.hand), 0)

    def compose(self) -> ComposeResult:
        with Vertical(id="call", classes="dialog small"):
            yield Static("Call a card: its holder is your partner for this hand.\n"
                         "Click it, type it (5 s is 5♠), or ← → ↑ ↓ and Enter. Esc: back.",
                         markup=False)
            with Grid(id="call-grid"):
                for i, name in enumerate(CALL_GRID):
                    cls = ("red " if is_red(name) else "") + (
                        "legal" if name in self.allowed else "illegal") + (
                        " cursor" if i == self.cursor else "") + (
                        " mine" if name in self.hand else "")
                    yield PickCard(name, card_text(name), cls)
            yield Static("", id="call-message", markup=False)

    @on(CardPicked)
    def picked(self, event: CardPicked) -> None:
        event.stop()
        self.choose(event.card)

    def action_move(self, step: int) -> None:
        old = self.query_one(f"#pick-{CALL_GRID[self.cursor]}", Static)
        old.remove_class("cursor")
        self.cursor = (self.cursor + step) % len(CALL_GRID)
        self.query_one(f"#pick-{CALL_GRID[self.cursor]}", Static).add_class("cursor")
        card = CALL_GRID[self.cursor]
        self.query_one("#call-message", Static).update(
            f"{card_text(card)}" + (": in your own hand" if card in self.hand else ""))

    def action_pick(self) -> None:
        self.choose(CALL_GRID[self.cursor])

    def choose(self, card: str) -> None:
        if card in self.allowed:
            self.dismiss(card)
            return
        why = self.check(card) if self.check is not None else None
        self.query_one("#call-message", Static).update(
            why or f"You may not call {card_text(card)}.")

    def on_key(self, event: events.Key) -> None:
        ch = (event.character or "").upper()
        if ch and ch in "23456789TJQKA10" and not self.rank:
            self.rank = "T" if ch == "1" else ch
            event.stop()
        elif ch == "0" and self.rank == "T":
            event.stop()
        elif ch and ch in "CDHS" and self.rank:
            card, self.rank = self.rank + ch, ""
            event.stop()
            self.choose(card)

    def action_close(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A question to answer yes or no before an action that is easy to regret."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        yield Static(f"{self.question}\n\ny or Enter: yes    n or Esc: no", id="confirm",
                     classes="dialog small", markup=False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PackScreen(ModalScreen[int | None]):
    """Robbing the pack: mark discards to take and as many of your cards to give."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Cancel"),
                                             Binding("enter", "confirm", "Rob")]

    def __init__(self, pile: Sequence[str], hand: Sequence[str], check: Any) -> None:
        super().__init__()
        self.pile = list(pile)
        self.hand = list(hand)
        self.marked: set[str] = set()
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="pack", classes="dialog small"):
            yield Static("Rob the pack: click discards to take and as many of your cards to "
                         "give, then Enter. Esc: back.", markup=False)
            yield Static("The discards", markup=False)
            with Grid(classes="pick-row"):
                for c in self.pile:
                    yield PickCard(c, card_text(c), "red" if is_red(c) else "")
            yield Static("Your hand", markup=False)
            with Grid(classes="pick-row"):
                for c in self.hand:
                    yield PickCard(c, card_text(c), "red" if is_red(c) else "")
            yield Static("", id="pack-message", markup=False)

    @on(CardPicked)
    def picked(self, event: CardPicked) -> None:
        event.stop()
        self.marked ^= {event.card}
        pick = self.query_one(f"#pick-{event.card}", Static)
        pick.set_class(event.card in self.marked, "marked")
        pick.update(("✓" if event.card in self.marked else "") + card_text(event.card))

    def action_confirm(self) -> None:
        mask = mask_of_names(self.marked)
        why = self.check(mask)
        if why:
            self.query_one("#pack-message", Static).update(why)
        else:
            self.dismiss(mask)

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = ["CallScreen", "ConfirmScreen", "HelpScreen", "LastTrickScreen", "PackScreen",
           "ReviewScreen", "review_text"]
