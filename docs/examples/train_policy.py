"""Train a small policy on the vector environment, then play it against `random` in a
duplicate match.

    .venv/bin/python docs/examples/train_policy.py --minutes 3

The policy is a one-hidden-layer network in numpy (no other library), trained by the
policy gradient with a learned baseline (advantage actor-critic on whole hands): seat 0
of every table learns against `random` players, one hand an episode, its reward the
points its side's score moved by. Illegal actions are masked out of the softmax. At
the end the policy plays every seat of one team in a duplicate match against `random`
(each deal played once per rotation of the teams, as `forties arena` does) and the
margin per hand is printed with its 95% interval.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from forties import build_rules, new_game
from forties.actions import Action
from forties.arena import arena_teams, mean_interval, team_total
from forties.bots import RandomBot
from forties.bots.play import Bot
from forties.envs.encoding import Encoder
from forties.envs.vector import FortiesVectorEnv
from forties.state import Phase

Array = Any


class Policy:
    """obs -> relu(W1) -> (masked logits, value)."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator):
        s1, s2 = np.sqrt(2.0 / inputs), np.sqrt(1.0 / hidden)
        self.p = {
            "W1": rng.normal(0, s1, (inputs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0, s2 * 0.1, (hidden, actions)).astype(np.float32),
            "b2": np.zeros(actions, np.float32),
            "wv": np.zeros(hidden, np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, obs: Array, mask: Array) -> tuple[Array, Array, Array]:
        h = np.maximum(obs @ self.p["W1"] + self.p["b1"], 0)
        z = h @ self.p["W2"] + self.p["b2"]
        z = np.where(mask > 0, z, -1e9)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        probs = e / e.sum(axis=1, keepdims=True)
        value = h @ self.p["wv"] + self.p["bv"][0]
        return probs, value, h

    def update(self, obs: Array, mask: Array, actions: Array, returns: Array,
               lr: float, value_coef: float = 0.5, entropy_coef: float = 0.01) -> None:
        probs, value, h = self.forward(obs, mask)
        n = len(actions)
        adv = returns - value
        adv = (adv - adv.mean()) / (adv.std() + 1e-6)
        dz = probs.copy()
        dz[np.arange(n), actions] -= 1.0
        dz *= adv[:, None] / n
        logp = np.log(probs + 1e-12)
        ent = -(probs * logp).sum(axis=1, keepdims=True)
        dz += entropy_coef * probs * (logp + ent) / n * (mask > 0)
        dv = value_coef * 2 * (value - returns) / n / max(returns.std(), 1.0) ** 2
        grads = {
            "W2": h.T @ dz, "b2": dz.sum(axis=0),
            "wv": h.T @ dv, "bv": np.array([dv.sum()], np.float32),
        }
        dh = (dz @ self.p["W2"].T + np.outer(dv, self.p["wv"])) * (h > 0)
        grads["W1"] = obs.T @ dh
        grads["b1"] = dh.sum(axis=0)
        self.t += 1
        for k, g in grads.items():  # Adam
            g = g.astype(np.float32)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= lr * mh / (np.sqrt(vh) + 1e-8)


def train(preset: str, minutes: float, tables: int, seed: int, hidden: int) -> Policy:
    env = FortiesVectorEnv(preset, tables=tables, seat=0, opponents="random",
                           reward="hand", episode="hand", seed=seed)
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    policy = Policy(obs["observation"].shape[1], obs["action_mask"].shape[1], hidden, rng)
    pending: list[list[tuple[Array, Array, int]]] = [[] for _ in range(tables)]
    batch: list[tuple[Array, Array, int, float]] = []
    recent: list[float] = []
    start = last = time.monotonic()
    steps = hands = 0
    while time.monotonic() - start < minutes * 60:
        probs, _, _ = policy.forward(obs["observation"], obs["action_mask"])
        cum = probs.cumsum(axis=1)
        actions = (cum < rng.random((tables, 1)) * cum[:, -1:]).sum(axis=1)
        actions = np.minimum(actions, probs.shape[1] - 1)
        for t in range(tables):
            pending[t].append((obs["observation"][t].copy(), obs["action_mask"][t].copy(),
                               int(actions[t])))
        obs, reward, done, trunc, _ = env.step(actions)
        steps += 1
        for t in np.flatnonzero(done | trunc):
            batch += [(o, m, a, float(reward[t])) for o, m, a in pending[t]]
            recent.append(float(reward[t]))
            pending[t] = []
            hands += 1
        if len(batch) >= 4 * tables:
            o, m, a, g = (np.array(x) for x in zip(*batch, strict=True))
            policy.update(o, m, a, g.astype(np.float32), lr=1e-3)
            batch = []
        if time.monotonic() - last > 10:
            last = time.monotonic()
            print(f"  {last - start:5.0f} s: {hands} hands, the learner's side "
                  f"{np.mean(recent[-2000:]):+.2f} points a hand against random", flush=True)
    print(f"trained {time.monotonic() - start:.0f} s: {steps} steps of {tables} tables, "
          f"{hands} hands")
    return policy


class PolicyBot:
    """The trained policy as a forties player: the most likely legal action."""

    name = "policy"

    def __init__(self, policy: Policy, encoder: Encoder) -> None:
        self.policy = policy
        self.encoder = encoder

    def choose(self, view: dict[str, Any], legal: Any) -> Action:
        from forties.cards import mask_of_names

        phase = Phase(view["phase"])
        hand = mask_of_names(view["hand"])
        if phase is Phase.PACK:
            return legal[0]  # pass: this small example does not rob the pack
        obs = self.encoder.observe(view)[None, :]
        mask = self.encoder.mask(phase, legal, hand)[None, :]
        probs, _, _ = self.policy.forward(obs, mask)
        return self.encoder.decode(int(probs[0].argmax()), view["seat"], phase, hand)


def duplicate(preset: str, bot: Bot, deals: int, seed: int) -> Any:
    """The bot's margin per hand over `random`, each deal played in every rotation (any
    player: this policy, or maskable_ppo.py's)."""
    rules = build_rules(preset)
    teams = arena_teams(rules)
    margins = []
    for i in range(deals):
        per_rotation = []
        for rot, team in enumerate(teams):
            st = new_game(rules, seed=seed * 1_000_003 + i, first_dealer=i % rules.players)
            rng = random.Random(seed * 7919 + i * 31 + rot)
            bots: list[Any] = [bot if s in team else RandomBot(rng) for s in range(st.n)]
            before = list(st.scores)
            while not st.hand_over:
                s = st.turn
                assert s is not None
                st.apply(bots[s].choose(st.view(s), st.legal_actions()))
            gains = [team_total(st, t, before) for t in teams]
            others = [g for j, g in enumerate(gains) if j != rot]
            per_rotation.append(gains[rot] - sum(others) / len(others))
        margins.append(sum(per_rotation) / len(per_rotation))
    return mean_interval(margins)


def verdict(result: Any) -> str:
    """What the margin says, as its 95% interval allows: beats, loses to, or level."""
    interval = f"(95%: {result.low:+.2f} .. {result.high:+.2f})"
    if result.low > 0:
        return f"beats random by {result.mean:+.2f} points a hand {interval}"
    if result.high < 0:
        return f"loses to random by {-result.mean:.2f} points a hand {interval}"
    return (f"is level with random (no clear difference): {result.mean:+.2f} points a "
            f"hand {interval}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="merrimack-valley")
    ap.add_argument("--minutes", type=float, default=3.0, help="training time")
    ap.add_argument("--tables", type=int, default=512)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--deals", type=int, default=500, help="duplicate deals to judge it")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.minutes <= 0 or args.tables < 1 or args.deals < 1:
        ap.error("--minutes must be above 0, --tables and --deals at least 1")
    policy = train(args.preset, args.minutes, args.tables, args.seed, args.hidden)
    bot = PolicyBot(policy, Encoder(build_rules(args.preset)))
    result = duplicate(args.preset, bot, args.deals, args.seed + 1000)
    print(f"duplicate match, {args.deals} deals: the policy {verdict(result)}")


if __name__ == "__main__":
    main()
