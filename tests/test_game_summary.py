"""The game-over summary (``forties.summary``) a finished game's frames carry: its numbers
checked against what the test works out itself from the game's record, hand by hand (the
scores after each hand, each side's bids made and set, each hand's par beside what the
par's side took)."""

from __future__ import annotations

import dataclasses
from typing import Any

from forties import Record
from forties.advice import par_json
from forties.analysis import par
from forties.record import replay_record
from forties.rules import build_rules
from forties.summary import game_summary
from forties.table import COMPUTER, Settings, Table, computer_choice


def finished(preset: str, options: dict[str, Any], seed: int, pars: bool) -> Table:
    """A whole game of computer players at a table, each played hand's par told as the
    server tells it (a ``par`` event) when ``pars``."""
    t = Table("t", build_rules(preset, options), seed, Settings())
    for i in range(t.n):
        t.apply({"kind": "sit", "seat": i, "as": COMPUTER, "name": "C", "level": "basic"})
    t.apply({"kind": "start"})
    while not t.state.over:
        if t.state.hand_over:
            t.apply({"kind": "deal"})
            continue
        seat = t.state.turn
        assert seat is not None
        a = computer_choice("basic", t.computer_key(), t.state.view(seat),
                            t.state.legal_actions())
        t.apply({"kind": "act", "seat": seat, "action": str(a)})
        if pars and t.state.hand_over and t.state.tricks:
            t.apply({"kind": "par", "hand": t.state.hand_index, "value": par_json(t.state)})
    return t


def hand_ends(t: Table) -> list[Any]:
    """The game's state at the end of each of its hands, replayed from its record."""
    rec = Record.from_json(t.public_record())
    out = []
    for k in range(len(rec.hands)):
        st = replay_record(dataclasses.replace(rec, hands=rec.hands[:k + 1]))
        assert st is not None and st.hand_over
        out.append(st)
    return out


def test_a_forty_fives_game_summed_up_from_its_record() -> None:
    t = finished("merrimack-valley", {"target": 40}, seed=11, pars=True)
    got = t.snapshot(0)["summary"]
    ends = hand_ends(t)
    assert [h["hand"] for h in got["hands"]] == list(range(len(ends)))
    assert [h["scores"] for h in got["hands"]] == [list(st.scores) for st in ends]
    sides = [list(s) for s in t.state.sides]
    made, lost = [0] * len(sides), [0] * len(sides)
    pars = []
    for st in ends:
        v = st.view(None)
        side = next(i for i, s in enumerate(sides) if v["bidder"] in s)
        (made if v["points"][side] >= int(str(v["bid"]).split()[0]) else lost)[side] += 1
        best = par(st)
        assert best is not None
        who = next(i for i, s in enumerate(sides) if best.side[0] in s)
        pars.append({"seats": list(best.side), "could": best.points, "took": v["points"][who]})
    assert got["bids"] == [{"seats": s, "made": made[i], "set": lost[i]}
                           for i, s in enumerate(sides)]
    assert sum(made) + sum(lost) == len(ends) >= 2  # (every hand bid: the dealer is bagged)
    assert [h["par"] for h in got["hands"]] == pars
    # a frame of the game in progress carries none; the last event's frame does
    assert "summary" in t.event_frame(1, t.past[-1].event)


def test_a_forty_one_game_summed_up_seat_by_seat() -> None:
    t = finished("forty-one", {"target": 12}, seed=5, pars=False)
    got = t.snapshot(None)["summary"]
    ends = hand_ends(t)
    assert [h["scores"] for h in got["hands"]] == [list(st.scores) for st in ends]
    made, lost = [0] * 4, [0] * 4
    for st in ends:
        if not st.tricks:  # thrown in: no bid counts
            continue
        for s in range(4):
            bid, took = st.bids[s], st.taken[s]
            (made if took >= bid else lost)[s] += 1
    assert got["bids"] == [{"seats": [s], "made": made[s], "set": lost[s]} for s in range(4)]
    assert all(h["par"] is None for h in got["hands"])  # none worked out here


def test_only_the_last_game_of_a_match_counts() -> None:
    pad = [{"hand": 0, "scores": [120, 5], "bidder": 0, "bid": 20, "note": "made",
            "points": [25, 5], "new_game": True},
           {"hand": 1, "scores": [20, 0], "bidder": 1, "bid": 20, "note": "set",
            "points": [20, 10]}]
    got = game_summary(pad, {}, [[0, 2], [1, 3]], forty_one=False)
    assert got == {"hands": [{"hand": 1, "scores": [20, 0], "par": None}],
                   "bids": [{"seats": [0, 2], "made": 0, "set": 0},
                            {"seats": [1, 3], "made": 0, "set": 1}]}


def test_a_game_in_progress_has_no_summary() -> None:
    t = Table("t", build_rules("merrimack-valley"), 3, Settings())
    for i in range(t.n):
        t.apply({"kind": "sit", "seat": i, "as": COMPUTER, "name": "C", "level": "basic"})
    t.apply({"kind": "start"})
    assert "summary" not in t.snapshot(0)

