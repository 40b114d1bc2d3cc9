"""A documents store in memory (the server's ``get_doc``/``put_doc`` with compare-and-set)
and a small app that mounts only the score pad's routes, its page, the catalogs and the
static files: for the pad's route and browser tests."""

from __future__ import annotations

import copy
from typing import Any

from babel.messages.pofile import read_po
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from forties.web import pad as pad_web


class Conflict(Exception):
    """The document's version moved (compare-and-set failed)."""


class MemoryStore:
    Conflict = Conflict

    def __init__(self) -> None:
        self.docs: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
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
        self.docs[(kind, id)] = (now + 1, copy.deepcopy(body))
        return now + 1


class FakeService:
    def __init__(self) -> None:
        self.store = MemoryStore()


async def i18n(request: Request) -> JSONResponse:
    lang = request.path_params["lang"]
    if lang not in ("en", "fr", "ar"):
        return JSONResponse({"error": "no such language"}, status_code=404)
    with open(pad_web.STATIC.parent / "locale" / f"{lang}.po", "rb") as f:
        messages = {str(m.id): str(m.string) for m in read_po(f) if m.id}
    return JSONResponse({"dir": messages.get("dir", "ltr"), "messages": messages})


def tiny_app(service: Any) -> Starlette:
    return Starlette(routes=[*pad_web.routes(service), Route("/i18n/{lang}.json", i18n),
                             Mount("/static", StaticFiles(directory=pad_web.STATIC))])
