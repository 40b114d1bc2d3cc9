"""Duplicate sessions on the web (``/dup``, ``/api/dup``): every table plays the same
boards, and each partnership's result on a board is compared with every other result on
it (``forties.duplicate``: the boards, the movement, matchpoints).

A session is a document of kind ``duplicate`` in the server's store: the pure session
(``Session.to_json``: partnerships, boards with their cards, movement, results), the
game and its rules, the SHA-256 of the director's key, the tables' key (for the phones
that report results in the hall), the partnerships' play keys (online) and the web tables
made for the boards. Every change reads the document, applies one step (checked by
``forties.duplicate``, which says in one line why it cannot be done) and writes it back
with compare-and-set, so two phones reporting at once never lose a result.

Who may do what: the director's link (``/dup/ID/director#key=...``) sees everything the
players may, prints the board slips, corrects results; the tables' link
(``/dup/ID/report#key=...``) reports each board's scores in the hall; a partnership's
link (``/dup/ID/play#key=...``) finds its table online; anyone with the session's number
sees the session page (``/dup/ID``), the boards every table has played, the standings over
them, and the recap. See ``duplicate_views`` for what stays hidden until when.

In the hall, the tables deal from printed board slips (``/dup/ID/print/slips``, the
director's) and report from a phone. Online, see ``duplicate_online``.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..advice import contract_start
from ..duplicate import (
    MAX_BOARDS,
    DuplicateError,
    Pair,
    Session,
    board_slip,
    check_contract,
    contract_scores,
    contract_words,
    make_boards,
    movement,
    possible_scores,
)
from ..rules import Rules, RulesError, build_rules, rules_from_json
from ..state import DealKey, GameState
from . import duplicate_views as views
from .clubs import add_event, check_id, clubs_of, parse_when, signed_in_director
from .duplicate_online import online_of
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
from .limits import Rates
from .secret import NoSecret, SiteSecret
from .text import TITLE_MAX, clean_json, is_key, line, same_digest, same_key, shown

KIND = "duplicate"
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
MAX_PAIRS = 40  # partnerships in one session (20 tables)
NAME_MAX = 60
GAMES = ("merrimack-valley", "auction-45", "forty-one")
GAME_NAMES = {"merrimack-valley": "Merrimack Valley", "auction-45": "Auction 45",
              "forty-one": "Forty One"}
LEVELS = ("random", "basic", "expert")
MODES = ("hall", "online")
IDLE_SECONDS = 600.0
ONLINE_SLIPS = ("an online session's boards are dealt at their tables: nobody, the director "
                "neither, sees a board's cards before every table has played it")
IN_PLAY = ("board {board} at table {table} is being played at its table: its result comes "
           "in when the hand ends")
PAGES = {"": "dup.html", "session": "dup-session.html", "director": "dup-director.html",
         "report": "dup-report.html", "play": "dup-play.html", "board": "dup-board.html",
         "slips": "dup-slips.html", "recap": "dup-recap.html"}


# ----- reading requests ------------------------------------------------------------------

async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY, empty_is_nothing=True)


def _int(obj: dict[str, Any], key: str, low: int, high: int) -> int:
    v = obj.get(key)
    if type(v) is not int or not low <= v <= high:
        raise Refused(f"{key} must be a whole number from {low} to {high}, not "
                      f"{json.dumps(v)[:40]}")
    return v


def _level(v: Any, what: str) -> str | None:
    if v is None:
        return None
    if v not in LEVELS:
        raise Refused(f"{what} must be null or a computer level: {', '.join(LEVELS)}")
    return str(v)


def _valid_id(sid: str) -> bool:
    return 4 <= len(sid) <= 40 and sid.isascii() and all(c.isalnum() or c in "-_" for c in sid)


def _rules(obj: dict[str, Any]) -> Rules:
    game = obj.get("game")
    options = obj.get("options", {})
    if game not in GAMES:
        raise Refused(f"game must be one of {', '.join(GAMES)}")
    if not isinstance(options, dict):
        raise Refused("options must be an object")
    try:
        return build_rules(str(game), options)
    except RulesError as e:
        raise Refused(str(e)) from None


def _partnerships(obj: dict[str, Any], online: bool
                  ) -> tuple[list[Pair], dict[str, dict[str, Any]]]:
    """The partnerships asked for, and what each keeps beyond its ``Pair`` (its one
    computer seat's level)."""
    raw = obj.get("partnerships")
    if not isinstance(raw, list) or not 3 <= len(raw) <= MAX_PAIRS:
        raise Refused(f"partnerships must be a list of 3 to {MAX_PAIRS}")
    pairs: list[Pair] = []
    extra: dict[str, dict[str, Any]] = {}
    for n, p in enumerate(raw, 1):
        if not isinstance(p, dict) or set(p) - {"name", "computer", "one_computer"}:
            raise Refused(f"partnership {n} must be an object with a name (and, online, "
                          "computer or one_computer: a level)")
        name = p.get("name")
        if not isinstance(name, str) or len(name) > 4 * NAME_MAX:
            raise Refused(f"partnership {n}'s name must be text of at most {NAME_MAX} "
                          "characters")
        name = line(name, NAME_MAX)
        if not shown(name):  # (nothing, or only zero-width characters)
            raise Refused(f"partnership {n} needs a name")
        computer = _level(p.get("computer"), f"partnership {n}'s computer")
        one = _level(p.get("one_computer"), f"partnership {n}'s one_computer")
        if (computer or one) and not online:
            raise Refused("in the hall every seat is a person's: computer players only "
                          "play online")
        if computer and one:
            raise Refused(f"partnership {n} is computers, or has one computer seat, not both")
        pairs.append(Pair(n, name, computer))
        if one:
            extra[str(n)] = {"one_computer": one}
    return pairs, extra


def make_session(obj: dict[str, Any]) -> tuple[Rules, Session, dict[str, dict[str, Any]]]:
    """The session a director's form asks for; raises Refused in one line."""
    known = {"title", "game", "options", "boards", "mode", "fill", "partnerships", "club",
             "when"}
    extra = sorted(set(obj) - known)
    if extra:
        raise Refused(f"unknown setting {extra[0]!r}")
    rules = _rules(obj)
    mode = obj.get("mode", "hall")
    if mode not in MODES:
        raise Refused(f"mode must be {' or '.join(MODES)}")
    count = _int(obj, "boards", 1, MAX_BOARDS)
    pairs, more = _partnerships(obj, mode == "online")
    fill = _level(obj.get("fill"), "fill")
    if fill and mode != "online":
        raise Refused("in the hall every seat is a person's: computer players only play "
                      "online (an odd count sits one partnership out each round)")
    try:
        move = movement(len(pairs), count, fill=fill)
        if move.filled is not None:
            pairs.append(Pair(move.filled, "Computer players", fill))
        return rules, Session(tuple(pairs), make_boards(rules, count, DealKey.new()),
                              move), more
    except DuplicateError as e:
        raise Refused(str(e)) from None


def check_scores(rules: Rules, ns: Any, ew: Any) -> tuple[int, int]:
    """A table's two scores on a board, if one hand of the game can give them."""
    for who, v in (("N-S", ns), ("E-W", ew)):
        if type(v) is not int or abs(v) > 10_000:
            raise Refused(f"{who}'s score must be a whole number, not {json.dumps(v)[:40]}")
    if (ns, ew) not in possible_scores(rules):
        raise Refused(f"N-S {ns} and E-W {ew} cannot both be scored on one hand of "
                      f"{GAME_NAMES.get(rules.preset, rules.preset)}", code="score")
    return ns, ew


# ----- the sessions' documents -----------------------------------------------------------


Read = tuple[int, dict[str, Any], Session]


class Sessions:
    """The duplicate sessions' routes over one service: its store, its tables (online),
    a lock per session being changed, the last session read of each (forgotten after
    ``IDLE_SECONDS`` nobody asked)."""

    def __init__(self, service: Tables, rates: Rates | None = None) -> None:
        self.service = service
        self.rates = rates or Rates()
        self.store = service.store
        self.secret = SiteSecret(self.store)
        self.locks = Turns()
        self.cache: dict[str, Read] = {}
        self.used: dict[str, float] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.problems: dict[str, str] = {}
        self._pruned = time.monotonic()
        self.online: Any = None  # (duplicate_online.Online, made on first use)

    def prune(self) -> None:
        now = time.monotonic()
        self._pruned = now
        for sid in [s for s, at in self.used.items() if now - at >= IDLE_SECONDS]:
            if sid not in self.locks:
                for kept in (self.used, self.cache, self.problems):
                    kept.pop(sid, None)
        self.rates.prune()

    async def _get(self, sid: str) -> tuple[int, dict[str, Any]]:
        if time.monotonic() - self._pruned >= 60:
            self.prune()
        got = await self.store.get_doc(KIND, sid) if _valid_id(sid) else None
        if got is None:
            raise Refused(f"there is no session {sid[:40]!r}", 404)
        self.used[sid] = time.monotonic()
        return got

    @staticmethod
    def _session(body: dict[str, Any]) -> Session:
        try:
            return Session.from_json(body["session"])
        except (DuplicateError, KeyError, TypeError) as e:
            raise Refused(f"the session cannot be read: {e}", 500) from None

    async def read(self, sid: str) -> Read:
        """The session to read, not to change: read once per version."""
        version, body = await self._get(sid)
        cached = self.cache.get(sid)
        if cached is not None and cached[0] == version:
            return cached
        body = clean_json(body)
        got = (version, body, self._session(body))
        self.cache[sid] = got
        return got

    async def change(self, sid: str,
                     step: Callable[[dict[str, Any], Session], Awaitable[Any]]) -> Any:
        """Apply ``step(body, session)`` and store the result (compare-and-set, read and
        applied again if another process wrote first). A DuplicateError is one line."""
        async def change() -> tuple[int, dict[str, Any], Any]:
            version, body = await self._get(sid)
            body = clean_json(body)
            session = self._session(body)
            try:
                result = await step(body, session)
            except DuplicateError as e:
                raise Refused(str(e), 409) from None
            body["session"] = session.to_json()
            return version, body, result

        async with self.locks.of(sid):
            _, result = await compare_and_set(self.store, KIND, sid, change,
                                              Refused("the session is busy: try again",
                                                      503))
            return result

    async def limit(self, address: str, kind: str) -> None:
        await self.rates.take(kind, address)

    @staticmethod
    def check_key(body: dict[str, Any], key: Any, *, tables: bool = False) -> str:
        """'director' or 'tables' for a right key; Refused (403) otherwise."""
        if same_digest(key, body.get("director")):
            return "director"
        if tables and same_key(key, body.get("tables")):
            return "tables"
        who = "the director's or the tables'" if tables else "the director's"
        raise Refused(f"this link is not {who}: ask the director for the right one", 403)

    @staticmethod
    def player_of(body: dict[str, Any], key: Any) -> dict[str, Any] | None:
        """{"pair", "member"} of the play key ``key``, if it is one of the session's."""
        if not is_key(key):
            return None
        for k, who in (body.get("players") or {}).items():
            if same_key(key, k):
                return dict(who)
        return None

    async def view(self, sid: str) -> dict[str, Any]:
        version, body, session = await self.read(sid)
        if body["mode"] == "online":
            await online_of(self).poll(sid, body, session)
            version, body, session = await self.read(sid)
        out = views.public_view(sid, version, body, session)
        if sid in self.problems:
            out["note"] = self.problems[sid]
        return out


def sessions_of(request: Request) -> Sessions:
    state = request.app.state
    got: Sessions | None = getattr(state, "dup_sessions", None)
    if got is None:
        got = state.dup_sessions = Sessions(state.service, rates_of(state))
    return got


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def links(sid: str, body: dict[str, Any]) -> dict[str, Any]:
    """What the director hands out: the tables' link (hall) and each partnership's."""
    out: dict[str, Any] = {"page": f"/dup/{sid}", "recap": f"/dup/{sid}/recap",
                           "players": []}
    if body["mode"] == "hall":  # (online, the tables deal the boards: no slips)
        out["slips"] = f"/dup/{sid}/print/slips"
        out["report"] = f"/dup/{sid}/report#key={body['tables']}"
    for key, who in (body.get("players") or {}).items():
        out["players"].append({"pair": who["pair"], "member": who["member"],
                               "url": f"/dup/{sid}/play#key={key}"})
    out["players"].sort(key=lambda p: (p["pair"], p["member"]))
    return out


# ----- the routes ------------------------------------------------------------------------

def page(name: str) -> Handler:
    async def show(request: Request) -> Response:
        sid = request.path_params.get("sid")
        if sid is not None and not _valid_id(sid):
            return HTMLResponse("<p>No such session.</p>", status_code=404)
        return FileResponse(STATIC / PAGES[name], media_type="text/html")
    return show


async def from_club(request: Request, obj: dict[str, Any]) -> tuple[str, float] | None:
    """A session made from a club (``obj["club"]``): only by a signed-in director of the
    club; the club's house rules are its game unless it names one (and their options
    unless it names its own), and it enters the club's calendar ``obj["when"]`` (UTC;
    default: now). The club's id and the calendar's time; None for no club."""
    club_id = obj.get("club")
    if club_id is None:
        return None
    if not await signed_in_director(request, check_id(club_id)):
        raise Refused("only a director of the club, signed in, makes its sessions", 403)
    clubs = clubs_of(request.app.state)
    club = await clubs.club(club_id)
    if "game" not in obj:
        if club.preset not in GAMES:
            raise Refused(f"the club's house rules are {club.preset}: choose a duplicate "
                          f"game ({', '.join(GAMES)})")
        obj["game"] = club.preset
    if "options" not in obj and obj["game"] == club.preset:
        obj["options"] = dict(club.options)
    when = time.time() if obj.get("when") is None else parse_when(obj["when"])
    await clubs.has_room(club.id)
    return club.id, when


@one_line()
async def create(request: Request) -> Response:
    ss = sessions_of(request)
    address = _address(request)
    obj = await _body(request)
    club = await from_club(request, obj)
    title = obj.get("title", "")
    if not isinstance(title, str) or len(title) > 4 * TITLE_MAX:
        raise Refused(f"title must be text of at most {TITLE_MAX} characters")
    rules, session, more = make_session(obj)
    await ss.limit(address, "duplicates")  # (the sessions made are counted, not refusals)
    try:
        maker = (await ss.secret.keyed(address))[:32]
    except NoSecret as e:
        raise Refused(f"the server cannot make sessions now ({e}): try again later",
                      503) from None
    sid = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    director = secrets.token_urlsafe(18)
    online = obj.get("mode", "hall") == "online"
    players = {}
    for p in session.partnerships if online else ():
        for member in (0, 1):  # (a computer seat, a partnership's second, has no key)
            if p.computer is None and not (member == 1 and str(p.number) in more):
                players[secrets.token_urlsafe(12)] = {"pair": p.number, "member": member}
    body: dict[str, Any] = {
        "session": session.to_json(), "title": line(title, TITLE_MAX),
        "game": rules.preset, "rules": rules.to_json(), "mode": "online" if online else "hall",
        "director": digest(director), "tables": secrets.token_urlsafe(12),
        "players": players, "pairs": more, "club": None if club is None else club[0],
        "online": {"tables": {}, "plays": {}} if online else None,
        "maker": maker, "made": int(time.time())}
    await ss.store.put_doc(KIND, sid, body, 0)
    if club is not None:
        await add_event(clubs_of(request.app.state), club[0], "duplicate", sid,
                        body["title"] or "Duplicate session", club[1], body["mode"])
    if online:
        await online_of(ss).begin(sid)
    return JSONResponse({"session": sid, "key": director,
                         "url": f"/dup/{sid}/director#key={director}", **links(sid, body)})


@one_line()
async def show_session(request: Request) -> Response:
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    out = await ss.view(sid)
    if request.query_params.get("since") == str(out["version"]):
        return JSONResponse({"version": out["version"], "same": True})
    return JSONResponse(out)


@one_line()
async def director(request: Request) -> Response:
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    obj = await _body(request)
    _, body, _ = await ss.read(sid)
    who = "director" if await signed_in_director(request, body.get("club")) else \
        ss.check_key(body, obj.get("key"), tables=True)
    if who != "director":
        return JSONResponse({"role": "tables"})
    return JSONResponse({"role": "director", **links(sid, body)})


def _where(session: Session, obj: dict[str, Any]) -> tuple[int, int]:
    """The board and table a report names (and the round, when it names one: the board
    must be that round's)."""
    board = _int(obj, "board", 1, len(session.boards))
    table = _int(obj, "table", 1, MAX_PAIRS)
    rnd = session.movement.round_of(board)
    if "round" in obj:
        r = _int(obj, "round", 1, len(session.movement.rounds))
        if r != rnd.number:
            raise Refused(f"board {board} is not played in round {r} (it is round "
                          f"{rnd.number}'s)")
    if table > len(rnd.tables):
        raise Refused(f"round {rnd.number} is played at tables 1 to {len(rnd.tables)}, "
                      f"not {table}")
    return board, table


def scored(step: Callable[[dict[str, Any], dict[str, Any], Session], Any], *,
           tables: bool) -> Handler:
    """A route that changes a session's results, on the director's key (or the tables')."""
    @one_line()
    async def run(request: Request) -> Response:
        ss = sessions_of(request)
        sid = request.path_params["sid"]
        obj = await _body(request)
        _, first, _ = await ss.read(sid)
        club = first.get("club")
        by_club = await signed_in_director(request, club)

        async def apply(body: dict[str, Any], session: Session) -> Any:
            obj["_who"] = "director" if by_club and body.get("club") == club else \
                ss.check_key(body, obj.get("key"), tables=tables)
            out = step(obj, body, session)
            await _not_in_play(ss, body, obj)  # (a request checked: nothing written yet)
            return out

        result = dict(await ss.change(sid, apply) or {})
        par = result.pop("_par", None)
        if par is not None:  # (worked out in the pars' process, kept when it comes)
            where, state, asked, more = par
            online_of(ss).ask_par(sid, where, state, asked, **more)
        out = await ss.view(sid)
        return JSONResponse({"ok": True, "version": out["version"], **result})
    return run


async def _not_in_play(ss: Sessions, body: dict[str, Any], obj: dict[str, Any]) -> None:
    """Refused (409) where an online board table still plays the board and table that
    ``obj`` reports: a result put in by hand would show the board (every table done) to
    the people still playing it. A board table the service no longer knows, or one not
    made, the director reports by hand."""
    if body["mode"] != "online":
        return
    board, table = obj.get("board"), obj.get("table")
    if type(board) is not int or type(table) is not int:
        return  # (refused in one line by the step)
    info = (body.get("online") or {}).get("tables", {}).get(f"{board}/{table}") or {}
    if not isinstance(info.get("table"), str):
        return
    summary = await ss.service.table_summary(info["table"])
    if isinstance(summary, dict) and summary.get("status") not in ("over", "closed"):
        raise Refused(IN_PLAY.format(board=board, table=table), 409, code="playing")


def _contract(obj: dict[str, Any], body: dict[str, Any], session: Session, board: int,
              ns: int, ew: int) -> tuple[dict[str, Any] | None, GameState | None]:
    """The contract a hall table reports beside its scores (optional: see
    ``docs/web-protocol.md``), checked against the game: a bid the game allows, scores
    the contract can give; and, from the director, against the board: a trump the bidder
    may name with its cards (from the tables' phone, whose answer must not depend on the
    board's cards, such a contract is kept with no par). With the hand at its first
    lead, for its par (None: thrown in, or not playable with the board's cards)."""
    raw = obj.get("contract")
    if raw is None:
        return None, None
    if body["mode"] == "online":
        raise Refused("an online table's contract is its own play's: send only the scores")
    rules = rules_from_json(body["rules"])
    try:
        contract = check_contract(rules, raw)
    except DuplicateError as e:
        raise Refused(str(e)) from None
    if (ns, ew) not in contract_scores(rules, contract):
        raise Refused(f"N-S {ns} and E-W {ew} cannot be scored on {contract_words(contract)}",
                      code="contract")
    b = session.boards[board - 1]
    try:
        return contract, contract_start(rules, b.deal, b.dealer, contract)
    except ValueError as e:
        if obj.get("_who") == "director":  # (who printed the slips: no secret to keep)
            raise Refused(f"board {board}: {e}", code="trump") from None
        # the tables' phone is any player's: a refusal would tell him of the board's
        # cards ("North holds no spade") before he has played it; kept without a par
        return contract, None


def _keep_contract(body: dict[str, Any], board: int, table: int,
                   contract: dict[str, Any] | None, state: GameState | None,
                   out: dict[str, Any]) -> None:
    """A hall table's contract kept for the board page (and its par asked for), or the
    one it had taken out (a correction without a contract)."""
    if body["mode"] == "online":
        return
    plays = views.plays_of(body)
    where = f"{board}/{table}"
    plays.pop(where, None)
    if contract is None:
        return
    asked = secrets.token_hex(6)
    plays[where] = {"contract": contract, "tricks": None, "par": None, "asked": asked}
    out["contract"] = contract
    if state is not None:
        out["_par"] = (where, state, asked, {"drawn": "bids" not in contract})


def report(obj: dict[str, Any], body: dict[str, Any], session: Session) -> dict[str, Any]:
    if body["mode"] == "online" and obj["_who"] != "director":
        raise Refused("an online session's tables report themselves", 403)
    board, table = _where(session, obj)
    ns, ew = check_scores(rules_from_json(body["rules"]), obj.get("ns"), obj.get("ew"))
    if (board, table) in session.results:
        raise Refused(f"board {board} at table {table} is in already: the director "
                      "corrects it", 409)
    contract, state = _contract(obj, body, session, board, ns, ew)
    r = session.record(board, table, ns, ew)
    out = {"board": board, "table": table, "ns": r.ns, "ew": r.ew}
    _keep_contract(body, board, table, contract, state, out)
    return out


def correct(obj: dict[str, Any], body: dict[str, Any], session: Session) -> dict[str, Any]:
    """The director's correction: a result replaced, or taken out (ns and ew null). A
    hall table's contract is replaced by the one sent; with none sent, it is kept where
    the new scores are ones it can give (its par too), else taken out; "contract": null
    takes it out."""
    board, table = _where(session, obj)
    if (board, table) not in session.results:
        raise Refused(f"board {board} at table {table} is not in yet: report it", 409)
    del session.results[(board, table)]
    if obj.get("ns") is None and obj.get("ew") is None:
        if obj.get("contract") is not None:
            raise Refused("a result taken out has no contract")
        _keep_contract(body, board, table, None, None, {})
        return {"board": board, "table": table, "removed": True}
    rules = rules_from_json(body["rules"])
    ns, ew = check_scores(rules, obj.get("ns"), obj.get("ew"))
    kept = views.plays_of(body).get(f"{board}/{table}") if body["mode"] == "hall" else None
    if "contract" not in obj and kept and kept.get("contract") is not None:
        try:
            fits = (ns, ew) in contract_scores(rules, check_contract(rules, kept["contract"]))
        except DuplicateError:
            fits = False
        if fits:  # (the same contract: its par stands)
            r = session.record(board, table, ns, ew)
            return {"board": board, "table": table, "ns": r.ns, "ew": r.ew,
                    "contract": kept["contract"]}
    contract, state = _contract(obj, body, session, board, ns, ew)
    r = session.record(board, table, ns, ew)
    out = {"board": board, "table": table, "ns": r.ns, "ew": r.ew}
    _keep_contract(body, board, table, contract, state, out)
    return out


@one_line()
async def slips(request: Request) -> Response:
    """Every board's slip, for the director to print (the cards: the director's key)."""
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    obj = await _body(request)
    await ss.limit(_address(request), "records")
    _, body, session = await ss.read(sid)
    if not await signed_in_director(request, body.get("club")):
        ss.check_key(body, obj.get("key"))
    if body["mode"] == "online":  # (the director may be playing too)
        raise Refused(ONLINE_SLIPS, 403, code="online")
    return JSONResponse({"id": sid, "title": body.get("title", ""), "game": body["game"],
                         "slips": [board_slip(b) for b in session.boards]})


@one_line()
async def board_page(request: Request) -> Response:
    """One board: which tables are done; the cards and results once they may be shown."""
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    raw = request.path_params["n"]
    obj = await _body(request)
    await ss.view(sid)  # (an online session's tables are asked about first)
    _, body, session = await ss.read(sid)
    n = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 5 else 0  # ("²".isdigit())
    if not 1 <= n <= len(session.boards):
        raise Refused(f"there is no board {raw[:10]!r} in this session", 404)
    key = obj.get("key")
    who = ss.player_of(body, key)
    pair = None if who is None else int(who["pair"])
    is_director = key is not None and same_digest(key, body.get("director"))
    if key is not None and who is None and not is_director:
        raise Refused("this link is not one of this session's: ask the director", 403)
    return JSONResponse(views.board_view(body, session, n, director=is_director, pair=pair))


@one_line()
async def seat(request: Request) -> Response:
    """A partnership member's table now (online): its board table's address with the
    seat's key, or why none."""
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    obj = await _body(request)
    out = await ss.view(sid)
    _, body, session = await ss.read(sid)
    who = ss.player_of(body, obj.get("key"))
    if who is None:
        raise Refused("this link is not a player's of this session: ask the director", 403)
    return JSONResponse({"version": out["version"], "title": body.get("title", ""),
                         **online_of(ss).seat(body, session, who)})


@one_line()
async def export(request: Request) -> Response:
    ss = sessions_of(request)
    sid = request.path_params["sid"]
    fmt = request.path_params["fmt"]
    if fmt not in ("csv", "json"):
        raise Refused("export is csv or json", 404)
    await ss.limit(_address(request), "records")
    _, body, session = await ss.read(sid)
    name = f"duplicate-{sid}"
    if fmt == "json":
        return Response(views.dumps(views.export_json(sid, body, session)),
                        media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}.json"'})
    return Response(views.export_csv(session), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


ROUTES: list[BaseRoute] = [
    Route("/dup", page(""), methods=["GET"]),
    Route("/dup/{sid}", page("session"), methods=["GET"]),
    Route("/dup/{sid}/director", page("director"), methods=["GET"]),
    Route("/dup/{sid}/report", page("report"), methods=["GET"]),
    Route("/dup/{sid}/play", page("play"), methods=["GET"]),
    Route("/dup/{sid}/board/{n}", page("board"), methods=["GET"]),
    Route("/dup/{sid}/print/slips", page("slips"), methods=["GET"]),
    Route("/dup/{sid}/recap", page("recap"), methods=["GET"]),
    Route("/api/dup", create, methods=["POST"]),
    Route("/api/dup/{sid}", show_session, methods=["GET"]),
    Route("/api/dup/{sid}/director", director, methods=["POST"]),
    Route("/api/dup/{sid}/report", scored(report, tables=True), methods=["POST"]),
    Route("/api/dup/{sid}/correct", scored(correct, tables=False), methods=["POST"]),
    Route("/api/dup/{sid}/slips", slips, methods=["POST"]),
    Route("/api/dup/{sid}/board/{n}", board_page, methods=["POST"]),
    Route("/api/dup/{sid}/seat", seat, methods=["POST"]),
    Route("/api/dup/{sid}/export/{fmt}", export, methods=["GET"]),
]


__all__ = ["GAMES", "KIND", "MAX_BODY", "ROUTES", "Sessions", "check_scores", "links",
           "make_session", "sessions_of"]
