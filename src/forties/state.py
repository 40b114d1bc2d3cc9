"""What every trick-taking game of the project shares: deals, phases, the action
cycle, scores across hands, the per-seat view, and exact JSON snapshots.

A game (Forty-Fives, Forty One) subclasses ``GameState`` and supplies its
phases: what is legal, why an action is not, and what an action does.
"""

from __future__ import annotations

import _random
import hashlib
import hmac
import random
import secrets
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, Self

from .actions import Action, ActionSyntaxError, Verb
from .cards import BITS, CARD_NAMES, FULL_DECK, CardError, mask_names, parse_card
from .cards import cards_of as _cards
from .errors import FortiesError, Refused
from .lazy import SubsetActions
from .rules import Rules, RulesError, rules_from_json
from .scoring import game_won

# A tuple, not a set: membership by identity, where a set would hash the verb (an Enum
# hashes in Python) on every reason() asked.
_CARD_VERBS = (Verb.PLAY, Verb.DISCARD, Verb.ROB, Verb.CALL)


class Phase(Enum):
    AUCTION = "auction"
    RAISE = "raise"
    TRUMP = "trump"
    DRAW = "draw"
    PACK = "rob-pack"
    ROB = "rob"
    CALL = "call"
    PLAY = "play"
    HAND_OVER = "hand-over"
    GAME_OVER = "game-over"
    # "Booked?" (the ``booked`` option), after the others so their order stays put
    BOOKED = "booked"
    ANSWER = "answer"
    FOLD = "fold"


_HAND_OVER, _GAME_OVER = Phase.HAND_OVER, Phase.GAME_OVER


class IllegalActionError(Refused, ValueError):
    """An action that is well formed but against the rules; ``reason`` says why (with its
    code and params when it is a ``Refusal``)."""

    def __init__(self, action: Action, reason: str) -> None:
        code, params = (reason.code, dict(reason.params)) if isinstance(reason, Refusal) \
            else (None, None)
        super().__init__(f"{action}: {reason}", code, params)
        self.action = action
        self.reason = reason


# The codes a Refusal may carry (the web page has a sentence for each, in every language).
REFUSAL_CODES = (
    # any phase, and the table's own (forties.table)
    "turn", "game-over", "hand-over", "not-started", "not-yours", "not-turn", "away",
    # taking an action back (forties.table: Table.undo)
    "undo-alone", "undo-acted", "undo-none", "undo-over", "undo-seen",
    # the play
    "not-held", "play-card", "play-one", "follow", "follow-or-trump", "trump", "hearts-trump",
    "hearts-heart", "called",
    # the auction (Forty One's last)
    "bagged", "not-a-bid", "bid-higher", "bid-100", "hold-rules", "hold-dealer", "hold-none",
    "hold-own", "hold-100", "auction", "auction-hold", "no-pass", "bid-tricks", "bid-range",
    # the raise, naming trump, going on the kitty
    "raise-30", "raise-kitty", "raise", "raise-go-on", "raise-trump", "name-suit",
    "trump-held", "trump-went-on", "go-on-kitty", "go-on-top", "name-trump",
    "name-trump-go-on",
    # the draw, robbing the pack, robbing the up card
    "draw", "discard-down", "stock-room", "keep", "pack", "pack-stray", "pack-none",
    "pack-even", "rob", "rob-one",
    # "booked?", calling a partner
    "ask", "ask-opponent", "answer", "answer-yes", "answer-no", "fold", "call", "call-one",
    "call-five", "call-above",
)


class Refusal(str):
    """A reason an action is refused: the English sentence itself (a ``str``, so whoever
    reads it as text reads what it always said) and, for programs that say it in other
    words, ``code`` and ``params``. ``params`` holds only what the refused seat may know:
    its own cards (by name, "7H"), suits by letter ("H"), seats by number from 0, bids as
    the record writes them ("30for60"), and public facts. A reason with no code is a plain
    ``str`` (only a program's mistake: no seat, no card, not an action).

    Codes, with their params:

    - any phase: ``turn`` (seat: the seat to act), ``game-over``, ``hand-over``; the
      table's (``forties.table``): ``not-started``, ``not-yours`` (an action for another
      seat), ``not-turn``, ``away`` (a computer player has the seat); an undo refused
      (``Table.undo``): ``undo-alone``, ``undo-acted``, ``undo-none``, ``undo-over``,
      ``undo-seen``;
    - the play: ``not-held`` (cards), ``play-card``, ``play-one``, ``follow`` (suit, cards:
      Forty One), ``follow-or-trump`` (suit, cards), ``trump`` (cards), ``hearts-trump``
      and ``hearts-heart`` (cards: AH led under hearts on hearts), ``called`` (card: the
      called card, due in the second trick);
    - the auction: ``bagged`` (bid: the least the stuck dealer must bid), ``not-a-bid``
      (bid, bids: the ladder), ``bid-higher`` (bid: the high bid), ``bid-100`` (bid: the
      least a side on 100 may bid), ``hold-rules``, ``hold-dealer``, ``hold-none``,
      ``hold-own``, ``hold-100`` (bid), ``auction``, ``auction-hold`` (what the seat may
      do); Forty One: ``no-pass``, ``bid-tricks``, ``bid-range`` (bid);
    - the raise and trump: ``raise-30``, ``raise-kitty``, ``raise``, ``raise-go-on``,
      ``raise-trump``, ``name-suit``, ``trump-held`` and ``trump-went-on`` (suit: one the
      bidder holds no trump of), ``go-on-kitty`` and ``go-on-top`` (cards: the hand to
      discard), ``name-trump``, ``name-trump-go-on``;
    - the draw: ``draw``, ``discard-down`` (held, count: discard at least count),
      ``stock-room`` (count: what the stock can replace, keep), ``keep`` (keep); robbing
      the pack: ``pack``, ``pack-stray`` (cards: neither held nor discarded), ``pack-none``,
      ``pack-even`` (give, take: cards); robbing the up card: ``rob`` (card), ``rob-one``;
    - "booked?": ``ask``, ``ask-opponent`` (seats), ``answer``, ``answer-yes``,
      ``answer-no``, ``fold``; calling a partner: ``call``, ``call-one``, ``call-five`` and
      ``call-above`` (card: the card the bidder asked to call).
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str = "", params: dict[str, Any] | None = None
                ) -> Refusal:
        self = super().__new__(cls, text)
        self.code = code
        self.params = {} if params is None else params
        return self


def not_held(mask: int) -> Refusal:
    """The refusal "you do not hold 7H", for the cards of ``mask`` (the seat's own request)."""
    return Refusal(f"you do not hold {' '.join(mask_names(mask))}", "not-held",
                   {"cards": mask_names(mask)})


class DealError(FortiesError, ValueError):
    """A deal that cannot be played under the rules (wrong counts, a card twice...)."""


class StateError(FortiesError, ValueError):
    """A serialized state that cannot be read."""


class SeatError(FortiesError, ValueError):
    """A view asked for a seat that is not at the table."""


@dataclass(frozen=True)
class Deal:
    """The cards of one hand: each seat's hand, the kitty, and the stock (top first)."""

    hands: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": [[CARD_NAMES[c] for c in h] for h in self.hands]}
        if self.kitty or self.stock:
            out["kitty"] = [CARD_NAMES[c] for c in self.kitty]
            out["stock"] = [CARD_NAMES[c] for c in self.stock]
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Deal:
        """Read a record's ``deal``; raises DealError on a malformed one."""
        if not isinstance(obj, dict) or not isinstance(obj.get("hands"), list):
            raise DealError("deal must be an object with \"hands\"")
        extra = set(obj) - {"hands", "kitty", "stock"}
        if extra:
            raise DealError(f"deal: unknown key {sorted(extra)[0]!r}")

        def cards(v: Any, where: str) -> tuple[int, ...]:
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise DealError(f"deal {where} must be a list of cards")
            try:
                return tuple(parse_card(x) for x in v)
            except CardError as e:
                raise DealError(f"deal {where}: {e}") from None

        hands = tuple(cards(h, f"hand {i}") for i, h in enumerate(obj["hands"]))
        kitty = cards(obj.get("kitty", []), "kitty")
        return cls(hands, kitty, cards(obj.get("stock", []), "stock"))

    def check(self, players: int, hand_size: int, kitty: int, full_deck: bool) -> None:
        """Raise DealError unless the counts fit the rules and every card is there once."""
        if len(self.hands) != players:
            raise DealError(f"deal has {len(self.hands)} hands for {players} players")
        for i, h in enumerate(self.hands):
            if len(h) != hand_size:
                raise DealError(f"deal hand {i} has {len(h)} cards, not {hand_size}")
        if len(self.kitty) != kitty:
            raise DealError(f"deal kitty has {len(self.kitty)} cards, not {kitty}")
        every = [c for h in self.hands for c in h] + list(self.kitty) + list(self.stock)
        seen: set[int] = set()
        for c in every:
            if c in seen:
                raise DealError(f"deal holds {CARD_NAMES[c]} twice")
            seen.add(c)
        if full_deck and len(seen) != 52:
            missing = [CARD_NAMES[c] for c in range(52) if c not in seen]
            raise DealError(f"deal is missing {len(missing)} cards ({', '.join(missing[:4])}"
                            f"{'...' if len(missing) > 4 else ''})")


# ``random.Random(x).shuffle(deck)``, done faster with the same result. For i = 51..1 the
# shuffle swaps deck[i] with deck[j], drawing j = getrandbits(k), k = (i + 1).bit_length(),
# again while j > i; getrandbits(k) is the generator's next 32-bit word shifted right by
# 32 - k. One getrandbits(32 * _WORDS) call returns the next _WORDS words, the first in the
# lowest bits, so the loop reads them from there. A shuffle needs 76 words on average; one
# that needs more than _WORDS (one in a thousand) is redone the slow way. The generator is
# _random.Random, the C class random.Random derives from: seeded alike, without the Python
# __init__. Seeding it (4 microseconds, in C) is a third of what is left.
_WORDS = 100
_UNPACK_WORDS = struct.Struct(f"<{_WORDS}I").unpack
_SHUFFLE_STEPS = tuple((i, 32 - (i + 1).bit_length()) for i in range(51, 0, -1))


def shuffled_deck(seed: int, hand_index: int) -> list[int]:
    """The deck for hand ``hand_index`` of the game with ``seed``: same inputs, same order.

    It is ``random.Random(seed * 1_000_003 + hand_index).shuffle(list(range(52)))``: the
    deals of a seed given on the command line, and of web tables stored before deal keys.
    A web table now deals from a secret key (``keyed_deck``).
    """
    x = seed * 1_000_003 + hand_index
    bits = _random.Random(x).getrandbits(32 * _WORDS)
    words = iter(_UNPACK_WORDS(bits.to_bytes(4 * _WORDS, "little")))
    deck = list(range(52))
    try:
        for i, shift in _SHUFFLE_STEPS:
            j = next(words) >> shift
            while j > i:
                j = next(words) >> shift
            deck[i], deck[j] = deck[j], deck[i]
    except StopIteration:
        deck = list(range(52))
        random.Random(x).shuffle(deck)
    return deck


# ----- keyed deals: a web table's, which nobody outside the server can foresee -------------
#
# ``shuffled_deck`` deals from a small public-looking seed: fine for a game played at home
# (``forties demo --seed 5`` deals the same cards every time), but every finished hand's deck
# is public in a web table's record, and 2^48 seeds can be searched. A web table instead
# holds a DealKey of KEY_BYTES from ``secrets``; hand h's deck is a Fisher-Yates shuffle
# drawn from keyed BLAKE2b blocks over a domain string, h and a block counter. Without the
# key the blocks are unpredictable, so the decks already played say nothing of the next.

KEY_BYTES = 32  # 256 bits of ``secrets``; a key is refused under MIN_KEY_BYTES
MIN_KEY_BYTES = 16
_DEAL_DOMAIN = b"forties/keyed-deal/1\x00"
_TAG_DOMAIN = b"forties/key-tag/1\x00"
_WORDS_OF_BLOCK = struct.Struct("<16I").unpack  # a 64-byte BLAKE2b block: 16 words


class DealKey:
    """The secret a web table's deals come from (``keyed_deck``). It never shows itself:
    its ``repr`` and ``str`` hide the bytes, it is not JSON, and a state's snapshot and a
    record leave it out; only ``hex()`` (for the server's own database) gives it away."""

    __slots__ = ("_key",)

    def __init__(self, key: bytes) -> None:
        if type(key) is not bytes or not MIN_KEY_BYTES <= len(key) <= 64:
            raise DealError(f"a deal key is {MIN_KEY_BYTES} to 64 bytes")
        self._key = key

    @classmethod
    def new(cls) -> DealKey:
        """A fresh key of KEY_BYTES from ``secrets``."""
        return cls(secrets.token_bytes(KEY_BYTES))

    @classmethod
    def from_hex(cls, text: str) -> DealKey:
        """The key ``hex()`` wrote; raises DealError on anything else."""
        try:
            return cls(bytes.fromhex(text))
        except (TypeError, ValueError):
            raise DealError("a deal key is written in hexadecimal") from None

    def hex(self) -> str:
        return self._key.hex()

    @property
    def secret(self) -> bytes:
        return self._key

    def tag(self, purpose: str) -> str:
        """A value derived from the key for ``purpose`` (a computer player's generator):
        different for each purpose, and no way back to the key or to the deals."""
        return hmac.new(self._key, _TAG_DOMAIN + purpose.encode(), hashlib.sha256).hexdigest()

    def __repr__(self) -> str:
        return "DealKey(<secret>)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealKey) and hmac.compare_digest(self._key, other._key)

    def __hash__(self) -> int:
        return hash(self.tag("hash"))


def _keyed_words(key: bytes, hand_index: int) -> Iterator[int]:
    """Hand ``hand_index``'s endless stream of 32-bit words under ``key``."""
    prefix = _DEAL_DOMAIN + hand_index.to_bytes(8, "little")
    block = 0
    while True:
        digest = hashlib.blake2b(prefix + block.to_bytes(8, "little"), key=key,
                                 digest_size=64).digest()
        yield from _WORDS_OF_BLOCK(digest)
        block += 1


def keyed_deck(key: DealKey, hand_index: int) -> list[int]:
    """The deck for hand ``hand_index`` of a table dealing from ``key``: a Fisher-Yates
    shuffle (deck[i] swapped with deck[j], j uniform in 0..i for i = 51..1, each j the top
    bits of a word, drawn again while j > i, so no j is likelier than another) whose words
    come from keyed BLAKE2b over the hand's index. The same key and hand, the same deck."""
    if type(hand_index) is not int or not 0 <= hand_index < 1 << 64:
        raise DealError(f"hand index {hand_index!r} is not a whole number from 0")
    words = _keyed_words(key.secret, hand_index)
    deck = list(range(52))
    for i, shift in _SHUFFLE_STEPS:
        j = next(words) >> shift
        while j > i:
            j = next(words) >> shift
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Trick:
    leader: int
    cards: tuple[int, ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        return {"leader": self.leader, "cards": [CARD_NAMES[c] for c in self.cards],
                "winner": self.winner}


def card_actions(actions: Sequence[Action], mask: int) -> list[Action]:
    """``actions[c]`` for every card ``c`` of ``mask``, lowest first: the legal plays of
    a seat from its row of interned play actions and its mask of playable cards."""
    out = []
    while mask:
        low = mask & -mask
        out.append(actions[low.bit_length() - 1])
        mask ^= low
    return out


def new_trick(leader: int, cards: tuple[int, ...], winner: int | None) -> Trick:
    """``Trick(leader, cards, winner)`` without the frozen dataclass's slow ``__init__``."""
    t = object.__new__(Trick)
    t.__dict__.update(leader=leader, cards=cards, winner=winner)
    return t


GAMES: dict[str, type[GameState]] = {}
"""Every game's state machine by its name (``Rules.game``): each registers itself when its
module is imported, and ``forties.games`` imports them all."""


class GameState:
    """A game in progress: mutable, applied one action at a time, copied with ``clone``.

    ``legal_actions()`` lists every legal action; ``apply(action)`` checks and
    applies one (raising IllegalActionError with a player's reason);
    ``view(seat)`` is everything that seat may know; ``to_json`` and
    ``from_json`` snapshot it exactly.
    """

    game: ClassVar[str] = ""
    hand_size: ClassVar[int] = 5

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its ``game`` is that game's state machine, in ``GAMES``."""
        super().__init_subclass__(**kwargs)
        if "game" in cls.__dict__:
            GAMES[cls.game] = cls

    rules: Rules
    n: int
    sides: tuple[tuple[int, ...], ...]
    side_of: tuple[int, ...]
    seed: int | DealKey | None
    first_dealer: int
    hand_index: int
    dealer: int
    scores: list[int]
    start_scores: list[int]
    games: list[int]
    over: bool
    winner: int | tuple[int, ...] | None
    phase: Phase
    turn: int | None
    deal: Deal
    hands: list[int]
    history: list[Action]
    tricks: list[Trick]
    trick_leader: int
    trick_cards: list[int]
    thrown_in: bool

    def __init__(self, rules: Rules, seed: int | DealKey | None = None, first_dealer: int = 0,
                 deal: Deal | None = None) -> None:
        self.rules = rules
        self.n = rules.players
        if seed is not None and type(seed) is not int and type(seed) is not DealKey:
            raise DealError(f"the seed must be a whole number, not {_shown(seed)}")
        if type(first_dealer) is not int or not 0 <= first_dealer < self.n:
            raise DealError(f"first dealer {first_dealer} is not a seat (0..{self.n - 1})")
        self.sides = rules.sides
        side_of = [0] * self.n
        for i, side in enumerate(self.sides):
            for s in side:
                side_of[s] = i
        self.side_of = tuple(side_of)
        self.seed = seed
        self.first_dealer = first_dealer
        self.hand_index = 0
        self.dealer = first_dealer
        self.scores = [0] * len(self.sides)
        self.games = [0] * len(self.sides)
        self.over = False
        self.winner = None
        self.new_game_due = False
        self._start_hand(deal)

    # ----- hands -----------------------------------------------------------------------

    def deal_for(self, hand_index: int) -> Deal:
        """The seeded deal of hand ``hand_index`` (a DealKey's: ``keyed_deck``)."""
        seed = self.seed
        if seed is None:
            raise DealError("this game has no seed: give the deal")
        if isinstance(seed, DealKey):
            return self.deal_from_deck(keyed_deck(seed, hand_index))
        return self.deal_from_deck(shuffled_deck(seed, hand_index))

    def deal_from_deck(self, deck: Sequence[int]) -> Deal:
        raise NotImplementedError

    def check_deal(self, deal: Deal) -> None:
        raise NotImplementedError

    def next_hand(self, deal: Deal | None = None) -> None:
        """Deal the next hand (from the seed unless ``deal`` is given)."""
        if self.phase is not Phase.HAND_OVER:
            raise StateError("the hand is not over" if not self.over else "the game is over")
        self.hand_index += 1
        self.dealer = (self.dealer + 1) % self.n
        if self.new_game_due:
            self.scores = [0] * len(self.sides)
            self.new_game_due = False
        self._start_hand(deal)

    def _start_hand(self, deal: Deal | None) -> None:
        if deal is None:
            deal = self.deal_for(self.hand_index)
        elif not isinstance(deal, Deal):
            raise DealError(f"a deal must be a Deal, not {type(deal).__name__}")
        else:
            self.check_deal(deal)
        self.deal = deal
        self.start_scores = list(self.scores)
        self.start_games = list(self.games)
        self.hands = [sum(map(BITS.__getitem__, h)) for h in deal.hands]  # cards are distinct
        self.history = []
        self.tricks = []
        self.trick_cards = []
        self.thrown_in = False
        self._begin()

    def _begin(self) -> None:
        raise NotImplementedError

    # ----- the action cycle ------------------------------------------------------------

    def legal_actions(self) -> Sequence[Action]:
        raise NotImplementedError

    def reason(self, action: Action) -> str | None:
        """Why ``action`` is illegal now, in a player's words; None if it is legal."""
        if self.over:
            return Refusal("the game is over", "game-over")
        if self.turn is None:
            return Refusal("the hand is over: a new deal is due", "hand-over")
        if (type(action.seat) is not int or type(action.verb) is not Verb
                or type(action.arg) is not int):
            return "not an action: a seat number, a verb and a whole number"
        if not 0 <= action.seat < self.n:
            return f"there is no seat {action.seat} (seats are 0..{self.n - 1})"
        if action.seat != self.turn:
            return Refusal(f"it is seat {self.turn}'s turn, not seat {action.seat}'s", "turn",
                           {"seat": self.turn})
        if action.verb in _CARD_VERBS and not 0 <= action.arg <= FULL_DECK:
            return "that names no card"
        return self._reason(action)

    def _reason(self, action: Action) -> str | None:
        raise NotImplementedError

    def _legal_texts(self) -> list[str]:
        """The legal actions as record lines (as a seat's view lists them)."""
        legal = self.legal_actions()
        if type(legal) is SubsetActions:  # a draw's discards: hundreds, written at once
            return legal.texts()
        return [str(a) for a in legal]

    def apply(self, action: Action | str) -> None:
        """Check and apply ``action``; raises IllegalActionError (or ActionSyntaxError)."""
        if isinstance(action, str):
            action = Action.parse(action)
        elif not isinstance(action, Action):
            raise ActionSyntaxError(f"an action must be a line such as '0 play 5H' or an "
                                    f"Action, not {type(action).__name__}")
        why = self.reason(action)
        if why is not None:
            raise IllegalActionError(action, why)
        self.history.append(action)
        self._apply(action)

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def child(self, action: Action | str) -> Self:
        """A copy with ``action`` applied; this state is unchanged."""
        c = self.clone()
        c.apply(action)
        return c

    def clone(self) -> Self:
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        for k, v in self.__dict__.items():
            if type(v) is list:
                c.__dict__[k] = list(v)
        return c

    @property
    def hand_over(self) -> bool:
        return self.phase is _HAND_OVER or self.phase is _GAME_OVER

    # ----- game end ---------------------------------------------------------------------

    def _game_won(self, winner: int | tuple[int, ...]) -> None:
        """Record a game won; in a match, start the next game or end the match."""
        games, over = game_won(getattr(self.rules, "match", "single"), self.games, winner,
                               self.side_of)
        self.games = list(games)
        if not over:
            self.new_game_due = True
            return
        self.over = True
        self.winner = winner

    # ----- snapshots --------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """An exact snapshot: rules, game position before this hand, the deal, the actions.
        A game dealing from a DealKey writes no seed (the key stays with its owner): its
        later hands are then given, as a game without a seed's are."""
        out: dict[str, Any] = {
            "format": "forties-state/1",
            "game": self.game,
            "rules": self.rules.to_json(),
            "seed": self.seed if type(self.seed) is int else None,  # never a DealKey
            "first_dealer": self.first_dealer,
            "hand_index": self.hand_index,
            "dealer": self.dealer,
            "scores": self.start_scores,
            "deal": self.deal.to_json(),
            "actions": [str(a) for a in self.history],
        }
        if any(self.start_games):
            out["games"] = self.start_games
        return out

    @classmethod
    def from_json(cls, obj: Any) -> GameState:
        """Rebuild a state written by ``to_json``; raises StateError."""
        try:
            if not isinstance(obj, dict) or obj.get("format") != "forties-state/1":
                raise StateError("not a forties state (format forties-state/1)")
            for key in ("game", "rules", "seed", "first_dealer", "hand_index", "dealer",
                        "scores", "deal", "actions"):
                if key not in obj:
                    raise StateError(f"cannot read state: missing {key!r}")
            if obj["game"] not in GAMES:
                raise StateError(f"cannot read state: game {_shown(obj['game'])} is not one "
                                 f"of {', '.join(GAMES)}")
            rules = rules_from_json(obj["rules"])
            if rules.game != obj["game"]:
                raise StateError(f"cannot read state: game {obj['game']!r} but the rules are "
                                 f"{rules.game!r}")
            actions = obj["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise StateError("cannot read state: actions must be a list of action lines "
                                 "such as \"0 play 5H\"")
            n, sides = rules.players, len(rules.sides)
            if obj["seed"] is not None and type(obj["seed"]) is not int:
                raise StateError(f"cannot read state: seed is {obj['seed']!r}, not a number")
            _whole(obj["first_dealer"], "first_dealer", n - 1)
            klass = GAMES[rules.game]
            state = object.__new__(klass)
            GameState.__init__(state, rules, obj["seed"], obj["first_dealer"],
                               Deal.from_json(obj["deal"]))
            state.hand_index = _whole(obj["hand_index"], "hand_index", None)
            state.dealer = _whole(obj["dealer"], "dealer", n - 1)
            state.scores = _numbers(obj["scores"], "scores", sides)
            if "games" in obj:
                state.games = _numbers(obj["games"], "games", sides)
            state._start_hand(Deal.from_json(obj["deal"]))
            for i, text in enumerate(actions):
                try:
                    state.apply(Action.parse(text))
                except (ActionSyntaxError, IllegalActionError) as e:
                    raise StateError(f"cannot read state: actions[{i}]: {e}") from None
            return state
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, RulesError, DealError, ActionSyntaxError,
                IllegalActionError) as e:
            raise StateError(f"cannot read state: {e}") from None

    def legal_play_mask(self, s: int) -> int:
        """The cards seat ``s`` may play to the trick in progress, as a card set."""
        raise NotImplementedError

    # ----- views ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know now (None: a spectator), as plain JSON data.

        This is the only way a game leaves the engine for a seat.
        """
        raise NotImplementedError

    def _common_view(self, seat: int | None) -> dict[str, Any]:
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.n):
            raise SeatError(f"no seat {_shown(seat)} at this table: seats are 0 to "
                            f"{self.n - 1}, or None for a spectator")
        me = seat is not None and seat == self.turn
        return {
            "game": self.game,
            "rules": self.rules.to_json(),
            "seat": seat,
            "players": self.n,
            "sides": [list(s) for s in self.sides],
            "hand_index": self.hand_index,
            "dealer": self.dealer,
            "phase": self.phase.value,
            "to_act": self.turn,
            "scores": list(self.scores),
            "games": list(self.games),
            "over": self.over,
            "winner": self._winner_json(),
            "hand": [] if seat is None else [CARD_NAMES[c] for c in _cards(self.hands[seat])],
            "tricks": [t.to_json() for t in self.tricks],
            "trick": {"leader": self.trick_leader,
                      "cards": [CARD_NAMES[c] for c in self.trick_cards]}
            if self.phase is Phase.PLAY else None,
            "legal": self._legal_texts() if me else [],
            # the review: once the hand is over every hand as dealt and the kitty are shown
            "deal": {"hands": [[CARD_NAMES[c] for c in h] for h in self.deal.hands],
                     "kitty": [CARD_NAMES[c] for c in self.deal.kitty]}
            if self.phase is _HAND_OVER or self.phase is _GAME_OVER else None,
        }

    def _winner_json(self) -> Any:
        w = self.winner
        return list(w) if isinstance(w, tuple) else w


def _shown(v: Any) -> str:
    """``v`` for a one-line message: its repr if short and on one line, else its type."""
    text = repr(v)
    if len(text) <= 40 and text.isprintable():
        return text
    return f"a {type(v).__name__}"


def _whole(v: Any, what: str, hi: int | None) -> int:
    """A snapshot's seat or count: a whole number from 0 (to ``hi``), or StateError."""
    if type(v) is not int or v < 0 or (hi is not None and v > hi):
        top = "" if hi is None else f" to {hi}"
        raise StateError(f"cannot read state: {what} is {v!r}, not a whole number from 0{top}")
    return v


def _numbers(v: Any, what: str, count: int) -> list[int]:
    """A snapshot's per-side numbers (scores, games won): ``count`` whole numbers."""
    if not isinstance(v, list) or len(v) != count or any(type(x) is not int for x in v):
        raise StateError(f"cannot read state: {what} must be {count} whole numbers, not {v!r}")
    return list(v)



__all__ = [
    "REFUSAL_CODES",
    "Action",
    "Deal",
    "DealError",
    "GameState",
    "IllegalActionError",
    "Phase",
    "Refusal",
    "StateError",
    "Trick",
    "Verb",
]
