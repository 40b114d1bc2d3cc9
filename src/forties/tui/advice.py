"""Advice for the player: the hint key and the double-dummy par of a hand.

Both come from parts of the project that may be missing or unfinished: the
expert's ``hint(state, seat)`` (in ``forties.bots`` or ``forties.analysis``)
and the solver's ``par(state)`` (``forties.analysis.par`` in words, or
``forties.solver.par`` in points). This adapter looks them up when asked, so
they light up as soon as they land; until then the hint is the ``basic``
player's choice with a short reason, and the par is left out.
"""

from __future__ import annotations

import importlib
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Verb
from ..bots import make_bot
from ..bots.basic import strength
from ..cards import SUITS, mask_of_names, parse_card
from ..fortyfives import TRUMPS, trick_winner_index
from ..state import GameState
from .words import doing, pretty


@dataclass(frozen=True)
class Advice:
    """A suggested action, why, and who suggests it ("expert" or "basic")."""

    action: Action
    explanation: str
    source: str


HINT_FROM = ("forties.bots", "forties.analysis")
PAR_FROM = ("forties.analysis", "forties.solver")


def _lookup(module: str, name: str) -> Callable[..., Any] | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    fn = getattr(mod, name, None)
    return fn if callable(fn) else None


def hint(state: GameState, seat: int) -> Advice:
    """The expert's suggestion for ``seat`` and why; the basic player's if no expert."""
    for module in HINT_FROM:
        expert = _lookup(module, "hint")
        if expert is None:
            continue
        try:
            got = expert(state, seat)
            action = got.action if isinstance(got.action, Action) else \
                Action.parse(str(got.action))
        except Exception:  # an expert still being built must not end the game
            continue
        if state.reason(action) is not None:
            continue  # never suggest what the rules refuse
        why = str(getattr(got, "reason", "") or got.explanation)
        words = str(action).split(" ", 1)[1]
        if why.startswith(words + ": "):  # "play 2C: worth ..." says the action twice
            why = why[len(words) + 2:]
        return Advice(action, why.rstrip("."), "expert")
    view = state.view(seat)
    action = make_bot("basic", random.Random(0)).choose(view, state.legal_actions())
    return Advice(action, basic_reason(view, action), "basic")


def hint_line(v: dict[str, Any], adv: Advice, fancy: bool = True) -> str:
    """"Hint: play 4♥ — it takes the trick so far." (the basic player's when no expert)."""
    who = "Hint" if adv.source == "expert" else "Hint (basic player)"
    # (plain text for a screen reader: a semicolon, not a dash it would read out)
    dash = " — " if fancy else "; "
    return f"{who}: {doing(v, adv.action, fancy)}{dash}{pretty(adv.explanation, fancy)}."


def basic_reason(view: dict[str, Any], a: Action) -> str:
    """A short reason for the basic player's choice, in a player's words."""
    phase = view["phase"]
    if view["game"] == "forty-one":
        if phase == "auction":
            return "your aces, kings and long hearts promise about that many tricks"
        return "win cheaply while you still need tricks, else keep out of the way"
    hand = mask_of_names(view["hand"])
    if phase == "auction":
        best = max(strength(hand, t) for t in range(4))
        worth = f"your hand alone is worth about {round(best / 5) * 5} points in its best suit"
        if a.verb is Verb.PASS:
            return worth + ": not enough to bid"
        return worth + ", with help expected from the kitty and your partner"
    if phase == "trump":
        return "your strongest suit: the most and highest trumps"
    if phase == "draw":
        return "keep your trumps (and kings if you are short of trumps); throw the rest"
    if phase == "play":
        return _play_reason(view, a)
    if phase == "raise":
        return "raise only with a hand worth 30"
    if phase == "rob":
        return "give up your least useful card for the turned-up trump"
    if phase == "call":
        return "call the best trump you do not hold"
    return "the basic player's choice"


def _play_reason(view: dict[str, Any], a: Action) -> str:
    trump = SUITS.index(view["trump"])
    card = a.arg.bit_length() - 1
    trick = [parse_card(c) for c in view["trick"]["cards"]]
    if not trick:
        if TRUMPS[trump] >> card & 1:
            return "lead your top trump to draw the others out"
        return "lead a king, or your cheapest card, and keep your trumps"
    n, leader, seat = view["players"], view["trick"]["leader"], view["seat"]
    if trick_winner_index([*trick, card], trump) == len(trick):
        return "it takes the trick so far"
    best = (leader + trick_winner_index(trick, trump)) % n
    if any(best in side and seat in side for side in view["sides"]):
        return "your partner is winning the trick: throw your cheapest card"
    return "you cannot take this trick: throw your cheapest card"


def par(state: GameState, names: Sequence[str] | None = None) -> str | None:
    """The double-dummy par of the hand at its first lead, in words (seats named by
    ``names`` where the answer names seats); None when no solver is installed or it has
    no answer for this hand (no bidder, say)."""
    for module in PAR_FROM:
        solve = _lookup(module, "par")
        if solve is None:
            continue
        try:
            result = solve(state)
        except (ImportError, ValueError, TypeError, NotImplementedError):
            continue
        if result is not None:
            return format_par(result, names)
    return None


def par_within(state: GameState, seconds: float,
               names: Sequence[str] | None = None) -> str | None:
    """``par(state)``, or None if it takes longer than ``seconds`` (the search goes on in
    the background and its answer is dropped)."""
    box: list[str | None] = []
    worker = threading.Thread(target=lambda: box.append(par(state, names)), daemon=True)
    worker.start()
    worker.join(seconds)
    return box[0] if box else None


def format_par(result: Any, names: Sequence[str] | None = None) -> str:
    """The solver's answer as one line, whatever form it takes."""
    words = getattr(result, "words", None)
    if callable(words):
        got = words(names)
        if isinstance(got, str) and got:
            return f"Double-dummy par: {got}"
    for attr in ("explanation", "text", "summary"):
        v = getattr(result, attr, None)
        if isinstance(v, str) and v:
            return f"Double-dummy par: {v}"
    if isinstance(result, int):
        return f"Double-dummy par: with every card seen and best play, the bidders take " \
               f"{result} points."
    if isinstance(result, dict):
        return "Double-dummy par: " + ", ".join(f"{k} {v}" for k, v in result.items())
    if isinstance(result, list | tuple):
        return "Double-dummy par: " + ", ".join(str(x) for x in result)
    return f"Double-dummy par: {result}"
