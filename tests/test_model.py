"""The search against a model of the opponents (``bots.model``, the level ``expert-model``)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties import build_rules, new_game
from forties.bots.basic import BasicBot
from forties.bots.expert import ExpertBot
from forties.bots.model import MODEL_CARDS, ModelJudge, applies, model_outcomes
from forties.fortyfives import FortyFivesState
from forties.players import make_bot
from forties.state import Phase


def _late_positions(preset: str, count: int, seed: int, held: int,
                    options: dict[str, Any] | None = None, wild: float = 0.0
                    ) -> list[FortyFivesState]:
    """Hands of ``basic`` against itself stopped at a card of the trick in which each
    seat starts with ``held`` cards; with ``wild``, that share of the cards played at
    random instead (positions ``basic`` alone would not reach)."""
    rng = random.Random(seed)
    out = []
    bot = BasicBot()
    rules = build_rules(preset, options or {})
    for i in range(count * 3):
        g = new_game(rules, seed=seed * 1000 + i)
        assert isinstance(g, FortyFivesState)
        stop = rng.randrange(4 * (5 - held), 4 * (5 - held) + 4)
        played = 0
        while not g.hand_over and not (g.phase is Phase.PLAY and played == stop):
            played += g.phase is Phase.PLAY
            s = g.turn
            assert s is not None
            legal = g.legal_actions()
            wild_card = g.phase is Phase.PLAY and rng.random() < wild
            g.apply(rng.choice(legal) if wild_card else bot.choose(g.view(s), legal))
        if not g.hand_over and applies(g):
            out.append(g)
        if len(out) == count:
            break
    return out


def _engine_best(st: FortyFivesState, side: int, basic: BasicBot) -> list[int]:
    """The same search on the engine itself: the opponents of ``side`` play what ``basic``
    chooses from its own view, ``side`` every card in turn, keeping its best."""
    if st.hand_over:
        return list(st.points)
    seat = st.turn
    assert seat is not None
    legal = st.legal_actions()
    if st.side_of[seat] != side:
        c = st.clone()
        c.apply(basic.choose(st.view(seat), legal))
        return _engine_best(c, side, basic)  # type: ignore[arg-type]
    best: list[int] | None = None
    for a in legal:
        c = st.clone()
        c.apply(a)
        got = _engine_best(c, side, basic)  # type: ignore[arg-type]
        if best is None or got[side] > best[side]:
            best = got
    assert best is not None
    return best


@pytest.mark.parametrize(("preset", "held", "count", "options"), [
    ("merrimack-valley", 3, 60, {}), ("auction-45", 3, 60, {}),
    ("merrimack-valley", 2, 40, {}), ("merrimack-valley", 4, 6, {}), ("auction-45", 4, 6, {}),
    ("merrimack-valley", 3, 150, {"hearts_on_hearts": True}),
    ("merrimack-valley", 3, 40, {"renege": "none"}),
    ("merrimack-valley", 3, 40, {"renege": "five-only", "follow": "suit-or-trump"}),
    ("auction-45", 3, 40, {"hearts_on_hearts": True, "renege": "five-only"}),
    ("nova-scotia", 3, 40, {"auction": "open", "robbing": False, "hearts_on_hearts": True})],
    ids=lambda x: ",".join(f"{k}={v}" for k, v in x.items()) if isinstance(x, dict) else None)
def test_the_model_search_agrees_with_the_engine_and_basic_itself(
        preset: str, held: int, count: int, options: dict[str, Any]) -> None:
    """Every card's outcome equals a search on the engine's own state in which each
    opponent plays what ``BasicBot`` chooses from its view: the rules, the bonus card and
    the rule's inputs (cards played, the bidding side) are read as the engine has them,
    with the house rules of following (hearts on hearts, reneging, suit or trump), from
    positions reached partly by random cards."""
    basic = BasicBot()
    positions = _late_positions(preset, count, 3, held, options, wild=0.4)
    assert len(positions) == count
    differ = 0
    for g in positions:
        assert g.turn is not None and g.hands[g.turn].bit_count() <= held
        got = model_outcomes(g)
        assert g.turn is not None
        side = g.side_of[g.turn]
        for a, pts in got.items():
            c = g.clone()
            assert isinstance(c, FortyFivesState)
            c.apply(a)
            assert pts == _engine_best(c, side, basic), a
        solved = ModelJudge().base.play_outcomes(g)
        differ += any(solved[a][side] != got[a][side] for a in got)
    if held >= 3 and count >= 40:  # the model is not the solver's perfect defence
        assert differ > 0


def test_the_model_judge_leaves_a_seat_holding_more_cards_to_the_solver() -> None:
    g = new_game("merrimack-valley", seed=4)
    assert isinstance(g, FortyFivesState)
    bot = BasicBot()
    while g.phase is not Phase.PLAY:
        assert g.turn is not None
        g.apply(bot.choose(g.view(g.turn), g.legal_actions()))
    assert g.turn is not None and g.hands[g.turn].bit_count() == 5 == MODEL_CARDS
    judge = ModelJudge(cards=4)
    assert judge.play_outcomes(g) == judge.base.play_outcomes(g)
    assert ModelJudge().play_outcomes(g) == model_outcomes(g)


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45", "call-your-partner"])
def test_expert_model_plays_only_legal_cards(preset: str) -> None:
    bot = make_bot("expert-model", random.Random(2))
    assert isinstance(bot, ExpertBot) and isinstance(bot.judge, ModelJudge)
    g = new_game(preset, seed=11)
    while not g.hand_over:
        s = g.turn
        assert s is not None
        legal = g.legal_actions()
        a = bot.choose(g.view(s), legal)
        assert a in legal
        g.apply(a)


def test_the_compiled_follow_rule_is_the_engines() -> None:
    """``model_kernel.follow`` allows exactly the cards ``fortyfives.follow_mask`` does, for
    every trump, renege privilege, hearts on hearts and suit-or-trump, on random hands,
    with the ace of hearts and the trumps led often."""
    from forties.fortyfives import PRIVILEGED, TRUMPS, follow_mask
    from forties.vector.kernel import follow_mask as follow

    rng = random.Random(8)
    for _ in range(20_000):
        trump = rng.randrange(4)
        hand = sum(1 << c for c in rng.sample(range(52), rng.randint(1, 8)))
        led = 38 if rng.random() < 0.3 else rng.choice(
            [c for c in range(52) if TRUMPS[trump] >> c & 1]) if rng.random() < 0.5 \
            else rng.randrange(52)
        priv = PRIVILEGED[rng.choice(list(PRIVILEGED))][trump]
        sot, hoh = rng.random() < 0.5, rng.random() < 0.5
        assert follow(hand, led, trump, priv, sot, hoh) == follow_mask(hand, led, trump, priv,
                                                                       sot, hoh)


def _first_trick_choices(preset: str, seed: int, count: int
                         ) -> list[tuple[FortyFivesState, dict[str, Any]]]:
    """First-trick positions of ``basic`` against itself, with what each player chose there
    (``decide``'s values, each player's generator seeded alike): ``expert`` told both its
    opponents are ``basic`` computers, told one is a person, told nothing, and the levels
    ``expert-model`` and ``expert-untold``."""
    out = []
    for k, g in enumerate(_late_positions(preset, count, seed, held=MODEL_CARDS)):
        seat = g.turn
        assert seat is not None
        mine = next(s for s in g.sides if seat in s)
        basic_opponents = ["expert" if s in mine else "basic" for s in range(4)]
        one_person = [None if s == (seat + 1) % 4 else lv for s, lv in enumerate(basic_opponents)]
        bots: dict[str, Any] = {
            "told basic": make_bot("expert", random.Random(k), seats=basic_opponents),
            "told a person": make_bot("expert", random.Random(k), seats=one_person),
            "told nothing": make_bot("expert", random.Random(k)),
            "expert-model": make_bot("expert-model", random.Random(k)),
            "expert-untold": make_bot("expert-untold", random.Random(k)),
        }
        view, legal = g.view(seat), g.legal_actions()
        out.append((g, {name: bot.decide(view, legal) for name, bot in bots.items()}))
    return out


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45"])
def test_the_expert_searches_against_basic_only_when_both_opponents_are_basic(
        preset: str) -> None:
    """Where the table shows both opponents as ``basic`` computers the default expert plays
    as ``expert-model`` (the same values for every card); with a person among them, or told
    nothing, as ``expert-untold``; and on some of these positions the two choose apart."""
    apart = 0
    for _, got in _first_trick_choices(preset, 5, 8):
        assert got["told basic"].values == got["expert-model"].values
        assert got["told a person"].values == got["expert-untold"].values
        assert got["told nothing"].values == got["expert-untold"].values
        apart += got["expert-model"].action != got["expert-untold"].action
    assert apart > 0


def test_the_expert_plays_as_ever_against_basic_where_45_goes_back_to_0() -> None:
    """With 45 going back to 0 (more points can be worse) the model search does not apply,
    and the expert told of two ``basic`` opponents plays as the expert told nothing, in
    the reading of the cards too."""
    rules = build_rules("auction-45", {"forty_five_resets": True})
    bot = BasicBot()
    checked = 0
    for seed in range(40):
        g = new_game(rules, seed=seed)
        while not g.hand_over and g.phase is not Phase.PLAY:
            assert g.turn is not None
            g.apply(bot.choose(g.view(g.turn), g.legal_actions()))
        while not g.hand_over and checked < 6:
            seat = g.turn
            assert seat is not None
            mine = next(s for s in g.sides if seat in s)
            seats = ["expert" if s in mine else "basic" for s in range(4)]
            view, legal = g.view(seat), g.legal_actions()
            if len(legal) > 1:
                told = make_bot("expert", random.Random(seed), seats=seats)
                untold = make_bot("expert-untold", random.Random(seed))
                assert told.decide(view, legal).values == untold.decide(view, legal).values
                checked += 1
            g.apply(bot.choose(view, legal))
        if checked >= 6:
            break
    assert checked == 6


def test_the_expert_is_told_nothing_of_basic_in_games_the_model_does_not_take() -> None:
    """Call Your Partner (five seats, sides unknown until the card is shown) and turned-up
    trump (no bidder): ``basic`` opponents change nothing."""
    for preset, players in (("call-your-partner", 5), ("nova-scotia", 4)):
        bot = BasicBot()
        for seed in range(20):
            g = new_game(preset, seed=seed)
            while not g.hand_over and g.phase is not Phase.PLAY:
                assert g.turn is not None
                g.apply(bot.choose(g.view(g.turn), g.legal_actions()))
            if not g.hand_over:
                break
        seat = g.turn
        assert seat is not None and g.n == players
        told = make_bot("expert", random.Random(1), seats=["basic"] * players)
        assert isinstance(told, ExpertBot) and not told.models_basic(g.view(seat))
        assert told.play_judge(g.view(seat)) is told.judge
