"""What the server notes of every request and websocket (an ASGI middleware around the
app's routes): a request id of its own (``X-Request-Id`` on the answer, and on the
websocket's handshake), one log line when it ends (method, route template, status or close
code, duration, the client's address; never the query, which holds a seat's key), and
the metrics: requests by route and status class, websockets open, tables live.

The health checks' answers (``/healthz``, ``/readyz``, ``/metrics``) are counted but not
logged when they succeed: a proxy asks every few seconds.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import metrics
from .http import Middleware
from .logs import new_request_id, requests_log

QUIET = frozenset({"/healthz", "/readyz", "/metrics"})


def route_of(scope: Scope) -> str:
    """The template of the route that answered (``/api/tables/{id}``), or ``none``."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "none"


def client_of(scope: Scope) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


class Observe(Middleware):
    """The middleware: ``Observe(app, tables)``, ``tables()`` the tables live in this
    process (for their count), or None."""

    def __init__(self, app: ASGIApp, tables: Any = None) -> None:
        self.app = app
        self.tables = tables

    def _live_tables(self) -> None:
        if self.tables is not None:
            metrics.LIVE_TABLES.set(len(self.tables()))

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        rid = new_request_id()
        header = (b"x-request-id", rid.encode())
        began = time.perf_counter()
        status = 0
        counted = False

        def count() -> None:
            nonlocal counted
            if not counted:
                counted = True
                metrics.REQUESTS.labels(route_of(scope), metrics.status_class(status)).inc()
                self._live_tables()

        async def answer(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message = {**message, "headers": [*message.get("headers", []), header]}
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                count()  # (before the last byte leaves: a client that has its answer
                #          and then asks /metrics finds it counted, on any process)
            await send(message)

        try:
            await self.app(scope, receive, answer)
        except Exception:
            status = status or 500  # (answered by the app's last handler, outside)
            raise
        finally:
            route = route_of(scope)
            count()
            if not (route in QUIET and 200 <= status < 300):
                requests_log.info(
                    "%s %s %s", scope.get("method"), route, status or "-",
                    extra={"fields": {
                        "kind": "request", "method": scope.get("method"), "route": route,
                        "status": status or None,
                        "duration_ms": round((time.perf_counter() - began) * 1000, 2),
                        "client": client_of(scope)}})

    async def websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        rid = new_request_id()
        began = time.perf_counter()
        accepted = False
        code: int | None = None

        async def sending(message: Message) -> None:
            nonlocal accepted, code
            if message["type"] == "websocket.accept":
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"x-request-id", rid.encode())]}
                await send(message)
                accepted = True
                metrics.WEBSOCKETS.inc()
                return
            if message["type"] == "websocket.close" and code is None:
                code = int(message.get("code", 1000))
            await send(message)

        async def receiving() -> Message:
            nonlocal code
            message = await receive()
            if message["type"] == "websocket.disconnect" and code is None:
                code = int(message.get("code", 1005))
            return message

        try:
            await self.app(scope, receiving, sending)
        finally:
            if accepted:
                metrics.WEBSOCKETS.dec()
            self._live_tables()
            route = route_of(scope)
            requests_log.info(
                "websocket %s closed (%s)", route, code if code is not None else "-",
                extra={"fields": {
                    "kind": "websocket", "route": route, "accepted": accepted,
                    "close_code": code,
                    "duration_ms": round((time.perf_counter() - began) * 1000, 2),
                    "client": client_of(scope)}})


__all__ = ["QUIET", "Observe", "route_of"]
