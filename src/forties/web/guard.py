"""The server's door for strangers, an ASGI middleware (``Guard``) in front of every route:

- a request's body is refused (413, one line of JSON, the connection closed) from its
  ``Content-Length`` when that is over the route's limit, and while it streams as soon as
  its bytes pass the limit: no body over a route's limit is ever held;
- a state-changing request (POST, PUT, PATCH, DELETE) is refused (403) when it comes
  from another site: an ``Origin`` that is not the site's (``Origins``), or
  ``Sec-Fetch-Site: cross-site``; one that carries a ``Content-Type`` other than
  ``application/json`` is refused (415) (one without a type is read as JSON: browsers
  give every body they send across sites a type, and send their ``Origin`` with it);
- a websocket from another site's page (an ``Origin`` that is not the site's, ``null``
  included) is refused before it is accepted (403), and so is one past the limit of open
  websockets from one address (``Limits.websockets_per_address``); a client that sends
  no ``Origin`` (the Python client, the load tests) is not a page, and is let in;
- a request or websocket whose ``Host`` names neither the site (``--public-url``'s host)
  nor an IP address or ``localhost`` is refused (421) before any work: a page of another
  site whose name was pointed at this server's address (DNS rebinding) gets nothing;
  ``/healthz`` and ``/readyz`` answer whatever the ``Host`` (an operator's tools and a
  proxy's health checks may name the machine as they like; they say only "ok"). An app
  told no public address (one made in process) checks no ``Host``: ``forties serve``
  always has one, ``--public-url`` or the address it serves on;
- every answer carries the security headers (``security_headers``): a strict
  Content-Security-Policy with no inline script, ``nosniff``, ``no-referrer``, no framing
  by another site (the hall's player page frames its table, of the same site), and HSTS
  where the site's public address is https.

The address of a client is the one uvicorn gives (``X-Forwarded-For`` only from the
proxies the operator names: ``serving.uvicorn_config``); the transport's own limits
(connections per address and in total, header and body read timeouts) are in
``forties.web.transport``.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import ipaddress
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import FortiesError
from ..hall.printing import STYLE
from .http import Middleware
from .limits import counted_as

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
DEFAULT_PORTS = {"http": 80, "https": 443}
ANY_HOST = frozenset({"/healthz", "/readyz"})  # answered whatever the Host names
HOST = re.compile(r"(?:[a-z0-9_\-]+(?:\.[a-z0-9_\-]+)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?")


# ----- origins ------------------------------------------------------------------------------


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) URL, lower case and without a default port
    (as browsers write an ``Origin``); None for anything else (``null`` included)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    if scheme not in DEFAULT_PORTS or not host:
        return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[scheme] else "")


def is_address(host: str) -> bool:
    """Whether a host (as in a URL: ``[::1]`` for IPv6) is an IP address or ``localhost``:
    a name no other site can point at this server (DNS rebinding needs a name)."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class Origins:
    """Which pages may send state-changing requests and open websockets: those of the
    site's public address (``--public-url``; a loopback one by every loopback name), and a
    page of the very address it asks, where that address is an IP address or
    ``localhost`` (a server reached on its network's address, with no name)."""

    def __init__(self, public_url: str | None) -> None:
        self.public = origin_of(public_url) if public_url else None
        self.allowed: set[str] = set()
        if self.public:
            self.allowed.add(self.public)
            parts = urlsplit(self.public)
            host = (parts.hostname or "").lower()
            if host in ("127.0.0.1", "localhost", "::1"):
                port = f":{parts.port}" if parts.port else ""
                self.allowed |= {f"{parts.scheme}://{name}{port}" for name in LOOPBACK_NAMES}

    def own(self, scope: Scope) -> str | None:
        """The origin a request asks for: its scheme and its ``Host``, if that is an
        address (``is_address``); None otherwise."""
        host = header(scope, b"host")
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                                    scope.get("scheme", "http"))
        own = origin_of(f"{scheme}://{host}") if host else None
        if own is None or not is_address(urlsplit(own).hostname or ""):
            return None
        return own

    def allows(self, origin: str, scope: Scope) -> bool:
        if origin in self.allowed:
            return True
        return origin == self.own(scope)

    def names_me(self, scope: Scope) -> bool:
        """Whether a request's ``Host`` names this server: the public address's host, or
        an IP address or ``localhost`` (no other site can point those at it: DNS
        rebinding needs a name), whatever the port. True where no public address is
        known, and for a request with no ``Host`` (no browser sends one without)."""
        if self.public is None:
            return True
        host = header(scope, b"host")
        if host is None:
            return True
        host = host.strip().lower()
        if not HOST.fullmatch(host):
            return False
        name = urlsplit(f"http://{host}").hostname or ""
        return name.rstrip(".") == self.public_name or is_address(name)

    @property
    def public_name(self) -> str:
        return (urlsplit(self.public).hostname or "") if self.public else ""


# ----- the headers of every answer --------------------------------------------------------


def style_hash(text: str) -> str:
    """A CSP source that lets exactly this inline stylesheet in."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def websocket_form(origin: str) -> str:
    return ("wss" + origin[5:]) if origin.startswith("https") else ("ws" + origin[4:])


@functools.lru_cache(maxsize=64)
def security_headers(public: str | None, own: str | None) -> tuple[tuple[bytes, bytes], ...]:
    """The headers of every answer for a site at ``public`` asked at ``own`` (its
    websockets' addresses in ``connect-src``; HSTS where ``public`` is https)."""
    connect = ["'self'"] + [websocket_form(o) for o in dict.fromkeys((public, own)) if o]
    csp = ("default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
           "frame-ancestors 'self'; form-action 'self'; img-src 'self' data:; "
           "manifest-src 'self'; worker-src 'self'; "
           f"style-src 'self' {style_hash(STYLE)}; connect-src {' '.join(connect)}")
    return _headers(csp, "SAMEORIGIN", public)


@functools.lru_cache(maxsize=8)
def bare_headers(public: str | None) -> tuple[tuple[bytes, bytes], ...]:
    """The same headers for an answer that is no page (a one-line refusal the transport
    writes itself, below the app: ``forties.web.transport``): nothing to load, nothing
    to frame."""
    return _headers("default-src 'none'; frame-ancestors 'none'", "DENY", public)


def _headers(csp: str, framing: str, public: str | None) -> tuple[tuple[bytes, bytes], ...]:
    """The one list of the security headers (``security_headers``, ``bare_headers``)."""
    out = [(b"content-security-policy", csp.encode()),
           (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"no-referrer"),
           (b"x-frame-options", framing.encode())]
    if public and public.startswith("https://"):
        out.append((b"strict-transport-security", b"max-age=31536000"))
    return tuple(out)


def header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (the first), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


# ----- the middleware ---------------------------------------------------------------------


@dataclass(frozen=True)
class Door:
    """What the guard needs to know of the site: its public address (None: pages of the
    address they ask, ``Origins``), the proxies whose ``X-Forwarded-For`` is believed (for
    uvicorn), each route's body limit, and the open websockets one address may hold."""

    public_url: str | None
    trusted_proxies: tuple[str, ...]
    body_limit: Callable[[str], int]
    websockets_per_address: int


class BodyTooLarge(FortiesError):
    """A streamed body passed its route's limit (raised to the route that reads it)."""


def refusal(status: int, message: str, *, close: bool = False, code: str | None = None
            ) -> tuple[Message, Message]:
    """The ASGI messages of a refusal: ``{"error": message}`` (and ``"code"``) with
    ``status``."""
    body = json.dumps({"error": message} | ({"code": code} if code else {})).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    return ({"type": "http.response.start", "status": status, "headers": headers},
            {"type": "http.response.body", "body": body})


class Guard(Middleware):
    """The ASGI middleware (``create_app`` puts it in front of every route)."""

    def __init__(self, app: ASGIApp, door: Door) -> None:
        self.app = app
        self.door = door
        self.origins = Origins(door.public_url)
        self.websockets: dict[str, int] = {}  # open websockets by address

    def headers_for(self, scope: Scope) -> tuple[tuple[bytes, bytes], ...]:
        return security_headers(self.origins.public, self.origins.own(scope))

    def foreign(self, scope: Scope) -> str | None:
        """Why a request comes from another site's page, or None."""
        if header(scope, b"sec-fetch-site") == "cross-site":
            return "requests from other sites are refused"
        origin = header(scope, b"origin")
        if origin is not None and not self.origins.allows(origin, scope):
            return "requests from other sites are refused (this site's address is " \
                   f"{self.origins.public or 'the one it was asked at'})"
        return None

    def misdirected(self, scope: Scope) -> str | None:
        """Why a request's ``Host`` is not this server's (``Origins.names_me``), or None."""
        if scope.get("path") in ANY_HOST or self.origins.names_me(scope):
            return None
        return (f"this server does not answer to that name (its address is "
                f"{self.origins.public})")

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        extra = self.headers_for(scope)
        started = False

        async def headed(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {k.lower() for k, _ in message.get("headers", ())}
                message = {**message, "headers": [*message.get("headers", ()),
                                                  *(h for h in extra if h[0] not in have)]}
            await send(message)

        async def refuse(status: int, message: str, close: bool = False) -> None:
            for part in refusal(status, message, close=close):
                await headed(part)

        wrong = self.misdirected(scope)
        if wrong:
            for part in refusal(421, wrong, code="host", close=True):
                await headed(part)
            return
        method = scope.get("method", "GET")
        if method in STATE_CHANGING:
            why = self.foreign(scope)
            if why:
                await refuse(403, why)
                return
            kind = header(scope, b"content-type")
            if kind is not None and kind.split(";")[0].strip().lower() != "application/json":
                await refuse(415, "the request's body must be JSON, sent as "
                                  "Content-Type: application/json")
                return
        limit = self.door.body_limit(scope.get("path", ""))
        too_large = f"the request is too large (at most {limit // 1024} KiB)"
        length = header(scope, b"content-length")
        if length is not None and _length(length) > limit:
            await refuse(413, too_large, close=True)
            return
        seen = 0
        over = False

        async def counted() -> Message:
            nonlocal seen, over
            if over:
                raise BodyTooLarge
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge
            return message

        async def quiet_once_over(message: Message) -> None:
            if not over:
                await headed(message)

        try:
            await self.app(scope, counted, quiet_once_over)
        except ClientDisconnect:
            if started:
                raise
            return  # gone, or dropped for taking too long (``transport``): nobody to answer
        except Exception:
            if not over:
                raise
        if over and not started:
            await refuse(413, too_large, close=True)

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        why = self.misdirected(scope)
        status = 421
        if not why:
            why, status = self.foreign(scope), 403
        address = counted_as(scope["client"][0]) if scope.get("client") else ""
        if not why and self.websockets.get(address, 0) >= self.door.websockets_per_address:
            why = (f"too many open connections from this address (at most "
                   f"{self.door.websockets_per_address})")
            status = 429
        if why:
            if "websocket.http.response" in scope.get("extensions", {}):
                start, body = refusal(status, why, code="host" if status == 421 else None)
                await send({**start, "type": "websocket.http.response.start",
                            "headers": [*start["headers"], *self.headers_for(scope)]})
                await send({**body, "type": "websocket.http.response.body"})
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        self.websockets[address] = self.websockets.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.websockets[address] - 1
            if left:
                self.websockets[address] = left
            else:
                del self.websockets[address]


def with_headers(handler: Callable[[Any, Exception], Awaitable[Any]], door: Door
                 ) -> Callable[[Any, Exception], Awaitable[Any]]:
    """An app-wide exception handler (Starlette answers those outside every middleware)
    whose answer carries the security headers too."""
    origins = Origins(door.public_url)

    @functools.wraps(handler)
    async def run(request: Any, exc: Exception) -> Any:
        response = await handler(request, exc)
        for name, value in security_headers(origins.public, origins.own(request.scope)):
            response.headers.setdefault(name.decode(), value.decode())
        return response
    return run


__all__ = ["BodyTooLarge", "Door", "Guard", "Origins", "bare_headers", "is_address",
           "origin_of", "security_headers", "style_hash", "with_headers"]


def _length(text: str) -> int:
    """A Content-Length header's number: ASCII digits only (``isdigit`` alone says yes to
    "\u00b2", which ``int`` refuses); anything else is 0, left to the server to refuse."""
    t = text.strip()
    return int(t) if t.isascii() and t.isdigit() and len(t) <= 18 else 0
