"""Forty One's partnership double-dummy solver (``forties.solver.dd41``): exact against the
kernel's search and a plain minimax where those finish, and whole hands from the first
lead that hold together (both partnerships' tricks make thirteen; the leader's best card
is worth what the hand is worth)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forties.cards import HEARTS
from forties.fortyone import FortyOneState
from forties.rules import build_rules
from forties.solver import solve_forty_one
from forties.solver.dd41 import team_tricks
from forties.state import Phase
from lab import par41
from lab.par41 import first_lead

from .test_solver import plain_forty_one, position

RULES = build_rules("forty-one")


def pair(seat: int) -> int:
    return (1 << seat) | (1 << ((seat + 2) % 4))


def solved(g: FortyOneState, team: int, budget: int | None = None) -> int | None:
    """The tricks ``team`` (a mask of seats) takes in the hand: taken, and the rest."""
    got = team_tricks(list(g.hands), g.trick_leader, list(g.trick_cards), team, HEARTS,
                      budget)
    if got is None:
        return None
    return got + sum(g.taken[s] for s in range(4) if team >> s & 1)


def test_agrees_with_the_kernel_with_five_or_six_tricks_left() -> None:
    """With five or six tricks left, at a trick's start and with one to three cards of it
    played: each partnership's tricks are those of the kernel's exact search."""
    compared = 0
    for i in range(24):
        g = position(("forty-one", {}), 30_000 + i, 52 - (24 if i % 6 == 0 else 20) - i % 4)
        if g.phase is not Phase.PLAY:
            continue
        assert isinstance(g, FortyOneState)
        for seat in (0, 1):
            assert solved(g, pair(seat)) == solve_forty_one(g, seat, exact_tricks=13), i
        compared += 1
    assert compared >= 20


def test_agrees_with_plain_minimax_in_the_endgame() -> None:
    for i in range(16):
        g = position(("forty-one", {}), 31_000 + i, 40 + i % 4)
        if g.phase is not Phase.PLAY:
            continue
        assert isinstance(g, FortyOneState)
        for seat in (0, 1):
            assert solved(g, pair(seat)) == plain_forty_one(g, {seat, seat + 2})


# hands that solve in well under a second on a quiet core (most take a few seconds)
QUICK = [3, 7, 14]


@pytest.mark.parametrize("seed", QUICK)
def test_whole_hands_hold_together(seed: int) -> None:
    """From the first lead: the two partnerships' tricks, each solved as the side that
    searches, make thirteen; and the leader's cards are each worth what its partnership
    then takes, the best of them what the hand is worth."""
    g = first_lead(40_000 + seed)
    leader = g.turn
    assert leader is not None
    mine = solved(g, pair(leader))
    theirs = solved(g, pair(leader + 1))
    assert mine is not None and theirs is not None and mine + theirs == 13
    values = []
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        assert isinstance(child, FortyOneState)
        values.append(solved(child, pair(leader)))
    assert max(v for v in values if v is not None) == mine


def test_a_budget_too_small_gives_no_answer() -> None:
    g = first_lead(40_002)  # a hand that needs millions of positions
    assert solved(g, pair(g.turn or 0), budget=1000) is None


@pytest.mark.parametrize("hands, leader, trick, words", [
    ([1, 2, 4, 4], 0, [], "different cards"),
    ([1, 2, 4, 8 | 16], 0, [], "as long as each other"),
    ([1, 2, 4], 0, [], "four hands"),
    ([1, 2, 4, 8], 4, [], "leader from 0 to 3"),
    ([1, 2, 4, 8], 0, [], "a partnership"),
    ([1, 2, 4, 1 << 52], 0, [], "one pack"),
    ([2, 4, 8, 16], 0, [5], "as long as each other"),  # seat 0 has played: one card less
])
def test_bad_positions_get_one_line(hands: list[int], leader: int, trick: list[int],
                                    words: str) -> None:
    with pytest.raises(ValueError, match=words) as e:
        team_tricks(hands, leader, trick, 1 if words == "a partnership" else 5)
    assert "\n" not in str(e.value)


def test_the_par_benchmark_logs_each_hand_and_resumes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m lab.par41`` (docs/lab-notes.md), small: a line per hand, the
    exact figure or none past the budget, the old estimate beside it; it resumes."""
    log = tmp_path / "par.jsonl"
    par41.main(["--deals", "1", "--seed", "40007", "--log", str(log)])
    par41.main(["--deals", "2", "--seed", "40007", "--budget", "1000", "--log", str(log)])
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [40007, 40008]
    g = first_lead(40_007)
    assert rows[0]["exact"] == team_tricks(list(g.hands), g.turn or 0, [], pair(g.turn or 0))
    assert rows[1]["exact"] is None and rows[1]["nodes"] > 1000  # past the small budget
    out = capsys.readouterr().out
    assert "2 hands: exact 1, past the budget of 1,000 positions 1" in out
