"""The transport's limits, below the app: uvicorn's HTTP protocol with a ``Doorman``.

- **Connections**: at most ``Limits.connections_per_address`` open connections from one
  address (websockets included) and ``Limits.connections_total`` in all; a connection past
  either is answered at once (429 or 503, one line of JSON) and closed. A proxy the
  operator names (``--trusted-proxy``) is counted in the total only: its clients' own
  addresses are known to the app alone (``guard.Guard`` limits their websockets).
- **Headers**: a client has ``Limits.header_seconds`` from connecting (or from the first
  byte of its next request on a kept-alive connection) to send a request's headers.
- **Bodies**: and then ``Limits.body_seconds`` to send the whole body.
- **Header bytes**: a request line and headers over ``Limits.header_bytes`` are answered
  431 and the connection closed, before more of them is held (the parser keeps every
  header it has read until the last).

A client that takes longer is answered 408 (where no answer has begun) and dropped.
uvicorn has none of these of its own (its ``limit_concurrency`` answers requests past a
total with 503, and is set as well); the numbers are each server process's.

Every answer written here carries the security headers (``guard.bare_headers``, from the
guard's one list): the refusals above, and uvicorn's and websockets' own answers (a
request that is not HTTP: 400, one line of JSON; its 503 past ``limit_concurrency``; its
500; a websocket handshake it refuses), which would otherwise carry none.
"""

from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import json
import resource
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from .guard import bare_headers, origin_of
from .limits import Limits, counted_as

Headers = tuple[tuple[bytes, bytes], ...]


class Doorman:
    """Counts the open connections, by address and in all, and says who may come in."""

    def __init__(self, per_address: int, total: int, trusted: tuple[str, ...] = ()) -> None:
        self.per_address, self.total = per_address, total
        self.networks = [ipaddress.ip_network(t, strict=False) for t in trusted]
        self.open: dict[str, int] = {}
        self.count = 0

    def counted(self, address: str) -> bool:
        """Whether ``address``'s connections count against the limit per address (those of
        a trusted proxy do not)."""
        if not self.networks:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return True
        return not any(ip in net for net in self.networks)

    def enter(self, address: str) -> tuple[int, str] | None:
        """Count a new connection in; or the status and the line it is refused with."""
        if self.count >= self.total:
            return 503, f"the server is full (at most {self.total} connections): try again soon"
        counted = self.counted(address)
        address = counted_as(address)  # (an IPv6 address by its /64)
        if counted and self.open.get(address, 0) >= self.per_address:
            return 429, (f"too many open connections from this address "
                         f"(at most {self.per_address})")
        self.count += 1
        if counted:
            self.open[address] = self.open.get(address, 0) + 1
        return None

    def leave(self, address: str) -> None:
        self.count -= 1
        if self.counted(address):
            address = counted_as(address)
            left = self.open.get(address, 1) - 1
            if left > 0:
                self.open[address] = left
            else:
                self.open.pop(address, None)


def raw_answer(status: int, reason: str, message: str, headers: Headers | None = None
               ) -> bytes:
    """A whole HTTP answer of one line of JSON that closes the connection, with the
    security headers of an answer that is no page (``guard.bare_headers``)."""
    body = json.dumps({"error": message}).encode()
    extra = "".join(f"{name.decode()}: {value.decode()}\r\n"
                    for name, value in (headers or bare_headers(None)))
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n{extra}connection: close\r\n\r\n"
            ).encode() + body


def headed_send(send: Any, headers: Headers) -> Any:
    """uvicorn's ``send`` of one request, which adds to an answer's start whichever of
    ``headers`` it lacks (the app's answers have them all from the guard; uvicorn's own
    500 and 503 have none)."""
    async def run(message: Any) -> None:
        if message["type"] == "http.response.start":
            have = {name.lower() for name, _ in message.get("headers", ())}
            missing = [h for h in headers if h[0] not in have]
            if missing:
                message = {**message, "headers": [*message.get("headers", ()), *missing]}
        await send(message)
    return run


def headed_response(response: Any, headers: Headers) -> Any:
    """A websocket handshake's answer (websockets' ``Response``) with whichever of
    ``headers`` it lacks; one of websockets' own refusals (plain text: a handshake that
    is not a websocket's) as one line of JSON."""
    for name, value in headers:
        if name.decode() not in response.headers:
            response.headers[name.decode()] = value.decode()
    if response.status_code != 101 and str(response.headers.get(
            "Content-Type", "")).startswith("text/plain"):
        text = bytes(response.body or b"").decode("utf-8", "replace").strip()
        body = json.dumps({"error": (text.splitlines() or ["refused"])[0]}).encode()
        del response.headers["Content-Type"], response.headers["Content-Length"]
        response.headers["Content-Type"] = "application/json"
        response.headers["Content-Length"] = str(len(body))
        response = dataclasses.replace(response, body=body)
    return response


TRANSPORT = "forties.transport"  # the scope's extension naming a websocket's connection
REASONS = {400: "Bad Request", 408: "Request Timeout", 429: "Too Many Requests",
           431: "Request Header Fields Too Large", 503: "Service Unavailable"}


def guarded_protocol(limits: Limits, trusted: tuple[str, ...] = (),
                     public_url: str | None = None) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol with this server's ``Doorman`` and read timeouts (one
    ``Doorman`` for every connection the class serves); every answer it writes carries
    the security headers of the site at ``public_url`` (HSTS where it is https)."""
    doorman = Doorman(int(limits.connections_per_address), int(limits.connections_total),
                      trusted)
    headers = bare_headers(origin_of(public_url) if public_url else None)

    def answer(status: int, message: str) -> bytes:
        return raw_answer(status, REASONS[status], message, headers)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        """A websocket, which leaves the door when it ends (its HTTP connection entered).
        Its connection is named in the scope (``TRANSPORT``), so that a process that does
        not run the websocket's table can hand the connection itself to the one that
        does (``forties.web.relay``)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            send_response = self.conn.send_response

            def headed(response: Any) -> None:
                send_response(headed_response(response, headers))
            self.conn.send_response = headed  # type: ignore[method-assign]

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"][TRANSPORT] = self.transport

        def connection_lost(self, exc: Exception | None) -> None:
            doorman.leave(self.client[0] if self.client else "")
            super().connection_lost(exc)

        async def send(self, message: Any) -> None:
            await super().send(message)
            if (message["type"] == "websocket.http.response.body"
                    and not message.get("more_body", False)):
                # a refusal answered in full (the guard's 403 or 429, before any accept):
                # the handshake is over, so that uvicorn does not log the app's return as
                # an ERROR "returned without completing handshake" (any stranger could
                # fill the log with them)
                self.handshake_complete = True

    class GuardedHttp(HttpToolsProtocol):
        doorman_of_class = doorman

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.ws_protocol_class = GuardedWebSocket
            self.entered: str | None = None
            self.timer: asyncio.TimerHandle | None = None
            self.header_bytes: int | None = 0  # read of this request's headers (None: all)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else ""
            refused = doorman.enter(address)
            if refused:
                status, message = refused
                transport.write(answer(status, message))
                transport.close()
                return
            self.entered = address
            self.wait(limits.header_seconds, "headers")

        def connection_lost(self, exc: Exception | None) -> None:
            self.stop_waiting()
            if self.entered is not None:
                doorman.leave(self.entered)
                self.entered = None
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            # the websocket's protocol leaves the door when it ends (GuardedWebSocket)
            self.stop_waiting()
            self.entered = None
            super().handle_websocket_upgrade()

        def data_received(self, data: bytes) -> None:
            if self.header_bytes is not None:
                self.header_bytes += len(data)
            super().data_received(data)
            if self.header_bytes is not None and self.header_bytes > limits.header_bytes \
                    and not self.transport.is_closing():
                self.stop_waiting()
                self.transport.write(answer(
                    431, f"a request's headers may be at most {limits.header_bytes} bytes"))
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.header_bytes is None:
                self.header_bytes = 0
            if self.timer is None:
                self.wait(limits.header_seconds, "headers")

        def send_400_response(self, msg: str) -> None:
            # (uvicorn's own: a request the parser cannot read)
            self.stop_waiting()
            self.transport.write(answer(400, "the request is not valid HTTP"))
            self.transport.close()

        def on_headers_complete(self) -> None:
            self.header_bytes = None
            self.stop_waiting()
            before = self.cycle
            super().on_headers_complete()
            if self.cycle is not None and self.cycle is not before:
                # (its task has not run yet: uvicorn's own 500 and 503 go through this too)
                self.cycle.send = headed_send(self.cycle.send,  # type: ignore[method-assign]
                                              headers)
            upgrade = self.parser.should_upgrade() and self._should_upgrade()
            if not upgrade and any(
                    (name == b"content-length" and value.strip() not in (b"", b"0"))
                    or name == b"transfer-encoding" for name, value in self.headers):
                self.wait(limits.body_seconds, "body")

        def on_message_complete(self) -> None:
            self.stop_waiting()
            self.header_bytes = 0  # (the next request on the connection, if any)
            super().on_message_complete()

        def wait(self, seconds: float, what: str) -> None:
            self.stop_waiting()
            self.timer = self.loop.call_later(seconds, self.too_slow, seconds, what)

        def stop_waiting(self) -> None:
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

        def too_slow(self, seconds: float, what: str) -> None:
            self.timer = None
            if self.transport.is_closing():
                return
            cycle = self.cycle
            if cycle is None or cycle.response_complete or not cycle.response_started:
                self.transport.write(answer(
                    408, f"the request's {what} did not come within {seconds:g} seconds"))
            if cycle is not None:
                cycle.disconnected = True
                cycle.message_event.set()
            self.transport.close()

    return GuardedHttp


def make_room_for(connections: int) -> None:
    """Let the process open enough files for ``connections`` and its own (the database,
    the workers' pipes): the soft limit raised, up to the hard one, where it is lower."""
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = connections + 256
        if soft != resource.RLIM_INFINITY and soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE,
                               (want if hard == resource.RLIM_INFINITY else min(want, hard),
                                hard))
    except (ValueError, OSError):
        pass


__all__ = ["TRANSPORT", "Doorman", "guarded_protocol", "make_room_for", "raw_answer"]
