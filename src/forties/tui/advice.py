"""The advice as the terminal says it: the hint's line and the double-dummy par in
words. The advice itself (the expert's hint, the solver's par) comes from
``forties.advice``, as the web's does."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from .. import advice
from ..advice import Advice
from ..state import GameState
from .words import doing, pretty


def hint_line(v: dict[str, Any], adv: Advice, fancy: bool = True) -> str:
    """"Hint: play 4♥ — it takes the trick so far." (the basic player's when no expert)."""
    who = "Hint" if adv.source == "expert" else "Hint (basic player)"
    # (plain text for a screen reader: a semicolon, not a dash it would read out)
    dash = " — " if fancy else "; "
    return f"{who}: {doing(v, adv.action, fancy)}{dash}{pretty(adv.explanation, fancy)}."


def par(state: GameState, names: Sequence[str] | None = None) -> str | None:
    """The double-dummy par of the hand at its first lead, in words (seats named by
    ``names`` where the answer names seats); None when the solver has no answer for this
    hand (no bidder, say)."""
    result = advice.par(state)
    return None if result is None else format_par(result, names)


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
