"""Online duplicate sessions: each table of a round plays the round's boards one after
the other, each board a web table of its own (``service.create_table(board=...)``: it
deals exactly that board, its dealer dealing, and ends with that single hand; nobody
watches it).

A board table's seats: the North-South partnership in seats 0 and 2, East-West in 1 and
3; a partnership's people sit from their play links (``/dup/ID/play#key=...``, one key for
each member), and computer players at the session's fixed level sit where a partnership
is computers, in the second seat of a partnership with one computer seat, and in the pair
that fills an odd count. When a board table's game ends (``on_over``, or a poll of
``service.table_summary`` for a table another process ran), its record is replayed, the
hand recorded (``Session.record_hand``: it must be that board from 0-0), what the board
page shows of its play kept (the contract, the tricks, the double-dummy par), and the
table's next board opened; the next round's tables open once every table of the round is
done. A board table is first reserved in the session's document (compare-and-set), then
made by the process whose reservation was written: two processes opening it at once
make it once (``Online.reserve_tables``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import secrets
import time
from typing import Any

from ..duplicate import DuplicateError, Seating, Session
from ..fortyone import FortyOneState
from ..record import Record, RecordError, hand_summary, replay_record
from ..state import GameState, IllegalActionError
from . import duplicate_views as views
from .http import Refused
from .limits import RateLimited

log = logging.getLogger("forties.web.duplicate")
POLL_SECONDS = 3.0


RESERVE_SECONDS = 60.0  # a board table reserved and not made by then may be taken over


def stale(info: dict[str, Any]) -> bool:
    """Whether a session's entry for a board table is a reservation whose process has not
    made the table in ``RESERVE_SECONDS`` (gone, most likely)."""
    at = info.get("at")
    return "table" not in info and (not isinstance(at, (int, float))
                                    or time.time() - at > RESERVE_SECONDS)


def seats_of(body: dict[str, Any], session: Session, seat: Seating) -> list[dict[str, Any]]:
    """The four seats of a board table at ``seat`` (a table of a round)."""
    out: list[dict[str, Any]] = []
    extra = body.get("pairs") or {}
    for s in range(4):
        pair = session.partnerships[(seat.ns if s % 2 == 0 else seat.ew) - 1]
        member = s // 2
        one = (extra.get(str(pair.number)) or {}).get("one_computer")
        if pair.computer is not None:
            out.append({"kind": "computer", "level": pair.computer})
        elif one is not None and member == 1:
            out.append({"kind": "computer", "level": one})
        else:
            out.append({"kind": "person", "name": pair.name})
    return out


def seat_of(session: Session, pair: int, member: int, board: int) -> tuple[int, int] | None:
    """(table, seat) where ``member`` of ``pair`` plays ``board`` (None: it sits out)."""
    for b, table, direction in session.boards_of(pair):
        if b == board:
            return table, (0 if direction == "N-S" else 1) + 2 * member
    return None


def play_of(state: GameState) -> dict[str, Any]:
    """What the board page shows of a hand played online: the contract (the bidder, the
    bid and the trump; in Forty One each seat's bid) and the tricks."""
    s = hand_summary(state)
    if isinstance(state, FortyOneState):
        contract: dict[str, Any] = {"bids": s.get("bids")}
    else:
        contract = {"bidder": s.get("bidder"), "bid": s.get("bid"), "trump": s.get("trump")}
    return {"contract": contract,
            "tricks": [{"leader": t.get("leader"), "cards": t.get("cards"),
                        "winner": t.get("winner")} for t in s.get("tricks", [])],
            "par": None}


def replayed(summary: Any) -> GameState:
    """The finished hand of a board table's summary (its "record"); DuplicateError."""
    raw = summary.get("record") if isinstance(summary, dict) else None
    try:
        rec = Record.loads(raw) if isinstance(raw, str) else Record.from_json(raw)
        state = replay_record(rec)
    except (RecordError, IllegalActionError) as e:
        raise DuplicateError(f"the board table's record cannot be read: {e}") from None
    if state is None:
        raise DuplicateError("the board table's record holds no hand")
    return state


class Online:
    """The online sessions' board tables over one ``Sessions``."""

    def __init__(self, sessions: Any) -> None:
        self.ss = sessions
        self.service = sessions.service
        self.polled: dict[str, float] = {}

    async def begin(self, sid: str) -> None:
        """Open the first round's board tables (a session just made)."""
        reserved = await self.ss.change(sid, functools.partial(self.reserve_tables, sid))
        await self.make(sid, reserved)

    async def reserve_tables(self, sid: str, body: dict[str, Any], session: Session
                             ) -> list[tuple[str, str]]:
        """Reserve the board tables the round in play needs and has not (at each of its
        tables, the first of its boards not played there yet): a step of a change of
        the session, so that the session's document, written with compare-and-set, says
        which process makes each table; ``make`` then makes those this one reserved.
        Two processes opening the same board table at once both write a reservation;
        one write wins, the other reads the document again and finds the table taken,
        so a board table is made once (a reservation older than ``RESERVE_SECONDS``,
        its process gone before it made the table, may be taken over). Returns the
        ("board/table", reservation) pairs reserved here."""
        now = views.current_round(session)
        if now is None:
            return []
        online = body["online"]
        tables = online.setdefault("tables", {})
        rnd = session.movement.rounds[now - 1]
        out: list[tuple[str, str]] = []
        for seat in rnd.tables:
            board = next((b for b in rnd.boards if (b, seat.table) not in session.results),
                         None)
            where = f"{board}/{seat.table}"
            if board is None or (where in tables and not stale(tables[where])):
                continue
            try:  # (counted against the address that made the session)
                await self.ss.rates.take("evening_tables", str(body.get("maker") or sid))
            except RateLimited as e:  # the next change or poll makes the rest
                self.ss.problems[sid] = (f"board {board} at table {seat.table} is not open "
                                         f"yet ({e.message}); it will be in a minute")
                break
            mark = secrets.token_urlsafe(9)
            tables[where] = {"reserved": mark, "at": time.time()}
            out.append((where, mark))
        return out

    async def make(self, sid: str, reserved: list[tuple[str, str]]) -> None:
        """Make the board tables this process reserved, each kept in the session under
        its reservation (unless another process took the reservation over meanwhile:
        the table made here is then ended, a spare nobody was sent to)."""
        for where, mark in reserved:
            _, body, session = await self.ss.read(sid)
            if (body["online"]["tables"].get(where) or {}).get("reserved") != mark:
                continue
            board, table = map(int, where.split("/"))
            seat = session.movement.round_of(board).tables[table - 1]
            rules = body["rules"]
            preset = rules["preset"] if isinstance(rules, dict) else str(rules)
            options = rules.get("options", {}) if isinstance(rules, dict) else {}
            try:
                made = await self.service.create_table(
                    preset=preset, options=options, seats=seats_of(body, session, seat),
                    public=False, start=True,
                    on_over=functools.partial(self.table_over, sid),
                    board=session.boards[board - 1].to_json())
            except Exception as e:  # the next change or poll tries again
                self.ss.problems[sid] = (f"board {board} at table {table} could not "
                                         f"be opened: {e}")
                with contextlib.suppress(Refused):
                    await self.ss.change(sid, functools.partial(self._unreserve, where, mark))
                continue
            self.ss.problems.pop(sid, None)
            info = {"table": made["table"],
                    "tokens": {str(k): v for k, v in made.get("tokens", {}).items()}}
            try:
                kept = await self.ss.change(sid, functools.partial(self._keep, where, mark,
                                                                   info))
            except Refused:
                kept = False
            if not kept:
                log.warning("session %s: board table %s made twice; %s is spare",
                            sid, where, made["table"])

    @staticmethod
    async def _unreserve(where: str, mark: str, body: dict[str, Any],
                         session: Session) -> None:
        tables = body["online"]["tables"]
        if (tables.get(where) or {}).get("reserved") == mark:
            del tables[where]

    @staticmethod
    async def _keep(where: str, mark: str, info: dict[str, Any], body: dict[str, Any],
                    session: Session) -> bool:
        tables = body["online"]["tables"]
        if (tables.get(where) or {}).get("reserved") != mark:
            return False
        tables[where] = info
        return True

    async def table_over(self, sid: str, table_id: str, summary: Any) -> None:
        """A board table's game ended (the service's callback): recorded in a task of its
        own, so that a table ending while the session is being written never waits for
        itself."""
        task = asyncio.create_task(self.record_table(sid, table_id, summary))
        self.ss.tasks.add(task)
        task.add_done_callback(self.ss.tasks.discard)

    async def record_table(self, sid: str, table_id: str, summary: Any) -> bool:
        """Record a board table's hand; False if it was in already (or is not ours)."""
        try:
            state = replayed(summary)
        except DuplicateError as e:
            log.warning("session %s, table %s: %s", sid, table_id, e)
            return False
        try:
            where, reserved = await self.ss.change(
                sid, functools.partial(self._record, sid, table_id, state))
        except Refused:
            return False  # already in (a poll was first), or the session is gone
        self.ask_par(sid, where, state)
        await self.make(sid, reserved)
        return True

    async def _record(self, sid: str, table_id: str, state: GameState,
                      body: dict[str, Any], session: Session
                      ) -> tuple[str, list[tuple[str, str]]]:
        online = body.get("online") or {}
        tables = online.get("tables", {})
        where: str | None = next((str(k) for k, v in tables.items()
                                  if v.get("table") == table_id), None)
        if where is None:
            raise DuplicateError(f"table {table_id} is not one of this session's")
        board, table = map(int, where.split("/"))
        if (board, table) in session.results:
            raise DuplicateError(f"board {board} at table {table} is in already")
        session.record_hand(board, table, state)
        online.setdefault("plays", {})[where] = play_of(state)
        return where, await self.reserve_tables(sid, body, session)

    def ask_par(self, sid: str, where: str, state: GameState, asked: Any = None,
                **more: Any) -> None:
        """Work the hand's double-dummy par out in the pars' process (where the server
        has one), then keep it beside the hand's play (``views.plays_of``; with ``more``
        added to it), unless the play was replaced meanwhile (its ``asked`` changed: a
        hall result the director corrected)."""
        pool = getattr(self.service, "par_pool", None)
        limits = getattr(self.service, "limits", None)
        if pool is None or not getattr(limits, "par", False):
            return
        from .pools import pool_par

        async def work() -> None:
            try:
                value = await pool.run(pool_par, state, getattr(limits, "par_budget", None))
            except Exception as e:  # (the board page shows the play without its par)
                log.warning("the par of session %s board %s: %s", sid, where, e)
                return
            if value is None:
                return
            value = {**value, **more}

            async def keep(body: dict[str, Any], session: Session) -> None:
                play = views.plays_of(body).get(where)
                if play is not None and play.get("asked") == asked:
                    play["par"] = value

            with contextlib.suppress(Refused):
                await self.ss.change(sid, keep)

        task = asyncio.create_task(work())
        self.ss.tasks.add(task)
        task.add_done_callback(self.ss.tasks.discard)

    async def poll(self, sid: str, body: dict[str, Any], session: Session) -> None:
        """Ask the service about the open board tables (another process may have run
        them): record those that are over, open those missing."""
        if views.current_round(session) is None:
            return
        now = time.monotonic()
        if now - self.polled.get(sid, 0.0) < POLL_SECONDS:
            return
        self.polled[sid] = now
        tables = (body.get("online") or {}).get("tables", {})
        rnd = session.movement.rounds[(views.current_round(session) or 1) - 1]
        due = [f"{b}/{t.table}" for t in rnd.tables
               for b in [next((b for b in rnd.boards if (b, t.table) not in session.results),
                              None)] if b is not None]
        if any(w not in tables or stale(tables[w]) for w in due):
            with contextlib.suppress(Refused):
                await self.make(sid, await self.ss.change(
                    sid, functools.partial(self.reserve_tables, sid)))
        for where, info in list(tables.items()):
            board, table = map(int, where.split("/"))
            if (board, table) in session.results or "table" not in info:
                continue
            try:
                summary = await self.service.table_summary(info["table"])
            except Exception:  # a table the service no longer knows: the director decides
                continue
            if isinstance(summary, dict) and summary.get("status") == "over":
                await self.record_table(sid, info["table"], summary)

    def seat(self, body: dict[str, Any], session: Session, who: dict[str, Any]
             ) -> dict[str, Any]:
        """Where a partnership's member plays now: its board table's address with the
        seat's key, or why none."""
        pair, member = int(who["pair"]), int(who["member"])
        mine = views.pair_boards(session, pair)
        out: dict[str, Any] = {"pair": pair, "member": member,
                               "name": session.partnerships[pair - 1].name,
                               "boards": mine, "url": None, "board": None, "table": None}
        now = views.current_round(session)
        if now is None:
            return out | {"status": "over"}
        rnd = session.movement.rounds[now - 1]
        out["round"] = now
        todo = [b for b in rnd.boards if any(x["board"] == b and not x["done"]
                                             for x in mine)]
        if not any(x["board"] in rnd.boards for x in mine):
            return out | {"status": "sitting out"}
        if not todo:
            return out | {"status": "waiting"}
        board = todo[0]
        place = seat_of(session, pair, member, board)
        assert place is not None
        table, s = place
        info = (body.get("online") or {}).get("tables", {}).get(f"{board}/{table}")
        out.update(board=board, table=table)
        if info is None or str(s) not in info.get("tokens", {}):
            return out | {"status": "opening"}
        return out | {"status": "playing",
                      "url": f"/t/{info['table']}#token={info['tokens'][str(s)]}"}


def online_of(sessions: Any) -> Online:
    got: Online | None = sessions.online
    if got is None:
        got = sessions.online = Online(sessions)
    return got


__all__ = ["Online", "online_of", "play_of", "replayed", "seat_of", "seats_of"]
