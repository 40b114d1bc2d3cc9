"""Two smaller evenings of Nova Scotia 45 (*Nova Scotia 45-Card-Games and Traditional
45*, in docs/rules.md): the six-player ante, and a home evening of
best-two-out-of-three matches.

The ante: six players each put the same stake in; two teams of three (seats
0, 2, 4 against 1, 3, 5) play a full game; the three winners then play a game of
cut-throat, each for himself, and its winner takes the whole ante. The home
evening: two couples play matches of best two games out of three (the engine's
``match = best-of-3``), keeping count of the matches and of the games won.
Both are plain records of results with their rules checked, and both can be
played out by computer players through the engine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bots import play_out
from ..games import new_game
from ..players import make_bot
from ..rules import FORTY_FIVES, Rules, RulesError, build_rules, find_preset
from ..state import GameState
from .events import HallError


def _rules(preset: str, options: Mapping[str, Any], forced: Mapping[str, Any]) -> Rules:
    try:
        if find_preset(preset).game != FORTY_FIVES:
            raise HallError(f"{preset} is not a game of 45s")
        return build_rules(preset, {**options, **forced})
    except RulesError as e:
        raise HallError(str(e)) from None


def _play(state: GameState, levels: Sequence[str], rng: random.Random) -> GameState:
    seats = [levels[s % len(levels)] for s in range(state.n)]
    play_out(state, [make_bot(level, rng, seats=seats) for level in seats], max_hands=None)
    return state


# ----- the six-player ante -------------------------------------------------------------------


@dataclass
class Ante:
    """Six players (in seat order) and their stake; the two games' results as they come."""

    names: tuple[str, ...]
    stake: int = 1
    preset: str = "nova-scotia"
    options: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0
    team_winner: int | None = None  # 0: seats 0, 2, 4; 1: seats 1, 3, 5
    winner: int | None = None  # the seat (0..5) that takes the ante

    def __post_init__(self) -> None:
        if len(self.names) != 6 or not all(n.strip() for n in self.names):
            raise HallError("the ante is for six players: give six names")
        if self.stake < 1:
            raise HallError("the stake must be at least 1")
        if not 0 <= self.first_dealer < 6:
            raise HallError("the first dealer is a seat from 0 to 5")
        self.team_rules()
        self.final_rules()

    @property
    def pot(self) -> int:
        return 6 * self.stake

    def team_rules(self) -> Rules:
        """The first game: six players, two teams of three."""
        return _rules(self.preset, self.options, {"players": 6, "teams": "two-threes"})

    def final_rules(self) -> Rules:
        """The second game: three players, cut-throat."""
        return _rules(self.preset, self.options, {"players": 3, "teams": "individual"})

    def finalists(self) -> tuple[int, int, int]:
        """The seats of the winning team, in seat order."""
        if self.team_winner is None:
            raise HallError("the team game has no winner yet")
        return (self.team_winner, self.team_winner + 2, self.team_winner + 4)

    def final_first_dealer(self) -> int:
        """The finalist who deals first in the cut-throat game (its seat 0..2 there): the
        first of them at or after the team game's first dealer, going left."""
        order = [(s - self.first_dealer) % 6 for s in self.finalists()]
        return order.index(min(order))

    def report_teams(self, team: int) -> None:
        if self.team_winner is not None:
            raise HallError("the team game is already reported")
        if team not in (0, 1):
            raise HallError("the team game is won by team 0 (seats 0, 2, 4) or 1 (1, 3, 5)")
        self.team_winner = team

    def report_final(self, seat: int) -> None:
        """``seat`` (0..5, one of the three winners) won the cut-throat game."""
        finalists = self.finalists()
        if self.winner is not None:
            raise HallError("the cut-throat game is already reported")
        if seat not in finalists:
            raise HallError(f"seat {seat} is not in the cut-throat game (seats "
                            f"{', '.join(map(str, finalists))})")
        self.winner = seat

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "stake": self.stake, "preset": self.preset,
                "options": dict(self.options), "first_dealer": self.first_dealer,
                "team_winner": self.team_winner, "winner": self.winner}

    @classmethod
    def from_json(cls, obj: Any) -> Ante:
        if not isinstance(obj, dict) or not isinstance(obj.get("names"), list):
            raise HallError("an ante must be an object with six names")
        try:
            ante = cls(tuple(obj["names"]), obj.get("stake", 1), obj.get("preset", "nova-scotia"),
                       dict(obj.get("options", {})), obj.get("first_dealer", 0))
        except (TypeError, AttributeError, ValueError) as e:
            raise HallError(f"an ante cannot be read: {e}") from None
        if obj.get("team_winner") is not None:
            ante.report_teams(obj["team_winner"])
        if obj.get("winner") is not None:
            ante.report_final(obj["winner"])
        return ante


def play_ante(ante: Ante, seed: int, levels: Sequence[str] = ("basic",)) -> Ante:
    """Computer players play both games of ``ante`` (levels by seat, in turn)."""
    rng = random.Random(seed)
    team = _play(new_game(ante.team_rules(), seed=seed, first_dealer=ante.first_dealer),
                 levels, rng)
    w = team.winner
    assert isinstance(w, int)
    ante.report_teams(w)
    finalists = ante.finalists()
    final = _play(new_game(ante.final_rules(), seed=seed + 1,
                           first_dealer=ante.final_first_dealer()),
                  [levels[s % len(levels)] for s in finalists], rng)
    assert isinstance(final.winner, int)
    ante.report_final(finalists[final.winner])
    return ante


# ----- the home evening: best two out of three ----------------------------------------------


@dataclass(frozen=True)
class Match:
    """One match: the games each couple won (the winner on 2, the other on 0 or 1)."""

    games: tuple[int, int]

    @property
    def winner(self) -> int:
        return 0 if self.games[0] == 2 else 1


@dataclass
class HomeEvening:
    """Two couples (each two names) playing matches of best two out of three."""

    couples: tuple[tuple[str, str], tuple[str, str]]
    preset: str = "nova-scotia"
    options: dict[str, Any] = field(default_factory=dict)
    matches: list[Match] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.couples) != 2 or any(len(c) != 2 for c in self.couples):
            raise HallError("a home evening is two couples of two names")
        self.rules()

    def rules(self) -> Rules:
        rules = _rules(self.preset, self.options, {"match": "best-of-3"})
        if rules.players != 4:
            raise HallError("a home evening is two couples: four players")
        return rules

    def report(self, games: tuple[int, int]) -> Match:
        """A match ended with these games won by couple 0 (seats 0 and 2) and couple 1."""
        a, b = games
        if sorted((a, b)) not in ([0, 2], [1, 2]):
            raise HallError(f"a best-of-three match ends 2-0 or 2-1, not {a}-{b}")
        m = Match((a, b))
        self.matches.append(m)
        return m

    def tally(self) -> dict[str, tuple[int, int]]:
        """Matches and games won by each couple."""
        return {"matches": (sum(m.winner == 0 for m in self.matches),
                            sum(m.winner == 1 for m in self.matches)),
                "games": (sum(m.games[0] for m in self.matches),
                          sum(m.games[1] for m in self.matches))}


def play_home(evening: HomeEvening, matches: int, seed: int,
              levels: Sequence[str] = ("basic",)) -> HomeEvening:
    """Computer players play ``matches`` matches; the deal passes on from match to match."""
    rng = random.Random(seed)
    dealer = 0
    for i in range(matches):
        st = _play(new_game(evening.rules(), seed=seed * 1000 + i, first_dealer=dealer),
                   levels, rng)
        evening.report((st.games[0], st.games[1]))
        dealer = (st.dealer + 1) % 4
    return evening
