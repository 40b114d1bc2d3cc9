"""What a client may do and how fast the tables go: the server's ``Limits`` (changed by
the environment variable FORTIES_LIMITS), a connection's message ``Bucket``, ``PerMinute``
(at most so many a minute for each key) and ``Rates``, the limits a minute on every kind
of thing a stranger can make or ask for, each from one address and in total.

Every route's cost is bounded before its work begins (the table below). The body sizes,
the read timeouts, the connections per address and in total, the origins and the trusted
proxies are the transport's (``forties.web.guard`` and ``transport``, before any route);
what follows is each route's and each message's own bound, where N in "N a minute" is
``Limits.<kind>_per_minute`` from one address and ``<kind>_per_minute_total`` from every
address together (``Rates.KINDS``: a refusal is a 429 with ``"code": "rate"``, or
``"busy"`` for the ceiling in total; on a websocket an error frame with that code):

=============================================  ============================================
route or message                               bound
=============================================  ============================================
GET / , /t/ID, /replay, /pad..., /hall...      a static file (a missing table: one lookup)
GET /api/presets, /api/rules, /api/languages,  a fixed answer from the presets or catalogs
/i18n/LANG.json, /api/pads/presets
POST /api/rules                                one body (64 KiB), one rules' build
POST /api/play, POST /api/tables               ``tables`` a minute; one table each
POST /api/tables/ID/join                       ``joins`` a minute; one seat at most
POST /api/tables/ID/seat, /start               the host's key; one change of one table
GET /api/tables/ID                             one table's summary
GET /api/tables/ID/record                      ``records`` a minute; the table's record
POST /api/replay                               ``replays`` a minute; a record of at most
                                               ``replay_hands`` hands, answered in at most
                                               ``replay_answer_bytes``, read as JSON
                                               and worked out in a process of its own
                                               (never on the event loop; 4 MB of body at
                                               most), ``replays_waiting`` at once (more:
                                               503 busy)
GET /api/lobby                                 the store's lobby (its own LIMIT of rows)
POST /api/account/signup/begin                 ``signups`` a minute; a name's check, one
                                               challenge kept (``web.passkeys``)
POST /api/account/signin/begin, /recover,      ``signins`` a minute; one challenge kept,
/link/begin, /passkeys/begin                   or one code looked up
POST /api/account/signup/finish,               one challenge, used up whatever the answer;
/signin/finish, /passkeys/finish,              8 KiB of body, each field's length checked
/link/finish                                   before a passkey's answer is read
POST /api/account/claim                        ``claims`` a minute; at most
                                               ``games.CLAIM_MAX`` seats, one lookup each
POST /api/tables/ID/rated                      the host's key; one change of one table
GET /api/me/games, /api/players/ID/games,      ``lookups`` a minute; at most
/stats, /api/leaderboard/FAMILY                ``games.PAGE_MAX`` rows (``web.games``)
GET /me/games, /players/ID, /leaderboard,      a static file
/leaderboard/FAMILY, /account, /account/link
GET /api/history/me/games, /players/ID,        ``lookups`` a minute; one page of games
/players/ID/games, /leaderboard/FAMILY         (``history.PAGE_SIZE``), one player's
                                               ratings, statistics and rating history
                                               (its last ``history.HISTORY_POINTS``), or
                                               one leaderboard (``web.history``)
GET /healthz, /readyz                          nothing: they answer while replays run
GET /metrics                                   the allowed addresses only; one scrape
POST /api/pads                                 ``pads`` a minute
GET /api/pads/ID, hands, undo                  one document (16 KiB body), the pad's key
GET /api/pads/ID/export.*                      ``records`` a minute; one pad
POST /api/hall                                 ``evenings`` a minute
POST /api/hall/ID/... (the director's steps)   the director's key (or, for a club's
                                               evening, a session's lookup and one
                                               member's row: ``clubs.signed_in_director``);
                                               one document; at most 400 couples
                                               (``hall.MAX_COUPLES``)
an online evening's web tables                 ``evening_tables`` a minute for the address
                                               that made the evening (the rest are made
                                               by the evening's next poll, when the
                                               minute has room)
GET /api/hall/ID, POST /api/hall/ID/seat       the board, built once per version
GET /api/hall/ID/export/*, /hall/ID/print/*    ``records`` a minute; one evening
POST /api/dup                                  ``duplicates`` a minute; at most 40
                                               partnerships and 200 boards
POST /api/dup/ID/report, correct, director     one document (16 KiB body), a key
GET /api/dup/ID, POST /api/dup/ID/board/N      one document, read once per version
POST /api/dup/ID/slips, GET .../export/*       ``records`` a minute; one session
GET /api/account, /api/account/sessions,       a session's lookup (its key's hash, the
/api/account/passkeys                          sessions' primary key); the account's
                                               sessions, passkeys (at most
                                               ``passkeys.PASSKEYS_MAX``) and codes left
POST /api/account/signout, /sessions/end,      a session's lookup; one row of the account
/privacy, /passkeys/rename, /passkeys/remove   changed or removed (4 KiB of body; 8 KiB
                                               for the passkeys')
POST /api/account/recovery/new, /link/new      a session's lookup; the account's recovery
                                               codes replaced (``RECOVERY_COUNT``), or its
                                               one device code
GET /api/account/export                        ``account_data`` a minute; one account's
                                               rows (``web.account_admin.export``)
POST /api/account/delete                       ``account_data`` a minute (4 KiB body);
                                               one account's rows
GET /api/regulars, /api/regulars/invites       a session's lookup; at most
                                               ``regulars.FOLLOWS_MAX`` regulars and
                                               ``INVITES_SHOWN`` invitations (4 KiB body)
POST /api/regulars/follow, unfollow, block,    ``follows`` a minute; one account's row
unblock
POST /api/regulars/invite, invites/ID/accept,  ``invites`` a minute; one invitation (at
decline                                        most ``INVITES_SENT_MAX`` waiting from an
                                               account), one seat
GET /clubs, /club/ID, /club/ID/join            a static file
GET /api/clubs                                 a session's lookup; at most
                                               ``clubs.CLUBS_JOINED_MAX`` clubs
GET /api/clubs/ID                              ``lookups`` a minute; one club, its members
                                               (at most ``clubs.MEMBERS_MAX``) and
                                               ``clubs.EVENTS_SHOWN`` evenings each way
POST /api/clubs, /api/clubs/ID, /invite,       ``clubs`` a minute (8 KiB body); a
/join, /role, /remove, /leave                  session's lookup; one club's rows (at most
                                               ``CLUBS_MADE_MAX`` made and
                                               ``CLUBS_JOINED_MAX`` joined by an account,
                                               ``INVITES_MAX`` links and ``MEMBERS_MAX``
                                               members in a club)
POST /api/clubs/ID/evenings                    ``clubs`` and ``evenings`` a minute; one
                                               evening, one calendar entry (at most
                                               ``clubs.EVENTS_MAX`` to come)
GET /club/ID/seasons, /club/ID/season/SID,     a static file
/club/ID/season/SID/projector
GET /api/clubs/ID/seasons                      ``lookups`` a minute; at most
                                               ``seasons.SEASONS_MAX`` seasons
POST /api/clubs/ID/seasons, /SID,              ``clubs`` a minute (8 KiB body); a
/SID/remove                                    session's lookup; one season's row (at most
                                               ``seasons.SEASONS_MAX`` in a club)
GET /api/clubs/ID/seasons/SID                  ``lookups`` a minute; one season: its
                                               calendar's hall evenings (at most
                                               ``seasons.EVENINGS_MAX``, each read once per
                                               version), added up once per change
GET /api/clubs/ID/seasons/SID/export/FMT       ``records`` a minute; one season, as above
websocket /ws/ID                               ``seat_connections`` at once for each seat
                                               (the newest is refused); frames queued
                                               ``live.QUEUE_MAX`` at most
ws: any message                                ``message_bytes``, ``messages_per_second``
                                               (``Bucket``, per connection)
ws: hello                                      the frames since a number, or one snapshot
ws: act, away, back, ready                     one change of one table (its lock)
ws: rematch                                    one table for each finished table
ws: chat                                       ``chats`` a minute; 200 characters
ws: hint                                       ``hints`` a minute, one in flight for
                                               each table (another asks: "busy")
a hand's par                                   one in flight for each table, in the pars'
                                               one process (``turns.Turns.ask_par``)
=============================================  ============================================

With several processes (``--workers N``, or processes on several machines: they always
share Redis, ``workers.check_scale_out``), the limits a minute (``Rates``) are counted in
Redis (``shared_rates``), so that a site's limits are the same whatever the processes:
an address that made its tables through one process is refused by the next. One process
alone (no ``--redis``) counts in its own memory (``PerMinute``), and so does a process
whose Redis does not answer, until it does.

The rest stay each process's own, on purpose: the open connections per address and in
total (``transport.Doorman``) and the open websockets per address (``guard.Guard``) count
the file descriptors and the memory of the process that holds them, which are its own,
and a process is refused only what it could not hold (with N processes behind one port
the system spreads an address's connections over them, so an address may hold up to N
times the number in all, and no more than one process's share in any one); the replays
at once (``replays_waiting``) count the work of the process's own replays' process; a
connection's messages (``Bucket``) are that connection's; a seat's connections
(``seat_connections``), a table's hint in flight and its par are counted by the one
process that runs the table (``owners``), to which every websocket of the table is
handed.

``PerMinute`` is ours rather than the ``limits`` library's: it is the exact moving window
(the times of the last minute's takes) in twenty lines on the event loop, with no thread
and no storage to run; ``limits``'s memory storage keeps the same window and expires its
keys from a timer thread of its own. Shared through Redis (``shared_rates``), the same
window is one script of ten lines that Redis runs at once for an address's minute and
every address's, by Redis's own clock, in one round trip (``limits``'s Redis moving
window is two: a test, then a hit). Its keys are pruned: a key whose minute is empty is
forgotten, and the whole map is swept once a minute, so that it holds no more keys than
were let through in the last minute; Redis expires its own a minute after their last
take.
"""

from __future__ import annotations

import ipaddress
import json
import os
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..errors import FortiesError


@dataclass
class Limits:
    """What a connection and a client may do, and the pace of the tables; the
    environment variable FORTIES_LIMITS (a JSON object) changes any of them."""

    message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    # per minute, from one address and from all of them together (``Rates``)
    tables_per_minute: int = 20  # new tables and play-now tables
    tables_per_minute_total: int = 300
    pads_per_minute: int = 30
    pads_per_minute_total: int = 300
    evenings_per_minute: int = 10
    evenings_per_minute_total: int = 100
    evening_tables_per_minute: int = 100  # an online evening's tables, for its maker
    evening_tables_per_minute_total: int = 600
    duplicates_per_minute: int = 10  # new duplicate sessions (``web.duplicate_sessions``)
    duplicates_per_minute_total: int = 100
    joins_per_minute: int = 60
    joins_per_minute_total: int = 1200
    chats_per_minute: int = 60
    chats_per_minute_total: int = 3000
    hints_per_minute: int = 60
    hints_per_minute_total: int = 1200
    records_per_minute: int = 60
    records_per_minute_total: int = 1200
    replays_per_minute: int = 10
    replays_per_minute_total: int = 60
    signups_per_minute: int = 5  # new accounts (``web.passkeys``: each sign-up begun)
    signups_per_minute_total: int = 60
    signins_per_minute: int = 20  # sign-ins and new passkeys begun, recovery and device codes tried
    signins_per_minute_total: int = 600
    claims_per_minute: int = 10  # an account's claims of a device's seats (``web.games``)
    claims_per_minute_total: int = 300
    lookups_per_minute: int = 120  # players' games, statistics and leaderboards
    lookups_per_minute_total: int = 3000
    # an account's data downloaded, or the account deleted (``web.account_data``)
    account_data_per_minute: int = 10
    account_data_per_minute_total: int = 120
    # an account's regulars (``web.regulars``): follows, unfollows, blocks and unblocks;
    # invitations to a seat sent, accepted and declined
    follows_per_minute: int = 30
    follows_per_minute_total: int = 1200
    invites_per_minute: int = 30
    invites_per_minute_total: int = 1200
    # clubs (``web.club_api``): clubs made, invite links made and used, members' roles
    # changed, members leaving and removed, evenings made from a club
    clubs_per_minute: int = 30
    clubs_per_minute_total: int = 1200
    # an account is online when seen this recently (a websocket open, or its home page);
    # each process writes when it saw an account at most every ``seen_seconds``
    online_seconds: float = 180.0
    seen_seconds: float = 60.0
    replay_hands: int = 200  # the most hands of a record replayed
    replay_answer_bytes: int = 16 * 1024 * 1024  # the most bytes of a replay's answer
    replays_waiting: int = 2  # replays worked out or waiting at once (more: busy)
    seat_connections: int = 4  # websockets of one seat at once (more: the newest refused)
    expire_minutes: float = 30.0
    sweep_seconds: float = 60.0
    # a table nobody is at, on which nothing happened for this long, leaves memory (it
    # stays in the database, and comes back when someone opens it)
    idle_minutes: float = 10.0
    # how often the server looks in the database for its tables changed from outside it
    # (``forties admin close`` and ``silence``)
    watch_seconds: float = 5.0
    bot_delay: float | None = None  # None: each table's own, or its persons' pace (web.pace)
    review_seconds: float | None = None
    grace_seconds: float | None = None
    par: bool = True
    par_budget: int | None = None  # Forty One: positions searched before the estimate
    par_nice: int = 10  # the pars' process's niceness (above 0: it yields to the play)
    workers: int = 1
    # a server told to stop ends at once after this many seconds, whatever it still waits
    # on (``commands.end_at_once_after``)
    stop_seconds: float = 20.0
    # strangers at the door (``web.transport``, ``web.guard``): open connections from one
    # address (a proxy the operator names is not counted) and in all, open websockets
    # from one address (counted behind a proxy too), and the seconds a client has to send
    # a request's headers, and then its body
    connections_per_address: int = 64
    connections_total: int = 1024
    websockets_per_address: int = 64
    header_seconds: float = 10.0
    header_bytes: int = 64 * 1024  # a request line and its headers (more: 431)
    body_seconds: float = 30.0
    # a server told to stop drains first (``forties.web.drain``) for at least this long:
    # no new tables, /readyz 503, every page told to reconnect
    drain_seconds: float = 0.0

    @classmethod
    def from_env(cls) -> Limits:
        raw = os.environ.get("FORTIES_LIMITS", "").strip()
        out = cls()
        if not raw:
            return out
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as e:
            raise ValueError(f"FORTIES_LIMITS is not JSON: {e.msg}") from None
        names = {f.name for f in fields(cls)}
        if not isinstance(obj, dict) or not set(obj) <= names:
            raise ValueError(f"FORTIES_LIMITS must be an object with keys among "
                             f"{', '.join(sorted(names))}")
        types = {f.name: str(f.type) for f in fields(cls)}
        for k, v in obj.items():
            kind, *none = types[k].split(" | ")  # e.g. "float | None"
            if not ((v is None and none) or _is_a(v, kind)):
                raise ValueError(f"FORTIES_LIMITS: {k} must be {_KIND_WORDS[kind]}"
                                 f"{' or null' if none else ''}, not {json.dumps(v)}")
            setattr(out, k, v)
        for name in ("stop_seconds", *AT_THE_DOOR):
            if not getattr(out, name) > 0:
                raise ValueError(f"FORTIES_LIMITS: {name} must be above 0, not "
                                 f"{json.dumps(getattr(out, name))}")
        if not 0 <= out.drain_seconds < out.stop_seconds:
            raise ValueError(f"FORTIES_LIMITS: drain_seconds must be 0 or more and under "
                             f"stop_seconds ({out.stop_seconds:g}), not "
                             f"{json.dumps(out.drain_seconds)}")
        return out


# the limits at the door (``web.transport``, ``web.guard``): 0 would let nobody in
AT_THE_DOOR = ("connections_per_address", "connections_total", "websockets_per_address",
               "header_seconds", "header_bytes", "body_seconds")


_KIND_WORDS = {"int": "a whole number", "float": "a number", "bool": "true or false"}


def _is_a(value: Any, kind: str) -> bool:
    """Whether a JSON value is of a limit's kind (a whole number is a number too)."""
    if isinstance(value, bool) or kind == "bool":
        return isinstance(value, bool) and kind == "bool"
    return isinstance(value, int) or (kind == "float" and isinstance(value, float))


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False


class PerMinute:
    """At most ``count`` of something (new tables, pads, evenings) in any minute for each
    key: a client's address, or one key for every client. A key whose last minute is
    empty is forgotten (the whole map is swept once a minute)."""

    def __init__(self, count: int, clock: Callable[[], float] | None = None) -> None:
        self.count = count
        self.clock = clock or (lambda: time.monotonic())
        self._at: dict[str, deque[float]] = {}
        self._pruned = self.clock()

    def _recent(self, key: str, now: float) -> deque[float] | None:
        """The times of ``key``'s takes in the last minute (None: none, and forgotten)."""
        if now - self._pruned >= 60:
            self.prune()
        recent = self._at.get(key)
        if recent is None:
            return None
        while recent and recent[0] <= now - 60:
            recent.popleft()
        if not recent:
            del self._at[key]
            return None
        return recent

    def room(self, key: str = "") -> bool:
        """Whether the minute has room for one more for ``key`` (nothing is counted)."""
        recent = self._recent(key, self.clock())
        return recent is None or len(recent) < self.count

    def take(self, key: str = "") -> bool:
        """Count one more for ``key`` if the minute has room for it (True), else False."""
        now = self.clock()
        recent = self._recent(key, now)
        if recent is None:
            if self.count < 1:
                return False
            self._at[key] = deque([now])
            return True
        if len(recent) >= self.count:
            return False
        recent.append(now)
        return True

    def prune(self) -> None:
        """Forget the keys whose last minute is over (an address that came once is not
        kept for ever); ``take`` does it at most once a minute, the sweep too."""
        now = self.clock()
        self._pruned = now
        for key in [k for k, d in self._at.items() if not d or d[-1] <= now - 60]:
            del self._at[key]

    @property
    def held(self) -> int:
        """How many keys are held now."""
        return len(self._at)


class RateLimited(FortiesError, RuntimeError):
    """Refused by ``Rates``: ``message``, one line; ``code``, "rate" for this address's
    own limit, "busy" for every address's ceiling (a 429 either way)."""

    def __init__(self, message: str, total: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.total = total
        self.code = "busy" if total else "rate"


IPV6_NETWORK = 64  # the prefix one IPv6 host or home is given: one stranger's addresses


def counted_as(address: str) -> str:
    """What the limits per address count ``address`` as: an IPv6 address as its /64 (a
    host holds the whole network, 2^64 addresses to ask from, so each alone would limit
    nobody), an IPv4-mapped one as its IPv4, anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_NETWORK}", strict=False))
    return address


class Rates:
    """The limits a minute on each kind of thing a stranger can make or ask for
    (``KINDS``), from one address (``Limits.<kind>_per_minute``) and from every address
    together (``<kind>_per_minute_total``)."""

    KINDS: ClassVar[dict[str, str]] = {
        "tables": "new tables", "pads": "new pads", "evenings": "new evenings",
        "evening_tables": "new tables for this evening",
        "duplicates": "new duplicate sessions", "joins": "seats taken",
        "chats": "chat lines", "hints": "hints", "records": "downloads",
        "replays": "replays", "signups": "new accounts", "signins": "sign-ins",
        "claims": "claims of seats", "lookups": "looks at players' games",
        "account_data": "downloads or deletions of accounts' data",
        "follows": "follows and blocks", "invites": "invitations and answers",
        "clubs": "changes to clubs"}

    def __init__(self, limits: Limits | None = None) -> None:
        lim = limits or Limits()
        self._per: dict[str, tuple[PerMinute, PerMinute]] = {
            kind: (PerMinute(int(getattr(lim, f"{kind}_per_minute"))),
                   PerMinute(int(getattr(lim, f"{kind}_per_minute_total"))))
            for kind in self.KINDS}
        self.shared: Any = None  # ``shared_rates.SharedMinutes``, where Redis counts

    def share(self, redis: Any) -> None:
        """Count in ``redis`` (an asyncio client) from now on, with every other process
        that shares it (``shared_rates``)."""
        from .shared_rates import SharedMinutes

        self.shared = SharedMinutes(redis)

    @classmethod
    def lifted(cls, count: int = 1_000_000) -> dict[str, int]:
        """Every kind's limits set to ``count``, as FORTIES_LIMITS keys: for the tests and
        the benchmarks, whose clients all come from one address."""
        return {f"{kind}_per_minute{total}": count for kind in cls.KINDS
                for total in ("", "_total")}

    async def take(self, kind: str, address: str) -> None:
        """Count one ``kind`` for ``address`` (and in total); raises ``RateLimited``
        (nothing counted) when either minute is full. Counted in Redis where the
        processes share it (``share``), else here."""
        mine, every = self._per[kind]
        what = self.KINDS[kind]
        address = counted_as(address)
        full = None
        if self.shared is not None:
            from .shared_rates import ALL_FULL, MINE_FULL

            got = await self.shared.take(kind, address, mine.count, every.count)
            full = {MINE_FULL: "mine", ALL_FULL: "every"}.get(got, "") if got is not None \
                else None
        if full is None:  # (counted here)
            if not mine.room(address):
                full = "mine"
            elif not every.take():
                full = "every"
            else:
                mine.take(address)
                full = ""
        if full == "mine":
            raise RateLimited(f"too many {what} from this address: wait a minute")
        if full == "every":
            raise RateLimited(f"too many {what} on this server this minute: try again "
                              f"shortly", total=True)

    def keys(self) -> int:
        """How many addresses are kept in all (each pruned after its minute)."""
        return sum(mine.held for mine, _ in self._per.values())

    def prune(self) -> None:
        """Forget every address whose last minute is over (``PerMinute.prune``)."""
        for mine, every in self._per.values():
            mine.prune()
            every.prune()


__all__ = ["Bucket", "Limits", "PerMinute", "RateLimited", "Rates", "counted_as"]
