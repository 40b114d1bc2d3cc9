"""A lean seat client for the load tests: the websocket protocol's few parts a seat needs,
on an ``asyncio.Protocol``, so that the load generator, which shares the machine's cores
with the server it measures, spends little on each frame.

``tests.client.SeatClient`` (the tests' client, on the ``websockets`` library) reads every
frame through that library's streams, queues and tasks; here a frame is cut from the bytes
received in the transport's own callback, decoded and acted on at once: the action chosen
is written before the callback returns. What a seat of the load test does is the same:
it says hello with the last event number it has (on every connection), keeps the last
view, plays a random legal action as soon as its view offers one (after about ``think``
seconds, if given) and says "ready" at each review; it answers the server's pings and its
close; a connection lost is made again (counted), and the seat plays again on the view it
is then sent (the server refuses, as stale, an action it had applied already).

Only what a load test needs: text frames (no compression, no extensions), frames from
the server unmasked and whole or in fragments, frames to it masked (RFC 6455); plain
``ws://`` or ``wss://`` (the default TLS context, which reads ``SSL_CERT_FILE``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import os
import random
import ssl
import time
from collections.abc import Callable
from typing import Any, cast
from urllib.parse import urlsplit

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's, for Sec-WebSocket-Accept
TEXT, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x8, 0x9, 0xA, 0x0
HEAD_MAX = 16 * 1024  # the handshake's answer
FRAME_MAX = 4 * 1024 * 1024  # a frame from the server


def frame(opcode: int, payload: bytes) -> bytes:
    """One whole frame from a client: FIN, ``opcode``, masked ``payload``."""
    n = len(payload)
    if n < 126:
        head = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    key = os.urandom(4)
    if not n:
        return head + key
    pad = (key * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(pad, "big")).to_bytes(n, "big")
    return head + key + masked


def accept_for(key: bytes) -> bytes:
    """The Sec-WebSocket-Accept a server answers to ``key``."""
    return base64.b64encode(hashlib.sha1(key + GUID).digest())


class Seat(asyncio.Protocol):
    """One seat (or a spectator, without a token) at ``/ws/TABLE`` of ``base``."""

    def __init__(self, base: str, table: str, token: str | None = None) -> None:
        self.url = f"{base.rstrip('/')}/ws/{table}" + (f"?token={token}" if token else "")
        parts = urlsplit(self.url)
        self.secure = parts.scheme == "wss"
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or (443 if self.secure else 80)
        self.target = parts.path + (f"?{parts.query}" if parts.query else "")
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.connections = 0
        self.changed = asyncio.Event()
        self.stopped = False
        self.task: asyncio.Task[None] | None = None
        self.chooser: Callable[[dict[str, Any]], str] | None = None
        self.acted_on: int | None = None
        self.ready_sent: set[int] = set()
        # for the load test: who this is, what to call on each frame and each action sent,
        # and how long a player thinks before acting (seconds, about)
        self.table_id = table
        self.players = 0
        self.on_frame: Callable[[Seat, dict[str, Any]], None] | None = None
        self.on_send: Callable[[Seat, int], None] | None = None
        self.think = 0.0
        self.rng = random.Random()
        self._transport: asyncio.Transport | None = None
        self._buf = bytearray()
        self._open = False  # the handshake was answered
        self._key = b""
        self._parts: list[bytes] = []  # a fragmented message's frames so far
        self._lost: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None

    # ----- connection -------------------------------------------------------------------

    def start(self) -> Seat:
        self.task = asyncio.ensure_future(self.run())
        return self

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        delay = 0.05
        while not self.stopped:
            self._lost = loop.create_future()
            try:
                await asyncio.wait_for(loop.create_connection(
                    lambda: self, self.host, self.port,
                    ssl=ssl.create_default_context() if self.secure else None), 10)
                await self._lost
                delay = 0.05
            except (OSError, TimeoutError, ConnectionError):
                pass
            if self.stopped:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)
        self._buf.clear()
        self._parts.clear()
        self._open = False
        self._key = base64.b64encode(os.urandom(16))
        self._transport.write(
            f"GET {self.target} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {self._key.decode()}\r\nSec-WebSocket-Version: 13\r\n"
            "\r\n".encode("ascii"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._lost is not None and not self._lost.done():
            self._lost.set_result(None)

    def _drop(self) -> None:
        if self._transport is not None:
            self._transport.abort()

    async def stop(self) -> None:
        self.stopped = True
        if self._transport is not None:
            with contextlib.suppress(Exception):
                self._transport.write(frame(CLOSE, (1000).to_bytes(2, "big")))
            self._transport.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    def send_json(self, obj: dict[str, Any]) -> None:
        if self._transport is not None and self._open:
            self._transport.write(frame(TEXT, json.dumps(obj).encode()))

    # ----- bytes in ---------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        buf = self._buf
        buf += data
        if not self._open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                if len(buf) > HEAD_MAX:
                    self._drop()
                return
            head = bytes(buf[:end]).decode("latin-1").split("\r\n")
            del buf[:end + 4]
            accept = next((line.split(":", 1)[1].strip() for line in head[1:]
                           if line.lower().startswith("sec-websocket-accept:")), "")
            if " 101 " not in head[0] + " " or accept.encode() != accept_for(self._key):
                self._drop()
                return
            self._open = True
            self.connections += 1
            self.acted_on = None  # (an action lost with a connection is chosen again)
            self.send_json({"type": "hello", "seq": self.seq})
        while len(buf) >= 2:
            b0, b1 = buf[0], buf[1]
            n, at = b1 & 0x7F, 2
            if n == 126:
                if len(buf) < 4:
                    return
                n, at = int.from_bytes(buf[2:4], "big"), 4
            elif n == 127:
                if len(buf) < 10:
                    return
                n, at = int.from_bytes(buf[2:10], "big"), 10
            if b1 & 0x80 or n > FRAME_MAX:  # a server never masks; nor sends this much
                self._drop()
                return
            if len(buf) < at + n:
                return
            payload = bytes(buf[at:at + n])
            del buf[:at + n]
            opcode = b0 & 0x0F
            if opcode in (TEXT, CONTINUATION):
                self._parts.append(payload)
                if b0 & 0x80:
                    text = b"".join(self._parts)
                    self._parts.clear()
                    self._got(json.loads(text))
            elif opcode == PING:
                assert self._transport is not None
                self._transport.write(frame(PONG, payload))
            elif opcode == CLOSE:
                assert self._transport is not None
                self._transport.write(frame(CLOSE, payload[:2]))
                self._transport.close()
                return

    # ----- frames -----------------------------------------------------------------------

    def _got(self, got: dict[str, Any]) -> None:
        if self.on_frame is not None:
            self.on_frame(self, got)
        kind = got.get("type")
        if kind == "snapshot":
            self.seq = got["seq"]
            self.view = got["view"]
        elif kind in ("event", "chat"):
            self.seq = got["seq"]
            if kind == "event":
                self.view = got["view"]
        elif kind == "error":
            self.errors.append(got)
        else:
            return
        self.changed.set()
        self._maybe_play()

    async def wait_for(self, test: Callable[[Seat], bool], timeout: float = 30.0) -> None:
        """Wait until ``test(self)`` holds; TimeoutError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not test(self):
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.url}: still waiting after {timeout} s (event "
                                   f"{self.seq}, errors {self.errors[-2:]})")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    # ----- playing by itself ------------------------------------------------------------

    def autoplay(self, chooser: Callable[[dict[str, Any]], str] | None = None,
                 seed: int = 0) -> Seat:
        rng = random.Random(seed)
        self.chooser = chooser or (lambda v: rng.choice(v["legal"]))
        return self

    async def play_now(self) -> None:
        """Play (or say "ready") if the view in hand calls for it: for a seat whose
        ``autoplay`` was set after it connected."""
        self._maybe_play()

    def _maybe_play(self) -> None:
        v = self.view
        if self.chooser is None or v is None or self._timer is not None:
            return
        if v.get("legal") and self.acted_on != v["version"]:
            self.acted_on = v["version"]
            if self.think > 0:
                self._timer = asyncio.get_running_loop().call_later(
                    self.think * self.rng.uniform(0.5, 1.5), self._act, v)
            else:
                self._act(v)
        elif v.get("phase") == "hand-over" and not v.get("over") and \
                v["hand_index"] not in self.ready_sent:
            self.ready_sent.add(v["hand_index"])
            self.send_json({"type": "ready"})

    def _act(self, v: dict[str, Any]) -> None:
        self._timer = None
        assert self.chooser is not None
        if self.on_send is not None:
            self.on_send(self, v["version"])
        self.send_json({"type": "act", "action": self.chooser(v), "version": v["version"]})
        if self.view is not v:  # (the table moved while this seat thought)
            self._maybe_play()


__all__ = ["Seat", "accept_for", "frame"]
