"""The web server's routes: pages, the JSON API, the table's websocket.

The tables' routes are declared here (``ROUTES``; each handler finds the service on the
app's state); ``create_app(settings)`` builds the Starlette app of them, the score pad's
and the hall's (``pad.ROUTES``, ``hall.ROUTES``) over a ``Store`` and a ``Service``.
Every refusal is one line of JSON (``{"error": ...}``) for the API, a short page for a
person's browser; an unexpected failure is logged here and answered in one line, never
with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..rules import PRESETS, RulesError, build_rules, find_preset, option_specs
from ..table import (
    BOARD_PLAYED,
    BOARD_RECORD,
    BOARD_WATCHED,
    COMPUTER,
    EMPTY,
    OVER,
    TABLE_LEVELS,
    TableError,
)
from . import (
    account_api,
    account_data,
    club_api,
    drain,
    duplicate_sessions,
    games,
    hall,
    history,
    install,
    metrics,
    pad,
    passkeys,
    regulars,
    seasons,
)
from .accounts import Accounts
from .clubs import Clubs
from .guard import Door, Guard, with_headers
from .http import Refused, error, json_body
from .limits import RateLimited
from .logs import request_id
from .observe import Observe
from .pools import ParFailed, ParsEnded, pool_replay
from .replays import NotReplayed
from .service import Limits, Service
from .store import Store

log = logging.getLogger("forties.web")
HERE = Path(__file__).parent
STATIC = HERE / "static"
LOCALE = HERE / "locale"
LANGUAGES = ({"code": "en", "name": "English", "dir": "ltr"},
             {"code": "fr", "name": "Français", "dir": "ltr"},
             {"code": "ar", "name": "العربية", "dir": "rtl"})
BODY_MAX = 64 * 1024
RECORD_MAX = 4 * 1024 * 1024
STATUS = {"bad": 400, "invite": 404, "table": 404, "taken": 409, "started": 409,
          "token": 403, "rate": 429, "closed": 409}


@dataclass
class ServerSettings:
    """Where the server keeps its tables (a SQLAlchemy URL) and its limits."""

    db_url: str
    limits: Limits = field(default_factory=Limits)
    redis_url: str | None = None  # several processes: Redis tells each of the others' moves
    start_par: bool = False  # start the pars' process with the server (``forties serve``)
    # the site's address for the browsers (None: the address a page asks, where that is an
    # IP address), and the proxies whose X-Forwarded-For is believed (``web.guard``)
    public_url: str | None = None
    trusted_proxies: tuple[str, ...] = ()
    # who may read /metrics (networks; ``--metrics-allow``), and how the logs are written
    metrics_allow: tuple[str, ...] = metrics.LOOPBACK
    log_format: str = "text"


def page(title: str, text: str, status: int = 200, lang: str = "en",
         home: str = "Home", home_href: str = "/") -> HTMLResponse:
    """A short page of our own (used when the client's pages are not there, and for a
    table that does not exist), in ``lang`` (its texts already in that language)."""
    meta = next((x for x in LANGUAGES if x["code"] == lang), LANGUAGES[0])
    return HTMLResponse(
        f"<!doctype html><html lang=\"{meta['code']}\" dir=\"{meta['dir']}\"><head>"
        f"<meta charset=\"utf-8\">"
        f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{escape(title)}</title><link rel=\"stylesheet\" href=\"/static/page.css\">"
        f"</head><body><h1>{escape(title)}</h1><p>{escape(text)}</p>"
        f"<p><a href=\"{escape(home_href)}\">{escape(home)}</a></p></body></html>",
        status_code=status)


def request_language(request: Request) -> str:
    """The language a page asks for: ``?lang=`` as the pages read it, else the first of
    the browser's Accept-Language that we have, else English."""
    codes = [x["code"] for x in LANGUAGES]
    asked = request.query_params.get("lang", "")
    if asked in codes:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("accept-language", "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        code = tag.strip()[:2].lower()
        if code in codes and q > 0:
            ranked.append((-q, i, code))
    return min(ranked)[2] if ranked else "en"


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


# ----- the rules as a form --------------------------------------------------------------


def rules_form(preset: str) -> dict[str, Any]:
    p = find_preset(preset)
    rules = p.build({})
    values = rules.options()
    out = []
    for name, spec in option_specs(p.game).items():
        item: dict[str, Any] = {"name": name, "value": values.get(name), "help": spec.doc,
                                "label": name.replace("_", " ").capitalize(),
                                "help_id": f"option.{name}.help",
                                "label_id": f"option.{name}.label"}
        if spec.values is None:
            lo, hi = spec.int_range or (1, 10**6)
            item.update({"kind": "int", "min": lo, "max": hi})
        elif set(spec.values) <= {True, False} and all(isinstance(v, bool)
                                                        for v in spec.values):
            item["kind"] = "bool"
        else:
            item.update({"kind": "choice", "choices": list(spec.values)})
        out.append(item)
    return {"preset": p.name, "game": p.game, "options": out}


@functools.lru_cache(maxsize=8)
def messages_of(lang: str) -> dict[str, str]:
    """The messages of ``lang`` for the server's own pages (read once)."""
    return dict(catalog(lang)["messages"])


def catalog(lang: str) -> dict[str, Any]:
    """{"dir", "messages"} read from locale/LANG.po (an empty catalog where none is)."""
    meta = next(x for x in LANGUAGES if x["code"] == lang)
    path = LOCALE / f"{lang}.po"
    messages: dict[str, str] = {}
    if path.is_file():
        with open(path, "rb") as f:
            for m in read_po(f):
                if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string:
                    messages[m.id] = m.string
    return {"lang": lang, "dir": meta["dir"], "messages": messages}


# ----- the routes ---------------------------------------------------------------------------
# Every handler finds the app's service (and through it the store) on ``app.state``.


def service_of(request: Request | WebSocket) -> Service:
    service: Service = request.app.state.service
    return service


async def static_page(name: str, title: str) -> Response:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return page(title, "The browser client is not installed with this copy of forties.")


async def home(request: Request) -> Response:
    return await static_page("index.html", "forties")


async def table_page(request: Request) -> Response:
    table_id = request.path_params["id"]
    if await service_of(request).live(table_id) is None:
        lang = request_language(request)
        words = messages_of(lang)
        return page(words.get("missing.title", "No such table"),
                    words.get("missing.text", "There is no table at this address: it may "
                              "have expired before anyone sat down. Start a new one from "
                              "the home page."),
                    404, lang, words.get("table.home_text", "Home"),
                    f"/?lang={lang}" if "lang" in request.query_params else "/")
    return await static_page("table.html", "forties: a table")


async def replay_page(request: Request) -> Response:
    return await static_page("replay.html", "forties: replay")


async def presets(request: Request) -> Response:
    out = []
    for p in PRESETS.values():
        r = p.build({})
        out.append({"name": p.name, "title": p.name.replace("-", " ").title(),
                    "game": p.game, "players": r.players, "summary": p.summary})
    return JSONResponse(out)


async def rules_get(request: Request) -> Response:
    name = request.query_params.get("preset")
    if not name:
        return error(400, "say which preset: /api/rules?preset=NAME")
    try:
        return JSONResponse(rules_form(name))
    except RulesError as e:
        return error(400, str(e))


async def rules_post(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    preset, options = body.get("preset"), body.get("options", {})
    if not isinstance(preset, str):
        return error(400, "preset must be the name of a preset")
    if not isinstance(options, dict):
        return error(400, "options must be an object of name: value")
    try:
        return JSONResponse({"rules": build_rules(preset, options).to_json()})
    except RulesError as e:
        return error(400, str(e))


async def limit(request: Request, kind: str = "tables") -> None:
    """One more ``kind`` (``limits.Rates``) from the request's address, or 429."""
    await service_of(request).rates.take(kind, client_of(request))


async def play_now(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    await limit(request)
    preset = body.get("preset")
    level = body.get("level", "basic")
    if level not in TABLE_LEVELS:
        return error(400, f"level must be one of {', '.join(TABLE_LEVELS)}")
    try:
        rules = build_rules(preset, body.get("options") or {}) if isinstance(preset, str) \
            else None
    except (RulesError, AttributeError) as e:
        return error(400, str(e) if isinstance(e, RulesError) else "options must be an "
                     "object of name: value")
    if rules is None:
        return error(400, "preset must be the name of a preset")
    seats = [{"kind": "person", "name": body.get("name") or "You"}]
    seats += [{"kind": "computer", "level": level}] * (rules.players - 1)
    made = await service_of(request).create_table(str(preset), body.get("options") or {},
                                                  seats, public=False, start=True,
                                                  settings={"level": level, "hints": True})
    token = made["tokens"][0]
    await games.games_of_app(request).link_request(request, made["table"], 0)
    return JSONResponse({"table": made["table"], "token": token, "seat": 0,
                         "url": f"/t/{made['table']}#token={token}"})


async def new_table(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    await limit(request)
    conf: dict[str, Any] = {}
    for key in ("hints", "turn_seconds", "level", "rated"):
        if key in body:
            conf[key] = body[key]
    public = body.get("public", False)
    if not isinstance(public, bool):
        return error(400, "public must be true or false")
    preset = body.get("preset")
    if not isinstance(preset, str):
        return error(400, "preset must be the name of a preset")
    service = service_of(request)
    made = await service.create_table(
        preset, body.get("options") or {},
        [{"kind": "person", "name": body.get("name") or "Host"}], public=public,
        start=False, settings=conf)
    table_id, token = made["table"], made["tokens"][0]
    await games.games_of_app(request).link_request(request, table_id, 0)
    live = await service.live(table_id)
    assert live is not None
    side_of = live.table.state.side_of
    invites = [{"seat": s, "team": side_of[s], "url": f"/t/{table_id}#invite={code}"}
               for s, code in sorted(made["invites"].items())]
    return JSONResponse({"table": table_id, "token": token, "seat": 0,
                         "url": f"/t/{table_id}#token={token}", "invites": invites})


async def join(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    await limit(request, "joins")
    table_id = request.path_params["id"]
    await regulars.regulars_of(request.app.state).may_join(request, table_id)
    got = await service_of(request).join(table_id, body.get("invite"), body.get("name"),
                                         body.get("seat"))
    await games.games_of_app(request).link_request(request, table_id, got["seat"])
    return JSONResponse({"token": got["token"], "seat": got["seat"],
                         "url": f"/t/{table_id}#token={got['token']}"})


async def seat(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    await service_of(request).host_seat(request.path_params["id"], body.get("token"),
                                        body.get("seat"), body.get("level"))
    return await table_summary(request)


async def start(request: Request) -> Response:
    body = await json_body(request, BODY_MAX)
    await service_of(request).host_start(request.path_params["id"], body.get("token"))
    return await table_summary(request)


async def table_summary(request: Request) -> Response:
    live = await service_of(request).live(request.path_params["id"])
    if live is None:
        return error(404, "there is no such table")
    return JSONResponse(live.table.summary(None, False))


async def table_record(request: Request) -> Response:
    await limit(request, "records")
    live = await service_of(request).live(request.path_params["id"])
    if live is None:
        return error(404, "there is no such table")
    if live.table.board is not None:  # a duplicate board's cards: its own seats only
        token = request.query_params.get("token")
        seat = await service_of(request).seat_of(live.table.id, token) if token else None
        if seat is None:
            return error(403, BOARD_RECORD, "board")
        if live.table.status != OVER:
            return error(403, BOARD_PLAYED, "board")
    return JSONResponse(live.table.public_record())


async def replay(request: Request) -> Response:
    """A record's steps, worked out in the replays' process (``limits``: at most
    ``replay_hands`` hands, ``replay_answer_bytes`` of answer, ``replays_waiting`` at
    once), so that the event loop and ``/healthz`` never wait on it: the body (up to
    4 MB) is read as JSON there too."""
    service = service_of(request)
    lim = service.limits
    if service.replaying >= lim.replays_waiting:
        return error(503, "the server is busy with other replays: try again shortly",
                     "busy")
    service.replaying += 1  # (before the count is taken: no other replay slips in)
    try:
        await limit(request, "replays")
        raw = await request.body()  # (at most RECORD_MAX: ``guard.Guard``)
        if len(raw) > RECORD_MAX:
            return error(413, f"the request is too large (at most {RECORD_MAX // 1024} KiB)")
        # read as JSON, checked and replayed in the replays' process, never on the loop
        answer = await service.pools.replays.run(pool_replay, raw, lim.replay_hands,
                                                 lim.replay_answer_bytes)
    except NotReplayed as e:
        return error(e.status, e.message)
    except RateLimited as e:  # (a RuntimeError too: not the replays' process failing)
        return error(429, e.message, e.code)
    except (ParsEnded, ParFailed, RuntimeError):
        return error(503, "the replay could not be worked out now: try again shortly",
                     "busy")
    finally:
        service.replaying -= 1
    return Response(answer, media_type="application/json")


async def lobby(request: Request) -> Response:
    service = service_of(request)
    out = []
    for row in await service.store.lobby():
        live = await service.live(row["id"])
        if live is None:
            continue
        t = live.table
        out.append({"table": t.id, "preset": t.rules.preset,
                    "game": t.rules.game,
                    "seats": [{"name": s.name, "kind": s.kind}
                              | ({"level": s.level} if s.kind == COMPUTER else {})
                              | ({"url": f"/t/{t.id}#seat={i}"} if s.kind == EMPTY else {})
                              for i, s in enumerate(t.seats)],
                    "rated": bool(t.settings.rated), "created": row["created"]})
    return JSONResponse(out)


async def languages(request: Request) -> Response:
    return JSONResponse(list(LANGUAGES))


async def i18n(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in {x["code"] for x in LANGUAGES}:
        return error(404, f"no language {lang[:20]!r}: "
                     f"{', '.join(x['code'] for x in LANGUAGES)}")
    try:
        return JSONResponse(catalog(lang))
    except Exception:
        log.exception("the %s catalog cannot be read", lang)
        return error(500, f"the {lang} message catalog cannot be read")


async def healthz(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def ws(websocket: WebSocket) -> None:
    await websocket_session(service_of(websocket), websocket)


ROUTES: list[BaseRoute] = [
    Route("/", home),
    Route("/t/{id}", table_page),
    Route("/replay", replay_page),
    Route("/api/presets", presets),
    Route("/api/rules", rules_get, methods=["GET"]),
    Route("/api/rules", rules_post, methods=["POST"]),
    Route("/api/play", play_now, methods=["POST"]),
    Route("/api/tables", new_table, methods=["POST"]),
    Route("/api/tables/{id}/join", join, methods=["POST"]),
    Route("/api/tables/{id}/seat", seat, methods=["POST"]),
    Route("/api/tables/{id}/start", start, methods=["POST"]),
    Route("/api/tables/{id}", table_summary),
    Route("/api/tables/{id}/record", table_record),
    Route("/api/replay", replay, methods=["POST"]),
    Route("/api/lobby", lobby),
    Route("/api/languages", languages),
    Route("/i18n/{lang}.json", i18n),
    Route("/healthz", healthz),
    Route("/readyz", drain.readyz),
    Route("/metrics", metrics.metrics_page),
    WebSocketRoute("/ws/{id}", ws),
    Mount("/static", app=StaticFiles(directory=STATIC, check_dir=False), name="static"),
]


# ----- how a refusal and a failure are answered ------------------------------------------


async def on_rate(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RateLimited)
    return error(429, exc.message, exc.code)


async def on_refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)
    return error(exc.status, exc.message, exc.code)


async def on_table_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, TableError)
    return error(STATUS.get(exc.code, 400), exc.reason, exc.code)


async def on_http(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    words = {404: "there is no such page", 405: "that method is not allowed here"}.get(
        exc.status_code, str(exc.detail).splitlines()[0] if exc.detail else "refused")
    if request.url.path.startswith(("/api/", "/i18n/")) or \
            "text/html" not in request.headers.get("accept", ""):
        return error(exc.status_code, words)
    return page("Not here", words[0].upper() + words[1:] + ".", exc.status_code)


async def on_crash(request: Request, exc: Exception) -> Response:
    rid = request_id()
    log.error("%s %s failed (request %s)", request.method, request.url.path, rid,
              exc_info=exc)
    answer = error(500, "something went wrong on the server (it has been logged)")
    if rid:
        answer.headers["X-Request-Id"] = rid
    return answer


# ----- the app ----------------------------------------------------------------------------


def body_limit(path: str) -> int:
    """The most bytes of a request's body to ``path`` (``guard.Guard`` refuses more before
    it is read; each route reads with the same limit)."""
    if path == "/api/replay":
        return RECORD_MAX
    if path.startswith("/api/pads"):
        return pad.MAX_BODY
    if path.startswith("/api/hall"):
        return hall.MAX_BODY
    if path.startswith("/api/dup"):
        return duplicate_sessions.MAX_BODY
    if path.startswith(passkeys.PREFIXES):
        return passkeys.BODY_MAX
    if path.startswith("/api/account"):
        return account_api.BODY_MAX
    if path.startswith("/api/regulars"):
        return regulars.BODY_MAX
    if path.startswith("/api/history"):
        return history.BODY_MAX
    if path.startswith("/api/clubs"):
        return club_api.BODY_MAX
    return BODY_MAX


def create_app(settings: ServerSettings) -> Starlette:
    """The app: the tables' routes, the score pad's and the hall's, over one service."""
    store = Store(settings.db_url)
    service = Service(store, settings.limits)
    if settings.redis_url:
        from .bus import Bus
        from .owners import Owners

        service.bus = Bus(settings.redis_url)
        service.owners = Owners(service.bus.redis, service.bus.origin)
        service.rates.share(service.bus.redis)  # (every process counts the same minutes)

    index = games.Games(store)
    index.wire(service)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await service.start()
        indexing = asyncio.create_task(index.keep_indexing(service.limits.sweep_seconds))
        if settings.start_par and service.limits.par:
            service.par_pool.start()
        hands = None
        if service.owners is not None:  # the connections the other processes hand over
            from .relay import taking_hands

            hands = asyncio.create_task(taking_hands(service.owners))
        try:
            yield
        finally:
            indexing.cancel()
            if hands is not None:
                hands.cancel()
            await service.close()
            await asyncio.get_running_loop().run_in_executor(None, store.close)

    door = Door(settings.public_url, settings.trusted_proxies, body_limit,
                settings.limits.websockets_per_address)
    metrics.count_errors()
    app = Starlette(routes=[*ROUTES, *pad.ROUTES, *hall.ROUTES, *install.ROUTES,
                            *duplicate_sessions.ROUTES,
                            *account_api.ROUTES, *passkeys.ROUTES, *games.ROUTES,
                            *account_data.ROUTES,
                            *regulars.ROUTES, *club_api.ROUTES, *seasons.ROUTES,
                            *history.ROUTES],
                    lifespan=lifespan, exception_handlers={
                        Refused: on_refused, RateLimited: on_rate,
                        TableError: on_table_error,
                        HTTPException: on_http, Exception: with_headers(on_crash, door)})
    app.add_middleware(Guard, door=door)
    # (outside the guard: its refusals too are logged and counted, with a request id)
    app.add_middleware(Observe, tables=lambda: service.tables)
    app.state.service = service
    app.state.store = store
    app.state.accounts = Accounts(store, secure=(settings.public_url or "").startswith(
        "https:"))
    app.state.games = index
    app.state.regulars = regulars.Regulars(store, service, app.state.accounts, index)
    app.state.clubs = Clubs(store)
    app.state.door = door
    app.state.metrics_allow = metrics.networks(settings.metrics_allow)
    # what a server told to stop runs first (``forties.web.serving``)
    app.state.drain = functools.partial(drain.drain, service, settings.limits.drain_seconds)
    app.state.rates = service.rates  # (the pads' and the evenings' limits too)
    return app


def open_doors(app: Starlette) -> None:
    """With several processes: bind this server process's private door, through which
    the others hand it the websockets of the tables it runs (``forties.web.relay``)."""
    owners = app.state.service.owners
    if owners is not None:
        from .relay import open_door

        open_door(owners)


async def websocket_session(service: Service, websocket: WebSocket) -> None:
    """One connection to a table: a seat by its token (none: a spectator)."""
    table_id = websocket.path_params["id"]
    if service.draining:  # come back to whichever server is up
        await websocket.close(drain.RESTART, "the server is restarting")
        return
    if service.owners is not None:  # several processes: only the table's owner runs it
        from .relay import route

        if await route(service.owners, websocket, table_id):
            return  # handed over whole to the process that runs the table
    if websocket.client_state == WebSocketState.CONNECTING:
        await websocket.accept()

    async def refuse(code: str, message: str, close: int) -> None:
        await websocket.send_text(json.dumps({"type": "error", "code": code,
                                              "message": message}))
        await websocket.close(close)

    live = await service.live(table_id)
    if live is None:
        await refuse("table", "there is no such table", 4404)
        return
    token = websocket.query_params.get("token")
    seat = None
    if token:
        seat = await service.seat_of(table_id, token)
        if seat is None:
            await refuse("token", "that link does not open a seat at this table", 4403)
            return
    if seat is None and live.table.board is not None:
        await refuse("board", BOARD_WATCHED, 4403)
        return
    if not service.open_seat(live, seat):
        await refuse("connections", f"this seat has {service.limits.seat_connections} "
                     f"connections open already: close one (a tab or a phone) and reload",
                     4429)
        return
    conn = service.connect(seat, token, websocket.client.host if websocket.client else "")
    # the account its cookie signs in: online while it stays; it hears no chat of those
    # it blocks (``web.regulars``)
    regular = regulars.regulars_of(websocket.app.state)
    seen = await regular.connected(conn, websocket, live)

    async def writer() -> None:
        while True:
            text = await conn.queue.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await websocket.close(conn.close_code)
                return
            await websocket.send_text(text)

    sender = asyncio.create_task(writer())
    try:
        while not conn.closed:
            msg = await websocket.receive()
            if msg["type"] == "websocket.disconnect":
                break
            raw = msg.get("text")
            if raw is None:
                data = msg.get("bytes") or b""
                if len(data) > service.limits.message_bytes:
                    conn.error("size", f"a message may be at most "
                                       f"{service.limits.message_bytes} bytes")
                    continue
                try:
                    raw = data.decode("utf-8")
                except UnicodeDecodeError:
                    conn.error("bad", "messages are JSON text")
                    continue
            await service.receive(conn, live, raw)
    except (WebSocketDisconnect, RuntimeError):
        pass
    except Exception:
        log.exception("a connection to table %s failed", table_id)
    finally:
        service.leave(conn)
        service.close_seat(live, seat)
        regular.disconnected(conn)
        if seen is not None:
            seen.cancel()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender
