"""The score pad: the score of a game played with real cards, kept as a paper pad is.

For each hand the scorekeeper enters only what the table knows (who won the bid and for
how much, the partner called, the points each side took; in Forty One each seat's bid
and tricks). The pad checks the entry, scores it with the engine's own scoring
(``forties.scoring``: the same function the game state machines call at the end of every
hand), keeps the running totals, says who deals next and declares the winner with the
rule that decided it. A past hand can be corrected: everything after it is scored again.

A pad is saved as JSON (``to_json``/``from_json``, format ``forties-pad/1``) and exported
as CSV. Every mistake is a ``PadError`` of one line in the scorekeeper's words.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import ActionSyntaxError, bid_text, parse_bid
from .cards import SUIT_NAMES, SUITS, CardError, parse_card
from .errors import Refused
from .fortyfives import bid_ladder
from .numerals import whole
from .rules import (
    FortyFivesRules,
    FortyOneRules,
    Rules,
    RulesError,
    build_rules,
    rules_from_json,
)
from .scoring import (
    FortyFivesHand,
    FortyOneHand,
    Outcome,
    game_won,
    score_forty_fives,
    score_forty_one,
)
from .spreadsheet import to_csv

PAD_FORMAT = "forties-pad/1"
DEFAULT_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")
MAX_HANDS = 1000


class PadError(Refused, ValueError):
    """A pad entry or file that cannot be taken: one line saying why. The commonest carry
    a ``code`` and its ``words`` (numbers, seat or side indexes), so that a page can say
    the same in its reader's language; the English line stays for the command line."""

    def __init__(self, message: str, code: str | None = None, **words: Any) -> None:
        super().__init__(message, code, words)
        self.words = words


# The refusals a page can put in its own words (PadError.code), each with its words:
CODES = ("over", "same-name", "names-count", "bid", "bid-at-100", "points-negative",
         "points-fives", "points-sum", "points-sum-target", "points-max", "points-one-side",
         "points-sooner", "bid-41", "tricks-sum")


@dataclass(frozen=True)
class Entry:
    """One hand as the scorekeeper entered it.

    The Forty-Fives: ``points`` per side (per player when everyone plays alone),
    ``bidder`` (a seat) and ``bid`` (15..30, or 60 for 30-for-60, 120 for 60-for-120),
    ``partner`` (Call Your Partner: the seat that held the called card; None alone),
    ``trump`` (a suit letter, or the turned-up card in Traditional 45; only noted), or
    ``thrown_in`` when nobody bid and the rules throw the hand in. Forty One: ``bids``
    and ``tricks`` per seat (no tricks when the bids are under the minimum).
    """

    points: tuple[int, ...] = ()
    bidder: int | None = None
    bid: int = 0
    partner: int | None = None
    trump: str | None = None
    thrown_in: bool = False
    bids: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.bids:
            out["bids"] = list(self.bids)
            if self.tricks:
                out["tricks"] = list(self.tricks)
            return out
        if self.thrown_in:
            return {"thrown_in": True}
        if self.bidder is not None:
            out["bidder"] = self.bidder
            out["bid"] = bid_text(self.bid)
        if self.partner is not None:
            out["partner"] = self.partner
        if self.trump is not None:
            out["trump"] = self.trump
        out["points"] = list(self.points)
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Entry:
        """An entry from its JSON form (as saved, or as the web page sends it)."""
        if not isinstance(obj, dict):
            raise PadError("a hand must be an object such as "
                           '{"bidder": 0, "bid": "20", "points": [20, 10]}')
        known = {"points", "bidder", "bid", "partner", "trump", "thrown_in", "bids", "tricks"}
        extra = sorted(str(k) for k in obj if k not in known)
        if extra:
            raise PadError(f"a hand has no {extra[0]!r} (it has: {', '.join(sorted(known))})")
        bid = obj.get("bid")
        try:
            bid_value = 0 if bid in (None, "", 0) else parse_bid(str(bid))
        except ActionSyntaxError:
            raise PadError(f"the bid {_shown(bid)} is not a bid (15, 20, 25, 30, "
                           "30for60...)") from None
        trump = obj.get("trump")
        if trump is not None and not isinstance(trump, str):
            raise PadError(f"trump {_shown(trump)} is not a suit or a card")
        thrown = obj.get("thrown_in", False)
        if not isinstance(thrown, bool):
            raise PadError("thrown_in must be true or false")
        return cls(points=_ints(obj.get("points"), "points"),
                   bidder=_seat_or_none(obj.get("bidder"), "bidder"), bid=bid_value,
                   partner=_seat_or_none(obj.get("partner"), "partner"),
                   trump=trump.strip() or None if trump else None, thrown_in=thrown,
                   bids=_ints(obj.get("bids"), "bids"), tricks=_ints(obj.get("tricks"), "tricks"))


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _ints(v: Any, what: str) -> tuple[int, ...]:
    if v is None:
        return ()
    if not isinstance(v, list | tuple) or len(v) > 10:
        raise PadError(f"{what} must be a list of whole numbers, one for each "
                       f"{'seat' if what in ('bids', 'tricks') else 'side'}")
    out = []
    for x in v:
        n = (whole(x, signed=True, most=5) if len(x) < 20 else None) \
            if isinstance(x, str) else x
        if type(n) is not int or abs(n) > 10**6:
            raise PadError(f"{what}: {_shown(x)} is not a whole number")
        out.append(n)
    return tuple(out)


def _seat_or_none(v: Any, what: str) -> int | None:
    if v is None or v == "":
        return None
    if isinstance(v, str):
        seat = whole(v, most=3) if len(v) < 20 else None
        if seat is None:
            raise PadError(f"{what} must be a seat number, not {_shown(v)}")
        v = seat
    if type(v) is not int:
        raise PadError(f"{what} must be a seat number, not {_shown(v)}")
    return v


@dataclass(frozen=True)
class Row:
    """A line of the pad: a hand entered, what it scored, the totals after it."""

    hand: int  # 1, 2, ...
    game: int  # 1, 2, 3 in a best-of-three match
    dealer: int
    entry: Entry
    before: tuple[int, ...]
    outcome: Outcome
    games: tuple[int, ...]  # games won after this hand (a best-of-three match)
    match_over: bool  # this hand ends the game (and the match)
    text: str  # what happened, in words

    @property
    def scores(self) -> tuple[int, ...]:
        return self.outcome.scores


REASONS = {
    "first": "first to {target}",
    "bidder-goes-out": "bidder goes out",
    "highest": "highest score past {target}",
    "green": "only a bidding side goes out on the green",
    "partners": "partners go out together",
    "positive-partner": "{target} with a partner above 0",
    "tie-lower-partner": "both teams past {target}: the higher lower partner",
    "tie-team-total": "both teams past {target}: the higher team total",
}


@dataclass
class Pad:
    """A game's score pad. ``names`` are the players by seat (seat 0 deals first unless
    ``first_dealer`` says otherwise); ``entries`` the hands entered so far."""

    rules: Rules
    names: list[str] = field(default_factory=list)
    first_dealer: int = 0
    entries: list[Entry] = field(default_factory=list)
    title: str = ""

    def __post_init__(self) -> None:
        n = self.rules.players
        given = len(self.names)
        names = [str(x).strip()[:40] for x in self.names][:n]
        spare = iter([d for d in DEFAULT_NAMES if d not in names]
                     + [f"Player {i}" for i in range(1, 7)])
        self.names = [nm or next(spare) for nm in names]
        self.names += [next(spare) for _ in range(len(names), n)]
        if len(set(self.names)) != n:
            raise PadError(f"two players have the same name: {', '.join(self.names)}",
                           "same-name", names=", ".join(self.names))
        if given and given != n:  # a name left out would seat a stranger, and move the others
            raise PadError(f"the names give {given} player{'s' if given != 1 else ''}; "
                           f"{self.rules.preset} has {n}", "names-count",
                           given=given, preset=self.rules.preset, n=n)
        if type(self.first_dealer) is not int or not 0 <= self.first_dealer < n:
            raise PadError(f"the first dealer must be a seat from 0 to {n - 1}")
        entries, self.entries = list(self.entries), []
        self.rows: list[Row] = []
        self._replay(entries)

    # ----- who is who ------------------------------------------------------------------

    @property
    def is_forty_one(self) -> bool:
        return isinstance(self.rules, FortyOneRules)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.rules.sides

    def side_name(self, x: int) -> str:
        return _and(self.names[s] for s in self.sides[x])

    def side_names(self) -> list[str]:
        return [self.side_name(x) for x in range(len(self.sides))]

    def _winner_seats(self, winner: int | tuple[int, ...]) -> tuple[int, ...]:
        return self.sides[winner] if isinstance(winner, int) else winner

    def winner_name(self, winner: int | tuple[int, ...]) -> str:
        return _and(self.names[s] for s in self._winner_seats(winner))

    # ----- the state at the foot of the pad --------------------------------------------

    def _state(self) -> tuple[tuple[int, ...], tuple[int, ...], bool, int]:
        """Scores before the next hand, games won, whether the match is over, game no."""
        zero = (0,) * len(self.sides)
        if not self.rows:
            return zero, zero, False, 1
        last = self.rows[-1]
        if last.outcome.winner is not None and not last.match_over:
            return zero, last.games, False, last.game + 1
        return last.scores, last.games, last.match_over, last.game

    def _side_of(self) -> tuple[int, ...]:
        out = [0] * self.rules.players
        for x, side in enumerate(self.sides):
            for s in side:
                out[s] = x
        return tuple(out)

    @property
    def scores(self) -> tuple[int, ...]:
        """The totals now: per side, or per seat in Forty One (after a game won in a
        match, the last game's totals until the next hand is entered)."""
        return self.rows[-1].scores if self.rows else (0,) * len(self.sides)

    @property
    def games(self) -> tuple[int, ...]:
        return self._state()[1]

    @property
    def over(self) -> bool:
        return self._state()[2]

    @property
    def winner(self) -> int | tuple[int, ...] | None:
        """As ``GameState.winner``: a side (the Forty-Fives), or a tuple of seats."""
        if not self.over:
            return None
        return self.rows[-1].outcome.winner

    @property
    def dealer(self) -> int:
        """Who deals the next hand: the deal passes to the left after every hand."""
        return (self.first_dealer + len(self.rows)) % self.rules.players

    def result_text(self) -> str | None:
        """'Ann and Cy win: bidder goes out', once the game (or match) is won."""
        w = self.winner
        if w is None:
            return None
        return self._won_text(self.rows[-1], match_over=True)

    def _won_text(self, row: Row, match_over: bool) -> str:
        w = row.outcome.winner
        assert w is not None
        who = self.winner_name(w)
        verb = "wins" if len(self._winner_seats(w)) == 1 else "win"
        target = self.rules.target
        why = REASONS[row.outcome.reason or "first"].format(target=target)
        if getattr(self.rules, "match", "single") == "best-of-3":
            score = "-".join(str(g) for g in sorted(row.games, reverse=True))
            if match_over:
                return f"{who} {verb} the match {score}: {why}"
            return f"{who} {verb} game {row.game} ({score}): {why}"
        return f"{who} {verb}: {why}"

    # ----- entering hands --------------------------------------------------------------

    def add(self, entry: Entry) -> Row:
        """Enter the next hand; raises PadError (one line) when it cannot be right."""
        scores, _, over, game = self._state()
        if over:
            raise PadError(f"the game is over: {self.result_text()}", "over")
        if len(self.rows) >= MAX_HANDS:
            raise PadError(f"a pad holds at most {MAX_HANDS} hands: start another")
        entry = self.check(entry, scores)
        row = self._row(len(self.rows) + 1, game, entry, scores, self._state()[1])
        self.entries.append(entry)
        self.rows.append(row)
        return row

    def correct(self, hand: int, entry: Entry) -> None:
        """Put ``entry`` in place of hand number ``hand`` (1, 2, ...) and score every hand
        after it again; refused when a later hand no longer fits."""
        if type(hand) is not int or not 1 <= hand <= len(self.entries):
            raise PadError(f"there is no hand {hand} to correct (hands 1 to "
                           f"{len(self.entries)})" if self.entries else
                           "there is no hand to correct yet")
        entries = list(self.entries)
        entries[hand - 1] = entry
        old_entries, old_rows = self.entries, self.rows
        self.entries, self.rows = [], []
        try:
            self._replay(entries, corrected=hand)
        except PadError:
            self.entries, self.rows = old_entries, old_rows
            raise

    def remove_last(self) -> None:
        """Strike out the last hand entered."""
        if not self.entries:
            raise PadError("there is no hand to remove")
        self.entries.pop()
        self.rows.pop()

    def _replay(self, entries: Iterable[Entry], corrected: int | None = None) -> None:
        for i, e in enumerate(entries, 1):
            try:
                self.add(e)
            except PadError as err:
                if corrected is None or i == corrected:
                    raise PadError(f"hand {i}: {err}") from None
                raise PadError(f"hand {corrected} cannot be that: hand {i} would no longer "
                               f"fit ({err}); remove the hands after it first") from None

    def _row(self, number: int, game: int, entry: Entry, before: tuple[int, ...],
             games: tuple[int, ...]) -> Row:
        dealer = (self.first_dealer + number - 1) % self.rules.players
        if isinstance(self.rules, FortyOneRules):
            out = score_forty_one(self.rules, FortyOneHand(entry.bids, entry.tricks), before)
        else:
            assert isinstance(self.rules, FortyFivesRules)
            out = score_forty_fives(self.rules, FortyFivesHand(
                entry.points, entry.bidder, entry.bid, entry.partner, entry.thrown_in), before)
        over = False
        if out.winner is not None:
            games, over = game_won(getattr(self.rules, "match", "single"), games, out.winner,
                                   self._side_of())
        row = Row(number, game, dealer, entry, before, out, games, over, "")
        return replace(row, text=self._words(row))

    # ----- checking an entry -----------------------------------------------------------

    def check(self, e: Entry, before: Sequence[int]) -> Entry:
        """The entry as the pad keeps it, or PadError saying what is wrong with it."""
        if isinstance(self.rules, FortyOneRules):
            return self._check_forty_one(self.rules, e)
        assert isinstance(self.rules, FortyFivesRules)
        return self._check_forty_fives(self.rules, e, before)

    def _seat(self, v: int | None, what: str) -> int:
        n = self.rules.players
        if v is None:
            raise PadError(f"who {what}? give a seat from 0 to {n - 1}")
        if not 0 <= v < n:
            raise PadError(f"there is no seat {v}: seats are 0 to {n - 1} "
                           f"({', '.join(f'{i} {nm}' for i, nm in enumerate(self.names))})")
        return v

    def _check_forty_one(self, r: FortyOneRules, e: Entry) -> Entry:
        if e.points or e.bidder is not None or e.thrown_in or e.partner is not None:
            raise PadError("in Forty One enter each seat's bid and tricks")
        if len(e.bids) != 4:
            raise PadError(f"give the 4 bids, one for each seat (got {len(e.bids)})")
        for s, b in enumerate(e.bids):
            if not 1 <= b <= 13:
                raise PadError(f"{self.names[s]} bid {b}: a bid is 1 to 13 tricks", "bid-41",
                               seat=s, bid=b)
        if sum(e.bids) < r.min_total:
            return Entry(bids=e.bids)  # thrown in: the tricks do not count
        if len(e.tricks) != 4:
            raise PadError(f"give the tricks each seat took, 4 numbers (got {len(e.tricks)})"
                           if e.tricks else "give the tricks each seat took")
        if any(t < 0 for t in e.tricks):
            raise PadError("tricks cannot be below 0")
        if sum(e.tricks) != 13:
            raise PadError(f"the tricks add up to {sum(e.tricks)}, not 13", "tricks-sum",
                           total=sum(e.tricks))
        return Entry(bids=e.bids, tricks=e.tricks)

    def _check_forty_fives(self, r: FortyFivesRules, e: Entry, before: Sequence[int]) -> Entry:
        if e.bids or e.tricks:
            raise PadError("bids and tricks per seat are for Forty One; enter the points")
        trump = _check_trump(e.trump, turned_up=r.auction == "none")
        if e.thrown_in:
            if r.auction == "none" or r.all_pass != "redeal":
                raise PadError("a hand is thrown in only when nobody bids and the rules say "
                               "so; here the dealer must bid")
            if any(e.points) or e.bidder is not None:
                raise PadError("a hand thrown in has no bidder and no points")
            return Entry(thrown_in=True)
        n_sides = len(self.sides)
        if r.auction == "none":
            if e.bidder is not None or e.bid or e.partner is not None:
                raise PadError("with a turned-up trump nobody bids: enter the points only")
            bidder, bid, partner = None, 0, None
        else:
            bidder = self._seat(e.bidder, "won the bid")
            ladder = bid_ladder(r)
            if e.bid not in ladder:
                raise PadError(f"{bid_text(e.bid) if e.bid else 'no bid'} is not a bid here "
                               f"(bids: {', '.join(bid_text(b) for b in ladder)})", "bid",
                               bid=bid_text(e.bid) if e.bid else "",
                               bids=", ".join(bid_text(b) for b in ladder))
            side = self._side_of()[bidder]
            if r.min_bid_at_100 is not None and before[side] >= 100 and \
                    e.bid < r.min_bid_at_100:
                raise PadError(f"{self.side_name(side)} are on 100 or more: their bid is at "
                               f"least {r.min_bid_at_100}", "bid-at-100", side=side,
                               least=r.min_bid_at_100)
            bid = e.bid
            partner = e.partner
            if partner is not None:
                if not r.call_partner:
                    raise PadError("only Call Your Partner has a called partner")
                partner = self._seat(partner, "held the called card")
                if partner == bidder:
                    partner = None  # the bidder called his own card: he goes alone
        pts = e.points
        who = "player" if all(len(s) == 1 for s in self.sides) else "side"
        if len(pts) != n_sides:
            raise PadError(f"give the points of each {who}: {n_sides} numbers "
                           f"({', '.join(self.side_names())})")
        for x, p in enumerate(pts):
            if p < 0:
                noun = "point" if p == -1 else "points"
                raise PadError(f"{self.side_name(x)}: {p} {noun}? points are never below "
                               "zero (write 0 for a side that took no trick)",
                               "points-negative", side=x, points=p)
            if p % 5:
                noun = "point" if abs(p) == 1 else "points"
                raise PadError(f"{self.side_name(x)}: {p} {noun}? points go by fives "
                               "(5 a trick, 5 more for the best trump)", "points-fives",
                               side=x, points=p)
        total = sum(pts)
        if r.auction == "none":
            self._check_turned_up(r, pts, before)
        elif total not in (25, 30):
            raise PadError(f"the points add up to {total}: a hand has 30 (25 when no trump "
                           "was played)", "points-sum", total=total)
        return Entry(points=pts, bidder=bidder, bid=bid, partner=partner, trump=trump)

    def _check_turned_up(self, r: FortyFivesRules, pts: Sequence[int],
                         before: Sequence[int]) -> None:
        total = sum(pts)
        after = [b + p for b, p in zip(before, pts, strict=True)]
        reached = [x for x, s in enumerate(after) if s >= r.target]
        if len(reached) > 1:
            raise PadError(f"only one side can reach {r.target}: the game ends at the trick "
                           f"that takes the first there; enter the points up to that trick",
                           "points-one-side", target=r.target)
        if reached:
            x = reached[0]
            if after[x] - 10 >= r.target:  # the last trick took 10 at most
                raise PadError(f"{self.side_name(x)} would have reached {r.target} a trick "
                               "sooner: enter the points up to the trick that took them there",
                               "points-sooner", side=x, target=r.target)
            if total > 30:
                raise PadError(f"the points add up to {total}: a hand has 30", "points-max",
                               total=total)
            return
        if total not in (25, 30):
            raise PadError(f"the points add up to {total}: a hand has 30 (25 when no trump "
                           f"was played), or less only when a side reached {r.target}",
                           "points-sum-target", total=total, target=r.target)

    # ----- words -------------------------------------------------------------------------

    def _words(self, row: Row) -> str:
        e, out, r = row.entry, row.outcome, self.rules
        parts = []
        if isinstance(r, FortyOneRules):
            if not e.tricks:
                return f"bids total {sum(e.bids)}, under {r.min_total}: thrown in"
            made = [self.names[s] for s in range(4) if e.tricks[s] >= e.bids[s]]
            set_ = [self.names[s] for s in range(4) if e.tricks[s] < e.bids[s]]
            if made:
                parts.append(f"made: {_and(made)}")
            if set_:
                parts.append(f"set: {_and(set_)}")
        elif e.thrown_in:
            return "nobody bid: thrown in"
        elif e.bidder is not None:
            head = f"{self.names[e.bidder]} bid {bid_text(e.bid)}"
            if e.trump:
                head += f" in {_trump_words(e.trump)}"
            if e.partner is not None:
                head += f" with {self.names[e.partner]}"
            parts.append(f"{head}: {'made' if out.made else 'set'}")
        elif e.trump:
            parts.append(f"{_trump_words(e.trump)} turned up")
        for kind, who in out.notes:
            text = self._note(kind, who)
            if text:
                parts.append(text)
        if out.winner is not None:
            parts.append(self._won_text(row, row.match_over))
        return "; ".join(parts)

    def _note(self, kind: str, who: int) -> str | None:
        r = self.rules
        if kind == "made-30-60":
            return "30 made scores 60"
        if kind == "locked":
            assert isinstance(r, FortyFivesRules)  # a lock is a Forty-Fives rule
            return f"{self.side_name(who)} locked at {r.lock_at}: no score without the bid"
        if kind == "reset":
            return f"{self.side_name(who)} on 45 exactly: back to 0"
        if kind == "double":
            return f"{self.names[who]}'s bid doubled"
        if kind == "partner-not-positive":
            return f"{self.names[who]} is past {r.target} but the partner is not above 0"
        if kind == "hanging":
            return f"{self.side_name(who)} hung on {r.target - 5}"
        return None  # made, set, thrown in: said already

    # ----- saving ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": PAD_FORMAT, "rules": self.rules.to_json(), "title": self.title,
                "names": list(self.names), "first_dealer": self.first_dealer,
                "hands": [e.to_json() for e in self.entries]}

    @classmethod
    def from_json(cls, obj: Any) -> Pad:
        """A pad saved by ``to_json``; raises PadError (one line) when it cannot be read."""
        if not isinstance(obj, dict) or obj.get("format") != PAD_FORMAT:
            raise PadError(f"not a forties score pad (format {PAD_FORMAT})")
        try:
            rules = rules_from_json(obj.get("rules"))
        except RulesError as e:
            raise PadError(str(e)) from None
        names = obj.get("names", [])
        if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
            raise PadError("names must be a list of the players' names")
        hands = obj.get("hands", [])
        if not isinstance(hands, list):
            raise PadError("hands must be a list")
        title = obj.get("title", "")
        if not isinstance(title, str):
            raise PadError("title must be text")
        entries = []
        for i, h in enumerate(hands, 1):
            try:
                entries.append(Entry.from_json(h))
            except PadError as e:
                raise PadError(f"hand {i}: {e}") from None
        return cls(rules, names, obj.get("first_dealer", 0), entries, title[:80])

    def summary_json(self) -> dict[str, Any]:
        """Everything a page shows: the pad itself, every row scored, the totals, who
        deals, the winner in words."""
        _, games, over, _ = self._state()
        return {
            **self.to_json(),
            "game": self.rules.game,
            "players": self.rules.players,
            "sides": [list(s) for s in self.sides],
            "side_names": self.side_names(),
            "rows": [self.row_json(r) for r in self.rows],
            "scores": list(self.scores),
            "games": list(games),
            "dealer": self.dealer,
            "over": over,
            "winner": list(self._winner_seats(self.winner)) if self.winner is not None
            else None,
            "result": self.result_text(),
            "bids": [bid_text(b) for b in bid_ladder(self.rules)]
            if isinstance(self.rules, FortyFivesRules) else [],
            "turned_up": getattr(self.rules, "auction", "") == "none",
            "may_throw_in": getattr(self.rules, "all_pass", "") == "redeal"
            and getattr(self.rules, "auction", "") != "none",
            "call_partner": bool(getattr(self.rules, "call_partner", False)),
            "target": self.rules.target,
            "min_total": getattr(self.rules, "min_total", None),
            "lock_at": getattr(self.rules, "lock_at", None),
            "match": getattr(self.rules, "match", "single"),
            "reason": self.rows[-1].outcome.reason if self.winner is not None else None,
        }

    def row_json(self, row: Row) -> dict[str, Any]:
        e = row.entry
        out: dict[str, Any] = {"hand": row.hand, "game": row.game, "dealer": row.dealer,
                               **e.to_json(), "scores": list(row.scores),
                               "deltas": list(row.outcome.deltas), "text": row.text,
                               "won": row.outcome.winner is not None,
                               "made": row.outcome.made,
                               "notes": [list(n) for n in row.outcome.notes],
                               "reason": row.outcome.reason,
                               "winner": None if row.outcome.winner is None
                               else list(self._winner_seats(row.outcome.winner)),
                               "games": list(row.games), "match_over": row.match_over}
        out["note"] = ("thrown in" if e.thrown_in or (e.bids and not e.tricks) else
                       "made" if row.outcome.made else "set" if row.outcome.made is False
                       else "")
        return out

    def to_csv(self) -> str:
        """The pad as a spreadsheet: one line a hand, then the result."""
        names = self.side_names()
        if self.is_forty_one:
            head = ["hand", "dealer", *[f"{n} bid" for n in names],
                    *[f"{n} tricks" for n in names]]
        else:
            head = ["hand", "game", "dealer", "bidder", "bid", "partner", "trump",
                    *[f"{n} points" for n in names]]
        rows: list[list[Any]] = [[*head, *[f"{n} total" for n in names], "what happened"]]
        for row in self.rows:
            e = row.entry
            if self.is_forty_one:
                cells: list[Any] = [row.hand, self.names[row.dealer], *e.bids,
                                    *(e.tricks or [""] * 4)]
            else:
                cells = [row.hand, row.game, self.names[row.dealer],
                         "" if e.bidder is None else self.names[e.bidder],
                         bid_text(e.bid) if e.bid else "",
                         "" if e.partner is None else self.names[e.partner], e.trump or "",
                         *(e.points or [""] * len(names))]
            rows.append([*cells, *row.scores, row.text])
        return to_csv(rows)


def _and(names: Iterable[str]) -> str:
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _check_trump(trump: str | None, turned_up: bool) -> str | None:
    if not trump:
        return None
    t = trump.strip().upper()
    if t in SUITS:
        return t
    if turned_up:
        try:
            parse_card(t)
            return t
        except CardError:
            pass
    raise PadError(f"trump {trump[:20]!r} is not a suit (C, D, H, S)"
                   + (" or the card turned up (JD)" if turned_up else ""))


def _trump_words(t: str) -> str:
    if t in SUITS:
        return SUIT_NAMES[SUITS.index(t)]
    return t


def new_pad(preset: str, options: dict[str, Any] | None = None, names: Sequence[str] = (),
            first_dealer: int = 0, title: str = "") -> Pad:
    """A blank pad for a preset and house rules; raises PadError."""
    try:
        rules = build_rules(preset, options or {})
    except RulesError as e:
        raise PadError(str(e)) from None
    return Pad(rules, list(names), first_dealer, [], title)


__all__ = ["CODES", "Entry", "Pad", "PadError", "Row", "new_pad"]
