"""What a computer player is (``Bot``), and the one loop in which computer players play a
hand or a game (``play_hand``, ``play_out``): every caller that plays their games uses it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from ..actions import Action
from ..record import Recorder
from ..state import GameState, Phase


class Bot(Protocol):
    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action: ...


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
