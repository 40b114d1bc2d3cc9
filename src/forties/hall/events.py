"""What happens during an evening, as events: the evening is its settings and the list
of these, and every standing, card and prize is derived by replaying them.

Each event reads and writes plain JSON (``{"type": ..., ...}``); a malformed one
raises HallError with one line saying what is wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import FortiesError


class HallError(FortiesError, ValueError):
    """Something the director asked for that cannot be done, in one line."""


CHOICES = ("split", "cut", "play-off")


@dataclass(frozen=True)
class Register:
    """A couple registers; it plays from ``game`` (1 before the start)."""

    couple: int
    names: tuple[str, str]
    game: int = 1
    type: ClassVar[str] = "register"


@dataclass(frozen=True)
class Leave:
    """A couple leaves: it plays no game from ``game`` on (before the start: withdraws)."""

    couple: int
    game: int
    type: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Rename:
    """The director corrects a couple's names (a name misspelt at the door): every card,
    standing and prize shows the new ones; no result changes."""

    couple: int
    names: tuple[str, str]
    type: ClassVar[str] = "rename"


@dataclass(frozen=True)
class Begin:
    """Game ``game`` begins: its seating is fixed (game 1: the evening starts)."""

    game: int
    type: ClassVar[str] = "begin"


@dataclass(frozen=True)
class Result:
    """Table ``table`` of game ``game`` is over: ``winner`` won (None: no game).
    ``points`` are each couple's final score, needed in a duplicate evening.
    ``correction`` replaces the result reported before."""

    game: int
    table: int
    winner: int | None
    points: tuple[tuple[int, int], ...] | None = None
    correction: bool = False
    type: ClassVar[str] = "result"


@dataclass(frozen=True)
class Swap:
    """In game ``game``, two couples exchange places (one went to the wrong table)."""

    game: int
    couples: tuple[int, int]
    type: ClassVar[str] = "swap"


@dataclass(frozen=True)
class Close:
    """The director ends the evening after game ``after`` (time is up)."""

    after: int
    type: ClassVar[str] = "close"


@dataclass(frozen=True)
class Vote:
    """A tied couple's choice: split the prizes, cut the deck, or play off."""

    contest: str
    couple: int
    choice: str
    type: ClassVar[str] = "vote"


@dataclass(frozen=True)
class Answer:
    """In a play-off, a couple that did not ask for it plays (True) or forfeits."""

    contest: str
    couple: int
    plays: bool
    type: ClassVar[str] = "answer"


@dataclass(frozen=True)
class CutDeck:
    """The director cuts the deck for a contest (the seeded draw is revealed)."""

    contest: str
    type: ClassVar[str] = "cut"


@dataclass(frozen=True)
class PlayoffWin:
    """``couple`` won its play-off game in a contest."""

    contest: str
    couple: int
    type: ClassVar[str] = "play-off"


Event = (Register | Leave | Rename | Begin | Result | Swap | Close | Vote | Answer | CutDeck
         | PlayoffWin)

EVENT_TYPES: dict[str, type[Any]] = {
    k.type: k for k in (Register, Leave, Rename, Begin, Result, Swap, Close, Vote, Answer,
                        CutDeck, PlayoffWin)}


def event_to_json(e: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": e.type}
    for k, v in vars(e).items():
        if isinstance(e, Result) and k == "correction" and not v:
            continue
        if isinstance(e, Result) and k == "points":
            if v is not None:
                out[k] = [list(p) for p in v]
            continue
        out[k] = list(v) if isinstance(v, tuple) else v
    return out


def _whole(obj: dict[str, Any], key: str, low: int = 1) -> int:
    v = obj.get(key)
    if type(v) is not int or v < low:
        raise HallError(f"{obj.get('type')} event: {key} must be a whole number from {low}, "
                        f"not {v!r}")
    return v


def _text(obj: dict[str, Any], key: str) -> str:
    v = obj.get(key)
    if not isinstance(v, str):
        raise HallError(f"{obj.get('type')} event: {key} must be text, not {v!r}")
    return v


def event_from_json(obj: Any) -> Event:
    """Read one event; raises HallError."""
    if not isinstance(obj, dict) or obj.get("type") not in EVENT_TYPES:
        kind = obj.get("type") if isinstance(obj, dict) else obj
        raise HallError(f"not an evening event: {kind!r} (types: {', '.join(EVENT_TYPES)})")
    kind = obj["type"]
    allowed = {"type", *EVENT_TYPES[kind].__dataclass_fields__}
    extra = sorted(set(obj) - allowed)
    if extra:
        raise HallError(f"{kind} event: unknown key {extra[0]!r}")
    if kind in ("register", "rename"):
        names = obj.get("names")
        if not isinstance(names, list) or len(names) != 2 or \
                not all(isinstance(n, str) for n in names):
            raise HallError(f"{kind} event: names must be two names")
        if kind == "rename":
            return Rename(_whole(obj, "couple"), (names[0], names[1]))
        return Register(_whole(obj, "couple"), (names[0], names[1]), _whole(obj, "game"))
    if kind == "leave":
        return Leave(_whole(obj, "couple"), _whole(obj, "game"))
    if kind == "begin":
        return Begin(_whole(obj, "game"))
    if kind == "result":
        w = obj.get("winner")
        if w is not None and (type(w) is not int or w < 1):
            raise HallError(f"result event: winner must be a couple number or null, not {w!r}")
        pts = obj.get("points")
        points = None
        if pts is not None:
            if not isinstance(pts, list) or len(pts) != 2 or not all(
                    isinstance(p, list) and len(p) == 2 and all(type(x) is int for x in p)
                    for p in pts):
                raise HallError("result event: points must be [[couple, points], "
                                "[couple, points]]")
            points = ((pts[0][0], pts[0][1]), (pts[1][0], pts[1][1]))
        corr = obj.get("correction", False)
        if type(corr) is not bool:
            raise HallError("result event: correction must be true or false")
        return Result(_whole(obj, "game"), _whole(obj, "table"), w, points, corr)
    if kind == "swap":
        cs = obj.get("couples")
        if not isinstance(cs, list) or len(cs) != 2 or not all(
                type(c) is int and c >= 1 for c in cs):
            raise HallError("swap event: couples must be two couple numbers")
        return Swap(_whole(obj, "game"), (cs[0], cs[1]))
    if kind == "close":
        return Close(_whole(obj, "after"))
    if kind == "vote":
        choice = _text(obj, "choice")
        if choice not in CHOICES:
            raise HallError(f"vote event: choice must be one of {', '.join(CHOICES)}, "
                            f"not {choice!r}")
        return Vote(_text(obj, "contest"), _whole(obj, "couple"), choice)
    if kind == "answer":
        plays = obj.get("plays")
        if type(plays) is not bool:
            raise HallError("answer event: plays must be true or false")
        return Answer(_text(obj, "contest"), _whole(obj, "couple"), plays)
    if kind == "cut":
        return CutDeck(_text(obj, "contest"))
    return PlayoffWin(_text(obj, "contest"), _whole(obj, "couple"))
