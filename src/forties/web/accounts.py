"""Accounts: the optional name a regular player keeps, and the sessions that sign a
browser in to it.

A guest plays as before, with a name typed at the door and a seat's link; nothing here
changes what a seat may see at a table. An account is a display name (unique in the form
two names are compared in, ``name_key``) and, from ``web.passkeys``, the passkeys that sign
in to it. A browser signed in holds a session's key in a cookie (``COOKIE``): ``HttpOnly``,
``SameSite=Lax``, ``Secure`` where the site is on https, for ``SESSION_DAYS``; the database
keeps only the key's SHA-256, and each session has a short id of its own by which the
account's page lists and ends it. Cross-site forgery meets three walls: the ``Guard``
refuses a state-changing request from another site's page (its ``Origin`` or
``Sec-Fetch-Site``), takes JSON only as ``application/json`` (which another site's page
cannot send without asking first), and the cookie is not sent with another site's POST
(``SameSite=Lax``).

An account is ``active``, ``suspended`` (by the operator: it cannot sign in, and its
sessions sign nobody in) or ``deleted`` (its games stay, its name shown as
``FORMER_PLAYER``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection
from starlette.responses import Response

from .http import Refused
from .store import Store, meta
from .text import invisible, line

T = TypeVar("T")

COOKIE = "forties_session"
SESSION_DAYS = 90
SESSION_SECONDS = SESSION_DAYS * 24 * 3600
SEEN_EVERY = 600.0  # a session's (and its account's) last use is written at most this often
NAME_MIN, NAME_MAX = 2, 24
FORMER_PLAYER = "a former player"
ACTIVE, SUSPENDED, DELETED = "active", "suspended", "deleted"
# what a name may hold besides letters, marks and digits: a space and these
NAME_PUNCTUATION = frozenset(" -'._")
# alphabets whose letters pass for each other's ("Аnne" with a Cyrillic А): a name
# mixes none of them with Latin letters (``check_name``)
LOOK_ALIKE = frozenset({"LATIN", "CYRILLIC", "GREEK"})
# names nobody may take (compared by ``name_key``): what the site itself calls people
RESERVED = frozenset({"a former player", "guest", "host", "admin", "administrator",
                      "forties", "operator", "computer"})

accounts_t = sa.Table(
    "accounts", meta,
    sa.Column("id", sa.String(24), primary_key=True),
    sa.Column("name", sa.String(80)),
    sa.Column("name_key", sa.String(80)),
    sa.Column("created", sa.Float),
    sa.Column("status", sa.String(16)),
    sa.Column("hidden", sa.Boolean),
    sa.Column("last_seen", sa.Float),
)
sessions_t = sa.Table(
    "sessions", meta,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("id", sa.String(24)),
    sa.Column("account_id", sa.String(24)),
    sa.Column("created", sa.Float),
    sa.Column("last_seen", sa.Float),
    sa.Column("agent", sa.String(120)),
)


@dataclass(frozen=True)
class Account:
    """An account as the pages and the API show it to its owner."""

    id: str
    name: str
    created: float
    status: str = ACTIVE
    hidden: bool = False  # its games hidden from other people
    last_seen: float | None = None

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created": self.created,
                "status": self.status, "hidden": self.hidden}

    @classmethod
    def of_row(cls, row: Any) -> Account:
        return cls(id=row.id, name=row.name, created=row.created, status=row.status,
                   hidden=bool(row.hidden), last_seen=row.last_seen)


@dataclass(frozen=True)
class Session:
    """A browser signed in: its id (not its key), when it began and was last used."""

    id: str
    account_id: str
    created: float
    last_seen: float
    agent: str | None

    def to_json(self, current: bool = False) -> dict[str, Any]:
        return {"id": self.id, "created": self.created, "last_seen": self.last_seen,
                "agent": self.agent, "current": current}


def key_hash(key: str) -> str:
    """The SHA-256 (hex) by which a session's or any other key of an account is kept."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def name_key(name: str) -> str:
    """The form in which two names are compared: compatibility-normalized, case-folded,
    spaces run together (so "Marie  Claire", "marie claire" and "ＭＡＲＩＥ claire" are the
    same name)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(folded.split())


def retired_key(key: str) -> str:
    """What a deleted account keeps of its name's ``name_key``: a fingerprint (its SHA-256)
    that keeps the name from being taken again, without the name."""
    return "#" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def script_of(ch: str) -> str:
    """The alphabet of a letter as its Unicode name begins ("LATIN", "CYRILLIC", "GREEK",
    "ARABIC"...); "" for anything else."""
    if unicodedata.category(ch)[0] != "L":
        return ""
    return unicodedata.name(ch, "").split(" ")[0]


def check_name(raw: Any) -> str:
    """An account's display name as given, cleaned (one line, storable), or ``Refused``
    saying why not: NAME_MIN to NAME_MAX characters of letters, digits, spaces and
    ``-'._``, no Latin letter beside a Cyrillic or Greek one (``LOOK_ALIKE``), not one of
    the names the site uses itself."""
    if not isinstance(raw, str):
        raise Refused("a name must be text", code="name")
    name = line(raw, 200)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Refused(f"a name has {NAME_MIN} to {NAME_MAX} characters", code="name")
    for ch in name:
        if not (ch in NAME_PUNCTUATION or unicodedata.category(ch)[0] in "LMN"):
            raise Refused("a name holds letters, digits, spaces and - ' . _ only",
                          code="name")
    if any(invisible(ch) for ch in name):  # (a Hangul filler: a letter, and blank)
        raise Refused("a name may not hold invisible characters", code="name")
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise Refused("a name needs a letter or a digit", code="name")
    scripts = {script_of(ch) for ch in name} & LOOK_ALIKE
    if "LATIN" in scripts and len(scripts) > 1:
        raise Refused("a name may not mix Latin letters with Cyrillic or Greek ones, which "
                      "look alike: write it in one alphabet", code="name_scripts")
    if name_key(name) in RESERVED:
        raise Refused("that name is the site's own: choose another", code="name")
    return name


class Accounts:
    """The accounts and sessions in the store (``app.state.accounts``). ``secure``: the
    site is on https, so the cookie is ``Secure``."""

    def __init__(self, store: Store, secure: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.secure = secure
        self.clock = clock

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        return await self.store.run(fn)

    # ----- accounts ---------------------------------------------------------------------

    async def create(self, name: Any) -> Account:
        """A new active account named ``name`` (``check_name``); ``Refused`` (409) when
        another account has that name."""
        clean = check_name(name)
        account = Account(id=secrets.token_urlsafe(12), name=clean, created=self.clock())

        def work(conn: Connection) -> bool:
            key = name_key(clean)  # (a deleted account's name stays taken)
            taken = conn.execute(sa.select(accounts_t.c.id).where(
                accounts_t.c.name_key.in_((key, retired_key(key))))).first()
            if taken is not None:
                return False
            conn.execute(accounts_t.insert(), {
                "id": account.id, "name": clean, "name_key": name_key(clean),
                "created": account.created, "status": ACTIVE, "hidden": False,
                "last_seen": account.created})
            return True
        try:
            made = await self._run(work)
        except sa.exc.IntegrityError:  # the same name, made by another request just now
            made = False
        if not made:
            raise Refused("that name is taken: choose another", 409, code="name_taken")
        return account

    async def get(self, account_id: Any) -> Account | None:
        if not isinstance(account_id, str) or not 0 < len(account_id) <= 24:
            return None

        def work(conn: Connection) -> Account | None:
            row = conn.execute(sa.select(accounts_t).where(
                accounts_t.c.id == account_id)).first()
            return None if row is None else Account.of_row(row)
        return await self._run(work)

    async def by_name(self, name: Any) -> Account | None:
        if not isinstance(name, str) or not name or len(name) > 200:
            return None
        key = name_key(line(name, 200))

        def work(conn: Connection) -> Account | None:
            row = conn.execute(sa.select(accounts_t).where(
                accounts_t.c.name_key == key)).first()
            return None if row is None else Account.of_row(row)
        return await self._run(work)

    async def name_taken(self, name: str) -> bool:
        """Whether ``name`` (checked by ``check_name``) is an account's, a deleted one's
        included (its name stays taken: ``retired_key``)."""
        key = name_key(name)

        def work(conn: Connection) -> bool:
            return conn.execute(sa.select(accounts_t.c.id).where(
                accounts_t.c.name_key.in_((key, retired_key(key))))).first() is not None
        return await self._run(work)

    async def set_status(self, account_id: str, status: str) -> bool:
        """Suspend an account (its sessions then sign nobody in), or make it active again.
        False: no such account."""
        if status not in (ACTIVE, SUSPENDED):
            raise ValueError(status)

        def work(conn: Connection) -> bool:
            done = conn.execute(accounts_t.update().where(
                accounts_t.c.id == account_id, accounts_t.c.status != DELETED
            ).values(status=status))
            return bool(done.rowcount)
        return await self._run(work)

    async def set_hidden(self, account_id: str, hidden: bool) -> None:
        await self._run(lambda conn: conn.execute(accounts_t.update().where(
            accounts_t.c.id == account_id).values(hidden=bool(hidden))))

    # ----- sessions ---------------------------------------------------------------------

    async def new_session(self, account_id: str, agent: str | None = None) -> str:
        """A new session of ``account_id``: its key, for the cookie (kept only hashed)."""
        key = secrets.token_urlsafe(32)
        now = self.clock()
        await self._run(lambda conn: conn.execute(sessions_t.insert(), {
            "token_hash": key_hash(key), "id": secrets.token_urlsafe(9),
            "account_id": account_id, "created": now, "last_seen": now,
            "agent": line(agent, 120) if isinstance(agent, str) else None}))
        return key

    async def session(self, key: Any) -> tuple[Account, Session] | None:
        """The active account that the session ``key`` signs in, and the session (its last
        use written at most every ``SEEN_EVERY`` seconds); None for a key that is not a
        live session of an active account."""
        if not isinstance(key, str) or not 20 <= len(key) <= 100:
            return None
        h = key_hash(key)
        now = self.clock()

        def work(conn: Connection) -> tuple[Account, Session] | None:
            row = conn.execute(
                sa.select(sessions_t, accounts_t.c.name, accounts_t.c.status,
                          accounts_t.c.hidden, accounts_t.c.last_seen.label("seen"),
                          accounts_t.c.created.label("made"))
                .join(accounts_t, accounts_t.c.id == sessions_t.c.account_id)
                .where(sessions_t.c.token_hash == h)).first()
            if row is None or row.status != ACTIVE:
                return None
            if now - row.created > SESSION_SECONDS:
                conn.execute(sessions_t.delete().where(sessions_t.c.token_hash == h))
                return None
            seen = row.last_seen
            if now - seen > SEEN_EVERY:
                seen = now
                conn.execute(sessions_t.update().where(sessions_t.c.token_hash == h)
                             .values(last_seen=now))
                conn.execute(accounts_t.update().where(
                    accounts_t.c.id == row.account_id).values(last_seen=now))
            account = Account(id=row.account_id, name=row.name, created=row.made,
                              status=row.status, hidden=bool(row.hidden),
                              last_seen=seen if (row.seen or 0) < seen else row.seen)
            return account, Session(id=row.id, account_id=row.account_id,
                                    created=row.created, last_seen=seen, agent=row.agent)
        return await self._run(work)

    async def sessions_of(self, account_id: str) -> list[Session]:
        """The account's sessions, the latest used first."""
        def work(conn: Connection) -> list[Session]:
            rows = conn.execute(sa.select(sessions_t).where(
                sessions_t.c.account_id == account_id)
                .order_by(sessions_t.c.last_seen.desc())).all()
            return [Session(id=r.id, account_id=r.account_id, created=r.created,
                            last_seen=r.last_seen, agent=r.agent) for r in rows]
        return await self._run(work)

    async def end_session(self, account_id: str, session_id: Any) -> bool:
        """End one of the account's sessions (by its id); False: the account has none such."""
        if not isinstance(session_id, str) or len(session_id) > 24:
            return False

        def work(conn: Connection) -> bool:
            done = conn.execute(sessions_t.delete().where(
                sessions_t.c.account_id == account_id, sessions_t.c.id == session_id))
            return bool(done.rowcount)
        return await self._run(work)

    # ----- the request's account ---------------------------------------------------------

    async def signed_in(self, conn: HTTPConnection) -> tuple[Account, Session] | None:
        """The account (and session) the request's or websocket's cookie signs in."""
        return await self.session(conn.cookies.get(COOKIE))

    def set_cookie(self, response: Response, key: str) -> None:
        response.set_cookie(COOKIE, key, max_age=SESSION_SECONDS, path="/", httponly=True,
                            samesite="lax", secure=self.secure)

    def clear_cookie(self, response: Response) -> None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=self.secure)


def accounts_of(state: Any) -> Accounts:
    """The app's accounts (set on its state by ``create_app``)."""
    accounts: Accounts = state.accounts
    return accounts


async def account_of(conn: HTTPConnection) -> Account | None:
    """The active account the request is signed in to, or None (a guest)."""
    got = await accounts_of(conn.app.state).signed_in(conn)
    return None if got is None else got[0]


async def require_account(conn: HTTPConnection) -> tuple[Account, Session]:
    """The request's account and session, or ``Refused`` (401) for a guest."""
    got = await accounts_of(conn.app.state).signed_in(conn)
    if got is None:
        raise Refused("sign in first: this needs an account", 401, code="signin")
    return got


__all__ = ["ACTIVE", "COOKIE", "DELETED", "FORMER_PLAYER", "SUSPENDED", "Account",
           "Accounts", "Session", "account_of", "accounts_of", "check_name", "key_hash",
           "name_key", "require_account", "retired_key"]
