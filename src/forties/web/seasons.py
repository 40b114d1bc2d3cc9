"""A club's seasons on the web: a director sets a season up (its name, its first and last
dates, its rule) and may change it later (it keeps its id, so its pages' addresses), and
anyone with the club's address sees its standings (a page for phones, one for the
projector) and exports them as CSV or JSON.

A season is a row of ``club_seasons`` (``web.clubs``' tables). Its evenings are the
club's hall evenings in its calendar (``club_events``, kind "hall") from its first date
to its last (both included, as days of the season's time zone: the director's device's
when it was set up, UTC for one set up through the API without it), each read from the
store as the hall reads it
(``web.hall.Evenings.read``: replayed once per version), and added up by the pure
``forties.hall.season``, again whenever the season's row or one of its evenings changed
(the standings' version is made from them as read for each answer, so a season changed
through one process is shown changed by every other at once). The season is over once
its last date is past (and every evening over): its ties are then settled.

Bounds: a change reads at most ``club_api.BODY_MAX`` bytes and counts one ``clubs`` a
minute from the address; the standings count one ``lookups`` a minute (an unchanged
season answers ``{"same": true}`` to ``?since=VERSION``), the exports one ``records``;
a club keeps at most ``SEASONS_MAX`` seasons, of at most ``SEASON_DAYS_MAX`` days and
``EVENINGS_MAX`` hall evenings each.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..hall.season import (
    Season,
    SeasonError,
    SeasonEvening,
    SeasonRule,
    season,
    season_csv,
    season_json,
)
from . import hall
from .account_schema import club_events_t, club_seasons_t
from .accounts import require_account
from .club_api import BODY_MAX
from .clubs import Club, Clubs, check_id, clubs_of, signed_in_director
from .http import Refused, json_body, one_line, rates_of
from .text import line

STATIC = Path(__file__).parent / "static"
SEASONS_MAX = 50  # seasons one club keeps
SEASON_DAYS_MAX = 400  # from a season's first date to its last
EVENINGS_MAX = 60  # hall evenings in one season
NAME_MAX = 80  # a season's name
CACHED_MAX = 256  # seasons whose standings a process keeps built
ZONE_MAX = 64  # a time zone's name


def check_zone(raw: Any) -> str:
    """The IANA name of the time zone a season's days are read in ("America/Halifax");
    none: UTC."""
    if raw is None:
        return "UTC"
    shape = 'zone must be the name of a time zone, such as "America/Halifax"'
    if not isinstance(raw, str) or not 0 < len(raw) <= ZONE_MAX or raw.startswith("/") \
            or ".." in raw or not all(c.isascii() and (c.isalnum() or c in "_+-/")
                                      for c in raw):
        raise Refused(shape, code="zone")
    try:
        ZoneInfo(raw)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise Refused(f"there is no time zone {raw!r}: {shape}", code="zone") from None
    return raw


def zone_of(name: Any) -> ZoneInfo:
    """The season's time zone (UTC for a season set up without one, or one gone)."""
    try:
        return ZoneInfo(name) if isinstance(name, str) and name else ZoneInfo("UTC")
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return ZoneInfo("UTC")


def check_name(raw: Any) -> str:
    if not isinstance(raw, str) or len(raw) > 4 * NAME_MAX:
        raise Refused(f"a season's name is text of at most {NAME_MAX} characters",
                      code="season_name")
    name = line(raw)
    if len(name) > NAME_MAX:
        raise Refused(f"a season's name is text of at most {NAME_MAX} characters",
                      code="season_name")
    if not any(c.isalnum() for c in name):
        raise Refused("give the season a name, with a letter or a digit", code="season_name")
    return name


def check_day(raw: Any, what: str) -> date:
    """A date as a form sends it ("2026-09-01"), between the years 2000 and 2100."""
    shape = f'{what} must be a date like "2026-09-01"'
    if not isinstance(raw, str) or len(raw) != 10 or raw[4] + raw[7] != "--" or \
            not all(c in "0123456789" for c in raw[:4] + raw[5:7] + raw[8:]):
        raise Refused(shape, code="date")  # (not a week's date either: "2026-W36-2")
    try:
        day = date.fromisoformat(raw)
    except ValueError:
        raise Refused(shape, code="date") from None
    if not date(2000, 1, 1) <= day < date(2100, 1, 1):
        raise Refused(f"{what} must be between the years 2000 and 2100", code="date")
    return day


def check_rule(raw: Any) -> SeasonRule:
    if raw is None:
        return SeasonRule()
    try:
        return SeasonRule.from_json(raw)
    except SeasonError as e:
        raise Refused(str(e), code="rule") from None


def check_span(starts: date, ends: date) -> None:
    if ends < starts:
        raise Refused("a season ends on or after the day it starts", code="date")
    if (ends - starts).days >= SEASON_DAYS_MAX:
        raise Refused(f"a season lasts at most {SEASON_DAYS_MAX} days", code="date")


FIELDS = ("name", "starts", "ends", "rule", "zone")  # a season's, as a director sends them
CHECKS: dict[str, Callable[[Any], Any]] = {
    "name": check_name, "starts": lambda raw: check_day(raw, "starts"),
    "ends": lambda raw: check_day(raw, "ends"), "rule": check_rule, "zone": check_zone}


def checked(body: dict[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    """``fields`` of a season read from ``body`` (one missing: as ``None``), each checked;
    a field that a season has not is refused."""
    extra = sorted(set(body) - set(FIELDS))
    if extra:
        raise Refused(f"unknown field {str(extra[0])[:40]!r}", code="bad")
    return {k: CHECKS[k](body.get(k)) for k in fields}


def _rule_text(rule: SeasonRule) -> str:
    return json.dumps(rule.to_json(), sort_keys=True)


def _row_json(row: Any) -> dict[str, Any]:
    try:
        rule = SeasonRule.from_json(json.loads(row.rule)).to_json()
    except (ValueError, SeasonError):
        rule = SeasonRule().to_json()
    return {"id": row.id, "name": row.name, "starts": row.starts.isoformat(),
            "ends": row.ends.isoformat(), "rule": rule, "zone": zone_of(row.zone).key}


class Seasons:
    """The clubs' seasons over the app's store (``app.state.seasons``)."""

    def __init__(self, clubs: Clubs, clock: Callable[[], float] = time.time) -> None:
        self.clubs = clubs
        self.clock = clock
        # a season's standings as last built: (what they were built from, the answer, the
        # season) so that polls of an unchanged season replay and add up nothing
        self.built: dict[str, tuple[str, dict[str, Any], Season]] = {}

    def today(self, zone: ZoneInfo | None = None) -> date:
        return datetime.fromtimestamp(self.clock(), zone or UTC).date()

    async def create(self, club: Club, body: dict[str, Any]) -> dict[str, Any]:
        got = checked(body, FIELDS)
        name, starts, ends, rule, zone = (got[k] for k in FIELDS)
        check_span(starts, ends)
        sid = secrets.token_urlsafe(9)
        row = {"id": sid, "club": club.id, "name": name, "starts": starts, "ends": ends,
               "rule": _rule_text(rule), "created": self.clock(), "zone": zone}

        def work(conn: Connection) -> bool:
            held = conn.execute(sa.select(sa.func.count()).select_from(club_seasons_t)
                                .where(club_seasons_t.c.club == club.id)).scalar_one()
            if held >= SEASONS_MAX:
                return False
            conn.execute(club_seasons_t.insert(), row)
            return True
        if not await self.clubs.store.run(work):
            raise Refused(f"a club keeps at most {SEASONS_MAX} seasons: remove one first",
                          409, code="seasons_full")
        return {"id": sid, "name": name, "starts": starts.isoformat(),
                "ends": ends.isoformat(), "rule": rule.to_json(), "zone": zone}

    async def edit(self, club: Club, sid: str, body: dict[str, Any]) -> dict[str, Any]:
        """A director changes the season's fields given in ``body`` (the others stay), in
        its row: the same id, so the same pages and links. Its standings follow at once,
        in every process: their version is made from the row as read for each answer."""
        got = checked(body, [k for k in FIELDS if k in body])
        changes = {k: _rule_text(v) if k == "rule" else v for k, v in got.items()}

        def work(conn: Connection) -> Any:
            where = (club_seasons_t.c.club == club.id, club_seasons_t.c.id == sid)
            row = conn.execute(sa.select(club_seasons_t).where(*where)
                               .with_for_update()).first()
            if row is None:
                raise Refused("there is no such season", 404, code="no_season")
            check_span(got.get("starts", row.starts), got.get("ends", row.ends))
            if changes:
                conn.execute(club_seasons_t.update().where(*where).values(**changes))
            return conn.execute(sa.select(club_seasons_t).where(*where)).first()
        return _row_json(await self.clubs.store.run(work))

    async def remove(self, club: Club, sid: str) -> None:
        def work(conn: Connection) -> int:
            return int(conn.execute(club_seasons_t.delete().where(
                club_seasons_t.c.club == club.id, club_seasons_t.c.id == sid)).rowcount)
        if not await self.clubs.store.run(work):
            raise Refused("there is no such season", 404, code="no_season")
        self.built.pop(sid, None)

    async def listed(self, club: Club) -> list[dict[str, Any]]:
        def work(conn: Connection) -> list[Any]:
            return list(conn.execute(sa.select(club_seasons_t).where(
                club_seasons_t.c.club == club.id).order_by(
                    club_seasons_t.c.starts.desc(), club_seasons_t.c.id)
                .limit(SEASONS_MAX)).fetchall())
        return [_row_json(r) for r in await self.clubs.store.run(work)]

    async def row(self, club: Club, sid: str) -> Any:
        def work(conn: Connection) -> Any:
            return conn.execute(sa.select(club_seasons_t).where(
                club_seasons_t.c.club == club.id, club_seasons_t.c.id == sid)).first()
        got = await self.clubs.store.run(work)
        if got is None:
            raise Refused("there is no such season", 404, code="no_season")
        return got

    async def standings(self, request: Request, club: Club, sid: str
                        ) -> tuple[dict[str, Any], Season]:
        """The season's standings as its page shows them (``season_json`` with the club,
        the season's name and dates, and a ``version``), built again only when the
        season, its calendar or one of its evenings changed."""
        row = await self.row(club, sid)
        info = _row_json(row)
        starts, ends = row.starts, row.ends
        zone = zone_of(row.zone)  # (the days are the club's, not UTC's)
        lo = datetime(starts.year, starts.month, starts.day, tzinfo=zone).timestamp()
        end = ends + timedelta(days=1)
        hi = datetime(end.year, end.month, end.day, tzinfo=zone).timestamp()

        def work(conn: Connection) -> list[Any]:
            return list(conn.execute(sa.select(
                club_events_t.c.ref, club_events_t.c.title, club_events_t.c.at).where(
                club_events_t.c.club == club.id, club_events_t.c.kind == "hall",
                club_events_t.c.at >= lo, club_events_t.c.at < hi).order_by(
                club_events_t.c.at, club_events_t.c.id).limit(EVENINGS_MAX + 1)).fetchall())
        events = await self.clubs.store.run(work)
        if len(events) > EVENINGS_MAX:
            raise Refused(f"a season adds up at most {EVENINGS_MAX} evenings: this one has "
                          f"more (shorten it)", 409, code="season_full")
        ev = hall.evenings_of(request)
        got: list[SeasonEvening] = []
        seen: set[str] = set()
        versions: list[str] = []
        missing = 0
        for ref, title, at in events:
            if ref in seen:
                continue
            seen.add(ref)
            try:
                version, body, evening = await ev.read(ref)
            except Refused:
                missing += 1  # an evening gone from the store (or one that cannot be read)
                continue
            if body.get("club") != club.id:
                missing += 1
                continue
            day = datetime.fromtimestamp(at, zone).date()
            got.append(SeasonEvening(ref, day, title or "", evening))
            versions.append(f"{ref}:{version}:{day}:{title}")
        closed = self.today(zone) > ends
        made_of = hashlib.sha256(json.dumps(
            [info, club.name, closed, missing, versions]).encode()).hexdigest()[:20]
        kept = self.built.get(sid)
        if kept is not None and kept[0] == made_of:
            return kept[1], kept[2]
        try:
            s = season(SeasonRule.from_json(info["rule"]), got, closed)
        except SeasonError as e:
            raise Refused(str(e), 409, code="season") from None
        out = {"club": {"id": club.id, "name": club.name}, "season": info,
               "closed": closed, "missing": missing, "version": made_of, **season_json(s)}
        if len(self.built) >= CACHED_MAX:
            self.built.pop(next(iter(self.built)))
        self.built[sid] = (made_of, out, s)
        return out, s


def seasons_of(state: Any) -> Seasons:
    """The app's seasons (``state.seasons``, made on first use)."""
    got: Seasons | None = getattr(state, "seasons", None)
    if got is None:
        got = state.seasons = Seasons(clubs_of(state))
    return got


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _no_store(body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(body, headers={"Cache-Control": "no-store"})


def _valid(raw: str) -> bool:
    return 0 < len(raw) <= 24 and all(c.isascii() and (c.isalnum() or c in "-_") for c in raw)


async def page(request: Request) -> Response:
    """The seasons' pages: a club's seasons (/club/ID/seasons), a season's standings
    (/club/ID/season/SID, and for the projector /club/ID/season/SID/projector)."""
    ids = [request.path_params.get(k) for k in ("id", "sid")]
    if not all(_valid(x) for x in ids if x is not None):
        return HTMLResponse("<p>No such season.</p>", status_code=404)
    name = "season.html" if "sid" in request.path_params else "seasons.html"
    return FileResponse(STATIC / name, media_type="text/html")


@one_line()
async def listed(request: Request) -> Response:
    """A club's seasons, and whether this browser's account may set one up."""
    await rates_of(request.app.state).take("lookups", _address(request))
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.club(request.path_params["id"])
    return _no_store({"club": {"id": club.id, "name": club.name},
                      "director": await signed_in_director(request, club.id),
                      "seasons": await seasons.listed(club)})


@one_line()
async def create(request: Request) -> Response:
    """A director sets a season up: {"name", "starts", "ends" (dates, both included),
    "rule": {"best": N or null, "ties": "cut"|"split", "prizes": N}}."""
    body = await json_body(request, BODY_MAX)
    await rates_of(request.app.state).take("clubs", _address(request))
    me, _ = await require_account(request)
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.as_director(me, check_id(request.path_params["id"]))
    made = await seasons.create(club, body)
    return _no_store({"ok": True, "season": made,
                      "url": f"/club/{club.id}/season/{made['id']}"})


@one_line()
async def edit(request: Request) -> Response:
    """A director changes a season: any of create's fields (those not sent stay as they
    were); the season keeps its id, so its pages' addresses stay."""
    body = await json_body(request, BODY_MAX)
    await rates_of(request.app.state).take("clubs", _address(request))
    me, _ = await require_account(request)
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.as_director(me, check_id(request.path_params["id"]))
    changed = await seasons.edit(club, check_id(request.path_params["sid"], "season"), body)
    return _no_store({"ok": True, "season": changed,
                      "url": f"/club/{club.id}/season/{changed['id']}"})


@one_line()
async def remove(request: Request) -> Response:
    """A director removes a season (its evenings stay)."""
    await json_body(request, BODY_MAX, empty_is_nothing=True)
    await rates_of(request.app.state).take("clubs", _address(request))
    me, _ = await require_account(request)
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.as_director(me, check_id(request.path_params["id"]))
    await seasons.remove(club, check_id(request.path_params["sid"], "season"))
    return _no_store({"ok": True})


@one_line()
async def standings(request: Request) -> Response:
    """The season's standings (``?since=VERSION``: ``{"same": true}`` if unchanged)."""
    await rates_of(request.app.state).take("lookups", _address(request))
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.club(request.path_params["id"])
    out, _ = await seasons.standings(request, club,
                                     check_id(request.path_params["sid"], "season"))
    if request.query_params.get("since") == out["version"]:
        return _no_store({"version": out["version"], "same": True})
    return _no_store(out)


@one_line()
async def export(request: Request) -> Response:
    """The season's standings as CSV or JSON, to download."""
    fmt = request.path_params["fmt"]
    if fmt not in ("csv", "json"):
        raise Refused("export is csv or json", 404, code="bad")
    await rates_of(request.app.state).take("records", _address(request))
    seasons = seasons_of(request.app.state)
    club = await seasons.clubs.club(request.path_params["id"])
    sid = check_id(request.path_params["sid"], "season")
    out, s = await seasons.standings(request, club, sid)
    name = f"season-{sid}"
    if fmt == "csv":
        return Response(season_csv(s), media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{name}.csv"'})
    return Response(json.dumps(out, indent=1) + "\n", media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}.json"'})


ROUTES: list[BaseRoute] = [
    Route("/club/{id}/seasons", page, methods=["GET"]),
    Route("/club/{id}/season/{sid}", page, methods=["GET"]),
    Route("/club/{id}/season/{sid}/projector", page, methods=["GET"]),
    Route("/api/clubs/{id}/seasons", listed, methods=["GET"]),
    Route("/api/clubs/{id}/seasons", create, methods=["POST"]),
    Route("/api/clubs/{id}/seasons/{sid}", standings, methods=["GET"]),
    Route("/api/clubs/{id}/seasons/{sid}", edit, methods=["POST"]),
    Route("/api/clubs/{id}/seasons/{sid}/remove", remove, methods=["POST"]),
    Route("/api/clubs/{id}/seasons/{sid}/export/{fmt}", export, methods=["GET"]),
]

__all__ = ["ROUTES", "Seasons", "seasons_of"]
