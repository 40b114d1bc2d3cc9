"""What the server's JSON routes share (the tables' API in ``app``, the score pad, the
hall): a refusal that is one line of JSON, the reading of a request's JSON body, and the
documents store's keys and compare-and-set failure.

A route raises ``Refused(message, status)``; ``create_app`` answers it as
``{"error": message}`` with that status, and so does a route wrapped in ``one_line``
(the pad's and the hall's, which can be mounted on an app of their own).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

Handler = Callable[[Request], Awaitable[Response]]


class Refused(Exception):
    """A request that cannot be done: ``status`` and one line for the person (and a
    ``code`` the browser client translates, where it has one)."""

    def __init__(self, message: str, status: int = 400, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code


def error(status: int, message: str, code: str | None = None) -> JSONResponse:
    """The answer to a refused request: ``{"error": message}`` with ``status`` (and
    ``"code"``, a word the client may translate instead of showing the English line)."""
    body = {"error": message} if code is None else {"error": message, "code": code}
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
            except also as e:
                return error(400, str(e))
        return run
    return wrap


async def json_body(request: Request, limit: int, *, empty_is_nothing: bool = False
                    ) -> dict[str, Any]:
    """The request's body, a JSON object of at most ``limit`` bytes; an empty body is
    ``{}`` where ``empty_is_nothing``, not JSON otherwise. Raises ``Refused``."""
    raw = await request.body()
    if len(raw) > limit:
        raise Refused(f"the request is too large (at most {limit // 1024} KiB)", 413)
    if not raw and empty_is_nothing:
        return {}
    try:
        obj = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise Refused("the request is not JSON") from None
    except ValueError:  # an integer longer than Python converts
        raise Refused("the request has a number with too many digits") from None
    if not isinstance(obj, dict):
        raise Refused("the request must be a JSON object")
    return obj


def digest(key: str) -> str:
    """What a document keeps of a secret key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def conflicts(store: Any) -> tuple[type[BaseException], ...]:
    """The store's compare-and-set failure (``store.Conflict``, its module's, or
    ``forties.web.store.Conflict``)."""
    kinds: list[type[BaseException]] = []
    sources: list[Any] = [type(store), importlib.import_module(type(store).__module__)]
    with contextlib.suppress(ImportError):
        sources.append(importlib.import_module("forties.web.store"))
    for source in sources:
        c = getattr(source, "Conflict", None)
        if isinstance(c, type) and issubclass(c, BaseException):
            kinds.append(c)
    return tuple(kinds) or (RuntimeError,)


__all__ = ["Handler", "Refused", "conflicts", "digest", "error", "json_body", "one_line"]
