"""The games registered with OpenSpiel (``pyspiel``) as Python games.

    >>> import pyspiel
    >>> import forties.envs.spiel  # registers the games
    >>> game = pyspiel.load_game("python_forties_merrimack_valley", {"hands": 1})
    >>> pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)

One game per preset: ``python_forties_merrimack_valley``, ``..._nova_scotia``,
``..._auction_45``, ``..._call_your_partner`` and ``python_forties_forty_one``, each
the preset as it stands: ``hands`` is the one parameter (house rules are the
PettingZoo and Gymnasium environments'). A game is the first ``hands`` hands of a
game of forties (1 unless given), fewer if it is won sooner; its returns are each
seat's side's score changes over those hands. Chance is an explicit player: each
hand begins with 52 chance nodes that deal the deck card by card (each outcome a
card, the remaining cards equally likely), in the engine's deal order. The players'
actions are the ids of ``forties.envs.encoding``. Information states and
observations, as strings and tensors, are made from the seat's view alone: the
string is the view as canonical JSON, the tensor the environments' observation. The
information state string has perfect recall over several hands: it holds the seat's
view of each hand already finished (``past_hands``) as well as the hand in play.

``resample_from_infostate`` imagines the hidden cards afresh, consistent with
everything the seat has seen, so that OpenSpiel's information-set MCTS can search;
``IsmctsBot`` is that search as a forties player (``forties arena ismcts basic``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from ..actions import Action, Verb
from ..cards import BITS, CARD_NAMES
from ..cards import cards_of as _cards
from ..errors import FortiesError
from ..fortyfives import FortyFivesState
from ..games import game_class
from ..rules import PRESETS, FortyFivesRules, Rules, build_rules
from ..state import Deal, GameState, IllegalActionError, Phase
from .aec import hand_rewards
from .encoding import PASS, PICK0, ROB_PACK, ActionIdError, Encoder, EpisodeError

MAX_STEPS_PER_HAND = 400  # 52 deals, and far more decisions than any hand takes


def short_name(preset: str) -> str:
    return "python_forties_" + preset.replace("-", "_")


_PRESET_OF = {short_name(p): p for p in PRESETS}
_ENCODERS: dict[str, Encoder] = {}


def _encoder(preset: str) -> Encoder:
    if preset not in _ENCODERS:
        _ENCODERS[preset] = Encoder(build_rules(preset))
    return _ENCODERS[preset]


def _game_type(preset: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name(preset),
        long_name=f"forties {preset}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=build_rules(preset).players,
        min_num_players=build_rules(preset).players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"hands": 1})


class FortiesGame(pyspiel.Game):  # type: ignore[misc]
    """A preset of forties as an OpenSpiel game (see the module's doc)."""

    PRESET = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        preset = self.PRESET
        self.rules: Rules = build_rules(preset)
        self.hands = int(params.get("hands", 1))
        if self.hands < 1:
            raise ValueError(f"hands must be a whole number from 1, not {self.hands}")
        self.encoder = Encoder(self.rules)
        worst = 120.0 if isinstance(self.rules, FortyFivesRules) else 26.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.actions,
            max_chance_outcomes=52,
            num_players=self.rules.players,
            min_utility=-worst * self.hands,
            max_utility=worst * self.hands,
            utility_sum=None,
            max_game_length=MAX_STEPS_PER_HAND * self.hands)
        super().__init__(_game_type(preset), info, {"hands": self.hands})

    def new_initial_state(self) -> FortiesState:
        return FortiesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("forties observes a game only through one seat's view")
        return ViewObserver(self.encoder, iig_obs_type is None or iig_obs_type.perfect_recall)


class FortiesState(pyspiel.State):  # type: ignore[misc]
    """A forties game in progress, dealt by chance."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        # pyspiel may hand over another wrapper of the game: read it through its API.
        self.pgame = game
        self.preset = _PRESET_OF[game.get_type().short_name]
        self.rules = build_rules(self.preset)
        self.hands_limit = int(game.get_parameters()["hands"])
        self.enc = _encoder(self.preset)
        self.n = self.rules.players
        self.deck: list[int] = []
        self.st: GameState | None = None
        self.picks = 0
        self.hands_done = 0
        self.totals = [0.0] * self.n
        self.before: list[int] = []
        # each finished hand as each seat saw it at its end ([hand][seat]): the seat's
        # information state keeps them, so that it recalls the earlier hands
        self.past: list[list[dict[str, Any]]] = []
        self.done = False

    # ----- OpenSpiel's API --------------------------------------------------------------

    def current_player(self) -> int:
        if self.done:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(self.deck) < 52:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.st is not None and self.st.turn is not None
        return self.st.turn

    def _legal_actions(self, player: int) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.mask(player))]

    def mask(self, seat: int) -> Any:
        st = self.st
        if st is None or seat != st.turn or len(self.deck) < 52:
            return np.zeros(self.enc.actions, dtype=np.int8)
        pile = getattr(st, "pile", 0) if st.phase is Phase.PACK else 0
        legal = st.legal_actions() if st.phase is not Phase.PACK else [Action(seat, Verb.PASS)]
        return self.enc.mask(st.phase, legal, st.hands[seat], pile, self.picks)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.done:
            raise EpisodeError("the game is over: it has no chance outcomes")
        if len(self.deck) >= 52:
            raise ValueError(f"not a chance node: player {self.current_player()} is to act, "
                             "see legal_actions()")
        left = sorted(set(range(52)) - set(self.deck))
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.done:
            raise EpisodeError(f"the game is over: no action comes after it, not {action}")
        if len(self.deck) < 52:
            c = int(action)
            if not 0 <= c < 52:
                raise ActionIdError(f"chance outcome {c} is not a card: a chance outcome "
                                    "is a card 0..51 not dealt yet")
            if c in self.deck:
                raise ActionIdError(f"chance outcome {c} ({CARD_NAMES[c]}) is dealt already "
                                    "this hand")
            self.deck.append(c)
            if len(self.deck) == 52:
                self._deal()
            return
        st = self.st
        if st is None or st.turn is None:  # not reached: a dealt hand has a seat to act
            raise EpisodeError("no seat is to act")
        seat = st.turn
        if st.phase is Phase.PACK and action != PASS:
            if action != ROB_PACK:
                self.picks |= 1 << (action - PICK0)
                return
            move = Action(seat, Verb.ROB, self.picks)
        else:
            move = self.enc.decode(int(action), seat, st.phase, st.hands[seat])
        self.picks = 0
        st.apply(move)
        if st.hand_over:
            for s, r in enumerate(hand_rewards(st, self.before)):
                self.totals[s] += r
            self.hands_done += 1
            self.past.append([st.view(s) for s in range(self.n)])
            if st.over or self.hands_done >= self.hands_limit:
                self.done = True
            else:
                self.deck = []

    def _deal(self) -> None:
        rules = self.rules
        if self.st is None:
            cls = game_class(rules)
            probe = object.__new__(cls)
            probe.n, probe.rules = rules.players, rules
            self.st = cls(rules, seed=None, first_dealer=0,
                          deal=cls.deal_from_deck(probe, self.deck))
        else:
            self.st.next_hand(self.st.deal_from_deck(self.deck))
        self.before = list(self.st.scores)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {CARD_NAMES[action]}"
        st = self.st
        if st is None or st.turn != player:
            return f"action {action}"
        if st.phase is Phase.PACK and action != PASS:
            return f"{player} pick {action - PICK0}" if action != ROB_PACK else \
                f"{player} rob the pack"
        return str(self.enc.decode(int(action), player, st.phase, st.hands[player]))

    def is_terminal(self) -> bool:
        return self.done

    def returns(self) -> list[float]:
        return list(self.totals) if self.done else [0.0] * self.n

    def rewards(self) -> list[float]:
        # the reward model is terminal: everything is paid at the end
        return self.returns()

    def information_state_string(self, player: int | None = None) -> str:
        return self.view_text(self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.view_text(self.current_player() if player is None else player,
                              recall=False)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return [float(x) for x in self.tensor(self.current_player() if player is None
                                              else player)]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self.information_state_tensor(player)

    def __str__(self) -> str:
        if self.st is None:
            return f"dealing: {len(self.deck)} cards"
        return json.dumps(self.st.to_json(), sort_keys=True)

    def __deepcopy__(self, memo: Any) -> FortiesState:
        c = FortiesState(self.pgame)
        c.deck = list(self.deck)
        c.st = self.st.clone() if self.st is not None else None
        c.picks = self.picks
        c.hands_done = self.hands_done
        c.totals = list(self.totals)
        c.before = list(self.before)
        c.past = list(self.past)  # the finished hands' views are never changed
        c.done = self.done
        c.rules, c.enc, c.n = self.rules, self.enc, self.n
        return c

    # ----- what a seat sees -----------------------------------------------------------

    def view_text(self, seat: int, recall: bool = True) -> str:
        """The seat's view (and its picks) as canonical JSON, with (``recall``) its views
        of the hands already finished: its information state (without them: its
        observation)."""
        if self.st is None:
            return json.dumps({"seat": seat, "dealing": len(self.deck)})
        view: dict[str, Any] = self.st.view(seat) if len(self.deck) == 52 or not self.past \
            else {"seat": seat}  # dealing the next hand: the last is in past_hands
        if recall:
            view["past_hands"] = [hand[seat] for hand in self.past]
        view["picks"] = self.picks if seat == self.st.turn else 0
        view["hands_done"] = self.hands_done
        view["dealing"] = len(self.deck) if len(self.deck) < 52 else None
        return json.dumps(view, sort_keys=True)

    def tensor(self, seat: int) -> Any:
        if self.st is None:
            return np.zeros(self.enc.layout.size, dtype=np.float32)
        picks = self.picks if seat == self.st.turn else 0
        return self.enc.observe(self.st.view(seat), picks)

    # ----- imagined worlds ------------------------------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any = None,
                                rng: random.Random | None = None) -> FortiesState:
        """A state ``player`` cannot tell from this one, its hidden cards drawn afresh."""
        st = self.st
        if st is None or len(self.deck) < 52:
            raise ValueError("resample a dealt hand, not the deal")
        rng = rng or random.Random(random.getrandbits(64))
        world = imagine(st, player, rng)
        c = self.__deepcopy__(None)
        c.st = world
        c.picks = self.picks
        return c


class ViewObserver:
    """OpenSpiel's observer: the environments' observation of one seat, and its view
    (with the finished hands for a perfect-recall observer, the information state)."""

    def __init__(self, encoder: Encoder, recall: bool = True) -> None:
        self.encoder = encoder
        self.recall = recall
        self.tensor = np.zeros(encoder.layout.size, dtype=np.float32)
        self.dict = {name: encoder.layout.view(self.tensor, name)
                     for name, _, _ in encoder.layout.blocks}

    def set_from(self, state: FortiesState, player: int) -> None:
        self.tensor[:] = state.tensor(player)

    def string_from(self, state: FortiesState, player: int) -> str:
        return state.view_text(player, self.recall)


# ----- imagining the hidden cards ---------------------------------------------------------

UNSUPPORTED = ("go_on_kitty", "dealer_robs_pack", "four_and_a_flip")


class ResampleError(FortiesError, ValueError):
    """No world consistent with the seat's view was found (or the rules are not covered)."""


def _receivers(st: GameState) -> dict[int, int]:
    """Which seat took each card of the stock this hand (the card -> seat)."""
    probe = _restart(st, st.deal)
    got: dict[int, int] = {}
    stock = set(st.deal.stock)
    for a in st.history:
        before = list(probe.hands)
        probe.apply(a)
        for s in range(probe.n):
            for c in _cards(probe.hands[s] & ~before[s]):
                if c in stock:
                    got[c] = s
    return got


def _restart(st: GameState, deal: Deal) -> GameState:
    """``st`` back at the start of its hand, dealt ``deal``."""
    c = st.clone()
    c.scores = list(st.start_scores)
    c.games = list(st.start_games)
    c.over, c.winner, c.new_game_due = False, None, False
    c._start_hand(deal)
    return c


def unsupported(rules: Rules) -> str | None:
    """Why worlds cannot be imagined under ``rules`` (None: they can)."""
    for name in UNSUPPORTED:
        if getattr(rules, name, False):
            return f"ismcts does not play with the option {name} yet"
    return None


def imagine(st: GameState, seat: int, rng: random.Random, tries: int = 400) -> GameState:
    """A state whose view for ``seat`` is ``st``'s, with every card ``seat`` has not seen
    dealt afresh (and the hidden discards and robs chosen afresh); ResampleError if the
    rules are not covered or nothing fits after ``tries`` attempts."""
    why = unsupported(st.rules)
    if why:
        raise ResampleError(why)
    view = st.view(seat)
    receivers = _receivers(st)
    for _ in range(tries):
        try:
            world = _try_world(st, seat, view, receivers, rng)
        except IndexError:  # the imagined cards ran short: try again
            continue
        if world is not None:
            return world
    raise ResampleError("no world consistent with the view was found")


def _try_world(st: GameState, seat: int, view: dict[str, Any], receivers: dict[int, int],
               rng: random.Random) -> GameState | None:
    n = st.n
    deal = st.deal
    ff = isinstance(st.rules, FortyFivesRules)
    bidder = getattr(st, "bidder", -1)
    kitty_seen = ff and bidder == seat and getattr(st, "kitty_taken", False)
    up = getattr(st, "up_card", -1)
    # What the seat knows where it lies: its own deal and draw, the kitty it took, the
    # turned-up card; and every card played, by whom.
    known = sum(BITS[c] for c in deal.hands[seat])
    known |= sum(BITS[c] for c, s in receivers.items() if s == seat)
    if kitty_seen:
        known |= sum(BITS[c] for c in deal.kitty)
    if up >= 0:
        known |= BITS[up]
    played = [0] * n
    for a in st.history:
        if a.verb is Verb.PLAY:
            played[a.seat] |= a.arg
    public = known
    for p in played:
        public |= p
    pool = [c for c in range(52) if not public >> c & 1]
    rng.shuffle(pool)
    # Each other seat's hand now, then at the first lead (with the cards it played).
    current = _current_hands(st, seat, view, public, rng)
    if current is None:
        return None
    taken = 0
    for s in range(n):
        if s != seat:
            taken |= current[s]
    pool = [c for c in pool if not taken >> c & 1]
    orig: list[int] = [0] * n
    kitty = 0
    discards: dict[int, int] = {}
    rob_give: dict[int, int] = {}
    stock_of: dict[int, list[int]] = {s: [] for s in range(n)}
    for s in range(n):
        if s == seat:
            continue
        held = current[s] | played[s]
        got = [c for c, r in receivers.items() if r == s]
        if up >= 0 and getattr(st, "robbed", False) and getattr(st, "robber", -1) == s:
            give = BITS[pool.pop()]
            rob_give[s] = give
            held = (held & ~BITS[up]) | give
            got = [c for c in got if c != up]
        drew = rng.sample(_cards(held & ~(BITS[up] if up >= 0 else 0)), len(got)) if got \
            else []
        stock_of[s] = drew
        pre = held & ~sum(BITS[c] for c in drew)
        if isinstance(st, FortyFivesState) and st.has_discarded[s]:
            count = view["discard_counts"][s]
            x = 0
            for _ in range(count):
                x |= BITS[pool.pop()]
            discards[s] = x
            pre |= x
        if ff and s == bidder and getattr(st, "kitty_taken", False):
            k = _cards(pre)
            rng.shuffle(k)
            kitty = sum(BITS[c] for c in k[:len(deal.kitty)])
            pre &= ~kitty
        orig[s] = pre
    if not kitty_seen and ff and not (bidder != seat and getattr(st, "kitty_taken", False)):
        kitty = 0
        for _ in range(len(deal.kitty)):
            kitty |= BITS[pool.pop()]
    elif kitty_seen:
        kitty = sum(BITS[c] for c in deal.kitty)
    orig[seat] = sum(BITS[c] for c in deal.hands[seat])
    # The stock: cards the seat took stay put; others' draws go where theirs came from.
    stock = list(deal.stock)
    for s, drew in stock_of.items():
        if s == seat:
            continue
        spots = [i for i, c in enumerate(deal.stock) if receivers.get(c) == s and c != up]
        for i, c in zip(spots, drew, strict=True):
            stock[i] = c
    for i, c in enumerate(deal.stock):
        if c != up and receivers.get(c) is None:
            stock[i] = pool.pop()
    if pool:
        return None  # the counts did not add up: try again
    hands = tuple(tuple(_cards(h)) for h in orig)
    if any(len(h) != len(deal.hands[0]) for h in hands):
        return None
    try:
        world = _restart(st, Deal(hands, tuple(_cards(kitty)), tuple(stock)))
        for a in st.history:
            if a.seat != seat and a.verb is Verb.DISCARD and a.seat in discards:
                a = Action(a.seat, a.verb, discards[a.seat])
            elif a.seat != seat and a.verb is Verb.ROB and a.seat in rob_give:
                a = Action(a.seat, a.verb, rob_give[a.seat])
            world.apply(a)
    except (IllegalActionError, ValueError):
        return None
    if world.view(seat) != view:
        return None
    return world


def _current_hands(st: GameState, seat: int, view: dict[str, Any], public: int,
                   rng: random.Random) -> list[int] | None:
    """The others' hands now: from the sampler's facts in the play, else at random."""
    n = st.n
    if st.phase is Phase.PLAY:
        from ..bots.sampler import deal_world, knowledge

        k = knowledge(view)
        return deal_world(k, rng)
    mine = st.hands[seat]
    seen = mine | public | st.discarded[seat] if hasattr(st, "discarded") else mine | public
    pool = [c for c in range(52) if not seen >> c & 1]
    rng.shuffle(pool)
    out = [0] * n
    out[seat] = mine
    for s in range(n):
        if s != seat:
            for _ in range(st.hands[s].bit_count()):
                out[s] |= BITS[pool.pop()]
    return out


# ----- registration -----------------------------------------------------------------------


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for preset in PRESETS:
        name = short_name(preset)
        if name not in registered:
            # a class, as OpenSpiel's own Python games register (a bare function given
            # here makes the interpreter abort as it exits)
            cls = type(f"Forties_{name}", (FortiesGame,), {"PRESET": preset,
                                                            "__module__": __name__})
            # bound in the module, so that pickle finds the class by its name
            globals()[cls.__name__] = cls
            pyspiel.register_game(_game_type(preset), cls)


_register()


# ----- the search as a forties player ------------------------------------------------------

ISMCTS_SIMULATIONS = 100  # each decision's; the environment's FORTIES_ISMCTS_SIMULATIONS


def _simulations() -> int:
    import os

    text = os.environ.get("FORTIES_ISMCTS_SIMULATIONS", "")
    if text.isdigit() and int(text) > 0:
        return int(text)
    return ISMCTS_SIMULATIONS


class IsmctsBot:
    """OpenSpiel's information-set MCTS (random rollouts to the end of the hand) as a
    forties player: it maximizes its side's score change on the hand. Its search starts
    from worlds imagined afresh from its seat's knowledge (``imagine``), never from the
    real hidden cards; it is given the game (``needs_state``) to rebuild them."""

    name = "ismcts"
    needs_state = True

    def __init__(self, rng: random.Random, simulations: int | None = None) -> None:
        from open_spiel.python.algorithms import ismcts, mcts

        self.rng = random.Random(rng.getrandbits(64))
        self.simulations = simulations or _simulations()
        self._ismcts, self._mcts = ismcts, mcts
        self._bots: dict[str, Any] = {}

    def _bot(self, rules: Rules) -> Any:
        key = json.dumps(rules.to_json(), sort_keys=True)
        if key not in self._bots:
            game = pyspiel.load_game(short_name(rules.preset), {"hands": 1})
            nrng = np.random.RandomState(self.rng.getrandbits(32))
            evaluator = self._mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=nrng)
            scale = 10.0 if isinstance(rules, FortyFivesRules) else 3.0
            bot = self._ismcts.ISMCTSBot(game, evaluator, uct_c=scale,
                                         max_simulations=self.simulations, random_state=nrng)
            bot.set_resampler(lambda state, player: state.resample_from_infostate(
                player, None, self.rng))
            self._bots[key] = bot
        return self._bots[key]

    def choose_from_state(self, st: GameState) -> Action:
        bot = self._bot(st.rules)
        state = bot._game.new_initial_state()
        state.rules, state.enc, state.n = st.rules, Encoder(st.rules), st.n
        state.st = st.clone()
        state.deck = list(range(52))
        state.before = list(st.start_scores)
        i = int(bot.step(state))
        seat = st.turn
        assert seat is not None
        enc: Encoder = state.enc
        return enc.decode(i, seat, st.phase, st.hands[seat])

    def choose(self, view: dict[str, Any], legal: Sequence[Action]) -> Action:
        raise TypeError("ismcts plays from the game (choose_from_state)")


def games() -> Sequence[str]:
    """The short names of the registered games."""
    return [short_name(p) for p in PRESETS]
