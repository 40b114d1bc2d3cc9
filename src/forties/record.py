"""Game records (``forties-record/1``): read, write, replay, and the referee's verdict.

A record holds the rules, the players, the first dealer, and for every hand its
deal and its actions. Replaying it reproduces every card and every score;
``referee`` turns a replay into the JSON verdict of ``forties check``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, ActionSyntaxError, bid_text
from .cards import CARD_NAMES, SUITS
from .errors import FortiesError
from .fortyfives import FortyFivesState
from .fortyone import FortyOneState
from .games import game_class
from .rules import FORTY_FIVES, FORTY_ONE, FortyFivesRules, Rules, RulesError, rules_from_json
from .state import Deal, DealError, GameState, IllegalActionError, Phase

FORMAT = "forties-record/1"
OPTIONAL_KEYS = ("seed", "started", "times", "notes", "event")


class RecordError(FortiesError, ValueError):
    """A record that is not a game at all: says what is wrong and where. Messages number
    hands and actions from 1, as people count (the referee's JSON keeps the record's
    0-based indices)."""


@dataclass
class HandRecord:
    deal: Deal
    actions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal.to_json(), "actions": list(self.actions)}


@dataclass
class Record:
    rules: Rules
    players: list[str]
    first_dealer: int = 0
    hands: list[HandRecord] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.rules.game,
            "rules": self.rules.to_json(),
            "players": list(self.players),
            "first_dealer": self.first_dealer,
            "hands": [h.to_json() for h in self.hands],
        }
        for k in OPTIONAL_KEYS:
            if k in self.extras:
                out[k] = self.extras[k]
        return out

    def dumps(self) -> str:
        """The record as JSON text: one hand's deal and actions per line block."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Read a parsed record; raises RecordError saying what and where."""
        if not isinstance(obj, dict):
            raise RecordError("a record must be a JSON object")
        if obj.get("format") != FORMAT:
            raise RecordError(f"format must be {FORMAT!r}, not {obj.get('format')!r}")
        known = {"format", "game", "rules", "players", "first_dealer", "hands", *OPTIONAL_KEYS}
        extra = sorted(set(obj) - known)
        if extra:
            raise RecordError(f"unknown key {extra[0]!r}")
        for key in ("rules", "players", "first_dealer", "hands"):  # record.md's keys
            if key not in obj:
                raise RecordError(f"missing key {key!r}")
        try:
            rules = rules_from_json(obj["rules"])
        except RulesError as e:  # its message may name "rules:" already
            why = str(e)
            raise RecordError(why if why.startswith("rules: ") else f"rules: {why}") from None
        game = obj.get("game", rules.game)
        if game not in (FORTY_FIVES, FORTY_ONE):
            raise RecordError(f"game must be {FORTY_FIVES!r} or {FORTY_ONE!r}, not {game!r}")
        if game != rules.game:
            raise RecordError(f"game is {game!r} but preset {rules.preset!r} is {rules.game!r}")
        n = rules.players
        players = obj["players"]
        if not isinstance(players, list) or not all(_is_text(p) for p in players):
            raise RecordError("players must be a list of names")
        if len(players) != n:
            raise RecordError(f"players lists {len(players)} names for {n} seats")
        first = obj["first_dealer"]
        if type(first) is not int or not 0 <= first < n:
            raise RecordError(f"first_dealer must be a seat from 0 to {n - 1}, not {first!r}")
        hands_obj = obj["hands"]
        if not isinstance(hands_obj, list):
            raise RecordError("hands must be a list")
        hands = []
        for i, h in enumerate(hands_obj):
            if not isinstance(h, dict) or "deal" not in h:
                raise RecordError(f"hand {i + 1}: must be an object with \"deal\" and \"actions\"")
            bad = sorted(set(h) - {"deal", "actions"})
            if bad:
                raise RecordError(f"hand {i + 1}: unknown key {bad[0]!r}")
            try:
                deal = Deal.from_json(h["deal"])
            except DealError as e:
                raise RecordError(f"hand {i + 1}: {e}") from None
            acts = h.get("actions", [])
            if not isinstance(acts, list) or not all(_is_text(a) for a in acts):
                raise RecordError(f"hand {i + 1}: actions must be a list of strings")
            hands.append(HandRecord(deal, list(acts)))
        extras = {k: obj[k] for k in OPTIONAL_KEYS if k in obj}
        return cls(rules, players, first, hands, extras)

    @classmethod
    def loads(cls, text: str) -> Record:
        """A record from its JSON text (which may begin with a UTF-8 byte-order mark, as
        Windows Notepad saves it)."""
        text = text.removeprefix("\ufeff")
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deep") from None
        except ValueError:  # an integer past int()'s digit limit
            raise RecordError("not a record: a number with too many digits") from None
        return cls.from_json(obj)


def _is_text(v: Any) -> bool:
    """A string that can be printed: JSON's "\\ud800" escape makes one that cannot."""
    if not isinstance(v, str):
        return False
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Recorder:
    """A game and its record kept together: every action applied is written down."""

    def __init__(self, state: GameState, players: list[str] | None = None,
                 extras: dict[str, Any] | None = None, record: Record | None = None) -> None:
        """A new record of ``state``; or, with ``record``, carry on that record (whose
        replay ``state`` is)."""
        self.state = state
        if record is not None:
            self.record = record
            return
        names = players or [f"Seat {i}" for i in range(state.n)]
        ex = dict(extras or {})
        if type(state.seed) is int:  # (a DealKey is a secret: never written down)
            ex.setdefault("seed", state.seed)
        self.record = Record(state.rules, names, state.first_dealer,
                             [HandRecord(state.deal)], ex)

    def apply(self, action: Action | str) -> None:
        a = Action.parse(action) if isinstance(action, str) else action
        self.state.apply(a)
        self.record.hands[-1].actions.append(str(a))

    def next_hand(self, deal: Deal | None = None) -> None:
        self.state.next_hand(deal)
        self.record.hands.append(HandRecord(self.state.deal))


# ----- replay ------------------------------------------------------------------------------


class Replay:
    """Replays a record hand by hand, checking every action."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.state: GameState | None = None
        self.summaries: list[dict[str, Any]] = []

    def states(self) -> Iterator[tuple[int, GameState]]:
        """Start each hand in turn; yields (hand index, state at the hand's start)."""
        rec = self.record
        for h, hand in enumerate(rec.hands):
            try:
                if self.state is None:
                    self.state = game_class(rec.rules)(rec.rules, None, rec.first_dealer,
                                                       hand.deal)
                else:
                    st = self.state
                    if st.over:
                        raise RecordError(f"hand {h + 1} follows the end of the game")
                    if st.phase is not Phase.HAND_OVER:
                        raise RecordError(f"hand {h + 1} starts before hand {h} is finished")
                    st.next_hand(hand.deal)
            except DealError as e:
                raise RecordError(f"hand {h + 1}: {e}") from None
            yield h, self.state

    def played(self, h: int, st: GameState) -> Iterator[str]:
        """Hand ``h``'s actions applied to ``st`` (its state from ``states``) one by one,
        each one's text yielded once it is applied; RecordError for one that is no action,
        PositionedIllegal for one the rules refuse."""
        for i, text in enumerate(self.record.hands[h].actions):
            try:
                a = Action.parse(text)
            except ActionSyntaxError as e:
                raise RecordError(f"hand {h + 1}, action {i + 1}: {e}") from None
            why = st.reason(a)
            if why is not None:
                raise PositionedIllegal(h, i, text, why, self)
            st.apply(a)
            yield text

    def run(self) -> GameState | None:
        """Replay everything; raises RecordError or IllegalActionError (with position)."""
        for h, st in self.states():
            for _ in self.played(h, st):
                pass
            self.summaries.append(hand_summary(st))
        return self.state


class PositionedIllegal(FortiesError):
    def __init__(self, hand: int, index: int, text: str, reason: str, replay: Replay) -> None:
        super().__init__(f"hand {hand + 1}, action {index + 1} ({text}): {reason}")
        self.hand, self.index, self.text, self.reason, self.replay = (
            hand, index, text, reason, replay)


def hand_summary(st: GameState) -> dict[str, Any]:
    """The referee's account of the current hand of ``st`` (finished or not)."""
    tricks = [t.to_json() for t in st.tricks]
    if st.trick_cards:
        tricks.append({"leader": st.trick_leader,
                       "cards": [CARD_NAMES[c] for c in st.trick_cards], "winner": None})
    out: dict[str, Any] = {"dealer": st.dealer}
    if isinstance(st, FortyOneState):
        out.update({"bidder": None, "bid": None, "trump": "H", "bids": list(st.bids)})
        out["tricks"] = tricks
        out["points"] = list(st.taken)
    else:
        assert isinstance(st, FortyFivesState)
        bidder, bid, trump = st.bidder, st.bid, st.trump
        out.update({
            "bidder": bidder if bidder >= 0 else None,
            "bid": bid_text(bid) if bid else None,
            "trump": SUITS[trump] if trump >= 0 else None,
        })
        out["tricks"] = tricks
        out["points"] = list(st.points)
        if st.rules.call_partner:
            called = st.called
            out["called"] = None if called < 0 else (
                "none" if called == 0 else CARD_NAMES[called.bit_length() - 1])
            partner = st.partner
            out["partner"] = partner if partner >= 0 else None
    out["scores"] = list(st.scores)
    return out


def _winner(st: GameState) -> Any:
    w = st.winner
    return list(w) if isinstance(w, tuple) else w


def _tail(st: GameState | None, record: Record) -> dict[str, Any]:
    if st is None:
        return {"scores": [0] * len(record.rules.sides),
                "over": False, "winner": None, "to_act": None, "legal": []}
    out: dict[str, Any] = {"scores": list(st.scores), "over": st.over, "winner": _winner(st)}
    if st.over:
        out.update({"to_act": None, "legal": None})
    else:
        out.update({"to_act": st.turn, "legal": [str(a) for a in st.legal_actions()]})
    if isinstance(record.rules, FortyFivesRules) and record.rules.match == "best-of-3":
        out["games"] = list(st.games)
    return out


def referee(record: Record) -> tuple[dict[str, Any], int]:
    """The verdict of ``forties check`` and its exit status (0 legal, 1 illegal).

    Raises RecordError for a record that is not a game at all (exit status 2).
    """
    replay = Replay(record)
    sides = [list(s) for s in record.rules.sides]
    try:
        st = replay.run()
    except PositionedIllegal as e:
        st = replay.state
        assert st is not None
        out: dict[str, Any] = {
            "ok": False,
            "error": {"hand": e.hand, "index": e.index, "action": e.text, "reason": e.reason},
            "sides": sides,
            "hands": [*replay.summaries, hand_summary(st)],
        }
        out.update(_tail(st, record))
        return out, 1
    out = {"ok": True, "sides": sides, "hands": replay.summaries}
    out.update(_tail(st, record))
    return out, 0


def replay_record(record: Record) -> GameState | None:
    """The state at the end of ``record``; raises RecordError or IllegalActionError."""
    try:
        return Replay(record).run()
    except PositionedIllegal as e:
        raise IllegalActionError(Action.parse(e.text), f"hand {e.hand + 1}, action {e.index + 1}: "
                                 f"{e.reason}") from None
