"""A stranger at the transport: bodies far over a route's limit (refused before they are
held: the server's peak memory hardly moves), headers and bodies sent too slowly (the
connection dropped within the limit's seconds), and too many connections from one address
or in all (refused at once). The limits are set low through FORTIES_LIMITS."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator

import pytest
import websockets
from websockets.sync.client import connect as ws_connect

from .doors import (
    Door,
    connect,
    doors,
    memory_kb,
    new_table,
    read_all,
    reset_peak,
    status_and_body,
    until,
)

BIG = 50 * 1024 * 1024  # bytes a stranger offers
SLOW = {"header_seconds": 1, "body_seconds": 1}
NARROW = {"connections_per_address": 4, "connections_total": 6, "websockets_per_address": 2}


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Door]]:
    with doors(tmp_path_factory.mktemp("transport"), (SLOW, []), (NARROW, [])) as both:
        yield both


@pytest.fixture
def slow(servers: list[Door]) -> Door:
    return servers[0]


@pytest.fixture
def narrow(servers: list[Door]) -> Iterator[Door]:
    yield servers[1]
    until(lambda: answers(servers[1]), "the server let a new connection in again")


def answers(door: Door) -> bool:
    """Whether a new connection gets /healthz answered (the server counts none too many)."""
    with connect(door) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return status_and_body(read_all(s))[0] == 200


# ----- bodies -------------------------------------------------------------------------------


def offer(door: Door, path: str, chunked: bool) -> tuple[bytes, int]:
    """POST ``BIG`` bytes to ``path``, declared (Content-Length) or streamed (chunked),
    stopping as soon as the server answers or closes: its answer, and the bytes sent."""
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{door.port}\r\n"
            "Content-Type: application/json\r\n"
            + ("Transfer-Encoding: chunked\r\n" if chunked else f"Content-Length: {BIG}\r\n")
            + "\r\n")
    piece = b"[" * 65536
    if chunked:
        piece = b"%x\r\n" % len(piece) + piece + b"\r\n"
    sent = 0
    with connect(door) as s:
        s.sendall(head.encode())
        while sent < BIG and not select.select([s], [], [], 0)[0]:
            try:
                s.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 65536
        return read_all(s), sent


@pytest.mark.parametrize("path", ["/api/tables", "/api/pads"])
@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "streamed"])
def test_a_body_over_the_limit_is_refused_before_it_is_held(slow: Door, path: str,
                                                             chunked: bool) -> None:
    new_table(slow)  # every path the refusal takes has run once
    reset_peak(slow.pid)
    before = memory_kb(slow.pid, "VmRSS")
    answer, sent = offer(slow, path, chunked)
    grew = memory_kb(slow.pid, "VmHWM") - before
    status, body = status_and_body(answer)
    assert status == 413 and "too large" in body["error"], answer[:300]
    assert grew < 4096, f"the server's memory grew by {grew} KiB for {sent} bytes sent"
    assert sent < 16 * 1024 * 1024, f"the server read {sent} bytes before it refused"


def test_headers_over_their_limit_are_refused_before_they_are_held(slow: Door) -> None:
    """A header line that never ends (BIG bytes offered) is answered 431 after the first
    64 KiB or so, one line with the headers of every answer, and the server's memory does
    not hold what was offered."""
    answers(slow)
    reset_peak(slow.pid)
    before = memory_kb(slow.pid, "VmRSS")
    sent = 0
    with connect(slow) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ")
        while sent < BIG and not select.select([s], [], [], 0)[0]:
            try:
                s.sendall(b"a" * 65536)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += 65536
        answer = read_all(s)
    grew = memory_kb(slow.pid, "VmHWM") - before
    status, body = status_and_body(answer)
    assert status == 431 and "at most 65536 bytes" in body["error"], answer[:300]
    head = answer.split(b"\r\n\r\n")[0].lower()
    assert b"x-content-type-options: nosniff" in head and b"content-security-policy" in head
    assert grew < 4096, f"the server's memory grew by {grew} KiB for {sent} bytes sent"
    assert sent < 16 * 1024 * 1024, f"the server read {sent} bytes before it refused"


def test_long_headers_within_the_limit_are_served(slow: Door) -> None:
    with connect(slow) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"a" * 60000
                  + b"\r\nConnection: close\r\n\r\n")
        assert status_and_body(read_all(s))[0] == 200


# ----- what the server writes itself ----------------------------------------------------


def security_headers_of(answer: bytes) -> dict[str, str]:
    """The security headers of a raw answer (those the guard gives every answer)."""
    head = answer.split(b"\r\n\r\n")[0].decode("latin-1").lower().split("\r\n")[1:]
    got = dict(line.split(": ", 1) for line in head if ": " in line)
    return {k: v for k, v in got.items()
            if k in ("content-security-policy", "x-content-type-options", "referrer-policy",
                     "x-frame-options")}


BARE = {"content-security-policy": "default-src 'none'; frame-ancestors 'none'",
        "x-content-type-options": "nosniff", "referrer-policy": "no-referrer",
        "x-frame-options": "deny"}


@pytest.mark.parametrize("sent", [
    b"NOT A REQUEST\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nA Header With Spaces\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n",
], ids=["request-line", "header", "length"])
def test_a_request_that_is_not_http_is_answered_in_one_line_with_the_headers(
        slow: Door, sent: bytes) -> None:
    """uvicorn answers a request its parser cannot read itself ("Invalid HTTP request
    received.", plain text, no security headers): here one line of JSON with them."""
    with connect(slow) as s:
        s.sendall(sent)
        answer = read_all(s)
    status, body = status_and_body(answer)
    assert status == 400 and body == {"error": "the request is not valid HTTP"}, answer[:300]
    assert security_headers_of(answer) == BARE, answer[:600]


def test_a_websocket_handshake_refused_by_the_transport_carries_the_headers(slow: Door
                                                                            ) -> None:
    """A websocket upgrade with no key is refused by websockets itself (before the app):
    its answer carries the security headers, and says why in one line of JSON."""
    with connect(slow) as s:
        s.sendall(b"GET /ws/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                  b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n")
        answer = read_all(s)
    status, body = status_and_body(answer)
    assert status == 400 and "Sec-WebSocket-Key" in body["error"], answer[:300]
    assert security_headers_of(answer) == BARE, answer[:600]


def test_a_served_site_refuses_another_name(slow: Door) -> None:
    """``forties serve`` always knows its address (``--public-url``, or the one it serves
    on): a request that names another (DNS rebinding) is refused, the address is served."""
    for host, status in [(b"evil.example:%d" % slow.port, 421),
                         (b"localhost:%d" % slow.port, 200), (b"127.0.0.1", 200)]:
        with connect(slow) as s:
            s.sendall(b"GET /api/presets HTTP/1.1\r\nHost: " + host
                      + b"\r\nConnection: close\r\n\r\n")
            got, body = status_and_body(read_all(s))
        assert got == status, (host, body)


# ----- slow clients ---------------------------------------------------------------------------


# The server drops a slow client after the limit's 1 s. The tests wait for the drop at most
# GUARD seconds, only so that a server that never drops the client fails the test instead
# of hanging it, and check what dropped it, not how long it took: the server's own 408,
# which names the limit it went by (1 s, not the default 10 or 30 s). A test that timed
# the drop ("within 4 s") failed whenever a loaded machine held the server or the test
# back for a few seconds.
GUARD = 30.0


def dropped(s: socket.socket) -> tuple[int, dict[str, str]]:
    """The status and body of what the server said before it closed ``s``."""
    s.settimeout(GUARD)
    try:
        answer = read_all(s)
    except TimeoutError:
        raise AssertionError(f"the connection was still open after {GUARD:g} s") from None
    return status_and_body(answer)


def test_a_client_that_sends_nothing_is_dropped(slow: Door) -> None:
    with connect(slow) as s:
        assert dropped(s) == (408, {"error": "the request's headers did not come within "
                                             "1 seconds"})


def test_partial_headers_are_dropped(slow: Door) -> None:
    with connect(slow) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        assert dropped(s) == (408, {"error": "the request's headers did not come within "
                                             "1 seconds"})


def test_headers_a_byte_at_a_time_are_dropped(slow: Door) -> None:
    """Bytes that keep coming do not keep the connection: the headers have their seconds
    from the first byte. (The client sends a line every 0.2 s until the server closes: a
    server that counted the seconds from the last byte would never close it, and the test
    fails after GUARD seconds.)"""
    with connect(slow) as s:
        began = time.monotonic()
        s.sendall(b"GET /healthz HTTP/1.1\r\n")
        closed = False
        answer = b""
        while not closed and time.monotonic() - began < GUARD:
            try:
                s.sendall(b"X-Slow-" + str(int(time.monotonic() * 10)).encode() + b": 1\r\n")
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            closed = bool(select.select([s], [], [], 0.2)[0])  # the server answered or closed
            if closed:
                s.settimeout(GUARD)
                answer = read_all(s)  # (nothing if the close reset the connection)
        assert closed, f"the server kept a connection whose headers never ended for {GUARD:g} s"
        if answer:
            assert status_and_body(answer) == (408, {
                "error": "the request's headers did not come within 1 seconds"}), answer


def test_a_partial_body_is_dropped(slow: Door) -> None:
    with connect(slow) as s:
        s.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"preset\"")
        assert dropped(s) == (408, {"error": "the request's body did not come within "
                                             "1 seconds"})


# ----- how many --------------------------------------------------------------------------------


def test_connections_from_one_address_are_capped(narrow: Door) -> None:
    held = [connect(narrow) for _ in range(4)]
    try:
        with connect(narrow) as s:
            status, body = status_and_body(read_all(s))
        assert status == 429 and "from this address" in body["error"]
        with connect(narrow, source="127.0.0.2") as s:  # another address is let in
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            assert status_and_body(read_all(s))[0] == 200
    finally:
        for s in held:
            s.close()


def test_connections_in_all_are_capped(narrow: Door) -> None:
    held = [connect(narrow, source=f"127.0.0.{2 + i % 3}") for i in range(6)]
    try:
        with connect(narrow, source="127.0.0.9") as s:
            status, body = status_and_body(read_all(s))
        assert status == 503 and "full" in body["error"]
    finally:
        for s in held:
            s.close()


def test_idle_websockets_from_one_address_are_capped(narrow: Door) -> None:
    table = new_table(narrow)["table"]
    url = f"{narrow.ws}/ws/{table}"
    with contextlib.ExitStack() as held:
        for _ in range(2):
            w = held.enter_context(ws_connect(url, open_timeout=10))
            w.send(json.dumps({"type": "hello", "seq": 0}))
            assert json.loads(w.recv(timeout=10))["type"]  # let in: the table's snapshot
        with pytest.raises(websockets.InvalidStatus) as refused:
            ws_connect(url, open_timeout=10)
        assert refused.value.response.status_code == 429
        assert b"too many open connections" in refused.value.response.body


def test_uvicorns_own_answers_through_the_app_cycle_get_the_headers() -> None:
    """uvicorn's 503 past ``limit_concurrency`` (and its 500) are sent through the
    request's ``send``, which the transport heads: they carry the security headers; an
    answer that has them already (the guard's) gets no second copy."""
    import asyncio

    from uvicorn.protocols.http.flow_control import service_unavailable

    from forties.web.guard import bare_headers
    from forties.web.transport import headed_send

    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def ask() -> None:
        await service_unavailable({"type": "http"}, None,  # type: ignore[arg-type]
                                  headed_send(send, bare_headers(None)))
        await headed_send(send, bare_headers(None))(
            {"type": "http.response.start", "status": 200,
             "headers": [(b"x-content-type-options", b"nosniff")]})

    asyncio.run(ask())
    names = [name for name, _ in sent[0]["headers"]]  # type: ignore[attr-defined]
    assert sent[0]["status"] == 503 and set(dict(bare_headers(None))) <= set(names)
    again = [name for name, _ in sent[2]["headers"]]  # type: ignore[attr-defined]
    assert again.count(b"x-content-type-options") == 1 and b"referrer-policy" in again
