"""Steps per second of the research environments beside RLCard's card games.

    python -m bench.envs [--seconds S] [--rounds R] [--tables N] [--json FILE]

Every loop plays random legal actions, one hand an episode, on one core, timed in
CPU seconds; the environments take turns within each round, a figure is the median
of the rounds and a ratio the median of the ratios within a round. Rows:

- **vector**: ``FortiesVectorEnv`` (``--tables`` tables, episode ``hand``, ``copy=False``:
  the loop keeps no observation, so it takes the env's buffers as they are): the learner
  draws a uniform legal id per table from the mask in numpy, ``step`` applies them
  and the compiled fixed players (``random`` or ``basic``) play until the learner is
  to act again. *Learner steps* count the learner's actions, *all actions* every
  seat's; *hands* the hands finished. The rows marked ``sample_legal`` draw the
  learner's ids with the env's compiled ``env.sample_legal()`` instead of numpy: the
  same uniform legal draw, at a fraction of the numpy pass over the masks.
- **aec**: ``aec_env`` (PettingZoo), every seat an agent choosing a uniform legal id
  from its mask: ``env.last()``, ``env.step``; a step is any seat's action.
- **rlcard**: ``rlcard.make(name)``, ``env.reset()``, then ``env.step`` a uniform choice
  among ``state["legal_actions"]`` until ``env.is_over()``; a step is any seat's action
  (bridge: the auction and 52 cards; uno: a game of UNO).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

clock: Callable[[], float] = time.process_time

PRESETS = ("merrimack-valley", "forty-one")
RLCARD_GAMES = ("bridge", "uno")


def vector_rate(preset: str, seconds: float, tables: int, opponents: str,
                seed: int = 1, compiled_draw: bool = False) -> dict[str, float]:
    from forties.envs.vector import FortiesVectorEnv

    # copy=False: the loop keeps nothing, and the figures stay those of the env's own work
    env = FortiesVectorEnv(preset, tables=tables, opponents=opponents, episode="hand",
                           seed=seed, copy=False)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def draw() -> Any:
        if compiled_draw:
            return env.sample_legal()
        m = obs["action_mask"]
        return (rng.random(m.shape) * m).argmax(axis=1)

    for _ in range(20):  # spread the tables over every stage of a hand
        obs, *_ = env.step(draw())
    steps = 0
    ends = 0
    start = clock()
    while clock() - start < seconds:
        obs, _, done, trunc, _ = env.step(draw())
        steps += tables
        ends += int((done | trunc).sum())
    elapsed = clock() - start
    out = {"learner_steps": steps / elapsed, "hands": ends / elapsed}
    if opponents == "random":  # everyone plays at random: a hand's mean length applies
        out["all_actions"] = ends / elapsed * random_hand_length(preset)
    return out


def random_hand_length(preset: str) -> float:
    """The mean number of actions (every seat's) in a random hand, from 400 hands."""
    from forties import build_rules, new_game

    rules = build_rules(preset)
    rng = random.Random(3)
    total = 0
    for i in range(400):
        st = new_game(rules, seed=i)
        while not st.hand_over:
            legal = st.legal_actions()
            st.apply(legal[int(rng.random() * len(legal))])
            total += 1
    return total / 400


def aec_rate(preset: str, seconds: float, seed: int = 1) -> dict[str, float]:
    from forties.envs import aec_env

    env = aec_env(preset, episode="hand")
    rng = random.Random(seed)
    steps = hands = 0
    env.reset(seed=seed)
    start = clock()
    while clock() - start < seconds:
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            env.step(int(ids[int(rng.random() * len(ids))]))
            steps += 1
            del agent
        hands += 1
        env.reset()
    elapsed = clock() - start
    return {"steps": steps / elapsed, "hands": hands / elapsed}


def rlcard_rate(name: str, seconds: float, seed: int = 1) -> dict[str, float]:
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)
    steps = episodes = 0
    state, _ = env.reset()
    start = clock()
    while clock() - start < seconds:
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(legal[int(rng.random() * len(legal))])
            steps += 1
        episodes += 1
        state, _ = env.reset()
    elapsed = clock() - start
    return {"steps": steps / elapsed, "hands": episodes / elapsed}


def run(seconds: float, rounds: int, tables: int) -> dict[str, Any]:
    rows: dict[str, list[dict[str, float]]] = {}
    for _ in range(rounds):
        for preset in PRESETS:
            for opp in ("random", "basic"):
                rows.setdefault(f"vector {preset} vs {opp}", []).append(
                    vector_rate(preset, seconds, tables, opp))
                rows.setdefault(f"vector {preset} vs {opp}, sample_legal", []).append(
                    vector_rate(preset, seconds, tables, opp, compiled_draw=True))
            rows.setdefault(f"aec {preset}", []).append(aec_rate(preset, seconds))
        for name in RLCARD_GAMES:
            rows.setdefault(f"rlcard {name}", []).append(rlcard_rate(name, seconds))
    out: dict[str, Any] = {"seconds": seconds, "rounds": rounds, "tables": tables,
                           "rows": {}, "ratios": {}}
    for name, rs in rows.items():
        out["rows"][name] = {k: statistics.median(r[k] for r in rs) for k in rs[0]}
    pairs = []
    for preset in PRESETS:
        pairs += [(f"vector {preset} vs random", "learner_steps", "rlcard bridge", "steps"),
                  (f"vector {preset} vs random", "all_actions", "rlcard bridge", "steps"),
                  (f"vector {preset} vs basic", "learner_steps", "rlcard bridge", "steps"),
                  (f"aec {preset}", "steps", "rlcard bridge", "steps"),
                  (f"vector {preset} vs random", "learner_steps", f"aec {preset}", "steps")]
        pairs += [(f"vector {preset} vs {opp}, sample_legal", "learner_steps",
                   f"vector {preset} vs {opp}", "learner_steps") for opp in ("random", "basic")]
    for a, ka, b, kb in pairs:
        ratios = [ra[ka] / rb[kb] for ra, rb in zip(rows[a], rows[b], strict=True)]
        out["ratios"][f"{a} [{ka}] / {b} [{kb}]"] = statistics.median(ratios)
    return out


def report(result: dict[str, Any]) -> str:
    lines = [f"{result['rounds']} rounds of {result['seconds']} CPU s per row; "
             f"vector: {result['tables']} tables", "",
             "| environment | steps/s | hands/s | all actions/s |",
             "| --- | ---: | ---: | ---: |"]
    for name, r in result["rows"].items():
        steps = r.get("learner_steps", r.get("steps", 0.0))
        every = r.get("all_actions", r.get("steps"))
        shown = "" if every is None else f"{every:,.0f}"
        lines.append(f"| {name} | {steps:,.0f} | {r['hands']:,.0f} | {shown} |")
    lines += ["", "| ratio (same run, median of the rounds') | value |", "| --- | ---: |"]
    for name, v in result["ratios"].items():
        lines.append(f"| {name} | {v:.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.envs",
                                 description="Steps per second of the research environments "
                                             "beside RLCard's.")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per row a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tables", type=int, default=1024)
    ap.add_argument("--json", default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.tables < 1:
        ap.error("--seconds must be above 0, --rounds and --tables at least 1")
    try:
        import rlcard  # noqa: F401
    except ImportError:
        ap.exit(2, "the environments' benchmark needs RLCard: pip install 'forties[bench]'\n")
    result = run(args.seconds, args.rounds, args.tables)
    print(report(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
