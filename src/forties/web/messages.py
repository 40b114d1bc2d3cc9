"""The table's websocket protocol: what each message from a connection asks, and what
answers it. Every message is checked (its size, the connection's pace, JSON with a
"type") and its text made storable (``text.clean_json``); a refusal is one error frame
to that connection alone.

    ping                      -> pong
    hello {seq}               -> the frames since ``seq`` (0, or too old: a snapshot)
    act {action, version}     an action at the seat's turn (every connection hears it)
    chat {text} | {phrase}    a line at the table (``chats`` a minute from an address)
    away / back               the seat handed to a computer, or taken back
    ready                     done reviewing the hand
    pace {pace}               the pace this page follows the table at: "slow", "normal"
                                 or "fast" (``web.pace``: the computers wait for it)
    hint                      -> hint: the best action at the seat's own turn (``hints``
                                 a minute from an address; one at a time for each table:
                                 another asked meanwhile is answered "busy")
    rematch                   -> rematch: the link to the next table, with the seat's key
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from ..table import OVER, PHRASES, REVIEW, Event, TableError, name_key
from . import metrics
from .catchup import CatchUp
from .limits import RateLimited, Rates
from .live import HOST, Conn, Live, LiveTables, muted_line
from .pace import check_pace
from .pools import Pools, pool_hint
from .presence import Presence
from .rematch import Rematches
from .text import CHAT_MAX, clean_json, line, plain
from .turns import Turns

log = logging.getLogger("forties.web")


class Messages:
    """The answers to the messages of every connection to the tables in play here."""

    def __init__(self, tables: LiveTables, turns: Turns, presence: Presence,
                 rematches: Rematches, catch_up: CatchUp, pools: Pools,
                 rates: Rates | None = None) -> None:
        self.tables = tables
        self.rates = rates or Rates(tables.limits)
        self.turns = turns
        self.presence = presence
        self.rematches = rematches
        self.catch_up = catch_up
        self.pools = pools

    async def receive(self, conn: Conn, live: Live, raw: str) -> None:
        """One message from a connection: checked, answered in one line if refused."""
        limit = self.tables.limits.message_bytes
        if len(raw.encode("utf-8", "replace")) > limit:
            conn.error("size", f"a message may be at most {limit} bytes")
            return
        if not conn.bucket.take():
            conn.error("rate", "too many messages: slow down")
            return
        try:
            msg = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            conn.error("bad", "that message is not JSON")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.error("bad", "a message is a JSON object with a \"type\"")
            return
        if not plain(raw):
            msg = clean_json(msg)  # its text storable before anything reads it
        try:
            await self.handle(conn, live, msg)
        except TableError as e:
            conn.error(e.code, e.reason, e.refusal, e.params)
        except RateLimited as e:
            conn.error(e.code, e.message)

    async def handle(self, conn: Conn, live: Live, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send('{"type": "pong"}')
            return
        if kind == "hello":
            if self.tables.bus is not None:  # this process may not have heard every move
                await self.catch_up.refresh(live, wake=True)
            await self._hello(conn, live, msg.get("seq", 0))
            return
        if conn.live is None:
            raise TableError("bad", "say hello first")
        seat = conn.seat
        if kind == "act":
            began = time.perf_counter()
            async with live.lock:
                await self.tables.commit(live, live.table.act(seat, msg.get("action"),
                                                              msg.get("version")))
            metrics.ACTION_SECONDS.observe(time.perf_counter() - began)
            self.turns.after(live)
        elif kind == "chat":
            await self._chat(conn, live, seat, msg)
        elif kind == "back":
            if seat is None:
                raise TableError("seat", "spectators have no seat to take back")
            async with live.lock:
                if not live.table.seats[seat].away:
                    raise TableError("back", "your seat is yours already")
                await self.tables.commit(live, [{"kind": "back", "seat": seat}])
            self.turns.after(live)
        elif kind == "away":
            if seat is None:
                raise TableError("seat", "spectators have no seat")
            await self.turns.away(live, seat, None)
        elif kind == "ready":
            if seat is None:
                raise TableError("seat", "spectators have no seat")
            async with live.lock:
                t = live.table
                if t.status != REVIEW:
                    raise TableError("turn", "there is no hand to review now")
                if seat in t.ready:
                    return
                await self.tables.commit(live, [{"kind": "ready", "seat": seat}])
            self.turns.after(live)
        elif kind == "pace":
            conn.pace = check_pace(msg.get("pace"))
        elif kind == "hint":
            await self._hint(conn, live)
        elif kind == "rematch":
            await self.rematches.ask(conn, live)
        else:
            raise TableError("bad", f"unknown message type {kind[:40]!r}")

    async def _hello(self, conn: Conn, live: Live, seq: Any) -> None:
        if type(seq) is not int or seq < 0:
            raise TableError("bad", "hello needs the last event number the client has (0: none)")
        async with live.lock:
            t = live.table
            host = conn.seat == HOST
            now = time.time()
            frames = t.frames_since(conn.seat, seq, host, now) if seq else None
            if frames is None:
                snap = t.snapshot(conn.seat, host, now)
                if conn.deaf_to:  # (the chat of accounts it blocks is not delivered)
                    snap["chat"] = [m for m in snap["chat"]
                                    if not conn.deaf(live, m.get("seat"))]
                conn.send_json(snap)
            else:
                for f in frames:
                    if f.get("type") == "chat" and conn.deaf(live, f.get("seat")):
                        conn.send_json(muted_line(f["seq"]))
                    else:
                        conn.send_json(f)
            if conn.live is None:
                conn.live = live
                live.conns.add(conn)
            self.presence.seen(live)
            if t.status in (REVIEW, OVER):  # the par, if nobody was here to ask it
                self.turns.ask_par(live)

    async def _chat(self, conn: Conn, live: Live, seat: int | None,
                    msg: dict[str, Any]) -> None:
        if seat is None:
            raise TableError("seat", "spectators watch without speaking")
        if live.table.silenced and name_key(live.table.seats[seat].name) in live.table.silenced:
            return  # the operator silenced this name at this table: its chat is dropped
        await self.rates.take("chats", conn.address)
        event: Event = {"kind": "chat", "seat": seat, "name": live.table.seats[seat].name}
        if "phrase" in msg:
            if msg["phrase"] not in PHRASES:
                raise TableError("bad", f"phrases are {', '.join(PHRASES)}")
            event["phrase"] = msg["phrase"]
        else:
            text = msg.get("text")
            if not isinstance(text, str):
                raise TableError("bad", "a chat message needs \"text\" or \"phrase\"")
            text = line(text, CHAT_MAX)
            if not text:
                raise TableError("bad", "say something")
            event["text"] = text
        async with live.lock:
            await self.tables.commit(live, [event])

    async def _hint(self, conn: Conn, live: Live) -> None:
        t = live.table
        seat = t.check_hint(conn.seat)
        if self.tables.closing:
            raise TableError("turn", "the server is stopping: ask again when it is back")
        if live.hinting:
            raise TableError("busy", "a hint is being worked out at this table: ask again "
                                     "when it comes")
        await self.rates.take("hints", conn.address)
        if live.hinting:  # (asked meanwhile, while the count was taken)
            raise TableError("busy", "a hint is being worked out at this table: ask again "
                                     "when it comes")
        live.hinting = True
        # worked out beside the connection, which reads on meanwhile (an action, a ping, the
        # server's drain): a server that stops cancels it with its other background work
        self.tables.spawn(self._work_out_hint(conn, live, t.state.clone(), seat, t.version))

    async def _work_out_hint(self, conn: Conn, live: Live, state: Any, seat: int,
                             version: int) -> None:
        try:
            got = await asyncio.get_running_loop().run_in_executor(self.pools.computers,
                                                                   pool_hint, state, seat)
        except Exception:
            log.exception("a hint failed")
            conn.error("busy", "no hint could be worked out just now: ask again")
            return
        finally:
            live.hinting = False
        if live.table.version == version:
            conn.send_json({"type": "hint", **got})


__all__ = ["CHAT_MAX", "Messages"]
