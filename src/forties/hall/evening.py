"""A 45-Card-Games evening: couples, the game-by-game seating, results, punch cards,
standings and prizes, derived from the evening's settings and its list of events.

``Hall`` is applied one event at a time (each checked, with a one-line
HallError if it cannot be done) and snapshotted exactly with ``to_json``;
``Hall.from_json`` replays the events, so a corrected result changes everything
that follows from it. A game's seating is fixed when the game begins: a result
corrected after the next game has begun changes the punch cards, not where the
couples sat.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..duplicate import matchpoints, percent_of_top
from .draw import commitment, cookie_jar_games, derived_seed
from .events import (
    Answer,
    Begin,
    Close,
    CutDeck,
    Event,
    HallError,
    Leave,
    PlayoffWin,
    Register,
    Rename,
    Result,
    Swap,
    Vote,
    event_from_json,
    event_to_json,
)
from .movement import HOME, VISITORS, Seating, choose_sit_out, first_seating, next_seating
from .prizes import BOOBY, Award, Contest, Level, awards, contest_key, prize_levels
from .settings import Settings

FORMAT = "forties-hall/1"
MAX_NAME = 60


@dataclass(frozen=True)
class Couple:
    """A registered couple: it plays games ``first_game`` to ``left_game - 1``."""

    number: int
    names: tuple[str, str]
    first_game: int = 1
    left_game: int | None = None

    def plays(self, game: int) -> bool:
        return self.first_game <= game and (self.left_game is None or game < self.left_game)

    @property
    def withdrawn(self) -> bool:
        return self.left_game is not None and self.left_game <= self.first_game

    @property
    def label(self) -> str:
        return f"{self.names[0]} & {self.names[1]}"


@dataclass(frozen=True)
class Standing:
    """A couple's evening so far: its punch card and its score."""

    couple: int
    names: tuple[str, str]
    won: tuple[int, ...]  # games punched: won at a table, or sat out when a bye counts
    byes: tuple[int, ...]  # games sat out
    played: int  # games played at a table
    absent: tuple[int, ...]  # games before it came or after it left
    score: Fraction  # games punched, or matchpoints (percent) in a duplicate evening
    place: int  # 1 + the number of couples with a better score

    @property
    def wins(self) -> int:
        return len(self.won)


@dataclass(frozen=True)
class Move:
    """Where a couple goes for a game: ``to_table`` None sits out; ``from_table`` None
    comes from sitting out or arrives."""

    couple: int
    from_table: int | None
    to_table: int | None
    deals_first: bool

    @property
    def stays(self) -> bool:
        return self.from_table is not None and self.from_table == self.to_table


@dataclass(frozen=True)
class CookieJar:
    games: tuple[int, ...]
    winners: tuple[int, ...]  # empty: nobody won it (it carries over)
    best: int  # the most drawn games any couple won


class Hall:
    """One evening: apply events (``register``, ``begin``, ``report``...), then read the
    seating, moves, punch cards, standings and prizes."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.events: list[Event] = []
        self.couples: dict[int, Couple] = {}
        self.seatings: list[Seating] = []
        self.results: list[dict[int, Result]] = []
        self.games = self.settings.games
        self.sat_out: dict[int, int] = {}
        self.notes: list[str] = []
        self.contest_events: dict[str, list[Vote | Answer | CutDeck | PlayoffWin]] = {}
        # replaying a saved evening: what was accepted then stands, even where a rule
        # added since would refuse it now (leaving after the last game, before 2026-11-28)
        self.replaying = False

    # ----- reading the evening ---------------------------------------------------------

    @property
    def started(self) -> bool:
        return bool(self.seatings)

    @property
    def begun(self) -> int:
        """The last game begun (0 before the start)."""
        return len(self.seatings)

    def game_complete(self, game: int) -> bool:
        return 1 <= game <= self.begun and len(self.results[game - 1]) == \
            len(self.seatings[game - 1].tables)

    @property
    def over(self) -> bool:
        return self.begun == self.games and self.game_complete(self.games)

    def active(self, game: int) -> list[int]:
        """The couples that play game ``game`` (seated or sitting out)."""
        return [c.number for c in self.couples.values() if c.plays(game)]

    def seating(self, game: int) -> Seating | None:
        """Game ``game``'s seating: fixed once begun; the next game's as it stands now
        (once the game before is complete); else None."""
        if 1 <= game <= self.begun:
            return self.seatings[game - 1]
        if game == self.begun + 1 and game <= self.games and \
                (game == 1 or self.game_complete(game - 1)):
            return self._compute_seating(game)
        return None

    def waiting(self, game: int) -> list[int]:
        """Tables of a begun game whose result is not in yet."""
        if not 1 <= game <= self.begun:
            return []
        done = self.results[game - 1]
        return [t for t in range(1, len(self.seatings[game - 1].tables) + 1) if t not in done]

    def result(self, game: int, table: int) -> Result | None:
        if not 1 <= game <= self.begun:
            return None
        return self.results[game - 1].get(table)

    def status(self) -> dict[str, Any]:
        """Where the evening stands, for a director's screen."""
        if not self.started:
            phase = "registration"
        elif self.over:
            phase = "prizes" if any(not c.decided for c in self.contests().values()) \
                else "finished"
        elif self.game_complete(self.begun):
            phase = "between games"
        else:
            phase = "playing"
        return {"phase": phase, "game": self.begun, "games": self.games,
                "waiting": self.waiting(self.begun), "couples": len(self.active(
                    max(1, self.begun))), "seed_sha256": commitment(self.settings.seed)}

    def deal_seed(self, game: int, table: int) -> int:
        """The seed of a table's deals: in a duplicate evening, the same at every table of
        a game (the couple that deals first holds seats 0 and 2, dealer seat 0)."""
        seed = self.settings.seed
        if self.settings.duplicate:
            return derived_seed(seed, "deals", game)
        return derived_seed(seed, "deals", game, table)

    def moves(self, game: int) -> list[Move]:
        """Where every couple goes for ``game``, by couple number ("couple 14 to table 8")."""
        now = self.seating(game)
        if now is None:
            return []
        before = self.seatings[game - 2] if game >= 2 else None
        out = []
        for c in sorted(now.couples()):
            place = now.place_of(c)
            src = None if before is None else before.table_of(c)
            out.append(Move(c, src, None if place is None else place[0],
                            place is not None and place[1] == VISITORS))
        return out

    # ----- punch cards and standings ---------------------------------------------------

    def _won_games(self) -> dict[int, list[int]]:
        won: dict[int, list[int]] = {c: [] for c in self.couples}
        for g, res in enumerate(self.results, 1):
            seat = self.seatings[g - 1]
            if seat.sitting_out is not None and self.settings.bye_wins:
                won[seat.sitting_out].append(g)
            for r in res.values():
                if r.winner is not None:
                    won[r.winner].append(g)
        return won

    def matchpoints(self) -> dict[int, dict[int, Fraction]]:
        """Duplicate scores: for each game, each couple's percentage of the matchpoints
        against the couples who held the same cards (the same place at other tables):
        1 for each one it beat, a half for each tie. A game is beaten by winning it, or
        by a better margin in points with the same outcome. A bye, a table with no game
        or a place nobody else held scores 50."""
        out: dict[int, dict[int, Fraction]] = {}
        for g, res in enumerate(self.results, 1):
            seat = self.seatings[g - 1]
            scores: dict[int, Fraction] = {}
            if seat.sitting_out is not None:
                scores[seat.sitting_out] = Fraction(50)
            for place in (VISITORS, HOME):
                keys: dict[int, tuple[int, int]] = {}
                for t, pair in enumerate(seat.tables, 1):
                    r = res.get(t)
                    if r is None:
                        continue
                    me, them = pair[place], pair[1 - place]
                    if r.winner is None or r.points is None:
                        scores[me] = Fraction(50)
                        continue
                    pts = dict(r.points)
                    keys[me] = (int(r.winner == me), pts[me] - pts[them])
                mp = matchpoints(keys)
                for c in keys:
                    scores[c] = percent_of_top(mp[c], len(keys))
            out[g] = scores
        return out

    def standings(self) -> list[Standing]:
        """Every couple that has played or will play, best score first."""
        won = self._won_games()
        mp = self.matchpoints() if self.settings.duplicate else {}
        played: dict[int, int] = dict.fromkeys(self.couples, 0)
        byes: dict[int, list[int]] = {c: [] for c in self.couples}
        for g, seat in enumerate(self.seatings, 1):
            for pair in seat.tables:
                for x in pair:
                    played[x] += 1
            if seat.sitting_out is not None:
                byes[seat.sitting_out].append(g)
        rows = []
        for c in self.couples.values():
            if c.withdrawn:
                continue
            absent = [g for g in range(1, self.games + 1) if not c.plays(g)]
            if self.settings.duplicate:
                score = sum((per.get(c.number, Fraction(0)) for per in mp.values()),
                            Fraction(0))
            else:
                score = Fraction(len(won[c.number]))
            rows.append((c, tuple(sorted(won[c.number])), tuple(byes[c.number]),
                         played[c.number], tuple(absent), score))
        rows.sort(key=lambda r: (-r[5], r[0].number))
        out: list[Standing] = []
        for i, (c, w, b, p, a, s) in enumerate(rows):
            place = i + 1 if i == 0 or s != rows[i - 1][5] else out[-1].place
            out.append(Standing(c.number, c.names, w, b, p, a, s, place))
        return out

    # ----- prizes ----------------------------------------------------------------------

    def prize_eligible(self, st: Standing) -> bool:
        c = self.couples[st.couple]
        return not (self.settings.present_to_win and c.left_game is not None)

    def prize_levels(self) -> list[Level]:
        """The scores that win prizes and their prizes, then the booby prize's level."""
        table = self.standings()
        ranked = [(s.couple, s.score) for s in table if self.prize_eligible(s)]
        levels = prize_levels(ranked, self.settings.prizes, self.settings.places)
        if self.settings.booby:
            taken = {c for lv in levels for c in lv.couples}
            whole = [s for s in table if s.couple not in taken and not s.absent]
            if whole:
                low = min(s.score for s in whole)
                levels.append(Level(low, tuple(sorted(s.couple for s in whole
                                                      if s.score == low)), (BOOBY,)))
        return levels

    def contests(self) -> dict[str, Contest]:
        """Every tie to break once the evening is over, walked through so far."""
        if not self.over:
            return {}
        out = {}
        for lv in self.prize_levels():
            if not lv.contested:
                continue
            key = contest_key(lv)
            ct = Contest(key, lv.couples, lv.prizes, lv.score, self.settings.tie_break,
                         self.settings.seed)
            ct.start()
            for e in self.contest_events.get(key, []):
                ct.apply(e)
            out[key] = ct
        return out

    def awards(self) -> list[Award]:
        """The prizes decided so far (after the evening), best first, then the booby."""
        if not self.over:
            return []
        return awards(self.prize_levels(), self.contests())

    def cookie_jar(self) -> CookieJar | None:
        """The cookie jar (once the evening is over): its games, and who won it."""
        s = self.settings
        if not s.cookie_jar or not self.over:
            return None
        drawn = cookie_jar_games(s.seed, self.games, s.cookie_jar)
        counts = {st.couple: len(set(st.won) & set(drawn)) for st in self.standings()
                  if self.prize_eligible(st)}
        best = max(counts.values(), default=0)
        need = len(drawn) if s.cookie_jar_rule == "all" else max(best, 1)
        return CookieJar(drawn, tuple(sorted(c for c, n in counts.items() if n >= need)), best)

    # ----- applying events -------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Check ``event`` and apply it; raises HallError (changing nothing) if it cannot
        be done now."""
        kind = type(event).__name__.lower()
        getattr(self, f"_apply_{kind}")(event)
        self.events.append(event)

    def register(self, names: Sequence[str], game: int | None = None) -> int:
        """Register a couple (two names); it plays from the next game not begun. Returns
        its number."""
        number = max(self.couples, default=0) + 1
        names = tuple(str(n).strip() for n in names)
        if len(names) != 2:
            raise HallError("a couple is two names")
        self.apply(Register(number, (names[0], names[1]), game or self.begun + 1))
        return number

    def rename(self, couple: int, names: Sequence[str]) -> None:
        """Correct couple ``couple``'s names (at any time: no result changes)."""
        names = tuple(str(n).strip() for n in names)
        if len(names) != 2:
            raise HallError("a couple is two names")
        self.apply(Rename(couple, (names[0], names[1])))

    def leave(self, couple: int, game: int | None = None) -> None:
        """``couple`` plays no game from ``game`` (default: the next game not begun)."""
        self.apply(Leave(couple, game or self.begun + 1))

    def begin(self, game: int | None = None) -> Seating:
        """Begin the next game (game 1 starts the evening); returns its seating."""
        self.apply(Begin(game or self.begun + 1))
        return self.seatings[-1]

    def report(self, game: int, table: int, winner: int | None,
               points: dict[int, int] | None = None) -> None:
        """Table ``table`` of game ``game`` was won by couple ``winner`` (None: no game).
        The first report of a game begins it."""
        event = Result(game, table, winner, _points(points))
        if game == self.begun + 1 and not self.over:
            seat = self.seating(game)
            if seat is None:
                self._apply_begin(Begin(game))  # raises: says why the game cannot begin
            else:
                self._check_result(event, seat)
            self.apply(Begin(game))
        self.apply(event)

    def correct(self, game: int, table: int, winner: int | None,
                points: dict[int, int] | None = None) -> None:
        """Replace a reported result."""
        self.apply(Result(game, table, winner, _points(points), correction=True))

    def _apply_register(self, e: Register) -> None:
        expected = max(self.couples, default=0) + 1
        if e.couple != expected:
            raise HallError(f"the next couple's number is {expected}, not {e.couple}")
        _check_names(e.names)
        if self.started and self.begun >= self.games:
            raise HallError("the last game has begun: no couple can join now")
        if not self.begun < e.game <= self.games:
            raise HallError(f"a couple registering now plays from game {self.begun + 1} "
                            f"to {self.games}, not from game {e.game}")
        self.couples[e.couple] = Couple(e.couple, e.names, e.game)

    def _apply_rename(self, e: Rename) -> None:
        c = self._couple(e.couple)
        _check_names(e.names)
        self.couples[e.couple] = replace(c, names=e.names)

    def _couple(self, number: int) -> Couple:
        c = self.couples.get(number)
        if c is None:
            raise HallError(f"there is no couple {number}")
        return c

    def _apply_leave(self, e: Leave) -> None:
        c = self._couple(e.couple)
        if c.left_game is not None:
            raise HallError(f"couple {e.couple} has already left")
        if self.over and not self.replaying:
            raise HallError("the last game is over and the prizes go by the standings as "
                            "they are: no couple can leave now")
        if e.game <= self.begun:
            raise HallError(f"game {e.game} has begun: couple {e.couple} can leave from game "
                            f"{self.begun + 1} (its table's game {self.begun} is a result or "
                            f"no game)")
        left = replace(c, left_game=e.game)
        if self.started:
            for g in range(e.game, self.games + 1):
                if sum(1 for o in self.couples.values() if (left if o is c else o).plays(g)) < 2:
                    raise HallError(f"game {g} would have fewer than two couples: close the "
                                    f"evening instead")
        self.couples[e.couple] = left

    def _compute_seating(self, game: int) -> Seating:
        active = self.active(game)
        if len(active) < 2:
            raise HallError(f"game {game} needs at least two couples")
        sit = None
        if len(active) % 2:
            counts = {c: self.sat_out.get(c, 0) + self.couples[c].first_game - 1
                      for c in active}
            last = next((s.sitting_out for s in reversed(self.seatings)
                         if s.sitting_out is not None), None)
            sit = choose_sit_out(active, counts, last)
        if game == 1:
            return first_seating(active, sit)
        prev = self.seatings[game - 2]
        winners = {t: r.winner for t, r in self.results[game - 2].items()}
        return next_seating(prev, winners, active, sit)

    def _apply_begin(self, e: Begin) -> None:
        if e.game != self.begun + 1 or e.game > self.games:
            raise HallError(f"the next game to begin is {self.begun + 1}, not {e.game}"
                            if self.begun < self.games else "every game has begun")
        if e.game > 1 and not self.game_complete(e.game - 1):
            waiting = ", ".join(map(str, self.waiting(e.game - 1)))
            raise HallError(f"game {e.game - 1} is not over: waiting for table(s) {waiting}")
        seat = self._compute_seating(e.game)
        self.seatings.append(seat)
        self.results.append({})
        if seat.sitting_out is not None:
            self.sat_out[seat.sitting_out] = self.sat_out.get(seat.sitting_out, 0) + 1

    def _apply_result(self, e: Result) -> None:
        if not 1 <= e.game <= self.begun:
            raise HallError(f"game {e.game} has not begun (the game in play is {self.begun})"
                            if self.started else "the evening has not started")
        self._check_result(e, self.seatings[e.game - 1])
        had = self.results[e.game - 1].get(e.table)
        if e.correction:
            if had is None:
                raise HallError(f"table {e.table} of game {e.game} has no result to correct")
            if self.over and any(self.contest_events.values()):
                raise HallError("the ties for prizes are being broken: results can no longer "
                                "be corrected")
            if e.game < self.begun:
                self.notes.append(f"game {e.game}, table {e.table} corrected after game "
                                  f"{e.game + 1} began: the moves for game {e.game + 1} stand")
        elif had is not None:
            won = f"couple {had.winner} won" if had.winner is not None else "no game"
            raise HallError(f"table {e.table} of game {e.game} is already reported ({won}): "
                            f"correct it instead")
        self.results[e.game - 1][e.table] = e

    def _check_result(self, e: Result, seat: Seating) -> None:
        if not 1 <= e.table <= len(seat.tables):
            raise HallError(f"game {e.game} has tables 1 to {len(seat.tables)}, not {e.table}")
        pair = seat.tables[e.table - 1]
        if e.winner is not None and e.winner not in pair:
            raise HallError(f"couple {e.winner} is not at table {e.table} in game {e.game} "
                            f"(couples {pair[0]} and {pair[1]} are)")
        if e.points is not None and sorted(c for c, _ in e.points) != sorted(pair):
            raise HallError(f"points must be given for couples {pair[0]} and {pair[1]}")
        if self.settings.duplicate and e.winner is not None and e.points is None:
            raise HallError("a duplicate evening needs both couples' points with the winner")

    def _apply_swap(self, e: Swap) -> None:
        a, b = e.couples
        if e.game != self.begun or not self.started:
            raise HallError(f"couples can swap places only in the game in play ({self.begun})")
        seat = self.seatings[e.game - 1]
        if a == b or a not in seat.couples() or b not in seat.couples():
            raise HallError(f"couples {a} and {b} must be two couples of game {e.game}")
        for c in (a, b):
            t = seat.table_of(c)
            if t is not None and t in self.results[e.game - 1]:
                raise HallError(f"table {t} of game {e.game} is already reported")

        def swapped(c: int) -> int:
            return b if c == a else a if c == b else c

        tables = tuple((swapped(x), swapped(y)) for x, y in seat.tables)
        sit = None if seat.sitting_out is None else swapped(seat.sitting_out)
        if sit is not None and seat.sitting_out is not None and sit != seat.sitting_out:
            self.sat_out[seat.sitting_out] -= 1
            self.sat_out[sit] = self.sat_out.get(sit, 0) + 1
        self.seatings[e.game - 1] = Seating(e.game, tables, sit)

    def _apply_close(self, e: Close) -> None:
        if e.after != self.begun or not self.game_complete(e.after) or e.after >= self.games:
            raise HallError(f"the evening can close after a game that is over and before the "
                            f"last; game {self.begun} is the last begun")
        self.games = e.after
        for c in list(self.couples.values()):
            if c.first_game > e.after:
                self.couples[c.number] = replace(c, left_game=c.first_game)

    def _apply_contest(self, e: Vote | Answer | CutDeck | PlayoffWin) -> None:
        if not self.over:
            raise HallError("ties are broken once the evening is over")
        ct = self.contests().get(e.contest)
        if ct is None:
            keys = ", ".join(self.contests()) or "none"
            raise HallError(f"there is no tie {e.contest!r} to break (ties: {keys})")
        ct.apply(e)
        self.contest_events.setdefault(e.contest, []).append(e)

    _apply_vote = _apply_contest
    _apply_answer = _apply_contest
    _apply_cutdeck = _apply_contest
    _apply_playoffwin = _apply_contest

    # ----- snapshots -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The evening exactly: its settings and events (everything else is derived)."""
        return {"format": FORMAT, "settings": self.settings.to_json(),
                "events": [event_to_json(e) for e in self.events]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1) + "\n"

    @classmethod
    def from_json(cls, obj: Any) -> Hall:
        """Replay an evening written by ``to_json``; raises HallError saying which event
        cannot be applied."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise HallError(f"not an evening (format {FORMAT})")
        extra = sorted(set(obj) - {"format", "settings", "events"})
        if extra:
            raise HallError(f"evening: unknown key {extra[0]!r}")
        hall = cls(Settings.from_json(obj.get("settings", {})))
        events = obj.get("events", [])
        if not isinstance(events, list):
            raise HallError("evening: events must be a list")
        hall.replaying = True
        for i, raw in enumerate(events):
            try:
                hall.apply(event_from_json(raw))
            except HallError as e:
                raise HallError(f"event {i + 1}: {e}") from None
        hall.replaying = False
        return hall

    @classmethod
    def loads(cls, text: str) -> Hall:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise HallError(f"not JSON: {e.msg} at line {e.lineno}") from None
        return cls.from_json(obj)


def _check_names(names: tuple[str, str]) -> None:
    """A couple's two names: 1 to MAX_NAME printable characters each, trimmed."""
    trimmed = tuple(n.strip() for n in names)
    if not all(trimmed) or any(len(n) > MAX_NAME or not n.isprintable() for n in trimmed):
        raise HallError(f"a couple is two names of 1 to {MAX_NAME} printable characters")
    if trimmed != names:
        raise HallError("names must not start or end with spaces")


def _points(points: dict[int, int] | None) -> tuple[tuple[int, int], ...] | None:
    if points is None:
        return None
    return tuple(sorted(points.items()))
