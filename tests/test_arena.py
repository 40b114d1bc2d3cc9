"""The duplicate arena with the auction fixed: the card play alone (issue 15).

``play_deal_fixed`` has every decision before the first card made once, by a reference
player at every seat, and every rotation of the teams plays that contract; A and B only
play the cards."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from forties import arena
from forties.actions import Action, Verb
from forties.arena import (
    fixed_contract,
    mean_interval,
    play_deal,
    play_deal_fixed,
    run_match,
    share_interval,
)
from forties.bots import Bot, play
from forties.bots.basic import BasicBot
from forties.rules import build_rules
from forties.state import GameState, Phase

from .helpers_engine import run_forties

PRESETS = ("merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one")


class ContraryBot:
    """Plays the cards as ``basic`` does, and before the first card never makes the
    choice ``basic`` would (where it has another): a player whose auction differs."""

    name = "contrary"

    def __init__(self) -> None:
        self.basic = BasicBot()
        self.pre_play_calls = 0

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        a = self.basic.choose(view, legal)
        if view["phase"] == "play":
            return a
        self.pre_play_calls += 1
        return next((x for x in legal if x != a), a)


def _with_contrary(monkeypatch: pytest.MonkeyPatch) -> list[ContraryBot]:
    """``make_bot("contrary", ...)`` in the arena gives a ContraryBot (kept in the list)."""
    made: list[ContraryBot] = []
    real = arena.make_bot

    def make(level: str, rng: random.Random, seats: Any = None) -> Bot:
        if level == "contrary":
            made.append(ContraryBot())
            return made[-1]
        return real(level, rng, seats)

    monkeypatch.setattr(arena, "make_bot", make)
    return made


def _starts_of_play(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What each rotation's table holds at its first card: the moves before it, the
    hands, the contract (filled in as the arena plays: each player's choice goes through
    ``bots.play.choose``)."""
    seen: list[dict[str, Any]] = []
    real = play.choose

    def choose(state: GameState, bot: Bot, sees_all: bool = False) -> Action:
        if state.phase is Phase.PLAY and not any(a.verb is Verb.PLAY for a in state.history):
            seen.append({"history": [str(a) for a in state.history],
                         "hands": list(state.hands),
                         "contract": {k: getattr(state, k, None)
                                      for k in ("bidder", "bid", "trump", "partner", "called",
                                                "bids")},
                         "dealer": state.dealer})
        return real(state, bot, sees_all)

    monkeypatch.setattr(play, "choose", choose)
    return seen


@pytest.mark.parametrize("preset", PRESETS)
def test_every_rotation_plays_the_same_contract_with_the_same_hands(
        preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both (all) rotations start the play from the same moves, the same hands after the
    draw and the same contract: the one ``fixed_contract`` makes for the deal."""
    rules = build_rules(preset)
    seen = _starts_of_play(monkeypatch)
    teams = len(arena.arena_teams(rules))
    played = 0
    for deal in range(10):
        seen.clear()
        play_deal_fixed(rules, "random", "basic", 5, deal)
        fixed = fixed_contract(rules, 5, deal)
        if fixed.hand_over:  # thrown in or folded before the first card: nothing to play
            assert seen == []
            continue
        played += 1
        assert len(seen) == teams
        assert all(s == seen[0] for s in seen[1:])
        assert seen[0]["history"] == [str(a) for a in fixed.history]
        assert seen[0]["hands"] == list(fixed.hands)
        if preset != "forty-one":
            assert seen[0]["contract"]["trump"] >= 0
    assert played >= 4


@pytest.mark.parametrize("preset", PRESETS)
def test_a_players_own_auction_is_never_asked_for(preset: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in that bids unlike ``basic`` and plays like it: with the auction fixed it
    is never asked a question before the first card, the contract is basic's, and it
    ties ``basic`` on every deal. Left to bid (``play_deal``), it does not: so the fixed
    match would show it if A's player made a decision before the play."""
    made = _with_contrary(monkeypatch)
    rules = build_rules(preset)
    seen = _starts_of_play(monkeypatch)
    fixed_margins, open_margins = [], []
    for deal in range(8):
        seen.clear()
        fixed_margins.append(play_deal_fixed(rules, "contrary", "basic", 2, deal))
        basics = fixed_contract(rules, 2, deal)
        assert all(s["history"] == [str(a) for a in basics.history] for s in seen)
        open_margins.append(play_deal(rules, "contrary", "basic", 2, deal))
    asked = sum(b.pre_play_calls for b in made)
    assert fixed_margins == [0.0] * 8
    assert asked > 0  # ... in the open matches only, where it bids for itself
    assert any(m != 0 for m in open_margins)


def test_with_the_auction_fixed_no_bot_of_a_or_b_is_asked_before_the_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    made = _with_contrary(monkeypatch)
    rules = build_rules("auction-45")
    for deal in range(5):
        play_deal_fixed(rules, "contrary", "contrary", 3, deal)
    assert len(made) == 5 * 2 * rules.players
    assert sum(b.pre_play_calls for b in made) == 0


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("auction", ["basic", "random"])
def test_the_same_player_on_both_sides_ties_every_deal(preset: str, auction: str) -> None:
    """``basic`` decides alone (no chance): against itself, over any fixed auction (its
    own, or random bids, trumps and discards), every deal's margin is exactly 0."""
    rules = build_rules(preset)
    assert [play_deal_fixed(rules, "basic", "basic", 7, d, auction) for d in range(12)] \
        == [0.0] * 12


def test_a_better_player_of_the_cards_wins_on_the_same_contracts() -> None:
    """Not only zeros: the oracle plays the same contracts better than ``random``."""
    rules = build_rules("merrimack-valley")
    margins = [play_deal_fixed(rules, "oracle", "random", 1, d) for d in range(6)]
    assert sum(margins) / len(margins) > 0


def test_the_oracle_needs_the_whole_state_and_gets_it_at_the_table_and_in_the_auction(
        ) -> None:
    """The oracle (``needs_state``) plays the cards and may be the reference player; it
    bids as ``basic`` does, so with basic's fixed auction its deals are the open arena's
    deals to the digit, and its own fixed auction is basic's."""
    rules = build_rules("merrimack-valley")
    for d in range(4):
        assert play_deal_fixed(rules, "oracle", "basic", 1, d) == play_deal(rules, "oracle",
                                                                           "basic", 1, d)
        assert fixed_contract(rules, 1, d, "oracle").history \
            == fixed_contract(rules, 1, d, "basic").history


def test_the_fixed_contract_is_decided_by_the_seed_and_deal() -> None:
    rules = build_rules("auction-45")
    one = fixed_contract(rules, 4, 9, "random")
    two = fixed_contract(rules, 4, 9, "random")
    assert one.history == two.history and one.hands == two.hands
    others = {tuple(str(a) for a in fixed_contract(rules, 4, d, "random").history)
              for d in range(6)}
    assert len(others) == 6
    assert one.phase is Phase.PLAY or one.hand_over


def test_run_match_plays_the_card_play_alone_in_workers_as_in_one_process() -> None:
    rules = build_rules("merrimack-valley")
    alone = run_match(rules, "oracle", "random", 4, 0, seed=2, jobs=1, play_only=True)
    pooled = run_match(rules, "oracle", "random", 4, 0, seed=2, jobs=2, play_only=True)
    assert alone.points_per_hand == pooled.points_per_hand
    assert alone.play_only and alone.to_json()["play_only"] is True
    margins = [play_deal_fixed(rules, "oracle", "random", 2, d) for d in range(4)]
    assert alone.points_per_hand.mean == pytest.approx(sum(margins) / 4)


def test_share_of_a_margin_paired_deal_by_deal() -> None:
    ys = [4.0, 6.0, 0.0, 10.0]
    same = share_interval(ys, ys)
    assert (same.mean, same.low, same.high) == (1.0, 1.0, 1.0)
    half = share_interval([y / 2 for y in ys], ys)
    assert half.mean == pytest.approx(0.5) and half.high - half.low == pytest.approx(0)
    xs = [3.0, 2.0, 1.0, 4.0]  # mean 2.5 of mean 5: a half, with a spread
    iv = share_interval(xs, ys)
    # residuals x - 0.5 y: 1, -1, 1, -1; variance 4/3; half-width 1.96 * sqrt(4/3/4) / 5
    assert iv.mean == pytest.approx(0.5)
    assert iv.high - iv.mean == pytest.approx(1.96 * (1 / 3) ** 0.5 / 5)
    assert share_interval([1.0], [0.0]) == share_interval([], [])
    with pytest.raises(ValueError, match="pair"):
        share_interval([1.0, 2.0], [1.0])


def test_strength_play_log_resumes_and_is_the_fixed_arena(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--kind play``: stopped after 2 deals and resumed to 4, the log holds the margins
    ``play_deal_fixed`` gives deals 0 to 3; ``--share`` pairs it with another log."""
    from lab import strength

    log, other = str(tmp_path / "play.jsonl"), str(tmp_path / "other.jsonl")
    common = ["--preset", "merrimack-valley", "--kind", "play", "--seed", "3"]
    strength.main(["oracle", "random", *common, "--count", "2", "--log", log])
    strength.main(["oracle", "random", *common, "--count", "4", "--log", log])
    rows = [json.loads(x) for x in Path(log).read_text().splitlines()]
    rules = build_rules("merrimack-valley")
    assert [r["n"] for r in rows] == [0, 1, 2, 3]
    assert [r["x"] for r in rows] == [play_deal_fixed(rules, "oracle", "random", 3, i)
                                      for i in range(4)]
    assert "4 deals, the auction fixed (card play alone): points per hand" \
        in capsys.readouterr().out
    Path(other).write_text("".join(json.dumps({"n": r["n"], "x": 2 * r["x"], "s": 0}) + "\n"
                                   for r in rows[:3]))
    strength.main(["oracle", "random", *common, "--log", log, "--summary", "--share", other])
    out = capsys.readouterr().out
    assert "over the 3 deals both logs hold: 50.0%" in out
    # ``--over``: this log's player against the other log's, deal by deal (x - 2x = -x)
    strength.main(["oracle", "random", *common, "--log", log, "--summary", "--over", other])
    line = capsys.readouterr().out.splitlines()[-1]
    iv = mean_interval([-r["x"] for r in rows[:3]])
    assert line == (f"  over {other}, the 3 deals both logs hold: {iv.mean:+.2f} a hand "
                    f"(95%: {iv.low:+.2f} .. {iv.high:+.2f}), "
                    f"{sum(r['x'] != 0 for r in rows[:3])} scored differently")


def test_strength_summary_pools_logs_of_other_seeds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--summary`` with ``--log`` named twice pools the two logs' deals (the same ``n``
    in each counts twice), and each ``--share`` / ``--over`` pairs with the log in its
    place, never with the other's deal of the same number."""
    from lab import strength

    def write(name: str, xs: list[float]) -> str:
        path = tmp_path / name
        path.write_text("".join(json.dumps({"n": n, "x": x, "s": 1.0}) + "\n"
                                for n, x in enumerate(xs)))
        return str(path)

    a1, a7 = write("a1.jsonl", [4.0, 0.0, 2.0]), write("a7.jsonl", [1.0, -1.0])
    o1, o7 = write("o1.jsonl", [4.0, 4.0, 4.0]), write("o7.jsonl", [10.0, 2.0])
    common = ["basic", "random", "--kind", "deal", "--summary", "--log", a1, "--log", a7]
    strength.main([*common, "--share", o1, "--share", o7, "--over", o1, "--over", o7])
    head, shared, over = capsys.readouterr().out.splitlines()
    iv = mean_interval([4.0, 0.0, 2.0, 1.0, -1.0])
    assert head == (f"forty-one: basic vs random, 2 logs pooled: 5 deals: points per hand "
                    f"{iv.mean:+.2f} ({iv.low:+.2f} .. {iv.high:+.2f}), 5 s of play")
    sh = share_interval([4.0, 0.0, 2.0, 1.0, -1.0], [4.0, 4.0, 4.0, 10.0, 2.0])
    assert sh.mean == pytest.approx(6 / 24)
    assert f"over the 5 deals both logs hold: {sh.mean:.1%} (95%: {sh.low:.1%} .. " \
        f"{sh.high:.1%})" in shared
    d = mean_interval([0.0, -4.0, -2.0, -9.0, -3.0])
    assert over.endswith(f"{d.mean:+.2f} a hand (95%: {d.low:+.2f} .. {d.high:+.2f}), "
                         "4 scored differently")
    # the other order pairs each log with the wrong one's deals: another figure
    strength.main([*common, "--share", o7, "--share", o1])
    assert f"{sh.mean:.1%}" not in capsys.readouterr().out.splitlines()[1]


def test_arena_command_plays_the_card_play_alone(tmp_path: Path) -> None:
    """``forties arena A B --play-only``: the fixed-auction deals, no games, said so."""
    out = tmp_path / "m.json"
    r = run_forties("arena", "oracle", "random", "--deals", "3", "--play-only", "--jobs", "1",
                    "--seed", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "with the auction fixed" in r.stdout and "games won" not in r.stdout
    data = json.loads(out.read_text())
    assert data["play_only"] is True and data["games"] == 0
    rules = build_rules("merrimack-valley")
    margins = [play_deal_fixed(rules, "oracle", "random", 2, d) for d in range(3)]
    assert data["points_per_hand"]["mean"] == pytest.approx(sum(margins) / 3)


def test_the_arena_tells_each_player_the_levels_at_the_table(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each player of a duplicate match is told every seat's level, the rotation's own:
    the default expert plays against ``basic`` as the table would show it."""
    told: list[tuple[str, tuple[str, ...]]] = []
    real = arena.make_bot

    def make(level: str, rng: random.Random, seats: Any = None) -> Bot:
        told.append((level, tuple(seats)))
        return real(level, rng, seats)

    monkeypatch.setattr(arena, "make_bot", make)
    arena.play_deal(build_rules("merrimack-valley"), "random", "basic", 1, 0)
    rotations = (("random", "basic", "random", "basic"), ("basic", "random", "basic", "random"))
    assert told == [(lv, seats) for seats in rotations for lv in seats]
