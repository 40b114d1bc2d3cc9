"""Live tables: every request to a table is checked, committed, applied, then told.

The ``Service`` keeps the tables in play in memory (one ``asyncio.Lock`` each) over the
``Store``. An action is committed to the database before anyone hears of it; the
database's version of a table is the authority (another process that moved the table
first makes this one reload it and refuse the action as stale). Each event is told to
every connection at the table with a frame built once per seat from that seat's view.

Computer players take their turns here: random and basic players inline, expert and
oracle in a process pool so the event loop never waits on a search. Turn timers and a
grace period for dropped connections hand a seat to a computer player until its person
is back; the review of a finished hand closes when every person is ready or after a
while; the double-dummy par of each hand is worked out in a process of its own
(``forties.web.pools``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..rules import RulesError, build_rules, rules_from_json
from ..state import GameState
from ..table import (
    COMPUTER,
    EMPTY,
    GAME_EVENTS,
    OVER,
    PERSON,
    PHRASES,
    PLAYING,
    REVIEW,
    WAITING,
    Event,
    Seat,
    Settings,
    Table,
    TableError,
    check_level,
    computer_name,
)
from .limits import Bucket, Limits, PerMinute
from .pools import ParPool, ParsEnded, computers_pool, pool_choice, pool_hint, pool_par
from .store import Conflict, Store

if TYPE_CHECKING:
    from .bus import Bus

log = logging.getLogger("forties.web")
QUICK_LEVELS = ("random", "basic")
HOST = 0  # the seat of the table's host (who made it)
QUEUE_MAX = 512  # frames waiting for a slow connection before it is dropped
NAME_MAX = 40
CHAT_MAX = 200

OnOver = Callable[[str, dict[str, Any]], Awaitable[None]]
# Frames are written compactly, and without the check for circular data (a frame is built
# of plain data, fresh for each event): every frame of every event goes through here.
encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(raw: Any, default: str) -> str:
    """A player's name as given: printable, one line, at most 40 characters."""
    if raw is None or raw == "":
        return default
    if not isinstance(raw, str):
        raise TableError("bad", "a name must be text")
    text = "".join(c for c in raw if unicodedata.category(c)[0] != "C").strip()
    if not text:
        return default
    return text[:NAME_MAX]


@dataclass(eq=False)
class Conn:
    """One websocket at a table: a seat (None: a spectator) and its outgoing frames."""

    seat: int | None
    bucket: Bucket
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    live: Live | None = None
    closed: bool = False
    token: str | None = None  # the seat's key, as its link gave it (a rematch keeps it)

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= QUEUE_MAX:  # too slow: drop it; it reconnects and catches up
            self.close()
            return
        self.queue.put_nowait(text)

    def send_json(self, obj: Mapping[str, Any]) -> None:
        self.send(encode(obj))

    def error(self, code: str, message: str, refusal: str | None = None,
              params: dict[str, Any] | None = None) -> None:
        """A refusal, to this connection only: ``message`` in English; ``refusal`` and
        ``params``, where the engine's reason has a code, for the page's own words."""
        out: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if refusal:
            out["refusal"] = refusal
            out["params"] = params or {}
        self.send_json(out)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass(eq=False)
class Live:
    """A table in play in this process."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    task: asyncio.Task[None] | None = None  # the computer's turn or the review's end
    turn_timer: asyncio.TimerHandle | None = None
    grace: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    rematch: str | None = None  # the table made as this one's rematch
    on_over: OnOver | None = None
    told_over: bool = False
    par_asked: set[int] = field(default_factory=set)
    par_lost: dict[int, int] = field(default_factory=dict)  # a hand: its pars lost so far
    # several processes: the last events came from another one, which plays the computer
    # turns; this one waits longer before playing them itself (if that process died)
    standby: bool = False
    catching_up: bool = False
    again: bool = False
    # presence: the seats with a connection here, and on the other processes (Redis)
    here: set[int] = field(default_factory=set)
    remote: set[int] = field(default_factory=set)


class Service:
    """Every live table of this process over one store."""

    def __init__(self, store: Store, limits: Limits | None = None) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.tables: dict[str, Live] = {}
        self._loading = asyncio.Lock()
        self._pool: Executor | None = None
        self.par_pool = ParPool(int(self.limits.par_nice))
        self._created = PerMinute(self.limits.tables_per_minute)
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        self.bus: Bus | None = None  # several processes: Redis tells each of the others' moves
        self.takeover_seconds = TAKEOVER_SECONDS
        self._beat: asyncio.Task[None] | None = None
        self._here_lock = asyncio.Lock()

    # ----- life ---------------------------------------------------------------------

    async def start(self) -> None:
        """Bring back every table that was playing (computer turns go on), start the
        sweep of unfilled tables."""
        if self.bus is not None:
            await self.bus.start(self.moved_elsewhere, self.noted)
            self._beat = asyncio.create_task(self._beating())
        for table_id in await self.store.ids_with_status(PLAYING):
            try:
                live = await self.live(table_id)
            except Exception:  # one unreadable table must not keep the others down
                log.exception("table %s could not be brought back", table_id)
                continue
            if live is not None:
                live.standby = self.bus is not None  # the others may be playing it
                self.after(live)
        self._sweeper = asyncio.create_task(self._sweep())

    async def close(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._beat is not None:
            self._beat.cancel()
        if self.bus is not None:  # this process's seats are gone at once, not in seconds
            gone = {tid: live.here for tid, live in self.tables.items() if live.here}
            with contextlib.suppress(Exception):
                async with self._here_lock:
                    await self.bus.here({}, gone)
        for live in list(self.tables.values()):
            self._stop_timers(live)
            for c in list(live.conns):
                c.close()
        for t in list(self._tasks):
            t.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.par_pool.close()
        self._pool = None
        if self.bus is not None:
            await self.bus.close()

    @property
    def pool(self) -> Executor:
        if self.closing:  # (a process started now would outlive its server's stop)
            raise RuntimeError("the server is stopping: no more computer players' work")
        if self._pool is None:
            self._pool = computers_pool(int(self.limits.workers))
        return self._pool

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background work failed", exc_info=task.exception())

    # ----- tables -------------------------------------------------------------------

    async def live(self, table_id: str) -> Live | None:
        """The table ``table_id`` in play here (loaded from the store if need be)."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        async with self._loading:
            live = self.tables.get(table_id)
            if live is None:
                table = await self._load(table_id)
                if table is None:
                    return None
                live = self.tables[table_id] = Live(table)
                fresh = True
            else:
                fresh = False
        if fresh and self.bus is not None:  # who is connected on the other processes
            await self._look(live)
        return live

    async def _load(self, table_id: str) -> Table | None:
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            return None
        got = await self.store.load(table_id)
        if got is None:
            return None
        row, events = got
        if row["status"] == "expired":
            return None
        table = Table(row["id"], rules_from_json(json.loads(row["rules"])), int(row["seed"]),
                      Settings.from_json(json.loads(row["settings"])),
                      int(row["first_dealer"] or 0))
        self._pace(table)
        for e in events:  # (stored as the table made them: the database knows no table)
            table.apply(cast(Event, e))
        return table

    def _pace(self, table: Table) -> None:
        lim = self.limits
        for name in ("bot_delay", "review_seconds", "grace_seconds"):
            v = getattr(lim, name)
            if v is not None:
                setattr(table.settings, name, float(v))

    async def _reload(self, live: Live) -> None:
        """Another process moved the table: take the database's events since ours, and
        tell this process's connections of them."""
        await self._catch_up(live)

    async def seat_of(self, table_id: str, token: str) -> int | None:
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        return await self.store.seat_of_token(table_id, token_hash(token))

    def allow_create(self, client: str) -> bool:
        """Table creation is limited per client address (tables_per_minute)."""
        return self._created.take(client)

    async def create_table(self, preset: str, options: dict[str, Any] | None = None,
                           seats: list[dict[str, Any]] | None = None, public: bool = False,
                           start: bool = True, dealer: int | None = None,
                           on_over: OnOver | None = None,
                           settings: dict[str, Any] | None = None,
                           rematch_of: str | None = None) -> dict[str, Any]:
        """A new table. ``seats``: one entry a seat ({"name", "kind": "person"} or
        {"kind": "computer", "level", "name"?} or {"kind": "empty"}; missing ones are
        empty; a person's may carry the "token_hash" of the key it keeps from another
        table; a computer's name, cleaned as a person's is, is "Computer (level)" when it
        has none).
        Returns {"table", "tokens": {seat: token} (people given a new key), "invites":
        {seat: code} (empty seats)}. Raises TableError("bad", ...) with the engine's
        message. ``rematch_of``: the table this one is the rematch of; if another
        process made that rematch first, its table is the answer (the database keeps
        one)."""
        if not isinstance(preset, str):
            raise TableError("bad", "preset must be the name of a preset")
        if options is not None and not isinstance(options, dict):
            raise TableError("bad", "options must be an object of name: value")
        try:
            rules = build_rules(preset, options or {})
        except RulesError as e:
            raise TableError("bad", str(e)) from None
        conf = Settings.from_json({**(settings or {}), "public": bool(public)})
        n = rules.players
        given = list(seats or [])
        if len(given) > n:
            raise TableError("bad", f"{rules.preset} has {n} seats, not {len(given)}")
        given += [{"kind": EMPTY}] * (n - len(given))
        if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
            raise TableError("bad", f"dealer must be a seat from 0 to {n - 1}")
        table_id = secrets.token_urlsafe(9)
        events: list[Event] = []
        keys: list[dict[str, Any]] = []
        tokens: dict[int, str] = {}
        invites: dict[int, str] = {}
        for i, s in enumerate(given):
            if not isinstance(s, dict):
                raise TableError("bad", "each seat must be an object")
            kind = s.get("kind", EMPTY)
            if kind == PERSON:
                name = clean_name(s.get("name"), f"Player {i + 1}")
                kept = s.get("token_hash")
                if not isinstance(kept, str):
                    tokens[i] = new_token()
                    kept = token_hash(tokens[i])
                keys.append({"seat": i, "token_hash": kept, "invite_hash": None,
                             "name": name})
                events.append({"kind": "sit", "seat": i, "as": PERSON, "name": name})
            elif kind == COMPUTER:
                level = check_level(s.get("level", conf.level))
                events.append({"kind": "sit", "seat": i, "as": COMPUTER,
                               "name": clean_name(s.get("name"), computer_name(level)),
                               "level": level})
            elif kind == EMPTY:
                invites[i] = secrets.token_urlsafe(12)
                keys.append({"seat": i, "token_hash": None,
                             "invite_hash": token_hash(invites[i]), "name": None})
            else:
                raise TableError("bad", f"a seat's kind is person, computer or empty, "
                                        f"not {kind!r}")
        if start:
            events += self._start_events(given_kinds=[e for e in events], n=n, level=conf.level)
        seed, first = secrets.randbits(48), (n - 1) if dealer is None else dealer
        row: dict[str, Any] = {
            "id": table_id, "preset": rules.preset, "rules": json.dumps(rules.to_json()),
            "seed": seed, "first_dealer": first,
            "version": sum(e["kind"] in GAME_EVENTS for e in events),
            "status": PLAYING if start else WAITING, "settings": json.dumps(conf.to_json()),
            "public": conf.public}
        if rematch_of is not None:
            row["rematch_of"] = rematch_of
        try:
            await self.store.create_table(row, keys, events)
        except Conflict:
            made_first = await self.store.rematch_of(str(rematch_of))
            if made_first is None:
                raise
            return {"table": made_first, "tokens": {}, "invites": {}}
        table = Table(table_id, rules, seed, conf, first)
        self._pace(table)
        for event in events:
            table.apply(event)
        live = self.tables[table_id] = Live(table, on_over=on_over)
        self.after(live)
        return {"table": table_id, "tokens": tokens, "invites": invites}

    @staticmethod
    def _start_events(given_kinds: list[Event], n: int, level: str) -> list[Event]:
        """Computer players in the empty seats, then the start."""
        seated = {e["seat"] for e in given_kinds if e["kind"] == "sit" and e["as"] != EMPTY}
        out: list[Event] = [
            {"kind": "sit", "seat": i, "as": COMPUTER, "name": computer_name(level),
             "level": level} for i in range(n) if i not in seated]
        out.append({"kind": "start"})
        return out

    async def table_summary(self, table_id: str) -> dict[str, Any] | None:
        """{"status", "scores", "winner", ...} of a table (None: no such table)."""
        live = await self.live(table_id)
        return None if live is None else live.table.summary_for_hall()

    # ----- host and guests (HTTP) ---------------------------------------------------

    async def join(self, table_id: str, invite: Any, name: Any,
                   seat: Any = None) -> dict[str, Any]:
        """A guest takes the seat of ``invite``, or an open ``seat`` of a public table (from
        the lobby): {"token", "seat"}; TableError "taken" (the seat has someone) or "invite"
        (no such invite here)."""
        live = await self.live(table_id)
        if live is None:
            raise TableError("table", "there is no such table")
        if invite is None and seat is not None:
            return await self._join_public(live, seat, name)
        if not isinstance(invite, str) or not invite or len(invite) > 100:
            raise TableError("invite", "that invite is not for this table")
        who = clean_name(name, "")
        async with live.lock:
            h = token_hash(invite)
            token = new_token()
            seat = await self.store.claim_invite(table_id, h, token_hash(token), who or "Guest")
            if seat is None:
                if await self.store.invite_taken(table_id, h):
                    raise TableError("taken", "that seat is taken")
                raise TableError("invite", "that invite is not for this table")
            if live.table.seats[seat].kind != EMPTY:
                await self.store.set_key(table_id, seat, None, None)
                raise TableError("taken", "that seat is taken")
            await self._commit(live, [{"kind": "sit", "seat": seat, "as": PERSON,
                                       "name": who or f"Player {seat + 1}"}])
        self.after(live)
        return {"token": token, "seat": seat}

    async def _join_public(self, live: Live, seat: Any, name: Any) -> dict[str, Any]:
        t = live.table
        if not t.settings.public:
            raise TableError("invite", "this table is private: join it by its invite link")
        if type(seat) is not int or not 0 <= seat < t.n:
            raise TableError("bad", f"seat must be a number from 0 to {t.n - 1}")
        who = clean_name(name, "")
        async with live.lock:
            if t.seats[seat].kind != EMPTY:
                raise TableError("taken", "that seat is taken")
            token = new_token()
            if not await self.store.claim_open_seat(t.id, seat, token_hash(token),
                                                    who or "Guest"):
                raise TableError("taken", "that seat is taken")
            await self._commit(live, [{"kind": "sit", "seat": seat, "as": PERSON,
                                       "name": who or f"Player {seat + 1}"}])
        self.after(live)
        return {"token": token, "seat": seat}

    async def host_seat(self, table_id: str, token: Any, seat: Any, level: Any) -> None:
        """The host puts a computer player in ``seat`` (``level``) or takes it out (None)."""
        live = await self._as_host(table_id, token)
        t = live.table
        if type(seat) is not int or not 0 <= seat < t.n:
            raise TableError("bad", f"seat must be a number from 0 to {t.n - 1}")
        async with live.lock:
            if t.status != WAITING:
                raise TableError("started", "the game has started")
            if t.seats[seat].kind == PERSON:
                raise TableError("taken", "a person sits there")
            event: Event
            if level is None:
                event = {"kind": "sit", "seat": seat, "as": EMPTY}
            else:
                lv = check_level(level)
                event = {"kind": "sit", "seat": seat, "as": COMPUTER,
                         "name": computer_name(lv), "level": lv}
            await self._commit(live, [event])

    async def host_start(self, table_id: str, token: Any) -> None:
        live = await self._as_host(table_id, token)
        async with live.lock:
            t = live.table
            if t.status != WAITING:
                raise TableError("started", "the game has started")
            sits: list[Event] = [{"kind": "sit", "seat": i, "as": s.kind}
                                 for i, s in enumerate(t.seats)]
            await self._commit(live, self._start_events(sits, t.n, t.settings.level))
        self.after(live)

    async def _as_host(self, table_id: str, token: Any) -> Live:
        live = await self.live(table_id)
        if live is None:
            raise TableError("table", "there is no such table")
        seat = await self.seat_of(table_id, token) if isinstance(token, str) else None
        if seat != HOST:
            raise TableError("token", "only the host (with the host's link) may do that")
        return live

    # ----- committing ---------------------------------------------------------------

    async def _commit(self, live: Live, events: list[Event]) -> None:
        """Store ``events`` (under ``live.lock``), then apply them and tell everyone."""
        t = live.table
        hand = t.state.hand_index
        for attempt in range(RETRIES):
            new_version = t.version + sum(e["kind"] in GAME_EVENTS for e in events)
            try:
                await self.store.append(t.id, t.seq, t.version, events, new_version,
                                        t.stored_status(events))
                break
            except Conflict:
                await self._reload(live)
                if attempt + 1 == RETRIES or not t.still_wanted(hand, events):
                    raise TableError("stale", "the game has moved on since: that was not "
                                              "done") from None
        for e in events:
            t.apply(e)
            t.turn_clock(time.time())
            self._broadcast(live, e)
        live.standby = False
        self._announce(t.id, t.seq)

    def _broadcast(self, live: Live, event: Event) -> None:
        """Tell every connection of ``event``: one frame built per seat, sent as is."""
        t = live.table
        texts: dict[int | None, str] = {}
        now = time.time()
        for c in live.conns:
            text = texts.get(c.seat)
            if text is None:
                text = texts[c.seat] = encode(t.event_frame(c.seat, event,
                                                            host=c.seat == HOST, now=now))
            c.send(text)

    # ----- what comes next ----------------------------------------------------------

    def after(self, live: Live) -> None:
        """Set up what the table waits for now: a computer's turn, the review's end, the
        turn timer, the par, the end of the game."""
        if self.closing:
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
            self._ask_par(live)
        if status == OVER and not live.told_over:
            live.told_over = True
            if live.on_over is not None:
                self._spawn(live.on_over(t.id, t.summary_for_hall()))

    def _ensure_task(self, live: Live, coro: Any) -> None:
        if live.task is not None and not live.task.done() and \
                live.task is not asyncio.current_task():
            live.task.cancel()
        live.task = self._spawn(coro)

    def _stop_timers(self, live: Live) -> None:
        if live.task is not None:
            live.task.cancel()
        if live.turn_timer is not None:
            live.turn_timer.cancel()
        for h in live.grace.values():
            h.cancel()
        live.grace.clear()

    async def _computer_turn(self, live: Live, version: int) -> None:
        t = live.table
        delay = t.settings.bot_delay + (self.takeover_seconds if live.standby else 0.0)
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
        elif self.closing:
            return
        else:
            action = await asyncio.get_running_loop().run_in_executor(
                self.pool, pool_choice, d.level, d.key, d.view, [str(a) for a in d.legal],
                d.seats)
        async with live.lock:
            try:
                events = live.table.computer_act(version, action)
                if events is None:
                    return
                await self._commit(live, events)
            except TableError:
                return
        self.after(live)

    async def _deal(self, live: Live, version: int, delay: float) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        async with live.lock:
            t = live.table
            if t.version != version or t.status != REVIEW:
                return
            try:
                await self._commit(live, [{"kind": "deal", "hand": t.state.hand_index + 1}])
            except TableError:
                return
        self.after(live)

    def _out_of_time(self, live: Live, version: int, seat: int) -> None:
        t = live.table
        if t.version == version and t.state.turn == seat and not t.seats[seat].away:
            self._spawn(self._away(live, seat, version))

    async def _away(self, live: Live, seat: int, version: int | None) -> None:
        async with live.lock:
            t = live.table
            if t.seats[seat].away or t.seats[seat].kind != PERSON or t.status in (
                    WAITING, OVER) or (version is not None and t.version != version):
                return
            try:
                await self._commit(live, [{"kind": "away", "seat": seat}])
            except TableError:
                return
        self.after(live)

    def _ask_par(self, live: Live) -> None:
        """Work out the par of the hand under review, if someone is at the table to see
        it: a table the computers play on alone (everyone gone, their seats taken over)
        asks for none, so that its hands never queue before the pars of the tables
        people are watching (the pars' process takes one at a time). Asked again when
        someone comes back during the review."""
        t = live.table
        hand = t.state.hand_index
        if not self.limits.par or hand in t.par or hand in live.par_asked or live.standby:
            return  # (standby: the process that moved the table last works the par out)
        if not live.conns and not live.remote:
            return
        live.par_asked.add(hand)
        self._spawn(self._par(live, hand, t.state.clone()))

    async def _par(self, live: Live, hand: int, state: GameState) -> None:
        if self.closing:
            return
        try:
            value = await self.par_pool.run(pool_par, state, self.limits.par_budget)
        except ParsEnded as e:  # its process died: asked again when someone comes to the
            if self.closing:  # table, twice at most (a par that kills its process every
                return  # time would start a fresh one at every event of the review)
            lost = live.par_lost[hand] = live.par_lost.get(hand, 0) + 1
            if lost <= PAR_ASKED_AGAIN:
                live.par_asked.discard(hand)
                log.warning("the par of table %s hand %d: %s", live.table.id, hand, e)
            else:
                log.warning("the par of table %s hand %d: %s; not asked again (lost %d "
                            "times)", live.table.id, hand, e, lost)
            return
        except Exception as e:  # this par failed, and would fail again: never asked again
            if not self.closing:
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
                await self._commit(live, [{"kind": "par", "hand": hand, "value": value}])

    # ----- connections --------------------------------------------------------------

    def connect(self, seat: int | None, token: str | None = None) -> Conn:
        return Conn(seat, Bucket(self.limits.messages_per_second, self.limits.message_burst),
                    token=token if seat is not None else None)

    def leave(self, conn: Conn) -> None:
        """A connection is gone: if it was its seat's last (on every process), the seat
        keeps a grace period where the table has turn timers, then a computer plays it
        until its person is back."""
        conn.close()
        live = conn.live
        if live is None:
            return
        live.conns.discard(conn)
        self._seen(live)

    # ----- presence: which seats have a connection, here or on another process -------

    def _seen(self, live: Live) -> None:
        """This process's connections to ``live`` changed: its seats' presence is
        updated, and written to Redis for the other processes."""
        mine = {c.seat for c in live.conns if c.seat is not None}
        if mine != live.here:
            if self.bus is not None and not self.closing:
                gone = live.here - mine
                tid = live.table.id
                self._spawn(self._write_here({tid: mine} if mine else {},
                                             {tid: gone} if gone else {}))
            live.here = mine
        self._presence(live)

    async def _write_here(self, tables: dict[str, set[int]], gone: dict[str, set[int]],
                          tell: bool = True) -> None:
        assert self.bus is not None
        async with self._here_lock:  # one write at a time: a seat's come and go in order
            await self.bus.here(tables, gone, tell)

    def _presence(self, live: Live) -> None:
        """Set each seat's ``connected`` from this process's connections and the others';
        a person's seat that lost its last connection starts its grace period (turn
        timers only), one that is back ends it."""
        t = live.table
        present = live.here | live.remote
        for i, s in enumerate(t.seats):
            now = i in present
            if s.connected == now:
                continue
            s.connected = now
            old = live.grace.pop(i, None)
            if old is not None:
                old.cancel()
            if not now and t.settings.turn_seconds and s.kind == PERSON and not self.closing:
                live.grace[i] = asyncio.get_running_loop().call_later(
                    t.settings.grace_seconds, self._grace_over, live, i)
            self.presence_changed(live, i, now)

    def presence_changed(self, live: Live, seat: int, connected: bool) -> None:
        """A seat's person came (``connected``) or went, on whichever process: the one
        place that tells the table of it. Every other seat and spectator here gets
        ``{"type": "presence", "seat", "connected"}`` at once (no game data, no number:
        it is not an event of the table)."""
        if live.table.seats[seat].kind != PERSON or self.closing:
            return
        text = encode({"type": "presence", "seat": seat, "connected": connected})
        for c in live.conns:
            if c.seat != seat:
                c.send(text)

    async def _look(self, live: Live) -> None:
        """Read the table's presence on the other processes from Redis."""
        assert self.bus is not None
        got = await self.bus.present([live.table.id])
        if got is not None:
            live.remote = got.get(live.table.id, set())
            self._presence(live)

    async def _beating(self) -> None:
        """Every BEAT: renew this process's seats in Redis, and read the others' (a
        process that died has its seats lapse)."""
        from .bus import BEAT

        while True:
            await asyncio.sleep(BEAT)
            try:
                await self.beat()
            except Exception:
                log.exception("presence could not be renewed")

    async def beat(self) -> None:
        assert self.bus is not None
        mine = {tid: set(live.here) for tid, live in self.tables.items() if live.here}
        await self._write_here(mine, {}, tell=False)
        watched = [tid for tid, live in self.tables.items()
                   if live.table.status != OVER or live.conns]
        got = await self.bus.present(watched)
        for tid, seats in (got or {}).items():
            live = self.tables.get(tid)
            if live is not None and live.remote != seats:
                live.remote = seats
                self._presence(live)

    def _grace_over(self, live: Live, seat: int) -> None:
        live.grace.pop(seat, None)
        if not live.table.seats[seat].connected:
            self._spawn(self._away(live, seat, None))

    async def receive(self, conn: Conn, live: Live, raw: str) -> None:
        """One message from a connection: checked, answered in one line if refused."""
        if len(raw.encode("utf-8", "replace")) > self.limits.message_bytes:
            conn.error("size", f"a message may be at most {self.limits.message_bytes} bytes")
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
        try:
            await self.handle(conn, live, msg)
        except TableError as e:
            conn.error(e.code, e.reason, e.refusal, e.params)

    async def handle(self, conn: Conn, live: Live, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send('{"type": "pong"}')
            return
        if kind == "hello":
            if self.bus is not None:  # this process may not have heard of every move yet
                await self.refresh(live, wake=True)
            await self._hello(conn, live, msg.get("seq", 0))
            return
        if conn.live is None:
            raise TableError("bad", "say hello first")
        seat = conn.seat
        if kind == "act":
            async with live.lock:
                await self._commit(live, live.table.act(seat, msg.get("action"),
                                                        msg.get("version")))
            self.after(live)
        elif kind == "chat":
            await self._chat(live, seat, msg)
        elif kind == "back":
            if seat is None:
                raise TableError("seat", "spectators have no seat to take back")
            async with live.lock:
                if not live.table.seats[seat].away:
                    raise TableError("back", "your seat is yours already")
                await self._commit(live, [{"kind": "back", "seat": seat}])
            self.after(live)
        elif kind == "away":
            if seat is None:
                raise TableError("seat", "spectators have no seat")
            await self._away(live, seat, None)
        elif kind == "ready":
            if seat is None:
                raise TableError("seat", "spectators have no seat")
            async with live.lock:
                t = live.table
                if t.status != REVIEW:
                    raise TableError("turn", "there is no hand to review now")
                if seat in t.ready:
                    return
                await self._commit(live, [{"kind": "ready", "seat": seat}])
            self.after(live)
        elif kind == "hint":
            await self._hint(conn, live)
        elif kind == "rematch":
            await self._rematch(conn, live)
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
                conn.send_json(t.snapshot(conn.seat, host, now))
            else:
                for f in frames:
                    conn.send_json(f)
            if conn.live is None:
                conn.live = live
                live.conns.add(conn)
            self._seen(live)
            if t.status in (REVIEW, OVER):  # the par, if nobody was here to ask it
                self._ask_par(live)

    async def _chat(self, live: Live, seat: int | None, msg: dict[str, Any]) -> None:
        if seat is None:
            raise TableError("seat", "spectators watch without speaking")
        event: Event = {"kind": "chat", "seat": seat,
                                 "name": live.table.seats[seat].name}
        if "phrase" in msg:
            if msg["phrase"] not in PHRASES:
                raise TableError("bad", f"phrases are {', '.join(PHRASES)}")
            event["phrase"] = msg["phrase"]
        else:
            text = msg.get("text")
            if not isinstance(text, str):
                raise TableError("bad", "a chat message needs \"text\" or \"phrase\"")
            text = "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()
            if not text:
                raise TableError("bad", "say something")
            event["text"] = text[:CHAT_MAX]
        async with live.lock:
            await self._commit(live, [event])

    async def _hint(self, conn: Conn, live: Live) -> None:
        t = live.table
        seat = t.check_hint(conn.seat)
        if self.closing:
            raise TableError("turn", "the server is stopping: ask again when it is back")
        state = t.state.clone()
        version = t.version
        got = await asyncio.get_running_loop().run_in_executor(self.pool, pool_hint, state,
                                                               seat)
        if live.table.version == version:
            conn.send_json({"type": "hint", **got})

    async def _rematch(self, conn: Conn, live: Live) -> None:
        """A new table with the same seats, each person keeping the key of the seat. The
        database holds one rematch of a table: asked on two processes at the same moment,
        both answer with the same new table. Each person's link goes to that person."""
        seat = conn.seat
        if seat is None:
            raise TableError("seat", "spectators have no seat at the next table")
        async with live.lock:
            t = live.table
            if t.status != OVER:
                raise TableError("turn", "a rematch is for after the game")
            if live.rematch is not None:
                self._tell_rematch(live, [conn])
                return
            new_id = await self.store.rematch_of(t.id)
            if new_id is None:
                keys = await self.store.token_hashes(t.id)
                seats: list[dict[str, Any]] = []
                for i, s in enumerate(t.seats):
                    if s.kind == PERSON and i in keys:
                        seats.append({"kind": PERSON, "name": s.name, "token_hash": keys[i]})
                    else:
                        seats.append({"kind": COMPUTER, "level": s.level or t.settings.level})
                made = await self.create_table(
                    t.rules.preset, dict(t.rules.overrides), seats, t.settings.public,
                    start=True, settings={"hints": t.settings.hints,
                                          "turn_seconds": t.settings.turn_seconds,
                                          "level": t.settings.level},
                    rematch_of=t.id)
                new_id = made["table"]
            live.rematch = new_id
            self._tell_rematch(live, list(live.conns))
        if self.bus is not None:  # the other processes tell their own connections
            await self.bus.note(t.id, {"r": new_id})

    def _tell_rematch(self, live: Live, conns: list[Conn]) -> None:
        """Each person's link to the rematch, with that person's own key, to that person."""
        t = live.table
        for c in conns:
            if c.seat is not None and c.token and t.seats[c.seat].kind == PERSON:
                c.send_json({"type": "rematch", "url": f"/t/{live.rematch}#token={c.token}"})

    async def rematched(self, table_id: str, new_id: str) -> None:
        """Another process made the rematch of ``table_id``: tell this one's people."""
        live = self.tables.get(table_id)
        if live is None or live.rematch is not None or not isinstance(new_id, str):
            return
        live.rematch = new_id
        self._tell_rematch(live, list(live.conns))

    # ----- housekeeping -------------------------------------------------------------

    async def _sweep(self) -> None:
        """Expire tables nobody filled, and forget idle tables no one is watching."""
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep failed")

    async def sweep(self) -> list[str]:
        gone = await self.store.expire(time.time() - 60 * self.limits.expire_minutes)
        for table_id in gone:
            live = self.tables.pop(table_id, None)
            if live is not None:
                self._stop_timers(live)
                for c in list(live.conns):
                    c.close()
        for table_id, live in list(self.tables.items()):
            if not live.conns and live.table.status == OVER:
                self._stop_timers(live)
                del self.tables[table_id]
        return gone


    # ----- several processes (PostgreSQL and Redis) ----------------------------------

    def _announce(self, table_id: str, seq: int) -> None:
        """Tell the other processes that the table moved (its events are committed)."""
        if self.bus is not None and not self.closing:
            self._spawn(self.bus.publish(table_id, seq))

    async def noted(self, table_id: str, body: dict[str, Any]) -> None:
        """Another process's note about a table (not a move)."""
        if "r" in body:
            await self.rematched(table_id, body["r"])
        if "p" in body:  # a seat came or went on that process
            live = self.tables.get(table_id)
            if live is not None and not self.closing:
                self._spawn(self._look(live))

    async def moved_elsewhere(self, table_id: str, seq: int) -> None:
        """Another process committed events up to ``seq`` to ``table_id``: if the table is
        in play here, bring it up to date (one catch-up at a time per table)."""
        live = self.tables.get(table_id)
        if live is None or self.closing or live.table.seq >= seq:
            return
        if live.catching_up:  # a catch-up is on its way: it goes round once more
            live.again = True
            return
        live.catching_up = True
        self._spawn(self._moved(live))

    async def _moved(self, live: Live) -> None:
        try:
            while True:
                live.again = False
                await self.refresh(live, standby=True)
                if not live.again:
                    break
        finally:
            live.catching_up = False

    async def refresh(self, live: Live, standby: bool = False, wake: bool = False) -> None:
        """Bring ``live`` up to date with the database, telling its connections, then set
        up what it waits for (``standby``: the moves came from another process; ``wake``:
        a client came, and the table may have been moved here from a process that died, so
        if nothing is under way here this process stands by to play its computers)."""
        async with live.lock:
            moved = await self._catch_up(live)
        idle = live.task is None or live.task.done()
        if (moved and standby) or (wake and idle and not moved):
            live.standby = True
        if moved or standby or (wake and idle):
            self.after(live)

    async def _catch_up(self, live: Live) -> int:
        """The events committed since this process's last (under ``live.lock``): applied
        and told to this process's connections, in order. How many there were."""
        t = live.table
        events = [cast(Event, e) for e in await self.store.events_after(t.id, t.seq)]
        for e in events:
            t.apply(e)
            t.turn_clock(time.time())
            self._broadcast(live, e)
        return len(events)


PAR_ASKED_AGAIN = 2  # a hand's par lost with the pars' process: asked again twice at most
TAKEOVER_SECONDS = 3.0  # a process waits this long for another's computer turn
RETRIES = 5  # tries of a chat line or a "ready" that another process's event got before


__all__ = ["Conn", "Limits", "Live", "Seat", "Service", "token_hash"]
