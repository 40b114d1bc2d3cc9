"""``expert``: a search player.

In the play it imagines deals consistent with everything its seat has seen
(``sampler``), plays each legal card in each of them, finishes the hand with
the evaluator (the double-dummy solver when it is there, else quick playouts)
and keeps the card with the best expected result for the hand and the game:
making or setting the bid, the points, the lock at 100, going out. It bids,
names trump, raises and discards the same way, by simulating the draw and the
play for each choice. Forty One: it bids the tricks the simulation promises and
plays by the same search.

Forty One is searched for what it scores (``forties.solver.score41``): in the play,
each imagined deal is solved for the team's value (each seat's own bid made or
missed, the target, partner above zero, the tie rules), exactly over the last
``exact41`` tricks and ``depth41`` tricks deep before that; each bid is valued the
same way on imagined deals that agree with the bids already made, the later seats
bidding what their cards promise, a total under the minimum throwing the hand in.
This is the default (``forty_one="score"``; the level ``expert``, also named
``expert-score``): in duplicate matches it beat the earlier player
(``forty_one="tricks"``, the level ``expert-tricks``: team tricks, bids from
playouts) by about 0.4 points a hand, 95% interval above zero (see
docs/lab-notes.md).

45s card play with ``infer=True`` (the level ``expert-infer``): the imagined deals
are drawn in proportion to how likely each is to have produced the others' bids,
draw and plays (``bots.infer``). The default (``infer=None``) does so where a duplicate
match showed the weighed player stronger, Auction 45 of four players (INFER_PRESETS),
and Merrimack Valley of four, where it also reads each card the opponents played as
``basic``'s (``policy``, POLICY_PRESETS; the level ``expert-policy`` does so in every
preset), and samples without it elsewhere (docs/lab-notes.md); ``infer=False``, the
level ``expert-plain``, never weighs.

Where the table shows both opponents as ``basic`` computer players (``seats``), the 45s
play is searched against ``basic``'s rule (``bots.model``, as the level ``expert-model``
always does): the opponents in each imagined deal play ``basic``'s card, not a perfect
defence; with a person or any other player among the opponents, nothing changes.

45s cards are valued over 256 imagined deals with four players or fewer (PLAY_WORLDS;
the level ``expert-narrow`` keeps the earlier 96, which lost to it in the play on
Auction 45) and over 96 with five or six.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import Action, Verb, parse_bid
from ..cards import cards_of, mask_of, mask_of_names, parse_suit
from ..fortyfives import TRUMPS, FortyFivesState
from ..fortyone import FortyOneState
from ..rules import FortyFivesRules, FortyOneRules, rules_from_json
from ..state import Deal, GameState, Phase
from . import alphamu
from . import simulate as sim
from .basic import BasicBot, card_worth, discard_count, forty_one_tricks, strength
from .judge import Judge, PlayoutJudge, SolverJudge, utility
from .sampler import worlds

# 45s: imagined deals a card with four players or fewer, and with five or six (whose
# early solves are far dearer, so a sixth of these early in the hand). 256 beat 96 in
# the play on Auction 45 over 2,000 deals, +0.49 a hand (+0.18 .. +0.80), and was ahead,
# short of significance, on Merrimack Valley, +0.15 (-0.02 .. +0.33) over 4,000 deals
# (docs/lab-notes.md)
PLAY_WORLDS = 256
PLAY_WORLDS_MANY = 96

# Forty One by its score: imagined deals a card, a bid; tricks left searched exactly;
# tricks searched before that.
WORLDS_41 = 64
BID_DEALS_41 = 120
EXACT_41 = 6
DEPTH_41 = 2
# a bidder's promise read from his cards (basic's count) may be off by this much
BID_SLACK_41 = 1.5
BID_HOW_41 = "playout"  # or "solver": see bid_by_solver
# ``expert-bids41``: imagined deals weighed by how well the others' cards fit their bids,
# each bid read as basic's count of the cards give or take this much (a normal spread)
BID_SIGMA_41 = 1.5

# 45s presets (of four players) whose default expert plays on weighed deals: in the card
# play alone it beat the plain expert there by +0.49 a hand (+0.14 .. +0.84, 2,000 deals);
# on Merrimack Valley it was level (+0.02, -0.27 .. +0.31).
INFER_PRESETS = ("auction-45",)
# 45s presets (of four players) whose default expert also reads each card the opponents
# played as ``basic``'s: on Merrimack Valley it beat the expert of 96 deals a card by
# +0.48 a hand (+0.21 .. +0.76) in the card play alone and +0.64 (+0.22 .. +1.06) in
# whole hands, 2,000 deals each (docs/lab-notes.md); on Auction 45, against today's
# expert, +0.12 a hand (-0.18 .. +0.41) in the card play alone, not significant.
POLICY_PRESETS = ("merrimack-valley",)

# The others are read as bidding what ``basic`` would: its strength plus this help, give
# or take the slack.
BID_HELP = 10.0
BID_SLACK = 3.0


def default_judge() -> Judge:
    """The double-dummy solver when it can be loaded, else playouts."""
    try:
        from ..solver import kernel  # noqa: F401  (the compiled solver is there)
    except ImportError:
        return PlayoutJudge()
    return SolverJudge()


@dataclass(frozen=True)
class Choice:
    """A decision with the expected value (in points of this hand) of each option."""

    action: Action
    values: dict[Action, float]
    samples: int


class ExpertBot:
    """Searches imagined deals; ``worlds`` sets its strength and its speed (None: 45s
    cards on PLAY_WORLDS deals with four players or fewer, PLAY_WORLDS_MANY with more)."""

    name = "expert"

    def __init__(self, rng: random.Random, worlds: int | None = None, deals: int = 120,
                 judge: Judge | None = None, win_bonus: float = sim.WIN_BONUS,
                 forty_one: str = "score", infer: bool | None = None, alphamu: int = 0,
                 alphamu_cards: int = 3, policy: bool | None = None,
                 seats: Sequence[str | None] | None = None) -> None:
        self.rng = rng
        # what the table shows of each seat: a computer player's level, or None for a
        # person (None: nothing is known); where both opponents are ``basic`` computers
        # the 45s play is searched against ``basic``'s rule (``models_basic``)
        self.seats = tuple(seats) if seats is not None else None
        self._model_judge: Judge | None = None
        # 45s play: with ``alphamu`` >= 2, once the seat holds at most ``alphamu_cards``
        # cards it searches its next ``alphamu`` turns keeping one card for all the
        # imagined deals it cannot tell apart (``bots.alphamu``; the level
        # ``expert-alphamu``); 0 or 1: the average over the deals
        self.alphamu = alphamu
        self.alphamu_cards = alphamu_cards
        # 45s play: draw the imagined deals by how likely each is to have produced the
        # others' bids, draw and plays (``infer``; the level ``expert-infer``); None: in
        # the INFER_PRESETS only
        self.infer = infer
        # 45s play: weigh the imagined deals by each card the opponents played, read as
        # ``basic``'s (``infer``); True (the level ``expert-policy``): in every preset;
        # None: in the POLICY_PRESETS only
        self.policy = policy
        # the kinds of player the reading takes an opponent for (``infer.POLICY_TYPES``;
        # the level ``expert-types``); None: one kind, each mismatch weighing POLICY_FLOOR
        self.policy_types: Sequence[tuple[float, float]] | None = None
        # weighed 45s play: the cheap deals drawn for each deal solved (None:
        # ``infer.OVERSAMPLE``; the level ``expert-pool``: ``infer.POOL_OVERSAMPLE``)
        self.oversample: int | None = None
        # with the reading of the opponents' cards, the partner's read so too (the level
        # ``expert-partner``)
        self.read_partner = False
        # the table of counts of top trumps, trumps and off-suit kings, and a proposal that
        # deals kept kings (``infer.calib_features``; the level ``expert-calib``)
        self.calib = False
        if forty_one not in ("score", "tricks"):
            raise ValueError(f"forty_one is 'score' or 'tricks', not {forty_one!r}")
        self.forty_one = forty_one
        self.worlds41 = WORLDS_41
        self.bid_deals41 = BID_DEALS_41
        self.exact41 = EXACT_41
        self.depth41 = DEPTH_41
        self.bid_how41 = BID_HOW_41
        self.bid_sigma41 = 0.0
        self.win_bonus = win_bonus  # what ending the game is worth (0: this hand alone)
        self.worlds = worlds
        self.deals = deals
        self.judge = judge or default_judge()
        self.pre_judge: Judge = self.judge
        self._playouts = PlayoutJudge()
        self._facts: list[tuple[int, bool, float]] = []
        self._players = 4
        self.basic = BasicBot()

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        return self.decide(view, legal).action

    def decide(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        """The action to take and what each considered option is worth."""
        if len(legal) == 1:
            return Choice(legal[0], {legal[0]: 0.0}, 0)
        self._players = view["players"]
        phase = view["phase"]
        if view["game"] == "forty-one":
            if self.forty_one == "score":
                if phase == "auction":
                    return self._bid_score(view, legal)
                return self._play_score(view, legal)
            if phase == "auction":
                return self._bid_forty_one(view, legal)
            return self._play(view, legal)
        if phase == "play":
            return self._play(view, legal)
        if phase in ("auction", "raise", "trump"):
            return self._contract(view, legal)
        if phase == "draw" and view.get("bidder") is not None:
            return self._draw(view, legal)
        a = self.basic.choose(view, legal)
        return Choice(a, {a: 0.0}, 0)

    # ----- where the imagined deals come from (the oracle overrides these) -----------

    def samples(self) -> int:
        """Imagined deals for the choices made before the play (bids, trump, discards);
        fewer with five or six players, whose hands cost far more to solve."""
        return self.deals if self._players <= 4 else max(12, self.deals // 6)

    def _play_worlds(self, view: dict[str, Any]) -> list[GameState]:
        # Five or six players early in the hand make each solve far dearer: fewer worlds
        # keep a decision under half a second (a fixed rule, so a seed still decides all).
        return worlds(view, self._play_count(view), self.rng)

    def _play_count(self, view: dict[str, Any]) -> int:
        """Imagined deals a card: fewer with five or six players early in the hand."""
        many = view["players"] >= 5
        count = self.worlds if self.worlds is not None else \
            PLAY_WORLDS_MANY if many else PLAY_WORLDS
        held = sum(len(t["cards"]) for t in view["tricks"])
        if many and held < 2 * view["players"]:
            return max(8, count // 6)
        return count

    def weighs(self, view: dict[str, Any]) -> bool:
        """Whether this player weighs its imagined 45s deals in the game of ``view``."""
        if view["game"] == "forty-one":
            return False
        if self.infer is not None:
            return self.infer
        if self.reads_plays(view):
            return True
        return view["rules"].get("preset") in INFER_PRESETS and view["players"] == 4

    def reads_plays(self, view: dict[str, Any]) -> bool:
        """Whether the weighing reads the opponents' cards as ``basic``'s in ``view``'s game."""
        if self.policy is not None:
            return self.policy
        if self.models_basic(view):
            return True
        return view["rules"].get("preset") in POLICY_PRESETS and view["players"] == 4

    def models_basic(self, view: dict[str, Any]) -> bool:
        """Whether this seat's opponents are both ``basic`` computer players, as the table
        shows them, in a 45s hand the search against ``basic``'s rule takes (``bots.model``):
        then the play reads their cards as ``basic``'s and searches each imagined deal with
        them playing ``basic``'s card, as the level ``expert-model`` always does."""
        from .model import takes

        n = view["players"]
        if self.seats is None or len(self.seats) != n or view["game"] == "forty-one" or \
                not takes(rules_from_json(view["rules"]), n, view["sides"], view.get("bidder")):
            return False
        mine = next(s for s in view["sides"] if view["seat"] in s)
        return all(self.seats[s] == "basic" for s in range(n) if s not in mine)

    def play_judge(self, view: dict[str, Any]) -> Judge:
        """The judge of the imagined deals of the play: searching against ``basic``'s
        rule where both opponents are ``basic`` computers (``models_basic``), else
        ``judge``."""
        if not self.models_basic(view):
            return self.judge
        if self._model_judge is None:
            from .model import ModelJudge

            self._model_judge = ModelJudge(self.judge)
        return self._model_judge

    def _weighted_play_worlds(self, view: dict[str, Any]) -> list[tuple[GameState, float]]:
        """The imagined deals of the play, each with its weight."""
        if self.weighs(view) and view.get("trump"):
            from .infer import weighted_worlds

            return weighted_worlds(view, self._play_count(view), self.rng,
                                   oversample=self.oversample,
                                   policy=self.reads_plays(view), types=self.policy_types,
                                   partner=self.read_partner, calib=self.calib)
        return [(w, 1.0) for w in self._play_worlds(view)]

    def _forty_one_deal(self, seat: int, hand: int) -> Deal:
        rest = [c for c in range(52) if not hand >> c & 1]
        self.rng.shuffle(rest)
        hands = [tuple(rest[13 * i:13 * i + 13]) for i in range(3)]
        hands.insert(seat, tuple(cards_of(hand)))
        return Deal(tuple(hands))

    # ----- the play -----------------------------------------------------------------

    def _play(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        seat = view["seat"]
        ws = self._weighted_play_worlds(view)
        if not ws:
            a = self.basic.choose(view, legal)
            return Choice(a, {a: 0.0}, 0)
        held = ws[0][0].hands[seat].bit_count() if isinstance(ws[0][0], FortyFivesState) else 0
        judge = self.play_judge(view)
        if self.alphamu > 1 and 2 <= held <= self.alphamu_cards and alphamu.applies(
                ws[0][0], seat):
            values, _ = alphamu.card_values(ws, seat, judge, self.alphamu,
                                            self.win_bonus, self.rng)
        else:
            totals = dict.fromkeys(legal, 0.0)
            for w, wt in ws:
                outcomes = judge.play_outcomes(w)
                for a in legal:
                    totals[a] += wt * utility(w, seat, outcomes[a], self.win_bonus)
            weight = sum(wt for _, wt in ws)
            values = {a: v / weight for a, v in totals.items()}
        best = max(legal, key=lambda a: (values[a], -legal.index(a)))
        return Choice(best, values, len(ws))

    # ----- bidding, raising, naming trump ----------------------------------------------

    def _deal_for_contract(self, rules: FortyFivesRules, seat: int, hand: int,
                           kitty: int) -> Deal:
        """An imagined deal around this seat's cards (and the kitty, if known) that agrees,
        as far as a few tries allow, with what the others' bids and passes said about their
        hands."""
        deal = sim.random_deal_with(rules, seat, hand & ~kitty, self.rng, kitty)
        for _ in range(40):
            if all(self._fits(deal, fact) for fact in self._facts):
                break
            deal = sim.random_deal_with(rules, seat, hand & ~kitty, self.rng, kitty)
        return deal

    @staticmethod
    def _fits(deal: Deal, fact: tuple[int, bool, float]) -> bool:
        seat, at_least, level = fact
        cards = mask_of(deal.hands[seat])
        est = max(strength(cards, t) for t in range(4)) + BID_HELP
        return est >= level - BID_SLACK if at_least else est < level + BID_SLACK

    def _read_auction(self, view: dict[str, Any], rules: FortyFivesRules) -> None:
        """What each other seat's bid or pass says of its hand's strength."""
        facts: list[tuple[int, bool, float]] = []
        high = 0
        lowest = rules.min_bid
        for h in view.get("history", []):
            parts = h.split()
            who, verb = int(parts[0]), parts[1]
            if verb not in ("bid", "pass", "hold"):
                break
            if verb == "bid":
                high = parse_bid(parts[2])
                if who != view["seat"]:
                    facts.append((who, True, float(min(high, 30))))
            elif verb == "hold" and who != view["seat"]:
                facts.append((who, True, float(min(high, 30))))
            elif verb == "pass" and who != view["seat"]:
                facts.append((who, False, float(max(high + 5, lowest))))
        self._facts = facts

    def _value(self, done: tuple[FortyFivesState, list[int]], seat: int, bid: int) -> float:
        """The utility of an imagined hand's outcome had the bid been ``bid``."""
        st, outcome = done
        saved = st.bid
        st.bid = bid
        try:
            return utility(st, seat, outcome, self.win_bonus)
        finally:
            st.bid = saved

    def _contract(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        """Bid, hold, raise, pass or name trump: each choice is scored on the same imagined
        deals (the draw and the play simulated), and the expert leaves the sound default
        (what ``basic`` would do) only when the simulation is confident it is better."""
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyFivesRules)
        self._read_auction(view, rules)
        seat, phase = view["seat"], view["phase"]
        hand = mask_of_names(view["hand"])
        kitty = mask_of_names(view.get("kitty") or [])
        default = self.basic.choose(view, legal)
        scores: dict[Action, list[float]] = {a: [] for a in legal}
        if phase == "trump":
            named = [a for a in legal if a.verb is Verb.TRUMP]
            bid = parse_bid(view["bid"])
            if default not in named:
                return Choice(default, {default: 0.0}, 0)
            for _ in range(self.samples()):
                deal = self._deal_for_contract(rules, seat, hand, kitty)
                row = {}
                for a in named:
                    st = sim.simulate_contract(rules, deal, view["dealer"], seat, bid, a.arg,
                                               view["scores"])
                    if st is not None:
                        row[a] = utility(st, seat, self.pre_judge.outcome(st), self.win_bonus)
                if len(row) == len(named):
                    for a, u in row.items():
                        scores[a].append(u)
            return _confident(scores, default)
        high = parse_bid(view["high_bid"]) if view.get("high_bid") else 0
        current = parse_bid(view["bid"]) if phase == "raise" else 0
        suit = sim.suits_by_promise(hand)[0]
        other = view.get("high_bidder")
        if other is None or other == seat:
            other = (seat + 1) % view["players"]
        for _ in range(self.samples()):
            deal = self._deal_for_contract(rules, seat, hand, kitty)
            mine = sim.simulate_contract(rules, deal, view["dealer"], seat, rules.min_bid, suit,
                                         view["scores"])
            if mine is None:
                continue
            done = (mine, self.pre_judge.outcome(mine))
            passed = None
            if phase == "auction":
                passed = self._other_contract(rules, view, deal, other, high)
                if passed is None:
                    continue
            for a in legal:
                if a.verb in (Verb.BID, Verb.RAISE):
                    scores[a].append(self._value(done, seat, a.arg))
                elif a.verb is Verb.HOLD:
                    scores[a].append(self._value(done, seat, high))
                elif phase == "raise":
                    scores[a].append(self._value(done, seat, current))
                else:
                    assert passed is not None
                    scores[a].append(passed)
        return _confident(scores, default)

    def _other_contract(self, rules: FortyFivesRules, view: dict[str, Any], deal: Deal,
                        other: int, high: int) -> float | None:
        """What passing is worth on ``deal``: ``other`` plays it as bidder (at the high bid
        or the minimum) in its most promising suit."""
        theirs = mask_of(deal.hands[other])
        bid = min(high or rules.min_bid, 30)
        for t in sim.suits_by_promise(theirs):
            st = sim.simulate_contract(rules, deal, view["dealer"], other, bid, t,
                                       view["scores"])
            if st is not None:
                return utility(st, view["seat"], self.pre_judge.outcome(st), self.win_bonus)
        return None

    # ----- the draw -----------------------------------------------------------------

    def _draw(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        seat = view["seat"]
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyFivesRules)
        trump = parse_suit(view["trump"])
        hand = mask_of_names(view["hand"])
        default = self.basic.choose(view, legal)
        candidates = _discard_candidates(seat, hand, trump, legal)
        if default not in candidates:
            candidates.append(default)
        if len(candidates) == 1:
            return Choice(candidates[0], {candidates[0]: 0.0}, 0)
        scores: dict[Action, list[float]] = {a: [] for a in candidates}
        for _ in range(self.samples()):
            world = _draw_world(view, rules, self.rng)
            if world is None:
                continue
            for a in candidates:
                st = world.clone()
                assert isinstance(st, FortyFivesState)
                st.apply(a)
                sim.drive_to_play(st)
                scores[a].append(utility(st, seat, self.pre_judge.outcome(st), self.win_bonus))
        return _confident(scores, default)

    # ----- Forty One ----------------------------------------------------------------

    def _bid_forty_one(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyOneRules)
        seat = view["seat"]
        hand = mask_of_names(view["hand"])
        tricks = []
        for _ in range(self.samples()):
            st = FortyOneState(rules, seed=None, first_dealer=view["dealer"],
                               deal=self._forty_one_deal(seat, hand))
            while st.phase is Phase.AUCTION:
                t = st.turn
                assert t is not None
                guess = max(1, round(forty_one_tricks(st.hands[t])))
                st.apply(Action(t, Verb.BID, 13 if st.turn == st.dealer else guess))
            # Tricks per seat need the play itself, not a team's total: play it out.
            tricks.append(self._playouts.outcome(st)[seat])
        made_by = {b: sum(1 for t in tricks if t >= b) / len(tricks) for b in range(1, 14)}
        so_far = sum(b or 0 for b in view["bids"])
        last = view["dealer"] == seat
        values: dict[Action, float] = {}
        for a in legal:
            v = 2 * a.arg if a.arg >= rules.double_from else a.arg
            p = made_by[a.arg]
            values[a] = p * v - (1 - p) * v
            if last and so_far + a.arg < rules.min_total:
                values[a] = 0.0  # thrown in
        best = max(legal, key=lambda a: (values[a], -a.arg))
        return Choice(best, values, len(tricks))


    # ----- Forty One, played for its score ---------------------------------------------

    def _play_score(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        """Each legal card's value for the team, averaged over imagined deals each solved
        for the real score."""
        from ..solver import score41

        seat = view["seat"]
        ws = self._worlds_41(view)
        if not ws:
            a = self.basic.choose(view, legal)
            return Choice(a, {a: 0.0}, 0)
        totals = dict.fromkeys(legal, 0.0)
        weights = [self._bid_weight(w, seat) for w in ws]
        for w, wt in zip(ws, weights, strict=True):
            assert w.turn == seat
            vals = score41.best_moves_score(w, exact_tricks=self.exact41, depth=self.depth41,
                                            win_value=int(self.win_bonus))
            for a in legal:
                totals[a] += wt * vals[a]
        values = {a: v / sum(weights) for a, v in totals.items()}
        best = max(legal, key=lambda a: (values[a], -legal.index(a)))
        return Choice(best, values, len(ws))

    def _worlds_41(self, view: dict[str, Any]) -> list[GameState]:
        return worlds(view, self.worlds41, self.rng)

    def _bid_weight(self, w: GameState, seat: int) -> float:
        """How likely an imagined deal is to have produced the others' bids: each bid read
        as what the bidder's cards promise (``basic``'s count), give or take
        ``bid_sigma41`` (a normal spread); 1 for every deal when that is 0."""
        if not self.bid_sigma41 or not isinstance(w, FortyOneState):
            return 1.0
        from ..position import start_hands_of

        start = start_hands_of(w)
        z = 0.0
        for s in range(4):
            if s != seat:
                z += (forty_one_tricks(start[s]) - (w.bids[s] or 0)) ** 2
        return math.exp(-z / (2 * self.bid_sigma41 ** 2))

    def _bid_score(self, view: dict[str, Any], legal: Sequence[Action]) -> Choice:
        """Each bid near what the cards promise, valued on imagined deals that agree with
        the bids made so far (each bidder's cards promising about his bid), the later
        seats bidding what their cards promise: the team's value of the hand solved for
        its score, or nothing when the total throws the hand in."""
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyOneRules)
        seat = view["seat"]
        hand = mask_of_names(view["hand"])
        bids = list(view["bids"])
        states = []
        for _ in range(self.bid_deals41):
            deal = self._forty_one_deal(seat, hand)
            for _ in range(30):
                if all(abs(forty_one_tricks(mask_of(deal.hands[s])) - b) <= BID_SLACK_41
                       for s, b in enumerate(bids) if b is not None and s != seat):
                    break
                deal = self._forty_one_deal(seat, hand)
            st = FortyOneState(rules, seed=None, first_dealer=view["dealer"], deal=deal)
            _set_start(st, view["scores"])
            for s in _auction_order(view["dealer"]):
                if s == seat:
                    break
                st.apply(Action(s, Verb.BID, bids[s]))
            states.append(st)
        return bid_by_solver(states, seat, legal, self.exact41, self.depth41,
                             int(self.win_bonus), self.bid_how41)

def _auction_order(dealer: int) -> list[int]:
    return [(dealer + 1 + i) % 4 for i in range(4)]


def _set_start(st: FortyOneState, scores: Sequence[int]) -> None:
    st.scores = list(scores)
    st.start_scores = list(scores)


def promised(hand: int) -> int:
    """The bid a hand's cards promise (``basic``'s)."""
    return max(1, min(13, int(forty_one_tricks(hand) + 0.5)))


def bid_candidates(st: FortyOneState, seat: int) -> list[int]:
    """The bids worth weighing: around what the cards promise, and for the dealer the
    least that keeps the hand from being thrown in."""
    own = promised(st.hands[seat])
    out = set(range(max(1, own - 2), min(13, own + 2) + 1))
    if seat == st.dealer:
        least = st.rules.min_total - sum(b or 0 for b in st.bids)
        if 1 <= least <= 13:
            out.add(least)
            out.update(b for b in range(least, min(13, least + 2) + 1))
    return sorted(out)


def bid_by_solver(states: Sequence[FortyOneState], seat: int, legal: Sequence[Action],
                  exact: int, depth: int, win_value: int, how: str = "solver") -> Choice:
    """The bid with the best mean value over ``states`` (each at ``seat``'s bid): the later
    seats bid what their cards promise, and a total under the minimum throws the hand in
    (worth 0). ``how``: ``"solver"`` solves the hand for its score from the first lead for
    each bid; ``"playout"`` plays it out once greedily, each seat bidding what its cards
    promise, and scores the tricks each seat took under each bid (the game's scoring)."""
    from ..solver import score41

    cands = bid_candidates(states[0], seat) if states else []
    totals = dict.fromkeys(cands, 0.0)
    team = seat % 2
    for st in states:
        if how == "playout":
            g = st.clone()
            assert isinstance(g, FortyOneState)
            while g.phase is Phase.AUCTION:
                t = g.turn
                assert t is not None
                # the dealer keeps the hand in play, to see the cards played out
                bid = promised(g.hands[t])
                if t == g.dealer:
                    bid = max(bid, min(13, g.rules.min_total - sum(x or 0 for x in g.bids)))
                g.apply(Action(t, Verb.BID, bid))
            taken = sim.taken_forty_one(g)
            later = [(s, promised(st.hands[s])) for s in _auction_order(st.dealer)
                     if st.bids[s] is None and s != seat]
            for b in cands:
                bids = [x or 0 for x in st.bids]
                bids[seat] = b
                for s, p in later:
                    bids[s] = p
                if sum(bids) < st.rules.min_total:
                    continue
                vals = score41.outcome_values(st.rules, bids, st.start_scores, team,
                                              win_value)
                totals[b] += vals[score41.made_mask(bids, taken)]
            continue
        for b in cands:
            g = st.clone()
            assert isinstance(g, FortyOneState)
            g.apply(Action(seat, Verb.BID, b))
            while g.phase is Phase.AUCTION:
                t = g.turn
                assert t is not None
                g.apply(Action(t, Verb.BID, promised(g.hands[t])))
            if g.phase is Phase.PLAY:
                totals[b] += score41.solve_score(g, team, exact_tricks=exact, depth=depth,
                                                 win_value=win_value)
    n = max(1, len(states))
    values = {a: totals[a.arg] / n for a in legal if a.arg in totals}
    if not values:
        a = legal[0]
        return Choice(a, {a: 0.0}, 0)
    best = max(values, key=lambda a: (values[a], -a.arg))
    return Choice(best, values, len(states))


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else float("-inf")


CONFIDENCE = 2.0  # standard errors by which a choice must beat the default


def _confident(scores: dict[Action, list[float]], default: Action) -> Choice:
    """The choice with the best mean utility if it beats ``default`` by CONFIDENCE standard
    errors of the paired differences, else ``default``."""
    n = len(scores.get(default, []))
    values = {a: _mean(v) for a, v in scores.items()}
    if n < 2:
        return Choice(default, values, n)
    best = max(scores, key=lambda a: values[a])
    if best == default:
        return Choice(default, values, n)
    diffs = [x - y for x, y in zip(scores[best], scores[default], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if mean > CONFIDENCE * (var / n) ** 0.5:
        return Choice(best, values, n)
    return Choice(default, values, n)


def _discard_candidates(seat: int, hand: int, trump: int,
                        legal: Sequence[Action]) -> list[Action]:
    """A few sensible discards: throw non-trumps; also keep kings; also keep everything."""
    tm = TRUMPS[trump]
    kings = sum(1 << (s * 13 + 11) for s in range(4) if s != trump)
    out: list[Action] = []
    order = sorted(cards_of(hand), key=lambda c: card_worth(c, trump))
    for keep in (hand & tm, hand & (tm | kings), hand):
        throw = hand & ~keep
        a = Action(seat, Verb.DISCARD, throw)
        if a not in legal:
            # too many or too few: adjust by worth, cheapest out first
            k = discard_count(throw.bit_count(), legal)
            a = Action(seat, Verb.DISCARD, sum(1 << c for c in order[:k]))
        if a not in out:
            out.append(a)
    return out


def _draw_world(view: dict[str, Any], rules: FortyFivesRules,
                rng: random.Random) -> FortyFivesState | None:
    """An imagined state at this seat's turn in the draw, consistent with its view."""
    from ..position import forty_fives_at_trump

    seat = view["seat"]
    bidder = view["bidder"]
    history = [h.split() for h in view["history"]]
    named = next(i for i, h in enumerate(history) if h[1] == "trump")
    if any(h[1] == "discard" for h in history[:named]):
        return None  # the bidder went on the kitty: too rare to simulate
    hand = mask_of_names(view["hand"])
    kitty = mask_of_names(view.get("kitty") or [])
    own = hand & ~kitty if seat == bidder else hand
    if own.bit_count() != 5:
        return None
    deal = sim.random_deal_with(rules, seat, own, rng, kitty)
    st = forty_fives_at_trump(rules, deal=deal, dealer=view["dealer"], bidder=bidder,
                              bid=parse_bid(view["bid"]), scores=view["scores"])
    naming = Action(bidder, Verb.TRUMP, parse_suit(view["trump"]))
    if st.reason(naming) is not None:
        return None  # this imagined bidder could not have named that trump
    st.apply(naming)
    counts = view["discard_counts"]
    while st.turn != seat:
        s = st.turn
        assert s is not None
        throw = sim.draw_discard(st, s)
        want = counts[s]
        if throw.arg.bit_count() != want:
            cards = sorted(cards_of(st.hands[s]), key=lambda c: card_worth(c, st.trump))
            throw = Action(s, Verb.DISCARD, sum(1 << c for c in cards[:want]))
        if st.reason(throw) is not None:
            return None
        st.apply(throw)
    return st
