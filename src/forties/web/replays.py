"""A finished record replayed step by step for the replay page (``POST /api/replay``):
every step as a spectator sees it, every hand shown, written as the answer's JSON.

The work is bounded before it begins (at most ``max_hands`` hands) and while it goes (an
answer of at most ``max_bytes``), and it runs in a process of its own (``pools.Pools``),
never on the server's event loop, from the request's body as it came (``replay_body``:
a body of up to 4 MB is read as JSON there too, not on the loop): this module knows no
sockets, only the record.

Each step of a hand's card play carries the hand's par from that position (``"par"``:
``analysis.pars_by_card``), worked out once the hand is known to be finished, within
Forty One's budgets for a position, a hand and the request.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..analysis import HAND_41_BUDGET, pars_by_card
from ..cards import CARD_NAMES, cards_of
from ..errors import FortiesError
from ..record import PositionedIllegal, Record, RecordError, Replay
from ..state import Phase
from .http import Refused, json_object

# Forty One's par at each card: the positions searched for one request, all its hands
# together (each hand's own bound is ``analysis.HAND_41_BUDGET``); past it, no par
REQUEST_41_BUDGET = 40_000_000

_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


class NotReplayed(FortiesError, ValueError):
    """A record that is not replayed: ``message``, one line, and the HTTP ``status``
    that says why (400: not a finished record; 413: too long)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message, status)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return self.message


def replay_body(raw: bytes, max_hands: int, max_bytes: int) -> bytes:
    """``replay_json`` of the record in a request's body ``{"record": ...}``, as it came
    (read as JSON here: ``http.json_object``); ``NotReplayed`` says why not."""
    try:
        body = json_object(raw)
    except Refused as e:
        raise NotReplayed(e.message, e.status) from None
    if "record" not in body:
        raise NotReplayed("send {\"record\": <the record JSON>}")
    hands = body["record"].get("hands") if isinstance(body["record"], dict) else None
    if isinstance(hands, list) and len(hands) > max_hands:  # (before the work)
        raise NotReplayed(f"a record of {len(hands)} hands is too long to replay here: "
                          f"at most {max_hands}", 413)
    return replay_json(body["record"], max_hands, max_bytes)


def replay_json(obj: Any, max_hands: int, max_bytes: int) -> bytes:
    """``{"steps": [...]}`` of a finished record, as JSON bytes of at most ``max_bytes``
    (``NotReplayed`` with 413 when it would be more, or the record has more than
    ``max_hands`` hands)."""
    parts: list[str] = []
    size = len('{"steps":[]}')
    for text in _steps(obj, max_hands):
        size += len(text) + 1
        if size > max_bytes:
            raise NotReplayed(f"the replay would be more than {max_bytes // 1024} KiB: "
                              f"replay fewer hands", 413)
        parts.append(text)
    return ('{"steps":[' + ",".join(parts) + "]}").encode()


def _steps(obj: Any, max_hands: int | None) -> Iterator[str]:
    """Each step's JSON text, in order."""
    try:
        record = Record.from_json(obj)
    except RecordError as e:
        raise NotReplayed(f"not a record: {e}") from None
    if max_hands is not None and len(record.hands) > max_hands:
        raise NotReplayed(f"a record of {len(record.hands)} hands is too long to replay "
                          f"here: at most {max_hands}", 413)

    def view(st: Any) -> dict[str, Any]:
        v: dict[str, Any] = st.view(None)
        v["hands"] = [[CARD_NAMES[c] for c in cards_of(h)] for h in st.hands]
        return v

    def played(st: Any) -> int | None:  # cards played so far, None before the first lead
        if not st.tricks and st.phase is not Phase.PLAY:
            return None
        return int(len(st.tricks) * st.n + len(st.trick_cards))

    from ..solver.dd41 import nodes

    replay = Replay(record)
    st = None
    left = REQUEST_41_BUDGET
    try:
        for h, st in replay.states():
            # (a hand's steps are kept until it is over: the par at each card is worked
            # out for a finished hand only)
            steps: list[tuple[str, dict[str, Any], int | None]] = [
                (f"hand {h + 1}: the deal", view(st), None)]
            try:
                for text in replay.played(h, st):
                    steps.append((text, view(st), played(st)))
            except (RecordError, PositionedIllegal) as e:  # (an action, said where it is)
                raise NotReplayed(str(e)) from None
            if not st.hand_over:
                break
            before = nodes()
            pars = pars_by_card(st, hand_budget=min(HAND_41_BUDGET, left))
            left -= nodes() - before
            for text, v, k in steps:
                step: dict[str, Any] = {"text": text, "view": v}
                if k is not None and k < len(pars) and pars[k] is not None:
                    step["par"] = pars[k]
                yield _encode(step)
    except RecordError as e:
        raise NotReplayed(f"not a record: {e}") from None
    if st is None or not st.hand_over:
        raise NotReplayed("only a finished record can be replayed: its last hand is not "
                          "over")


__all__ = ["NotReplayed", "replay_body", "replay_json"]
