"""Clubs: a club's name and house rules, its members and directors, its invite links and
its calendar, over the store (``app.state.clubs``); the routes are ``web.club_api``'s.

A club is made by a signed-in account, which becomes its first director. Its house rules
(a preset and its options, as a table or an evening is made from) are the default of the
evenings made from it. Accounts join by an invite link a director makes
(``/club/ID/join#key=...``: the key kept only as its SHA-256, working until it expires and
for at most its number of accounts; an account that is a member already joins by it
again without using it up). Directors make members directors and directors members,
remove members; anyone leaves. A club always keeps one director: the last one can neither
leave, nor be made a member, nor be removed (an account deleted while the last director
hands the club to its longest-standing member: ``keep_a_director``).

The calendar lists the club's evenings (``kind`` "hall": a hall evening, by its id;
"duplicate": a duplicate session), when (UTC) and where ("hall" or "online"). Other
modules add to it with ``add_event`` and ask ``is_director``; a hall evening made from the
club keeps the club's id, and a signed-in director of the club directs it without the
evening's key (``signed_in_director``).

Who sees what: the club's page (its name, house rules, directors and calendar) is seen by
whoever has its address; its members' names by its members only.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import HTTPConnection

from ..rules import PRESETS, RulesError, build_rules, option_specs
from .account_schema import club_events_t, club_invites_t, club_members_t, clubs_t
from .accounts import ACTIVE, Account, accounts_of, accounts_t, key_hash
from .http import Refused
from .store import Store
from .text import invisible, line, shown

T = TypeVar("T")

MEMBER, DIRECTOR = "member", "director"
ROLES = (MEMBER, DIRECTOR)
KINDS = ("hall", "duplicate")  # what the calendar lists
PLACES = ("hall", "online")
NAME_MIN, NAME_MAX = 2, 60  # a club's name
TITLE_MAX = 120  # an evening's title in the calendar
CLUBS_MADE_MAX = 5  # clubs one account may make
CLUBS_JOINED_MAX = 100  # clubs one account may belong to
MEMBERS_MAX = 1000  # accounts in one club
INVITES_MAX = 20  # invite links of a club working at once
INVITE_DAYS, INVITE_DAYS_MAX = 7, 30  # an invite link works this long (by default, at most)
INVITE_USES, INVITE_USES_MAX = 50, 500  # accounts that may join by one link
EVENTS_MAX = 500  # a club's evenings in the calendar yet to come
EVENTS_SHOWN = 50  # evenings listed on the club's page: the next ones, and the last ones
ID_MAX = 24
EARLIEST, LATEST = 946684800.0, 4102444800.0  # 2000-01-01 to 2100-01-01, UTC


def check_id(raw: Any, what: str = "club") -> str:
    """An id as the routes take it (1 to ``ID_MAX`` URL-safe characters); ``Refused``."""
    if not isinstance(raw, str) or not raw:
        raise Refused(f"say which {what}: its id", code="bad")
    if len(raw) > ID_MAX or not all(c.isascii() and (c.isalnum() or c in "-_") for c in raw):
        raise Refused(f"there is no such {what}", 404, code="no_" + what)
    return raw


def check_club_name(raw: Any) -> str:
    """A club's name: one line of ``NAME_MIN`` to ``NAME_MAX`` characters, with a letter
    or a digit."""
    if not isinstance(raw, str):
        raise Refused("a club's name must be text", code="club_name")
    name = line(raw, 400)
    if any(invisible(c) for c in name):
        raise Refused("a club's name may not hold invisible characters (zero-width spaces "
                      "and the like)", code="club_name")
    if not (len(shown(name)) >= NAME_MIN and len(name) <= NAME_MAX) or \
            not any(c.isalnum() for c in name):
        raise Refused(f"a club's name has {NAME_MIN} to {NAME_MAX} characters, with a "
                      f"letter or a digit", code="club_name")
    return name


def house_rules(preset: Any, options: Any) -> tuple[str, dict[str, Any]]:
    """A club's house rules as kept: the preset's name and the options changed from it
    (what ``build_rules`` takes); ``Refused`` with the rules' own line."""
    if preset is None:
        preset = "nova-scotia"
    if options is None:
        options = {}
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise Refused("house rules are a preset's name and an object of options",
                      code="rules")
    try:
        rules = build_rules(preset, options)
    except RulesError as e:
        raise Refused(str(e), code="rules") from None
    got = rules.to_json()
    return str(got["preset"]), dict(got.get("options") or {})


def rules_json(preset: str, options: dict[str, Any]) -> dict[str, Any]:
    """House rules as the club's page shows them: the preset, its summary, and each
    option changed from it (its value, and what it means)."""
    out: dict[str, Any] = {"preset": preset, "options": options, "summary": "",
                           "changes": []}
    p = PRESETS.get(preset)
    if p is None:
        return out
    out["summary"] = p.summary
    specs = option_specs(p.game)
    out["changes"] = [{"name": k, "value": v, "doc": specs[k].doc if k in specs else ""}
                      for k, v in sorted(options.items())]
    return out


def parse_when(raw: Any) -> float:
    """A date and time in UTC ("2026-12-07T19:30", "...Z" or "+00:00"), as seconds."""
    if not isinstance(raw, str) or len(raw) > 40:
        raise Refused('when must be a UTC date and time, like "2026-12-07T19:30"',
                      code="when")
    try:
        at = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
    except ValueError:
        raise Refused('when must be a UTC date and time, like "2026-12-07T19:30"',
                      code="when") from None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    elif at.utcoffset() != UTC.utcoffset(None):
        raise Refused("when must be in UTC", code="when")
    seconds = at.timestamp()
    if not EARLIEST <= seconds < LATEST:
        raise Refused("when must be between the years 2000 and 2100", code="when")
    return seconds


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%MZ")


def event_url(kind: str, ref: str) -> str:
    return f"/hall/{ref}" if kind == "hall" else f"/dup/{ref}"


@dataclass(frozen=True)
class Club:
    id: str
    name: str
    preset: str
    options: dict[str, Any]
    created: float
    created_by: str | None

    @classmethod
    def of_row(cls, row: Any) -> Club:
        try:
            options = json.loads(row.options or "{}")
        except ValueError:
            options = {}
        return cls(id=row.id, name=row.name, preset=row.preset,
                   options=options if isinstance(options, dict) else {},
                   created=row.created, created_by=row.created_by)

    @property
    def rules(self) -> dict[str, Any]:
        """What a table or an evening made from the club takes: {"preset", "options"}."""
        return {"preset": self.preset, "options": dict(self.options)}


def _role(conn: Connection, club_id: str, account_id: str) -> str | None:
    row = conn.execute(sa.select(club_members_t.c.role).where(
        club_members_t.c.club == club_id, club_members_t.c.account_id == account_id)).first()
    return None if row is None else str(row[0])


def _directors(conn: Connection, club_id: str) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(club_members_t).where(
        club_members_t.c.club == club_id, club_members_t.c.role == DIRECTOR)).scalar_one())


def _lock(conn: Connection, club_id: str) -> Any:
    """The club's row, held (on PostgreSQL) until the transaction ends: one change of its
    members at a time, so that two directors stepping down at once leave one."""
    return conn.execute(sa.select(clubs_t).where(clubs_t.c.id == club_id)
                        .with_for_update()).first()


def keep_a_director(conn: Connection, club_id: str, leaving: str) -> str | None:
    """Before ``leaving`` goes from the club (its account deleted): if it is the club's
    last director, its longest-standing other member becomes one. That member's id."""
    if _role(conn, club_id, leaving) != DIRECTOR:
        return None
    others = conn.execute(sa.select(sa.func.count()).select_from(club_members_t).where(
        club_members_t.c.club == club_id, club_members_t.c.role == DIRECTOR,
        club_members_t.c.account_id != leaving)).scalar_one()
    if others:
        return None
    heir = conn.execute(sa.select(club_members_t.c.account_id).where(
        club_members_t.c.club == club_id, club_members_t.c.account_id != leaving)
        .order_by(club_members_t.c.joined, club_members_t.c.account_id).limit(1)).first()
    if heir is None:
        return None
    conn.execute(club_members_t.update().where(
        club_members_t.c.club == club_id, club_members_t.c.account_id == heir[0]
    ).values(role=DIRECTOR))
    return str(heir[0])


class Clubs:
    """The clubs in the store (``app.state.clubs``)."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        return await self.store.run(fn)

    # ----- reading ------------------------------------------------------------------------

    async def get(self, club_id: Any) -> Club | None:
        if not isinstance(club_id, str) or not 0 < len(club_id) <= ID_MAX:
            return None

        def work(conn: Connection) -> Club | None:
            row = conn.execute(sa.select(clubs_t).where(clubs_t.c.id == club_id)).first()
            return None if row is None else Club.of_row(row)
        return await self._run(work)

    async def club(self, club_id: Any) -> Club:
        got = await self.get(check_id(club_id))
        if got is None:
            raise Refused("there is no such club", 404, code="no_club")
        return got

    async def role(self, club_id: str, account_id: str) -> str | None:
        """``account_id``'s role in the club ("member", "director"), or None."""
        return await self._run(lambda conn: _role(conn, club_id, account_id))

    async def page(self, club_id: Any, me: Account | None) -> dict[str, Any]:
        """The club as its page shows it to ``me`` (None: a guest)."""
        club = await self.club(club_id)
        now = self.clock()

        def work(conn: Connection) -> dict[str, Any]:
            rows = conn.execute(
                sa.select(club_members_t.c.account_id, club_members_t.c.role,
                          club_members_t.c.joined, accounts_t.c.name)
                .join(accounts_t, accounts_t.c.id == club_members_t.c.account_id)
                .where(club_members_t.c.club == club.id, accounts_t.c.status == ACTIVE)
                .order_by(accounts_t.c.name_key).limit(MEMBERS_MAX)).all()
            mine = next((r.role for r in rows if me is not None and r.account_id == me.id),
                        None)
            people = [{"id": r.account_id, "name": r.name, "role": r.role,
                       "joined": r.joined} for r in rows]
            events = club_events_t.c

            def listed(query: Any) -> list[dict[str, Any]]:
                return [{"id": r.id, "kind": r.kind, "ref": r.ref, "title": r.title,
                         "at": r.at, "when": iso(r.at), "where": r.place,
                         "url": event_url(r.kind, r.ref)}
                        for r in conn.execute(query.limit(EVENTS_SHOWN)).all()]
            upcoming = listed(sa.select(club_events_t).where(
                events.club == club.id, events.at >= now).order_by(events.at, events.id))
            past = listed(sa.select(club_events_t).where(
                events.club == club.id, events.at < now).order_by(events.at.desc(),
                                                                   events.id))
            return {"id": club.id, "name": club.name,
                    "rules": rules_json(club.preset, club.options),
                    "created": club.created,
                    "directors": [p for p in people if p["role"] == DIRECTOR],
                    "members": people if mine is not None else None,
                    "count": len(people), "you": mine,
                    "upcoming": upcoming, "past": past}
        return await self._run(work)

    async def mine(self, me: Account) -> list[dict[str, Any]]:
        """The clubs ``me`` belongs to, by name, with its role in each."""
        def work(conn: Connection) -> list[dict[str, Any]]:
            rows = conn.execute(
                sa.select(clubs_t.c.id, clubs_t.c.name, club_members_t.c.role)
                .join(club_members_t, club_members_t.c.club == clubs_t.c.id)
                .where(club_members_t.c.account_id == me.id)
                .order_by(clubs_t.c.name, clubs_t.c.id).limit(CLUBS_JOINED_MAX)).all()
            return [{"id": r.id, "name": r.name, "role": r.role, "url": f"/club/{r.id}"}
                    for r in rows]
        return await self._run(work)

    # ----- making and changing --------------------------------------------------------------

    async def create(self, me: Account, body: dict[str, Any]) -> Club:
        """A new club named ``body["name"]`` with house rules ``body["preset"]`` and
        ``body["options"]``; ``me`` its first director."""
        name = check_club_name(body.get("name"))
        preset, options = house_rules(body.get("preset"), body.get("options"))
        now = self.clock()
        club = Club(id=secrets.token_urlsafe(9), name=name, preset=preset, options=options,
                    created=now, created_by=me.id)

        def work(conn: Connection) -> str:
            made = conn.execute(sa.select(sa.func.count()).select_from(clubs_t).where(
                clubs_t.c.created_by == me.id)).scalar_one()
            if made >= CLUBS_MADE_MAX:
                return "made"
            if _joined(conn, me.id) >= CLUBS_JOINED_MAX:
                return "joined"
            conn.execute(clubs_t.insert(), {
                "id": club.id, "name": name, "preset": preset,
                "options": json.dumps(options, sort_keys=True), "created": now,
                "created_by": me.id})
            conn.execute(club_members_t.insert(), {
                "club": club.id, "account_id": me.id, "role": DIRECTOR, "joined": now})
            return "ok"
        got = await self._run(work)
        if got == "made":
            raise Refused(f"an account makes at most {CLUBS_MADE_MAX} clubs", 409,
                          code="clubs_full")
        if got == "joined":
            raise Refused(f"an account belongs to at most {CLUBS_JOINED_MAX} clubs: leave "
                          f"one first", 409, code="clubs_full")
        return club

    async def as_director(self, me: Account, club_id: Any) -> Club:
        club = await self.club(club_id)
        if await self.role(club.id, me.id) != DIRECTOR:
            raise Refused("only the club's directors may do that", 403, code="not_director")
        return club

    async def change(self, me: Account, club_id: Any, body: dict[str, Any]) -> Club:
        """A director renames the club or changes its house rules."""
        club = await self.as_director(me, club_id)
        name = check_club_name(body["name"]) if "name" in body else club.name
        preset, options = (house_rules(body.get("preset"), body.get("options"))
                           if "preset" in body or "options" in body
                           else (club.preset, club.options))
        await self._run(lambda conn: conn.execute(clubs_t.update().where(
            clubs_t.c.id == club.id).values(name=name, preset=preset,
                                             options=json.dumps(options, sort_keys=True))))
        return await self.club(club.id)

    async def invite(self, me: Account, club_id: Any, body: dict[str, Any]
                     ) -> dict[str, Any]:
        """A director's new invite link: {"key", "url", "expires", "uses"}."""
        club = await self.as_director(me, club_id)
        days, uses = body.get("days", INVITE_DAYS), body.get("uses", INVITE_USES)
        if type(days) is not int or not 1 <= days <= INVITE_DAYS_MAX:
            raise Refused(f"days must be a whole number from 1 to {INVITE_DAYS_MAX}",
                          code="bad")
        if type(uses) is not int or not 1 <= uses <= INVITE_USES_MAX:
            raise Refused(f"uses must be a whole number from 1 to {INVITE_USES_MAX}",
                          code="bad")
        key = secrets.token_urlsafe(18)
        now = self.clock()
        expires = now + days * 86400.0

        def work(conn: Connection) -> bool:
            conn.execute(club_invites_t.delete().where(  # (those expired go)
                club_invites_t.c.club == club.id, club_invites_t.c.expires <= now))
            live = conn.execute(sa.select(sa.func.count()).select_from(club_invites_t)
                                .where(club_invites_t.c.club == club.id)).scalar_one()
            if live >= INVITES_MAX:
                return False
            conn.execute(club_invites_t.insert(), {
                "key_hash": key_hash(key), "club": club.id, "account_id": me.id,
                "created": now, "expires": expires, "uses": 0, "max_uses": uses})
            return True
        if not await self._run(work):
            raise Refused(f"a club has at most {INVITES_MAX} invite links working at once",
                          409, code="invites_full")
        return {"key": key, "url": f"/club/{club.id}/join#key={key}", "expires": expires,
                "uses": uses}

    async def join(self, me: Account, club_id: Any, key: Any) -> str:
        """``me`` joins the club by an invite link's key: its role there (one who is a
        member already stays what it is, the link not used up)."""
        club = await self.club(club_id)
        if not isinstance(key, str) or not 10 <= len(key) <= 100:
            raise Refused("this invite link is not the club's: ask a director for a new "
                          "one", 403, code="invite")
        h = key_hash(key)
        now = self.clock()

        def work(conn: Connection) -> str:
            if _lock(conn, club.id) is None:
                return "!club"
            row = conn.execute(sa.select(club_invites_t).where(
                club_invites_t.c.key_hash == h, club_invites_t.c.club == club.id)).first()
            if row is None:
                return "!invite"
            had = _role(conn, club.id, me.id)
            if had is not None:
                return had
            if row.expires <= now:
                return "!expired"
            if row.uses >= row.max_uses:
                return "!used"
            if _joined(conn, me.id) >= CLUBS_JOINED_MAX:
                return "!joined"
            members = conn.execute(sa.select(sa.func.count()).select_from(club_members_t)
                                   .where(club_members_t.c.club == club.id)).scalar_one()
            if members >= MEMBERS_MAX:
                return "!full"
            done = conn.execute(club_invites_t.update().where(
                club_invites_t.c.key_hash == h, club_invites_t.c.uses < row.max_uses
            ).values(uses=club_invites_t.c.uses + 1))
            if done.rowcount != 1:
                return "!used"
            conn.execute(club_members_t.insert(), {
                "club": club.id, "account_id": me.id, "role": MEMBER, "joined": now})
            return MEMBER
        try:
            got = await self._run(work)
        except sa.exc.IntegrityError:  # (the same account, joining twice at once)
            got = MEMBER
        refusals = {
            "!club": ("there is no such club", 404, "no_club"),
            "!invite": ("this invite link is not the club's: ask a director for a new one",
                        403, "invite"),
            "!expired": ("this invite link has expired: ask a director for a new one", 410,
                         "invite_expired"),
            "!used": ("this invite link has been used by as many people as it may: ask a "
                      "director for a new one", 410, "invite_used"),
            "!joined": (f"an account belongs to at most {CLUBS_JOINED_MAX} clubs: leave "
                        f"one first", 409, "clubs_full"),
            "!full": (f"a club has at most {MEMBERS_MAX} members", 409, "club_full")}
        if got in refusals:
            message, status, code = refusals[got]
            raise Refused(message, status, code=code)
        return got

    async def set_role(self, me: Account, club_id: Any, account_id: Any, role: Any) -> None:
        """A director makes a member a director, or a director a member (itself included,
        while another director stays)."""
        if role not in ROLES:
            raise Refused('role must be "member" or "director"', code="bad")
        club = await self.as_director(me, club_id)
        who = check_id(account_id, "account")
        got = await self._run(lambda conn: self._set_role(conn, club.id, me.id, who, role))
        self._refuse(got)

    def _set_role(self, conn: Connection, club_id: str, me: str, who: str, role: str
                  ) -> str:
        _lock(conn, club_id)
        if _role(conn, club_id, me) != DIRECTOR:
            return "!director"
        had = _role(conn, club_id, who)
        if had is None:
            return "!member"
        if had == role:
            return "ok"
        if had == DIRECTOR and _directors(conn, club_id) <= 1:
            return "!last"
        conn.execute(club_members_t.update().where(
            club_members_t.c.club == club_id, club_members_t.c.account_id == who
        ).values(role=role))
        return "ok"

    async def remove(self, me: Account, club_id: Any, account_id: Any) -> None:
        """A director removes a member (a director too, while another stays)."""
        club = await self.as_director(me, club_id)
        who = check_id(account_id, "account")
        got = await self._run(lambda conn: self._remove(conn, club.id, who, me.id))
        self._refuse(got)

    async def leave(self, me: Account, club_id: Any) -> None:
        """``me`` leaves the club (its last director cannot: it makes another first)."""
        club = await self.club(club_id)
        got = await self._run(lambda conn: self._remove(conn, club.id, me.id, None))
        self._refuse(got)

    def _remove(self, conn: Connection, club_id: str, who: str, by: str | None) -> str:
        _lock(conn, club_id)
        if by is not None and _role(conn, club_id, by) != DIRECTOR:
            return "!director"
        had = _role(conn, club_id, who)
        if had is None:
            return "!member"
        if had == DIRECTOR and _directors(conn, club_id) <= 1:
            return "!last"
        conn.execute(club_members_t.delete().where(
            club_members_t.c.club == club_id, club_members_t.c.account_id == who))
        return "ok"

    @staticmethod
    def _refuse(got: str) -> None:
        if got == "!director":
            raise Refused("only the club's directors may do that", 403, code="not_director")
        if got == "!member":
            raise Refused("that account is not a member of the club", 404,
                          code="not_member")
        if got == "!last":
            raise Refused("a club keeps one director: make another member a director "
                          "first", 409, code="last_director")

    # ----- the calendar -----------------------------------------------------------------------

    async def add_event(self, club_id: str, kind: str, ref: str, title: str, when: float,
                        where: str) -> str:
        """Add an evening to the club's calendar: its entry's id."""
        if kind not in KINDS:
            raise Refused(f"kind must be one of {', '.join(KINDS)}", code="bad")
        if where not in PLACES:
            raise Refused('where must be "hall" or "online"', code="where")
        if not isinstance(ref, str) or not 0 < len(ref) <= 40:
            raise Refused("an evening's id has 1 to 40 characters", code="bad")
        if not isinstance(when, (int, float)) or not EARLIEST <= when < LATEST:
            raise Refused("when must be between the years 2000 and 2100", code="when")
        title = check_title(title)
        now = self.clock()
        entry = secrets.token_urlsafe(9)

        def work(conn: Connection) -> bool:
            coming = conn.execute(sa.select(sa.func.count()).select_from(club_events_t)
                                  .where(club_events_t.c.club == club_id,
                                         club_events_t.c.at >= now)).scalar_one()
            if coming >= EVENTS_MAX:
                return False
            conn.execute(club_events_t.insert(), {
                "id": entry, "club": club_id, "kind": kind, "ref": ref, "title": title,
                "at": float(when), "place": where, "created": now})
            return True
        if not await self._run(work):
            raise Refused(f"a club's calendar holds at most {EVENTS_MAX} evenings to come",
                          409, code="calendar_full")
        return entry

    async def has_room(self, club_id: str) -> None:
        """``Refused`` when the club's calendar is full (before an evening is made)."""
        now = self.clock()
        coming = await self._run(lambda conn: conn.execute(
            sa.select(sa.func.count()).select_from(club_events_t).where(
                club_events_t.c.club == club_id, club_events_t.c.at >= now)).scalar_one())
        if coming >= EVENTS_MAX:
            raise Refused(f"a club's calendar holds at most {EVENTS_MAX} evenings to come",
                          409, code="calendar_full")


def check_title(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) > 4 * TITLE_MAX:
        raise Refused(f"a title is text of at most {TITLE_MAX} characters", code="title")
    title = line(raw, TITLE_MAX)
    if not title:
        raise Refused("give the evening a title", code="title")
    return title


def _joined(conn: Connection, account_id: str) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(club_members_t).where(
        club_members_t.c.account_id == account_id)).scalar_one())


def clubs_of(state: Any) -> Clubs:
    """The app's clubs (``state.clubs``, made on first use over ``state.store``)."""
    got: Clubs | None = getattr(state, "clubs", None)
    if got is None:
        got = state.clubs = Clubs(state.store)
    return got


async def add_event(clubs: Clubs, club_id: str, kind: str, ref: str, title: str,
                    when: float, where: str) -> str:
    """Add an evening (``kind`` "hall" or "duplicate", ``ref`` its id) to the calendar of
    ``club_id``, at ``when`` (UTC seconds), ``where`` "hall" or "online": the entry's id.
    ``Refused`` (one line) for a value out of bounds or a full calendar."""
    return await clubs.add_event(club_id, kind, ref, title, when, where)


async def is_director(clubs: Clubs, club_id: Any, account_id: Any) -> bool:
    """Whether ``account_id`` is a director of ``club_id``."""
    if not isinstance(club_id, str) or not isinstance(account_id, str) or \
            not 0 < len(club_id) <= ID_MAX or not 0 < len(account_id) <= ID_MAX:
        return False
    return await clubs.role(club_id, account_id) == DIRECTOR


async def signed_in_director(conn: HTTPConnection, club_id: Any) -> bool:
    """Whether the request is signed in to an account that directs ``club_id`` (False on
    an app without accounts, where the hall's routes are mounted alone)."""
    state = conn.app.state
    if not isinstance(club_id, str) or getattr(state, "accounts", None) is None or \
            getattr(state, "store", None) is None:
        return False
    got = await accounts_of(state).signed_in(conn)
    if got is None:
        return False
    return await is_director(clubs_of(state), club_id, got[0].id)


__all__ = ["DIRECTOR", "KINDS", "MEMBER", "PLACES", "Club", "Clubs", "add_event",
           "check_id", "clubs_of", "is_director", "keep_a_director", "parse_when",
           "signed_in_director"]
