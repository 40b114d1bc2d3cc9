"""A club's season: its hall evenings between two dates, added up.

``season(rule, evenings, closed)`` takes the season's rule (``SeasonRule``: all the
evenings or each couple's best N, how ties are settled, how many places are prizes)
and the season's evenings (``SeasonEvening``: a date, a title and the evening's
``Hall``), and derives the season's standings: each couple's games won evening by
evening and in all, the evenings it came to, the prizes it won, the cookie jar's
history, the ranking under the rule and its ties settled. ``season_json`` and
``season_csv`` export it. Pure: nothing here reads a store or a clock (the caller
says whether the season's last date is past: ``closed``).

- **The same couple**: two couples of different evenings are the same couple when
  their two names match, in either order, with letter case, accents written two ways
  (Unicode NFKC) and runs of spaces folded (``fold_name``): "Mary  Doyle & jim BURKE"
  is "Jim Burke & Mary Doyle". The hall itself only trims a name; the season folds
  further so that a name typed differently at the door still adds up. Names corrected
  on the evening ("Correct the names") count as corrected. The season shows a couple
  under the names of the last evening it came to.
- **Counted evenings**: an evening counts once it is over (its last game in); one
  still in play or not yet started is listed as such and adds nothing.
- **Games won**: the games on the couple's punch card that evening (a bye counts when
  the evening counts byes), duplicate evenings included.
- **The ranking total**: games won over all counted evenings (``best`` None), or over
  the couple's best ``best`` evenings by games won; an evening missed counts nothing.
- **Ties**: couples are ranked by the total, then (with best N) by the games won over
  all their evenings. Couples still level share a place; where that place is a prize
  place (``prizes``) and the season is over (``closed`` and every evening over), the
  tie is settled by the season's ``ties``: ``cut`` (a cut of the deck, drawn as the
  hall's cut and checkable the same way: see ``draw_number``) or ``split`` (they
  share the place for good). Before then the tie is shown as level.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..spreadsheet import to_csv
from .draw import METHOD, Cut, cut_deck
from .evening import Hall
from .events import HallError
from .prizes import BOOBY

FORMAT = "forties-season/1"
TIES = ("cut", "split")
MAX_BEST = 366
MAX_PRIZES = 50
MAX_EVENINGS = 400

CSV_COLUMNS = ("place", "couple", "name 1", "name 2", "total", "games", "evenings",
               "prizes", "tie", "not counted")
"""The CSV's first columns, always in this order; one column per evening follows
(``E1 2026-01-05 Title``: the games the couple won there, empty if it did not come)."""


class SeasonError(HallError):
    """A season's rule or evenings that cannot be used, in one line."""


@dataclass(frozen=True)
class SeasonRule:
    """How a season ranks its couples.

    - ``best``: count each couple's best ``best`` evenings by games won (None: all).
    - ``ties``: ``cut`` (a cut of the deck, as the hall's) or ``split`` (shared place)
      for couples level on a prize place once the season is over.
    - ``prizes``: how many places are prizes (ties below them simply share a place).
    """

    best: int | None = None
    ties: str = "cut"
    prizes: int = 3

    def __post_init__(self) -> None:
        if self.best is not None and (isinstance(self.best, bool) or
                                      not isinstance(self.best, int) or
                                      not 1 <= self.best <= MAX_BEST):
            raise SeasonError(f"best must be a number of evenings from 1 to {MAX_BEST}, "
                              f"or none for all of them")
        if self.ties not in TIES:
            raise SeasonError(f"ties must be one of {', '.join(TIES)}, not {self.ties!r}")
        if isinstance(self.prizes, bool) or not isinstance(self.prizes, int) or \
                not 0 <= self.prizes <= MAX_PRIZES:
            raise SeasonError(f"prizes must be from 0 to {MAX_PRIZES}")

    def to_json(self) -> dict[str, Any]:
        return {"best": self.best, "ties": self.ties, "prizes": self.prizes}

    @classmethod
    def from_json(cls, obj: Any) -> SeasonRule:
        """A rule as stored (``{"best": 8}``, ``{"best": null, "ties": "split"}``); a
        missing key takes its default; raises SeasonError in one line."""
        if not isinstance(obj, dict):
            raise SeasonError("a season's rule is an object such as {\"best\": 8}")
        extra = sorted(set(obj) - {"best", "ties", "prizes"})
        if extra:
            raise SeasonError(f"a season's rule has no {str(extra[0])[:40]!r}")
        return cls(best=obj.get("best"), ties=obj.get("ties", "cut"),
                   prizes=obj.get("prizes", 3))

    def describe(self) -> str:
        counted = "every evening" if self.best is None else \
            f"each couple's best {self.best} evening" + ("s" if self.best > 1 else "")
        return f"{counted}; ties for the first {self.prizes} places: {self.ties}"


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of the season: its id, date, title and the evening itself."""

    key: str
    when: date
    title: str
    hall: Hall

    @classmethod
    def of(cls, key: str, when: date, title: str, hall: Hall | dict[str, Any]) -> SeasonEvening:
        """From a ``Hall`` or what ``Hall.to_json`` wrote (replayed; a refusal names the
        evening)."""
        if not isinstance(hall, Hall):
            try:
                hall = Hall.from_json(hall)
            except HallError as e:
                raise SeasonError(f"evening {title or key}: {e}") from None
        return cls(key, when, title, hall)

    @property
    def state(self) -> str:
        """``over``, ``playing`` or ``not started``."""
        if self.hall.over:
            return "over"
        return "playing" if self.hall.started else "not started"


@dataclass(frozen=True)
class Night:
    """A couple's evening: its number there, the games it won, whether they count."""

    evening: str
    couple: int
    games: int
    counted: bool


@dataclass(frozen=True)
class PrizeWon:
    """A prize a couple took on an evening (``prize`` 0: the booby prize)."""

    evening: str
    prize: int
    how: str  # outright, split, cut, play-off
    shared: bool


@dataclass(frozen=True)
class SeasonStanding:
    couple: int  # the season's number: in order of first appearance
    names: tuple[str, str]
    total: int  # the ranking total under the rule
    games: int  # games won over every counted evening
    nights: tuple[Night, ...]
    prizes: tuple[PrizeWon, ...]
    place: int
    tie: str | None  # the key of its tie (``place-P``) in ``Season.ties``

    @property
    def evenings(self) -> int:
        return len(self.nights)


@dataclass(frozen=True)
class SeasonTie:
    """Couples level on a prize place: ``method`` cut, split, or ``level`` (the season
    is not over yet); ``order`` best first once a cut decides it."""

    key: str
    couples: tuple[int, ...]
    places: tuple[int, ...]
    method: str
    cut: Cut | None


@dataclass(frozen=True)
class JarEvening:
    """The cookie jar on one counted evening: its games, the season couples who took it
    (none: it carried over), and how many evenings in a row it had carried over before."""

    evening: str
    games: tuple[int, ...]
    winners: tuple[int, ...]
    best: int
    rule: str
    carried: int


@dataclass(frozen=True)
class Season:
    rule: SeasonRule
    evenings: tuple[SeasonEvening, ...]  # by date
    standings: tuple[SeasonStanding, ...]
    ties: tuple[SeasonTie, ...]
    cookie_jar: tuple[JarEvening, ...]
    closed: bool

    @property
    def over(self) -> bool:
        """Every evening over and the season's last date past: its ties are settled."""
        return self.closed and all(e.hall.over for e in self.evenings)

    def counted(self) -> list[SeasonEvening]:
        return [e for e in self.evenings if e.hall.over]


def fold_name(name: str) -> str:
    """A name as the season compares it: NFKC, case folded, spaces run together."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def couple_key(names: Sequence[str]) -> tuple[str, str]:
    """Who a couple is, whichever way round and however typed."""
    a, b = sorted(fold_name(n) for n in names)
    return (a, b)


def draw_number(evenings: Sequence[SeasonEvening]) -> int:
    """The number the season's cuts are drawn from: the first 6 bytes (big-endian) of the
    SHA-256 of the evenings' seeds in date order, in decimal, joined by "/", then
    "/season". Each evening shows its seed once it is over, so anyone can redo it, and
    nobody can know it before the season's last evening is over."""
    text = "/".join([*(str(e.hall.settings.seed) for e in evenings), "season"])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


SEASON_NUMBER = ("The season's number: the first 6 bytes of the SHA-256 of "
                 "\"SEED1/SEED2/.../season\" (each evening's seed, in date order), read as "
                 "a big-endian number; then each cut as an evening's, with that number as "
                 "the seed and the draw's name shown with the cut (such as "
                 "cut/season/place-1).")


def season(rule: SeasonRule, evenings: Sequence[SeasonEvening], closed: bool) -> Season:
    """The season's standings from its rule and its evenings (see the module's text)."""
    if len(evenings) > MAX_EVENINGS:
        raise SeasonError(f"a season holds at most {MAX_EVENINGS} evenings")
    ordered = tuple(sorted(evenings, key=lambda e: (e.when, e.title, e.key)))
    if len({e.key for e in ordered}) != len(ordered):
        raise SeasonError("an evening is in the season twice")
    numbers: dict[tuple[str, str, int], int] = {}
    names: dict[int, tuple[str, str]] = {}
    nights: dict[int, list[Night]] = {}
    prizes: dict[int, list[PrizeWon]] = {}
    jars: list[JarEvening] = []
    carried = 0
    for ev in ordered:
        h = ev.hall
        if not h.over:
            continue
        here: dict[int, int] = {}  # the evening's couple -> the season's
        seen: dict[tuple[str, str], int] = {}
        for st in sorted(h.standings(), key=lambda s: s.couple):
            folded = couple_key(st.names)
            k = seen.get(folded, 0)  # two couples of one evening with the same names
            seen[folded] = k + 1
            n = numbers.setdefault((*folded, k), len(numbers) + 1)
            here[st.couple] = n
            names[n] = st.names
            nights.setdefault(n, []).append(Night(ev.key, st.couple, st.wins, True))
        for a in h.awards():
            for c in a.couples:
                if c in here:
                    prizes.setdefault(here[c], []).append(
                        PrizeWon(ev.key, a.prize, a.how, len(a.couples) > 1))
        jar = h.cookie_jar()
        if jar is not None:
            winners = tuple(sorted(here[c] for c in jar.winners if c in here))
            jars.append(JarEvening(ev.key, jar.games, winners, jar.best,
                                   h.settings.cookie_jar_rule, carried))
            carried = 0 if winners else carried + 1
    rows: list[tuple[int, int, int, tuple[Night, ...]]] = []
    for n, got in nights.items():
        if rule.best is not None:
            keep = sorted(range(len(got)), key=lambda i: (-got[i].games, i))[:rule.best]
            got = [Night(x.evening, x.couple, x.games, i in keep) for i, x in enumerate(got)]
        total = sum(x.games for x in got if x.counted)
        games = sum(x.games for x in got)
        rows.append((n, total, games, tuple(got)))
    rows.sort(key=lambda r: (-r[1], -r[2], r[0]))
    final = closed and all(e.hall.over for e in ordered)
    number = draw_number(ordered) if final else 0
    out: list[SeasonStanding] = []
    ties: list[SeasonTie] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j][1:3] == rows[i][1:3]:
            j += 1
        group = rows[i:j]
        place = i + 1
        order = [r[0] for r in group]
        places = [place] * len(group)
        key = None
        if len(group) > 1 and place <= rule.prizes:
            key = f"place-{place}"
            method = rule.ties if final else "level"
            cut = cut_deck(number, f"season/{key}", order) if method == "cut" else None
            if cut is not None:
                order = list(cut.order)
                places = list(range(place, place + len(group)))
            ties.append(SeasonTie(key, tuple(sorted(order)),
                                  tuple(range(place, place + len(group))), method, cut))
        by_number = {r[0]: r for r in group}
        for p, c in zip(places, order, strict=True):
            _, total, games, ns = by_number[c]
            out.append(SeasonStanding(c, names[c], total, games, ns,
                                      tuple(prizes.get(c, ())), p, key))
        i = j
    return Season(rule, ordered, tuple(out), tuple(ties), tuple(jars), closed)


# ----- exports ---------------------------------------------------------------------------


def _evening_json(ev: SeasonEvening, index: int) -> dict[str, Any]:
    h = ev.hall
    out: dict[str, Any] = {"evening": index, "id": ev.key, "date": ev.when.isoformat(),
                           "title": ev.title, "state": ev.state, "counted": h.over,
                           "games": h.games, "couples": sum(1 for c in h.couples.values()
                                                           if not c.withdrawn)}
    if h.over:
        out["prizes_decided"] = all(c.decided for c in h.contests().values())
        out["seed_text"] = str(h.settings.seed)
    return out


def _prize_label(p: PrizeWon) -> str:
    return "booby" if p.prize == BOOBY else str(p.prize)


def season_json(s: Season) -> dict[str, Any]:
    """The season as JSON: ``format``, ``rule``, ``over``, ``evenings`` (in date order,
    each with ``evening`` its number in the season), ``standings`` (best first),
    ``ties``, ``cookie_jar`` and ``draws`` (once a cut settled a tie: the season's number,
    ``how`` it is made and the cut's ``method``, the hall's)."""
    index = {e.key: i for i, e in enumerate(s.evenings, 1)}
    out: dict[str, Any] = {
        "format": FORMAT, "rule": s.rule.to_json(), "over": s.over,
        "evenings": [_evening_json(e, i) for i, e in enumerate(s.evenings, 1)],
        "standings": [{
            "place": st.place, "couple": st.couple, "names": list(st.names),
            "total": st.total, "games": st.games, "evenings": st.evenings,
            "nights": [{"evening": index[x.evening], "couple": x.couple, "games": x.games,
                        "counted": x.counted} for x in st.nights],
            "prizes": [{"evening": index[p.evening], "prize": p.prize, "how": p.how,
                        "shared": p.shared} for p in st.prizes],
            "tie": st.tie} for st in s.standings],
        "ties": [{"key": t.key, "couples": list(t.couples), "places": list(t.places),
                  "method": t.method,
                  "cut": None if t.cut is None else {
                      "draw": t.cut.name, "cards": {str(c): list(v) for c, v in t.cut.draws},
                      "order": list(t.cut.order)}} for t in s.ties],
        "cookie_jar": [{"evening": index[j.evening], "games": list(j.games),
                        "winners": list(j.winners), "best": j.best, "rule": j.rule,
                        "carried": j.carried} for j in s.cookie_jar]}
    if s.over and any(t.cut is not None for t in s.ties):
        out["draws"] = {"number": draw_number(s.evenings), "how": SEASON_NUMBER,
                        "method": METHOD}
    return out


def season_csv(s: Season) -> str:
    """One row per couple, best first: ``CSV_COLUMNS`` then one column per evening."""
    index = {e.key: i for i, e in enumerate(s.evenings, 1)}
    head = [*CSV_COLUMNS, *(f"E{i} {e.when.isoformat()} {e.title}".rstrip()
                            for i, e in enumerate(s.evenings, 1))]
    rows: list[list[Any]] = [head]
    for st in s.standings:
        a, b = st.names
        per: list[Any] = [""] * len(s.evenings)
        for x in st.nights:
            per[index[x.evening] - 1] = x.games
        prizes = " ".join(f"E{index[p.evening]}:{_prize_label(p)}" for p in st.prizes)
        dropped = " ".join(f"E{index[x.evening]}" for x in st.nights if not x.counted)
        tie = next((t.method for t in s.ties if t.key == st.tie), "")
        rows.append([st.place, st.couple, a, b, st.total, st.games, st.evenings, prizes,
                     tie, dropped, *per])
    return to_csv(rows)
