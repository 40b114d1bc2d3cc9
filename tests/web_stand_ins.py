"""Stand-ins for the server's service (a documents store in memory, with compare-and-set,
and tables that play nothing) and small apps that mount only the hall's or only the score
pad's routes, with the catalogs and the static files: for their route and browser tests."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Awaitable, Callable
from types import ModuleType
from typing import Any

from babel.messages.pofile import read_po
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from forties.web import hall as hall_web
from forties.web import pad as pad_web

STATIC = pad_web.STATIC


class Conflict(Exception):
    """The document's version moved (compare-and-set failed)."""


class MemoryStore:
    Conflict = Conflict

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        self.writes = 0
        self.race = 0  # how many next writes find the version moved

    async def get_doc(self, kind: str, id: str) -> tuple[int, dict[str, Any]] | None:
        got = self.docs.get((kind, id))
        return None if got is None else (got[0], copy.deepcopy(got[1]))

    async def put_doc(self, kind: str, id: str, body: dict[str, Any],
                      expected_version: int) -> int:
        now = self.docs.get((kind, id), (0, {}))[0]
        if self.race:
            self.race -= 1
            raise Conflict("someone else wrote first")
        if now != expected_version:
            raise Conflict(f"{kind}/{id} is at version {now}, not {expected_version}")
        self.writes += 1
        self.docs[(kind, id)] = (now + 1, copy.deepcopy(body))
        return now + 1

    async def list_docs(self, kind: str, limit: int = 100) -> list[tuple[str, int, dict[str, Any]]]:
        return [(i, v, b) for (k, i), (v, b) in self.docs.items() if k == kind][:limit]


class FakeService:
    """The documents store, and tables that play nothing: a test ends them with
    ``finish``."""

    def __init__(self) -> None:
        self.store = MemoryStore()
        self.tables: dict[str, dict[str, Any]] = {}
        self.ids = itertools.count(1)
        self.refuse = 0  # how many create_table calls fail next

    async def create_table(self, *, preset: str, options: dict[str, Any] | None = None,
                           seats: list[dict[str, Any]], public: bool = False,
                           start: bool = True, dealer: int | None = None,
                           on_over: Callable[[str, Any], Awaitable[None]] | None = None,
                           settings: dict[str, Any] | None = None) -> dict[str, Any]:
        if self.refuse:
            self.refuse -= 1
            raise RuntimeError("the database is busy")
        tid = f"T{next(self.ids)}"
        self.tables[tid] = {"preset": preset, "options": options, "seats": seats,
                            "dealer": dealer, "on_over": on_over, "status": "playing",
                            "summary": None, "settings": settings}
        return {"table": tid, "tokens": {s: f"tok-{tid}-{s}" for s, seat in enumerate(seats)
                                         if seat["kind"] == "person"}}

    async def table_summary(self, tid: str) -> dict[str, Any]:
        t = self.tables[tid]
        return {"status": t["status"], **(t["summary"] or {})}

    async def finish(self, tid: str, winner_seat: int, callback: bool = True) -> None:
        t = self.tables[tid]
        t["status"] = "over"
        t["summary"] = {"winner": winner_seat % 2, "scores": [45, 20] if winner_seat % 2 == 0
                        else [20, 45]}
        if callback and t["on_over"] is not None:
            await t["on_over"](tid, {"winner": winner_seat % 2, "scores": t["summary"]["scores"]})


async def i18n(request: Request) -> JSONResponse:
    """The catalogs as the server gives them (GET /i18n/LANG.json)."""
    lang = request.path_params["lang"]
    if lang not in ("en", "fr", "ar"):
        return JSONResponse({"error": "no such language"}, status_code=404)
    with open(STATIC.parent / "locale" / f"{lang}.po", "rb") as f:
        messages = {str(m.id): str(m.string) for m in read_po(f) if m.id}
    return JSONResponse({"dir": messages.get("dir", "ltr"), "messages": messages})


def tiny_app(service: Any, routes_of: ModuleType) -> Starlette:
    """An app of ``routes_of.ROUTES`` (the hall's or the pad's) over ``service``, the
    catalogs and the static files."""
    app = Starlette(routes=[*routes_of.ROUTES, Route("/i18n/{lang}.json", i18n),
                            Mount("/static", StaticFiles(directory=STATIC))])
    app.state.service = service
    return app


def hall_app(service: Any) -> Starlette:
    return tiny_app(service, hall_web)


def pad_app(service: Any) -> Starlette:
    return tiny_app(service, pad_web)
