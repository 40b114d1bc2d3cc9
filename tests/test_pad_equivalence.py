"""One set of rules: for random complete games of every preset and of random house rules,
played by the engine, entering each hand as the table saw it (the spectator's view at the
end of the hand) into the score pad gives the engine's scores after every hand, the same
games won, the same winner and the same end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from forties import GameState, Phase, Verb, new_game
from forties.actions import parse_bid
from forties.pad import Entry, Pad
from forties.rules import (
    OPTIONS,
    PRESETS,
    FortyFivesRules,
    FortyOneRules,
    Rules,
    RulesError,
    build_rules,
)

from .helpers_engine import ALL_CONFIGS, Config, config_id, rules_of

MAX_HANDS = 300


def entry_from_view(v: dict[str, Any]) -> Entry:
    """What a table knows at the end of a hand, from what a spectator was shown."""
    if v["game"] == "forty-one":
        bids = tuple(v["bids"])
        return Entry(bids=bids, tricks=tuple(v["taken"]) if v["tricks"] else ())
    if v["bidder"] is None and v["rules"] and v["trump"] is None:
        return Entry(thrown_in=True)
    return Entry(points=tuple(v["points"]), bidder=v["bidder"],
                 bid=parse_bid(v["bid"]) if v["bid"] else 0, partner=v["partner"],
                 trump=v["up_card"] or v["trump"])


def choose(state: GameState, rng: random.Random) -> Any:
    """A random legal action, bidding like a cautious table so that games end: in the
    Forty-Fives most players pass and nobody raises; in Forty One bids are of 2 to 4
    tricks."""
    legal = state.legal_actions()
    if state.phase is Phase.RAISE:
        return legal[0]
    if state.phase is Phase.AUCTION:
        if state.game == "forty-one":
            return legal[rng.randrange(1, 4)]
        if rng.random() < 0.7 and legal[0].verb is Verb.PASS:
            return legal[0]
        if len(legal) > 1:
            return legal[rng.randrange(1, min(3, len(legal)))]
    return legal[rng.randrange(len(legal))]


def play_and_keep_score(rules: Rules, seed: int) -> int:
    """Play one game at random; enter every hand into a pad and compare. Returns the
    number of hands."""
    rng = random.Random(seed)
    state: GameState = new_game(rules, seed=seed, first_dealer=seed % rules.players)
    pad = Pad(rules, first_dealer=state.first_dealer)
    for hand in range(1, MAX_HANDS + 1):
        assert pad.dealer == state.dealer
        while not state.hand_over:
            state.apply(choose(state, rng))
        row = pad.add(entry_from_view(state.view(None)))
        assert list(row.scores) == state.scores, (hand, row, state.scores)
        assert list(pad.games) == state.games
        assert pad.over == state.over
        if state.over:
            assert pad.winner == state.winner
            assert pad.result_text()
            return hand
        state.next_hand()
    assert not pad.over
    return MAX_HANDS


def shorter(rules: Rules) -> Rules:
    """The same rules to a lower target, so that games played at random end: 50 for the
    auctions (no lock at 100: games locked there go on and on; the presets' own test
    below plays it), 21 in Forty One."""
    base = rules.to_json()
    opts = dict(base.get("options", {}))
    if isinstance(rules, FortyOneRules):
        opts["target"] = min(rules.target, 21)
    elif isinstance(rules, FortyFivesRules) and rules.auction != "none":
        opts["target"] = min(rules.target, 50)
        opts["lock_at"] = None
        if rules.forty_five_resets:
            opts["target"] = 60
    return build_rules(base["preset"], opts)


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=[config_id(c) for c in ALL_CONFIGS])
def test_many_games(config: Config) -> None:
    """Every preset, player count, team layout and the tests' house-rule sets, to a lower
    target: 50 games each (1,450 games in all); most of them end."""
    rules = shorter(rules_of(config))
    hands = [play_and_keep_score(rules, seed * 7919 + len(config[1])) for seed in range(50)]
    assert sum(h < MAX_HANDS for h in hands) >= 35


def test_every_preset_to_its_own_target() -> None:
    """The presets as they are (lock at 100 included): a few games each, compared hand by
    hand (up to 300)."""
    ended = 0
    for preset in PRESETS:
        for seed in range(4):
            ended += play_and_keep_score(build_rules(preset), seed) < MAX_HANDS
    assert ended >= 8


# ----- random house rules --------------------------------------------------------------

TARGETS = (20, 30, 50, 60)


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    game = PRESETS[preset].game
    opts: dict[str, Any] = {}
    for spec in OPTIONS:
        if spec.game != game or not draw(st.booleans()):
            continue
        if spec.name == "target":
            opts["target"] = draw(st.sampled_from((5, 12, 21) if game == "forty-one"
                                                  else TARGETS))
        elif spec.values is None:
            lo, hi = spec.int_range or (1, 10)
            opts[spec.name] = draw(st.integers(lo, min(hi, lo + 10)))
        else:
            opts[spec.name] = draw(st.sampled_from(spec.values))
    if game != "forty-one":
        opts.setdefault("target", draw(st.sampled_from(TARGETS)))
        opts["lock_at"] = None  # the targets are under 100 (the presets' test plays it)
    try:
        return build_rules(preset, opts)
    except RulesError:  # a conflict: the preset to that target
        if game == "forty-one":
            return build_rules(preset, {"target": opts.get("target", 21)})
        return build_rules(preset, {"target": opts["target"], "lock_at": None})


@given(house_rules(), st.integers(0, 2**32))
def test_random_house_rules(rules: Rules, seed: int) -> None:
    for k in range(10):
        play_and_keep_score(rules, seed + k)
