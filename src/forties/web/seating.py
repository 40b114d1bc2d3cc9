"""Who sits where: a new table and its seats (people with their keys, computers, empty
seats with their invites), a guest taking a seat by invite or from the lobby, and the
host's seating and start of a table that waits for its players.

A seat's key (its link's token) is kept only as its SHA-256 in the store.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from ..duplicate import Board
from ..rules import RulesError, build_rules
from ..state import DealKey
from ..table import (
    CLOSED_WORDS,
    COMPUTER,
    EMPTY,
    GAME_EVENTS,
    PERSON,
    PLAYING,
    WAITING,
    Event,
    Settings,
    Table,
    TableError,
    check_board,
    check_level,
    computer_name,
)
from .live import HOST, Live, LiveTables, OnOver
from .store import Conflict
from .text import NAME_MAX, is_key, line
from .turns import Turns


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def clean_name(raw: Any, default: str) -> str:
    """A player's name as given: storable, one line, at most NAME_MAX characters
    (``text.line``)."""
    if raw is None or raw == "":
        return default
    if not isinstance(raw, str):
        raise TableError("bad", "a name must be text")
    return line(raw, NAME_MAX) or default


def start_events(given_kinds: list[Event], n: int, level: str) -> list[Event]:
    """Computer players in the empty seats, then the start."""
    seated = {e["seat"] for e in given_kinds if e["kind"] == "sit" and e["as"] != EMPTY}
    out: list[Event] = [
        {"kind": "sit", "seat": i, "as": COMPUTER, "name": computer_name(level),
         "level": level} for i in range(n) if i not in seated]
    out.append({"kind": "start"})
    return out


class Seating:
    """The tables' seats: made with the table, taken by guests, set by the host."""

    def __init__(self, tables: LiveTables, turns: Turns) -> None:
        self.tables = tables
        self.turns = turns
        # what a table must pass before the host starts it (``web.games``: a rated table
        # has an account at every person's seat); raises to refuse the start
        self.before_start: Callable[[Live], Awaitable[None]] | None = None

    async def seat_of(self, table_id: str, token: str) -> int | None:
        if not is_key(token):
            return None
        return await self.tables.store.seat_of_token(table_id, token_hash(token))

    async def create_table(self, preset: str, options: dict[str, Any] | None = None,
                           seats: list[dict[str, Any]] | None = None, public: bool = False,
                           start: bool = True, dealer: int | None = None,
                           on_over: OnOver | None = None,
                           settings: dict[str, Any] | None = None,
                           rematch_of: str | None = None,
                           board: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new table. ``seats``: one entry a seat ({"name", "kind": "person"} or
        {"kind": "computer", "level", "name"?} or {"kind": "empty"}; missing ones are
        empty; a person's may carry the "token_hash" of the key it keeps from another
        table; a computer's name, cleaned as a person's is, is "Computer (level)" when it
        has none).
        Returns {"table", "tokens": {seat: token} (people given a new key), "invites":
        {seat: code} (empty seats)}. Raises TableError("bad", ...) with the engine's
        message. ``rematch_of``: the table this one is the rematch of; if another
        process made that rematch first, its table is the answer (the database keeps
        one). ``board``: a duplicate board (``forties.duplicate.Board.to_json``) that the
        table deals and ends with (``Table.board``): private, unrated, its dealer the
        board's; TableError("bad", one line) for a board it cannot deal."""
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
        dealt: Board | None = None
        if board is not None:
            dealt = check_board(rules, board)
            if conf.public:
                raise TableError("bad", "a board's table is private: nobody may watch it "
                                        "or find it in the lobby")
            if conf.rated:
                raise TableError("bad", "a board's table is not rated")
            if dealer is not None and dealer != dealt.dealer:
                raise TableError("bad", f"board {dealt.number} is dealt by seat "
                                        f"{dealt.dealer}, not {dealer}")
            dealer = dealt.dealer
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
            events += start_events(given_kinds=[e for e in events], n=n, level=conf.level)
        # the deals come from a secret key (state.keyed_deck), never from a searchable seed
        key, first = DealKey.new(), (n - 1) if dealer is None else dealer
        row: dict[str, Any] = {
            "id": table_id, "preset": rules.preset, "rules": json.dumps(rules.to_json()),
            "seed": 0, "deal_key": key.hex(), "first_dealer": first,
            "version": sum(e["kind"] in GAME_EVENTS for e in events),
            "status": PLAYING if start else WAITING, "settings": json.dumps(conf.to_json()),
            "public": conf.public,
            "board": None if dealt is None else json.dumps(dealt.to_json())}
        if rematch_of is not None:
            row["rematch_of"] = rematch_of
        try:
            await self.tables.store.create_table(row, keys, events)
        except Conflict:
            made_first = await self.tables.store.rematch_of(str(rematch_of))
            if made_first is None:
                raise
            return {"table": made_first, "tokens": {}, "invites": {}}
        table = Table(table_id, rules, key, conf, first, board=dealt)
        self.tables.pace(table)
        for event in events:
            table.apply(event)
        live = self.tables.tables[table_id] = Live(table, on_over=on_over)
        if start:  # its computers may play at once: run here unless another runs it
            await self.tables.adopt(live)
        self.turns.after(live)
        return {"table": table_id, "tokens": tokens, "invites": invites}

    async def table_summary(self, table_id: str) -> dict[str, Any] | None:
        """{"status", "scores", "winner", ...} of a table (None: no such table)."""
        live = await self.tables.live(table_id)
        return None if live is None else live.table.summary_for_hall()

    async def join(self, table_id: str, invite: Any, name: Any,
                   seat: Any = None) -> dict[str, Any]:
        """A guest takes the seat of ``invite``, or an open ``seat`` of a public table (from
        the lobby): {"token", "seat"}; TableError "taken" (the seat has someone) or "invite"
        (no such invite here)."""
        live = await self.tables.live(table_id)
        if live is None:
            raise TableError("table", "there is no such table")
        if live.table.closed:  # (before a seat's key is claimed in the database)
            raise TableError("closed", CLOSED_WORDS)
        if invite is None and seat is not None:
            return await self._join_public(live, seat, name)
        if not is_key(invite):
            raise TableError("invite", "that invite is not for this table")
        who = clean_name(name, "")
        async with live.lock:
            h = token_hash(invite)
            token = new_token()
            seat = await self.tables.store.claim_invite(table_id, h, token_hash(token),
                                                        who or "Guest")
            if seat is None:
                if await self.tables.store.invite_taken(table_id, h):
                    raise TableError("taken", "that seat is taken")
                raise TableError("invite", "that invite is not for this table")
            if live.table.seats[seat].kind != EMPTY:
                await self.tables.store.set_key(table_id, seat, None, None)
                raise TableError("taken", "that seat is taken")
            await self.tables.commit(live, [{"kind": "sit", "seat": seat, "as": PERSON,
                                       "name": who or f"Player {seat + 1}"}])
        self.turns.after(live)
        return {"token": token, "seat": seat}

    async def _join_public(self, live: Live, seat: Any, name: Any) -> dict[str, Any]:
        t = live.table
        if not t.settings.public:
            raise TableError("invite", "this table is private: join it by its invite link")
        return await self.take_seat(live, seat, name)

    async def take_seat(self, live: Live, seat: Any, name: Any) -> dict[str, Any]:
        """A person takes the empty ``seat`` of a table, public or private, with no invite:
        {"token", "seat"}. For the public tables' lobby, and an account's invitation
        accepted (``web.regulars``: the host invited that account to that seat)."""
        t = live.table
        if t.closed:
            raise TableError("closed", CLOSED_WORDS)
        if type(seat) is not int or not 0 <= seat < t.n:
            raise TableError("bad", f"seat must be a number from 0 to {t.n - 1}")
        who = clean_name(name, "")
        async with live.lock:
            if t.seats[seat].kind != EMPTY:
                raise TableError("taken", "that seat is taken")
            token = new_token()
            if not await self.tables.store.claim_open_seat(t.id, seat, token_hash(token),
                                                    who or "Guest"):
                raise TableError("taken", "that seat is taken")
            await self.tables.commit(live, [{"kind": "sit", "seat": seat, "as": PERSON,
                                       "name": who or f"Player {seat + 1}"}])
        self.turns.after(live)
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
            await self.tables.commit(live, [event])

    async def host_start(self, table_id: str, token: Any) -> None:
        live = await self._as_host(table_id, token)
        async with live.lock:
            t = live.table
            if t.status != WAITING:
                raise TableError("started", "the game has started")
            if self.before_start is not None:
                await self.before_start(live)
            sits: list[Event] = [{"kind": "sit", "seat": i, "as": s.kind}
                                 for i, s in enumerate(t.seats)]
            await self.tables.commit(live, start_events(sits, t.n, t.settings.level))
        await self.tables.adopt(live)
        self.turns.after(live)

    async def host_rated(self, table_id: str, token: Any, rated: bool) -> None:
        """The host makes the table rated or not, while it waits for its players (never
        after the start: everyone knows before the first card whether it counts)."""
        live = await self._as_host(table_id, token)
        async with live.lock:
            if live.table.status != WAITING:
                raise TableError("started", "a game is rated or not before it starts")
            if live.table.settings.rated != rated:
                await self.tables.commit(live, [{"kind": "rated", "value": rated}])

    async def _as_host(self, table_id: str, token: Any) -> Live:
        live = await self.tables.live(table_id)
        if live is None:
            raise TableError("table", "there is no such table")
        seat = await self.seat_of(table_id, token) if isinstance(token, str) else None
        if seat != HOST:
            raise TableError("token", "only the host (with the host's link) may do that")
        return live


__all__ = ["Seating", "clean_name", "new_token", "start_events", "token_hash"]
