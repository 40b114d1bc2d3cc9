"""The score pad's pages of ``forties serve``: keep score of a game played with real cards
on a phone, and let the others at the table watch it.

A pad is a document of kind ``pad`` in the server's store: the pure pad
(``forties.pad.Pad.to_json``: rules, names, first dealer, the hands as entered) and the
SHA-256 of the scorekeeper's key. Every change reads the document, replays the pad (the
engine's own scoring, ``forties.scoring``), applies one step (checked by
``forties.pad``, which says in one line what is wrong) and writes it back with
compare-and-set. The browser never scores: it shows what the server sends.

Links: the scorekeeper's (``/pad/ID#key=...``) enters and corrects hands; the pad's own
address (``/pad/ID``) shows it read-only, updated by polling, to anyone at the table.

    GET  /pad                         the page: a new pad, or the pad of /pad/ID
    GET  /api/pads/presets            the presets: name, game, players, sides, bids
    POST /api/pads                    {"preset", "options"?, "names"?, "first_dealer"?,
                                       "title"?} -> {"pad", "key", "url", "watch", ...PAD}
    GET  /api/pads/{id}               PAD (?since=VERSION: {"same": true} if unchanged)
    POST /api/pads/{id}/hands         {"key", "hand": HAND} -> PAD   (the next hand)
    PUT  /api/pads/{id}/hands/{n}     {"key", "hand": HAND} -> PAD   (correct hand n)
    POST /api/pads/{id}/undo          {"key"} -> PAD                 (strike out the last)
    GET  /api/pads/{id}/export.csv | export.json

PAD is ``Pad.summary_json()`` with ``"version"`` and ``"id"``; HAND is ``Entry``'s JSON:
``{"bidder": 0, "bid": "20", "partner": 2, "trump": "H", "points": [20, 10]}``,
``{"thrown_in": true}``, or ``{"bids": [3, 3, 3, 2], "tricks": [4, 3, 3, 3]}``.
Every refusal is a 4xx with ``{"error": "one line"}``; the commonest mistakes in a hand
add ``"code"`` and ``"words"`` (``forties.pad.CODES``), which the page says in its language.
"""

from __future__ import annotations

import functools
import json
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..fortyfives import bid_ladder
from ..pad import Entry, Pad, PadError, new_pad
from ..rules import PRESETS, FortyFivesRules, RulesError, build_rules
from .http import (
    Documents,
    Handler,
    Refused,
    compare_and_set,
    digest,
    json_body,
    one_line,
    rates_of,
)
from .limits import Limits, Rates
from .text import NAME_MAX, TITLE_MAX, clean_json, line, same_digest

KIND = "pad"
STATIC = Path(__file__).parent / "static"
MAX_BODY = 16 * 1024
CREATE_PER_MINUTE = Limits.pads_per_minute  # from one address (``limits.Rates``)
ID = re.compile(r"^[A-Za-z0-9]{6,24}$")


async def _body(request: Request) -> dict[str, Any]:
    return await json_body(request, MAX_BODY, empty_is_nothing=True)


def _answer(fn: Handler) -> Handler:
    """A route's refusals as one line of JSON; a pad's own (PadError) are 400s too, with
    their ``code`` and ``words`` when they have them, for the page to say in its language."""
    lined = one_line()(fn)

    @functools.wraps(fn)
    async def run(request: Request) -> Response:
        try:
            return await lined(request)
        except PadError as e:
            body: dict[str, Any] = {"error": str(e)}
            if e.code:
                body.update(code=e.code, words=e.words)
            return JSONResponse(body, status_code=400)
    return run


def _address(request: Request) -> str:
    return request.client.host if request.client else ""


def presets_json() -> list[dict[str, Any]]:
    """What the new-pad form needs of each preset."""
    out = []
    for p in PRESETS.values():
        rules = build_rules(p.name)
        out.append({
            "name": p.name, "game": p.game,
            "summary": p.summary, "players": rules.players,
            "sides": [list(s) for s in rules.sides],
            "bids": [str(b) for b in bid_ladder(rules)]
            if isinstance(rules, FortyFivesRules) else [],
        })
    return out


class Pads:
    """The pads in the service's documents store."""

    def __init__(self, service: Documents, rates: Rates | None = None) -> None:
        self.store = service.store
        self.rates = rates or Rates()

    async def limit(self, address: str, kind: str = "pads") -> None:
        """At most ``pads_per_minute`` new pads a minute from one address, and
        ``pads_per_minute_total`` from every address together (``limits.Rates``); the
        same for the pads' downloads (``kind``: "records")."""
        await self.rates.take(kind, address)

    async def load(self, pid: str) -> tuple[int, dict[str, Any], Pad]:
        if not ID.match(pid):
            raise Refused("there is no such pad", 404)
        got = await self.store.get_doc(KIND, pid)
        if got is None:
            raise Refused("there is no such pad", 404)
        version, body = got
        body = clean_json(body)  # one stored before text was cleaned is served clean
        try:
            return version, body, Pad.from_json(body["pad"])
        except (PadError, KeyError, TypeError) as e:
            raise Refused(f"this pad cannot be read: {e}", 500) from None

    async def change(self, pid: str, key: Any, step: Callable[[Pad], None]) -> dict[str, Any]:
        """Apply ``step`` to the pad (scorekeeper's key checked), compare-and-set."""
        async def change() -> tuple[int, dict[str, Any], Pad]:
            version, body, pad = await self.load(pid)
            if not same_digest(key, body.get("key")):
                raise Refused("only the scorekeeper's link can change this pad", 403)
            step(pad)
            body["pad"] = pad.to_json()
            return version, body, pad

        new, pad = await compare_and_set(self.store, KIND, pid, change,
                                         Refused("the pad is busy: try again", 409))
        return summary(pid, new, pad)


def summary(pid: str, version: int, pad: Pad) -> dict[str, Any]:
    return {"id": pid, "version": version, **pad.summary_json()}


def _hand(obj: dict[str, Any]) -> Entry:
    if "hand" not in obj:
        raise Refused('send the hand: {"key": ..., "hand": {...}}')
    return Entry.from_json(obj["hand"])


# The pads keep an app's rate limit, so they live on its state beside the service: an app
# that sets ``app.state.service`` (a ``Documents``) can mount ``ROUTES``.


def pads_of(request: Request) -> Pads:
    """The app's pads over ``app.state.service``, made on the first request."""
    state = request.app.state
    pads: Pads | None = getattr(state, "pads", None)
    if pads is None:
        service: Documents = state.service
        pads = state.pads = Pads(service, rates_of(state))
    return pads


async def page(request: Request) -> Response:
    return FileResponse(STATIC / "pad.html", media_type="text/html")


async def presets(request: Request) -> Response:
    return JSONResponse(presets_json())


@_answer
async def create(request: Request) -> Response:
    pads = pads_of(request)
    obj = await _body(request)
    known = {"preset", "options", "names", "first_dealer", "title"}
    extra = sorted(set(obj) - known)
    if extra:
        raise Refused(f"a new pad has no {extra[0]!r} (it has: {', '.join(sorted(known))})")
    preset, options = obj.get("preset", "merrimack-valley"), obj.get("options") or {}
    names, title = obj.get("names") or [], obj.get("title") or ""
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise Refused("preset must be a preset's name and options an object")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise Refused("names must be a list of the players' names")
    if not isinstance(title, str) or len(title) > TITLE_MAX:
        raise Refused(f"title must be text of at most {TITLE_MAX} characters")
    dealer = obj.get("first_dealer", 0)
    try:
        pad = new_pad(preset, options, [line(n, NAME_MAX) for n in names], dealer,
                      line(title))
    except RulesError as e:
        raise Refused(str(e)) from None
    await pads.limit(_address(request))
    pid = secrets.token_hex(6)
    key = secrets.token_urlsafe(18)
    version = await pads.store.put_doc(KIND, pid, {"pad": pad.to_json(),
                                                   "key": digest(key)}, 0)
    return JSONResponse({"pad": pid, "key": key, "url": f"/pad/{pid}#key={key}",
                         "watch": f"/pad/{pid}", **summary(pid, version, pad)})


@_answer
async def show(request: Request) -> Response:
    pads = pads_of(request)
    pid = request.path_params["pid"]
    version, _, pad = await pads.load(pid)
    if request.query_params.get("since") == str(version):
        return JSONResponse({"id": pid, "version": version, "same": True})
    return JSONResponse(summary(pid, version, pad))


@_answer
async def add(request: Request) -> Response:
    pads = pads_of(request)
    obj = await _body(request)
    entry = _hand(obj)
    def step(p: Pad) -> None:
        p.add(entry)

    return JSONResponse(await pads.change(request.path_params["pid"], obj.get("key"), step))


@_answer
async def correct(request: Request) -> Response:
    pads = pads_of(request)
    obj = await _body(request)
    entry = _hand(obj)
    n = request.path_params["n"]
    return JSONResponse(await pads.change(request.path_params["pid"], obj.get("key"),
                                          lambda p: p.correct(n, entry)))


@_answer
async def undo(request: Request) -> Response:
    pads = pads_of(request)
    obj = await _body(request)
    return JSONResponse(await pads.change(request.path_params["pid"], obj.get("key"),
                                          lambda p: p.remove_last()))


@_answer
async def export(request: Request) -> Response:
    pads = pads_of(request)
    pid, fmt = request.path_params["pid"], request.path_params["fmt"]
    await pads.limit(_address(request), "records")
    _, _, pad = await pads.load(pid)
    name = f"pad-{pid}.{fmt}"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    if fmt == "csv":
        return Response(pad.to_csv(), media_type="text/csv; charset=utf-8",
                        headers=disposition)
    if fmt == "json":
        return Response(json.dumps(pad.to_json(), indent=1, ensure_ascii=False),
                        media_type="application/json", headers=disposition)
    raise Refused("export as csv or json", 404)


ROUTES: list[BaseRoute] = [
    Route("/pad", page),
    Route("/pad/{pid}", page),
    Route("/api/pads/presets", presets),
    Route("/api/pads", create, methods=["POST"]),
    Route("/api/pads/{pid}", show),
    Route("/api/pads/{pid}/hands", add, methods=["POST"]),
    Route("/api/pads/{pid}/hands/{n:int}", correct, methods=["PUT"]),
    Route("/api/pads/{pid}/undo", undo, methods=["POST"]),
    Route("/api/pads/{pid}/export.{fmt}", export),
]


__all__ = ["KIND", "ROUTES", "pads_of"]
