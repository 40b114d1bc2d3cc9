"""Ratings of players and partnerships, per game (docs/ratings.md says it for players).

The model is openskill's Weng-Lin Bayesian rating with the Plackett-Luce likelihood: a
skill is a belief, a mean ``mu`` and an uncertainty ``sigma``; a game's finishing order of
its sides (a partnership's seats together, a seat alone in a cut-throat game) moves the
belief. Plackett-Luce takes a whole finishing order of any number of sides at once, in time
linear in their number (the pairwise Bradley-Terry and Thurstone-Mosteller models compare
every two sides), which suits games of two sides and cut-throat games of three to six alike.

What this module decides, and nothing of where ratings are kept:

- ``rate_game``: the new ratings of the accounts of a finished rated game, and of the
  partnerships (two accounts sitting as the two seats of one side);
- ``why_not_rated``: why a game does not count (a code of ``REASONS``), or None;
- ``pairing_check``: the limits on the same accounts meeting again and again;
- ``active`` and ``leaderboard``: who stands on a game's leaderboard, in what order.

Participants are keys: an account's id (text), or a key the caller names in ``computers``
with the computer player's level; a computer player has its level's fixed rating
(``COMPUTER_RATINGS``), never changed. ``None`` in a side, for ``why_not_rated``, is a
person without an account (a guest).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from .errors import FortiesError
from .rules import PRESETS

__all__ = [
    "ACTIVE_DAYS",
    "COMPUTER_RATINGS",
    "COMPUTER_SIGMA",
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "DISPLAY_Z",
    "MODEL_BETA",
    "MODEL_KAPPA",
    "MODEL_MU",
    "MODEL_SIGMA",
    "MODEL_TAU",
    "PAIRING_DAY_LIMIT",
    "PAIRING_WINDOW_S",
    "PROVISIONAL_GAMES",
    "PROVISIONAL_SIGMA",
    "RATED_FAMILIES",
    "REASONS",
    "SHARE_GAMES",
    "SHARE_LIMIT",
    "Pair",
    "RatedGame",
    "Rating",
    "RatingError",
    "Updates",
    "active",
    "leaderboard",
    "new_rating",
    "pair_key",
    "pairing_check",
    "rate_game",
    "rated_game",
    "why_not_rated",
]

# The model's parameters: openskill's defaults, written down so that a new version of the
# library cannot change them under us. A newcomer's belief is MODEL_MU +- MODEL_SIGMA;
# MODEL_BETA is the spread of one game's performance about the skill; MODEL_TAU is added
# (in quadrature) to every sigma before each game, so that a rating can still move after
# hundreds of games; MODEL_KAPPA keeps a variance from shrinking to nothing in one game.
MODEL_MU = 25.0
MODEL_SIGMA = 25.0 / 3.0
MODEL_BETA = 25.0 / 6.0
MODEL_TAU = 25.0 / 300.0
MODEL_KAPPA = 0.0001
_MODEL = PlackettLuce(mu=MODEL_MU, sigma=MODEL_SIGMA, beta=MODEL_BETA, kappa=MODEL_KAPPA,
                      tau=MODEL_TAU, margin=0.0, limit_sigma=False, balance=False)

# The number a player reads: DISPLAY_BASE + DISPLAY_SCALE * (mu - DISPLAY_Z * sigma),
# rounded. mu - 3 sigma is a cautious estimate (the skill is above it with 99.9% belief),
# so a newcomer shows 1000 and climbs as the games make the site surer of him; a player of
# average skill settles near 1500 after a few hundred games; a point of mu is 25 points.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 25
DISPLAY_Z = 3.0

# Provisional: fewer than PROVISIONAL_GAMES rated games, or sigma still above
# PROVISIONAL_SIGMA (a partnership game tells little of each of the four players: among
# newcomers playing each other, sigma falls from 8.33 to about 6.5 in fifteen games).
PROVISIONAL_GAMES = 20
PROVISIONAL_SIGMA = 6.5

# The computer players' fixed, published ratings, one per level a table offers (the
# levels of forties.table.TABLE_LEVELS). Read off the duplicate matches of
# docs/lab-notes.md: `random` plays any legal card, `basic` beats it by over 40 points a
# hand, `expert` beats `basic` by some 3 points a hand (these give a pair of experts
# p = 0.84 against a pair of `basic`), `oracle` sees every card in the play.
COMPUTER_SIGMA = 2.0
COMPUTER_MU = {"random": 5.0, "basic": 20.0, "expert": 26.0, "oracle": 29.0}

# Leaderboards show the accounts with a rated game in the last ACTIVE_DAYS days.
ACTIVE_DAYS = 30

# Collusion (the same two accounts feeding each other): a game does not count for anyone,
# and is flagged for the operator, when two of its accounts on opposite sides have already
# met as opponents in PAIRING_DAY_LIMIT counted games in the PAIRING_WINDOW_S seconds
# before it, or when it would make one account's games against the same opponent more
# than SHARE_LIMIT of its last SHARE_GAMES counted games.
PAIRING_WINDOW_S = 24 * 3600
PAIRING_DAY_LIMIT = 8
SHARE_GAMES = 40
SHARE_LIMIT = 0.5

# Every preset is a rated game, by its preset's name, when played by the preset's rules.
RATED_FAMILIES = tuple(PRESETS)

# Why a game did not count: each code with the sentence a player reads.
REASONS: dict[str, str] = {
    "not_rated_game": "This game is not one of the rated games, so it does not count for "
                      "ratings.",
    "house_rules": "The table played with changes to the game's usual rules; only games "
                   "played by the usual rules count for ratings.",
    "not_marked": "The host did not mark the table rated before the game began, so it does "
                  "not count for ratings.",
    "not_finished": "The game did not finish (it was abandoned or closed), so it does not "
                    "count for ratings.",
    "guest": "A seat was played by a guest without an account, so the game does not count "
             "for ratings.",
    "unrated_computer": "A computer player of a level without a published rating took a "
                        "seat, so the game does not count for ratings.",
    "no_account": "Nobody with an account played, so the game counts for no one.",
    "pairing_day": f"Two of the players had already met as opponents in "
                   f"{PAIRING_DAY_LIMIT} rated games in the last 24 hours; further games "
                   f"between them that day do not count for ratings.",
    "pairing_share": f"More than half of a player's last {SHARE_GAMES} rated games would "
                     f"have been against the same opponent, so this game does not count for "
                     f"ratings; games against others do.",
}

Pair = tuple[str, str]


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class RatingError(FortiesError, ValueError):
    """Input that the ratings cannot take (one line saying what is wrong)."""


@dataclass(frozen=True)
class Rating:
    """A belief about a skill: ``mu`` +- ``sigma``, after ``games`` rated games."""

    mu: float
    sigma: float
    games: int = 0

    def __post_init__(self) -> None:
        if (not _is_number(self.mu) or not math.isfinite(self.mu)
                or not _is_number(self.sigma) or not math.isfinite(self.sigma)
                or self.sigma <= 0):
            raise RatingError("a rating needs a finite mu and a finite sigma above 0")
        if not isinstance(self.games, int) or isinstance(self.games, bool) or self.games < 0:
            raise RatingError("a rating's games must be a whole number, 0 or more")

    @property
    def display(self) -> int:
        """The number a player reads (DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 sigma))."""
        return round(DISPLAY_BASE + DISPLAY_SCALE * (self.mu - DISPLAY_Z * self.sigma))

    @property
    def provisional(self) -> bool:
        """Too few games, or too uncertain still, to stand for the player."""
        return self.games < PROVISIONAL_GAMES or self.sigma > PROVISIONAL_SIGMA


def new_rating() -> Rating:
    """A newcomer's rating (an account's, or a partnership's)."""
    return Rating(MODEL_MU, MODEL_SIGMA, 0)


COMPUTER_RATINGS: dict[str, Rating] = {
    level: Rating(mu, COMPUTER_SIGMA, 0) for level, mu in COMPUTER_MU.items()}


@dataclass(frozen=True)
class Updates:
    """What one rated game changes: the new rating of each account and of each
    partnership (key: its two account ids, sorted)."""

    accounts: dict[str, Rating]
    partnerships: dict[Pair, Rating]


@dataclass(frozen=True)
class RatedGame:
    """A rated game as the collusion limits see it: when it finished (seconds since the
    epoch) and the accounts of each side (computer players and guests left out)."""

    at: float
    sides: tuple[tuple[str, ...], ...]


def pair_key(a: str, b: str) -> Pair:
    """A partnership's key: its two account ids, sorted."""
    return (a, b) if a <= b else (b, a)


def _check_family(family: object) -> str:
    if not isinstance(family, str) or family not in RATED_FAMILIES:
        raise RatingError(f"family must be one of {', '.join(RATED_FAMILIES)}")
    return family


def _check_computers(computers: object) -> Mapping[str, str]:
    if not isinstance(computers, Mapping):
        raise RatingError("computers must map a participant's key to a computer level")
    for key, level in computers.items():
        if not isinstance(key, str) or not isinstance(level, str):
            raise RatingError("computers must map a participant's key to a computer level")
    return computers


def _is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (no lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _check_sides(sides: object, guests: bool) -> tuple[tuple[str | None, ...], ...]:
    """The sides as tuples, each participant's key a non-empty text seen once (``None``,
    a guest, only where ``guests``); raises RatingError."""
    if not isinstance(sides, Sequence) or isinstance(sides, str) or not 2 <= len(sides) <= 10:
        raise RatingError("sides must be a list of 2 to 10 sides, each a list of "
                          "participants")
    out: list[tuple[str | None, ...]] = []
    seen: set[str] = set()
    for side in sides:
        if not isinstance(side, Sequence) or isinstance(side, str) or not 1 <= len(side) <= 5:
            raise RatingError("each side must be a list of 1 to 5 participants")
        for key in side:
            if key is None and guests:
                continue
            if (not isinstance(key, str) or not 1 <= len(key) <= 200 or not key.isprintable()
                    or not _is_utf8(key)):
                raise RatingError("a participant must be an account id or a computer's key "
                                  "(printable text of 1 to 200 characters)")
            if key in seen:
                raise RatingError(f"participant {key!r} appears more than once")
            seen.add(key)
        out.append(tuple(side))
    return tuple(out)


def _ranks(count: int, ranks: object, scores: object) -> list[int]:
    """Each side's place, 0 for the first, sides level with each other sharing theirs."""
    if (ranks is None) == (scores is None):
        raise RatingError("give either ranks (lower is better) or scores (higher is "
                          "better), one for each side")
    given = ranks if ranks is not None else scores
    if (not isinstance(given, Sequence) or isinstance(given, str) or len(given) != count
            or not all(_is_number(x) and math.isfinite(x) for x in given)):
        raise RatingError(f"ranks or scores must be {count} finite numbers, one for each "
                          f"side")
    keys = [float(x) if ranks is not None else -float(x) for x in given]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def _rating_of(key: str, ratings: Mapping[str | Pair, Rating]) -> Rating:
    r = ratings.get(key, None)
    if r is None:
        return new_rating()
    if not isinstance(r, Rating):
        raise RatingError(f"the rating of {key!r} must be a Rating")
    return r


def rate_game(family: str, sides: Sequence[Sequence[str]], *,
              ranks: Sequence[float] | None = None, scores: Sequence[float] | None = None,
              ratings: Mapping[str | Pair, Rating],
              computers: Mapping[str, str] | None = None) -> Updates:
    """The new ratings after one counted game of ``family``.

    ``sides``: each side's participants (a partnership's two keys; one key a side in a
    cut-throat game). ``ranks`` (0 or 1 for the first, lower is better) or ``scores``
    (higher is better), one for each side; equal ones are a tie. ``ratings``: the current
    ratings in this family of the accounts (by id) and partnerships (by ``pair_key``); one
    not there is a newcomer's. ``computers``: the keys of the computer players and their
    levels (their ratings are ``COMPUTER_RATINGS``, never changed).

    Each account's rating moves as the Plackett-Luce update of the game says, every side
    being its players together. Then each side of exactly two accounts is a partnership,
    rated as one player against the other sides, each of them one player too: another
    partnership by its own rating, any other side by a fixed stand-in whose mu is the mean
    of its players' mu and whose variance is the mean of their variances.
    """
    _check_family(family)
    computers = _check_computers({} if computers is None else computers)
    checked = tuple(tuple(k for k in side if k is not None)
                    for side in _check_sides(sides, guests=False))
    places = _ranks(len(checked), ranks, scores)
    if not isinstance(ratings, Mapping):
        raise RatingError("ratings must map account ids and partnerships to ratings")
    current: dict[str, Rating] = {}
    accounts: list[str] = []
    for side in checked:
        for key in side:
            if key in computers:
                level = computers[key]
                if level not in COMPUTER_RATINGS:
                    raise RatingError(f"computer level {level!r} has no published rating "
                                      f"(levels: {', '.join(COMPUTER_RATINGS)})")
                current[key] = COMPUTER_RATINGS[level]
            else:
                current[key] = _rating_of(key, ratings)
                accounts.append(key)
    if not accounts:
        raise RatingError("a rated game needs at least one account")

    teams = [[_MODEL.rating(current[k].mu, current[k].sigma) for k in side]
             for side in checked]
    after = _MODEL.rate(teams, ranks=[float(p) for p in places])
    new_accounts: dict[str, Rating] = {}
    for side, rated in zip(checked, after, strict=True):
        for key, r in zip(side, rated, strict=True):
            if key not in computers:
                new_accounts[key] = Rating(r.mu, r.sigma, current[key].games + 1)

    pairs = [pair_key(side[0], side[1]) if len(side) == 2
             and all(k not in computers for k in side) else None
             for side in checked]
    new_pairs: dict[Pair, Rating] = {}
    if any(p is not None for p in pairs):
        players = []
        for side, pair in zip(checked, pairs, strict=True):
            if pair is not None:
                own = _rating_of_pair(pair, ratings)
                players.append([_MODEL.rating(own.mu, own.sigma)])
            else:
                members = [current[k] for k in side]
                mu = sum(m.mu for m in members) / len(members)
                var = sum(m.sigma ** 2 for m in members) / len(members)
                players.append([_MODEL.rating(mu, math.sqrt(var))])
        after_pairs = _MODEL.rate(players, ranks=[float(p) for p in places])
        for pair, rated in zip(pairs, after_pairs, strict=True):
            if pair is not None:
                games = _rating_of_pair(pair, ratings).games
                new_pairs[pair] = Rating(rated[0].mu, rated[0].sigma, games + 1)
    return Updates(new_accounts, new_pairs)


def _rating_of_pair(pair: Pair, ratings: Mapping[str | Pair, Rating]) -> Rating:
    r = ratings.get(pair, None)
    if r is None:
        return new_rating()
    if not isinstance(r, Rating):
        raise RatingError(f"the rating of partnership {pair!r} must be a Rating")
    return r


def rated_game(at: float, sides: Sequence[Sequence[str | None]],
               computers: Mapping[str, str] | None = None) -> RatedGame:
    """A game as ``pairing_check`` takes it: its accounts only, by side."""
    if not _is_number(at) or not math.isfinite(at):
        raise RatingError("a game's time must be a finite number of seconds")
    computers = _check_computers({} if computers is None else computers)
    checked = _check_sides(sides, guests=True)
    return RatedGame(float(at), tuple(
        tuple(k for k in side if k is not None and k not in computers) for side in checked))


def _opponents(game: RatedGame) -> set[Pair]:
    out: set[Pair] = set()
    for i, side in enumerate(game.sides):
        for other in game.sides[i + 1:]:
            out.update(pair_key(a, b) for a in side for b in other)
    return out


def _side_of(game: RatedGame, account: str) -> int | None:
    for i, side in enumerate(game.sides):
        if account in side:
            return i
    return None


def _pairing(history: Iterable[RatedGame], game: RatedGame) -> tuple[str | None, str | None]:
    """(the code of the first limit the game passes, or None; the flag for the operator)."""
    past = [g for g in history if isinstance(g, RatedGame)]
    if not isinstance(game, RatedGame):
        raise RatingError("the game to check must be a RatedGame")
    met = _opponents(game)
    code: str | None = None
    flags: list[str] = []
    since = game.at - PAIRING_WINDOW_S
    for a, b in sorted(met):
        times = sum(1 for g in past if g.at > since and pair_key(a, b) in _opponents(g))
        if times >= PAIRING_DAY_LIMIT:
            code = code or "pairing_day"
            flags.append(f"accounts {a} and {b} had met as opponents in {times} counted "
                         f"games in the 24 hours before (limit {PAIRING_DAY_LIMIT})")
    most = math.floor(SHARE_LIMIT * SHARE_GAMES)
    for account in sorted({a for side in game.sides for a in side}):
        mine = sorted((g for g in past if _side_of(g, account) is not None),
                      key=lambda g: g.at)[-(SHARE_GAMES - 1):]
        here = _side_of(game, account)
        for side_no, side in enumerate(game.sides):
            if side_no == here:
                continue
            for other in side:
                times = 1 + sum(1 for g in mine if pair_key(account, other) in _opponents(g))
                if times > most:
                    code = code or "pairing_share"
                    flags.append(f"account {account}: {times} of its last {SHARE_GAMES} "
                                 f"rated games against {other} (limit {most})")
    if not flags:
        return None, None
    return code, "not counted: " + "; ".join(flags)


def pairing_check(history: Iterable[RatedGame], game: RatedGame) -> tuple[bool, str | None]:
    """Whether ``game`` counts under the limits on repeated pairings, and if not the line
    that flags it for the operator. ``history``: the counted rated games of its accounts
    (any order; those long past are no matter)."""
    code, flag = _pairing(history, game)
    return code is None, flag


def why_not_rated(family: str, sides: Sequence[Sequence[str | None]], *,
                  marked_rated: bool, finished: bool, house_rules: bool = False,
                  computers: Mapping[str, str] | None = None,
                  history: Iterable[RatedGame] = (), at: float | None = None) -> str | None:
    """Why a game does not count, as a code of ``REASONS`` (its sentence the player reads),
    or None where it counts. ``sides`` as ``rate_game`` takes them, ``None`` for a seat of a
    person without an account; ``house_rules``: the table changed its preset's rules;
    ``at``: when it finished, for the limits on repeated pairings (None: before the end,
    those limits not yet judged)."""
    computers = _check_computers({} if computers is None else computers)
    checked = _check_sides(sides, guests=True)
    if family not in RATED_FAMILIES:
        return "not_rated_game"
    if house_rules:
        return "house_rules"
    if not marked_rated:
        return "not_marked"
    if not finished:
        return "not_finished"
    keys = [k for side in checked for k in side]
    if any(k is None for k in keys):
        return "guest"
    if any(k in computers and computers[k] not in COMPUTER_RATINGS for k in keys
           if k is not None):
        return "unrated_computer"
    if all(k in computers for k in keys):
        return "no_account"
    if at is None:
        return None
    code, _flag = _pairing(history, rated_game(at, checked, computers))
    return code


def active(last_rated_at: float | None, now: float) -> bool:
    """Whether an account played a counted rated game in the last ACTIVE_DAYS days."""
    return last_rated_at is not None and now - last_rated_at <= ACTIVE_DAYS * 86400


def leaderboard(rows: Iterable[tuple[str, Rating, float | None]],
                now: float) -> list[tuple[str, Rating]]:
    """A game's leaderboard from (account id, rating, time of its last counted rated game)
    rows: the active accounts only, by display rating, ties by more games, then by id."""
    kept = [(key, r) for key, r, last in rows if active(last, now)]
    return sorted(kept, key=lambda row: (-row[1].display, -row[1].games, row[0]))
