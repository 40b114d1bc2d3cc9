"""A finished game in a few numbers, from its score pad and its pars: the scores hand by
hand, each side's bids made and set, and each played hand's par beside what was played.

``game_summary(pad, pars, sides, forty_one)`` reads the score pad's lines as the table
writes them (``forties.table.Table.pad_line``: each hand's ``scores`` after it, its
``bidder``, ``bid`` and ``note``, each side's card ``points``; Forty One's ``bids`` and
``tricks`` a seat) and the pars the server worked out (``forties.advice.par_json``, by the
hand's index); only the last game's hands count (a match's earlier games end on a line
marked ``new_game``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def last_game(pad: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The lines of the last game: those after the last line, before the final one, that
    ended an earlier game of a match."""
    start = 0
    for i, line in enumerate(pad[:-1]):
        if line.get("new_game"):
            start = i + 1
    return list(pad[start:])


def game_summary(pad: Sequence[Mapping[str, Any]], pars: Mapping[Any, Any],
                 sides: Sequence[Sequence[int]], forty_one: bool) -> dict[str, Any]:
    """SUMMARY: {"hands": [{"hand", "scores", "par"}], "bids": [{"seats", "made", "set"}]}.

    ``scores``: each side's score after the hand (a seat's in Forty One). ``par``: None
    for a hand with none (thrown in, not worked out yet), else {"seats": the side the par
    is for, "could": what it could take with every card seen, "took": what it took} (card
    points; Forty One's tricks, for the partnership of the first lead). ``bids``: a side's
    (a seat's in Forty One) bids made and set in the game."""
    lines = last_game(pad)
    groups = [[s] for s in range(4)] if forty_one else [list(s) for s in sides]
    made = [0] * len(groups)
    lost = [0] * len(groups)
    hands = []
    for line in lines:
        hand = int(line.get("hand") or 0)
        if forty_one and line.get("note") != "thrown in":
            for s, (bid, took) in enumerate(zip(line.get("bids") or [], line.get("tricks") or [],
                                                strict=False)):
                if bid:
                    (made if took >= bid else lost)[s] += 1
        elif not forty_one and line.get("bidder") is not None and line.get("note") in (
                "made", "set"):
            g = next(i for i, side in enumerate(groups) if line["bidder"] in side)
            (made if line["note"] == "made" else lost)[g] += 1
        hands.append({"hand": hand, "scores": list(line.get("scores") or []),
                      "par": _par(line, pars.get(hand, pars.get(str(hand))), groups,
                                  forty_one)})
    return {"hands": hands,
            "bids": [{"seats": g, "made": made[i], "set": lost[i]} for i, g in enumerate(groups)]}


def _par(line: Mapping[str, Any], par: Any, groups: Sequence[Sequence[int]],
         forty_one: bool) -> dict[str, Any] | None:
    if not isinstance(par, Mapping) or line.get("note") == "thrown in":
        return None
    if forty_one:
        teams = par.get("teams") or []
        if not teams:
            return None
        seats = list(teams[0]["seats"])
        tricks = line.get("tricks") or []
        return {"seats": seats, "could": int(teams[0]["tricks"]),
                "took": sum(int(tricks[s]) for s in seats)}
    seats = list(par.get("side") or [])
    if not seats:
        return None
    g = next((i for i, side in enumerate(groups) if seats[0] in side), None)
    points = line.get("points") or []
    if g is None or g >= len(points):
        return None
    return {"seats": seats, "could": int(par["points"]), "took": int(points[g])}
