"""An account's games: which account sat in which seat, each finished game indexed once,
and what the pages of a player's games, statistics and ratings read.

- **Seat links** (``seat_accounts``): a person signed in who makes a table, takes a seat
  by its invite or from the lobby, is written beside the seat (``link``); a guest who
  makes an account later brings the seats of this device with him (``claim``: each
  seat's key checked against the stored hash, a seat another account has kept left
  alone). A seat's link changes nothing of what the seat sees at the table: the table
  never reads it. A suspended account signs nobody in, so its person sits as a guest.
- **Rated tables**: the host marks a table rated before the start (``Settings.rated``,
  the ``rated`` event); a rated table starts only when every person at it has an account
  and it plays by its preset's usual rules (``check_start``: the start is refused,
  saying why, and who has no account), so that everyone knows before the first card
  whether the game counts (the computers have their levels' fixed ratings). When it
  ends, ``ratings.why_not_rated`` judges it again (the limits on repeated pairings
  too): a game that does not count says why in its ``games`` row.
- **Indexing** (``index``): a finished game is written in one transaction: its
  ``games`` row (whose primary key makes it once only, across processes and restarts),
  each account's ``game_players`` row (its seat's ``stats.Tally``), the running totals
  of ``account_stats`` (per account and preset, and per partnership), and for a rated
  game that counts the new ratings (``ratings.rate_game``) of its accounts and
  partnerships with their history, or the flag of a game past the pairings' limits.
  Ratings, statistics and leaderboards are kept per preset (``ratings.RATED_FAMILIES``):
  the ``family`` of these tables is the preset's name.
  A game ends where its table is run (``on_over``); the games that ended in another
  process, or before a restart, are found by ``index_missing`` (at the start and on
  every sweep: tables over with no ``games`` row).
- **Reading** (``games_of``, ``stats_of``, ``ratings_of``, ``history_of``,
  ``leaderboard``) and their JSON routes (``ROUTES``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..ratings import (
    ACTIVE_DAYS,
    COMPUTER_RATINGS,
    RATED_FAMILIES,
    REASONS,
    SHARE_GAMES,
    Pair,
    RatedGame,
    Rating,
    new_rating,
    pair_key,
    pairing_check,
    rate_game,
    rated_game,
    why_not_rated,
)
from ..ratings import leaderboard as ranked
from ..stats import GameStats, StatsError, Tally, game_stats, merge
from ..stats import partners as stats_partners
from ..table import COMPUTER, OVER, PERSON, Table
from .account_schema import (
    account_stats_t,
    game_players_t,
    games_t,
    rating_flags_t,
    rating_history_t,
    ratings_t,
    seat_accounts_t,
)
from .accounts import (
    ACTIVE,
    DELETED,
    FORMER_PLAYER,
    Account,
    account_of,
    accounts_of,
    accounts_t,
    require_account,
)
from .http import Refused, json_body, one_line
from .seating import token_hash
from .store import Store, keys_t, tables_t
from .text import is_key

if TYPE_CHECKING:
    from .live import Live
    from .service import Service

log = logging.getLogger("forties.web")
T = TypeVar("T")

CLAIM_MAX = 50  # seats claimed in one request
CLAIM_BODY_MAX = 4 * 1024  # (the /api/account routes' limit: ``account_api.BODY_MAX``)
PAGE_MAX = 100  # games (or leaders) in one answer
PAGE_DEFAULT = 20
HISTORY_MAX = 500  # the latest points of a rating's history read at once (the chart's)
LIST_MAX = 500  # an account's totals and ratings read at once (its partnerships, most
# played first: its own, per game, always)
MISSING_BATCH = 50  # finished games indexed in one pass of the sweep
REMATCH_STEPS = 20  # a seat's link looked for through at most this many rematches back
UNREAD_WORDS = "the game's record could not be read, so it counts for no one"
BOARD_WORDS = ("a duplicate board: its result counts in its session (its hands are shown "
               "there, once every table has played it), never here")
HOUSE_RULES_WORDS = ("this table is rated, but it plays with house rules: only games played "
                     "by the usual rules count for ratings (the host can make the table "
                     "unrated)")
RATED_WORDS = ("this table is rated: every person at it needs an account, and {names} "
               "{have} none (they can make one from the home page, or the host can make "
               "the table unrated)")


# ----- what a finished game is, as the index keeps it ------------------------------------


@dataclass
class Player:
    """An account's place in a finished game: its seat's statistics (``stats.Tally`` as
    JSON), and what it adds to its partnerships' totals (partner's account: the
    partnership's tally, as JSON)."""

    seat: int
    account_id: str
    side: int
    partners: list[str]
    won: bool
    stats: dict[str, Any]
    with_partners: dict[str, dict[str, Any]] = field(default_factory=dict)
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass
class Entry:
    """A finished game as it is indexed: its ``games`` row and its players' rows, and what
    the ratings need (each side's participants: an account's id, None for a guest, a
    computer's key; the computers' levels; each side's place)."""

    table_id: str
    family: str  # the preset: ratings, statistics and leaderboards are kept per preset
    preset: str
    finished: float
    rated: bool
    counted: bool
    why: str | None
    hands: int
    seats: list[dict[str, Any]]
    result: dict[str, Any]
    players: list[Player] = field(default_factory=list)
    house_rules: bool = False
    sides: list[list[str | None]] = field(default_factory=list)
    computers: dict[str, str] = field(default_factory=dict)
    ranks: list[int] = field(default_factory=list)

    def row(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "family": self.family, "preset": self.preset,
                "finished": self.finished, "rated": self.rated, "counted": self.counted,
                "why": self.why, "hands": self.hands, "seats": json.dumps(self.seats),
                "result": json.dumps(self.result)}


def game_tallies(record: dict[str, Any], pars: dict[int, Any]) -> GameStats | None:
    """The game's statistics (``forties.stats``), with its hands' pars where they can be
    read (without them where one cannot); None for a record statistics cannot read."""
    for given in (pars, None):
        try:
            return game_stats(record, given)
        except StatsError as e:
            log.warning("the statistics of a game%s: %s", " with its pars" if given else "",
                        e)
    return None


def entry_of(table: Table, links: dict[int, str], finished: float) -> Entry:
    """What the index keeps of ``table``'s finished game, its seats' accounts ``links``
    (seat: account id). A seat's side is its partnership (``stats.partners``: a seat
    alone in cut-throat games); its partners, the other accounts of that partnership and,
    in Call Your Partner, of each hand's (bidder and called partner).
    Only a person's seat counts as its account's (a link to a seat a computer sat in
    counts for nothing)."""
    record = table.public_record()
    sides = [list(s) for s in stats_partners(record)]
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    won = set(table.summary_for_hall()["winner"] or [])
    accounts = {i: a for i, a in links.items()
                if i < table.n and table.seats[i].kind == PERSON}
    seats: list[dict[str, Any]] = []
    for i, s in enumerate(table.seats):
        seat: dict[str, Any] = {"seat": i, "name": s.name, "kind": s.kind,
                                "side": side_of.get(i, i), "account": accounts.get(i)}
        if s.kind == COMPUTER:
            seat["level"] = s.level
        seats.append(seat)
    state = table.state
    entry = Entry(
        table_id=table.id, family=table.rules.preset, preset=table.rules.preset,
        finished=finished, rated=bool(table.settings.rated), counted=False, why=None,
        hands=len(record.get("hands") or []), seats=seats,
        result={"game": table.rules.game, "scores": list(state.scores),
                "games": list(state.games), "sides": sides, "winner": sorted(won)},
        house_rules=bool(table.rules.overrides))
    for together in sides:
        keys: list[str | None] = []
        for i in together:
            s = table.seats[i]
            if s.kind == COMPUTER:
                entry.computers[f"computer:{i}"] = s.level or ""
                keys.append(f"computer:{i}")
            else:
                keys.append(accounts.get(i))
        entry.sides.append(keys)
        entry.ranks.append(0 if won & set(together) else 1)
    got = game_tallies(record, dict(table.par))
    tallies = got.seats if got is not None else []
    pairs = got.partnerships if got is not None else {}
    for i, account in sorted(accounts.items()):
        side = side_of.get(i, i)
        mates = sides[side] if side < len(sides) else [i]
        partners = sorted({accounts[j] for j in mates if j != i and j in accounts
                           and accounts[j] != account})
        player = Player(seat=i, account_id=account, side=side, partners=partners,
                        won=i in won, stats=tallies[i].to_json() if i < len(tallies) else {})
        for pair, tally in pairs.items():  # (Call Your Partner's hand partnerships too)
            if i not in pair:
                continue
            for j in pair:
                if j != i and j in accounts and accounts[j] != account:
                    player.with_partners[accounts[j]] = tally.to_json()
        # its partners: its side's, and in Call Your Partner each hand's (the accounts its
        # partnership totals name), so that a filter by partner finds every game a
        # partner of the list was a partner in
        player.partners = sorted(set(player.partners) | set(player.with_partners))
        entry.players.append(player)
    return entry


# ----- the index's transactions -----------------------------------------------------------


def links_of(conn: Connection, table_id: str) -> dict[int, str]:
    """The accounts of a table's seats (seat: account id). A rematch's seat keeps the key
    of the same seat at the table it is the rematch of (``web.rematch``): where it has no
    link of its own, the link of that seat (with the same key) is its link."""
    links: dict[int, str] = {}
    current = table_id
    keys = {r.seat: r.token_hash for r in conn.execute(
        sa.select(keys_t.c.seat, keys_t.c.token_hash).where(keys_t.c.table_id == table_id))}
    for _ in range(REMATCH_STEPS):
        rows = conn.execute(sa.select(seat_accounts_t.c.seat, seat_accounts_t.c.account_id)
                            .where(seat_accounts_t.c.table_id == current)).all()
        if current != table_id:  # (a seat of an earlier table: the same key only)
            theirs = {r.seat: r.token_hash for r in conn.execute(
                sa.select(keys_t.c.seat, keys_t.c.token_hash)
                .where(keys_t.c.table_id == current))}
            rows = [r for r in rows if keys.get(r.seat) is not None
                    and theirs.get(r.seat) == keys.get(r.seat)]
        for r in rows:
            links.setdefault(int(r.seat), str(r.account_id))
        before = conn.execute(sa.select(tables_t.c.rematch_of).where(
            tables_t.c.id == current)).scalar()
        if not before:
            break
        current = str(before)
    return links


def _add_stats(conn: Connection, account: str, family: str, partner: str,
               stats: dict[str, Any], now: float) -> None:
    """Add one game's ``stats`` (a ``Tally``'s JSON) to an account's totals in a family
    (``partner`` "": all its games; else with that partner's account)."""
    key = (account_stats_t.c.account_id == account, account_stats_t.c.family == family,
           account_stats_t.c.partner_id == partner)
    row = conn.execute(sa.select(account_stats_t.c.body).where(*key)
                       .with_for_update()).first()
    total = Tally.from_json(stats)
    if row is None:
        conn.execute(account_stats_t.insert(), {
            "account_id": account, "family": family, "partner_id": partner,
            "games": total.games, "body": json.dumps(total.to_json()), "updated": now})
    else:
        total = merge(Tally.from_json(json.loads(row.body)), total)
        conn.execute(account_stats_t.update().where(*key).values(
            games=total.games, body=json.dumps(total.to_json()), updated=now))


def _write_players(conn: Connection, entry: Entry, players: Iterable[Player],
                   now: float, gone: set[str] | frozenset[str] = frozenset()) -> None:
    """Each player's ``game_players`` row, and its totals (none for a deleted account in
    ``gone``, nor with one: a deletion removed them, and they do not come back)."""
    for p in players:
        conn.execute(game_players_t.insert(), {
            "table_id": entry.table_id, "seat": p.seat, "account_id": p.account_id,
            "family": entry.family, "finished": entry.finished, "side": p.side,
            "partners": " ".join(p.partners), "won": p.won, "stats": json.dumps(p.stats),
            "rating_before": p.rating_before, "rating_after": p.rating_after})
        if p.account_id in gone:
            continue
        if p.stats:
            _add_stats(conn, p.account_id, entry.family, "", p.stats, now)
        for partner, tally in sorted(p.with_partners.items()):
            _add_stats(conn, p.account_id, entry.family, partner, tally, now)


def subject_of(key: str | Pair) -> str:
    """The ``ratings`` row's subject: an account's id, or a partnership's two ids (sorted)
    joined by "+"."""
    return key if isinstance(key, str) else "+".join(key)


def _history(conn: Connection, accounts: list[str]) -> list[RatedGame]:
    """The counted rated games of ``accounts`` that the limits on repeated pairings look
    at: each one's last SHARE_GAMES (which hold its last day's too)."""
    tables: set[str] = set()
    for account in accounts:
        tables.update(r.table_id for r in conn.execute(
            sa.select(game_players_t.c.table_id).where(
                game_players_t.c.account_id == account,
                game_players_t.c.rating_after.is_not(None))
            .order_by(game_players_t.c.finished.desc()).limit(SHARE_GAMES)))
    out = []
    for r in conn.execute(sa.select(games_t.c.finished, games_t.c.seats).where(
            games_t.c.table_id.in_(sorted(tables)), games_t.c.counted.is_(True))):
        by_side: dict[int, list[str]] = {}
        for seat in json.loads(r.seats):
            if seat.get("account"):
                by_side.setdefault(int(seat["side"]), []).append(seat["account"])
        out.append(RatedGame(float(r.finished), tuple(tuple(v) for _, v in
                                                       sorted(by_side.items()))))
    return out


def _rating(conn: Connection, subject: str, family: str) -> Rating | None:
    row = conn.execute(sa.select(ratings_t.c.mu, ratings_t.c.sigma, ratings_t.c.games)
                       .where(ratings_t.c.subject == subject, ratings_t.c.family == family)
                       .with_for_update()).first()
    return None if row is None else Rating(float(row.mu), float(row.sigma), int(row.games))


def _judge(conn: Connection, entry: Entry,
           gone: set[str] | frozenset[str] = frozenset()) -> None:
    """Whether the game counts (``ratings.why_not_rated``: the host's mark, the usual
    rules, an account or a published computer at every seat, the limits on repeated
    pairings), and if it does, the new ratings of its accounts and partnerships, written
    with their history; a game past the pairings' limits flagged for the operator."""
    accounts = [k for side in entry.sides for k in side
                if k is not None and k not in entry.computers]
    history = _history(conn, accounts) if entry.rated and accounts else []
    code = why_not_rated(entry.family, entry.sides, marked_rated=entry.rated, finished=True,
                         house_rules=entry.house_rules, computers=entry.computers,
                         history=history, at=entry.finished)
    if code in ("pairing_day", "pairing_share"):
        _, flag = pairing_check(history, rated_game(entry.finished, entry.sides,
                                                    entry.computers))
        conn.execute(rating_flags_t.insert(), {
            "table_id": entry.table_id, "at": entry.finished,
            "accounts": " ".join(sorted(set(accounts)))[:300],
            "why": (flag or REASONS[code])[:300]})
    if code is not None:
        entry.counted, entry.why = False, REASONS[code]
        return
    sides = [[k for k in side if k is not None] for side in entry.sides]
    current: dict[str | Pair, Rating] = {}
    for a in accounts:
        got = _rating(conn, a, entry.family)
        if got is not None:
            current[a] = got
    pairs = [pair_key(side[0], side[1]) for side in sides
             if len(side) == 2 and not set(side) & set(entry.computers)]
    for pair in pairs:
        got = _rating(conn, subject_of(pair), entry.family)
        if got is not None:
            current[pair] = got
    updates = rate_game(entry.family, sides, ranks=entry.ranks, ratings=current,
                        computers=entry.computers)
    entry.counted, entry.why = True, None
    news: list[tuple[str | Pair, Rating]] = [*updates.accounts.items(),
                                             *updates.partnerships.items()]
    for key, new in news:
        if set(key if isinstance(key, tuple) else (key,)) & gone:
            continue  # (a deleted account keeps no rating, nor its partnerships)
        subject = subject_of(key)
        values = {"mu": new.mu, "sigma": new.sigma, "games": new.games,
                  "last_rated": entry.finished}
        if key in current:
            conn.execute(ratings_t.update().where(ratings_t.c.subject == subject,
                                                  ratings_t.c.family == entry.family)
                         .values(**values))
        else:
            conn.execute(ratings_t.insert(), {"subject": subject, "family": entry.family,
                                              **values})
        conn.execute(rating_history_t.insert(), {
            "subject": subject, "family": entry.family, "table_id": entry.table_id,
            "at": entry.finished, "mu": new.mu, "sigma": new.sigma,
            "shown": float(new.display)})
    for p in entry.players:
        before = current.get(p.account_id) or new_rating()
        after = updates.accounts.get(p.account_id)
        if after is not None and p.account_id not in gone:
            p.rating_before, p.rating_after = float(before.display), float(after.display)


def _write_entry(conn: Connection, entry: Entry, now: float) -> bool:
    """The whole of a game's index, in the caller's one transaction; False (nothing
    written) where the game is indexed already."""
    if conn.execute(sa.select(games_t.c.table_id).where(
            games_t.c.table_id == entry.table_id)).first() is not None:
        return False
    gone = _forget_deleted(conn, entry)
    _judge(conn, entry, gone)
    conn.execute(games_t.insert(), entry.row())  # (another process's first: IntegrityError)
    _write_players(conn, entry, entry.players, now, gone)
    return True


def _forget_deleted(conn: Connection, entry: Entry) -> set[str]:
    """The accounts of ``entry``'s seats deleted while the game played (an operator's
    forced deletion: the table's server still held the name): each one's seat is named
    ``FORMER_PLAYER``, and its old name is written nowhere in the game's row. Their ids."""
    gone = _deleted(conn, {s["account"] for s in entry.seats if s.get("account")})
    if not gone:
        return gone
    names = {s["name"] for s in entry.seats if s.get("account") in gone
             and isinstance(s.get("name"), str)}
    for s in entry.seats:
        if s.get("account") in gone:
            s["name"] = FORMER_PLAYER

    def plain(v: Any) -> Any:
        if isinstance(v, str):
            return FORMER_PLAYER if v in names else v
        if isinstance(v, list):
            return [plain(x) for x in v]
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        return v
    entry.result = plain(entry.result)
    return gone


# ----- the service's part -----------------------------------------------------------------


class Games:
    """The games' index over the store (``app.state.games``)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        return await self.store.run(fn)

    # ----- seats --------------------------------------------------------------------------

    async def link(self, table_id: str, seat: int, account: Account | None) -> None:
        """Write that ``account`` sits in ``seat`` (None, a guest: nothing written)."""
        if account is None or not account.active:
            return
        now = self.clock()

        def work(conn: Connection) -> None:
            if conn.execute(sa.select(seat_accounts_t.c.account_id).where(
                    seat_accounts_t.c.table_id == table_id,
                    seat_accounts_t.c.seat == seat)).first() is None:
                conn.execute(seat_accounts_t.insert(), {
                    "table_id": table_id, "seat": seat, "account_id": account.id,
                    "at": now})
        with contextlib.suppress(sa.exc.IntegrityError):  # (linked by another request first)
            await self._run(work)

    async def link_request(self, conn: HTTPConnection, table_id: str, seat: int) -> None:
        """The request's account (if it is signed in) sits in ``seat``."""
        await self.link(table_id, seat, await account_of(conn))

    async def links(self, table_id: str) -> dict[int, str]:
        return await self._run(lambda conn: links_of(conn, table_id))

    async def check_start(self, live: Live) -> None:
        """Before a table starts: a rated table needs an account at every person's seat
        (``Refused`` 409, naming those without one)."""
        t = live.table
        if not t.settings.rated:
            return
        if t.rules.overrides:
            raise Refused(HOUSE_RULES_WORDS, 409, code="rated_house_rules")
        links = await self.links(t.id)
        missing = [t.seat_label(i) for i, s in enumerate(t.seats)
                   if s.kind == PERSON and i not in links]
        if missing:
            names = ", ".join(missing)
            raise Refused(RATED_WORDS.format(names=names,
                                             have="has" if len(missing) == 1 else "have"),
                          409, code="rated_guests")

    async def rematch_rated(self, table: Table, seats: list[dict[str, Any]]) -> bool:
        """Whether the rematch of ``table`` (a rated table), of ``seats`` (``web.rematch``:
        each person keeps the key of the same seat, so its account), can be rated: the
        usual rules, every person's seat the same account's as at ``table``, each of them
        active, and every computer of a level with a published rating."""
        if table.rules.overrides or table.rules.preset not in RATED_FAMILIES:
            return False
        links = await self.links(table.id)
        people = [links.get(i) for i, s in enumerate(seats) if s.get("kind") == PERSON]
        if not people or any(a is None for a in people):
            return False
        if any(s.get("level") not in COMPUTER_RATINGS for s in seats
               if s.get("kind") == COMPUTER):
            return False
        wanted = {a for a in people if a is not None}

        def work(conn: Connection) -> int:
            return len(conn.execute(sa.select(accounts_t.c.id).where(
                accounts_t.c.id.in_(sorted(wanted)), accounts_t.c.status == ACTIVE)).all())
        return await self._run(work) == len(wanted)

    async def claim(self, account: Account, seats: list[tuple[str, str]]) -> int:
        """Link ``account`` to each seat whose key is given ((table id, seat's key)): a
        seat whose key is not that table's, or that another account keeps, is left as it
        is; a claimed seat whose game was indexed already is added to the account's
        games (``game_players`` and its totals). How many seats were claimed."""
        now = self.clock()
        hashes = [(table_id, token_hash(token)) for table_id, token in seats]

        def work(conn: Connection) -> list[tuple[str, int]]:
            got: list[tuple[str, int]] = []
            for table_id, h in hashes:
                row = conn.execute(sa.select(keys_t.c.seat).where(
                    keys_t.c.table_id == table_id, keys_t.c.token_hash == h)).first()
                if row is None:
                    continue
                seat = int(row.seat)
                had = conn.execute(sa.select(seat_accounts_t.c.account_id).where(
                    seat_accounts_t.c.table_id == table_id,
                    seat_accounts_t.c.seat == seat)).first()
                if had is not None:
                    if had.account_id == account.id:
                        got.append((table_id, seat))
                    continue
                conn.execute(seat_accounts_t.insert(), {
                    "table_id": table_id, "seat": seat, "account_id": account.id,
                    "at": now})
                got.append((table_id, seat))
            return got
        claimed = await self._run(work)
        for table_id, seat in claimed:
            await self._index_claimed(table_id, seat)
        return len(claimed)

    async def _index_claimed(self, table_id: str, seat: int) -> None:
        """A seat claimed after its game was indexed: its account's part added now (the
        game's ``games`` row stays as it was: a game rated without an account at every
        seat did not count, and does not count later)."""
        service = self.service
        if service is None:
            return
        indexed = await self._run(lambda conn: conn.execute(
            sa.select(games_t.c.table_id, games_t.c.finished)
            .where(games_t.c.table_id == table_id)).first())
        if indexed is None:
            return  # (indexed whole when it ends, this seat's account with it)
        live = await service.live(table_id)
        if live is None:
            return
        links = await self.links(table_id)
        entry = entry_of(live.table, links, float(indexed.finished))
        now = self.clock()

        def work(conn: Connection) -> None:
            have = {r.seat for r in conn.execute(sa.select(game_players_t.c.seat).where(
                game_players_t.c.table_id == table_id))}
            _write_players(conn, entry, [p for p in entry.players
                                         if p.seat == seat and p.seat not in have], now)
        with contextlib.suppress(sa.exc.IntegrityError):  # (claimed twice at once)
            await self._run(work)

    # ----- indexing -----------------------------------------------------------------------

    service: Service | None = None  # set by ``wire``: the tables, for ``index_missing``

    def wire(self, service: Service) -> None:
        """Index the games that end at ``service``'s tables, and check rated starts."""
        self.service = service
        service.turns.on_game_over = self.on_over
        service.seating.before_start = self.check_start
        service.rematches.can_rate = self.rematch_rated

    async def on_over(self, live: Live) -> None:
        """A game just ended where its table is run: index it (once)."""
        try:
            await self.index(live.table, self.clock())
        except Exception:  # (the sweep tries again)
            log.exception("the game of table %s could not be indexed", live.table.id)

    async def index(self, table: Table, finished: float) -> bool:
        """Index ``table``'s finished game in one transaction: True if this call did,
        False if it was indexed already (by this process or another)."""
        if table.status != OVER:
            return False
        if table.board is not None:  # (its result, even its contract, tells of a board
            # other tables may still be playing: it is the duplicate session's to show)
            return await self._blank(table.id, finished, BOARD_WORDS)
        links = await self.links(table.id)
        entry = entry_of(table, links, finished)
        now = self.clock()
        try:
            return await self._run(lambda conn: _write_entry(conn, entry, now))
        except sa.exc.IntegrityError:  # another process indexed it at the same moment
            return False

    async def missing(self, limit: int = MISSING_BATCH) -> list[tuple[str, float]]:
        """The tables over whose games are not indexed ((id, when it was last moved))."""
        def work(conn: Connection) -> list[tuple[str, float]]:
            q = (sa.select(tables_t.c.id, tables_t.c.updated)
                 .select_from(tables_t.outerjoin(games_t, games_t.c.table_id == tables_t.c.id))
                 .where(tables_t.c.status == OVER, games_t.c.table_id.is_(None))
                 .order_by(tables_t.c.updated).limit(limit))
            return [(str(r.id), float(r.updated or 0.0)) for r in conn.execute(q)]
        return await self._run(work)

    async def index_missing(self) -> int:
        """Index the finished games nobody indexed (a process that stopped before it did,
        another process's game): how many this pass did. A table that cannot be read
        (its stored events broken) is indexed as such, with no players, so that it is
        not tried again on every pass; the database failing leaves it for the next."""
        service = self.service
        if service is None:
            return 0
        done = 0
        for table_id, updated in await self.missing():
            try:
                live = await service.live(table_id)
                if live is not None and await self.index(live.table, updated):
                    done += 1
            except sa.exc.SQLAlchemyError:
                log.exception("the game of table %s could not be indexed", table_id)
            except Exception:
                log.exception("the game of table %s cannot be read: indexed unread",
                              table_id)
                await self._blank(table_id, updated, UNREAD_WORDS)
        return done

    async def _blank(self, table_id: str, finished: float, why: str) -> bool:
        """Index ``table_id`` as a game that counts for no one and lists no one (``why``
        says so), so that the sweep does not try it again: True if this call did."""
        row = {"table_id": table_id, "family": "", "preset": "", "finished": finished,
               "rated": False, "counted": False, "why": why, "hands": 0,
               "seats": "[]", "result": "{}"}
        try:
            await self._run(lambda conn: conn.execute(games_t.insert(), row))
        except sa.exc.IntegrityError:  # (indexed already, by this process or another)
            return False
        return True

    async def keep_indexing(self, every: float) -> None:
        """``index_missing`` now, then every ``every`` seconds (the server's life)."""
        while True:
            try:
                await self.index_missing()
            except Exception:
                log.exception("the finished games could not be looked for")
            await asyncio.sleep(every)

    # ----- reading ------------------------------------------------------------------------

    async def games_of(self, account_id: str, family: str | None = None,
                       partner: str | None = None, before: float | None = None,
                       limit: int = PAGE_DEFAULT) -> list[dict[str, Any]]:
        """The account's finished games, newest first: at most ``limit`` (1 to
        PAGE_MAX), of ``family`` only, with ``partner`` (an account id) as a partner only
        (on its side, or a hand's partner in Call Your Partner: ``Player.partners``),
        finished before ``before`` only (the next page: the last one's ``finished``).
        Each: {"table", "family", "preset", "finished", "seats": [{"seat", "name",
        "kind", "side", "account", "level"?}] (names as typed at the table; a deleted
        account's "a former player"), "seat", "side", "partners", "result", "won",
        "rated", "counted", "why", "rating_before", "rating_after", "change", "stats"}."""
        limit = max(1, min(int(limit), PAGE_MAX))
        gp, g = game_players_t, games_t

        def work(conn: Connection) -> list[dict[str, Any]]:
            q = (sa.select(gp, g.c.preset, g.c.rated, g.c.counted, g.c.why, g.c.seats,
                           g.c.result, g.c.hands)
                 .join(g, g.c.table_id == gp.c.table_id)
                 .where(gp.c.account_id == account_id))
            if family is not None:
                q = q.where(gp.c.family == family)
            if partner is not None:
                q = q.where((sa.literal(" ") + gp.c.partners + sa.literal(" "))
                            .contains(f" {partner} ", autoescape=True))
            if before is not None:
                q = q.where(gp.c.finished < before)
            rows = conn.execute(q.order_by(gp.c.finished.desc(), gp.c.table_id.desc())
                                .limit(limit)).all()
            seats_of = {r.table_id: json.loads(r.seats) for r in rows}
            gone = _deleted(conn, {s["account"] for seats in seats_of.values()
                                   for s in seats if s.get("account")})
            out = []
            for r in rows:
                seats = [_shown_seat(s, gone) for s in seats_of[r.table_id]]
                change = None if r.rating_before is None or r.rating_after is None else \
                    r.rating_after - r.rating_before
                out.append({
                    "table": r.table_id, "family": r.family, "preset": r.preset,
                    "finished": r.finished, "hands": r.hands, "seats": seats,
                    "seat": r.seat, "side": r.side,
                    "partners": r.partners.split() if r.partners else [],
                    "result": json.loads(r.result), "won": bool(r.won),
                    "rated": bool(r.rated), "counted": bool(r.counted), "why": r.why,
                    "rating_before": r.rating_before, "rating_after": r.rating_after,
                    "change": change, "stats": json.loads(r.stats)})
            return out
        return await self._run(work)

    async def stats_of(self, account_id: str) -> dict[str, Any]:
        """The account's running totals: {"families": {family: {"games", ...}},
        "partnerships": [{"family", "partner", "name", "games", ...}]} (the partner's
        name, or "a former player")."""
        def work(conn: Connection) -> dict[str, Any]:
            rows = sorted(conn.execute(sa.select(account_stats_t).where(
                account_stats_t.c.account_id == account_id)
                .order_by(account_stats_t.c.partner_id != "",
                          account_stats_t.c.games.desc(), account_stats_t.c.family,
                          account_stats_t.c.partner_id).limit(LIST_MAX)).all(),
                key=lambda r: (r.family, r.partner_id))
            names = _names(conn, {r.partner_id for r in rows if r.partner_id})
            families: dict[str, Any] = {}
            partnerships: list[dict[str, Any]] = []
            for r in rows:
                body = {**json.loads(r.body), "games": int(r.games)}
                if r.partner_id:
                    partnerships.append({"family": r.family, "partner": r.partner_id,
                                         "name": names.get(r.partner_id, FORMER_PLAYER),
                                         **body})
                else:
                    families[r.family] = body
            return {"families": families, "partnerships": partnerships}
        return await self._run(work)

    async def ratings_of(self, account_id: str) -> list[dict[str, Any]]:
        """The account's ratings and its partnerships': [{"subject", "family", "mu",
        "sigma", "games", "last_rated", "shown" (the number a player reads),
        "provisional", "partner" (a partnership's other account, else None)}], its own
        first."""
        def work(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(sa.select(ratings_t).where(sa.or_(
                ratings_t.c.subject == account_id,
                ratings_t.c.subject.startswith(f"{account_id}+", autoescape=True),
                ratings_t.c.subject.endswith(f"+{account_id}", autoescape=True)))
                .order_by(ratings_t.c.subject != account_id, ratings_t.c.games.desc(),
                          ratings_t.c.family, ratings_t.c.subject).limit(LIST_MAX)).all()
            out = []
            for r in rows:
                rating = Rating(float(r.mu), float(r.sigma), int(r.games))
                two = r.subject.split("+")
                out.append({"subject": r.subject, "family": r.family, "mu": r.mu,
                            "sigma": r.sigma, "games": r.games, "last_rated": r.last_rated,
                            "shown": rating.display, "provisional": rating.provisional,
                            "partner": next((x for x in two if x != account_id), None)
                            if len(two) == 2 else None})
            return sorted(out, key=lambda x: (x["subject"] != account_id, x["family"],
                                              x["subject"]))
        return await self._run(work)

    async def history_of(self, subject: str, family: str,
                         limit: int = HISTORY_MAX) -> list[dict[str, Any]]:
        """A rating's history (an account's, or a partnership's "id+id"): its latest
        ``limit`` points (1 to HISTORY_MAX), oldest first: [{"table", "at", "mu",
        "sigma", "shown"}]."""
        limit = max(1, min(int(limit), HISTORY_MAX))

        def work(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(sa.select(rating_history_t).where(
                rating_history_t.c.subject == subject, rating_history_t.c.family == family)
                .order_by(rating_history_t.c.at.desc(), rating_history_t.c.table_id.desc())
                .limit(limit)).all()
            return [{"table": r.table_id, "at": r.at, "mu": r.mu, "sigma": r.sigma,
                     "shown": r.shown} for r in reversed(rows)]
        return await self._run(work)

    async def leaderboard(self, family: str, now: float,
                          limit: int = PAGE_MAX) -> list[dict[str, Any]]:
        """The family's (a preset's) leaderboard: the accounts with a counted game in the
        last ``ratings.ACTIVE_DAYS`` days (partnerships, suspended and deleted accounts
        left out), in ``ratings.leaderboard``'s order; each {"account", "name", "shown",
        "mu", "sigma", "games", "provisional"} (a provisional rating is marked, not
        hidden)."""
        limit = max(1, min(int(limit), PAGE_MAX))
        since = now - ACTIVE_DAYS * 24 * 3600

        def work(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                sa.select(ratings_t, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == ratings_t.c.subject)
                .where(ratings_t.c.family == family, ratings_t.c.last_rated >= since,
                       accounts_t.c.status == "active")
                .order_by((ratings_t.c.mu - 3 * ratings_t.c.sigma).desc())
                .limit(limit + 50)).all()  # (enough for the ties a rounding makes)
            names = {r.subject: r.name for r in rows}
            order = ranked([(r.subject, Rating(float(r.mu), float(r.sigma), int(r.games)),
                             float(r.last_rated)) for r in rows], now)[:limit]
            return [{"account": key, "name": names[key], "shown": rating.display,
                     "mu": rating.mu, "sigma": rating.sigma, "games": rating.games,
                     "provisional": rating.provisional} for key, rating in order]
        return await self._run(work)


def _deleted(conn: Connection, ids: set[str]) -> set[str]:
    if not ids:
        return set()
    return {r.id for r in conn.execute(sa.select(accounts_t.c.id).where(
        accounts_t.c.id.in_(sorted(ids)), accounts_t.c.status == DELETED))}


def _names(conn: Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    return {r.id: (FORMER_PLAYER if r.status == DELETED else r.name)
            for r in conn.execute(sa.select(accounts_t.c.id, accounts_t.c.name,
                                            accounts_t.c.status)
                                  .where(accounts_t.c.id.in_(sorted(ids))))}


def _shown_seat(seat: dict[str, Any], gone: set[str]) -> dict[str, Any]:
    if seat.get("account") in gone:
        return {**seat, "name": FORMER_PLAYER, "account": None}
    return seat


# ----- the routes ---------------------------------------------------------------------------


def games_of_app(conn: HTTPConnection) -> Games:
    games: Games = conn.app.state.games
    return games


async def _limit(request: Request, kind: str) -> None:
    service: Service = request.app.state.service
    client = request.client.host if request.client else "unknown"
    await service.rates.take(kind, client)


def _text_param(request: Request, name: str, most: int) -> str | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    if len(raw) > most or not raw.isprintable():
        raise Refused(f"{name} is at most {most} plain characters")
    return raw


def _page_params(request: Request) -> dict[str, Any]:
    """?family=&partner=&before=&limit= read and checked."""
    out: dict[str, Any] = {"family": _text_param(request, "family", 40),
                           "partner": _text_param(request, "partner", 24)}
    before = _text_param(request, "before", 30)
    if before is not None:
        try:
            out["before"] = float(before)
        except ValueError:
            raise Refused("before is a time (seconds since 1970)") from None
        if out["before"] != out["before"] or out["before"] in (float("inf"), float("-inf")):
            raise Refused("before is a time (seconds since 1970)")
    limit = _text_param(request, "limit", 6)
    if limit is not None:
        if not (limit.isascii() and limit.isdigit()) or not 1 <= int(limit) <= PAGE_MAX:
            raise Refused(f"limit is a whole number from 1 to {PAGE_MAX}")
        out["limit"] = int(limit)
    return out


async def _visible(request: Request, player_id: str) -> Account:
    """The account ``player_id`` if the request may see its games: its own, or one that
    does not hide them (``Refused`` otherwise)."""
    target = await accounts_of(request.app.state).get(player_id)
    if target is None or target.status == DELETED:
        raise Refused("there is no such player", 404, code="player")
    if target.hidden:
        me = await account_of(request)
        if me is None or me.id != target.id:
            raise Refused("this player keeps their games private", 403, code="hidden")
    return target


NO_STORE = {"Cache-Control": "no-store"}


@one_line()
async def claim(request: Request) -> Response:
    """{"seats": [{"table", "token"}, ...]}: the seats of this device, kept by the
    account now signed in. {"claimed": how many}."""
    account, _ = await require_account(request)
    body = await json_body(request, CLAIM_BODY_MAX)
    seats = body.get("seats")
    if not isinstance(seats, list):
        raise Refused("seats must be a list of {\"table\", \"token\"}")
    if len(seats) > CLAIM_MAX:
        raise Refused(f"at most {CLAIM_MAX} seats at once")
    await _limit(request, "claims")
    given: list[tuple[str, str]] = []
    for s in seats:
        if not isinstance(s, dict) or not isinstance(s.get("table"), str) or \
                not isinstance(s.get("token"), str):
            raise Refused("each seat is {\"table\": its id, \"token\": its key}")
        if 0 < len(s["table"]) <= 32 and is_key(s["token"]):
            given.append((s["table"], s["token"]))
    claimed = await games_of_app(request).claim(account, given)
    return JSONResponse({"ok": True, "claimed": claimed})


@one_line()
async def set_rated(request: Request) -> Response:
    """The host's {"token", "rated": true|false}, while the table waits."""
    body = await json_body(request, CLAIM_BODY_MAX)
    rated = body.get("rated")
    if not isinstance(rated, bool):
        raise Refused("rated must be true or false")
    service: Service = request.app.state.service
    table_id = request.path_params["id"]
    await service.seating.host_rated(table_id, body.get("token"), rated)
    live = await service.live(table_id)
    assert live is not None
    return JSONResponse(live.table.summary(None, False))


@one_line()
async def my_games(request: Request) -> Response:
    account, _ = await require_account(request)
    params = _page_params(request)
    await _limit(request, "lookups")
    games = await games_of_app(request).games_of(account.id, **params)
    return JSONResponse({"games": games}, headers=NO_STORE)


@one_line()
async def player_games(request: Request) -> Response:
    params = _page_params(request)
    await _limit(request, "lookups")
    target = await _visible(request, request.path_params["id"])
    games = await games_of_app(request).games_of(target.id, **params)
    return JSONResponse({"player": {"id": target.id, "name": target.name},
                         "games": games}, headers=NO_STORE)


@one_line()
async def player_stats(request: Request) -> Response:
    """A player's statistics per game and ratings, as the player's page shows them: an
    account that hides its games hides with them whom it plays with (its partnerships'
    statistics and ratings) from everyone else; its own per-game figures and ratings stay
    public, as on the leaderboards."""
    await _limit(request, "lookups")
    target = await accounts_of(request.app.state).get(request.path_params["id"])
    if target is None or target.status == DELETED:
        raise Refused("there is no such player", 404, code="player")
    me = await account_of(request) if target.hidden else None
    private = target.hidden and (me is None or me.id != target.id)
    got = games_of_app(request)
    stats = await got.stats_of(target.id)
    ratings = await got.ratings_of(target.id)
    if private:
        stats = {**stats, "partnerships": []}
        ratings = [r for r in ratings if r["partner"] is None]
    return JSONResponse({"player": {"id": target.id, "name": target.name},
                         "hidden": private, "stats": stats, "ratings": ratings},
                        headers=NO_STORE)


@one_line()
async def leaders(request: Request) -> Response:
    await _limit(request, "lookups")
    family = request.path_params["family"]
    if family not in RATED_FAMILIES:
        raise Refused(f"there is no such game: {', '.join(RATED_FAMILIES)}", 404,
                      code="family")
    got = await games_of_app(request).leaderboard(family, time.time())
    return JSONResponse({"family": family, "leaders": got})


ROUTES: list[BaseRoute] = [
    Route("/api/account/claim", claim, methods=["POST"]),
    Route("/api/tables/{id}/rated", set_rated, methods=["POST"]),
    Route("/api/me/games", my_games, methods=["GET"]),
    Route("/api/players/{id}/games", player_games, methods=["GET"]),
    Route("/api/players/{id}/stats", player_stats, methods=["GET"]),
    Route("/api/leaderboard/{family}", leaders, methods=["GET"]),
]

__all__ = ["ACTIVE_DAYS", "CLAIM_MAX", "PAGE_MAX", "ROUTES", "Entry", "Games", "Player",
           "entry_of", "links_of"]
