"""VectorGame, the compiled many-table engine, plays exactly the rules of GameState.

The reference engine (``GameState`` and its games) is the source of truth. These tests
play both side by side from the same cards with random choices, one action at a time,
over every preset, every single house rule each preset accepts and seeded random
mixtures of several, and compare at every step the whole position (``snapshot``
against the state's attributes of the same names) and the legal actions, in order.
They check that the rare corners of the rules (robbing the pack, calling a partner,
going on the kitty and the top card, four and a flip, best-of-3 matches...) were
reached, so that a change which stops reaching them fails here; then the automatic
dealing, determinism, the shuffle's uniformity, the API's refusals, and that every
option of the rules reaches the kernel.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from forties import Deal, build_rules, new_game
from forties.actions import Action, Verb
from forties.cards import CARD_NAMES
from forties.rules import (
    FORTY_FIVES,
    FORTY_ONE,
    OPTIONS,
    FortyFivesRules,
    FortyOneRules,
    OptionSpec,
    Rules,
    RulesError,
    conflicts,
    option_specs,
)
from forties.state import GameState, IllegalActionError, Phase, shuffled_deck
from forties.vector import VectorGame, rules_vector
from forties.vector import kernel as k

PRESETS = ("merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one")
MAX_HANDS = 12  # a run deals at most this many hands (random play may never end a game)
FULL_LIST_MAX = 300  # longer legal lists are checked by sampled indices
SAMPLED = 4

COMMON_KEYS = {"phase", "turn", "hand_index", "dealer", "scores", "games", "over", "winner",
               "thrown_in", "hands", "trick_cards", "trick_no", "trick_leader", "taken"}
FORTY_FIVES_KEYS = COMMON_KEYS | {
    "trump", "bidder", "bid", "high", "high_bidder", "passed", "kitty", "kitty_taken",
    "pile", "faceup", "up_card", "robber", "robbed", "rob_given", "pack_taken", "called",
    "partner", "bonus_card", "points", "discarded", "on_green", "asked", "answer", "folded"}
FORTY_ONE_KEYS = COMMON_KEYS | {"bids"}


def stable_seed(*parts: object) -> int:
    """A seed from a test's name: the same on every run and in every worker."""
    return zlib.crc32(repr(parts).encode())


def game_of(preset: str) -> str:
    return FORTY_ONE if preset == "forty-one" else FORTY_FIVES


def option_values(spec: OptionSpec) -> list[Any]:
    """The values of an option worth playing: all of a choice, a spread of a number."""
    if spec.values is not None:
        return list(spec.values)
    spreads = {
        (FORTY_FIVES, "target"): [5, 30, 60, 10000],
        (FORTY_ONE, "target"): [1, 20, 10000],
        (FORTY_ONE, "min_total"): [4, 20, 52],
        (FORTY_ONE, "double_from"): [1, 4, 14],
    }
    return spreads[spec.game, spec.name]


def accepted(preset: str, options: dict[str, Any]) -> bool:
    """Whether the rules can be built and the vector engine plays them."""
    try:
        rules_vector(build_rules(preset, options))
    except RulesError:
        return False
    return True


# ----- the side-by-side player ----------------------------------------------------------


def reference_snapshot(state: GameState, keys: Sequence[str]) -> dict[str, Any]:
    """The reference state's attributes named ``keys``, as ``snapshot`` gives them."""
    out: dict[str, Any] = {}
    for key in keys:
        value = getattr(state, key)
        if key == "bids":  # Forty One: a bid not yet made is None there, 0 here
            value = [0 if b is None else b for b in value]
        out[key] = value
    return out


def assert_same_position(state: GameState, env: VectorGame, t: int, where: str) -> None:
    mine = env.snapshot(t)
    theirs = reference_snapshot(state, list(mine))
    if mine != theirs:
        diff = {key: (theirs[key], mine[key]) for key in mine if mine[key] != theirs[key]}
        history = " | ".join(str(a) for a in state.history)
        raise AssertionError(f"{where}: (reference, vector) differ: {diff}\n"
                             f"this hand: {history}")


def action_features(state: Any, action: Action) -> set[str]:
    """The rare corners of the rules that applying ``action`` to ``state`` reaches."""
    out = {f"verb:{action.verb.value}"}
    ph = state.phase
    if ph is Phase.TRUMP and action.verb is Verb.DISCARD:
        out.add("go-top-card" if state.went_on_kitty else "go-kitty")
    if ph is Phase.RAISE and action.verb is Verb.TRUMP:
        out.add("trump-from-raise")
    if ph is Phase.RAISE and action.verb is Verb.DISCARD:
        out |= {"go-kitty", "go-kitty-from-raise"}
    if (ph is Phase.DRAW and action.seat == state.dealer
            and state.rules.replenish == "by-threes"):
        sizes = [h.bit_count() for h in state.hands]
        sizes[action.seat] -= action.arg.bit_count()
        if min(sizes) <= 1:  # someone needs four or five: dealt in two rounds
            out.add("by-threes")
    return out


def state_features(state: Any) -> set[str]:
    """The rare corners of the rules that ``state`` is in."""
    out = {f"phase:{state.phase.value}"}
    if state.hand_over:
        out.add("hand-ended")
    flags = {"faceup": "faceup", "robbed": "robbed", "pack_taken": "pack-taken",
             "on_green": "on-green", "reopened": "reopened", "thrown_in": "thrown-in",
             "over": "game-won"}
    for attr, name in flags.items():
        if getattr(state, attr, False):
            out.add(name)
    if getattr(state, "partner", -1) >= 0:
        out.add("partner-found")
    if state.over and any(state.games):
        out.add("match-won")
    rules = state.rules
    if isinstance(rules, FortyOneRules):
        if state.hand_over and all(state.team_qualifies(t) for t in rules.teams):
            out.add("both-teams-qualify")
        return out
    if state.phase is Phase.DRAW and state._stock_tight:
        have = state.hands[state.turn].bit_count()
        keep = 0 if rules.four_and_a_flip else min(rules.keep_min, have)
        if state._discard_sizes(state.turn).stop - 1 < have - keep:
            out.add("stock-limited")
    if state.phase is Phase.AUCTION and state.min_bid_for(state.turn) > rules.min_bid:
        out.add("min-bid-raised")
    if rules.lock_at is not None and state.hand_over and any(
            s >= rules.lock_at for s in state.start_scores):
        out.add("locked")
    if (state.hand_over and state.on_green and state.over and not rules.call_partner
            and state.bidder is not None and state.winner != state.bidder % len(rules.sides)):
        out.add("green-fallen-off")  # a side fell off the green; a non-bidder went out
    return out


def choose(rng: random.Random, count: int) -> int:
    """A random index, leaning to both ends of the list: the first action is a pass or
    the smallest discard, the last the highest bid, the biggest discard or going on the
    kitty, where the rare corners lie."""
    x = rng.random()
    if x < 0.2:
        return 0
    if x < 0.4:
        return count - 1
    return rng.randrange(count)


def play_side_by_side(rules: Rules, seed: int, max_hands: int = MAX_HANDS) -> set[str]:
    """Play ``GameState`` and ``VectorGame(auto=False)`` from the same decks with the
    same random choices, comparing everything at every step; return what was reached.

    A game that ends is followed by a new one (its first dealer one seat on), until
    ``max_hands`` hands have been dealt.
    """
    n = rules.players
    state = new_game(rules, seed=seed)
    env = VectorGame(rules, 1, auto=False, decks=[shuffled_deck(seed, 0)])
    rng = random.Random(seed)
    seen: set[str] = set()
    hands = games = thrown = steps = 0
    while True:
        where = f"{rules.preset} {dict(rules.overrides)} seed {seed} step {steps}"
        assert_same_position(state, env, 0, where)
        seen |= state_features(state)
        if state.hand_over:
            assert env.legal_count(0) == 0 and env.legal_actions(0) == [], where
            assert int(env.legal_counts()[0]) == 0, where
            hands += 1
            thrown += state.thrown_in
            if hands >= max_hands:
                break
            if state.over:
                games += 1
                seen.add("next-game")
                game_seed = seed + 100_003 * games
                state = new_game(rules, seed=game_seed, first_dealer=(state.first_dealer + 1) % n)
                env.next_hand(0, shuffled_deck(game_seed, 0))
            else:
                if state.new_game_due:
                    seen.add("match-next-game")
                state.next_hand()
                assert state.seed is not None
                env.next_hand(0, shuffled_deck(state.seed, state.hand_index))
            assert (env.hands_played, env.hands_thrown_in, env.games_played) == (
                hands, thrown, games), where
            continue
        legal = state.legal_actions()
        count = env.legal_count(0)
        assert count == len(legal), f"{where}: {count} legal actions, reference {len(legal)}"
        assert int(env.legal_counts()[0]) == count, where
        choice = choose(rng, count)
        if count <= FULL_LIST_MAX:
            assert env.legal_actions(0) == list(legal), where
        else:
            seen.add("many-actions")
            for i in [choice, 0, count - 1, *rng.sample(range(count), SAMPLED)]:
                assert env.legal_action(0, i) == legal[i], f"{where}: action {i}"
        action = legal[choice]
        assert env.legal_action(0, choice) == action, where
        seen |= action_features(state, action)
        state.apply(action)
        if rng.random() < 0.5:
            env.step(np.array([choice], dtype=np.int64))
        else:
            env.apply(0, action)
        steps += 1
    return seen


# ----- 1. differential play, action by action -------------------------------------------

def expected_features(rules: Rules) -> set[str]:
    """What a few runs under ``rules`` must reach: each phase and corner its options
    open, where random play reaches it within a few hands."""
    out = {"hand-ended"}
    if isinstance(rules, FortyOneRules):
        out |= {"phase:auction", "verb:bid"}
        if rules.min_total <= 30:  # 13 tricks to bid each: play is all but certain
            out |= {"phase:play", "verb:play"}
        if rules.min_total >= 20:
            out.add("thrown-in")
        return out
    out |= {"phase:play", "verb:play"}
    assert isinstance(rules, FortyFivesRules)
    if rules.auction == "none":
        if rules.robbing:
            out |= {"phase:rob", "robbed"}
    else:
        out |= {"phase:auction", "phase:trump", "phase:draw", "verb:bid"}
        opened = {
            "phase:rob-pack": rules.dealer_robs_pack,
            "pack-taken": rules.dealer_robs_pack,
            "go-kitty": rules.go_on_kitty,
            "go-top-card": rules.go_on_top_card,
            "faceup": rules.four_and_a_flip,
            # someone needs four or five cards only if he may keep fewer than two
            "by-threes": rules.replenish == "by-threes" and (
                rules.keep_min < 2 or rules.four_and_a_flip),
            "verb:hold": rules.dealer_may_hold,
            "reopened": rules.auction == "hold-reopens",
            "phase:call": rules.call_partner,
            "partner-found": rules.call_partner,
            "phase:booked": rules.booked,
            "verb:ask": rules.booked,  # (and its answer: told yes, fold or stay, below)
            "phase:answer": rules.booked,
        }
        out |= {name for name, on in opened.items() if on}
    if rules.target <= 30:
        out |= {"game-won", "next-game"}
        if rules.match == "best-of-3":
            out |= {"match-next-game", "match-won"}
    return out


GAMES_PER_VALUE = 3
GAMES_PER_DEFAULT = 8


def single_option_cases() -> list[tuple[str, str, list[Any]]]:
    """(preset, option, the values other than the preset's own that it accepts)."""
    cases = []
    for preset in PRESETS:
        base = build_rules(preset)
        for spec in option_specs(game_of(preset)).values():
            values = [v for v in option_values(spec)
                      if v != getattr(base, spec.name) and accepted(preset, {spec.name: v})]
            if values:
                cases.append((preset, spec.name, values))
    return cases


SINGLE_CASES = single_option_cases()


@pytest.mark.parametrize("preset", PRESETS)
def test_each_preset_plays_like_the_reference(preset: str) -> None:
    rules = build_rules(preset)
    seen: set[str] = set()
    for g in range(GAMES_PER_DEFAULT):
        seen |= play_side_by_side(rules, stable_seed(preset, g))
    missing = expected_features(rules) - seen
    assert not missing, f"{preset}: never reached {sorted(missing)}"


@pytest.mark.parametrize(("preset", "option", "values"), SINGLE_CASES,
                         ids=[f"{p}-{o}" for p, o, _ in SINGLE_CASES])
def test_each_option_plays_like_the_reference(preset: str, option: str,
                                              values: list[Any]) -> None:
    for value in values:
        rules = build_rules(preset, {option: value})
        seen: set[str] = set()
        for g in range(GAMES_PER_VALUE):
            seen |= play_side_by_side(rules, stable_seed(preset, option, value, g))
        missing = expected_features(rules) - seen
        assert not missing, f"{preset} {option}={value}: never reached {sorted(missing)}"


def mixed_option_cases(per_preset: int, chunks: int) -> list[tuple[str, int, list[dict[str, Any]]]]:
    """Seeded random mixtures of several options per preset (those build_rules accepts),
    in ``chunks`` groups per preset."""
    out = []
    for preset in PRESETS:
        specs = list(option_specs(game_of(preset)).values())
        rng = random.Random(f"mixtures of {preset}")
        found: list[dict[str, Any]] = []
        while len(found) < per_preset:
            picked = rng.sample(specs, min(len(specs), rng.randint(2, 7)))
            options = {s.name: rng.choice(option_values(s)) for s in picked}
            if accepted(preset, options):
                found.append(options)
        for c in range(chunks):
            out.append((preset, c, found[c::chunks]))
    return out


MIXED_CASES = mixed_option_cases(per_preset=40, chunks=4)


@pytest.mark.parametrize(("preset", "chunk", "mixtures"), MIXED_CASES,
                         ids=[f"{p}-{c}" for p, c, _ in MIXED_CASES])
def test_mixed_options_play_like_the_reference(preset: str, chunk: int,
                                               mixtures: list[dict[str, Any]]) -> None:
    for i, options in enumerate(mixtures):
        rules = build_rules(preset, options)
        seen: set[str] = set()
        # two games, and up to four more while a corner the options open is not reached
        for g in range(6):
            seen |= play_side_by_side(rules, stable_seed(preset, chunk, i, g))
            if g >= 1 and not expected_features(rules) - seen:
                break
        missing = expected_features(rules) - seen
        assert not missing, f"{preset} {options}: never reached {sorted(missing)}"


# Each rare corner, and a rule set that reaches it within a few runs.
RARE_CORNERS: dict[str, tuple[str, dict[str, Any]]] = {
    "phase:rob-pack": ("merrimack-valley", {"dealer_robs_pack": True}),
    "pack-taken": ("auction-45", {"dealer_robs_pack": True}),
    "phase:rob": ("nova-scotia", {}),
    "robbed": ("nova-scotia", {"players": 6}),
    "phase:call": ("call-your-partner", {}),
    "partner-found": ("call-your-partner", {"replenish": "all-at-once"}),
    "phase:raise": ("auction-45", {}),
    "trump-from-raise": ("auction-45", {}),
    "stock-limited": ("merrimack-valley", {"players": 6, "four_and_a_flip": True}),
    "go-kitty-from-raise": ("auction-45", {"go_on_kitty": True}),
    "go-kitty": ("merrimack-valley", {"go_on_kitty": True}),
    "go-top-card": ("merrimack-valley", {"go_on_kitty": True, "go_on_top_card": True}),
    "faceup": ("auction-45", {"four_and_a_flip": True}),
    "by-threes": ("auction-45", {}),
    "match-next-game": ("merrimack-valley", {"match": "best-of-3", "target": 20}),
    "match-won": ("nova-scotia", {"match": "best-of-3"}),
    "game-won": ("merrimack-valley", {"target": 20}),
    "next-game": ("forty-one", {"target": 1, "partner_positive": False}),
    "thrown-in": ("auction-45", {"players": 2}),
    "reopened": ("merrimack-valley", {"auction": "hold-reopens", "dealer_may_hold": True}),
    "on-green": ("merrimack-valley", {"end": "must-bid-on-green", "players": 3, "target": 31}),
    "green-fallen-off": ("merrimack-valley", {"end": "must-bid-on-green", "target": 20}),
    "many-actions": ("merrimack-valley", {"kitty": 4}),
    "verb:hold": ("auction-45", {}),
    "verb:bid": ("forty-one", {}),
    "both-teams-qualify": ("forty-one", {"target": 1, "partner_positive": False,
                                         "tie": "team-total"}),
    "min-bid-raised": ("merrimack-valley", {"min_bid_at_100": 20, "bid_30_for_60": True,
                                            "bid_60_for_120": True, "target": 10000}),
    "locked": ("merrimack-valley", {"lock_at": 100, "target": 10000, "players": 2}),
}


@pytest.mark.parametrize("feature", sorted(RARE_CORNERS))
def test_rare_corners_are_reached(feature: str) -> None:
    """Each rare corner of the rules is played side by side at least once."""
    preset, options = RARE_CORNERS[feature]
    rules = build_rules(preset, options)
    seen: set[str] = set()
    for g in range(10):
        seen |= play_side_by_side(rules, stable_seed("corner", feature, g))
        if feature in seen:
            return
    pytest.fail(f"{feature} never reached with {preset} {options}")


def test_snapshot_names_every_compared_attribute() -> None:
    """The comparison covers the whole position: the snapshot has all these keys."""
    for preset in PRESETS:
        env = VectorGame(build_rules(preset), 1, seed=1)
        keys = FORTY_ONE_KEYS if preset == "forty-one" else FORTY_FIVES_KEYS
        assert set(env.snapshot(0)) == keys, preset


# ----- 2. automatic dealing against the reference ---------------------------------------

AUTO_CASES: list[tuple[str, dict[str, Any], int, int]] = [
    # preset, options, first dealer, steps
    ("nova-scotia", {}, 0, 1500),
    ("merrimack-valley", {"match": "best-of-3", "target": 30}, 1, 1500),
    ("forty-one", {"target": 1, "partner_positive": False}, 3, 1500),
    ("call-your-partner", {"target": 40, "lock_at": None}, 2, 800),
]


@pytest.mark.parametrize(("preset", "options", "first_dealer", "steps"), AUTO_CASES,
                         ids=[c[0] for c in AUTO_CASES])
def test_auto_mode_deals_like_the_reference(preset: str, options: dict[str, Any],
                                            first_dealer: int, steps: int) -> None:
    """With ``auto=True`` a table deals its own next hand (dealer one seat on) and a new
    game once its game is over (its first dealer one seat on); the reference is dealt
    the same cards, read from ``env.D``, and must agree at every step."""
    rules = build_rules(preset, options)
    n, tables = rules.players, 3
    seed = stable_seed("auto", preset)
    env = VectorGame(rules, tables, seed=seed, auto=True, first_dealer=first_dealer)
    proto = new_game(rules, seed=0)

    def deal(t: int) -> Any:
        return proto.deal_from_deck([int(c) for c in env.D[t]])

    refs = [new_game(rules, first_dealer=first_dealer, deal=deal(t)) for t in range(tables)]
    rng = random.Random(seed)
    hands = thrown = games = matches_on = 0
    for step in range(steps):
        legal = [ref.legal_actions() for ref in refs]
        counts = env.legal_counts().tolist()
        assert counts == [len(x) for x in legal], f"step {step}"
        choices = [rng.randrange(c) for c in counts]
        actions = [legal[t][c] for t, c in enumerate(choices)]
        assert [env.legal_action(t, c) for t, c in enumerate(choices)] == actions
        before = env.S[:, [k.F_HANDS_DONE, k.F_THROWN_DONE, k.F_GAMES_DONE]].copy()
        if rng.random() < 0.25:  # one table at a time: apply deals on as step does
            for t in range(tables):
                env.apply(t, actions[t])
        else:
            env.step(choices)
        after = env.S[:, [k.F_HANDS_DONE, k.F_THROWN_DONE, k.F_GAMES_DONE]]
        for t in range(tables):
            ref = refs[t]
            ref.apply(actions[t])
            ended, was_thrown, game_ended = (int(x) for x in after[t] - before[t])
            where = f"{preset} table {t} step {step}"
            assert (ended, was_thrown, game_ended) == (
                ref.hand_over, ref.hand_over and ref.thrown_in, ref.over), where
            if ended:
                hands += 1
                thrown += ref.thrown_in
                if ref.over:
                    games += 1
                    refs[t] = new_game(rules, first_dealer=(ref.first_dealer + 1) % n,
                                       deal=deal(t))
                else:
                    matches_on += ref.new_game_due
                    ref.next_hand(deal(t))
            assert_same_position(refs[t], env, t, where)
    assert (env.hands_played, env.hands_thrown_in, env.games_played) == (hands, thrown, games)
    assert hands > tables and games > 0, f"{preset}: {hands} hands, {games} games"
    if getattr(rules, "match", "single") == "best-of-3":
        assert matches_on > 0, "no second game of a match was reached"


def test_auto_false_waits_for_the_deal() -> None:
    """Without ``auto`` a finished table has no legal action, ``step`` leaves it alone
    while the others play, and ``next_hand(t)`` with no deck deals from its generator."""
    rules = build_rules("merrimack-valley")
    env = VectorGame(rules, 2, seed=3, auto=False)
    rng = random.Random(3)
    while env.legal_count(0):  # table 0 plays its hand alone
        env.apply(0, env.legal_action(0, rng.randrange(env.legal_count(0))))
    assert env.snapshot(0)["phase"] in (Phase.HAND_OVER, Phase.GAME_OVER)
    waiting = env.S[0].copy()
    stepped = 0
    while env.legal_count(1) and stepped < 10:
        counts = env.legal_counts()
        assert counts[0] == 0
        env.step([-1, rng.randrange(int(counts[1]))])  # a waiting table's choice is unused
        assert np.array_equal(env.S[0], waiting)
        stepped += 1
    assert stepped > 0 and env.hands_played == 0
    env.next_hand(0)
    snap = env.snapshot(0)
    assert (snap["hand_index"], snap["dealer"], snap["phase"]) == (1, 1, Phase.AUCTION)
    assert env.hands_played == 1 and sorted(env.D[0].tolist()) == list(range(52))


# ----- 3. determinism and the shuffle ----------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_same_seed_same_play(preset: str) -> None:
    rules = build_rules(preset)
    a, b, c = (VectorGame(rules, 16, seed=s) for s in (7, 7, 8))
    for env in (a, b, c):
        env.play_random(400)
    assert np.array_equal(a.S, b.S) and np.array_equal(a.D, b.D)
    assert not np.array_equal(a.S, c.S) and not np.array_equal(a.D, c.D)
    assert a.hands_played > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_counters_grow_sensibly(preset: str) -> None:
    rules = build_rules(preset)
    env = VectorGame(rules, 32, seed=11)
    assert (env.hands_played, env.hands_thrown_in, env.games_played) == (0, 0, 0)
    last = (0, 0, 0)
    for _ in range(6):
        env.play_random(500)
        now = (env.hands_played, env.hands_thrown_in, env.games_played)
        assert all(x >= y for x, y in zip(now, last, strict=True)), (now, last)
        assert now[1] <= now[0] and now[2] <= now[0]
        last = now
    hands, thrown, games = last
    assert hands > 32
    if preset == "merrimack-valley":  # the dealer is bagged: no hand is ever thrown in
        assert thrown == 0
    if preset in ("auction-45", "forty-one"):  # everyone may pass / bid low
        assert 0 < thrown < hands
    if preset == "nova-scotia":  # first to 45, five points a trick: games end quickly
        assert games > 0


def test_every_hand_thrown_in_is_counted() -> None:
    rules = build_rules("forty-one", {"min_total": 52})  # bids never total 52
    env = VectorGame(rules, 8, seed=2)
    env.play_random(200)
    assert env.hands_played > 0 and env.hands_thrown_in == env.hands_played
    assert env.games_played == 0


def chi_square_by_position(decks: np.ndarray, positions: Sequence[int]) -> list[float]:
    """For each position, the chi-square statistic of the 52 cards' counts there against
    a uniform spread (51 degrees of freedom)."""
    expected = len(decks) / 52
    out = []
    for p in positions:
        counts = np.bincount(decks[:, p], minlength=52)
        out.append(float(((counts - expected) ** 2 / expected).sum()))
    return out


# Chi-square with 51 degrees of freedom exceeds 115 with probability about 1e-6. A
# shuffle drawing j from 0..i-1 (Sattolo's) never leaves a card where it started, so
# each position misses one card entirely: that alone adds N/52 (150 here) to the
# statistic, which then lands near 200.
CHI_SQUARE_LIMIT = 115.0
SHUFFLE_TABLES = 8000
POSITIONS = (0, 1, 20, 37, 51)


def test_chi_square_check_rejects_a_shuffle_without_fixed_points() -> None:
    """The check below can fail: Sattolo's biased shuffle fails it."""
    rng = random.Random(5)
    decks = np.empty((SHUFFLE_TABLES, 52), dtype=np.int64)
    for row in range(SHUFFLE_TABLES):
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = rng.randrange(i)
            deck[i], deck[j] = deck[j], deck[i]
        decks[row] = deck
    assert all(x > CHI_SQUARE_LIMIT for x in chi_square_by_position(decks, POSITIONS))


def test_shuffle_is_uniform() -> None:
    """Each card is equally likely at each position: in the first deals of many tables,
    and in their later deals (each table's generator, run on)."""
    env = VectorGame(build_rules("forty-one"), SHUFFLE_TABLES, seed=12345)
    first = env.D.copy()
    assert all(sorted(row) == list(range(52)) for row in first.tolist())
    assert all(x < CHI_SQUARE_LIMIT for x in chi_square_by_position(first, POSITIONS)), (
        chi_square_by_position(first, POSITIONS))
    env.play_random(60)  # a Forty One hand takes at most 56 actions
    assert np.all(env.S[:, k.F_HANDS_DONE] >= 1)
    later = env.D.copy()
    stats = chi_square_by_position(later, POSITIONS)
    assert all(x < CHI_SQUARE_LIMIT for x in stats), stats
    assert len({row.tobytes() for row in later}) == SHUFFLE_TABLES


# ----- 4. refusals -----------------------------------------------------------------------


@pytest.fixture
def env() -> VectorGame:
    return VectorGame(build_rules("merrimack-valley"), 3, seed=4)


def unchanged(env: VectorGame) -> tuple[np.ndarray, np.ndarray]:
    return env.S.copy(), env.D.copy()


def assert_unchanged(env: VectorGame, saved: tuple[np.ndarray, np.ndarray]) -> None:
    assert np.array_equal(env.S, saved[0]) and np.array_equal(env.D, saved[1])


@pytest.mark.parametrize("tables", [0, -1, 1.5, "2", True, None])
def test_tables_must_be_a_positive_int(tables: Any) -> None:
    with pytest.raises(ValueError, match="tables"):
        VectorGame(build_rules("merrimack-valley"), tables)


@pytest.mark.parametrize(("preset", "dealer"), [("merrimack-valley", -1),
                                                ("merrimack-valley", 4),
                                                ("call-your-partner", 5),
                                                ("forty-one", 4)])
def test_first_dealer_must_be_a_seat(preset: str, dealer: int) -> None:
    with pytest.raises(ValueError, match="first dealer"):
        VectorGame(build_rules(preset), 2, first_dealer=dealer)


def test_decks_must_be_one_permutation_per_table() -> None:
    rules = build_rules("merrimack-valley")
    good = list(range(52))
    with pytest.raises(ValueError, match="decks"):
        VectorGame(rules, 2, auto=False, decks=[good])
    with pytest.raises(ValueError, match="decks"):
        VectorGame(rules, 1, auto=False, decks=[good, good])
    for bad in (good[:51], [*good, 0], [0, *good[:51]], [*good[:51], 52], [*good[1:], -1]):
        with pytest.raises(ValueError, match="deck"):
            VectorGame(rules, 1, auto=False, decks=[bad])


def test_step_needs_one_choice_per_table(env: VectorGame) -> None:
    saved = unchanged(env)
    for bad in ([0, 0], [0, 0, 0, 0], [[0, 0, 0]], np.zeros((3, 1), dtype=np.int64)):
        with pytest.raises(ValueError, match="3 choices"):
            env.step(bad)
        assert_unchanged(env, saved)


@pytest.mark.parametrize("bad_table", [0, 1, 2])
def test_step_refuses_an_out_of_range_choice_and_changes_nothing(env: VectorGame,
                                                                 bad_table: int) -> None:
    env.play_random(7)
    saved = unchanged(env)
    counts = env.legal_counts().copy()
    for bad in (int(counts[bad_table]), -1, 10**6):
        choices = [0, 0, 0]
        choices[bad_table] = bad
        with pytest.raises(ValueError, match=f"table {bad_table}"):
            env.step(choices)
        assert_unchanged(env, saved)


def test_apply_refuses_an_illegal_action_and_changes_nothing(env: VectorGame) -> None:
    saved = unchanged(env)
    turn = env.snapshot(0)["turn"]
    other = (turn + 1) % 4
    for bad in (Action(other, Verb.PASS), Action(turn, Verb.BID, 35), Action(turn, Verb.HOLD),
                Action(turn, Verb.PLAY, 1), f"{other} pass", f"{turn} bid 10"):
        with pytest.raises(IllegalActionError):
            env.apply(0, bad)
        assert_unchanged(env, saved)


def test_apply_reads_action_text_like_the_reference() -> None:
    rules = build_rules("merrimack-valley")
    state = new_game(rules, seed=9)
    env = VectorGame(rules, 1, auto=False, decks=[shuffled_deck(9, 0)])
    first = state.turn
    for text in (f"{first} pass", f"{(first + 1) % 4} bid 20", f"{(first + 2) % 4} pass"):
        state.apply(text)
        env.apply(0, text)
        assert_same_position(state, env, 0, text)
    assert env.snapshot(0)["high"] == 20 and env.snapshot(0)["passed"] == (
        1 << first | 1 << (first + 2) % 4)


def test_next_hand_only_when_the_hand_is_over() -> None:
    env = VectorGame(build_rules("nova-scotia"), 2, seed=1, auto=False)
    saved = unchanged(env)
    with pytest.raises(ValueError, match="table 1: the hand is not over"):
        env.next_hand(1, list(range(52)))
    with pytest.raises(ValueError, match="not over"):
        env.next_hand(0)
    assert_unchanged(env, saved)
    rng = random.Random(1)
    while env.legal_count(0):
        env.apply(0, env.legal_action(0, rng.randrange(env.legal_count(0))))
    saved = unchanged(env)
    with pytest.raises(ValueError, match="deck"):
        env.next_hand(0, [1, 2, 3])
    assert_unchanged(env, saved)
    env.next_hand(0, list(range(52)))  # the same game: a hand is worth 30 of the 45 at most
    assert env.snapshot(0)["hand_index"] == 1 and env.hands_played == 1


@pytest.mark.parametrize("bad", [3, -1, 10, True, 1.0, "0"])
def test_a_table_that_is_not_there(env: VectorGame, bad: Any) -> None:
    saved = unchanged(env)
    calls = (lambda: env.legal_actions(bad), lambda: env.legal_count(bad),
             lambda: env.legal_action(bad, 0), lambda: env.snapshot(bad),
             lambda: env.apply(bad, "1 pass"), lambda: env.next_hand(bad))
    for call in calls:
        with pytest.raises(IndexError, match="no table"):
            call()
    assert_unchanged(env, saved)


def test_legal_action_index_out_of_range(env: VectorGame) -> None:
    n = env.legal_count(1)
    for bad in (n, -1):
        with pytest.raises(IndexError, match="legal actions"):
            env.legal_action(1, bad)


# ----- 5. every option reaches the kernel ------------------------------------------------

# Fields of the rules that are not options the kernel could read, with the reason.
NOT_KERNEL_FIELDS = {
    "preset": "the name of the preset the values came from; the values themselves are read",
    "overrides": "the record of which values differ from the preset; the values are read",
}


def rule_bases() -> list[Rules]:
    """Rule sets to vary one field at a time: every preset, and a few player counts."""
    bases = [build_rules(p) for p in PRESETS]
    bases += [build_rules("merrimack-valley", {"players": p}) for p in (2, 3, 5, 6)]
    bases.append(build_rules("auction-45", {"bid_30_for_60": True}))  # for bid_60_for_120
    bases.append(build_rules("merrimack-valley", {"go_on_kitty": True}))  # for go_on_top_card
    return bases


@pytest.mark.parametrize("rules_class", [FortyFivesRules, FortyOneRules],
                         ids=["forty-fives", "forty-one"])
def test_rules_vector_reads_every_field(rules_class: type[Rules]) -> None:
    """Two playable rule sets that differ in one field only give different vectors, for
    every field: a new option the kernel ignores fails here."""
    game = FORTY_ONE if rules_class is FortyOneRules else FORTY_FIVES
    specs = option_specs(game)
    bases = [r for r in rule_bases() if type(r) is rules_class]
    for f in dataclasses.fields(rules_class):
        if f.name in NOT_KERNEL_FIELDS:
            continue
        assert f.name in specs, f"field {f.name} is no option of {game}"
        compared = 0
        for base in bases:
            vectors = {}
            for value in option_values(specs[f.name]):
                varied = dataclasses.replace(base, **{f.name: value})
                if not conflicts(varied) and varied.players <= k.MAX_SEATS:
                    vectors[value] = rules_vector(varied)
            for (v1, r1), (v2, r2) in itertools.combinations(vectors.items(), 2):
                assert not np.array_equal(r1, r2), (
                    f"{f.name}={v1!r} and {f.name}={v2!r} give the same rules vector "
                    f"(from {base.preset} {dict(base.overrides)})")
                compared += 1
        assert compared, f"{f.name}: no two playable values to compare"


def test_options_and_fields_agree() -> None:
    """Every option declared is a field of its game's rules (so the test above sees it)."""
    for spec in OPTIONS:
        cls = FortyOneRules if spec.game == FORTY_ONE else FortyFivesRules
        assert spec.name in {f.name for f in dataclasses.fields(cls)}, spec.name


def test_rules_that_cannot_be_played_are_refused() -> None:
    """A Rules value made around ``build_rules`` with a conflict never reaches the kernel."""
    mv = build_rules("merrimack-valley")
    for bad in (dataclasses.replace(mv, players=5),  # pairs need four
                dataclasses.replace(mv, go_on_top_card=True),  # without go_on_kitty
                dataclasses.replace(build_rules("forty-one"), double_from=0)):
        assert conflicts(bad)
        with pytest.raises(RulesError):
            rules_vector(bad)
        with pytest.raises(RulesError):
            VectorGame(bad, 2)


def test_the_module_example_runs() -> None:
    import doctest

    import forties.vector

    failures, tried = doctest.testmod(forties.vector)
    assert tried >= 6 and failures == 0


@pytest.mark.parametrize("players", [7, 8, 9, 10])
def test_every_player_count_the_engine_deals_is_played(players: int) -> None:
    """The engine deals up to ten; the compiled tables hold ten seats and play them as
    the reference does (the options' cases play them too: players is one)."""
    rules = build_rules("nova-scotia", {"players": players})
    assert any(o == "players" and players in v for p, o, v in SINGLE_CASES)
    seen: set[str] = set()
    for g in range(3):
        seen |= play_side_by_side(rules, stable_seed("players", players, g))
    assert "phase:play" in seen


# ----- 6. "booked?" from a fixed deal: every answer and what follows it -------------------

# Dealer seat 3; seat 0 bids 15, names spades and throws the kitty back: seat 1 holds only
# spades (booked), seat 3 does not (as tests/test_booked.py).
BOOKED_HANDS = [["AH", "2S", "KD", "9C", "3H"], ["5S", "JS", "AS", "KS", "QS"],
                ["4D", "5C", "6H", "TD", "7C"], ["9S", "8D", "TC", "2H", "JD"]]
BOOKED_KITTY = ["2C", "3C", "4C"]
TO_THE_QUESTION = ["0 bid 15", "1 pass", "2 pass", "3 pass", "0 trump S",
                   "0 discard 2C 3C 4C", "1 discard", "2 discard", "3 discard"]


def play_booked_deal(options: dict[str, Any], script: list[str], scores: list[int],
                     seed: int) -> GameState:
    """Play the fixed deal side by side: ``script``, then random legal actions to the end
    of the hand, comparing the position and the legal actions at every step. ``scores``
    are the sides' scores set on both before the hand's first action."""
    rules = build_rules("merrimack-valley", {"booked": True, **options})
    names = [c for h in BOOKED_HANDS for c in h] + BOOKED_KITTY
    stock = [c for c in CARD_NAMES if c not in names]
    deal = Deal.from_json({"hands": BOOKED_HANDS, "kitty": BOOKED_KITTY, "stock": stock})
    state = new_game(rules, first_dealer=3, deal=deal)
    env = VectorGame(rules, 1, auto=False, first_dealer=3,
                     decks=[[CARD_NAMES.index(c) for c in names + stock]])
    for x, v in enumerate(scores):
        state.scores[x] = v
        env.S[0, k.F_SCORES + x] = v
    rng = random.Random(seed)
    step = 0
    while True:
        where = f"booked {options} {script} step {step}"
        assert_same_position(state, env, 0, where)
        if state.hand_over:
            return state
        legal = list(state.legal_actions())
        assert env.legal_actions(0) == legal, where
        action = Action.parse(script[step]) if step < len(script) else rng.choice(legal)
        state.apply(action)
        env.apply(0, action)
        step += 1


@pytest.mark.parametrize(("ending", "options", "scores", "after"), [
    (["0 pass"], {}, [0, 0], [0, 0]),  # not asking: the play
    (["0 ask 3", "3 answer no"], {}, [0, 0], None),  # told no: the play
    (["0 ask 1", "1 answer yes", "0 stay"], {}, [0, 0], None),  # told yes, stays
    (["0 ask 1", "1 answer yes", "0 fold"], {}, [10, 20], [-5, 20]),  # folds: down 15
    (["0 ask 1", "1 answer yes", "0 fold"], {"forty_five_resets": True}, [60, 0], [0, 0]),
], ids=["pass", "answer-no", "stay", "fold", "fold-to-45-resets"])
def test_booked_plays_like_the_reference(ending: list[str], options: dict[str, Any],
                                         scores: list[int], after: list[int] | None) -> None:
    """Asking, the answer (only the truth is legal), folding and staying: the compiled
    engine's position and legal actions equal GameState's at every step of the hand."""
    state = play_booked_deal(options, TO_THE_QUESTION + ending, scores, seed=len(ending))
    assert state.folded == (ending[-1] == "0 fold")
    if after is not None and state.folded:
        assert state.scores == after


def test_booked_reaches_the_kernel_and_the_random_player_plays_it() -> None:
    """``play_random`` (the compiled loop) passes through the "booked?" phases and ends
    hands on a fold as on a last trick."""
    rules = build_rules("merrimack-valley", {"booked": True})
    env = VectorGame(rules, 64, seed=5)
    assert env.R[k.R_BOOKED] == 1
    seen = set()
    for _ in range(400):
        env.play_random(1)
        seen |= set(env.S[:, k.F_PHASE].tolist())
    assert {k.BOOKED, k.ANSWER} <= seen
    assert env.hands_played > 0


def test_the_engine_and_what_calls_it_at_every_step_count_no_references() -> None:
    """Every compiled function of the engine, of the environments' kernels and of the
    compiled basic player is compiled without numba's reference counting: none makes an
    array, and with the counting each call that passes a table's arrays counted references
    to them, three quarters of a random step's time (docs/lab-notes.md, "The compiled
    engine without reference counting")."""
    from numba.core.registry import CPUDispatcher

    from forties.bots import basic_kernel
    from forties.envs import kernels as env_kernels

    for module in (k, env_kernels, basic_kernel):
        compiled = [f for f in vars(module).values()
                    if isinstance(f, CPUDispatcher) and f.py_func.__module__ == module.__name__]
        assert len(compiled) > 10, module.__name__
        counting = [f.py_func.__name__ for f in compiled if f.targetoptions.get("_nrt", True)]
        assert counting == [], f"{module.__name__}: {counting}"
