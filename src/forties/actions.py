"""Actions: one seat, one verb, one argument; read from and written as a record line.

``Action.parse("0 play 5H")`` and ``str(action)`` round-trip. The argument is an
int whose meaning depends on the verb: a card set (bitmask) for ``play``,
``discard``, ``rob`` and ``call``; a bid value for ``bid`` and ``raise``; a suit
index for ``trump``; 0 for ``pass`` and ``hold``.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import NamedTuple

from .cards import SUITS, CardError, format_mask, mask_of, parse_card, parse_suit
from .errors import FortiesError


class Verb(Enum):
    PASS = "pass"
    BID = "bid"
    HOLD = "hold"
    RAISE = "raise"
    TRUMP = "trump"
    DISCARD = "discard"
    ROB = "rob"
    CALL = "call"
    PLAY = "play"
    # "Booked?" (the ``booked`` option): after the verbs above, so their numbers stay put
    ASK = "ask"
    ANSWER = "answer"
    FOLD = "fold"
    STAY = "stay"


_VERBS = {v.value: v for v in Verb}

# Bids above 30 that still need 30 to make: the value is what is won or lost.
BID_30_FOR_60 = 60
BID_60_FOR_120 = 120


class ActionSyntaxError(FortiesError, ValueError):
    """A text that is not an action at all (as opposed to an illegal one)."""


def bid_text(value: int) -> str:
    if value == BID_30_FOR_60:
        return "30for60"
    if value == BID_60_FOR_120:
        return "60for120"
    return str(value)


def _number(text: str) -> int | None:
    """``text`` as a number if it is plain digits 0-9; None for '²', '٣' or 5000 digits."""
    if text.isascii() and text.isdigit() and len(text) <= 100:
        return int(text)
    return None


def parse_bid(text: str) -> int:
    t = text.strip().lower().replace(" ", "")
    if t in ("30for60", "30-for-60"):
        return BID_30_FOR_60
    if t in ("60for120", "60-for-120"):
        return BID_60_FOR_120
    value = _number(t)
    if value is not None:
        return value
    raise ActionSyntaxError(f"not a bid: {text!r}")


class Action(NamedTuple):
    seat: int
    verb: Verb
    arg: int = 0

    def __str__(self) -> str:
        seat, v, arg = self
        if type(arg) is int and type(v) is Verb:
            if type(seat) is int:  # every view writes its history and legal actions: kept
                return _action_text(seat, v, arg)
            return _action_text.__wrapped__(seat, v, arg)
        # an Action built by hand
        return f"{seat} {getattr(v, 'value', v)} {arg}"

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read a record line such as ``"3 bid 30for60"``; raises ActionSyntaxError."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"an action must be a string, not {type(text).__name__}")
        parts = text.split()
        if len(parts) < 2:
            raise ActionSyntaxError(f"not an action: {text!r} (expected 'SEAT VERB ...')")
        seat_text, verb_text, args = parts[0], parts[1].lower(), parts[2:]
        seat = _number(seat_text)
        if seat is None:
            raise ActionSyntaxError(f"not an action: {text!r} (the seat must be a number)")
        verb = _VERBS.get(verb_text)
        if verb is None:
            raise ActionSyntaxError(
                f"not an action: {text!r} (unknown verb {verb_text!r}; verbs: "
                f"{', '.join(_VERBS)})")
        try:
            if verb is Verb.ASK or verb is Verb.ANSWER:
                if len(args) != 1:
                    what = "the seat asked" if verb is Verb.ASK else "yes or no"
                    raise ActionSyntaxError(f"not an action: {text!r} (give {what})")
                word = args[0].lower()
                if verb is Verb.ANSWER:
                    if word not in ("yes", "no"):
                        raise ActionSyntaxError(f"not an action: {text!r} (answer yes or no)")
                    return cls(seat, verb, 1 if word == "yes" else 0)
                asked = _number(word)
                if asked is None:
                    raise ActionSyntaxError(f"not an action: {text!r} (ask a seat number)")
                return cls(seat, verb, asked)
            if verb in (Verb.PASS, Verb.HOLD, Verb.FOLD, Verb.STAY):
                if args:
                    raise ActionSyntaxError(f"not an action: {text!r} ({verb.value} takes "
                                            "nothing after it)")
                return cls(seat, verb, 0)
            if verb is Verb.BID or verb is Verb.RAISE:
                if len(args) != 1:
                    raise ActionSyntaxError(f"not an action: {text!r} (give one bid)")
                return cls(seat, verb, parse_bid(args[0]))
            if verb is Verb.TRUMP:
                if len(args) != 1:
                    raise ActionSyntaxError(f"not an action: {text!r} (give one suit)")
                return cls(seat, verb, parse_suit(args[0]))
            if verb is Verb.CALL:
                if len(args) != 1:
                    raise ActionSyntaxError(f"not an action: {text!r} (call one card or none)")
                if args[0].lower() == "none":
                    return cls(seat, verb, 0)
                return cls(seat, verb, 1 << parse_card(args[0]))
            cards = [parse_card(a) for a in args]
            if len(set(cards)) != len(cards):
                raise ActionSyntaxError(f"not an action: {text!r} (a card is named twice)")
            if verb is Verb.PLAY and len(cards) != 1:
                raise ActionSyntaxError(f"not an action: {text!r} (play one card)")
            if verb is Verb.ROB and not cards:
                raise ActionSyntaxError(f"not an action: {text!r} (rob needs a card)")
            return cls(seat, verb, mask_of(cards))
        except CardError as e:
            raise ActionSyntaxError(f"not an action: {text!r} ({e})") from None


# (4,096 lines: every play, bid and suit of ten seats with room for the discards in use; a
# bigger cache only holds a long-running server's old discards, 250 bytes each, for ever)
@lru_cache(maxsize=1 << 12)
def _action_text(seat: int, v: Verb, arg: int) -> str:
    """An action's record line (for an int seat and arg, and a Verb)."""
    head = f"{seat} {v.value}"
    if v is Verb.PASS or v is Verb.HOLD or v is Verb.FOLD or v is Verb.STAY:
        return head
    if v is Verb.ASK:
        return f"{head} {arg}"
    if v is Verb.ANSWER:
        return f"{head} {'yes' if arg else 'no'}"
    if v is Verb.BID or v is Verb.RAISE:
        return f"{head} {bid_text(arg)}"
    if v is Verb.TRUMP:
        return f"{head} {SUITS[arg] if 0 <= arg < 4 else arg}"
    if v is Verb.CALL and arg == 0:
        return f"{head} none"
    if v is Verb.DISCARD and arg == 0:
        return head
    if not 0 <= arg < 1 << 52:  # not a set of cards (an Action built by hand)
        return f"{head} {arg}"
    return f"{head} {format_mask(arg)}"
