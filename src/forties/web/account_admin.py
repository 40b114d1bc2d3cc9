"""An account's data as its owner downloads it and deletes it, and as the operator finds,
suspends and deletes accounts (``forties admin accounts``): functions over one database
``Connection`` (each called in one transaction: ``Store.run`` from the web routes,
``engine.begin()`` from the command line), so that the site and the operator do exactly
the same thing.

Every table that names an account is listed in ``ACCOUNT_COLUMNS`` with the columns that
name it, in ``EXPORTED`` (what the download holds of it) and in ``ON_DELETE`` (what deleting
the account does to it); tests/test_account_admin.py fails when a table of ``store.meta``
names an account and is missing from any of them.

What deleting an account does (docs/accounts.md says it to the player):

- removed: its sessions, passkeys, challenges, recovery codes, the players it follows and
  who follow it, its blocks both ways, its invitations sent and received, its own
  statistics, its ratings and those of its partnerships, with their histories (a
  partnership with a former player can never play again, and a leaderboard of "X + a
  former player" helps nobody), its places in clubs (a club whose last director it was
  goes to its longest-standing member) and the clubs' invite links it made;
- kept: its games (``games``, ``game_players``, ``seat_accounts``: a game's other players
  keep their game whole, its seats named only by the account's id, which nothing names any
  more), the statistics its partners kept of their games with it, and the operator's flags
  of repeated pairings;
- renamed: its name, wherever a table it sat at kept it (the seat's key, the stored "sit",
  "chat" and "silence" events of its seats and of their rematches, which keep the
  seat's key, the finished game's seats), becomes
  ``FORMER_PLAYER``;
- the clubs it made stay, for their members, no longer saying who made them;
- the account's row stays, ``deleted``, named ``FORMER_PLAYER``, its name's comparison form
  kept only as a fingerprint (``accounts.retired_key``), so that nobody may take the name
  afterwards and pose as the person to their regulars.

An account at a table in play (waiting or playing, moved in the last ``IN_PLAY_SECONDS``)
is not deleted (``InPlay``): the table's server keeps its seats' names in memory, and would
show the name, and index the game under it, after the deletion. The player finishes or
leaves the game first; the operator may force it (the stored rows are renamed at once, and
the table's server shows the old name until the table leaves its memory).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import FortiesError
from .account_schema import (
    account_invites_t,
    account_stats_t,
    blocks_t,
    challenges_t,
    club_invites_t,
    club_members_t,
    clubs_t,
    credentials_t,
    follows_t,
    game_players_t,
    games_t,
    rating_flags_t,
    rating_history_t,
    ratings_t,
    recovery_t,
    seat_accounts_t,
)
from .accounts import (
    ACTIVE,
    DELETED,
    FORMER_PLAYER,
    SESSION_SECONDS,
    SUSPENDED,
    accounts_t,
    name_key,
    retired_key,
    sessions_t,
)
from .clubs import keep_a_director
from .store import events_t, keys_t, tables_t

FORMAT = "forties-account-data"
IN_PLAY_SECONDS = 3600.0  # a table waiting or playing moved this recently is in play
CHALLENGE_SECONDS = 15 * 60.0  # a sign-up's or sign-in's challenge lives this long
INVITE_SECONDS = 24 * 3600.0  # an invitation to a seat is forgotten after this long
LIVE = ("waiting", "playing")
IN_MAX = 500  # ids in one IN (...)

# Every table that names an account, and the columns that name it (an id, or ids in text:
# "a+b" for a partnership's rating, space-separated in a game's partners and a flag).
ACCOUNT_COLUMNS: dict[str, tuple[str, ...]] = {
    "accounts": ("id",),
    "sessions": ("account_id",),
    "credentials": ("account_id",),
    "challenges": ("account_id",),
    "recovery_codes": ("account_id",),
    "seat_accounts": ("account_id",),
    "game_players": ("account_id", "partners"),
    "account_stats": ("account_id", "partner_id"),
    "ratings": ("subject",),
    "rating_history": ("subject",),
    "rating_flags": ("accounts",),
    "follows": ("follower", "followed"),
    "blocks": ("blocker", "blocked"),
    "account_invites": ("from_account", "to_account"),
    "clubs": ("created_by",),
    "club_members": ("account_id",),
    "club_invites": ("account_id",),
}
# what the download holds of each (its key in the export is the table's name)
EXPORTED: dict[str, str] = {
    "accounts": "the account's row",
    "sessions": "each session's id, dates and browser, never its key's hash",
    "credentials": "each passkey's id, public key, label and dates",
    "challenges": "each challenge's purpose and date, never its key's hash or content",
    "recovery_codes": "how many codes are left and used, never their hashes",
    "seat_accounts": "the seats it sat in",
    "game_players": "its place in each of its finished games",
    "games": "each of its finished games (seats, result, whether it was rated)",
    "account_stats": "its statistics, alone and with each partner",
    "ratings": "its ratings and its partnerships'",
    "rating_history": "their histories",
    "rating_flags": "the operator's flags of games it played (repeated pairings)",
    "follows": "the players it follows, and those who follow it",
    "blocks": "the players it blocks (never who blocks it: that is theirs)",
    "account_invites": "the invitations it sent and received",
    "clubs": "the clubs it made",
    "club_members": "the clubs it belongs to, and its role in each",
    "club_invites": "the clubs' invite links it made, never their keys' hashes",
}
# what deleting the account does to each
REMOVED, KEPT, RENAMED = "removed", "kept", "renamed"
ON_DELETE: dict[str, tuple[str, str]] = {
    "accounts": (RENAMED, "marked deleted, named a former player, the name's form kept "
                          "only as a fingerprint so that nobody takes it after"),
    "sessions": (REMOVED, "every browser signed out"),
    "credentials": (REMOVED, "its passkeys sign nobody in"),
    "challenges": (REMOVED, ""),
    "recovery_codes": (REMOVED, ""),
    "seat_accounts": (KEPT, "the games stay whole; the seat is named only by an id that "
                            "nothing names any more"),
    "game_players": (KEPT, "the games stay whole, for the other players"),
    "account_stats": (REMOVED, "its own; its partners' statistics of their games with it "
                               "are theirs, and stay"),
    "ratings": (REMOVED, "its own and its partnerships'"),
    "rating_history": (REMOVED, "its own and its partnerships'"),
    "rating_flags": (KEPT, "the operator's record of games already played"),
    "follows": (REMOVED, "both ways"),
    "blocks": (REMOVED, "both ways"),
    "account_invites": (REMOVED, "sent and received"),
    "clubs": (RENAMED, "the clubs stay, for their other members; they no longer say who "
                       "made them"),
    "club_members": (REMOVED, "it leaves every club (a club whose last director it was "
                              "is handed to its longest-standing member)"),
    "club_invites": (REMOVED, "the invite links it made stop working"),
}
# what the download leaves out, and why
NOT_EXPORTED: dict[str, str] = {}


class AccountError(FortiesError):
    """What was asked of an account cannot be done: one line that says why."""


class NoAccount(AccountError):
    """There is no such account."""


class InPlay(AccountError):
    """The account sits at a table in play."""


@dataclass(frozen=True)
class Found:
    """An account as ``forties admin accounts find`` lists it."""

    id: str
    name: str
    status: str
    created: float
    last_seen: float | None
    games: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "status": self.status,
                "created": self.created, "last_seen": self.last_seen, "games": self.games}


@dataclass(frozen=True)
class Flag:
    """A game the ratings flagged for the operator (repeated pairings)."""

    table_id: str
    at: float
    accounts: list[tuple[str, str]]  # (id, name)
    why: str

    def to_json(self) -> dict[str, Any]:
        return {"table": self.table_id, "at": self.at, "why": self.why,
                "accounts": [{"id": i, "name": n} for i, n in self.accounts]}


# ----- reading ----------------------------------------------------------------------------


def _account_row(conn: Connection, account_id: str) -> Any:
    if not isinstance(account_id, str) or not 0 < len(account_id) <= 24:
        raise NoAccount(f"there is no account {str(account_id)[:40]!r}")
    row = conn.execute(sa.select(accounts_t).where(accounts_t.c.id == account_id)).first()
    if row is None:
        raise NoAccount(f"there is no account {account_id!r}")
    return row


def _naming(column: Any, account_id: str) -> Any:
    """A condition: the text ``column`` names ``account_id`` among others ("a+b", "a b")."""
    return column.contains(account_id, autoescape=True)


def _plain(value: Any) -> Any:
    """A stored value as the download shows it: JSON text read as what it says."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _rows(conn: Connection, query: Any, leave_out: Iterable[str] = ()) -> list[dict[str, Any]]:
    out = []
    for row in conn.execute(query).mappings().all():
        out.append({k: _plain(v) for k, v in row.items() if k not in leave_out})
    return out


def _chunks(ids: list[str]) -> Iterable[list[str]]:
    for first in range(0, len(ids), IN_MAX):
        yield ids[first:first + IN_MAX]


def export(conn: Connection, account_id: str, now: float | None = None) -> dict[str, Any]:
    """Everything kept about the account, as one JSON object: a key for each table that
    names it (``EXPORTED``), its rows (secrets left out); ``NoAccount`` if there is none."""
    row = _account_row(conn, account_id)
    a = account_id
    out: dict[str, Any] = {
        "format": FORMAT, "version": 1,
        "exported": time.time() if now is None else now,
        "about": "Everything this site keeps about your account. Your games' other "
                 "players keep the games too; see the site's page about accounts.",
    }
    out["accounts"] = [{k: v for k, v in row._mapping.items() if k != "name_key"}]
    out["sessions"] = _rows(conn, sa.select(sessions_t).where(
        sessions_t.c.account_id == a).order_by(sessions_t.c.created), ["token_hash"])
    out["credentials"] = _rows(conn, sa.select(credentials_t).where(
        credentials_t.c.account_id == a).order_by(credentials_t.c.created))
    out["challenges"] = _rows(conn, sa.select(challenges_t.c.purpose,
                                              challenges_t.c.created).where(
        challenges_t.c.account_id == a).order_by(challenges_t.c.created))
    used = conn.execute(sa.select(sa.func.count()).select_from(recovery_t).where(
        recovery_t.c.account_id == a, recovery_t.c.used.is_not(None))).scalar() or 0
    left = conn.execute(sa.select(sa.func.count()).select_from(recovery_t).where(
        recovery_t.c.account_id == a, recovery_t.c.used.is_(None))).scalar() or 0
    out["recovery_codes"] = {"left": int(left), "used": int(used)}
    out["seat_accounts"] = _rows(conn, sa.select(seat_accounts_t).where(
        seat_accounts_t.c.account_id == a).order_by(seat_accounts_t.c.at))
    out["game_players"] = _rows(conn, sa.select(game_players_t).where(
        game_players_t.c.account_id == a).order_by(game_players_t.c.finished))
    tables = sorted({str(g["table_id"]) for g in out["game_players"]})
    out["games"] = [g for part in _chunks(tables) for g in _rows(
        conn, sa.select(games_t).where(games_t.c.table_id.in_(part)))]
    out["games"].sort(key=lambda g: (g.get("finished") or 0, g["table_id"]))
    _former_seats(conn, out["games"])
    out["account_stats"] = _rows(conn, sa.select(account_stats_t).where(
        account_stats_t.c.account_id == a).order_by(account_stats_t.c.family,
                                                    account_stats_t.c.partner_id))
    mine = sa.or_(ratings_t.c.subject == a, _naming(ratings_t.c.subject, a))
    out["ratings"] = _rows(conn, sa.select(ratings_t).where(mine).order_by(
        ratings_t.c.family, ratings_t.c.subject))
    out["rating_history"] = _rows(conn, sa.select(rating_history_t).where(
        _naming(rating_history_t.c.subject, a)).order_by(rating_history_t.c.at))
    out["rating_flags"] = _rows(conn, sa.select(rating_flags_t).where(
        _naming(rating_flags_t.c.accounts, a)).order_by(rating_flags_t.c.at))
    out["follows"] = _rows(conn, sa.select(follows_t).where(sa.or_(
        follows_t.c.follower == a, follows_t.c.followed == a)).order_by(follows_t.c.at))
    out["blocks"] = _rows(conn, sa.select(blocks_t).where(
        blocks_t.c.blocker == a).order_by(blocks_t.c.at))
    out["account_invites"] = _rows(conn, sa.select(account_invites_t).where(sa.or_(
        account_invites_t.c.from_account == a, account_invites_t.c.to_account == a))
        .order_by(account_invites_t.c.created))
    out["clubs"] = _rows(conn, sa.select(clubs_t).where(clubs_t.c.created_by == a)
                         .order_by(clubs_t.c.created))
    out["club_members"] = _rows(conn, sa.select(club_members_t).where(
        club_members_t.c.account_id == a).order_by(club_members_t.c.joined))
    out["club_invites"] = _rows(conn, sa.select(club_invites_t).where(
        club_invites_t.c.account_id == a).order_by(club_invites_t.c.created), ["key_hash"])
    return out


def _former_seats(conn: Connection, games: list[dict[str, Any]]) -> None:
    """The seats of deleted accounts in ``games`` named ``FORMER_PLAYER`` (a game indexed
    after its player was deleted, by force, while its table played, kept the name)."""
    seats = [s for g in games if isinstance(g.get("seats"), list)
             for s in g["seats"] if isinstance(s, dict) and isinstance(s.get("account"), str)]
    ids = sorted({s["account"] for s in seats})
    gone: set[str] = set()
    for part in _chunks(ids):
        gone.update(str(r[0]) for r in conn.execute(sa.select(accounts_t.c.id).where(
            accounts_t.c.id.in_(part), accounts_t.c.status == DELETED)))
    for s in seats:
        if s["account"] in gone:
            s["name"], s["account"] = FORMER_PLAYER, None


# ----- finding, suspending -------------------------------------------------------------------


def find(conn: Connection, text: str, limit: int = 50) -> list[Found]:
    """The accounts whose id is ``text`` or whose name holds it (compared as names are),
    the last seen first."""
    wanted = name_key(text)
    if not wanted:
        raise AccountError("say what to look for: a part of a name, or an id")
    games = (sa.select(sa.func.count()).select_from(game_players_t)
             .where(game_players_t.c.account_id == accounts_t.c.id)
             .scalar_subquery())
    q = (sa.select(accounts_t, games.label("games"))
         .where(sa.or_(accounts_t.c.id == text.strip(),
                       accounts_t.c.name_key.contains(wanted, autoescape=True)))
         .order_by(sa.func.coalesce(accounts_t.c.last_seen, accounts_t.c.created).desc(),
                   accounts_t.c.id)
         .limit(limit))
    return [Found(id=r.id, name=r.name, status=r.status, created=r.created,
                  last_seen=r.last_seen, games=int(r.games or 0))
            for r in conn.execute(q).all()]


def set_status(conn: Connection, account_id: str, status: str) -> int:
    """Suspend an account (its sessions end: nobody is signed in to it any more, and it
    cannot sign in) or make it active again; the sessions ended. ``AccountError`` for an
    account deleted, or already so."""
    if status not in (ACTIVE, SUSPENDED):
        raise ValueError(status)
    row = _account_row(conn, account_id)
    if row.status == DELETED:
        raise AccountError(f"account {account_id} is deleted")
    if row.status == status:
        raise AccountError(f"account {account_id} is {status} already")
    conn.execute(accounts_t.update().where(accounts_t.c.id == account_id)
                 .values(status=status))
    if status != SUSPENDED:
        return 0
    done = conn.execute(sessions_t.delete().where(sessions_t.c.account_id == account_id))
    return int(done.rowcount or 0)


def flags(conn: Connection, limit: int = 100) -> list[Flag]:
    """The games flagged for repeated pairings, the latest first, with the accounts' names."""
    rows = conn.execute(sa.select(rating_flags_t).order_by(
        rating_flags_t.c.at.desc(), rating_flags_t.c.table_id).limit(limit)).all()
    ids = sorted({i for r in rows for i in _ids(r.accounts)})
    names: dict[str, str] = {}
    for part in _chunks(ids):
        names.update((str(i), str(n)) for i, n in conn.execute(
            sa.select(accounts_t.c.id, accounts_t.c.name).where(accounts_t.c.id.in_(part))))
    return [Flag(table_id=r.table_id, at=r.at, why=r.why,
                 accounts=[(i, names.get(i, "?")) for i in _ids(r.accounts)]) for r in rows]


def _ids(text: str | None) -> list[str]:
    """The account ids in a text of several ("a b", "a,b", "a+b")."""
    for sep in ",+":
        text = (text or "").replace(sep, " ")
    return (text or "").split()


# ----- deleting -------------------------------------------------------------------------------


REMATCH_STEPS = 20  # rematches followed from a seat of the account, one after another


def seats_of(conn: Connection, account_id: str) -> dict[str, set[int]]:
    """Every seat the account sat in (table: seats): linked to it (``seat_accounts``),
    indexed as its in a finished game (``game_players``), and the same seat of each
    rematch after those, which keeps the seat's key (``web.rematch``), as the games'
    index links them."""
    seats: dict[str, set[int]] = {}
    for t in (seat_accounts_t, game_players_t):
        for table_id, seat in conn.execute(sa.select(t.c.table_id, t.c.seat).where(
                t.c.account_id == account_id)).all():
            seats.setdefault(str(table_id), set()).add(int(seat))
    frontier = sorted(seats)
    for _ in range(REMATCH_STEPS):
        found: list[str] = []
        for part in _chunks(frontier):
            pairs = conn.execute(sa.select(tables_t.c.id, tables_t.c.rematch_of).where(
                tables_t.c.rematch_of.in_(part))).all()
            if not pairs:
                continue
            ids = sorted({str(p[0]) for p in pairs} | {str(p[1]) for p in pairs})
            keys = {(str(r.table_id), int(r.seat)): r.token_hash for r in conn.execute(
                sa.select(keys_t.c.table_id, keys_t.c.seat, keys_t.c.token_hash)
                .where(keys_t.c.table_id.in_(ids)))}
            for new_id, old_id in ((str(a), str(b)) for a, b in pairs):
                for seat in seats.get(old_id, set()):
                    key = keys.get((old_id, seat))
                    if key is not None and keys.get((new_id, seat)) == key and \
                            seat not in seats.get(new_id, set()):
                        seats.setdefault(new_id, set()).add(seat)
                        found.append(new_id)
        if not found:
            break
        frontier = sorted(set(found))
    return seats


def in_play(conn: Connection, account_id: str, now: float) -> list[str]:
    """The tables in play (waiting or playing, moved in the last ``IN_PLAY_SECONDS``) at
    which the account holds a seat (``seats_of``)."""
    tables = sorted(seats_of(conn, account_id))
    out: list[str] = []
    for part in _chunks(tables):
        out += [str(r[0]) for r in conn.execute(sa.select(tables_t.c.id).where(
            tables_t.c.id.in_(part), tables_t.c.status.in_(LIVE),
            tables_t.c.updated >= now - IN_PLAY_SECONDS))]
    return sorted(out)


def delete(conn: Connection, account_id: str, now: float | None = None,
           force: bool = False) -> dict[str, int]:
    """Delete the account (see the module's words): its personal rows removed, its name
    replaced by ``FORMER_PLAYER`` wherever a table kept it, its games kept. ``InPlay``
    while it sits at a table in play (unless ``force``). How many rows each table lost or
    had renamed."""
    now = time.time() if now is None else now
    row = _account_row(conn, account_id)
    if row.status == DELETED:
        raise AccountError(f"account {account_id} is deleted already")
    playing = in_play(conn, account_id, now)
    if playing and not force:
        raise InPlay("finish or leave your game first: an account at a table in play "
                     f"cannot be deleted (table {playing[0]})")
    a = account_id
    done: dict[str, int] = {}

    def count(name: str, result: Any) -> None:
        done[name] = done.get(name, 0) + int(result.rowcount or 0)

    count("events", _rename_seats(conn, a, row.name))
    for (club,) in conn.execute(sa.select(club_members_t.c.club).where(
            club_members_t.c.account_id == a)).all():
        keep_a_director(conn, str(club), a)
    count("clubs", conn.execute(clubs_t.update().where(clubs_t.c.created_by == a)
                                .values(created_by=None)))
    for table, where in (
            (sessions_t, sessions_t.c.account_id == a),
            (credentials_t, credentials_t.c.account_id == a),
            (challenges_t, challenges_t.c.account_id == a),
            (recovery_t, recovery_t.c.account_id == a),
            (account_stats_t, account_stats_t.c.account_id == a),
            (ratings_t, sa.or_(ratings_t.c.subject == a, _naming(ratings_t.c.subject, a))),
            (rating_history_t, _naming(rating_history_t.c.subject, a)),
            (follows_t, sa.or_(follows_t.c.follower == a, follows_t.c.followed == a)),
            (blocks_t, sa.or_(blocks_t.c.blocker == a, blocks_t.c.blocked == a)),
            (account_invites_t, sa.or_(account_invites_t.c.from_account == a,
                                       account_invites_t.c.to_account == a)),
            (club_members_t, club_members_t.c.account_id == a),
            (club_invites_t, club_invites_t.c.account_id == a)):
        count(table.name, conn.execute(table.delete().where(where)))
    count("accounts", conn.execute(accounts_t.update().where(accounts_t.c.id == a).values(
        status=DELETED, name=FORMER_PLAYER, name_key=retired_key(name_key(row.name)),
        hidden=True, last_seen=None)))
    return done


class _Renamed:
    """(A count with a ``rowcount``, as ``delete``'s tally reads a statement's.)"""

    def __init__(self, rowcount: int) -> None:
        self.rowcount = rowcount


def _rename_seats(conn: Connection, account_id: str, name: str) -> _Renamed:
    """The account's name replaced by ``FORMER_PLAYER`` at every seat it sat in
    (``seats_of``: its rematches' too): the seat's key, the seat's "sit" events as a
    person and its "chat" events, the "silence" events that name the seat's names, the
    finished game's seats (and the name anywhere in its result)."""
    seats = seats_of(conn, account_id)
    changed = 0
    for part in _chunks(sorted(seats)):
        for table_id, seat in [(t, s) for t in part for s in sorted(seats[t])]:
            changed += int(conn.execute(keys_t.update().where(
                keys_t.c.table_id == table_id, keys_t.c.seat == seat,
                keys_t.c.name.is_not(None)).values(name=FORMER_PLAYER)).rowcount or 0)
        events = conn.execute(sa.select(events_t.c.table_id, events_t.c.seq,
                                        events_t.c.kind, events_t.c.body).where(
            events_t.c.table_id.in_(part),
            events_t.c.kind.in_(("sit", "chat", "silence")))
            .order_by(events_t.c.table_id, events_t.c.seq)).all()
        names: dict[str, set[str]] = {t: {name_key(name)} for t in part}
        for table_id, _seq, kind, body in events:
            e = _event(body)
            if kind == "sit" and e.get("seat") in seats[table_id] and \
                    e.get("as") == "person" and isinstance(e.get("name"), str):
                names[table_id].add(name_key(e["name"]))
        for table_id, seq, kind, body in events:
            e = _event(body)
            theirs = e.get("seat") in seats[table_id]
            if not isinstance(e.get("name"), str) or e["name"] == FORMER_PLAYER:
                continue
            if (kind == "sit" and theirs and e.get("as") == "person") or \
                    (kind == "chat" and theirs) or \
                    (kind == "silence" and name_key(e["name"]) in names[table_id]):
                e["name"] = FORMER_PLAYER
                conn.execute(events_t.update().where(
                    events_t.c.table_id == table_id, events_t.c.seq == seq)
                    .values(body=json.dumps(e)))
                changed += 1
        for table_id, seats_json, result in conn.execute(sa.select(
                games_t.c.table_id, games_t.c.seats, games_t.c.result).where(
                games_t.c.table_id.in_(part))).all():
            new_seats = _renamed_json(seats_json, seats[table_id], account_id, name)
            new_result = _renamed_json(result, set(), account_id, name)
            if (new_seats, new_result) != (seats_json, result):
                conn.execute(games_t.update().where(games_t.c.table_id == table_id)
                             .values(seats=new_seats, result=new_result))
                changed += 1
    return _Renamed(changed)


def _event(body: str) -> dict[str, Any]:
    try:
        e = json.loads(body)
    except ValueError:
        return {}
    return e if isinstance(e, dict) else {}


def _renamed_json(text: str | None, seats: set[int], account_id: str, name: str
                  ) -> str | None:
    """JSON ``text`` with the account's name replaced: in the entries of ``seats`` of a
    list of seats (an entry that is a name, or an object with a "name"), in any object
    that names the account's id, and wherever the name itself stands as a value."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return text
    key = name_key(name)

    def walk(v: Any, seat_list: bool) -> Any:
        if isinstance(v, str):
            return FORMER_PLAYER if name_key(v) == key else v
        if isinstance(v, list):
            out = []
            for i, item in enumerate(v):
                if seat_list and i in seats:
                    if isinstance(item, str):
                        item = FORMER_PLAYER
                    elif isinstance(item, dict) and "name" in item:
                        item = {**item, "name": FORMER_PLAYER}
                out.append(walk(item, False))
            return out
        if isinstance(v, dict):
            out_d = {k: walk(x, k == "seats") for k, x in v.items()}
            if account_id in (v.get("account"), v.get("account_id"), v.get("id")) and \
                    "name" in out_d:
                out_d["name"] = FORMER_PLAYER
            return out_d
        return v

    new = walk(value, True)
    return text if new == value else json.dumps(new)


# ----- upkeep (the sweep) -------------------------------------------------------------------


def prune(conn: Connection, now: float | None = None) -> dict[str, int]:
    """Forget what has outlived its use, one DELETE each (any number of server processes
    may do it at once): sessions older than ``SESSION_DAYS``, challenges older than
    ``CHALLENGE_SECONDS``, invitations older than ``INVITE_SECONDS``."""
    now = time.time() if now is None else now
    out = {}
    for table, column, life in (
            (sessions_t, sessions_t.c.created, SESSION_SECONDS),
            (challenges_t, challenges_t.c.created, CHALLENGE_SECONDS),
            (account_invites_t, account_invites_t.c.created, INVITE_SECONDS)):
        out[table.name] = int(conn.execute(table.delete().where(
            column < now - life)).rowcount or 0)
    return out


__all__ = ["ACCOUNT_COLUMNS", "CHALLENGE_SECONDS", "EXPORTED", "FORMAT", "INVITE_SECONDS",
           "IN_PLAY_SECONDS", "NOT_EXPORTED", "ON_DELETE", "AccountError", "Flag", "Found",
           "InPlay", "NoAccount", "delete", "export", "find", "flags", "in_play", "prune",
           "seats_of", "set_status"]
