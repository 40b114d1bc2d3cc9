"""Double-dummy search: the best result each side can force with every card seen.

Forty-Fives (``solve``, ``best_moves``, ``par``): exact, from any point of the
play. The hand is a game between two coalitions: with a bidder, the bidding
side (the bidder, his partner once known; in Call Your Partner the holder of
the called card plays with the bidder until the end of the second trick, and
counts with him only if he has shown the card by then) against every other
seat; without a bidder (Traditional 45), a side against all the rest. Values
are the points the coalition holds at the end of the hand (0..30, points
already taken included). Every following rule of the rules is searched exactly
as the engine's ``legal_play_mask`` has it. Traditional 45's stop at the game
target is not searched: the value is the hand played out.

Forty One (``solve_forty_one``, ``best_moves_forty_one``): tricks for a team
(or a seat alone). Exact when at most ``exact_tricks`` tricks are left,
otherwise a search ``depth`` tricks deep with ``twin.estimate`` standing in for
the rest.

``engine`` is ``"kernel"`` (compiled with numba, the default) or ``"python"``
(the pure-Python twin); both give the same values.
"""

from __future__ import annotations

from ..actions import Action
from ..fortyfives import PLAY_ACTIONS, FortyFivesState
from ..fortyone import PLAY_ACTIONS as PLAY_ACTIONS_41
from ..fortyone import FortyOneState
from ..state import GameState, Phase
from . import twin
from .position import Position, forty_fives_position, forty_one_position

__all__ = [
    "Position",
    "best_moves",
    "best_moves_forty_one",
    "coalition_seats",
    "future_units",
    "par",
    "solve",
    "solve_forty_one",
]

ENGINES = ("kernel", "python")


def future_units(pos: Position, engine: str = "kernel") -> int:
    """Units the side maximised in ``pos`` takes from here on (see ``position.py``)."""
    return _many([pos], engine)[0]


def _many(positions: list[Position], engine: str) -> list[int]:
    """``future_units`` of positions from one deal, sharing one transposition table."""
    if engine == "python":
        table: twin.Table = {}
        return [twin.future(p, table) for p in positions]
    if engine == "kernel":
        from . import kernel

        return kernel.future_many(positions)
    raise ValueError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")


def _move_values(pos: Position, seat: int, engine: str) -> dict[int, int]:
    """Each legal compact card of ``seat``, lowest first, with the units the side
    maximised holds at the end (banked ones included) if it is played; one card of each
    run of equivalent cards is searched."""
    reps = pos.representatives(seat)
    kids = sorted(set(reps.values()))
    children = [pos.play(c) for c in kids]
    units = _many(children, engine)
    value = {c: ch.base + u for c, ch, u in zip(kids, children, units, strict=True)}
    return {c: value[r] for c, r in sorted(reps.items())}


# ----- Forty-Fives ----------------------------------------------------------------------

def _pending_holder(state: FortyFivesState) -> int:
    """The seat holding (or having just played) the called card while it is not yet known
    whether he partners the bidder; -1 if there is none."""
    if not state.rules.call_partner or state.called <= 0 or state.partner >= 0:
        return -1
    if state.trick_no >= 2 or state.phase is not Phase.PLAY:
        return -1
    holder = -1
    for s in range(state.n):
        if state.hands[s] & state.called:
            holder = s
    for i, c in enumerate(state.trick_cards):
        if 1 << c == state.called:
            holder = (state.trick_leader + i) % state.n
    return -1 if holder == state.bidder else holder


def coalition_seats(state: FortyFivesState, side: int) -> tuple[int, bool]:
    """The seats of the bidding coalition (or, without a bidder, of ``side``) as a mask,
    and whether ``side`` belongs to it. The pending holder of a called card is included."""
    if state.bidder < 0:
        return sum(1 << s for s in state.sides[side]), True
    mask = 0
    for x in state.bidding_sides():
        for s in state.sides[x]:
            mask |= 1 << s
    pend = _pending_holder(state)
    if pend >= 0:
        mask |= 1 << pend
    return mask, any(mask >> s & 1 for s in state.sides[side])


def _pending_terms(state: FortyFivesState, mask: int) -> tuple[int, int, int]:
    """The pending holder (or -1), the units he has taken, and the units the coalition
    ``mask`` has banked without him."""
    pend = _pending_holder(state) if state.bidder >= 0 else -1
    pts = state.points
    pu = pts[state.side_of[pend]] // 5 if pend >= 0 else 0
    taken_sides = {state.side_of[s] for s in range(state.n) if mask >> s & 1 and s != pend}
    return pend, pu, sum(pts[x] for x in taken_sides) // 5


def _ff_position(state: FortyFivesState, mask: int) -> Position:
    pend, pu, base = _pending_terms(state, mask)
    return forty_fives_position(state, mask, pend, pu, base)


def _hand_total(state: FortyFivesState) -> int:
    """The points the whole hand is worth: 25, and 5 more if a trump is held."""
    return 30 if state.bonus_card >= 0 else 25


# The most seats a position may have: the compiled search keys its table on six hands.
MAX_SEATS = 6


def _check_ff(state: GameState) -> FortyFivesState:
    if not isinstance(state, FortyFivesState):
        raise TypeError("a Forty-Fives game is needed (use solve_forty_one for Forty One)")
    if state.n > MAX_SEATS:
        raise ValueError(f"the solver searches hands of up to {MAX_SEATS} players, not "
                         f"{state.n}")
    if state.phase is not Phase.PLAY and not (state.hand_over and state.trump >= 0
                                              and state.tricks):
        raise ValueError(f"the hand is not being played (phase {state.phase.value})")
    return state


def solve(state: GameState, side: int, engine: str = "kernel") -> int:
    """The points ``side``'s coalition holds at the end of the hand with best play by all
    (points already taken included). ``side`` indexes ``state.sides``.

    With a bidder there are two coalitions: the bidding side (with the partner, or the
    holder of the called card while he may still show it) and the defenders; a defending
    side's value is what all the defenders hold together. Without a bidder, ``side``
    plays against all the rest."""
    ff = _check_ff(state)
    mask, inside = coalition_seats(ff, side)
    if ff.phase is not Phase.PLAY:
        own = sum(ff.points[x] for x in range(len(ff.sides))
                  if any(mask >> s & 1 for s in ff.sides[x]))
        return own if inside else sum(ff.points) - own
    pend, pu, base = _pending_terms(ff, mask)
    if engine == "kernel":
        from . import kernel

        units = kernel.future_ff(ff, mask, pend, pu)
    else:
        units = future_units(forty_fives_position(ff, mask, pend, pu, base), engine)
    value = 5 * (base + units)
    return value if inside else _hand_total(ff) - value


def par(state: GameState, engine: str = "kernel") -> int:
    """The points the bidding side takes with all cards seen and best play by all."""
    ff = _check_ff(state)
    if ff.bidder < 0:
        raise ValueError("there is no bidder in this hand (solve a side instead)")
    return solve(ff, ff.side_of[ff.bidder], engine)


def best_moves(state: GameState, engine: str = "kernel") -> dict[Action, int]:
    """Each legal card of the seat to play, with the points its coalition holds at the end
    of the hand if it plays that card and everyone plays best from then on."""
    ff = _check_ff(state)
    seat = ff.turn
    if ff.phase is not Phase.PLAY or seat is None:
        return {}
    mask, _ = coalition_seats(ff, ff.side_of[seat])
    inside = bool(mask >> seat & 1)
    pos = _ff_position(ff, mask)
    total = _hand_total(ff)
    return {PLAY_ACTIONS[seat][pos.cards[c]]: 5 * u if inside else total - 5 * u
            for c, u in _move_values(pos, seat, engine).items()}


# ----- Forty One ------------------------------------------------------------------------

def _check_41(state: GameState) -> FortyOneState:
    if not isinstance(state, FortyOneState):
        raise TypeError("a Forty One game is needed (use solve for the Forty-Fives)")
    if state.phase is not Phase.PLAY and not (state.hand_over and state.tricks):
        raise ValueError(f"the hand is not being played (phase {state.phase.value})")
    return state


def _team_mask(seat: int, alone: bool) -> int:
    return 1 << seat if alone else (1 << seat) | (1 << ((seat + 2) % 4))


def _horizon(state: FortyOneState, exact_tricks: int, depth: int) -> int:
    left = 13 - state.trick_no
    if left <= exact_tricks:
        return 13
    return state.trick_no + max(depth, 1)


def solve_forty_one(state: GameState, seat: int, alone: bool = False, exact_tricks: int = 6,
                    depth: int = 2, engine: str = "kernel") -> int:
    """The tricks ``seat``'s team (or ``seat`` alone against the other three) takes in the
    hand, tricks already taken included. Exact when at most ``exact_tricks`` tricks are
    left (the trick in progress counted); otherwise searched ``depth`` tricks deep and
    estimated beyond."""
    g = _check_41(state)
    mask = _team_mask(seat, alone)
    if g.phase is not Phase.PLAY:
        return sum(g.taken[s] for s in range(4) if mask >> s & 1)
    pos = forty_one_position(g, mask, _horizon(g, exact_tricks, depth))
    return pos.base + future_units(pos, engine)


def best_moves_forty_one(state: GameState, alone: bool = False, exact_tricks: int = 6,
                         depth: int = 2, engine: str = "kernel") -> dict[Action, int]:
    """Each legal card of the seat to play, with the tricks its team (or itself alone)
    takes in the hand if it plays that card (searched as ``solve_forty_one`` does)."""
    g = _check_41(state)
    seat = g.turn
    if g.phase is not Phase.PLAY or seat is None:
        return {}
    pos = forty_one_position(g, _team_mask(seat, alone), _horizon(g, exact_tricks, depth))
    return {PLAY_ACTIONS_41[seat][pos.cards[c]]: u
            for c, u in _move_values(pos, seat, engine).items()}
