"""Regulars: the players an account follows and blocks, who of them is online and at
which public table, and the invitations to a seat sent from a waiting table.

Following is one way and needs no answer: the follower sees, on its home page and at the
waiting tables it hosts, whether each of its regulars is online and, where one has a seat
at a public table in play or waiting (``seat_accounts``), which. A private table is
never named. An account is online when it has a websocket open to a table, or asked the
site for its regulars or its invitations (the home page does), in the last
``Limits.online_seconds`` (3 minutes): each process writes ``accounts.last_seen`` for the
accounts it serves at most every ``Limits.seen_seconds`` (a minute; at the websocket's
connect, then every ``seen_seconds`` while it stays open), and every process reads the
same column of the same database, so the answer is the same whichever process is asked.
A page that closes shows offline within ``online_seconds``.

The host of a waiting table (signed in, with the host's seat key) invites one of the
accounts it follows to an empty seat: the invitation waits on the invited account's home
page, and accepting it takes the seat at once (``Seating.take_seat``: no invite link
travels). It lapses when the seat is taken, the game starts, the table goes, or after
``INVITE_SECONDS``.

Blocking an account (both ways it unfollows, and withdraws the invitations between the
two) means: it cannot follow the blocker or see whether the blocker is online, cannot
invite the blocker nor be invited by it, cannot join the blocker's private tables while
signed in, and its chat lines are not delivered to the blocker's connections (the
blocker's page gets the line's number without its words, so that it knows it missed
nothing). A block does not stop a guest, signed out, who holds one of the blocker's
invite links, nor anyone at a public table; it hides nothing of the game, and the blocked
account is not told (only its follow or invitation is refused).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..table import EMPTY, WAITING, TableError
from .account_schema import account_invites_t, blocks_t, follows_t, seat_accounts_t
from .accounts import ACTIVE, Account, Accounts, accounts_of, accounts_t, require_account
from .games import Games
from .http import Refused, json_body, one_line
from .limits import Limits
from .live import HOST, Conn, Live
from .store import Store, tables_t

log = logging.getLogger("forties.web")
T = TypeVar("T")

BODY_MAX = 4 * 1024
ONLINE_SECONDS = Limits.online_seconds  # seen this recently: online
SEEN_EVERY = Limits.seen_seconds  # a process writes an account's last_seen at most this often
INVITE_SECONDS = 30 * 60.0  # an invitation lapses after this
FOLLOWS_MAX = 500  # accounts one account may follow, and block
INVITES_SENT_MAX = 20  # invitations of one account waiting at once
INVITES_SHOWN = 20  # invitations listed on a home page, the newest first
ID_MAX = 24
ACCEPTED, DECLINED, LAPSED, WITHDRAWN = "accepted", "declined", "lapsed", "withdrawn"


def _id(raw: Any, what: str = "account", longest: int = ID_MAX) -> str:
    """An id as the API takes it (one of ours has 1 to ``longest`` URL-safe
    characters)."""
    if not isinstance(raw, str) or not raw:
        raise Refused(f"say which {what}: its id", code="bad")
    if len(raw) > longest or not all(c.isascii() and (c.isalnum() or c in "-_")
                                    for c in raw):
        raise Refused(f"there is no such {what}", 404, code="no_" + what)
    return raw


@dataclass(frozen=True)
class Regular:
    """An account as its follower sees it."""

    id: str
    name: str
    online: bool
    table: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "online": self.online,
                "table": self.table}


class Regulars:
    """Follows, blocks and invitations over the store (``app.state.regulars``)."""

    def __init__(self, store: Store, service: Any, accounts: Accounts, games: Games,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.games = games
        self.service = service
        self.accounts = accounts
        self.clock = clock
        limits = getattr(service, "limits", None) or Limits()
        self.online_seconds = float(limits.online_seconds)
        self.seen_every = float(limits.seen_seconds)
        self._written: dict[str, float] = {}  # an account: when this process last wrote
        self._conns: dict[str, set[Conn]] = {}  # an account's websockets here

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        return await self.store.run(fn)

    # ----- being seen -------------------------------------------------------------------

    async def seen(self, account_id: str) -> None:
        """The account uses the site now: its ``last_seen`` written, at most every
        ``seen_every`` seconds from this process."""
        now = self.clock()
        if now - self._written.get(account_id, -self.seen_every) < self.seen_every:
            return
        self._written[account_id] = now
        if len(self._written) > 10_000:  # (forget those written long ago)
            self._written = {k: v for k, v in self._written.items()
                             if now - v < self.seen_every}
        await self._run(lambda conn: conn.execute(accounts_t.update().where(
            accounts_t.c.id == account_id).values(last_seen=now)))

    def online(self, last_seen: float | None, now: float) -> bool:
        return last_seen is not None and now - last_seen <= self.online_seconds

    # ----- follows and blocks -----------------------------------------------------------

    async def _target(self, me: Account, body: dict[str, Any]) -> Account:
        other_id = _id(body.get("account"))
        if other_id == me.id:
            raise Refused("that is your own account", code="self")
        other = await self.accounts.get(other_id)
        if other is None or not other.active:
            raise Refused("there is no such account", 404, code="no_account")
        return other

    async def follow(self, me: Account, other: Account) -> None:
        now = self.clock()

        def work(conn: Connection) -> str:
            if _blocked_between(conn, me.id, other.id):
                return "blocked"
            if conn.execute(sa.select(follows_t.c.at).where(
                    follows_t.c.follower == me.id, follows_t.c.followed == other.id)).first():
                return "ok"
            count = conn.execute(sa.select(sa.func.count()).select_from(follows_t).where(
                follows_t.c.follower == me.id)).scalar_one()
            if count >= FOLLOWS_MAX:
                return "full"
            conn.execute(follows_t.insert(), {"follower": me.id, "followed": other.id,
                                              "at": now})
            return "ok"
        got = await self._insert(work)
        if got == "blocked":
            raise Refused("you cannot follow this player", 403, code="blocked")
        if got == "full":
            raise Refused(f"you follow {FOLLOWS_MAX} players already: unfollow one first",
                          409, code="follows_full")

    async def unfollow(self, me: Account, other_id: str) -> None:
        await self._run(lambda conn: conn.execute(follows_t.delete().where(
            follows_t.c.follower == me.id, follows_t.c.followed == other_id)))

    async def block(self, me: Account, other: Account) -> None:
        """Block ``other``: both unfollow each other, the invitations between them are
        withdrawn, and this process's connections of ``me`` stop hearing its chat."""
        now = self.clock()

        def work(conn: Connection) -> str:
            conn.execute(follows_t.delete().where(sa.or_(
                sa.and_(follows_t.c.follower == me.id, follows_t.c.followed == other.id),
                sa.and_(follows_t.c.follower == other.id, follows_t.c.followed == me.id))))
            conn.execute(account_invites_t.update().where(
                account_invites_t.c.answered.is_(None),
                sa.or_(sa.and_(account_invites_t.c.from_account == me.id,
                               account_invites_t.c.to_account == other.id),
                       sa.and_(account_invites_t.c.from_account == other.id,
                               account_invites_t.c.to_account == me.id))
            ).values(answered=WITHDRAWN))
            if conn.execute(sa.select(blocks_t.c.at).where(
                    blocks_t.c.blocker == me.id, blocks_t.c.blocked == other.id)).first():
                return "ok"
            count = conn.execute(sa.select(sa.func.count()).select_from(blocks_t).where(
                blocks_t.c.blocker == me.id)).scalar_one()
            if count >= FOLLOWS_MAX:
                return "full"
            conn.execute(blocks_t.insert(), {"blocker": me.id, "blocked": other.id,
                                             "at": now})
            return "ok"
        if await self._insert(work) == "full":
            raise Refused(f"you block {FOLLOWS_MAX} players already: unblock one first",
                          409, code="blocks_full")
        await self.refresh(me.id)

    async def unblock(self, me: Account, other_id: str) -> None:
        await self._run(lambda conn: conn.execute(blocks_t.delete().where(
            blocks_t.c.blocker == me.id, blocks_t.c.blocked == other_id)))
        await self.refresh(me.id)

    async def _insert(self, work: Callable[[Connection], str]) -> str:
        """``work`` in one transaction; the same row made by a request just before (the
        same two accounts, twice at once) is no failure."""
        try:
            return await self._run(work)
        except sa.exc.IntegrityError:
            return "ok"

    async def blocked_between(self, a: str, b: str) -> bool:
        return await self._run(lambda conn: _blocked_between(conn, a, b))

    async def listing(self, me: Account) -> dict[str, Any]:
        """Whom ``me`` follows (online or not, and the public table of each online one)
        and whom it blocks, by name."""
        now = self.clock()
        since = now - self.online_seconds

        def work(conn: Connection) -> dict[str, Any]:
            rows = conn.execute(
                sa.select(accounts_t.c.id, accounts_t.c.name, accounts_t.c.last_seen)
                .join(follows_t, follows_t.c.followed == accounts_t.c.id)
                .where(follows_t.c.follower == me.id, accounts_t.c.status == ACTIVE)
                .order_by(accounts_t.c.name_key).limit(FOLLOWS_MAX)).all()
            online = [r.id for r in rows if r.last_seen is not None and r.last_seen >= since]
            tables = _public_tables(conn, online)
            blocked = conn.execute(
                sa.select(accounts_t.c.id, accounts_t.c.name)
                .join(blocks_t, blocks_t.c.blocked == accounts_t.c.id)
                .where(blocks_t.c.blocker == me.id)
                .order_by(accounts_t.c.name_key).limit(FOLLOWS_MAX)).all()
            return {
                "following": [Regular(r.id, r.name, r.id in online,
                                      tables.get(r.id)).to_json() for r in rows],
                "blocked": [{"id": r.id, "name": r.name} for r in blocked]}
        return await self._run(work)

    # ----- the websockets -----------------------------------------------------------------

    async def connected(self, conn: Conn, websocket: HTTPConnection, live: Live
                        ) -> asyncio.Task[None] | None:
        """A websocket at ``live``'s table: the account its cookie signs in (if any) is
        set on ``conn``, with the chat it does not hear; the account is online while the
        connection stays (the task returned keeps it so: cancel it when it goes)."""
        try:
            got = await accounts_of(websocket.app.state).signed_in(websocket)
        except Exception:  # (a connection to a table never fails for its account)
            log.exception("a websocket's account could not be read")
            return None
        if got is None:
            return None
        account = got[0]
        conn.account = account.id
        conn.table_id = live.table.id
        self._conns.setdefault(account.id, set()).add(conn)
        await self._deafen(conn)
        await self.seen(account.id)
        return asyncio.ensure_future(self._keep_online(conn, account.id))

    def disconnected(self, conn: Conn) -> None:
        if conn.account is None:
            return
        mine = self._conns.get(conn.account)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self._conns[conn.account]

    async def _keep_online(self, conn: Conn, account_id: str) -> None:
        """While the connection stays: the account seen every ``seen_every`` seconds, and
        the chat it does not hear read again (a block made through another process)."""
        while not conn.closed:
            await asyncio.sleep(self.seen_every)
            try:
                await self.seen(account_id)
                await self._deafen(conn)
            except Exception:
                log.exception("an account's presence could not be written")

    async def refresh(self, account_id: str) -> None:
        """The account's blocks changed: its connections here hear accordingly."""
        for conn in list(self._conns.get(account_id, ())):
            await self._deafen(conn)

    async def _deafen(self, conn: Conn) -> None:
        """Set what ``conn`` does not hear: the accounts its account blocks, and the seats
        of its table that those accounts hold (``seat_accounts``)."""
        account, table = conn.account, conn.table_id
        if account is None or table is None:
            return

        def work(conn_: Connection) -> tuple[frozenset[str], frozenset[int]]:
            blocked = frozenset(r[0] for r in conn_.execute(
                sa.select(blocks_t.c.blocked).where(blocks_t.c.blocker == account)
                .limit(FOLLOWS_MAX)).all())
            if not blocked:
                return blocked, frozenset()
            seats = frozenset(int(r[0]) for r in conn_.execute(
                sa.select(seat_accounts_t.c.seat).where(
                    seat_accounts_t.c.table_id == table,
                    seat_accounts_t.c.account_id.in_(blocked))).all())
            return blocked, seats
        conn.deaf_to, conn.deaf_seats = await self._run(work)

    # ----- private tables -------------------------------------------------------------

    async def may_join(self, request: Request, table_id: Any) -> None:
        """Refused (403) where the request's account is blocked by the host of the
        private table ``table_id``; nothing to check for a guest or a public table."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            return
        got = await accounts_of(request.app.state).signed_in(request)
        if got is None:
            return
        me = got[0].id

        def work(conn: Connection) -> bool:
            row = conn.execute(
                sa.select(seat_accounts_t.c.account_id)
                .join(tables_t, tables_t.c.id == seat_accounts_t.c.table_id)
                .where(seat_accounts_t.c.table_id == table_id,
                       seat_accounts_t.c.seat == HOST,
                       tables_t.c.public.is_not(True))).first()
            if row is None or row[0] is None:
                return False
            return conn.execute(sa.select(blocks_t.c.at).where(
                blocks_t.c.blocker == row[0], blocks_t.c.blocked == me)).first() is not None
        if await self._run(work):
            raise Refused("you cannot join this table", 403, code="blocked")

    # ----- invitations --------------------------------------------------------------------

    async def invite(self, me: Account, body: dict[str, Any]) -> str:
        """The host of a waiting table invites an account it follows to an empty seat:
        the invitation's id."""
        table_id = _id(body.get("table"), "table", 32)
        seat, token, to = body.get("seat"), body.get("token"), _id(body.get("account"))
        live = await self.service.live(table_id)
        if live is None:
            raise Refused("there is no such table", 404, code="table")
        if not isinstance(token, str) or \
                await self.service.seat_of(table_id, token) != HOST:
            raise Refused("only the host (with the host's link) may invite", 403,
                          code="token")
        t = live.table
        if t.status != WAITING:
            raise Refused("the game has started", 409, code="started")
        if type(seat) is not int or not 0 <= seat < t.n:
            raise Refused(f"seat must be a number from 0 to {t.n - 1}", code="bad")
        if t.seats[seat].kind != EMPTY:
            raise Refused("that seat is taken", 409, code="taken")
        if to == me.id:
            raise Refused("that is your own account", code="self")
        now = self.clock()

        def work(conn: Connection) -> str:
            if conn.execute(sa.select(follows_t.c.at).where(
                    follows_t.c.follower == me.id, follows_t.c.followed == to)).first() is None:
                return "!follow"
            if _blocked_between(conn, me.id, to):
                return "!blocked"
            row = conn.execute(sa.select(accounts_t.c.status).where(
                accounts_t.c.id == to)).first()
            if row is None or row[0] != ACTIVE:
                return "!follow"
            same = conn.execute(sa.select(account_invites_t.c.id).where(
                account_invites_t.c.to_account == to, account_invites_t.c.table_id == t.id,
                account_invites_t.c.seat == seat, account_invites_t.c.answered.is_(None),
                account_invites_t.c.created > now - INVITE_SECONDS)).first()
            if same is not None:
                return str(same[0])
            waiting = conn.execute(sa.select(sa.func.count()).select_from(
                account_invites_t).where(account_invites_t.c.from_account == me.id,
                                         account_invites_t.c.answered.is_(None),
                                         account_invites_t.c.created > now - INVITE_SECONDS)
            ).scalar_one()
            if waiting >= INVITES_SENT_MAX:
                return "!full"
            new = secrets.token_urlsafe(12)
            conn.execute(account_invites_t.insert(), {
                "id": new, "from_account": me.id, "to_account": to, "table_id": t.id,
                "seat": seat, "created": now, "answered": None})
            return new
        got = await self._run(work)
        if got == "!follow":
            raise Refused("invite the players you follow", 403, code="not_followed")
        if got == "!blocked":
            raise Refused("you cannot invite this player", 403, code="blocked")
        if got == "!full":
            raise Refused(f"you have {INVITES_SENT_MAX} invitations waiting already: wait "
                          f"for their answers", 429, code="invites_full")
        return got

    def _lapsed(self, live: Live | None, seat: int) -> bool:
        if live is None:
            return True
        t = live.table
        return t.status != WAITING or not 0 <= seat < t.n or t.seats[seat].kind != EMPTY

    async def invites_of(self, me: Account) -> list[dict[str, Any]]:
        """The invitations waiting for ``me``, the newest first; those that lapsed (the
        seat taken, the game started, too old) are marked so and not listed."""
        now = self.clock()

        def work(conn: Connection) -> list[Any]:
            conn.execute(account_invites_t.update().where(
                account_invites_t.c.to_account == me.id,
                account_invites_t.c.answered.is_(None),
                account_invites_t.c.created <= now - INVITE_SECONDS).values(answered=LAPSED))
            return list(conn.execute(
                sa.select(account_invites_t, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == account_invites_t.c.from_account)
                .where(account_invites_t.c.to_account == me.id,
                       account_invites_t.c.answered.is_(None))
                .order_by(account_invites_t.c.created.desc())
                .limit(INVITES_SHOWN)).all())
        rows = await self._run(work)
        out, lapsed = [], []
        for r in rows:
            live = await self.service.live(r.table_id)
            if self._lapsed(live, r.seat):
                lapsed.append(r.id)
                continue
            assert live is not None
            out.append({"id": r.id, "from": {"id": r.from_account, "name": r.name},
                        "table": r.table_id, "seat": r.seat,
                        "game": live.table.rules.preset,
                        "created": r.created, "expires": r.created + INVITE_SECONDS})
        if lapsed:
            await self._run(lambda conn: conn.execute(account_invites_t.update().where(
                account_invites_t.c.id.in_(lapsed), account_invites_t.c.answered.is_(None)
            ).values(answered=LAPSED)))
        return out

    async def _answer(self, me: Account, invite_id: Any, answer: str) -> dict[str, Any]:
        """Mark ``me``'s waiting invitation ``invite_id`` answered ``answer`` (once): its
        row. One too old, or between two accounts one of which blocks the other, is
        marked so and refused; so is one answered already (by this request's twin)."""
        iid = _id(invite_id, "invitation")
        now = self.clock()

        def work(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(sa.select(account_invites_t).where(
                account_invites_t.c.id == iid,
                account_invites_t.c.to_account == me.id)).first()
            if row is None:
                return None
            got = dict(row._mapping)
            if row.answered is not None:
                return got
            if row.created <= now - INVITE_SECONDS:
                got["answered"] = LAPSED
            elif _blocked_between(conn, row.from_account, me.id):
                got["answered"] = WITHDRAWN
            else:
                got["answered"] = answer
            done = conn.execute(account_invites_t.update().where(
                account_invites_t.c.id == iid, account_invites_t.c.answered.is_(None)
            ).values(answered=got["answered"]))
            if done.rowcount != 1:
                got["answered"] = "raced"
            return got
        row = await self._run(work)
        if row is None:
            raise Refused("there is no such invitation", 404, code="no_invitation")
        if row["answered"] != answer:
            raise Refused("that invitation is no longer open", 409, code="invite_gone")
        return row

    async def decline(self, me: Account, invite_id: Any) -> None:
        await self._answer(me, invite_id, DECLINED)

    async def accept(self, me: Account, invite_id: Any) -> dict[str, Any]:
        """Take the seat of ``me``'s invitation: {"table", "seat", "token", "url"}."""
        row = await self._answer(me, invite_id, ACCEPTED)
        table_id, seat = str(row["table_id"]), int(row["seat"])
        live = await self.service.live(table_id)
        try:
            if self._lapsed(live, seat):
                raise TableError("taken", "that seat is taken")
            assert live is not None
            got = await self.service.seating.take_seat(live, seat, me.name)
        except TableError:
            await self._run(lambda conn: conn.execute(account_invites_t.update().where(
                account_invites_t.c.id == row["id"]).values(answered=LAPSED)))
            raise Refused("that invitation is no longer open: the seat was taken or the "
                          "game began", 409, code="invite_gone") from None
        await self.games.link(table_id, got["seat"], me)  # (``web.games``: its seat)
        return {"table": table_id, "seat": got["seat"], "token": got["token"],
                "url": f"/t/{table_id}#token={got['token']}"}


def _blocked_between(conn: Connection, a: str, b: str) -> bool:
    """Whether either of ``a`` and ``b`` blocks the other."""
    return conn.execute(sa.select(blocks_t.c.at).where(sa.or_(
        sa.and_(blocks_t.c.blocker == a, blocks_t.c.blocked == b),
        sa.and_(blocks_t.c.blocker == b, blocks_t.c.blocked == a)))).first() is not None


def _public_tables(conn: Connection, account_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The public table, waiting or in play, where each of ``account_ids`` has a seat
    (the latest it sat at)."""
    if not account_ids:
        return {}
    rows = conn.execute(
        sa.select(seat_accounts_t.c.account_id, seat_accounts_t.c.table_id,
                  seat_accounts_t.c.at, tables_t.c.status, tables_t.c.preset)
        .join(tables_t, tables_t.c.id == seat_accounts_t.c.table_id)
        .where(seat_accounts_t.c.account_id.in_(account_ids),
               tables_t.c.public.is_(True),
               tables_t.c.status.in_(("waiting", "playing")))).all()
    out: dict[str, dict[str, Any]] = {}
    latest: dict[str, float] = {}
    for r in rows:
        if r.account_id not in out or (r.at or 0) > latest[r.account_id]:
            latest[r.account_id] = r.at or 0
            out[r.account_id] = {"id": r.table_id, "url": f"/t/{r.table_id}",
                                 "game": r.preset, "status": r.status}
    return out


def regulars_of(state: Any) -> Regulars:
    got: Regulars = state.regulars
    return got


# ----- the routes ---------------------------------------------------------------------------


async def _take(request: Request, kind: str) -> None:
    """One more ``kind`` (``limits.Rates``) from the request's address, or 429."""
    client = request.client.host if request.client else "unknown"
    await regulars_of(request.app.state).service.rates.take(kind, client)


def _no_store(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


@one_line()
async def listing(request: Request) -> Response:
    """Whom the account follows (online, and at which public table) and blocks."""
    me, _ = await require_account(request)
    regulars = regulars_of(request.app.state)
    await regulars.seen(me.id)
    return _no_store(await regulars.listing(me))


async def _change(request: Request, what: str) -> Response:
    me, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    await _take(request, "follows")
    regulars = regulars_of(request.app.state)
    if what in ("follow", "block"):
        other = await regulars._target(me, body)
        await (regulars.follow if what == "follow" else regulars.block)(me, other)
    else:
        other_id = _id(body.get("account"))
        await (regulars.unfollow if what == "unfollow" else regulars.unblock)(me, other_id)
    return _no_store({"ok": True})


@one_line()
async def follow(request: Request) -> Response:
    return await _change(request, "follow")


@one_line()
async def unfollow(request: Request) -> Response:
    return await _change(request, "unfollow")


@one_line()
async def block(request: Request) -> Response:
    return await _change(request, "block")


@one_line()
async def unblock(request: Request) -> Response:
    return await _change(request, "unblock")


@one_line()
async def invite(request: Request) -> Response:
    """The host invites a regular to a seat: {table, seat, account, token}."""
    me, _ = await require_account(request)
    body = await json_body(request, BODY_MAX)
    await _take(request, "invites")
    got = await regulars_of(request.app.state).invite(me, body)
    return _no_store({"ok": True, "invite": got})


@one_line()
async def invites(request: Request) -> Response:
    """The invitations waiting for the account (its home page's notices)."""
    me, _ = await require_account(request)
    regulars = regulars_of(request.app.state)
    await regulars.seen(me.id)
    return _no_store({"invites": await regulars.invites_of(me)})


@one_line()
async def accept(request: Request) -> Response:
    me, _ = await require_account(request)
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    await _take(request, "invites")
    got = await regulars_of(request.app.state).accept(me, request.path_params["id"])
    return _no_store({"ok": True, **got})


@one_line()
async def decline(request: Request) -> Response:
    me, _ = await require_account(request)
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    await _take(request, "invites")
    await regulars_of(request.app.state).decline(me, request.path_params["id"])
    return _no_store({"ok": True})


ROUTES: list[BaseRoute] = [
    Route("/api/regulars", listing, methods=["GET"]),
    Route("/api/regulars/follow", follow, methods=["POST"]),
    Route("/api/regulars/unfollow", unfollow, methods=["POST"]),
    Route("/api/regulars/block", block, methods=["POST"]),
    Route("/api/regulars/unblock", unblock, methods=["POST"]),
    Route("/api/regulars/invite", invite, methods=["POST"]),
    Route("/api/regulars/invites", invites, methods=["GET"]),
    Route("/api/regulars/invites/{id}/accept", accept, methods=["POST"]),
    Route("/api/regulars/invites/{id}/decline", decline, methods=["POST"]),
]

__all__ = ["BODY_MAX", "INVITE_SECONDS", "ONLINE_SECONDS", "ROUTES", "SEEN_EVERY",
           "Regular", "Regulars", "regulars_of"]
