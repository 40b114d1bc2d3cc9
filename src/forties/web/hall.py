"""The hall director's pages of ``forties serve``: a 45-Card-Games evening on the web.

An evening is a document of kind ``hall`` in the server's store: the pure evening
(``forties.hall.Hall.to_json``: settings and events), the SHA-256 of the director's key,
the tables' key (for the phones that report results) and, for an online evening, the
players' keys and the web tables of each game. Every change reads the document, replays
the evening, applies one step (checked by ``forties.hall``, which says in one line why it
cannot be done) and writes it back with compare-and-set, so two phones reporting at once
never lose a result.

Who may do what: the director's link (``/hall/ID/director#key=...``) does everything, and
so does a signed-in director of the club an evening was made from (``web.clubs``: the
evening's document keeps the club's id);
the tables' link (``/hall/ID/report#key=...``) reports results; an online player's link
(``/hall/ID/play#key=...``) finds its table; anyone with the evening's number watches
(``/hall/ID``: the standings, the moves and the prizes, updated by polling).

Online evenings: each game's tables are web tables (``service.create_table``), the couple
dealing first in seats 0 and 2. When a table's game ends (``on_over``, or a poll of
``service.table_summary`` for a table another process ran), its result is reported, and
when the game's last table is in, the next game begins and its tables are made.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..hall import Hall, HallError, Settings
from ..hall.events import Answer, Close, CutDeck, PlayoffWin, Swap, Vote, event_from_json
from ..hall.export import board_json, export_json, results_csv, standings_csv
from ..hall.printing import punch_cards_html, table_cards_html
from ..hall.words import LANGUAGES
from ..numerals import whole
from ..rules import RulesError, build_rules
from .clubs import signed_in_director
from .http import (
    Handler,
    Refused,
    Tables,
    Turns,
    compare_and_set,
    digest,
    json_body,
    one_line,
    rates_of,
)
from .limits import Limits, RateLimited, Rates
from .secret import NoSecret, SiteSecret
from .text import TITLE_MAX, clean_json, is_key, line, same_digest, same_key

KIND = "hall"
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
MAX_COUPLES = 400
CREATE_PER_MINUTE = Limits.evenings_per_minute  # from one address (``limits.Rates``)
POLL_SECONDS = 3.0  # an online evening asks the service about its open tables this often
IDLE_SECONDS = 600.0  # an evening nobody asked about for this long: what is kept of it goes
LEVELS = ("random", "basic", "expert")
TIE_TYPES = ("vote", "answer", "cut", "play-off")
PAGES = {"": "hall.html", "board": "hall-board.html", "director": "hall-director.html",
         "report": "hall-report.html", "play": "hall-play.html"}


# ----- reading requests ------------------------------------------------------------------

async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY, empty_is_nothing=True)


def _int(obj: dict[str, Any], key: str, low: int = 1, high: int = 10_000,
         default: int | None = None) -> int:
    v = obj.get(key, default)
    if type(v) is not int or not low <= v <= high:
        raise Refused(f"{key} must be a whole number from {low} to {high}, not "
                      f"{json.dumps(v)}")
    return v


def _winner(obj: dict[str, Any]) -> int | None:
    if "winner" not in obj:
        raise Refused("say which couple won (winner: a couple number, or null for no game)")
    w = obj["winner"]
    if w is not None and (type(w) is not int or w < 1):
        raise Refused(f"winner must be a couple number or null (no game), not {json.dumps(w)}")
    return w


def _points(obj: dict[str, Any], hall: Hall) -> dict[int, int] | None:
    """Each couple's final points: two couples, each once, each score within ten times the
    game's target either side (120 to win: -1200 to 1200), far past any real game's."""
    pts = obj.get("points")
    if pts is None:
        return None
    shape = 'points must be {"couple": points, "couple": points}'
    if not isinstance(pts, dict) or len(pts) != 2:
        raise Refused(shape)
    most = 10 * hall.settings.rules.target
    out = {}
    for k, v in pts.items():
        couple = whole(k, most=4) if isinstance(k, str) and len(k) < 20 else None
        if couple is None or type(v) is not int:
            raise Refused(shape)
        if couple in out:
            raise Refused(f"points name couple {couple} twice")
        if not -most <= v <= most:
            raise Refused(f"points must be from {-most} to {most} (ten times the game's "
                          f"target either side), not {v}" if abs(v) < 10**12 else
                          f"points must be from {-most} to {most}")
        out[couple] = v
    return out


def _text(obj: dict[str, Any], key: str, most: int = TITLE_MAX) -> str:
    v = obj.get(key, "")
    if not isinstance(v, str) or len(v) > most:
        raise Refused(f"{key} must be text of at most {most} characters")
    return line(v)


def _names(obj: dict[str, Any]) -> list[str]:
    """A couple's two names, each one line (the evening checks what else a name must be)."""
    names = obj.get("names")
    if not isinstance(names, list) or len(names) != 2 or \
            not all(isinstance(n, str) for n in names):
        raise Refused("a couple is two names")
    return [line(n) for n in names]


def _bool(obj: dict[str, Any], key: str, default: bool) -> bool:
    v = obj.get(key, default)
    if type(v) is not bool:
        raise Refused(f"{key} must be true or false")
    return v


def settings_from_request(obj: dict[str, Any]) -> Settings:
    """An evening's settings from the new-evening form; raises Refused."""
    known = {"title", "games", "preset", "options", "prizes", "places", "tie_break",
             "cookie_jar", "cookie_jar_rule", "booby", "bye_wins", "duplicate",
             "present_to_win", "online", "turn_seconds"}
    extra = sorted(set(obj) - known)
    if extra:
        raise Refused(f"unknown setting {extra[0]!r}")
    preset = obj.get("preset", "nova-scotia")
    options = obj.get("options", {})
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise Refused("preset must be a preset's name and options an object")
    try:
        rules = build_rules(preset, options)
    except RulesError as e:
        raise Refused(str(e)) from None
    kw: dict[str, Any] = {"rules": rules, "seed": secrets.randbits(128),
                          "title": _text(obj, "title")}
    for key in ("games", "prizes", "cookie_jar"):
        if key in obj:
            kw[key] = _int(obj, key, 0 if key != "games" else 1, 200)
    for key in ("places", "tie_break", "cookie_jar_rule"):
        if key in obj:
            kw[key] = _text(obj, key)
    for key, default in (("booby", False), ("bye_wins", True), ("duplicate", False),
                         ("present_to_win", True)):
        kw[key] = _bool(obj, key, default)
    try:
        return Settings(**kw)
    except HallError as e:
        raise Refused(str(e)) from None


def winner_side(summary: Any) -> int | None:
    """The couple that won a web table's game: 0 (seats 0 and 2, who dealt first), 1, or
    None (no winner). ``winner`` may be a side, a seat, or a list of seats."""
    if not isinstance(summary, dict):
        return None
    w = summary.get("winner")
    if isinstance(w, dict):
        w = w.get("side", w.get("seats"))
    if isinstance(w, (list, tuple)):
        w = w[0] if w else None
    if type(w) is int and w >= 0:
        return w % 2
    return None


# ----- the evening's document ------------------------------------------------------------


log = logging.getLogger("forties.web.hall")
RESERVE_SECONDS = 60.0  # a web table reserved and not made by then may be taken over


def stale(info: dict[str, Any]) -> bool:
    """Whether an evening's entry for a web table is a reservation whose process has not
    made the table in ``RESERVE_SECONDS`` (gone, most likely)."""
    at = info.get("at")
    return "table" not in info and (not isinstance(at, (int, float))
                                    or time.time() - at > RESERVE_SECONDS)


async def _unreserve(key: str, mark: str, body: dict[str, Any], hall: Hall) -> None:
    tables = (body.get("online") or {}).get("tables", {})
    if (tables.get(key) or {}).get("reserved") == mark:
        del tables[key]


async def _keep(key: str, mark: str, info: dict[str, Any], body: dict[str, Any],
                hall: Hall) -> bool:
    tables = (body.get("online") or {}).get("tables", {})
    if (tables.get(key) or {}).get("reserved") != mark:
        return False
    tables[key] = info
    return True


class Evenings:
    """The hall's routes over one service: its store, and its tables for online evenings.

    What it keeps for each evening (its lock while a change is under way; the evening read,
    its board, its last poll and problem, for the pages that ask every few seconds) is
    forgotten once nobody asked about the evening for ``IDLE_SECONDS``, and the lock as
    soon as no change waits for it: an evening read again is read from the database."""

    def __init__(self, service: Tables, rates: Rates | None = None) -> None:
        self.service = service
        self.rates = rates or Rates()
        self.store = service.store
        self.secret = SiteSecret(self.store)  # (what an evening keeps of its maker)
        self.locks = Turns()
        self.boards: dict[str, tuple[int, dict[str, Any]]] = {}
        self.polled: dict[str, float] = {}
        self.tasks: set[asyncio.Task[bool]] = set()
        self.problems: dict[str, str] = {}
        self.halls: dict[str, tuple[int, dict[str, Any], Hall]] = {}
        self.used: dict[str, float] = {}  # when each evening was last asked about
        self._pruned = time.monotonic()

    def _tick(self) -> None:
        """At most once a minute, forget the evenings nobody asked about for
        ``IDLE_SECONDS`` (``prune``): done whenever an evening is asked for."""
        if time.monotonic() - self._pruned >= 60:
            self.prune()

    def prune(self) -> None:
        """Forget what is kept for the evenings nobody asked about for ``IDLE_SECONDS``
        (but one being changed), and the addresses whose minute is over."""
        now = time.monotonic()
        self._pruned = now
        for eid in [e for e, at in self.used.items() if now - at >= IDLE_SECONDS]:
            if eid in self.locks:
                continue
            for kept in (self.used, self.halls, self.boards, self.polled, self.problems):
                kept.pop(eid, None)
        self.rates.prune()

    async def load(self, eid: str) -> tuple[int, dict[str, Any], Hall]:
        self._tick()
        got = await self.store.get_doc(KIND, eid) if _valid_id(eid) else None
        if got is None:
            raise Refused(f"there is no evening {eid!r}", 404)
        self.used[eid] = time.monotonic()
        version, body = got
        body = clean_json(body)  # one stored before text was cleaned is served clean
        try:
            return version, body, Hall.from_json(body["hall"])
        except (HallError, KeyError, TypeError) as e:
            raise Refused(f"the evening cannot be read: {e}", 500) from None

    async def read(self, eid: str) -> tuple[int, dict[str, Any], Hall]:
        """The evening to read, not to change: replayed once per version (a hundred
        players' pages asking every few seconds replay nothing)."""
        self._tick()
        got = await self.store.get_doc(KIND, eid) if _valid_id(eid) else None
        if got is None:
            raise Refused(f"there is no evening {eid!r}", 404)
        self.used[eid] = time.monotonic()
        cached = self.halls.get(eid)
        if cached is not None and cached[0] == got[0]:
            return cached
        version, body = got
        body = clean_json(body)
        try:
            hall = Hall.from_json(body["hall"])
        except (HallError, KeyError, TypeError) as e:
            raise Refused(f"the evening cannot be read: {e}", 500) from None
        self.halls[eid] = (version, body, hall)
        return version, body, hall

    async def change(self, eid: str,
                     step: Callable[[dict[str, Any], Hall], Awaitable[Any]]) -> Any:
        """Apply ``step(body, hall)`` and store the result (compare-and-set, retried if
        another process wrote first). A HallError is the director's one line."""
        async def change() -> tuple[int, dict[str, Any], Any]:
            version, body, hall = await self.load(eid)
            try:
                result = await step(body, hall)
            except HallError as e:
                raise Refused(str(e), 409) from None
            body["hall"] = hall.to_json()
            return version, body, result

        async with self.locks.of(eid):
            _, result = await compare_and_set(self.store, KIND, eid, change,
                                              Refused("the evening is busy: try again",
                                                      503))
            self.boards.pop(eid, None)
            return result

    async def limit(self, address: str, kind: str = "evenings") -> None:
        """At most ``evenings_per_minute`` new evenings a minute from one address, and
        ``evenings_per_minute_total`` from every address together (``limits.Rates``);
        the same for the evenings' downloads and printed cards (``kind``: "records")."""
        self._tick()
        await self.rates.take(kind, address)

    def check_key(self, body: dict[str, Any], key: Any, *, tables: bool = False) -> str:
        """'director' or 'tables' for a right key; raises Refused (403) otherwise."""
        if same_digest(key, body.get("director")):
            return "director"
        if tables and same_key(key, body.get("tables")):
            return "tables"
        who = "the director's or the tables'" if tables else "the director's"
        raise Refused(f"this link is not {who}: ask the director for the right one", 403)

    # ----- online evenings ----------------------------------------------------------------

    async def open_tables(self, eid: str, body: dict[str, Any], hall: Hall
                          ) -> list[tuple[str, str]]:
        """Reserve the web tables of the game in play that have none yet (a step of a
        change: the evening's document, written with compare-and-set, says which process
        makes each table, so two processes opening them at once make each once;
        ``make_tables`` makes those reserved here; a reservation older than
        ``RESERVE_SECONDS`` may be taken over). The ("game/table", reservation) pairs."""
        online = body.get("online")
        if not online or not hall.started or hall.game_complete(hall.begun):
            return []
        g = hall.begun
        seat = hall.seatings[g - 1]
        tables = online.setdefault("tables", {})
        out: list[tuple[str, str]] = []
        for t, (a, b) in enumerate(seat.tables, 1):
            key = f"{g}/{t}"
            if key in tables and not stale(tables[key]):
                continue
            try:  # (counted against the address that made the evening)
                await self.rates.take("evening_tables", str(body.get("maker") or eid))
            except RateLimited as e:  # the next change or poll makes the rest
                self.problems[eid] = (f"table {t} of game {g} is not made yet ({e.message});"
                                      f" it will be in a minute")
                break
            mark = secrets.token_urlsafe(9)
            tables[key] = {"reserved": mark, "at": time.time(), "couples": [a, b]}
            out.append((key, mark))
        return out

    async def make_tables(self, eid: str, reserved: list[tuple[str, str]]) -> None:
        """Make the web tables this process reserved (``open_tables``), each kept in the
        evening under its reservation; one whose reservation another process took over
        meanwhile is left spare (and said so in the log)."""
        for key, mark in reserved:
            _, body, hall = await self.read(eid)
            online = body.get("online") or {}
            if (online.get("tables", {}).get(key) or {}).get("reserved") != mark:
                continue
            g, t = map(int, key.split("/"))
            a, b = hall.seatings[g - 1].tables[t - 1]
            couples = online.get("couples", {})
            names = {c.number: c.names for c in hall.couples.values()}
            seats: list[dict[str, Any]] = []
            for s in range(4):
                couple = (a, b)[s % 2]
                member = s // 2
                info = couples.get(str(couple), {})
                if info.get("players") == "people":
                    seats.append({"name": names[couple][member], "kind": "person"})
                else:
                    seats.append({"name": names[couple][member], "kind": "computer",
                                  "level": info.get("level", "basic")})
            rules = hall.settings.rules.to_json()
            extra: dict[str, Any] = {}
            if online.get("turn_seconds") is not None:
                extra["settings"] = {"turn_seconds": online["turn_seconds"]}
            try:
                made = await self.service.create_table(
                    preset=rules["preset"], options=rules.get("options", {}), seats=seats,
                    public=False, start=True, dealer=0,
                    on_over=functools.partial(self.table_over, eid), **extra)
            except Exception as e:  # the next change or poll tries again
                self.problems[eid] = f"table {t} of game {g} could not be made: {e}"
                with contextlib.suppress(Refused):
                    await self.change(eid, functools.partial(_unreserve, key, mark))
                continue
            self.problems.pop(eid, None)
            info = {"table": made["table"],
                    "tokens": {str(k): v for k, v in made["tokens"].items()},
                    "couples": [a, b]}
            try:
                kept = await self.change(eid, functools.partial(_keep, key, mark, info))
            except Refused:
                kept = False
            if not kept:
                log.warning("evening %s: table %s made twice; %s is spare", eid, key,
                            made["table"])

    async def table_over(self, eid: str, table_id: str, summary: Any) -> None:
        """A web table's game ended (the service's callback): report its winner. The
        report waits its turn in a task of its own, so that a table whose game ends while
        the evening is being written (computers play fast) never waits for itself."""
        task = asyncio.create_task(self.report_table(eid, table_id, summary))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def report_table(self, eid: str, table_id: str, summary: Any) -> bool:
        """Report a web table's result; False if it was in already (or is not ours)."""
        try:
            reserved = await self.change(eid, functools.partial(
                self._report_online, eid, table_id, summary))
        except Refused:
            return False  # already reported (a poll was first), or the evening is gone
        await self.make_tables(eid, reserved)
        return True

    async def _report_online(self, eid: str, table_id: str, summary: Any,
                             body: dict[str, Any], hall: Hall) -> list[tuple[str, str]]:
        tables = (body.get("online") or {}).get("tables", {})
        where = next((k for k, v in tables.items() if v.get("table") == table_id), None)
        if where is None:
            raise HallError(f"table {table_id} is not one of this evening's")
        g, t = map(int, where.split("/"))
        if hall.result(g, t) is not None:
            raise HallError(f"table {t} of game {g} is already reported")
        side = winner_side(summary)
        a, b = tables[where]["couples"]
        pts = _summary_points(summary, a, b)
        hall.report(g, t, None if side is None else (a, b)[side], pts)
        return await self.next_game(eid, body, hall)

    async def next_game(self, eid: str, body: dict[str, Any], hall: Hall
                        ) -> list[tuple[str, str]]:
        """The next game begun once the one in play is complete; its tables reserved
        (``open_tables``: the caller makes them once the change is written)."""
        if hall.game_complete(hall.begun) and hall.begun < hall.games:
            hall.begin()
        return await self.open_tables(eid, body, hall)

    async def poll_online(self, eid: str, body: dict[str, Any], hall: Hall) -> None:
        """Ask the service about the game in play's open web tables (another process may
        have run them): report those that are over."""
        online = body.get("online")
        if not online or not hall.started or hall.over:
            return
        now = time.monotonic()
        if now - self.polled.get(eid, 0.0) < POLL_SECONDS:
            return
        self.polled[eid] = now
        g = hall.begun
        tables = online.get("tables", {})
        if any(f"{g}/{t}" not in tables or stale(tables[f"{g}/{t}"]) for t in hall.waiting(g)):
            with contextlib.suppress(Refused):
                await self.make_tables(eid, await self.change(
                    eid, functools.partial(self.open_tables, eid)))
            _, body, hall = await self.load(eid)
            online = body["online"]
        for t in hall.waiting(g):
            info = online.get("tables", {}).get(f"{g}/{t}")
            if info is None or "table" not in info:
                continue
            try:
                summary = await self.service.table_summary(info["table"])
            except Exception:  # a table the service no longer knows: the director decides
                continue
            if isinstance(summary, dict) and summary.get("status") == "over":
                await self.report_table(eid, info["table"], summary)

    # ----- the public board -----------------------------------------------------------

    async def board(self, eid: str) -> tuple[int, dict[str, Any]]:
        version, body, hall = await self.read(eid)
        if body.get("online") and not hall.over:
            await self.poll_online(eid, body, hall)
            version, body, hall = await self.read(eid)
        cached = self.boards.get(eid)
        if cached is not None and cached[0] == version:
            return cached
        out = board_json(hall)
        out["id"] = eid
        out["version"] = version
        out["online"] = None
        online = body.get("online")
        if online:
            out["online"] = {"tables": [
                {"game": int(k.split("/")[0]), "table": int(k.split("/")[1]),
                 "url": f"/t/{v['table']}", "couples": v["couples"]}
                for k, v in online.get("tables", {}).items()
                if int(k.split("/")[0]) == hall.begun and "table" in v],
                "couples": {c: {"players": v.get("players"), "level": v.get("level")}
                            for c, v in online.get("couples", {}).items()}}
        if eid in self.problems:
            out["notes"] = [*out["notes"], self.problems[eid]]
        self.boards[eid] = (version, out)
        return version, out


def _summary_points(summary: Any, a: int, b: int) -> dict[int, int] | None:
    """Each couple's points from a web table's summary, when it gives two side scores."""
    scores = summary.get("scores") if isinstance(summary, dict) else None
    if isinstance(scores, list) and len(scores) in (2, 4) and \
            all(type(x) is int for x in scores):
        if len(scores) == 2:
            return {a: scores[0], b: scores[1]}
        return {a: scores[0] + scores[2], b: scores[1] + scores[3]}
    return None


def _valid_id(eid: str) -> bool:
    return 4 <= len(eid) <= 40 and eid.isascii() and all(c.isalnum() or c in "-_" for c in eid)


def _links(eid: str, body: dict[str, Any]) -> dict[str, Any]:
    """What the director's page shows beyond the board: the links to hand out."""
    out: dict[str, Any] = {"report": f"/hall/{eid}/report#key={body['tables']}",
                           "board": f"/hall/{eid}", "players": []}
    online = body.get("online")
    if online:
        for key, who in online.get("people", {}).items():
            out["players"].append({"couple": who["couple"], "member": who["member"],
                                   "name": who["name"], "url": f"/hall/{eid}/play#key={key}"})
        out["players"].sort(key=lambda p: (p["couple"], p["member"]))
    return out


# ----- the routes ------------------------------------------------------------------------

# The evenings keep an app's locks, caches and rate limit, so they live on its state beside
# the service: an app that sets ``app.state.service`` (a ``Tables``) can mount ``ROUTES``.


def evenings_of(request: Request) -> Evenings:
    """The app's evenings over ``app.state.service``, made on the first request."""
    state = request.app.state
    ev: Evenings | None = getattr(state, "evenings", None)
    if ev is None:
        service: Tables = state.service
        ev = state.evenings = Evenings(service, rates_of(state))
    return ev


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def page(name: str) -> Handler:
    async def show(request: Request) -> Response:
        eid = request.path_params.get("eid")
        if eid is not None and not _valid_id(eid):
            return HTMLResponse("<p>No such evening.</p>", status_code=404)
        return FileResponse(STATIC / PAGES[name], media_type="text/html")
    return show


@one_line()
async def create(request: Request) -> Response:
    ev = evenings_of(request)
    obj = await _body(request)
    return JSONResponse(await make_evening(ev, obj, _address(request)))


async def make_evening(ev: Evenings, obj: dict[str, Any], address: str,
                       club: str | None = None) -> dict[str, Any]:
    """A new evening from the new-evening form's ``obj`` (``settings_from_request``),
    counted against ``address``; ``club``: the club it is made from, whose signed-in
    directors direct it without its key (``web.clubs``). What ``POST /api/hall``
    answers: {"evening", "key", "url", "board", "report"}."""
    settings = settings_from_request(obj)
    online = _bool(obj, "online", False)
    if online and settings.duplicate:
        raise Refused("an online evening cannot be a duplicate one: its tables deal "
                      "their own cards")
    turn = obj.get("turn_seconds")
    if turn is not None and (type(turn) is not int or not 5 <= turn <= 3600):
        raise Refused("turn_seconds must be null (no timer) or a whole number of seconds "
                      "from 5 to 3600")
    await ev.limit(address)  # (the evenings made are counted, not the requests refused)
    try:
        maker = (await ev.secret.keyed(address))[:32]
    except NoSecret as e:
        raise Refused(f"the server cannot make evenings now ({e}): try again later",
                      503) from None
    eid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    director = secrets.token_urlsafe(18)
    body: dict[str, Any] = {"hall": Hall(settings).to_json(), "director": digest(director),
                            "tables": secrets.token_urlsafe(12),
                            "online": {"couples": {}, "people": {}, "tables": {},
                                       "turn_seconds": turn} if online else None,
                            # (its tables count against its maker's address: its hash
                            # under the site's secret, ``secret.SiteSecret``)
                            "maker": maker}
    if club is not None:
        body["club"] = club
    await ev.store.put_doc(KIND, eid, body, 0)
    return {"evening": eid, "key": director, "url": f"/hall/{eid}/director#key={director}",
            "board": f"/hall/{eid}", "report": _links(eid, body)["report"]}


@one_line()
async def board(request: Request) -> Response:
    ev = evenings_of(request)
    eid = request.path_params["eid"]
    since = request.query_params.get("since")
    version, out = await ev.board(eid)
    if since is not None and since == str(version):
        return JSONResponse({"version": version, "same": True})
    return JSONResponse(out)


@one_line()
async def director(request: Request) -> Response:
    ev = evenings_of(request)
    eid = request.path_params["eid"]
    obj = await _body(request)
    _, body, _ = await ev.read(eid)
    who = "director" if await signed_in_director(request, body.get("club")) else \
        ev.check_key(body, obj.get("key"), tables=True)
    if who != "director":
        return JSONResponse({"role": "tables"})
    return JSONResponse({"role": "director", **_links(eid, body)})


Step = Callable[[str, dict[str, Any], dict[str, Any], Hall], Any]


def action(step: Step, *, tables: bool = False) -> Handler:
    """The route of one step of an evening, on the director's key (or the tables'), or
    by a signed-in director of the club the evening was made from."""
    @one_line()
    async def run(request: Request) -> Response:
        ev = evenings_of(request)
        eid = request.path_params["eid"]
        obj = await _body(request)
        _, first, _ = await ev.read(eid)
        club = first.get("club")
        by_club = await signed_in_director(request, club)

        reserved: list[tuple[str, str]] = []

        async def apply(body: dict[str, Any], hall: Hall) -> Any:
            who = "director" if by_club and body.get("club") == club else \
                ev.check_key(body, obj.get("key"), tables=tables)
            obj["_who"] = who
            result = step(eid, obj, body, hall)
            reserved.clear()  # (applied again when another process wrote first)
            if body.get("online"):
                reserved.extend(await ev.next_game(eid, body, hall))
            return result

        result = await ev.change(eid, apply)
        await ev.make_tables(eid, reserved)
        version, _ = await ev.board(eid)
        return JSONResponse({"ok": True, "version": version, **(result or {})})
    return run


def register(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> dict[str, Any]:
    names = _names(obj)
    if len(hall.couples) >= MAX_COUPLES:
        raise Refused(f"an evening has at most {MAX_COUPLES} couples")
    online = body.get("online")
    players = obj.get("players", "people")
    level = obj.get("level", "basic")
    if online is not None and (players not in ("people", "computer") or
                               level not in LEVELS):
        raise Refused(f"players must be people or computer, level one of "
                      f"{', '.join(LEVELS)}")
    number = hall.register(names)
    out: dict[str, Any] = {"couple": number}
    if online is not None:
        online["couples"][str(number)] = {"players": players, "level": level}
        if players == "people":
            links = []
            for member in (0, 1):
                key = secrets.token_urlsafe(12)
                online["people"][key] = {"couple": number, "member": member,
                                         "name": hall.couples[number].names[member]}
                links.append(f"/hall/{eid}/play#key={key}")
            out["players"] = links
    return out


def leave(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    hall.leave(_int(obj, "couple"))


def rename(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    number = _int(obj, "couple")
    names = _names(obj)
    hall.rename(number, names)
    online = body.get("online")
    if online is not None:  # the players' own pages and links say the new names
        for who in online.get("people", {}).values():
            if who["couple"] == number:
                who["name"] = hall.couples[number].names[who["member"]]


def begin(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> dict[str, Any]:
    seat = hall.begin()
    return {"game": seat.game}


def report(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    if body.get("online") and obj["_who"] != "director":
        raise Refused("an online evening's tables report themselves", 403)
    hall.report(_int(obj, "game"), _int(obj, "table"), _winner(obj), _points(obj, hall))


def correct(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    hall.correct(_int(obj, "game"), _int(obj, "table"), _winner(obj), _points(obj, hall))


def swap(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    cs = obj.get("couples")
    if not isinstance(cs, list) or len(cs) != 2 or not all(type(c) is int for c in cs):
        raise Refused("couples must be two couple numbers")
    if body.get("online"):
        raise Refused("an online evening's tables are made already: couples cannot swap")
    hall.apply(Swap(hall.begun, (cs[0], cs[1])))


def close(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    hall.apply(Close(hall.begun))


def tie(eid: str, obj: dict[str, Any], body: dict[str, Any], hall: Hall) -> None:
    raw = obj.get("event")
    if not isinstance(raw, dict) or raw.get("type") not in TIE_TYPES:
        raise Refused(f"event must be a tie-break step: {', '.join(TIE_TYPES)}")
    try:
        e = event_from_json(raw)
    except HallError as err:
        raise Refused(str(err)) from None
    assert isinstance(e, (Vote, Answer, CutDeck, PlayoffWin))
    hall.apply(e)


@one_line()
async def seat(request: Request) -> Response:
    """An online player's table now: its address with the seat's token, or why none."""
    ev = evenings_of(request)
    eid = request.path_params["eid"]
    obj = await _body(request)
    version, _ = await ev.board(eid)
    _, body, hall = await ev.read(eid)
    online = body.get("online") or {}
    key = obj.get("key")
    who = online.get("people", {}).get(key) if is_key(key) else None
    if who is None:
        raise Refused("this link is not a player's of this evening: ask the director", 403)
    couple, member = who["couple"], who["member"]
    answer: dict[str, Any] = {"couple": couple, "name": who["name"], "game": hall.begun,
                              "games": hall.games, "url": None, "table": None,
                              "version": version, "bye_wins": hall.settings.bye_wins}
    if not hall.started:
        answer["status"] = "waiting"
    elif hall.over:
        answer["status"] = "over"
    else:
        g = hall.begun
        place = hall.seatings[g - 1].place_of(couple)
        info = online.get("tables", {}).get(f"{g}/{place[0]}") if place else None
        if place is None:
            answer["status"] = "sitting out"
        elif info is None or "table" not in info or hall.result(g, place[0]) is not None:
            answer["status"] = "waiting"
            answer["table"] = place[0]
        else:
            s = place[1] + 2 * member
            answer.update(status="playing", table=place[0],
                          url=f"/t/{info['table']}#token={info['tokens'][str(s)]}")
    return JSONResponse(answer)


@one_line()
async def export(request: Request) -> Response:
    ev = evenings_of(request)
    eid = request.path_params["eid"]
    fmt = request.path_params["fmt"]
    await ev.limit(_address(request), "records")
    _, _, hall = await ev.read(eid)
    name = f"evening-{eid}"
    if fmt == "json":
        return Response(json.dumps(export_json(hall), indent=1) + "\n",
                        media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}.json"'})
    if fmt in ("standings", "results"):
        text = standings_csv(hall) if fmt == "standings" else results_csv(hall)
        return Response(text, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="{name}-{fmt}.csv"'})
    raise Refused("export is json, standings or results", 404)


@one_line()
async def printed(request: Request) -> Response:
    ev = evenings_of(request)
    eid = request.path_params["eid"]
    what = request.path_params["what"]
    lang = request.query_params.get("lang", "en")
    if lang not in LANGUAGES:
        raise Refused(f"language must be one of {', '.join(LANGUAGES)}")
    await ev.limit(_address(request), "records")
    _, _, hall = await ev.read(eid)
    if what == "cards":
        return HTMLResponse(punch_cards_html(hall, lang))
    if what == "tables":
        raw = request.query_params.get("game", "")
        game = max(1, hall.begun) if raw == "" else whole(raw, most=4) if len(raw) < 20 \
            else None
        if game is None:
            raise Refused(f"game must be a game's number, not {raw[:20]!r}")
        if hall.seating(game) is None:
            raise Refused(f"game {game}'s seating is not known yet")
        return HTMLResponse(table_cards_html(hall, lang, game))
    raise Refused("print cards or tables", 404)


ROUTES: list[BaseRoute] = [
    Route("/hall", page(""), methods=["GET"]),
    Route("/hall/{eid}", page("board"), methods=["GET"]),
    Route("/hall/{eid}/director", page("director"), methods=["GET"]),
    Route("/hall/{eid}/report", page("report"), methods=["GET"]),
    Route("/hall/{eid}/play", page("play"), methods=["GET"]),
    Route("/hall/{eid}/print/{what}", printed, methods=["GET"]),
    Route("/api/hall", create, methods=["POST"]),
    Route("/api/hall/{eid}", board, methods=["GET"]),
    Route("/api/hall/{eid}/director", director, methods=["POST"]),
    Route("/api/hall/{eid}/register", action(register), methods=["POST"]),
    Route("/api/hall/{eid}/leave", action(leave), methods=["POST"]),
    Route("/api/hall/{eid}/rename", action(rename), methods=["POST"]),
    Route("/api/hall/{eid}/begin", action(begin), methods=["POST"]),
    Route("/api/hall/{eid}/report", action(report, tables=True), methods=["POST"]),
    Route("/api/hall/{eid}/correct", action(correct), methods=["POST"]),
    Route("/api/hall/{eid}/swap", action(swap), methods=["POST"]),
    Route("/api/hall/{eid}/close", action(close), methods=["POST"]),
    Route("/api/hall/{eid}/tie", action(tie), methods=["POST"]),
    Route("/api/hall/{eid}/seat", seat, methods=["POST"]),
    Route("/api/hall/{eid}/export/{fmt}", export, methods=["GET"]),
]


__all__ = ["KIND", "ROUTES", "Evenings", "Refused", "evenings_of", "make_evening",
           "settings_from_request", "winner_side"]
