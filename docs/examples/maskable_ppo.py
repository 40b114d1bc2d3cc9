"""Train MaskablePPO (sb3-contrib) on the single-agent environment, then play it against
`random` in a duplicate match.

    make bench-envs                                   # installs .venv-learn, runs this
    .venv-learn/bin/python docs/examples/maskable_ppo.py --steps 150000

Stable-Baselines3's MaskablePPO learns seat 0 of `forties.envs.gym_env` against
`random` players (the seat's partner is `random` too), one hand an episode, its reward
the points its side's score moved by; `action_masks()` keeps it to legal ids. Then the
trained policy (its most likely legal id) plays every seat of one team against `random`
in a duplicate match (`train_policy.duplicate`: each deal played once per rotation of
the teams), and so does the same network before training, on the same deals: the
margins per hand, with their 95% intervals, say whether it learned to beat `random`.

It needs torch, stable-baselines3 and sb3-contrib: the `learn` extra
(`pip install 'forties[research,learn]'`), kept out of `make test`'s venv because torch
is large. Arguments are checked before any of them is imported.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forties.actions import Action

LEARN_PACKAGES = ("torch", "stable_baselines3", "sb3_contrib")


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="merrimack-valley")
    ap.add_argument("--steps", type=int, default=150_000,
                    help="training steps (the learner's decisions)")
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together")
    ap.add_argument("--deals", type=int, default=400, help="duplicate deals to judge it")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.steps < 1 or args.envs < 1 or args.deals < 1 or args.seed < 0:
        ap.error("--steps, --envs and --deals must be at least 1, --seed at least 0")
    if args.preset == "forty-one":
        ap.error("--preset: a Forty-Fives preset (merrimack-valley, nova-scotia, "
                 "auction-45, call-your-partner)")
    return args


def missing_packages() -> list[str]:
    return [p for p in LEARN_PACKAGES if importlib.util.find_spec(p) is None]


class PPOBot:
    """The trained network as a forties player: its most likely legal action."""

    name = "maskable-ppo"

    def __init__(self, model: Any, encoder: Any) -> None:
        self.model = model
        self.encoder = encoder

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        from forties.cards import mask_of_names
        from forties.state import Phase

        phase = Phase(view["phase"])
        hand = mask_of_names(view["hand"])
        if phase is Phase.PACK:
            return legal[0]  # pass: robbing the pack takes several ids (not in the presets)
        obs = self.encoder.observe(view)
        mask = self.encoder.mask(phase, legal, hand).astype(bool)
        i, _ = self.model.predict(obs, action_masks=mask, deterministic=True)
        action: Action = self.encoder.decode(int(i), view["seat"], phase, hand)
        return action


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    missing = missing_packages()
    if missing:
        print(f"maskable_ppo.py needs {', '.join(missing)}: the learn extra, "
              "pip install 'forties[research,learn]' (make bench-envs installs it in "
              ".venv-learn)", file=sys.stderr)
        return 2
    import gymnasium
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv
    from train_policy import duplicate, verdict  # beside this file

    from forties import build_rules
    from forties.envs import gym_env
    from forties.envs.encoding import Encoder

    torch.set_num_threads(1)  # one core, as the other figures of docs/research.md

    class Observation(gymnasium.ObservationWrapper[Any, int, Any]):
        """The observation vector alone (the mask goes through ``action_masks()``)."""

        def __init__(self, env: Any) -> None:
            super().__init__(env)
            self.observation_space = env.observation_space["observation"]

        def observation(self, observation: Any) -> Any:
            return observation["observation"]

        def action_masks(self) -> Any:
            return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]

    def make(i: int) -> Any:
        def build() -> Any:
            env = Observation(gym_env(args.preset, opponents="random", episode="hand",
                                      illegal="raise"))
            env.reset(seed=args.seed * 1_000 + i)
            return env
        return build

    venv = DummyVecEnv([make(i) for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, n_epochs=4,
                        gamma=1.0, gae_lambda=0.95, learning_rate=3e-4, ent_coef=0.01,
                        policy_kwargs={"net_arch": [128, 128]}, seed=args.seed, verbose=0)
    bot = PPOBot(model, Encoder(build_rules(args.preset)))
    before = duplicate(args.preset, bot, args.deals, args.seed + 1000)
    cpu, wall = time.process_time(), time.monotonic()
    model.learn(total_timesteps=args.steps)
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    after = duplicate(args.preset, bot, args.deals, args.seed + 1000)
    print(f"{args.preset}: MaskablePPO, {model.num_timesteps} training steps "
          f"({args.envs} environments, seed {args.seed}), {cpu:.0f} s of CPU "
          f"({wall:.0f} s), torch {torch.__version__}, python {platform.python_version()}")
    print(f"duplicate match, {args.deals} deals: before training the network "
          f"{verdict(before)}")
    print(f"duplicate match, {args.deals} deals: after training the policy {verdict(after)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
