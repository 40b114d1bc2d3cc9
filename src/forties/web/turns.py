"""What a table waits for after each change, and what ends the wait: a computer's turn
(random and basic players inline, expert and oracle in the computers' pool), the turn
timer of a person (out of time: the seat is away and a computer plays it), the end of a
hand's review (every person ready, or after a while), the hand's par (in the pars' pool)
and the end of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ..state import GameState
from ..table import CLOSED, OVER, PERSON, PLAYING, REVIEW, WAITING, TableError
from .live import Live, LiveTables
from .pace import after_trick, table_pace
from .pools import ParsEnded, Pools, pool_choice, pool_par

log = logging.getLogger("forties.web")
QUICK_LEVELS = ("random", "basic")  # played inline: they answer at once
PAR_ASKED_AGAIN = 2  # a hand's par lost with the pars' process: asked again twice at most
TAKEOVER_SECONDS = 3.0  # a process waits this long for another's computer turn


class Turns:
    """The computers' turns, the turn timers, the reviews' ends and the pars of the
    tables in play here."""

    def __init__(self, tables: LiveTables, pools: Pools) -> None:
        self.tables = tables
        self.pools = pools
        self.takeover_seconds = TAKEOVER_SECONDS
        # what is done with every game that ends here (``web.games``: it is indexed)
        self.on_game_over: Callable[[Live], Awaitable[None]] | None = None

    def after(self, live: Live) -> None:
        """Set up what the table waits for now: a computer's turn, the review's end, the
        turn timer, the par, the end of the game. Only where the table is run (with
        several processes, its owner's)."""
        if self.tables.closing or not self.tables.runs(live):
            return
        t = live.table
        status = t.status
        if live.turn_timer is not None:
            live.turn_timer.cancel()
            live.turn_timer = None
        now = time.time()
        t.turn_clock(now)  # (a turn that goes on keeps its deadline)
        if status == PLAYING:
            seat = t.computer_to_act()
            if seat is not None:
                self._ensure_task(live, self._computer_turn(live, t.version))
            elif t.deadline is not None and t.state.turn is not None:
                live.turn_timer = asyncio.get_running_loop().call_later(
                    max(0.0, t.deadline - now), self._out_of_time, live, t.version,
                    t.state.turn)
        elif status == REVIEW:
            if t.all_ready():
                self._ensure_task(live, self._deal(live, t.version, 0.0))
            else:
                self._ensure_task(live, self._deal(live, t.version, t.settings.review_seconds))
        if status in (REVIEW, OVER):
            self.ask_par(live)
        if status == OVER and not live.told_over:
            live.told_over = True
            if live.on_over is not None:
                self.tables.spawn(live.on_over(t.id, t.summary_for_hall()))
            if self.on_game_over is not None:
                self.tables.spawn(self.on_game_over(live))

    def _ensure_task(self, live: Live, coro: Any) -> None:
        if live.task is not None and not live.task.done() and \
                live.task is not asyncio.current_task():
            live.task.cancel()
        live.task = self.tables.spawn(coro)

    def stop(self, live: Live) -> None:
        """Stop everything the table waits for (it is forgotten, or the server stops)."""
        live.stop_waiting()

    async def _computer_turn(self, live: Live, version: int) -> None:
        t = live.table
        delay = self.computer_delay(live) + (self.takeover_seconds if live.standby else 0.0)
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            await asyncio.sleep(0)
        async with live.lock:
            t = live.table
            d = t.decision()
            if t.version != version or d is None:
                return
        if d.level in QUICK_LEVELS:
            action = str(d.choose())
        elif self.tables.closing:
            return
        else:
            action = await asyncio.get_running_loop().run_in_executor(
                self.pools.computers, pool_choice, d.level, d.key, d.view,
                [str(a) for a in d.legal], d.seats)
        async with live.lock:
            try:
                events = live.table.computer_act(version, action)
                if events is None:
                    return
                await self.tables.commit(live, events)
            except TableError:
                return
        self.after(live)

    def computer_delay(self, live: Live) -> float:
        """How long a computer waits before it plays: the pace its table's persons told
        (``web.pace``), unless the operator set the server's own; else the table's."""
        t = live.table
        pace = None if self.tables.limits.bot_delay is not None else \
            table_pace(t, ((c.seat, c.pace) for c in live.conns))
        if pace is None:
            return t.settings.bot_delay
        return pace.trick if after_trick(t) else pace.card

    async def _deal(self, live: Live, version: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        async with live.lock:
            t = live.table
            if t.version != version or t.status != REVIEW:
                return
            try:
                await self.tables.commit(live, [{"kind": "deal",
                                                 "hand": t.state.hand_index + 1}])
            except TableError:
                return
        self.after(live)

    def _out_of_time(self, live: Live, version: int, seat: int) -> None:
        t = live.table
        if t.version == version and t.state.turn == seat and not t.seats[seat].away:
            self.tables.spawn(self.away(live, seat, version))

    async def away(self, live: Live, seat: int, version: int | None) -> None:
        """A person's seat is played by a computer until the person is back (out of time
        at ``version``; None: gone, or asked for)."""
        async with live.lock:
            t = live.table
            if t.seats[seat].away or t.seats[seat].kind != PERSON or t.status in (
                    WAITING, OVER, CLOSED) or (version is not None and t.version != version):
                return
            try:
                await self.tables.commit(live, [{"kind": "away", "seat": seat}])
            except TableError:
                return
        self.after(live)

    def ask_par(self, live: Live) -> None:
        """Work out the par of the hand under review, if someone is at the table to see
        it: a table the computers play on alone (everyone gone, their seats taken over)
        asks for none, so that its hands never queue before the pars of the tables
        people are watching (the pars' process takes one at a time). Asked again when
        someone comes back during the review. One par of a table's at a time: a table
        whose hands go faster than its pars queues no more than one, so that it cannot
        hold up the others' (the hand under review when its par is done is asked then)."""
        t = live.table
        hand = t.state.hand_index
        if not self.tables.limits.par or hand in t.par or hand in live.par_asked or \
                live.standby or live.par_running or not self.tables.runs(live):
            return  # (standby: the process that moved the table last works the par out)
        if not live.conns and not live.remote:
            return
        live.par_asked.add(hand)
        live.par_running = True
        self.tables.spawn(self.par_in_turn(live, hand, t.state.clone()))

    async def par_in_turn(self, live: Live, hand: int, state: GameState) -> None:
        """``par``, then the par of the hand under review now if it is another one."""
        try:
            await self.par(live, hand, state)
        finally:
            live.par_running = False
        t = live.table
        if not self.tables.closing and t.state.hand_index != hand and \
                t.status in (REVIEW, OVER):
            self.ask_par(live)

    async def par(self, live: Live, hand: int, state: GameState) -> None:
        if self.tables.closing:
            return
        try:
            value = await self.pools.pars.run(pool_par, state, self.tables.limits.par_budget)
        except ParsEnded as e:  # its process died: asked again when someone comes to the
            if self.tables.closing:  # table, twice at most (a par that kills its process
                return  # every time would start a fresh one at every event of the review)
            lost = live.par_lost[hand] = live.par_lost.get(hand, 0) + 1
            if lost <= PAR_ASKED_AGAIN:
                live.par_asked.discard(hand)
                log.warning("the par of table %s hand %d: %s", live.table.id, hand, e)
            else:
                log.warning("the par of table %s hand %d: %s; not asked again (lost %d "
                            "times)", live.table.id, hand, e, lost)
            return
        except Exception as e:  # this par failed, and would fail again: never asked again
            if not self.tables.closing:
                cause = " ".join(f"{type(e).__name__}: {e}".split())
                log.error("the par of table %s hand %d failed: %s", live.table.id, hand,
                          cause)
            return
        if value is None:
            return
        async with live.lock:
            t = live.table
            if hand in t.par:
                return
            with contextlib.suppress(TableError):
                await self.tables.commit(live, [{"kind": "par", "hand": hand,
                                                 "value": value}])


__all__ = ["PAR_ASKED_AGAIN", "QUICK_LEVELS", "TAKEOVER_SECONDS", "Turns"]
