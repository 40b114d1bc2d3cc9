"""What the server's JSON routes share (the tables' API in ``app``, the score pad, the
hall): a refusal that is one line of JSON, the reading of a request's JSON body, what the
pad's and the hall's routes need of the service (``Documents``, ``Tables``), and the one
compare-and-set of a document.

Every string of a JSON body is made storable (``text.clean_json``: no lone surrogate, no
NUL or other control, no bidi override, NFC) before any route reads it, and a refusal's
line is too, so that no text from outside can make an answer that cannot be encoded.

A route raises ``Refused(message, status)``; ``create_app`` answers it as
``{"error": message}`` with that status, and so does a route wrapped in ``one_line``
(the pad's and the hall's, which can be mounted on an app of their own).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, ClassVar, Protocol, TypeVar

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .. import errors
from . import metrics
from .limits import Limits, RateLimited, Rates
from .text import clean_json, digest, plain, storable

Handler = Callable[[Request], Awaitable[Response]]
T = TypeVar("T")
CAS_TRIES = 8  # reads and writes of a document before a change is refused as busy


class DocumentStore(Protocol):
    """The server's documents (a pad, an evening): JSON bodies, each with a version that
    every write moves on (``put_doc`` raises the store's ``Conflict`` if it moved first)."""

    Conflict: ClassVar[type[Exception]]

    async def get_doc(self, kind: str, doc_id: str, /) -> tuple[int, dict[str, Any]] | None:
        ...

    async def put_doc(self, kind: str, doc_id: str, body: dict[str, Any],
                      expected_version: int, /) -> int:
        ...


class Documents(Protocol):
    """What the score pad's routes need of the service: its documents."""

    @property
    def store(self) -> DocumentStore:
        ...


class Tables(Documents, Protocol):
    """What the hall's routes need of the service: its documents, and web tables for an
    online evening (``on_over`` is called with the table's summary when its game ends)."""

    async def create_table(self, *, preset: str, options: dict[str, Any] | None = None,
                           seats: list[dict[str, Any]] | None = None, public: bool = False,
                           start: bool = True, dealer: int | None = None,
                           on_over: Callable[[str, dict[str, Any]], Awaitable[None]]
                           | None = None,
                           settings: dict[str, Any] | None = None) -> dict[str, Any]:
        ...

    async def table_summary(self, table_id: str, /) -> dict[str, Any] | None:
        ...


class Middleware:
    """An ASGI middleware in front of ``app`` that sees requests (``http``) and websockets
    (``websocket``) apart; anything else (the lifespan) goes straight through."""

    app: ASGIApp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


class Refused(errors.Refused):
    """A request that cannot be done: ``status`` and one line for the person (and a
    ``code`` the browser client translates, where it has one)."""

    def __init__(self, message: str, status: int = 400, code: str | None = None) -> None:
        super().__init__(message, code)
        self.status = status


def error(status: int, message: str, code: str | None = None) -> JSONResponse:
    """The answer to a refused request: ``{"error": message}`` with ``status`` (and
    ``"code"``, a word the client may translate instead of showing the English line)."""
    message = storable(message)
    body = {"error": message} if code is None else {"error": message, "code": code}
    if status < 500:
        metrics.refused(code or str(status))
    return JSONResponse(body, status_code=status)


def one_line(*also: type[Exception]) -> Callable[[Handler], Handler]:
    """A route's refusals (``Refused``, and the exceptions ``also``, as 400) answered as
    one line of JSON, never a traceback."""
    def wrap(fn: Handler) -> Handler:
        @functools.wraps(fn)
        async def run(request: Request) -> Response:
            try:
                return await fn(request)
            except Refused as e:
                return error(e.status, e.message, e.code)
            except RateLimited as e:
                return error(429, e.message, e.code)
            except also as e:
                return error(400, str(e))
        return run
    return wrap


async def json_body(request: Request, limit: int, *, empty_is_nothing: bool = False
                    ) -> dict[str, Any]:
    """The request's body, a JSON object of at most ``limit`` bytes; an empty body is
    ``{}`` where ``empty_is_nothing``, not JSON otherwise; every string in it storable
    (``text.clean_json``). Raises ``Refused``."""
    raw = await request.body()
    if len(raw) > limit:
        raise Refused(f"the request is too large (at most {limit // 1024} KiB)", 413)
    if not raw and empty_is_nothing:
        return {}
    return json_object(raw)


def json_object(raw: bytes) -> dict[str, Any]:
    """A request's body read as a JSON object, every string in it storable; raises
    ``Refused``. (A large body, a record to replay, is read in another process with this:
    ``replays.replay_body``.)"""
    try:
        obj = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused("the request is not JSON") from None
    except ValueError:  # an integer longer than Python converts
        raise Refused("the request has a number with too many digits") from None
    if not isinstance(obj, dict):
        raise Refused("the request must be a JSON object")
    if plain(raw):
        return obj
    cleaned: dict[str, Any] = clean_json(obj)
    return cleaned


def rates_of(state: Any) -> Rates:
    """The app's limits a minute (``limits.Rates``): the service's, set on the app's
    state by ``create_app``; an app of the pad's or the hall's routes alone gets its own,
    from its service's ``limits`` where it has them."""
    rates: Rates | None = getattr(state, "rates", None)
    if rates is None:
        service = getattr(state, "service", None)
        rates = state.rates = Rates(getattr(service, "limits", None) or Limits())
    return rates



def conflicts(store: DocumentStore) -> tuple[type[BaseException], ...]:
    """The store's compare-and-set failure (``store.Conflict``)."""
    return (store.Conflict,)


async def compare_and_set(store: DocumentStore, kind: str, doc_id: str,
                          change: Callable[[], Awaitable[tuple[int, dict[str, Any], T]]],
                          busy: Refused) -> tuple[int, T]:
    """Change a document: ``change()`` reads it and changes it (the version it read, the
    body to write, what the change answers), then the body is written if that version is
    still the document's; read and changed again if another write came first, ``busy``
    raised after CAS_TRIES. The new version, and what the change answered."""
    conflict = conflicts(store)
    for _ in range(CAS_TRIES):
        version, body, answer = await change()
        try:
            new = await store.put_doc(kind, doc_id, body, version)
        except conflict:
            continue
        return new, answer
    raise busy


class _Turn:
    """A document's lock, and how many changes hold it or wait for it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Turns:
    """The changes of this process to one document take turns (``async with
    turns.of(doc_id)``), rather than each losing its compare-and-set to the others; a
    document's lock is forgotten as soon as no change holds it or waits for it
    (``doc_id in turns``: one does)."""

    def __init__(self) -> None:
        self._held: dict[str, _Turn] = {}

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._held

    @contextlib.asynccontextmanager
    async def of(self, doc_id: str) -> AsyncIterator[None]:
        turn = self._held.get(doc_id)
        if turn is None:
            turn = self._held[doc_id] = _Turn()
        turn.users += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.users -= 1
            if not turn.users and self._held.get(doc_id) is turn:
                del self._held[doc_id]


__all__ = ["CAS_TRIES", "DocumentStore", "Documents", "Handler", "Refused", "Tables",
           "Turns", "compare_and_set", "conflicts", "digest", "error", "json_body",
           "json_object", "one_line", "rates_of"]
