"""A small websocket client of a table: a seat (or a spectator) that reconnects by itself.

Used by the tests and by the load test (``bench.load``). It keeps the last view
and the last event number, says hello with that number on every (re)connection, and
can play by itself: ``autoplay`` chooses among the view's legal actions and says
"ready" at each review.

An action (or a "ready") sent on a connection that then died may never have reached
the table: the server may have gone down before committing it. The client keeps it
until a frame shows the table has moved past it; after reconnecting, it says hello,
then pings, and when the pong comes (after the missed events, which the server sends
first) it sends the action again if the table is still where it was when the action
was chosen. Were it applied after all, the copy would be refused as stale and change
nothing: nothing is lost and nothing is doubled.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

Chooser = Callable[[dict[str, Any]], str]


class SeatClient:
    """One connection to ``/ws/TABLE`` (with ``token``: a seat; without: a spectator)."""

    def __init__(self, base: str, table: str, token: str | None = None,
                 keep_frames: bool = True, headers: dict[str, str] | None = None) -> None:
        self.url = f"{base.rstrip('/')}/ws/{table}" + (f"?token={token}" if token else "")
        self.headers = headers  # sent with each connection's request (a session's cookie)
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.pad: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.keep_frames = keep_frames
        self.connections = 0
        self.gaps = 0
        self.changed = asyncio.Event()
        self.ws: Any = None
        self.stopped = False
        self.task: asyncio.Task[None] | None = None
        self.chooser: Chooser | None = None
        self.ready_sent: set[int] = set()
        self.acted_on: int | None = None
        # the last action sent and not yet seen applied (or overtaken): {"type": "act",
        # "action", "version"}; the hand whose review this seat said "ready" to
        self.pending: dict[str, Any] | None = None
        self.pending_ready: int | None = None
        self.resent = 0
        self.catching_up = False
        self.sent_at: float | None = None
        self.latencies: list[float] = []
        self.rematch_url: str | None = None
        self.hints: list[dict[str, Any]] = []
        self.close_codes: list[int] = []  # each lost connection's close code (1006: none)
        # for the load test: who this is, what to call on each frame and each action sent,
        # and how long a player thinks before acting (seconds, about)
        self.table_id = table
        self.players = 0
        self.on_frame: Callable[[SeatClient, dict[str, Any]], None] | None = None
        self.on_send: Callable[[SeatClient, int], None] | None = None
        self.think = 0.0
        self.rng = random.Random()

    # ----- connection -------------------------------------------------------------------

    def start(self) -> SeatClient:
        self.task = asyncio.ensure_future(self.run())
        return self

    async def run(self) -> None:
        delay = 0.05
        while not self.stopped:
            try:
                async with websockets.connect(self.url, compression=None, open_timeout=10,
                                              ping_interval=None, max_size=2**22,
                                              additional_headers=self.headers) as ws:
                    self.ws = ws
                    self.connections += 1
                    delay = 0.05
                    self.catching_up = False
                    await ws.send(json.dumps({"type": "hello", "seq": self.seq}))
                    if self.connections > 1:
                        # the pong comes after the missed events: then we know whether
                        # what was sent on the old connection was applied
                        self.catching_up = True
                        await ws.send('{"type": "ping"}')
                    async for text in ws:
                        frame = json.loads(text)
                        if frame.get("type") == "pong" and self.catching_up:
                            self.catching_up = False  # our own ping: not kept as a frame
                            await self._resend()
                        else:
                            self._got(frame)
                        if not self.catching_up:
                            await self._maybe_play()
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, TimeoutError):
                pass
            code = getattr(self.ws, "close_code", None)
            if code is not None:
                self.close_codes.append(int(code))
            self.ws = None
            if self.stopped:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)

    async def stop(self) -> None:
        self.stopped = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task

    async def drop(self) -> None:
        """Close the connection (as a phone losing its network); it comes back by itself."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    async def send(self, obj: dict[str, Any]) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(obj))
        except ConnectionClosed:
            return False
        return True

    async def act(self, action: str, version: int | None = None) -> bool:
        """Send an action chosen on view ``version`` (the last view's if None); it is kept,
        and sent again after a reconnection if the table has not moved past it."""
        v = self.view["version"] if version is None and self.view else version
        self.sent_at = time.perf_counter()
        self.pending = {"type": "act", "action": action, "version": v}
        return await self.send(self.pending)

    async def ready(self) -> bool:
        """Done with the review of the hand in view (kept and resent as an action is)."""
        hand = self.view.get("hand_index") if self.view else None
        self.pending_ready = hand if isinstance(hand, int) else None
        return await self.send({"type": "ready"})

    def _settle(self) -> None:
        """Forget what the table has moved past (applied, or overtaken by other moves)."""
        v = self.view
        if v is None:
            return
        if self.pending is not None and v.get("version") != self.pending["version"]:
            self.pending = None
        if self.pending_ready is not None and (
                v.get("hand_index") != self.pending_ready or v.get("phase") != "hand-over"):
            self.pending_ready = None

    async def _resend(self) -> None:
        """Back after a lost connection, up to date with the table: send again what the
        table has not applied (the view is still at the version it was chosen on)."""
        self._settle()
        if self.pending is not None:
            self.resent += 1
            self.sent_at = time.perf_counter()
            await self.send(self.pending)
        if self.pending_ready is not None:
            self.resent += 1
            await self.send({"type": "ready"})

    # ----- frames -----------------------------------------------------------------------

    def _got(self, frame: dict[str, Any]) -> None:
        if self.keep_frames:
            self.frames.append(frame)
        if self.on_frame is not None:
            self.on_frame(self, frame)
        kind = frame.get("type")
        if kind == "snapshot":
            self.seq = frame["seq"]
            self.view = frame["view"]
            self.table = frame["table"]
            self.pad = frame["pad"]
        elif kind in ("event", "chat"):
            if frame["seq"] != self.seq + 1:
                self.gaps += 1
            self.seq = frame["seq"]
            if kind == "event":
                if self.sent_at is not None and frame["event"].get("kind") == "act":
                    self.latencies.append(time.perf_counter() - self.sent_at)
                    self.sent_at = None
                self.view = frame["view"]
                if "table" in frame:
                    self.table = frame["table"]
                if "pad" in frame:
                    self.pad = frame["pad"]
        elif kind == "error":
            if frame.get("code") in ("stale", "illegal", "turn"):
                self.pending = None  # refused: nothing to send again
            self.errors.append(frame)
        elif kind == "rematch":
            self.rematch_url = frame["url"]
        elif kind == "hint":
            self.hints.append(frame)
        if kind in ("snapshot", "event"):
            self._settle()
        self.changed.set()

    async def wait_for(self, test: Callable[[SeatClient], bool], timeout: float = 30.0) -> None:
        """Wait until ``test(self)`` holds; TimeoutError after ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while not test(self):
            left = end - time.monotonic()
            if left <= 0:
                v = self.view or {}
                raise TimeoutError(f"{self.url}: still waiting after {timeout} s (event "
                                   f"{self.seq}, hand {v.get('hand_index')}, phase "
                                   f"{v.get('phase')}, legal {v.get('legal')}, "
                                   f"errors {self.errors[-2:]})")
            self.changed.clear()
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    # ----- playing by itself ------------------------------------------------------------

    def autoplay(self, chooser: Chooser | None = None, seed: int = 0) -> SeatClient:
        rng = random.Random(seed)
        self.chooser = chooser or (lambda v: rng.choice(v["legal"]))
        return self

    async def play_now(self) -> None:
        """Play (or say "ready") if the view in hand calls for it: for a client whose
        ``autoplay`` was set after it connected."""
        await self._maybe_play()

    async def _maybe_play(self) -> None:
        v = self.view
        if self.chooser is None or v is None:
            return
        if v.get("legal") and self.acted_on != v["version"]:
            self.acted_on = v["version"]
            if self.think > 0:
                await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
            if self.on_send is not None:
                self.on_send(self, v["version"])
            await self.act(self.chooser(v), v["version"])
        elif v.get("phase") == "hand-over" and not v.get("over") and \
                v["hand_index"] not in self.ready_sent:
            self.ready_sent.add(v["hand_index"])
            await self.ready()

    @property
    def over(self) -> bool:
        return bool(self.view and self.view.get("over"))
