"""The one table layer: a game in progress with its seats, people and computer players.

A ``Table`` holds the game (a ``GameState``), its record (the JSON that ``forties check``
judges), the seats and the table's settings. It is pure: no sockets, no storage, no
clock. Everything that happens at a table is an *event* (a plain JSON object); a table
is rebuilt exactly by applying its events again in order, so whoever stores the events
(the web server's database, the terminal's save file) can bring a table back.

Every event moves ``seq`` on by one; the events that move the game (``start``, ``act``,
``deal``) also move ``version`` on, and an action must carry the version it was chosen
on, so that a double click or a resend never plays twice. ``frame(seat)`` is the only
way game data leaves a table: it is built from ``GameState.view(seat)`` (``view(None)``
for a spectator).
"""

from __future__ import annotations

import random
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Required, TypedDict, cast

from .actions import Action, ActionSyntaxError
from .cards import CARD_NAMES
from .duplicate import Board, DuplicateError, scores_of_hand
from .errors import Refused
from .games import new_game
from .players import LEVELS, make_bot
from .record import Record, Recorder
from .rules import PRESETS, Rules, format_value
from .show import sort_hand
from .state import DealKey, GameState, IllegalActionError, Phase, Refusal
from .summary import game_summary

PERSON, COMPUTER, EMPTY = "person", "computer", "empty"
KINDS = (PERSON, COMPUTER, EMPTY)
WAITING, PLAYING, REVIEW, OVER = "waiting", "playing", "review", "over"
CLOSED = "closed"  # ended by the site's operator (``forties admin close``): nothing more
GAME_EVENTS = frozenset(("start", "act", "deal", "undo"))  # the events that move the version on
# (close and silence are the operator's, written by ``forties admin``, never by a seat)
EVENT_KINDS = frozenset(("sit", "start", "act", "deal", "undo", "away", "back", "ready",
                         "chat", "over", "par", "close", "silence", "rated"))
UNDO = "undo"  # an action's text "2 undo": seat 2 takes its last action back (Table.act)
UNDOS_A_HAND = 12  # take-backs a hand allows (each is a stored event: never endless)
PHRASES = ("hearts-on-hearts", "well-played", "sorry-partner", "good-game", "hurry", "thanks")
TABLE_LEVELS = tuple(lv for lv in LEVELS if lv != "ismcts")
CLOSED_WORDS = "the table was closed by the site's operator"
CATCH_UP = 64  # events kept for a reconnecting client; more missed: a snapshot
CHAT_KEPT = 50
# the games a duplicate board is played in at a table (``Table.board``): four players in
# two partnerships, partners opposite
BOARD_PRESETS = ("merrimack-valley", "auction-45", "forty-one")
# what a board table refuses (code "board"): nobody watches it, its record goes to its own
# seats once it is over, and it is played once
BOARD_WATCHED = "nobody watches a duplicate board: open it with your seat's link"
BOARD_RECORD = "a duplicate board's record is given only to its own players, by their links"
BOARD_PLAYED = "the board is still being played: its record is given once it is over"
BOARD_REMATCH = "a duplicate board is played once: there is no rematch"

# What the table takes and gives, as JSON objects. An event: what happened at the table,
# as stored (``kind`` and what that kind carries: a seat, an action, a hand, a name...).
Event = TypedDict("Event", {
    "kind": Required[str],  # one of EVENT_KINDS
    "seat": int,
    "action": str,  # act: the action as the record writes it; undo: the action taken back
    "hand": int,  # deal, par: the hand, counted from 0
    "as": str,  # sit: person, computer or empty
    "name": str | None,
    "level": str | None,
    "text": str,  # chat; an action as a seat's view writes it (public_event)
    "phrase": str,
    "value": Any,  # par; rated: true or false (the host's choice, before the start)
}, total=False)


def name_key(name: str | None) -> str:
    """A player's name as ``silence`` compares it: case and surrounding spaces aside."""
    return " ".join((name or "").split()).casefold()


class View(TypedDict, total=False):
    """What one seat may know (``GameState.view``, one key a field of it; each game adds
    its own, such as the bid or the tricks taken), with the version it was seen at."""

    game: str
    rules: dict[str, Any]
    seat: int | None
    players: int
    sides: list[list[int]]
    hand_index: int
    dealer: int
    phase: str
    to_act: int | None
    scores: list[int]
    games: list[int]
    over: bool
    winner: Any
    hand: list[str]
    tricks: list[Any]
    trick: dict[str, Any] | None
    legal: list[str]
    deal: dict[str, Any] | None
    history: list[str]
    version: int
    drawn: list[str]  # (the table's) the cards this seat drew in the draw


class Frame(TypedDict, total=False):
    """What one connection is sent: a ``snapshot`` of the whole table, an ``event`` with
    the view after it, or a ``chat`` line; the turn timer with them (``deadline``,
    ``left``)."""

    type: Required[str]
    seq: int
    version: int
    you: int | None
    table: dict[str, Any]
    view: View
    event: Event
    pad: list[dict[str, Any]]
    chat: list[Frame]
    par: dict[str, Any]
    summary: dict[str, Any]
    deadline: float | None
    left: float | None
    seat: int | None
    name: str | None
    phrase: str
    text: str


class TableError(Refused, ValueError):
    """A request the table refuses: ``code`` for programs ("illegal", "stale", "turn",
    "bad", "seat", "over"...), ``reason`` (the message) in a player's words. Where the
    engine's reason has a code of its own (``forties.state.Refusal``), ``refusal`` and
    ``params`` carry it, for a page that says it in the reader's language."""

    code: str  # (a table's refusal always has one)

    def __init__(self, code: str, reason: str, refusal: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(reason, code, params)
        self.reason = reason
        self.refusal = refusal

    @classmethod
    def engine(cls, code: str, reason: str, words: str) -> TableError:
        """The engine's ``reason`` refused as ``code``, in ``words`` (its seats named)."""
        if isinstance(reason, Refusal) and reason.code:
            return cls(code, words, reason.code, dict(reason.params))
        return cls(code, words)


def computer_name(level: str) -> str:
    """The name of a computer player nobody named: "Computer (basic)"."""
    return f"Computer ({level})"


@dataclass
class Seat:
    """A place at the table: a person, a computer player, or nobody yet. ``away``: a
    person whose seat a computer plays until he is back. ``connected`` is the live state
    of the person's connection, kept by whoever serves the table (not an event)."""

    name: str | None = None
    kind: str = EMPTY
    level: str | None = None
    away: bool = False
    connected: bool = False

    @property
    def own_name(self) -> str | None:
        """The name the pages show for this seat: a person's, or a computer player's own
        (one a hall registered), not the "Computer (level)" every other one carries."""
        if self.kind == COMPUTER and self.name == computer_name(self.level or ""):
            return None
        return self.name if self.kind in (PERSON, COMPUTER) else None

    def to_json(self, seat: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": seat, "name": self.name, "kind": self.kind,
                               "connected": self.connected, "away": self.away}
        if self.kind == COMPUTER:
            out["level"] = self.level
        return out


@dataclass
class Settings:
    """What the host chose: a public table (in the lobby), hints allowed, a turn timer
    (None: no timer), whether the game is rated (it counts for the players' ratings;
    chosen before the start, never after: the ``rated`` event), and the pace of the
    table."""

    public: bool = False
    rated: bool = False
    hints: bool = False
    turn_seconds: int | None = None
    grace_seconds: float = 30.0
    level: str = "basic"
    bot_delay: float = 0.6
    review_seconds: float = 20.0

    def to_json(self) -> dict[str, Any]:
        return {"public": self.public, "hints": self.hints, "turn_seconds": self.turn_seconds,
                "rated": self.rated, "grace_seconds": self.grace_seconds, "level": self.level,
                "bot_delay": self.bot_delay, "review_seconds": self.review_seconds}

    def public_json(self) -> dict[str, Any]:
        return {"public": self.public, "hints": self.hints, "turn_seconds": self.turn_seconds,
                "rated": self.rated}

    @classmethod
    def from_json(cls, obj: Any) -> Settings:
        """Settings from JSON; raises TableError("bad", ...) naming what is wrong."""
        if not isinstance(obj, dict):
            raise TableError("bad", "settings must be an object")
        s = cls()
        for key, value in obj.items():
            if key in ("public", "hints", "rated"):
                if not isinstance(value, bool):
                    raise TableError("bad", f"{key} must be true or false")
                setattr(s, key, value)
            elif key == "turn_seconds":
                if value is not None and (type(value) is not int or not 5 <= value <= 3600):
                    raise TableError("bad", "turn_seconds must be null (no timer) or a whole "
                                            "number of seconds from 5 to 3600")
                s.turn_seconds = value
            elif key == "level":
                s.level = check_level(value)
            elif key in ("grace_seconds", "bot_delay", "review_seconds"):
                if type(value) not in (int, float) or not 0 <= value <= 3600:
                    raise TableError("bad", f"{key} must be a number of seconds from 0 to 3600")
                setattr(s, key, float(value))
            else:
                raise TableError("bad", f"unknown setting {key!r}")
        return s


_SEAT_LIST = re.compile(r"\bseat (\d+)((?:, \d+)+)")
_SEAT = re.compile(r"\bseat (\d+)('s)?")
_TURN = re.compile(r"\bseat (\d+)'s turn")
_RANGE = re.compile(r"\bseats are (\d+) ?(?:\.\.|to) ?(\d+)")


def seat_words(reason: str, names: Sequence[str], you: int | None = None) -> str:
    """The engine's reason as a player reads it. The engine numbers seats from 0, as the
    record's action lines do ("it is seat 2's turn, not seat 0's"); a player reads them by
    the names at the table, his own seat as "you" ("it is Cy's turn, not yours"). A seat
    that is not at the table keeps a number, counted from 1 as the pages count."""
    n = len(names)

    def name(i: int, own: bool = False) -> str:
        if i == you:
            return "yours" if own else "you"
        if 0 <= i < n:
            return f"{names[i]}'s" if own else names[i]
        return f"seat {i + 1}'s" if own else f"seat {i + 1}"

    text = _RANGE.sub(lambda m: f"seats are {int(m.group(1)) + 1} to {int(m.group(2)) + 1}",
                      reason)
    text = _TURN.sub(lambda m: "your turn" if int(m.group(1)) == you
                     else f"{name(int(m.group(1)), True)} turn", text)
    text = _SEAT_LIST.sub(lambda m: ", ".join(
        name(int(x)) for x in [m.group(1), *m.group(2).split(",")[1:]]), text)
    return _SEAT.sub(lambda m: name(int(m.group(1)), bool(m.group(2))), text)


def check_level(level: Any) -> str:
    """``level`` if the web's tables offer computer players of it; raises TableError."""
    if not isinstance(level, str) or level not in TABLE_LEVELS:
        raise TableError("bad", f"level must be one of {', '.join(TABLE_LEVELS)}")
    return level


def computer_level(level: str) -> str:
    """``level`` if a computer player of it exists (the terminal offers every one, the
    comparison levels too); raises TableError("bad", the reason)."""
    try:
        make_bot(level, random.Random(0))
    except ValueError as e:
        raise TableError("bad", str(e)) from None
    return level


def computer_choice(level: str, key: str, view: dict[str, Any],
                    legal: Sequence[Action],
                    seats: Sequence[str | None] | None = None) -> Action:
    """What a computer player of ``level`` does, seeing ``view`` and the table's ``seats``
    (``Table.seat_levels``): the player is made for this one decision with its generator
    seeded by ``key`` (the table and its version), so that a table brought back after a
    restart makes the same choice."""
    return make_bot(level, random.Random(key), seats=seats).choose(view, legal)


@dataclass(frozen=True)
class Decision:
    """A computer player's turn as it decides it: its seat, the version it decides on,
    its level, the key its generator is seeded by, its view, the legal actions and the
    table's seats as it is told them. Plain data, so that another thread or process may
    decide while the table goes on."""

    seat: int
    version: int
    level: str
    key: str
    view: dict[str, Any]
    legal: list[Action]
    seats: list[str | None]

    def choose(self) -> Action:
        return computer_choice(self.level, self.key, self.view, self.legal, self.seats)


def check_board(rules: Rules, board: Any) -> Board:
    """The board ``board`` (a ``Board``, or its JSON: ``Board.to_json``) if a table of
    ``rules`` can deal it; raises TableError("bad", one line saying why not)."""
    if rules.preset not in BOARD_PRESETS:
        raise TableError("bad", f"a board is played only at a table of "
                                f"{', '.join(BOARD_PRESETS)}, not {rules.preset}")
    try:
        out = board if isinstance(board, Board) else Board.from_json(board)
        out.game(rules)  # (its cards fit these rules)
    except DuplicateError as e:
        raise TableError("bad", str(e)) from None
    return out


def rules_line(rules: Rules) -> str:
    """The rules in one line: the preset's summary and the house rules changed."""
    line = PRESETS[rules.preset].summary
    if rules.overrides:
        line += "; house rules: " + ", ".join(f"{k} {format_value(v)}"
                                               for k, v in rules.overrides)
    return line


class _HandStart:
    """A hand as its states can be rebuilt: a copy of the game when the table began
    keeping it (``base`` of the hand's actions already in), and the hand's own list of
    actions, which only grows until the next hand starts a new list."""

    __slots__ = ("base", "history", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state.clone()
        self.history = state.history
        self.base = len(state.history)

    def carried(self, state: GameState) -> _HandStart:
        """This hand's start for ``state``, the same hand rebuilt (an action taken back):
        the copy it began from is shared, the actions are the new state's."""
        out = object.__new__(_HandStart)
        out.state, out.base, out.history = self.state, self.base, state.history
        return out

    def replay(self, done: int, work: GameState | None = None) -> GameState:
        """The game after the hand's first ``done`` actions (``work``: a state of this
        hand rebuilt before, with no more actions in, that may be moved on instead)."""
        if work is None or not self.base <= len(work.history) <= done:
            work = self.state.clone()
        for a in self.history[len(work.history):done]:
            work.apply(a)
        return work


@dataclass(slots=True)
class _Past:
    """One event as a reconnecting client gets it: the game as it was just after. The
    state is not copied at every event (a table keeps 64 of them, and a copy is a dozen
    objects): it is rebuilt when asked for, from the hand's start and its actions."""

    seq: int
    version: int
    event: Event
    hand: _HandStart | None
    done: int  # the hand's actions in, just after the event (the game as it was then)
    pad: bool

    @property
    def state(self) -> GameState | None:
        return None if self.hand is None else self.hand.replay(self.done)


@dataclass
class Table:
    """A table: its game, record, seats and settings, moved on only by events."""

    id: str
    rules: Rules
    seed: int | DealKey  # a DealKey: a web table's secret (deals nobody can foresee)
    settings: Settings
    first_dealer: int = 0
    started_at: str = ""
    seats: list[Seat] = field(default_factory=list)
    recorder: Recorder | None = None  # a game already under way (the terminal's)
    labels: list[str] | None = None  # the seats' names in refusals (None: seat_label's)
    # a duplicate board (``forties.duplicate``): the table deals its cards, its dealer
    # dealing, from 0-0, and the game is over when that one hand is
    board: Board | None = None

    def __post_init__(self) -> None:
        if self.board is not None:
            if self.recorder is not None:
                raise TableError("bad", "a board is dealt by a new table, not a game under way")
            self.board = check_board(self.rules, self.board)
            self.first_dealer = self.board.dealer
            self.state: GameState = self.board.game(self.rules)
        elif self.recorder is not None:
            self.rec = self.recorder
            self.state = self.rec.state
        else:
            self.state = new_game(self.rules, seed=self.seed, first_dealer=self.first_dealer)
        n = self.state.n
        if not self.seats:
            self.seats = [Seat() for _ in range(n)]
        if self.recorder is None:
            names = [s.name or f"Seat {i}" for i, s in enumerate(self.seats)]
            extras = {"started": self.started_at} if self.started_at else {}
            self.rec = Recorder(self.state, names, extras)
        self.seq = 0
        # A game under way is at the version its events would have brought it to: the
        # start, each action and each deal after the first
        hands = self.rec.record.hands
        self.version = 0 if self.recorder is None else \
            len(hands) + sum(len(h.actions) for h in hands)
        self.started = self.recorder is not None
        self.ready: set[int] = set()
        self.pad: list[dict[str, Any]] = []
        self.chat: deque[Frame] = deque(maxlen=CHAT_KEPT)
        self.par: dict[int, Any] = {}
        self.closed = False  # the operator ended the table: no more moves, chat or seats
        self.silenced: set[str] = set()  # the names (name_key) whose chat is dropped
        self.deadline: float | None = None  # kept by whoever runs the clock (turn_clock)
        self._clock_key: tuple[int, int, str] | None = None
        self.past: deque[_Past] = deque(maxlen=CATCH_UP)
        self.undos = 0  # take-backs in this hand (UNDOS_A_HAND)
        self._hand: _HandStart | None = None  # the hand the past's states come from

    # ----- what the table is ------------------------------------------------------------

    @property
    def n(self) -> int:
        return self.state.n

    @property
    def status(self) -> str:
        if self.closed:
            return CLOSED
        if not self.started:
            return WAITING
        if self.state.over or (self.board is not None and self.state.hand_over):
            return OVER
        if self.state.phase is Phase.HAND_OVER:
            return REVIEW
        return PLAYING

    def controller(self, seat: int) -> str:
        """Who plays ``seat`` now: a person, or a computer (also for a person away)."""
        s = self.seats[seat]
        return PERSON if s.kind == PERSON and not s.away else COMPUTER

    def level_of(self, seat: int) -> str:
        s = self.seats[seat]
        return s.level if s.kind == COMPUTER and s.level else self.settings.level

    def seat_levels(self) -> list[str | None]:
        """What the table shows of each seat to the computer players, as the people at it
        see it: a computer player's level ("Computer (basic)"), or None for a person's seat
        (even while the computer plays it for a person who is away)."""
        return [self.level_of(i) if s.kind == COMPUTER else None
                for i, s in enumerate(self.seats)]

    def computer_to_act(self) -> int | None:
        """The seat whose turn it is when a computer player plays it; else None."""
        if self.status != PLAYING:
            return None
        turn = self.state.turn
        if turn is None or self.controller(turn) != COMPUTER:
            return None
        return turn

    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == PERSON]

    def all_ready(self) -> bool:
        """Every person at the table (not away) is done with the review; False when no
        person is there to say so (the review's timer then closes it)."""
        here = [i for i in self.people() if not self.seats[i].away]
        return bool(here) and all(i in self.ready for i in here)

    def computer_key(self) -> str:
        """What a computer player's generator is seeded by: the game (its seed, as its
        deals are) and the position (the version), so that the same game makes the same
        choices wherever it is played, brought back after a restart or a save. A DealKey
        gives a value derived from it, never the key itself."""
        seed = self.seed
        if isinstance(seed, DealKey):
            return f"{seed.tag('computer')}:{self.version}"
        return f"{seed}:{self.version}"

    def decision(self) -> Decision | None:
        """What the computer player to act decides from (None: no computer is to act)."""
        seat = self.computer_to_act()
        if seat is None:
            return None
        return Decision(seat, self.version, self.level_of(seat), self.computer_key(),
                        self.state.view(seat), list(self.state.legal_actions()),
                        self.seat_levels())

    def decide(self) -> Action:
        """The computer player's action now (random and basic players are quick)."""
        decision = self.decision()
        if decision is None:
            raise TableError("turn", "no computer player is to act")
        return decision.choose()

    # ----- checks -----------------------------------------------------------------------

    def check_act(self, seat: int | None, text: Any, version: Any) -> Action:
        """The action ``text`` by ``seat`` made on ``version``, if it may be applied now;
        raises TableError: "stale" (the game moved since), "turn", "bad", "illegal" (the
        engine's reason)."""
        action = self._table_allows(seat, text, version)
        reason = self.state.reason(action)
        if reason is not None:
            raise TableError.engine("illegal", reason, self.words(reason, action.seat))
        return action

    def act(self, seat: int | None, text: Any, version: Any) -> list[Event]:
        """The events of the action ``text`` by ``seat`` made on ``version`` (the web's
        and the terminal's one way to act): refused as ``check_act`` refuses, else the
        action and, when it ends the game, the game's end. ``"2 undo"`` takes back seat
        2's last action (``undo``)."""
        if isinstance(text, str) and text.split()[1:2] == [UNDO]:
            return self.undo(seat, text, version)
        return self._events(self._table_allows(seat, text, version))

    def undo(self, seat: int | None, text: Any, version: Any) -> list[Event]:
        """The event that takes back ``seat``'s last action (``text`` "2 undo", made on
        ``version``): only at a table where one person plays with computer players, while
        the game goes on, before any other seat has acted after it, and when the action
        showed that seat no card it had not seen (a draw, the kitty, the pack: what it
        learnt would stay learnt). Raises TableError: "undo" with the reason, or as an
        action is refused (closed, seat, bad, stale, turn)."""
        seat = self._at_the_door(seat, version, isinstance(text, str) and text.split() == [
            str(seat), UNDO], f"to take back your last action, send \"{seat} undo\"",
            "the game has moved on since: nothing was taken back")
        if self.people() != [seat]:
            raise TableError("undo", "an action is taken back only at a table where one "
                                     "person plays with computer players", "undo-alone")
        if self.controller(seat) != PERSON:
            away = Refusal("a computer player has your seat: take it back first", "away")
            raise TableError.engine("turn", away, away)
        if self.status != PLAYING:
            raise TableError("undo", "the hand is over: its last action stands"
                             if self.status in (REVIEW, OVER) else
                             "the game is not being played: nothing can be taken back",
                             "undo-over" if self.status in (REVIEW, OVER) else "undo-none")
        history = self.state.history
        hand = self._hand
        if not history or history[-1].seat != seat:
            if history:
                raise TableError("undo", "the next player has acted since: your last "
                                         "action stands", "undo-acted")
            raise TableError("undo", "nothing of yours to take back in this hand",
                             "undo-none")
        if hand is None or hand.history is not history or hand.base >= len(history):
            raise TableError("undo", "nothing of yours to take back in this hand",
                             "undo-none")
        if self.undos >= UNDOS_A_HAND:
            raise TableError("undo", f"{UNDOS_A_HAND} moves have been taken back in this "
                                     "hand: the rest stand", "undo-many",
                             {"count": UNDOS_A_HAND})
        before = hand.replay(len(history) - 1)
        if not self._seen(seat, before) >= self._seen(seat, self.state):
            raise TableError("undo", "that action showed you cards you had not seen: "
                                     "it stands", "undo-seen")
        return [{"kind": "undo", "seat": seat, "action": str(history[-1])}]

    @staticmethod
    def _seen(seat: int, state: GameState) -> set[str]:
        """The cards ``seat`` sees in ``state`` besides those on the table: its hand, the
        kitty, the pack, the turned-up card, its discards."""
        v = state.view(seat)
        out = set(v.get("hand") or [])
        for key in ("kitty", "pack", "my_discards"):
            out.update(v.get(key) or [])
        if v.get("up_card"):
            out.add(v["up_card"])
        return out

    def _at_the_door(self, seat: int | None, version: Any, well_formed: bool, bad: str,
                     stale: str) -> int:
        """What an action and an undo are both refused for first, in this order: a closed
        table, a spectator, no version, a text not ``well_formed`` (refused with ``bad``),
        a version the table has moved past (``stale``). The seat, known to be one."""
        if self.closed:
            raise TableError("closed", CLOSED_WORDS)
        if seat is None:
            raise TableError("seat", "spectators do not play")
        if type(version) is not int:
            raise TableError("bad", "an action needs the version it was made on")
        if not well_formed:
            raise TableError("bad", bad)
        if version != self.version:
            raise TableError("stale", stale)
        return seat

    def _table_allows(self, seat: int | None, text: Any, version: Any) -> Action:
        """``check_act`` but for the engine's own reason."""
        seat = self._at_the_door(seat, version, isinstance(text, str),
                          "an action must be a string such as \"2 bid 20\"",
                          "the game has moved on since: that action was not played")
        status = self.status
        if status != PLAYING:
            now = {WAITING: Refusal("the game has not started", "not-started"),
                   OVER: Refusal("the game is over", "game-over"),
                   REVIEW: Refusal("the hand is over: a new deal is due", "hand-over")}[status]
            raise TableError.engine("turn", now, now)
        try:
            action = Action.parse(text)
        except ActionSyntaxError as e:
            raise TableError("bad", str(e)) from None
        if action.seat != seat:
            mine = Refusal(f"that action is seat {action.seat}'s, not yours", "not-yours")
            raise TableError.engine("turn", mine, self.words(mine, seat))
        if self.state.turn != seat:
            why: str = self.state.reason(action) or Refusal("it is not your turn", "not-turn")
            raise TableError.engine("turn", why, self.words(why, seat))
        if self.controller(seat) != PERSON:
            away = Refusal("a computer player has your seat: take it back first", "away")
            raise TableError.engine("turn", away, away)
        return action

    def computer_act(self, version: int, action: Action | str) -> list[Event] | None:
        """The events of a computer player's ``action``, decided on ``version``; None
        when the table has moved on since (that computer's turn is over)."""
        if isinstance(action, str):
            action = Action.parse(action)
        if self.version != version or self.computer_to_act() != action.seat:
            return None
        return self._events(action)

    def _events(self, action: Action) -> list[Event]:
        """The events of ``action``, its legality checked here, once (the engine's reason,
        raised as "illegal"): the action, then the game's end if it ends the game. The
        game after it is worked out on a copy, the events being stored before they are
        applied."""
        after = self.state.clone()
        try:
            after.apply(action)
        except IllegalActionError as e:
            raise TableError.engine("illegal", e.reason, self.words(e.reason, action.seat)) \
                from None
        events: list[Event] = [{"kind": "act", "seat": action.seat,
                                         "action": str(action)}]
        if after.over or (self.board is not None and after.hand_over):
            events.append({"kind": "over"})
        return events

    def check_hint(self, seat: int | None) -> int:
        """``seat`` if it may ask for a hint now (the host allows hints, and it is the
        turn of the person in that seat); raises TableError."""
        if not self.settings.hints:
            raise TableError("hints", "the host does not allow hints at this table")
        if seat is None or self.status != PLAYING or self.state.turn != seat or \
                self.controller(seat) != PERSON:
            raise TableError("turn", "a hint is for your own turn")
        return seat

    def seat_label(self, seat: int) -> str:
        """A seat as the pages name it: the person's name (or a computer player's own),
        else "Computer 3" or "Seat 3" (counted from 1)."""
        s = self.seats[seat]
        name = s.own_name
        if name:
            same = sum(1 for x in self.seats if x.own_name == name)
            return name if same == 1 else f"{name} {seat + 1}"
        return f"{'Computer' if s.kind == COMPUTER else 'Seat'} {seat + 1}"

    def words(self, reason: str, you: int | None) -> str:
        """The engine's ``reason`` with its seats named as the pages name them (or as
        ``labels`` names them)."""
        names = self.labels or [self.seat_label(i) for i in range(self.n)]
        return seat_words(reason, names, you)

    # ----- events -----------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event (already checked and stored); moves ``seq`` on."""
        kind = event["kind"]
        moved = kind in GAME_EVENTS
        hand_was_over = self.state.hand_over
        if kind == "sit":
            seat = self.seats[event["seat"]]
            seat.kind = event["as"]
            seat.name = event.get("name")
            seat.level = event.get("level")
            seat.away = False
            self.rec.record.players[event["seat"]] = seat.name or f"Seat {event['seat']}"
        elif kind == "start":
            self.started = True
        elif kind == "act":
            self.rec.apply(Action.parse(event["action"]))
        elif kind == "deal":
            if self.board is not None:
                raise TableError("bad", "a board is a single hand: there is no next deal")
            self.rec.next_hand()
            self.ready.clear()
            self.undos = 0
        elif kind == "undo":
            self._take_back(event)
            self.undos += 1
        elif kind == "away":
            self.seats[event["seat"]].away = True
        elif kind == "back":
            self.seats[event["seat"]].away = False
        elif kind == "ready":
            self.ready.add(event["seat"])
        elif kind == "chat":
            self.chat.append(self.chat_frame(event, self.seq + 1))
        elif kind == "par":
            self.par[event["hand"]] = event["value"]
        elif kind == "close":
            self.closed = True
            self.ready.clear()
        elif kind == "silence":
            self.silenced.add(name_key(event.get("name")))
        elif kind == "rated":  # (its route takes it only while the table waits)
            if not self.started:
                self.settings.rated = bool(event.get("value"))
        elif kind != "over":
            raise TableError("bad", f"unknown event {kind!r}")
        self.seq += 1
        if moved:
            self.version += 1
        pad = kind == "act" and self.state.hand_over and not hand_was_over
        if pad:
            self.pad.append(self.pad_line())
        hand = self._hand
        if hand is None or hand.history is not self.state.history:  # a new hand
            hand = self._hand = _HandStart(self.state)
        self.past.append(_Past(self.seq, self.version, event, hand,
                               len(self.state.history), pad))

    def _take_back(self, event: Event) -> None:
        """Apply an undo: the game as it was before the hand's last action, which leaves
        the record too (the record is the game as it was played; the events keep the
        take-back). The states of the events before it stay as they were."""
        history = self.state.history
        hand = self._hand
        actions = self.rec.record.hands[-1].actions
        if hand is None or hand.history is not history or hand.base >= len(history) or \
                not actions or str(history[-1]) != event.get("action") or \
                history[-1].seat != event.get("seat"):
            raise TableError("bad", "an undo that does not take back the last action")
        state = hand.replay(len(history) - 1)
        actions.pop()
        self.state = self.rec.state = state
        self._hand = hand.carried(state)

    def stored_status(self, events: Sequence[Event]) -> str:
        """The status storage keeps for the table once ``events`` are applied: waiting,
        playing (a hand under review too) or over (a game over stays over: a chat line
        after its end does not make it a table in play again)."""
        kinds = {e["kind"] for e in events}
        if "over" in kinds or self.status == OVER:
            return OVER
        return PLAYING if "start" in kinds or self.status != WAITING else WAITING

    def still_wanted(self, hand: int, events: Sequence[Event]) -> bool:
        """Whether ``events``, chosen when the game was in ``hand`` and refused because
        another process moved the table first, do not depend on what it did (a chat line;
        "ready" in the same hand's review; a person back in a seat still away; a guest in
        a seat still empty, the seat's key being the database's already; the par of a
        hand not told yet), so that they are stored after its events rather than
        refused."""
        def wanted(e: Event) -> bool:
            kind = e["kind"]
            if kind == "chat":
                return True
            if kind == "ready":
                return self.status == REVIEW and self.state.hand_index == hand and \
                    e.get("seat") not in self.ready
            if kind == "back":
                return bool(self.seats[e["seat"]].away)
            if kind == "sit":
                return bool(e.get("as") == PERSON and self.seats[e["seat"]].kind == EMPTY)
            if kind == "par":
                return bool(e["hand"] not in self.par)
            return False
        return all(wanted(e) for e in events)

    # ----- the turn timer ---------------------------------------------------------------

    def turn_clock(self, now: float) -> None:
        """Set ``deadline`` for the position now (``now``: the clock of whoever runs the
        table): a person's turn at a table with turn timers gets ``turn_seconds`` from
        when it began; the deadline stays while the same turn goes on (a chat line, a
        reconnection), and is None when no person's turn is timed."""
        seconds = self.settings.turn_seconds
        turn = self.state.turn
        key: tuple[int, int, str] | None = None
        if seconds and self.status == PLAYING and turn is not None and \
                self.controller(turn) == PERSON:
            key = (self.version, turn, PERSON)
        if key != self._clock_key:
            self._clock_key = key
            self.deadline = None if key is None else now + float(seconds or 0)

    def timer(self, now: float) -> dict[str, Any]:
        """The turn timer as a frame carries it: ``deadline`` (the server's clock, epoch
        seconds) and ``left`` (seconds remaining at ``now``), both None without one."""
        if self.deadline is None:
            return {"deadline": None, "left": None}
        return {"deadline": self.deadline, "left": round(max(0.0, self.deadline - now), 3)}

    # ----- what leaves the table --------------------------------------------------------

    def summary(self, seat: int | None = None, host: bool = False) -> dict[str, Any]:
        """TABLE: the public summary of the table (no cards, no tokens)."""
        return {
            "id": self.id,
            "preset": self.rules.preset,
            "game": self.rules.game,
            "status": self.status,
            "seats": [s.to_json(i) for i, s in enumerate(self.seats)],
            "you": seat,
            "host": host,
            "settings": self.settings.public_json(),
            "deadline": self.deadline,
            "rules_text": rules_line(self.rules),
            "house_rules": [[k, v] for k, v in self.rules.overrides],
            # every rule's value (the page explains the bids, the target and the rules by
            # them)
            "target": self.rules.target,
            "rule_values": {k: v for k, v in asdict(self.rules).items()
                            if k not in ("preset", "overrides")},
        } | ({"board": self.board.number} if self.board is not None else {})

    def view(self, seat: int | None, state: GameState | None = None) -> View:
        """VIEW: the engine's one view for ``seat`` (None: a spectator) with the version."""
        st = state or self.state
        v = self.seat_view(st, seat)
        v["version"] = self.version
        if self.board is not None and st.hand_over:
            v["over"] = True  # a board is one hand: the game ends with it
        if self.status in (WAITING, CLOSED) and v.get("legal"):
            v["legal"] = []  # dealt, but nobody plays before the host starts the table
            # (or after the operator closed it)
        return v

    @staticmethod
    def seat_view(state: GameState, seat: int | None) -> View:
        """The engine's view for ``seat`` as the table gives it: the hand in the order a
        player holds it (show.sort_hand: trumps first by the engine's own rank), which is
        only the seat's own cards in another order, so it tells nothing more; and the
        cards the seat drew (``drawn``: its own, not in its dealt hand, the kitty it took
        or the turned-up card it robbed)."""
        v = cast(View, dict(state.view(seat)))
        if seat is not None:
            raw = cast(dict[str, Any], v)
            v["hand"] = sort_hand(v["hand"], raw.get("trump"), v["game"])
            kept = {CARD_NAMES[c] for c in state.deal.hands[seat]} | set(raw.get("kitty") or [])
            up = raw.get("up_card")
            v["drawn"] = [c for c in v["hand"] if c not in kept and c != up]
        return v

    def snapshot(self, seat: int | None, host: bool = False,
                 now: float | None = None) -> Frame:
        """The whole table as ``seat`` may see it; with ``now``, the turn timer too."""
        out: Frame = {
            "type": "snapshot", "seq": self.seq, "version": self.version, "you": seat,
            "table": self.summary(seat, host), "view": self.view(seat),
            "pad": list(self.pad), "chat": list(self.chat),
            "par": {str(k): v for k, v in self.par.items()}}
        self._summed(out, out["view"])
        if now is not None:
            timer = self.timer(now)
            out["deadline"], out["left"] = timer["deadline"], timer["left"]
        return out

    def event_frame(self, seat: int | None, event: Event, host: bool = False,
                    past: _Past | None = None, state: GameState | None = None,
                    now: float | None = None) -> Frame:
        """The frame that tells ``seat`` of ``event`` (the last one applied, or ``past``,
        whose game ``state`` the caller may have rebuilt already); with ``now``, the turn
        timer as it stands (``timer``)."""
        if event["kind"] == "chat":
            return self.chat_frame(event, past.seq if past else self.seq)
        if state is None and past is not None:
            state = past.state
        view = self.view(seat, state)
        if past is not None:
            view["version"] = past.version
        out: Frame = {"type": "event", "seq": past.seq if past else self.seq,
                               "version": view["version"],
                               "event": self.public_event(event, view), "view": view}
        pad = past.pad if past is not None else (
            event["kind"] == "act" and bool(self.pad) and self.state.hand_over)
        if event["kind"] not in ("act", "par") or pad:
            out["table"] = self.summary(seat, host)
        if pad:
            out["pad"] = list(self.pad)
        self._summed(out, view)
        if now is not None:
            timer = self.timer(now)
            out["deadline"], out["left"] = timer["deadline"], timer["left"]
        return out

    def _summed(self, out: Frame, view: View) -> None:
        """A frame of a finished game carries its SUMMARY (``forties.summary``)."""
        if view.get("over") and self.pad:
            out["summary"] = game_summary(self.pad, self.par, self.state.sides,
                                          self.rules.game == "forty-one")

    @staticmethod
    def public_event(event: Event, view: View) -> Event:
        """EVENT as a seat learns of it: an action as the seat's view writes it (another
        seat's discards are counted, not named)."""
        kind = event["kind"]
        if kind == "act":
            history = view.get("history") or []
            text = history[-1] if history else event["action"]
            return {"kind": "act", "seat": event["seat"], "text": text}
        if kind == "deal":
            return {"kind": "deal", "hand": event["hand"]}
        if kind == "par":
            return {"kind": "par", "hand": event["hand"], "value": event["value"]}
        out: Event = {"kind": kind}
        if "seat" in event:
            out["seat"] = event["seat"]
        return out

    def chat_frame(self, event: Event, seq: int) -> Frame:
        out: Frame = {"type": "chat", "seq": seq, "seat": event.get("seat"),
                               "name": event.get("name")}
        if "phrase" in event:
            out["phrase"] = event["phrase"]
        else:
            out["text"] = event.get("text", "")
        return out

    def frames_since(self, seat: int | None, seq: int, host: bool = False,
                     now: float | None = None) -> list[Frame] | None:
        """The frames of the events after ``seq`` as ``seat`` would have had them, or None
        when they are no longer all kept (the client then gets a snapshot)."""
        if seq == self.seq:
            return []
        if seq > self.seq or seq < 0:
            return None
        kept = [p for p in self.past if p.seq > seq]
        if not kept or kept[0].seq != seq + 1:
            return None
        frames = []
        work: GameState | None = None  # each hand's states rebuilt once, in order
        work_hand: _HandStart | None = None
        for p in kept:
            state = None
            if p.hand is not None:
                work = p.hand.replay(p.done, work if work_hand is p.hand else None)
                work_hand = p.hand
                state = work
            frames.append(self.event_frame(seat, p.event, host, p, state, now))
        return frames

    def pad_line(self) -> dict[str, Any]:
        """PAD: the hand just finished as the scorekeeper writes it, from the public view:
        each side's card points (``points``), what the hand did to its score (``change``:
        a set bid, a locked side, 30 for 60, a 45 gone back to 0, as the engine scored
        them), its score after the hand (``scores``); in an auction game the points the
        bidding side took against its bid (``took``: the bidder's and his called
        partner's), when the hand was played out."""
        st = self.state
        v = st.view(None)
        line: dict[str, Any] = {"hand": v["hand_index"], "dealer": v["dealer"]}
        note: str
        if self.rules.game == "forty-one":
            line.update({"bidder": None, "bid": None, "trump": "H", "bids": v["bids"],
                         "tricks": v["taken"], "points": v["taken"]})
            note = "thrown in" if not v["tricks"] else ""
        else:
            line.update({"bidder": v["bidder"], "bid": v["bid"], "trump": v["trump"],
                         "points": v["points"]})
            if v["bidder"] is None:
                note = "thrown in" if not v["tricks"] else ""
            else:
                made = getattr(st, "made", None)  # the engine's own scoring decides
                result = made() if made is not None else None
                note = "made" if result else "set"
                if result is not None:  # (None: not played out, the bidder folded)
                    sides = st.bidding_sides()  # type: ignore[attr-defined]
                    line["took"] = sum(v["points"][x] for x in sides)
        line["scores"] = v["scores"]
        line["change"] = [a - b for a, b in zip(v["scores"], st.start_scores, strict=True)]
        line["note"] = note
        if self.state.new_game_due:
            line["new_game"] = True
        return line

    def public_record(self) -> dict[str, Any]:
        """The record as ``forties check`` judges it: while the game goes on, the finished
        hands only (nothing hidden leaks); never the seed the deals come from."""
        rec = self.rec.record
        hands = rec.hands if self.state.over or self.state.hand_over else rec.hands[:-1]
        extras = {k: v for k, v in rec.extras.items() if k != "seed"}
        return Record(rec.rules, list(rec.players), rec.first_dealer, list(hands),
                      extras).to_json()

    def summary_for_hall(self) -> dict[str, Any]:
        """What an organiser needs when a game ends: scores, winning seats, names."""
        st = self.state
        winner = st.winner
        seats: list[int] = []
        if isinstance(winner, tuple):
            seats = list(winner)
        elif isinstance(winner, int):
            seats = list(st.sides[winner]) if winner < len(st.sides) else [winner]
        out = {"status": self.status, "scores": list(st.scores),
               "winner": seats or None, "sides": [list(s) for s in st.sides],
               "names": [s.name for s in self.seats], "games": list(st.games)}
        return out | self.board_result()

    def board_result(self) -> dict[str, Any]:
        """A board table's result: {"board": its number} while it is played; once it is
        over, also "record" (``public_record``: the game as ``forties check`` judges it)
        and each partnership's score on the hand, "ns" (seats 0 and 2) and "ew" (1 and 3),
        by ``duplicate.scores_of_hand``. Empty for any other table."""
        if self.board is None:
            return {}
        out: dict[str, Any] = {"board": self.board.number}
        if self.status == OVER:
            ns, ew = scores_of_hand(self.state)
            out.update({"record": self.public_record(), "ns": ns, "ew": ew})
        return out


def check_event(table: Table, event: Any) -> None:
    """Raise TableError unless ``event`` is well formed for ``table`` (used when events
    come from storage that might have been edited)."""
    if not isinstance(event, dict) or event.get("kind") not in EVENT_KINDS:
        raise TableError("bad", "not a table event")
    seat = event.get("seat")
    if seat is not None and (type(seat) is not int or not 0 <= seat < table.n):
        raise TableError("bad", "an event names a seat that is not at the table")


__all__ = [
    "BOARD_PLAYED",
    "BOARD_PRESETS",
    "BOARD_RECORD",
    "BOARD_REMATCH",
    "BOARD_WATCHED",
    "CLOSED",
    "CLOSED_WORDS",
    "COMPUTER",
    "EMPTY",
    "KINDS",
    "OVER",
    "PERSON",
    "PHRASES",
    "PLAYING",
    "REVIEW",
    "TABLE_LEVELS",
    "UNDO",
    "WAITING",
    "Decision",
    "Event",
    "Frame",
    "Seat",
    "Settings",
    "Table",
    "TableError",
    "View",
    "check_board",
    "check_level",
    "computer_choice",
    "computer_level",
    "name_key",
    "rules_line",
    "seat_words",
]
