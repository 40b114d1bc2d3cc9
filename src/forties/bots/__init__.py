"""Computer players. They see a game only through the public API: the per-seat view
and the legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from ..actions import Action
from ..record import Recorder
from ..state import GameState, Phase


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]


LEVELS = ("random", "basic", "expert", "oracle", "ismcts")

# What the table shows of each seat (a computer player's level, None for a person).
Seats = Sequence[str | None] | None
# A player of one level, made from its generator and what the table shows of the seats.
Maker = Callable[[random.Random, Seats], Bot]


def unavailable(level: str) -> str | None:
    """Why ``level`` cannot play on this machine (None: it can)."""
    if level == "ismcts":
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            return "ismcts needs OpenSpiel: pip install 'forties[research]'"
    return None


def _basic(rng: random.Random, seats: Seats) -> Bot:
    from .basic import BasicBot

    return BasicBot()


def _expert(rng: random.Random, seats: Seats) -> Bot:
    from .expert import ExpertBot

    return ExpertBot(rng, seats=seats)


def _oracle(rng: random.Random, seats: Seats) -> Bot:
    from .oracle import OracleBot

    return OracleBot(rng)


def _ismcts(rng: random.Random, seats: Seats) -> Bot:
    why = unavailable("ismcts")
    if why:
        raise ValueError(why)
    from ..envs.spiel import IsmctsBot

    return IsmctsBot(rng)


# Every player by its level's name: LEVELS, which the tables offer, and any that the lab
# adds to measure them against one another (``lab/levels.py``), which the arena then takes.
PLAYERS: dict[str, Maker] = {"random": lambda rng, seats: RandomBot(rng), "basic": _basic,
                             "expert": _expert, "oracle": _oracle, "ismcts": _ismcts}


def make_bot(level: str, rng: random.Random, seats: Seats = None) -> Bot:
    """A computer player of ``level`` (one of LEVELS, or of PLAYERS).

    ``seats`` is what the table shows of each seat, as the people at it see it: a computer
    player's level, or None for a person. The ``expert`` whose two opponents are both
    ``basic`` computers plays its 45s cards against ``basic``'s rule
    (``ExpertBot.models_basic``); the lab's levels take no account of it."""
    maker = PLAYERS.get(level)
    if maker is None:
        raise ValueError(f"unknown level {level!r}: {', '.join(LEVELS)}")
    return maker(rng, seats)


class SeesAll(Protocol):
    """A player that plays from the whole game, every seat's cards (``needs_state``: the
    oracle, IS-MCTS): the arena gives it the game; a table shows it its seat alone."""

    needs_state: bool

    def choose_from_state(self, state: GameState) -> Action: ...


def choose(state: GameState, bot: Bot, sees_all: bool = False) -> Action:
    """``bot``'s action at ``state``'s turn, from the view of the seat to act; with
    ``sees_all``, from the whole game for a bot that plays so (``SeesAll``)."""
    if sees_all and getattr(bot, "needs_state", False):
        return cast(SeesAll, bot).choose_from_state(state)
    seat = state.turn
    assert seat is not None
    return bot.choose(state.view(seat), state.legal_actions())


def play_hand(game: GameState | Recorder, bots: Sequence[Bot], to_play: bool = False,
              sees_all: bool = False,
              on_action: Callable[[GameState], None] | None = None) -> None:
    """Computer players (one per seat) play ``game``'s hand to its end; with ``to_play``,
    only up to its first card (the auction, the draw: whatever comes before). A
    ``Recorder`` records every action. ``on_action`` sees the state after each action."""
    st = game.state if isinstance(game, Recorder) else game
    while not st.hand_over and not (to_play and st.phase is Phase.PLAY):
        seat = st.turn
        assert seat is not None
        game.apply(choose(st, bots[seat], sees_all))
        if on_action is not None:
            on_action(st)


def play_out(game: GameState | Recorder, bots: Sequence[Bot], max_hands: int | None = 500,
             sees_all: bool = False,
             on_action: Callable[[GameState], None] | None = None) -> int:
    """Computer players (one per seat) play ``game`` to its end, or to the end of its
    ``max_hands``-th hand (None: no limit), as ``play_hand`` plays each hand: the number of
    hands played. Every loop that plays computer players' games is this one."""
    st = game.state if isinstance(game, Recorder) else game
    hands = 1
    while True:
        play_hand(game, bots, sees_all=sees_all, on_action=on_action)
        if st.over or (max_hands is not None and hands >= max_hands):
            return hands
        game.next_hand()
        hands += 1
