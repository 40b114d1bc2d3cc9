"""Players' statistics from finished games: what one game's record adds to each seat's and
each partnership's running totals, in a form that merges by addition.

``game_stats(record, pars)`` replays a record (``forties-record/1``, as ``GET
/api/tables/{id}/record`` serves it; the record carries no scores, so it is replayed once,
through ``record.Replay``) and, optionally, reads the hands' double-dummy pars (the
table's ``par`` events, ``{hand index: value}``, each value as ``advice.par_json`` writes
it). It returns a ``GameStats``: a ``Tally`` for every seat and for every side. A
``Tally`` is a set of counts; ``merge(a, b)`` adds two, so a server keeps one per account
and game family, and one per partnership, and adds each finished game's contribution once
(``GameStats.contributions``) without reading records again.

Who counts together
-------------------
``partners(record)`` lists the game's partnerships (its sides): the preset's teams in the
Forty-Fives (pairs, teams of three; a seat alone in cut-throat games and in Call Your
Partner), Forty One's two partnerships (seats 0 and 2, 1 and 3), even though each of its
players keeps his own score.

Call Your Partner's partnership changes every hand: each seat keeps its own score and is a
side of one, and a *hand partnership*, the bidder with the seat that held the card he
called (``scoring.bidding_sides``), is also counted as a side (keyed by its two seats) for
the hands it played together: those hands, their bid, and the games in which the two were
partners at least once (won when they went out together: the game's winner is those two
seats). A bidder who went alone (or called his own card) is a side of one, as always.

Definitions (every count is a whole number; ``points`` and ``took`` may be negative or
large, the others are counts of events)
-----------------------------------------------------------------------------------------
- ``games``: games begun in the record (a record is one game; in a best-of-three match
  each game of the match counts). A game counts from its first hand in the record.
- ``finished``: those games that ended with a winner. ``won``: those the seat or side won
  (its seats are among the winners: the winning side, or in Call Your Partner and Forty
  One the winning seats). Ties are as the rules settle them: where the rules play a tie
  on, the game has not ended and nobody has won it. A game still in progress counts in
  ``games`` only.
- ``hands``: hands played, that is finished (every trick played, or the game won at a trick
  in Traditional 45, or the bidder folded when "booked?") and not thrown in (nobody bid, or
  Forty One's bids under the minimum). A hand still in progress counts nowhere.
- ``hands_won``: with a bid (the auction games), the bidding side (the bidder's side, and
  his called partner's) wins the hand when it makes its bid, every other side when the
  bid is set (a folded bid is set). With a turned-up trump (no bid), the side that took the
  most card points in the hand (a tie at the top: nobody). Forty One: a seat wins the hand
  when it makes its own bid (takes at least the tricks it bid); a partnership when its
  two scores together moved more than the other partnership's (equal: neither).
- ``points``: the sum over hands played of what the hand did to the score (the score after
  the hand less the score before it: a set bid is negative, a locked side gains 0, 45 gone
  back to 0 counts as the loss it is). A side's is its score's change; a seat's, its
  side's; a Call Your Partner hand partnership's, the change of the bidder's score (his
  partner's moves the same); a Forty One partnership's, the sum of its two players' changes.
  ``points / hands`` is the mean a hand.
- ``took``: the sum over hands played of the card points the side took in tricks (bonus
  included; a seat's is its side's; a Call Your Partner hand partnership's, both
  partners'); Forty One: tricks taken (a seat's own, a partnership's both).
- ``bids``: the bids the seat made itself (a side: any of its seats made), by bid value as
  the record writes it (``"20"``, ``"30"``, ``"30for60"``, ``"60for120"``; Forty One:
  ``"1"`` to ``"13"``), each with how many were ``made`` and ``set``, counted in hands
  played only. A Forty-Fives bid is made as the scoring decides (``scoring``: the bidders
  took at least the bid, or 30 for the 30-for-60 and 60-for-120 bids; Auction 45's 30
  scoring 60 is the bid ``"30"``); Forty One: the seat took at least its bid. A
  Forty One partnership counts both its players' bids.
- the par (only for hands played out to the last trick with a par given; Forty One's
  estimated pars, ``exact`` false, are left out): the par is what the par's side could
  take with every card seen and best play from the first lead (``analysis.par``): in the
  Forty-Fives the bidding side's card points (the bidder with his called partner), or
  without a bid, the points of the side that led against all the others; in Forty One the
  tricks of each partnership. The hand was *played to par* when the par's side took
  exactly that. ``par_hands`` counts the hands with a par that the seat or side played;
  ``par_equal`` those played to par; ``par_better`` those where the seat's or side's
  result was better than the par (the par's side took more than its par; any other side:
  the par's side took less), ``par_worse`` the rest.

Errors: a record that is not a game, or that the rules refuse, a malformed par, and a par
for a hand thrown in or not finished raise ``StatsError`` (a ``FortiesError``) with a
one-line message.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .actions import bid_text
from .errors import FortiesError
from .fortyfives import FortyFivesState
from .fortyone import FortyOneState
from .record import Record, Replay
from .rules import FortyFivesRules, FortyOneRules
from .scoring import bidding_sides, score_forty_fives, score_forty_one
from .state import GameState

Seats = tuple[int, ...]


class StatsError(FortiesError, ValueError):
    """A record or a par that statistics cannot be taken from: one line saying why."""


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


# ----- the counts ---------------------------------------------------------------------------


COUNTS = ("games", "finished", "won", "hands", "hands_won", "points", "took", "par_hands",
          "par_equal", "par_better", "par_worse")
SIGNED = ("points", "took")  # (took is never negative, but a sum: kept as points are)


@dataclass
class BidCount:
    """How many bids of one value were made and set."""

    made: int = 0
    set: int = 0

    def to_json(self) -> dict[str, int]:
        return {"made": self.made, "set": self.set}


@dataclass
class Tally:
    """A seat's or a side's counts over one game or many (see the module's definitions).
    ``merge`` adds two; ``add`` adds one into this one; ``to_json`` and ``from_json``
    keep it as JSON."""

    games: int = 0
    finished: int = 0
    won: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0
    took: int = 0
    par_hands: int = 0
    par_equal: int = 0
    par_better: int = 0
    par_worse: int = 0
    bids: dict[str, BidCount] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        """Add ``other``'s counts into this one."""
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for key, c in other.bids.items():
            mine = self.bids.setdefault(key, BidCount())
            mine.made += c.made
            mine.set += c.set

    def copy(self) -> Tally:
        out = Tally(**{name: getattr(self, name) for name in COUNTS})
        out.bids = {k: BidCount(c.made, c.set) for k, c in self.bids.items()}
        return out

    @property
    def mean_points(self) -> float | None:
        """The mean of ``points`` a hand played (None before any)."""
        return self.points / self.hands if self.hands else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: getattr(self, name) for name in COUNTS}
        out["bids"] = {k: self.bids[k].to_json() for k in sorted(self.bids, key=_bid_order)}
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Tally:
        """A Tally from its JSON (``to_json``'s form); StatsError saying what is wrong."""
        if not isinstance(obj, Mapping):
            raise StatsError("a tally must be a JSON object")
        known = {*COUNTS, "bids"}
        extra = sorted(str(k) for k in obj if k not in known)
        if extra:
            raise StatsError(f"a tally has an unknown key {extra[0]!r}")
        out = cls()
        for name in COUNTS:
            v = obj.get(name, 0)
            if type(v) is not int or (v < 0 and name not in SIGNED):
                raise StatsError(f"a tally's {name} must be a whole number"
                                 f"{'' if name in SIGNED else ' from 0'}, not {_shown(v)}")
            setattr(out, name, v)
        bids = obj.get("bids", {})
        if not isinstance(bids, Mapping):
            raise StatsError("a tally's bids must be a JSON object")
        for key, c in bids.items():
            if not isinstance(key, str) or not _is_bid_key(key):
                raise StatsError(f"a tally's bids: {_shown(key)} is not a bid")
            if not isinstance(c, Mapping) or set(c) != {"made", "set"} or not all(
                    type(c[k]) is int and c[k] >= 0 for k in ("made", "set")):
                raise StatsError(f"a tally's bid {key}: made and set must be whole numbers "
                                 "from 0")
            out.bids[key] = BidCount(c["made"], c["set"])
        return out


def merge(a: Tally, b: Tally) -> Tally:
    """A new Tally, ``a``'s and ``b``'s counts added (neither changes)."""
    out = a.copy()
    out.add(b)
    return out


def merge_all(tallies: Iterable[Tally]) -> Tally:
    """Every tally added into one (an empty Tally for none)."""
    out = Tally()
    for t in tallies:
        out.add(t)
    return out


def _bid_order(key: str) -> tuple[int, str]:
    return ({"30for60": 60, "60for120": 120}.get(key, int(key) if key.isdigit() else 999), key)


def _is_bid_key(key: str) -> bool:
    return key in ("30for60", "60for120") or (key.isascii() and key.isdigit()
                                                and len(key) <= 3 and key == str(int(key)))


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


# ----- one game -------------------------------------------------------------------------------


@dataclass
class GameStats:
    """One game's contribution: ``seats[s]`` for seat ``s``; ``sides`` by their seats (the
    game's sides, each a sorted tuple of seats, sides of one included; Call Your Partner's
    hand partnerships too; Forty One: its two partnerships); ``family``, the preset the
    game was played under."""

    game: str
    family: str
    seats: list[Tally]
    sides: dict[Seats, Tally]

    @property
    def partnerships(self) -> dict[Seats, Tally]:
        """The sides of two seats or more: the partnerships' contributions."""
        return {k: v for k, v in self.sides.items() if len(k) >= 2}

    def contributions(self) -> tuple[dict[int, Tally], dict[Seats, Tally]]:
        """What the game adds: to each seat (by its index), and to each partnership (by its
        seats, ascending). The server maps seats to accounts."""
        return dict(enumerate(self.seats)), self.partnerships

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "family": self.family,
                "seats": [t.to_json() for t in self.seats],
                "sides": [{"seats": list(k), "stats": v.to_json()}
                          for k, v in sorted(self.sides.items())]}


def read_record(record: Record | Mapping[str, Any] | str) -> Record:
    """``record`` as a Record: given as one, as its parsed JSON, or as its text."""
    if isinstance(record, Record):
        return record
    try:
        if isinstance(record, str):
            return Record.loads(record)
        return Record.from_json(record)
    except FortiesError as e:
        raise StatsError(f"not a game record: {_one_line(str(e))}") from None


def partners(record: Record | Mapping[str, Any] | str) -> list[Seats]:
    """The game's partnerships, each its seats ascending: the Forty-Fives' sides (a seat
    alone in cut-throat games and Call Your Partner), Forty One's two partnerships."""
    rules = read_record(record).rules
    if isinstance(rules, FortyOneRules):
        return [tuple(t) for t in rules.teams]
    return [tuple(sorted(s)) for s in rules.sides]


@dataclass
class _Par:
    """A par as the hand's statistics use it: the seats it is for and their figure."""

    seats: Seats
    value: int


def _read_pars(pars: Mapping[Any, Any] | None, hands: int) -> dict[int, Any]:
    if pars is None:
        return {}
    if not isinstance(pars, Mapping):
        raise StatsError("pars must be a JSON object of hand index to par")
    out: dict[int, Any] = {}
    for key, value in pars.items():
        if type(key) is int:
            h = key
        elif isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 6:
            h = int(key)
        else:
            raise StatsError(f"pars: {_shown(key)} is not a hand's index")
        if not 0 <= h < hands:
            raise StatsError(f"pars: the record has no hand {h} (hands count from 0)")
        out[h] = value
    return out


def _seat_list(v: Any, n: int, where: str) -> Seats:
    if not isinstance(v, list) or not v or not all(type(s) is int and 0 <= s < n for s in v) \
            or len(set(v)) != len(v):
        raise StatsError(f"{where}: the seats must be a list of seats from 0 to {n - 1}")
    return tuple(sorted(v))


def _whole(v: Any, where: str) -> int:
    if type(v) is not int or v < 0:
        raise StatsError(f"{where} must be a whole number from 0, not {_shown(v)}")
    return v


def _ff_par(value: Any, h: int, st: FortyFivesState) -> _Par:
    """A Forty-Fives hand's par: for the bidding coalition (or, without a bid, the side of
    the seats named), checked against the hand."""
    where = f"the par of hand {h}"
    if not isinstance(value, Mapping):
        raise StatsError(f"{where} must be a JSON object")
    seats = _seat_list(value.get("side"), st.n, where)
    points = _whole(value.get("points"), f"{where}: its points")
    sides = st.sides
    if st.bidder >= 0:
        if seats != tuple(sorted(sides[st.side_of[st.bidder]])):
            raise StatsError(f"{where} is not for the bidders of that hand")
        coalition = bidding_sides(st.rules, st.bidder, st.partner)
        return _Par(tuple(sorted(s for x in coalition for s in sides[x])), points)
    side = st.side_of[seats[0]]
    if seats != tuple(sorted(sides[side])):
        raise StatsError(f"{where} does not name one of the game's sides")
    return _Par(seats, points)


def _forty_one_par(value: Any, h: int, st: FortyOneState) -> list[_Par] | None:
    """Forty One's par: each partnership's tricks (None: an estimate, left out)."""
    where = f"the par of hand {h}"
    if not isinstance(value, Mapping):
        raise StatsError(f"{where} must be a JSON object")
    exact = value.get("exact", True)
    if type(exact) is not bool:
        raise StatsError(f"{where}: exact must be true or false")
    teams = value.get("teams")
    if not isinstance(teams, list) or len(teams) != 2 or not all(
            isinstance(t, Mapping) for t in teams):
        raise StatsError(f"{where} must give both partnerships' tricks (teams)")
    out = [_Par(_seat_list(t.get("seats"), 4, where), _whole(t.get("tricks"),
                                                              f"{where}: tricks"))
           for t in teams]
    if sorted(p.seats for p in out) != sorted(tuple(t) for t in st.rules.teams):
        raise StatsError(f"{where} does not name the game's two partnerships")
    if sum(p.value for p in out) != 13:
        raise StatsError(f"{where}: the partnerships' tricks must come to 13")
    return out if exact else None


class _Game:
    """The counting of one record: the units counted (seats, sides) and their tallies."""

    def __init__(self, record: Record) -> None:
        self.record = record
        rules = record.rules
        self.n = rules.players
        self.forty_one = isinstance(rules, FortyOneRules)
        self.call_partner = isinstance(rules, FortyFivesRules) and rules.call_partner
        self.seats = [Tally() for _ in range(self.n)]
        fixed = partners(record)
        self.sides: dict[Seats, Tally] = {s: Tally() for s in fixed}
        self.fixed = fixed
        self.in_game: set[Seats] = set()  # Call Your Partner: pairs partners in this game

    def begin_game(self) -> None:
        for t in self.seats:
            t.games += 1
        for s in self.fixed:
            self.sides[s].games += 1
        self.in_game = set()

    def end_game(self, winners: Seats) -> None:
        w = set(winners)
        for s, t in enumerate(self.seats):
            t.finished += 1
            t.won += s in w
        for seats in self.fixed:  # (a seat alone wins with his called partner)
            t = self.sides[seats]
            t.finished += 1
            t.won += set(seats) <= w
        for seats in self.in_game:  # a hand partnership: when the two went out together
            t = self.sides[seats]
            t.finished += 1
            t.won += set(seats) == w

    def pair(self, seats: Seats) -> Tally:
        """A Call Your Partner hand partnership's tally, its game counted once a game."""
        t = self.sides.setdefault(seats, Tally())
        if seats not in self.in_game:
            self.in_game.add(seats)
            t.games += 1
        return t


@dataclass
class _Unit:
    """What one hand gave one seat or side."""

    points: int
    took: int
    won: bool
    bids: list[tuple[str, bool]]
    par: int | None  # >0 better than par, 0 at par, <0 worse; None: no par


def _count(t: Tally, u: _Unit) -> None:
    t.hands += 1
    t.hands_won += u.won
    t.points += u.points
    t.took += u.took
    for key, made in u.bids:
        c = t.bids.setdefault(key, BidCount())
        if made:
            c.made += 1
        else:
            c.set += 1
    if u.par is not None:
        t.par_hands += 1
        if u.par > 0:
            t.par_better += 1
        elif u.par < 0:
            t.par_worse += 1
        else:
            t.par_equal += 1


_NO_PAR = object()  # (a hand with no par given)


def _ff_hand(g: _Game, st: FortyFivesState, par_value: Any, h: int) -> None:
    sides = st.sides
    delta = [a - b for a, b in zip(st.scores, st.start_scores, strict=True)]
    pts = list(st.points)
    bidder = st.bidder
    bsides: tuple[int, ...] = ()
    made = False
    if bidder >= 0:
        bsides = bidding_sides(st.rules, bidder, st.partner)
        made = bool(st.made())  # None: folded ("booked?"), a set bid
        winners = set(bsides) if made else set(range(len(sides))) - set(bsides)
    else:
        top = max(pts)
        winners = {x for x, p in enumerate(pts) if p == top}
        if len(winners) > 1:
            winners = set()
    par: _Par | None = None
    if par_value is not _NO_PAR:
        par = _ff_par(par_value, h, st)  # (checked, and used for a hand played out only)
        if len(st.tricks) < 5:
            par = None
    par_sides = {st.side_of[s] for s in par.seats} if par else set()
    par_diff = sum(pts[x] for x in par_sides) - par.value if par else 0
    bid = bid_text(st.bid) if bidder >= 0 else ""

    def unit(seats: Seats) -> _Unit:
        xs = sorted({st.side_of[s] for s in seats})
        mine = bidder >= 0 and bidder in seats
        inside = bool(par_sides & set(xs))
        return _Unit(points=delta[st.side_of[bidder] if mine else xs[0]],
                     took=sum(pts[x] for x in xs), won=any(x in winners for x in xs),
                     bids=[(bid, made)] if mine else [],
                     par=None if par is None else (par_diff if inside else -par_diff))

    for s in range(g.n):
        _count(g.seats[s], unit((s,)))
    for seats in g.fixed:
        _count(g.sides[seats], unit(seats))
    if g.call_partner and len(bsides) > 1:
        pair = tuple(sorted(s for x in bsides for s in sides[x]))
        _count(g.pair(pair), unit(pair))


def _forty_one_hand(g: _Game, st: FortyOneState, par_value: Any, h: int) -> None:
    delta = [a - b for a, b in zip(st.scores, st.start_scores, strict=True)]
    bids = [b or 0 for b in st.bids]
    taken = list(st.taken)
    pars = _forty_one_par(par_value, h, st) if par_value is not _NO_PAR else None
    team_of = {s: tuple(t) for t in st.rules.teams for s in t}

    def par_of(team: Seats) -> int | None:
        if pars is None:
            return None
        p = next(p for p in pars if p.seats == team)
        return sum(taken[s] for s in team) - p.value

    for s in range(4):
        _count(g.seats[s], _Unit(delta[s], taken[s], taken[s] >= bids[s],
                                 [(str(bids[s]), taken[s] >= bids[s])], par_of(team_of[s])))
    gain = {team: sum(delta[s] for s in team) for team in g.fixed}
    for team in g.fixed:
        other = max(gain[t] for t in g.fixed if t != team)
        _count(g.sides[team], _Unit(gain[team], sum(taken[s] for s in team), gain[team] > other,
                                    [(str(bids[s]), taken[s] >= bids[s]) for s in team],
                                    par_of(team)))


def _game_winner(st: GameState) -> Seats:
    """The seats that won the game that ended with the hand just finished."""
    if st.over:
        w = st.winner
    elif isinstance(st, FortyOneState):
        w = score_forty_one(st.rules, st.summary(), st.start_scores).winner
    else:
        assert isinstance(st, FortyFivesState)
        w = score_forty_fives(st.rules, st.summary(), st.start_scores).winner
    if w is None:  # pragma: no cover - a game ends with a winner
        raise StatsError("a game ended without a winner")
    return tuple(sorted(w)) if isinstance(w, tuple) else tuple(sorted(st.sides[w]))


def game_stats(record: Record | Mapping[str, Any] | str,
               pars: Mapping[Any, Any] | None = None) -> GameStats:
    """One game's statistics (see the module's definitions) from its ``record`` (a Record,
    its JSON, or its text) and, optionally, its hands' ``pars`` (``{hand index: par}``,
    the index an int or its text, each par as the server's ``par`` events carry it).
    StatsError for a record that is not a game or that breaks the rules, or a bad par."""
    rec = read_record(record)
    wanted = _read_pars(pars, len(rec.hands))
    g = _Game(rec)
    replay = Replay(rec)
    new_game = True
    try:
        for h, st in replay.states():
            if new_game:
                g.begin_game()
                new_game = False
            for _ in replay.played(h, st):
                pass
            if h in wanted and (not st.hand_over or st.thrown_in):
                raise StatsError(f"the par of hand {h}: that hand was "
                                 f"{'thrown in' if st.hand_over else 'not finished'}")
            if not st.hand_over:
                continue  # a hand in progress: counted nowhere (a hand after it is refused)
            if not st.thrown_in:
                if isinstance(st, FortyOneState):
                    _forty_one_hand(g, st, wanted.get(h, _NO_PAR), h)
                else:
                    assert isinstance(st, FortyFivesState)
                    _ff_hand(g, st, wanted.get(h, _NO_PAR), h)
            if st.over or st.new_game_due:
                g.end_game(_game_winner(st))
                new_game = True
    except StatsError:
        raise
    except FortiesError as e:
        raise StatsError(f"not a game record: {_one_line(str(e))}") from None
    return GameStats(rec.rules.game, rec.rules.preset, g.seats, g.sides)


__all__ = ["BidCount", "GameStats", "StatsError", "Tally", "game_stats", "merge", "merge_all",
           "partners", "read_record"]
