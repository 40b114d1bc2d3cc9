"""One person's game against computer players, written to disk as it goes.

A ``Session`` is a table (``forties.table.Table``, the web's too: it accepts or refuses
the person's actions and decides the computer players') plus saving to a file and undo.
Every action is written to the save file at once (a temporary file renamed over it), so
a crash or Ctrl-C loses nothing and ``forties play --resume FILE`` carries on. Both
terminal clients (full-screen and plain) drive a game through this one class.
"""

from __future__ import annotations

import datetime as _dt
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import advice
from ..actions import Action
from ..errors import FortiesError
from ..games import new_game
from ..paths import data_dir as data_dir
from ..players import LEVELS
from ..record import HandRecord, Record, Recorder, RecordError, Replay, replay_record
from ..rules import Rules
from ..state import Deal, DealKey, GameState, IllegalActionError, Phase
from ..table import COMPUTER, PERSON, Event, Seat, Settings, Table, TableError, computer_level
from .words import default_names, hand_start, narrate

NOTES_KEY = "forties-play"


class SessionError(FortiesError, ValueError):
    """A game that cannot be started or resumed: says why in a player's words."""


# ----- where games are kept -------------------------------------------------------------


def default_save_path(preset: str) -> Path:
    """A new file in the data folder's games/, named for now and the preset; made empty
    here, so that two games started in the same second never share one."""
    stamp = _dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    return new_file(data_dir() / "games", f"{stamp}-{preset}")


def new_file(folder: Path, stem: str) -> Path:
    """``folder/stem.json``, or ``stem-2.json``, ``stem-3.json``... the first name that
    nobody holds: the file is created (empty) here, so no other process can take it."""
    folder.mkdir(parents=True, exist_ok=True)
    k = 1
    while True:
        path = folder / (f"{stem}.json" if k == 1 else f"{stem}-{k}.json")
        try:
            with open(path, "x", encoding="utf-8"):
                return path
        except FileExistsError:
            k += 1


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that a reader sees the old file or the new, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ----- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class HandReview:
    """A finished hand laid open: every hand as dealt, the tricks, the result."""

    hand_index: int
    dealer: int
    deal: Deal
    tricks: list[dict[str, Any]]
    view: dict[str, Any]
    play_start: GameState | None


def check_level(level: str) -> str:
    """``level`` if a computer player of that level exists; raises SessionError."""
    try:
        return computer_level(level)
    except TableError as e:
        raise SessionError(e.reason) from None


def seat_levels(n: int, human: int, sides: Sequence[Sequence[int]], partner: str,
                opponents: str) -> list[str | None]:
    """Each seat's computer level (None for the person): partners and opponents."""
    mine = next((s for s in sides if human in s), (human,))
    return [None if s == human else (partner if s in mine else opponents) for s in range(n)]


class Session:
    """A game in progress between one person and computer players, saved as it goes."""

    def __init__(self, rec: Recorder, human: int, levels: Sequence[str | None],
                 save_path: Path | None, save: bool = True) -> None:
        self.human = human
        self.levels = list(levels)
        self.names = list(rec.record.players)
        self.names[human] = "You"  # the record keeps his name; the table speaks to him
        self.rec = rec  # the table (forties.table) that holds the game and its record
        self.save_path = save_path
        # The record's own notes are kept: ours go beside them (a note that is not an
        # object, such as a line of words, is kept as the notes' "text").
        notes = self.rec.record.extras.get("notes")
        if not isinstance(notes, dict):
            notes = {} if notes is None else {"text": notes}
            self.rec.record.extras["notes"] = notes
        notes[NOTES_KEY] = {"seat": human, "levels": self.levels}
        if save:
            self.save()

    # ----- starting -------------------------------------------------------------------

    @classmethod
    def start(cls, rules: Rules, *, seed: int | None = None, human: int = 0,
              partner: str = "basic", opponents: str = "basic",
              levels: Sequence[str | None] | None = None, names: Sequence[str] | None = None,
              you: str = "You", save_path: Path | None = None, deal: Deal | None = None,
              first_dealer: int | None = None) -> Session:
        """A new game; the person sits at ``human`` and, unless ``first_dealer`` says
        otherwise, bids first (the dealer is on his right)."""
        n = rules.players
        if not 0 <= human < n:
            raise SessionError(f"there is no seat {human}: seats are 0 to {n - 1}")
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 32)
        dealer = (human - 1) % n if first_dealer is None else first_dealer
        state = new_game(rules, seed=seed, first_dealer=dealer, deal=deal)
        if levels is None:
            levels = seat_levels(n, human, rules.sides,
                                 check_level(partner), check_level(opponents))
        seat_names = list(names) if names else default_names(n, human, you)
        started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        rec = Recorder(state, seat_names, {"started": started})
        return cls(rec, human, levels, save_path)

    @classmethod
    def resume(cls, path: Path, *, human: int | None = None, partner: str | None = None,
               opponents: str | None = None, save_path: Path | None = None) -> Session:
        """Carry on the game recorded in ``path`` (saving back to it unless told otherwise,
        from its first new action on: the file is not touched before)."""
        try:
            record = Record.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise SessionError(f"{path}: cannot read: {e.strerror}") from None
        except UnicodeDecodeError:
            raise SessionError(f"{path}: not a UTF-8 text file, so not a game record") from None
        except RecordError as e:
            raise SessionError(f"{path}: {e}") from None
        notes = record.extras.get("notes")
        saved = notes.get(NOTES_KEY, {}) if isinstance(notes, dict) else {}
        n = record.rules.players
        seat = human if human is not None else saved.get("seat", 0)
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise SessionError(f"there is no seat {seat}: seats are 0 to {n - 1}")
        old = saved.get("levels")
        kept = old if isinstance(old, list) and len(old) == n else [None] * n
        mine = next((side for side in record.rules.sides
                     if seat in side), (seat,))
        levels: list[str | None] = []
        for s, lv in enumerate(kept):  # each seat keeps its level unless told otherwise
            told = partner if s in mine else opponents
            levels.append(None if s == seat else check_level(told) if told is not None
                          else lv if isinstance(lv, str) and lv in LEVELS else "basic")
        seed = record.extras.get("seed")
        if not isinstance(seed, int):
            seed = random.SystemRandom().randrange(1 << 32)
            record.extras["seed"] = seed
        state = _replay(record, seed, path)
        return cls(Recorder(state, record=record), seat, levels, save_path or path,
                   save=False)

    # ----- the game -------------------------------------------------------------------

    @property
    def rec(self) -> Recorder:
        return self.table.rec

    @rec.setter
    def rec(self, rec: Recorder) -> None:
        """Sit at the table of ``rec``'s game: the person in his seat, the computers in
        theirs (the one table layer that the web server uses too)."""
        st = rec.state
        seats = [Seat(rec.record.players[i], PERSON if lv is None else COMPUTER, lv)
                 for i, lv in enumerate(self.levels)]
        self.table = Table("terminal", st.rules, st.seed or 0, Settings(),
                           st.first_dealer, seats=seats, recorder=rec, labels=self.names)

    @property
    def state(self) -> GameState:
        return self.rec.state

    @property
    def record(self) -> Record:
        return self.rec.record

    def view(self) -> dict[str, Any]:
        """Everything the person may know now: the one view of the engine."""
        return self.state.view(self.human)

    @property
    def my_turn(self) -> bool:
        return not self.state.hand_over and self.state.turn == self.human

    @property
    def bots_turn(self) -> bool:
        return self.table.computer_to_act() is not None

    @property
    def new_hand_due(self) -> bool:
        return self.state.phase is Phase.HAND_OVER and not self.state.over

    def legal(self) -> Sequence[Action]:
        return self.state.legal_actions() if self.my_turn else []

    def reason(self, action: Action) -> str | None:
        """Why the person may not make ``action`` now, as the table refuses it, seats
        named as the terminal names them; None if he may."""
        try:
            self.table.check_act(self.human, str(action), self.table.version)
        except TableError as e:
            return self._words(e, action)
        return None

    def act(self, action: Action) -> list[str]:
        """The person's action; what happened. Raises the table's refusal (TableError,
        as the web's, with its code) in the terminal's words."""
        try:
            events = self.table.act(self.human, str(action), self.table.version)
        except TableError as e:
            raise TableError(e.code, self._words(e, action), e.refusal, e.params) from None
        return self._apply(events)

    def _words(self, refused: TableError, action: Action) -> str:
        """The table's refusal of ``action`` as the terminal says it: an action for
        another seat that the engine refuses anyway, with the engine's reason."""
        why = self.state.reason(action) if refused.refusal == "not-yours" else None
        return refused.reason if why is None else self.table.words(why, self.human)

    def bot_step(self, action: Action | None = None) -> list[str]:
        """One computer player's action (``action`` when it was worked out beforehand, as
        ``bot_decision`` does); what happened (one line per event)."""
        if action is None:
            action = self.bot_decision()()
        events = self.table.computer_act(self.table.version, action)
        assert events is not None, f"{action}: not a computer player's turn"
        return self._apply(events)

    def bot_decision(self) -> Callable[[], Action]:
        """The computer player to act, ready to decide: a call that works out its action
        from a copy of what it sees and changes nothing, so it may run on another thread
        while the table stays live."""
        decision = self.table.decision()
        assert decision is not None
        return decision.choose

    def run_bots(self) -> list[str]:
        """Every computer player's action up to the person's turn or the hand's end."""
        out: list[str] = []
        while self.bots_turn:
            out += self.bot_step()
        return out

    def _apply(self, events: list[Event]) -> list[str]:
        before = self.view()
        for e in events:
            self.table.apply(e)
        self.save()
        return narrate(before, self.view(), self.names, self.human, fancy=False)

    def next_hand(self) -> list[str]:
        """Deal the next hand (from the game's seed); its opening lines."""
        self.table.apply({"kind": "deal", "hand": self.state.hand_index + 1})
        self.save()
        return self.opening()

    def opening(self) -> list[str]:
        """The lines that open the current hand (cards as ``10H``: see ``words.pretty``)."""
        return hand_start(self.view(), self.names, self.human, fancy=False)

    # ----- undo -----------------------------------------------------------------------

    def last_own_action(self) -> tuple[int, int] | None:
        """(hand, index) of the person's last action in the record, if any."""
        hands = self.record.hands
        for h in range(len(hands) - 1, -1, -1):
            acts = hands[h].actions
            for i in range(len(acts) - 1, -1, -1):
                if Action.parse(acts[i]).seat == self.human:
                    return h, i
        return None

    def undo(self) -> bool:
        """Take back the person's last action and the computer players' after it."""
        pos = self.last_own_action()
        if pos is None:
            return False
        h, i = pos
        old = self.record
        hands = [HandRecord(x.deal, list(x.actions)) for x in old.hands[:h + 1]]
        hands[h].actions = hands[h].actions[:i]
        record = Record(old.rules, list(old.players), old.first_dealer, hands, dict(old.extras))
        seed = self.state.seed
        self.rec = Recorder(_replay(record, seed, self.save_path), record=record)
        self.save()
        return True

    # ----- advice and review ----------------------------------------------------------

    def hint(self) -> advice.Advice:
        return advice.hint(self.state, self.human)

    def review(self, hand: int | None = None) -> HandReview:
        """A finished hand, every card laid open: the one just played (the default; the
        hand is over), or the earlier hand ``hand`` (counted from 0)."""
        last = len(self.record.hands) - 1
        if hand is None or hand == last:
            v = self.view()
            record = self.record
        else:
            if not 0 <= hand < last:
                raise SessionError(f"there is no finished hand {hand + 1}")
            old = self.record
            record = Record(old.rules, list(old.players), old.first_dealer,
                            [HandRecord(x.deal, list(x.actions)) for x in old.hands[:hand + 1]],
                            dict(old.extras))
            v = _replay(record, self.state.seed, self.save_path).view(self.human)
        return HandReview(v["hand_index"], v["dealer"], record.hands[-1].deal,
                          list(v["tricks"]), v, play_start(record))

    def save(self) -> None:
        if self.save_path is not None:
            write_atomic(self.save_path, self.record.dumps())


def _replay(record: Record, seed: int | DealKey | None, where: Path | None) -> GameState:
    """The game at the end of ``record``, ready to deal on from ``seed``."""
    try:
        state = replay_record(record)
    except (RecordError, IllegalActionError) as e:
        raise SessionError(f"{where or 'record'}: {e}") from None
    if state is None:
        state = new_game(record.rules, seed=seed, first_dealer=record.first_dealer)
        record.hands.append(HandRecord(state.deal))
    state.seed = seed
    return state


def play_start(record: Record) -> GameState | None:
    """The last hand of ``record`` at its first lead (None if play never began)."""
    replay = Replay(record)
    found: GameState | None = None
    for h, st in replay.states():
        found = None
        for text in record.hands[h].actions:
            if st.phase is Phase.PLAY and not st.tricks and not st.trick_cards and found is None:
                found = st.clone()
            st.apply(text)
    return found
