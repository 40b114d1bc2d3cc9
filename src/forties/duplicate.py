"""Duplicate sessions for people: boards, the movement and matchpoint scoring.

Duplicate play takes the luck of the deal out of a partnership game: every table plays
the same boards (the same deal with the same dealer, each board a single hand from 0-0),
and a partnership's result on a board is compared only with the results of the other
partnerships that held the same cards, in the same direction.

**Seats and directions.** Seat 0 is North, 1 East, 2 South, 3 West (play goes round
clockwise, as in the engine): the North-South pair holds seats 0 and 2, the East-West
pair seats 1 and 3. The partnership games (Merrimack Valley and Auction 45 with two sides
of two, Forty One with its two teams) fit; any other table is refused.

**Boards** (``make_boards``). Board n's deck is ``state.keyed_deck`` under a key derived
from the session's secret ``DealKey`` for this purpose alone (``DealKey.tag``), at hand
index n: keyed BLAKE2b, so one board's cards say nothing of another's, and the same key
gives the same boards. The dealer goes round as a bridge club's boards do: board 1 North,
2 East, 3 South, 4 West, 5 North again.

**The movement** (``movement``): a round robin by Berger's tables (the circle method).
The partnerships meet each other once, one round each; in each round every table plays
the same boards, so a board is played at every table of its round and each result is
compared with every other table's. With an odd number of partnerships one of them sits
out each round (in turn, each once) unless computer players fill the missing pair
(``fill``, marked as computers); three partnerships make a single table, where nothing
could be compared, so they need the filled fourth pair. The directions are then chosen
(an Euler circuit through the meetings) so that each pair's North-South and East-West
rounds differ by one at most, whatever the number of rounds: each partnership sits in
each direction where the number of its rounds allows. The boards are shared out over the
rounds in order, as evenly as they go (12 boards over 5 rounds: 3, 3, 2, 2, 2); with
fewer boards than rounds, the session plays one board a round and stops there, before
everyone has met. Why this movement rather than a Mitchell or a Howell with boards
passing between tables: a board is not a wallet of cards here but a deal any number of
tables can hold at once (online, or from a printed slip at each table), so every table
of a round can play it; each board is then compared across all its tables (the most
comparisons the session can have), nobody ever meets a board twice, nobody waits for a
board to come from the next table, and every partnership plays every other, so one
ranking covers the whole room.

**Scoring.** A table's result on a board is each pair's score on that hand by the game's
own scoring (the state machine's scores after the hand, from 0-0; Forty One's two
partners added up), and a pair's *result* is its score minus its opponents'. On each
board, in each direction, ``matchpoints`` gives 2 for each other result beaten and 1 for
each tie; the top is 2(k-1) for k results, and a lone result is 50%. Across the boards a
board played fewer times than the movement meant (a result missing) is factored by
Neuberg's formula to the full count, so every board weighs the same: with N results
meant and k in, a score of m becomes (m + 1) N / k - 1 out of a top of 2(N - 1). A
partnership's percentage is its factored total over the tops of the boards it played.

**Ties** in the ranking: the higher percentage first; then, between partnerships still
level, the one whose results beat the others' more often on the boards where they held
the same cards (same board, same direction, each comparison a point to the better
result); then, if still level, they share the place (shown with the same rank, listed by
partnership number).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from .actions import bid_text
from .cards import RANKS, SUIT_NAMES, SUITS
from .errors import FortiesError
from .fortyfives import bid_ladder
from .games import new_game
from .rules import FortyFivesRules, FortyOneRules, Rules
from .scoring import (
    FortyFivesHand,
    FortyOneHand,
    bid_value,
    score_forty_fives,
    score_forty_one,
)
from .state import Deal, DealError, DealKey, GameState, keyed_deck

__all__ = [
    "DIRECTIONS", "Board", "DuplicateError", "Movement", "Pair", "Round", "Seating",
    "Session", "Standing", "TableResult", "arena_teams", "board_dealer", "board_slip",
    "check_contract", "contract_bid", "contract_scores", "contract_words", "make_boards",
    "matchpoints", "movement", "neuberg", "percent_of_top", "possible_scores",
    "scores_of_hand", "team_total",
]

DIRECTIONS = ("N-S", "E-W")
SEAT_NAMES = ("North", "East", "South", "West")
NS, EW = 0, 1
_BOARD_PURPOSE = "duplicate-boards"
MAX_BOARDS = 200
MAX_PAIRS = 100
MAX_NAME = 100


class DuplicateError(FortiesError, ValueError):
    """Something a duplicate session cannot take: one line saying what."""


# ----- the teams that score together (shared with the computers' arena) ------------------


def arena_teams(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """The teams that score together: Forty One's partnerships, else the scoring sides."""
    if isinstance(rules, FortyOneRules):
        return rules.teams
    return rules.sides


def team_total(state: GameState, team: tuple[int, ...], before: Sequence[int]) -> int:
    """What ``team`` gained (its sides' score changes added up) since ``before``."""
    sides = {state.side_of[s] for s in team}
    return sum(state.scores[x] - before[x] for x in sides)


def _check_rules(rules: Rules) -> None:
    if not isinstance(rules, Rules):
        raise DuplicateError(f"rules must be a Rules value, not {type(rules).__name__}")
    if rules.players != 4 or tuple(map(tuple, arena_teams(rules))) != ((0, 2), (1, 3)):
        raise DuplicateError("duplicate play needs a game of four in two partnerships "
                             "(partners opposite)")


def scores_of_hand(state: GameState) -> tuple[int, int]:
    """North-South's and East-West's scores on a finished hand, by the game's own scoring:
    what each partnership gained on the hand (Forty One's partners added up)."""
    if not isinstance(state, GameState):
        raise DuplicateError(f"a hand is a game state, not {type(state).__name__}")
    _check_rules(state.rules)
    if not state.hand_over:
        raise DuplicateError("the hand is not over")
    ns, ew = arena_teams(state.rules)
    return (team_total(state, ns, state.start_scores), team_total(state, ew, state.start_scores))


def possible_scores(rules: Rules) -> frozenset[tuple[int, int]]:
    """Every (North-South, East-West) score a single hand from 0-0 can give under
    ``rules``, by the game's own scoring (what a table reporting a board's result may
    say). The Forty-Fives: each bidder, bid and share of the hand's 30 points (5 a trick,
    5 for the highest trump), made or set, and, where the rules throw in a hand nobody bid
    on, nothing scored.
    Forty One: each partnership's two seats each made or set a bid of 1 to 13 (counted
    double from ``double_from``), and a hand thrown in."""
    _check_rules(rules)
    out: set[tuple[int, int]] = set()
    if isinstance(rules, FortyOneRules):
        out.add((0, 0))  # (bids short of the minimum: the hand is thrown in)
        seat = {v * sign for b in range(1, 14) for v in (bid_value(rules, b),)
                for sign in (1, -1)}
        team = {a + b for a in seat for b in seat}
        return frozenset(out | {(a, b) for a in team for b in team})
    assert isinstance(rules, FortyFivesRules)
    if rules.all_pass == "redeal":
        out.add((0, 0))  # (nobody bid: the hand is thrown in)
    bidders: list[int | None] = [None] if rules.auction == "none" else [0, 1]
    for bidder in bidders:
        bids = (0,) if bidder is None else bid_ladder(rules)
        for bid in bids:
            for ns in range(0, 31, 5):
                hand = FortyFivesHand((ns, 30 - ns), bidder, bid)
                d = score_forty_fives(rules, hand, (0, 0)).deltas
                out.add((d[0], d[1]))
    return frozenset(out)


# ----- a table's contract (what the hall's phone reports beside the scores) -------------

_SEAT_LETTERS = {"N": 0, "E": 1, "S": 2, "W": 3}


def _bid_words(rules: FortyFivesRules) -> str:
    return ", ".join(bid_text(b) for b in bid_ladder(rules))


def check_contract(rules: Rules, contract: Any) -> dict[str, Any]:
    """A table's contract on a board, checked against what ``rules`` allow, as the board
    page shows it (the online tables' form). The Forty-Fives: ``{"bidder": seat (0-3, or
    "N", "E", "S", "W"), "bid": one of the game's bids ("25", "30for60"), "trump": "C",
    "D", "H" or "S"}``, or ``{"bidder": None}`` for a hand nobody bid on, where the rules
    throw it in. Forty One: ``{"bids": [North's, East's, South's, West's]}``, each 1 to 13
    tricks. DuplicateError, one line, for anything else."""
    _check_rules(rules)
    if isinstance(rules, FortyOneRules):
        bids = contract.get("bids") if isinstance(contract, dict) and set(contract) == {
            "bids"} else None
        if not isinstance(bids, list) or len(bids) != 4 or not all(
                type(b) is int and 1 <= b <= 13 for b in bids):
            raise DuplicateError("a Forty One contract is each seat's bid, North, East, "
                                 "South and West: four whole numbers of tricks, 1 to 13")
        return {"bids": list(bids)}
    assert isinstance(rules, FortyFivesRules)
    if not isinstance(contract, dict) or not set(contract) <= {"bidder", "bid", "trump"} \
            or "bidder" not in contract:
        raise DuplicateError("a contract is an object with bidder, bid and trump")
    bidder = contract["bidder"]
    if bidder is None:
        if rules.all_pass != "redeal" or rules.auction == "none":
            raise DuplicateError("somebody wins the bid on every hand of this game: say who")
        if contract.get("bid") is not None or contract.get("trump") is not None:
            raise DuplicateError("a hand nobody bid on has no bid and no trump")
        return {"bidder": None, "bid": None, "trump": None}
    if isinstance(bidder, str) and bidder in _SEAT_LETTERS:
        bidder = _SEAT_LETTERS[bidder]
    if type(bidder) is not int or not 0 <= bidder <= 3:
        raise DuplicateError("the bidder is a seat: N, E, S or W (0 to 3)")
    bid = contract.get("bid")
    ladder = {bid_text(b): b for b in bid_ladder(rules)}
    if type(bid) is int:
        bid = str(bid)
    if not isinstance(bid, str) or bid not in ladder:
        raise DuplicateError(f"the bid must be one of this game's: {_bid_words(rules)}")
    trump = contract.get("trump")
    if not isinstance(trump, str) or len(trump) != 1 or trump not in SUITS:
        raise DuplicateError("the trump is a suit: C, D, H or S")
    return {"bidder": bidder, "bid": bid, "trump": trump}


def contract_bid(rules: FortyFivesRules, contract: dict[str, Any]) -> int:
    """The engine's value of a checked Forty-Fives contract's bid."""
    return {bid_text(b): b for b in bid_ladder(rules)}[contract["bid"]]


def contract_scores(rules: Rules, contract: dict[str, Any]) -> frozenset[tuple[int, int]]:
    """Every (North-South, East-West) score a hand from 0-0 played in ``contract`` (as
    ``check_contract`` gives it) can give, by the game's own scoring: the Forty-Fives'
    bidders making or set on every share of the hand's 30 points; Forty One's four seats'
    tricks, every way the 13 can fall (or the hand thrown in, its bids too few)."""
    _check_rules(rules)
    out: set[tuple[int, int]] = set()
    if isinstance(rules, FortyOneRules):
        bids = tuple(contract["bids"])
        if FortyOneHand(bids).thrown_in(rules):
            return frozenset({(0, 0)})
        for a in range(14):
            for b in range(14 - a):
                for c in range(14 - a - b):
                    d = score_forty_one(rules, FortyOneHand(bids, (a, b, c, 13 - a - b - c)),
                                        (0,) * 4).deltas
                    out.add((d[0] + d[2], d[1] + d[3]))
        return frozenset(out)
    assert isinstance(rules, FortyFivesRules)
    if contract["bidder"] is None:
        return frozenset({(0, 0)})
    bid = contract_bid(rules, contract)
    for ns in range(0, 31, 5):
        hand = FortyFivesHand((ns, 30 - ns), contract["bidder"], bid)
        got = score_forty_fives(rules, hand, (0, 0)).deltas
        out.add((got[0], got[1]))
    return frozenset(out)


def contract_words(contract: dict[str, Any]) -> str:
    """A checked contract in a line: "North 25 in hearts", "no bid", "bids 3, 4, 2, 3"."""
    if "bids" in contract:
        return "bids " + ", ".join(map(str, contract["bids"]))
    if contract["bidder"] is None:
        return "no bid"
    return (f"{SEAT_NAMES[contract['bidder']]} {contract['bid']} in "
            f"{SUIT_NAMES[SUITS.index(contract['trump'])]}")


# ----- boards --------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """Board ``number`` (from 1): its dealer's seat and its cards, one hand."""

    number: int
    dealer: int
    deal: Deal

    def game(self, rules: Rules) -> GameState:
        """A game at 0-0 holding this board's cards, its dealer dealing."""
        _check_rules(rules)
        try:
            return new_game(rules, first_dealer=self.dealer, deal=self.deal)
        except DealError as e:
            raise DuplicateError(f"board {self.number} does not fit these rules: {e}") from None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "dealer": self.dealer, "deal": self.deal.to_json()}

    @classmethod
    def from_json(cls, obj: Any) -> Board:
        if not isinstance(obj, dict) or set(obj) != {"number", "dealer", "deal"}:
            raise DuplicateError("a board is an object with number, dealer and deal")
        number = _whole(obj["number"], "a board's number", 1, MAX_BOARDS)
        dealer = _whole(obj["dealer"], "a board's dealer", 0, 3)
        try:
            deal = Deal.from_json(obj["deal"])
            size = len(deal.hands[0]) if deal.hands else 0
            if size not in (5, 13):
                raise DealError("a hand holds 5 cards (45s) or 13 (Forty One)")
            deal.check(4, size, len(deal.kitty), full_deck=True)
        except DealError as e:
            raise DuplicateError(f"board {number}: {e}") from None
        return cls(number, dealer, deal)


def board_dealer(number: int) -> int:
    """The dealer of board ``number``: North, East, South, West, North again..."""
    return (number - 1) % 4


def make_boards(rules: Rules, count: int, key: DealKey) -> tuple[Board, ...]:
    """Boards 1..``count`` for ``rules`` from the session's secret ``key``."""
    _check_rules(rules)
    count = _whole(count, "the number of boards", 1, MAX_BOARDS)
    if type(key) is not DealKey:
        raise DuplicateError("boards are made from a DealKey (DealKey.new())")
    sub = DealKey(bytes.fromhex(key.tag(_BOARD_PURPOSE)))
    dealer = new_game(rules, seed=sub)  # only to turn a deck into the game's hands
    return tuple(Board(n, board_dealer(n), dealer.deal_from_deck(keyed_deck(sub, n)))
                 for n in range(1, count + 1))


def _sorted_for_dealer(cards: Iterable[int]) -> list[str]:
    """Cards in the order a deck is sorted by hand: spades, hearts, diamonds, clubs, each
    from the ace down (cards are ``suit * 13 + rank``, clubs 0 to spades 3)."""
    return [RANKS[c % 13] + SUITS[c // 13]
            for c in sorted(cards, key=lambda c: (-(c // 13), -(c % 13)))]


def board_slip(board: Board) -> dict[str, Any]:
    """What a printed slip shows to make a board with a real deck: each seat's hand (and
    the kitty) sorted by suit and rank, for a dealer who has sorted the deck the same way
    to pick them out; the rest of the pack (the stock), when the game draws from it, in
    the order it must lie, top card first."""
    hands = [{"seat": s, "direction": SEAT_NAMES[s], "cards": _sorted_for_dealer(h)}
             for s, h in enumerate(board.deal.hands)]
    out: dict[str, Any] = {"board": board.number, "dealer": SEAT_NAMES[board.dealer],
                           "hands": hands}
    if board.deal.kitty:
        out["kitty"] = _sorted_for_dealer(board.deal.kitty)
    if board.deal.stock:
        out["stock"] = [RANKS[c % 13] + SUITS[c // 13] for c in board.deal.stock]
    return out


# ----- the movement --------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """A partnership: its number (from 1), its name, and ``computer`` (a level such as
    ``basic``) when computer players fill its seats, shown as such everywhere."""

    number: int
    name: str
    computer: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "name": self.name, "computer": self.computer}

    @classmethod
    def from_json(cls, obj: Any) -> Pair:
        if not isinstance(obj, dict) or set(obj) != {"number", "name", "computer"}:
            raise DuplicateError("a partnership is an object with number, name and computer")
        number = _whole(obj["number"], "a partnership's number", 1, MAX_PAIRS)
        name, computer = obj["name"], obj["computer"]
        if not isinstance(name, str) or not (computer is None or isinstance(computer, str)):
            raise DuplicateError("a partnership's name and computer level are text")
        if not 1 <= len(name) <= MAX_NAME or (computer is not None
                                               and not 1 <= len(computer) <= MAX_NAME):
            raise DuplicateError(f"a partnership's name is 1 to {MAX_NAME} characters")
        return cls(number, name, computer)


@dataclass(frozen=True)
class Seating:
    """Table ``table`` (from 1) of a round: pair ``ns`` North-South against ``ew``."""

    table: int
    ns: int
    ew: int


@dataclass(frozen=True)
class Round:
    """Round ``number`` (from 1): the boards every table plays, the tables, and the pair
    sitting out (None: nobody)."""

    number: int
    boards: tuple[int, ...]
    tables: tuple[Seating, ...]
    sit_out: int | None = None


@dataclass(frozen=True)
class Movement:
    """Which pair sits where against whom, and plays which boards, round by round.
    ``filled``: the pair that computer players fill (odd counts with ``fill``), if any,
    and ``fill`` their level."""

    pairs: int
    rounds: tuple[Round, ...]
    filled: int | None = None
    fill: str | None = None

    @property
    def boards(self) -> tuple[int, ...]:
        return tuple(b for r in self.rounds for b in r.boards)

    def round_of(self, board: int) -> Round:
        for r in self.rounds:
            if board in r.boards:
                return r
        raise DuplicateError(f"board {board} is not played in this session")

    def tables_of(self, board: int) -> int:
        """How many tables play ``board``: the results meant in each direction."""
        return len(self.round_of(board).tables)

    def to_json(self) -> dict[str, Any]:
        return {"pairs": self.pairs, "filled": self.filled, "fill": self.fill,
                "rounds": [{"number": r.number, "boards": list(r.boards), "sit_out": r.sit_out,
                            "tables": [[t.table, t.ns, t.ew] for t in r.tables]}
                           for r in self.rounds]}

    @classmethod
    def from_json(cls, obj: Any) -> Movement:
        """Read ``to_json``'s object; the movement must be one ``movement`` makes."""
        if not isinstance(obj, dict) or set(obj) != {"pairs", "filled", "fill", "rounds"}:
            raise DuplicateError("a movement is an object with pairs, filled, fill and rounds")
        pairs = _whole(obj["pairs"], "the number of partnerships", 2, MAX_PAIRS)
        rounds = obj["rounds"]
        if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
            raise DuplicateError("a movement's rounds are a list of objects")
        try:
            boards = sum(len(r["boards"]) for r in rounds)
        except (KeyError, TypeError):
            raise DuplicateError("each round lists its boards") from None
        fill = obj["fill"]
        real = pairs - (1 if obj["filled"] is not None else 0)
        made = movement(real, boards, fill=fill) if isinstance(fill, str) or fill is None \
            else None
        if made is None or made.to_json() != obj:
            raise DuplicateError("this movement is not one forties makes")
        return made


def _berger(n: int) -> list[list[tuple[int, int]]]:
    """Berger's round robin of ``n`` (even) players 0..n-1: each round's matches as
    (home, away), every player at home and away in turn as far as it can be."""
    rounds = []
    last = n - 1
    for r in range(n - 1):
        matches = [(r, last) if r % 2 == 0 else (last, r)]
        for k in range(1, n // 2):
            a, b = (r + k) % (n - 1), (r - k) % (n - 1)
            matches.append((a, b) if k % 2 == 0 else (b, a))
        rounds.append(matches)
    return rounds


def _balanced(matches: Sequence[tuple[int, int]]) -> list[bool]:
    """For each match (a, b), whether a sits North-South (else b), so that every pair's
    North-South and East-West counts differ by one at most: each pair of an odd number of
    matches is joined to a stand-in (0), every count is then even, and each edge is
    turned the way an Euler circuit walks it (in as often as out at every pair)."""
    edges = list(matches)
    degree: Counter[int] = Counter(x for m in edges for x in m)
    edges += [(0, x) for x in sorted(degree) if degree[x] % 2]
    around: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(edges):
        around.setdefault(a, []).append((i, b))
        around.setdefault(b, []).append((i, a))
    used = [False] * len(edges)
    keep = [True] * len(edges)
    next_edge = dict.fromkeys(around, 0)
    for start in around:
        path = [start]
        while path:
            v = path[-1]
            steps = around[v]
            while next_edge[v] < len(steps) and used[steps[next_edge[v]][0]]:
                next_edge[v] += 1
            if next_edge[v] == len(steps):
                path.pop()
                continue
            i, w = steps[next_edge[v]]
            used[i] = True
            keep[i] = edges[i][0] == v  # walked from its first pair: that pair sits N-S
            path.append(w)
    return keep[:len(matches)]


def movement(partnerships: int | Sequence[Pair], boards: int | Sequence[Board],
             tables: int | None = None, fill: str | None = None) -> Movement:
    """The movement for ``partnerships`` (a count or the pairs, numbered 1..P) over
    ``boards`` (a count or the boards, numbered 1..B): see the module's docstring.
    ``tables``, if given, must be the tables it needs (P // 2, with a filled pair
    (P + 1) // 2). ``fill``: computer players of that level fill the missing pair of an
    odd count (else a pair sits out each round)."""
    p = partnerships if isinstance(partnerships, int) and type(partnerships) is not bool \
        else len(partnerships) if isinstance(partnerships, Sequence) else None
    if p is None:
        raise DuplicateError("partnerships are a number or a list of partnerships")
    p = _whole(p, "the number of partnerships", 3, MAX_PAIRS)
    if isinstance(partnerships, Sequence):
        numbers = [getattr(x, "number", None) for x in partnerships]
        if numbers != list(range(1, p + 1)):
            raise DuplicateError("partnerships are numbered 1, 2, 3... in order")
    b = boards if isinstance(boards, int) and type(boards) is not bool \
        else len(boards) if isinstance(boards, Sequence) else None
    if b is None:
        raise DuplicateError("boards are a number or a list of boards")
    b = _whole(b, "the number of boards", 1, MAX_BOARDS)
    if isinstance(boards, Sequence) and [getattr(x, "number", None) for x in boards] \
            != list(range(1, b + 1)):
        raise DuplicateError("boards are numbered 1, 2, 3... in order")
    if fill is not None and (not isinstance(fill, str) or not fill):
        raise DuplicateError("fill names the computer players' level")
    filled = p + 1 if p % 2 == 1 and fill is not None else None
    if p == 3 and filled is None:
        raise DuplicateError("three partnerships make one table, where no result could be "
                             "compared: fill the fourth pair with computer players")
    seated = p + 1 if p % 2 == 1 else p  # with a filled pair, or a sit-out's empty place
    need = seated // 2 if filled is not None or p % 2 == 0 else (seated - 2) // 2
    if tables is not None and (type(tables) is not int or tables != need):
        raise DuplicateError(f"{p} partnerships play at {need} tables, not {tables!r}")
    schedule = _berger(seated)
    count = min(len(schedule), b)
    share, extra = divmod(b, count)
    played: list[list[tuple[int, int]]] = []
    outs: list[int | None] = []
    for r in range(count):
        out = None
        matches = []
        for home, away in schedule[r]:
            h, a = home + 1, away + 1
            if filled is None and seated != p and seated in (h, a):
                out = a if h == seated else h
                continue
            matches.append((h, a))
        played.append(matches)
        outs.append(out)
    keep = iter(_balanced([m for matches in played for m in matches]))
    rounds: list[Round] = []
    first = 1
    for r, matches in enumerate(played):
        size = share + (1 if r < extra else 0)
        seats = tuple(Seating(i, *(m if next(keep) else m[::-1]))
                      for i, m in enumerate(matches, 1))
        rounds.append(Round(r + 1, tuple(range(first, first + size)), seats, outs[r]))
        first += size
    return Movement(seated if filled is not None else p, tuple(rounds), filled,
                    fill if filled is not None else None)


# ----- matchpoints ---------------------------------------------------------------------

K = TypeVar("K")


class Ordered(Protocol):
    """A result that can be compared: a number, or a tuple of them."""

    def __lt__(self, other: Any, /) -> bool: ...


def matchpoints(results: Mapping[K, Ordered]) -> dict[K, int]:
    """Each result's matchpoints against the others (results of one board in one
    direction): 2 for each result it beats, 1 for each tie. Results are numbers, or
    anything ordered (the hall's (won, margin) pairs)."""
    values = list(results.values())
    return {k: sum(2 if o < v else 1 if v == o else 0 for o in values) - 1
            for k, v in results.items()}


def percent_of_top(points: int | Fraction, results: int) -> Fraction:
    """A score's share of the top (2 (k - 1) for k results), in percent; a lone result
    is 50."""
    top = 2 * (results - 1)
    return Fraction(50) if top == 0 else Fraction(100) * points / top


def neuberg(points: int | Fraction, results: int, meant: int) -> Fraction:
    """``points`` on a board with ``results`` results, factored to ``meant`` results."""
    return Fraction(points + 1) * meant / results - 1


# ----- a session -----------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """Board ``board`` at table ``table``: the pairs and each one's score on the hand."""

    board: int
    table: int
    ns: int
    ew: int
    ns_score: int
    ew_score: int

    @property
    def ns_result(self) -> int:
        return self.ns_score - self.ew_score


@dataclass(frozen=True)
class Standing:
    """A partnership's place: ``rank`` (shared when ``tied``), boards played, matchpoints
    as scored, factored (``Fraction``) and their top, and the percentage (None before its
    first board)."""

    rank: int
    pair: Pair
    boards: int
    matchpoints: int
    factored: Fraction
    top: int
    percent: Fraction | None
    tied: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "tied": self.tied, "pair": self.pair.to_json(),
                "boards": self.boards, "matchpoints": self.matchpoints,
                "factored": float(self.factored), "top": self.top,
                "percent": None if self.percent is None else round(float(self.percent), 2)}


@dataclass
class Session:
    """A duplicate session: its partnerships, boards and movement, and the results in.
    ``record`` takes each table's scores; ``board_scores`` and ``standings`` answer."""

    partnerships: tuple[Pair, ...]
    boards: tuple[Board, ...]
    movement: Movement
    results: dict[tuple[int, int], TableResult] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.partnerships, Sequence) or not isinstance(self.boards, Sequence):
            raise DuplicateError("a session's partnerships and boards are lists")
        self.partnerships = tuple(self.partnerships)
        self.boards = tuple(self.boards)
        if not all(isinstance(p, Pair) for p in self.partnerships):
            raise DuplicateError("partnerships are Pair values")
        if not all(isinstance(b, Board) for b in self.boards):
            raise DuplicateError("boards are Board values")
        if not isinstance(self.movement, Movement):
            raise DuplicateError("the movement is a Movement (movement())")
        if [p.number for p in self.partnerships] != list(range(1, self.movement.pairs + 1)):
            raise DuplicateError(f"the movement seats {self.movement.pairs} partnerships, "
                                 f"numbered 1 to {self.movement.pairs}")
        filled = self.movement.filled
        if filled is not None and self.partnerships[filled - 1].computer is None:
            raise DuplicateError(f"partnership {filled} is the computers' filled pair")
        if [b.number for b in self.boards] != list(self.movement.boards):
            raise DuplicateError(f"the movement plays boards 1 to {len(self.movement.boards)}")

    # ----- results in -----

    def seating(self, board: int, table: int) -> Seating:
        """The pairs at ``table`` for ``board``; DuplicateError if nobody plays it there."""
        if type(board) is not int or not 1 <= board <= len(self.boards):
            raise DuplicateError(f"there is no board {board!r} in this session")
        rnd = self.movement.round_of(board)
        if type(table) is not int or not 1 <= table <= len(rnd.tables):
            raise DuplicateError(f"board {board} is played at tables 1 to {len(rnd.tables)}, "
                                 f"not {table!r}")
        return rnd.tables[table - 1]

    def boards_of(self, pair: int) -> list[tuple[int, int, str]]:
        """The (board, table, direction) ``pair`` plays, in order."""
        out = []
        for r in self.movement.rounds:
            for t in r.tables:
                if pair in (t.ns, t.ew):
                    out += [(b, t.table, DIRECTIONS[NS if pair == t.ns else EW])
                            for b in r.boards]
        return out

    def record(self, board: int, table: int, ns_score: int, ew_score: int) -> TableResult:
        """Table ``table``'s scores on ``board`` (North-South's, East-West's)."""
        seat = self.seating(board, table)
        for x in (ns_score, ew_score):
            if type(x) is not int or abs(x) > 10_000:
                raise DuplicateError(f"a score is a whole number, not {x!r}")
        if (board, table) in self.results:
            raise DuplicateError(f"board {board} at table {table} is already in")
        res = TableResult(board, table, seat.ns, seat.ew, ns_score, ew_score)
        self.results[(board, table)] = res
        return res

    def record_pairs(self, board: int, ns: int, ew: int, ns_score: int,
                     ew_score: int) -> TableResult:
        """``record`` by the partnerships: pair ``ns`` North-South against ``ew`` on
        ``board``; DuplicateError unless the movement seats them so for that board."""
        if type(board) is not int or not 1 <= board <= len(self.boards):
            raise DuplicateError(f"there is no board {board!r} in this session")
        for t in self.movement.round_of(board).tables:
            if (t.ns, t.ew) == (ns, ew):
                return self.record(board, t.table, ns_score, ew_score)
        raise DuplicateError(f"board {board} is not played by pair {ns!r} North-South "
                             f"against pair {ew!r}")

    def record_hand(self, board: int, table: int, state: GameState) -> TableResult:
        """Record a hand the engine played to its end: it must hold the board's cards."""
        self.seating(board, table)
        b = self.boards[board - 1]
        if not isinstance(state, GameState) or state.deal != b.deal \
                or state.dealer != b.dealer or state.start_scores != [0] * len(state.scores):
            raise DuplicateError(f"that hand is not board {board} from 0-0")
        return self.record(board, table, *scores_of_hand(state))

    # ----- answers -----

    def board_scores(self, board: int) -> dict[int, dict[str, Any]]:
        """Each pair's matchpoints on ``board`` so far: {pair: {"direction", "table",
        "score", "result", "matchpoints", "top", "percent"}}."""
        rnd = self.movement.round_of(board)
        rows = [r for r in self.results.values() if r.board == board]
        out: dict[int, dict[str, Any]] = {}
        for d in (NS, EW):
            res = {(r.ns if d == NS else r.ew): (r.ns_result if d == NS else -r.ns_result)
                   for r in rows}
            mp = matchpoints(res)
            for r in rows:
                pair = r.ns if d == NS else r.ew
                out[pair] = {"direction": DIRECTIONS[d], "table": r.table,
                             "score": r.ns_score if d == NS else r.ew_score,
                             "result": res[pair], "matchpoints": mp[pair],
                             "top": 2 * (len(res) - 1), "meant": len(rnd.tables),
                             "percent": percent_of_top(mp[pair], len(res))}
        return out

    def standings(self, through: int | None = None) -> list[Standing]:
        """Every partnership's standing on the results in (of boards 1..``through`` if
        given), best first, ties settled as the module's docstring says."""
        last = len(self.boards) if through is None else through
        if type(last) is not int or not 0 <= last <= len(self.boards):
            raise DuplicateError(f"there is no board {through!r} in this session")
        mp = dict.fromkeys(range(1, self.movement.pairs + 1), 0)
        fac = {p: Fraction(0) for p in mp}
        top = dict.fromkeys(mp, 0)
        played = dict.fromkeys(mp, 0)
        held: dict[tuple[int, str], dict[int, int]] = {}
        for board in range(1, last + 1):
            meant = self.movement.tables_of(board)
            for pair, s in self.board_scores(board).items():
                k = s["top"] // 2 + 1
                played[pair] += 1
                mp[pair] += s["matchpoints"]
                if meant > 1:
                    fac[pair] += neuberg(s["matchpoints"], k, meant)
                    top[pair] += 2 * (meant - 1)
                held.setdefault((board, s["direction"]), {})[pair] = s["result"]
        pct = {p: (None if not played[p] else Fraction(50) if not top[p]
                   else 100 * fac[p] / top[p]) for p in mp}

        def key(p: int) -> Fraction:
            v = pct[p]
            return Fraction(-1) if v is None else v

        order = sorted(mp, key=lambda p: (-key(p), p))
        out: list[Standing] = []
        i = 0
        while i < len(order):
            group = [p for p in order[i:] if key(p) == key(order[i])]
            wins = dict.fromkeys(group, 0)
            for res in held.values():
                inside = [(p, v) for p, v in res.items() if p in wins]
                for p, v in inside:
                    wins[p] += sum(1 for _, o in inside if v > o)
            group.sort(key=lambda p: (-wins[p], p))
            rank = i + 1
            for j, p in enumerate(group):
                if j and wins[p] != wins[group[j - 1]]:
                    rank = i + j + 1
                tied = sum(1 for q in group if wins[q] == wins[p]) > 1
                out.append(Standing(rank, self.partnerships[p - 1], played[p], mp[p], fac[p],
                                    top[p], pct[p], tied))
            i += len(group)
        return out

    # ----- JSON -----

    def to_json(self) -> dict[str, Any]:
        """Everything, the boards' cards included: for the server's own storage."""
        return {"version": 1, "partnerships": [p.to_json() for p in self.partnerships],
                "boards": [b.to_json() for b in self.boards],
                "movement": self.movement.to_json(),
                "results": [[r.board, r.table, r.ns_score, r.ew_score]
                            for r in self.results.values()]}

    @classmethod
    def from_json(cls, obj: Any) -> Session:
        """Read ``to_json``'s object; DuplicateError with one line on anything else."""
        if not isinstance(obj, dict) or set(obj) != {"version", "partnerships", "boards",
                                                    "movement", "results"}:
            raise DuplicateError("a session is an object with version, partnerships, boards, "
                                 "movement and results")
        if obj["version"] != 1:
            raise DuplicateError("this session was written by another version of forties")
        for k in ("partnerships", "boards", "results"):
            if not isinstance(obj[k], list):
                raise DuplicateError(f"a session's {k} are a list")
        s = cls(tuple(Pair.from_json(p) for p in obj["partnerships"]),
                tuple(Board.from_json(b) for b in obj["boards"]),
                Movement.from_json(obj["movement"]))
        for r in obj["results"]:
            if not isinstance(r, list) or len(r) != 4:
                raise DuplicateError("a result is [board, table, N-S score, E-W score]")
            s.record(*r)
        return s


def _whole(x: Any, what: str, low: int, high: int) -> int:
    if type(x) is not int or not low <= x <= high:
        shown = repr(x) if type(x) is not int or abs(x) < 10 ** 12 else "a larger number"
        if len(shown) > 40 or not shown.isprintable():
            shown = f"a {type(x).__name__}"
        raise DuplicateError(f"{what} is a whole number from {low} to {high}, not {shown}")
    return x
