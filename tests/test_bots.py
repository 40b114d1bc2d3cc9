"""Every computer player makes only legal choices, in every preset and player count,
and the arena, hints and odds built on them behave."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties import arena, build_rules, new_game
from forties.actions import Action
from forties.analysis import hint, par
from forties.arena import mean_interval, play_deal, run_match, wilson_interval
from forties.bots.basic import BasicBot, strength
from forties.bots.expert import ExpertBot
from forties.bots.judge import PlayoutJudge, utility
from forties.cards import AH_BIT, HEARTS, SPADES, SUIT_MASKS, parse_card
from forties.fortyfives import TRUMPS, FortyFivesState
from forties.odds import HOLDINGS, holding_hand, make_chances
from forties.players import LEVELS, make_bot
from forties.rules import FortyFivesRules
from forties.scoring import FortyFivesHand, score_forty_fives
from forties.state import GameState, Phase

from .helpers_engine import Config, config_id, ff_trick_winner, run_forties

CONFIGS: list[Config] = [
    ("merrimack-valley", {}),
    ("merrimack-valley", {"players": 2}),
    ("merrimack-valley", {"players": 3}),
    ("merrimack-valley", {"players": 5}),
    ("merrimack-valley", {"players": 6}),
    ("merrimack-valley", {"players": 6, "teams": "two-threes"}),
    ("merrimack-valley", {"kitty": 0, "dealer_may_hold": True, "auction": "hold-reopens"}),
    ("merrimack-valley", {"four_and_a_flip": True, "dealer_robs_pack": False,
                          "bid_30_for_60": True, "end": "must-bid-on-green"}),
    ("nova-scotia", {}),
    ("nova-scotia", {"players": 3}),
    ("auction-45", {}),
    ("auction-45", {"players": 3, "kitty_before_trump": True}),
    ("auction-45", {"go_on_kitty": True, "go_on_top_card": True}),
    ("call-your-partner", {}),
    ("forty-one", {}),
]


def _play_hand(g: GameState, bots: list, rng: random.Random) -> None:
    while not g.hand_over:
        seat = g.turn
        assert seat is not None
        bot = bots[seat]
        if getattr(bot, "needs_state", False):
            a = bot.choose_from_state(g)
        else:
            a = bot.choose(g.view(seat), g.legal_actions())
        assert g.reason(a) is None, f"{bot.name} chose illegal {a}: {g.reason(a)}"
        g.apply(a)


def quick_hands_calls(rules: FortyFivesRules, level: str, module: object, name: str) -> int:
    """Two hands (seeds 11 and 12) of ``level`` at every seat, with few imagined deals to
    stay quick, every choice checked legal; how often ``module.name`` was called."""
    rng = random.Random(4)
    calls = 0
    real = getattr(module, name)

    def spy(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(module, name, spy)
    try:
        for seed in (11, 12):
            g = new_game(rules, seed=seed)
            bots = [make_bot(level, rng) for _ in range(g.n)]
            for b in bots:
                assert isinstance(b, ExpertBot)
                b.worlds, b.deals = 3, 6
            _play_hand(g, bots, rng)
    finally:
        mp.undo()
    return calls


@pytest.mark.parametrize(("preset", "options"), CONFIGS, ids=map(config_id, CONFIGS))
@pytest.mark.parametrize("level", ["random", "basic"])
def test_fast_levels_play_only_legal_actions(preset: str, options: dict, level: str) -> None:
    """random and basic play whole hands of every configuration legally."""
    rules = build_rules(preset, options)
    rng = random.Random(3)
    for seed in range(6):
        g = new_game(rules, seed=seed)
        _play_hand(g, [make_bot(level, rng) for _ in range(g.n)], rng)


@pytest.mark.parametrize(("preset", "options"), CONFIGS[::2],
                         ids=map(config_id, CONFIGS[::2]))
@pytest.mark.parametrize("level", ["expert", "oracle"])
def test_search_levels_play_only_legal_actions(preset: str, options: dict, level: str) -> None:
    """expert and oracle, with few worlds to stay quick, also play legally throughout."""
    rules = build_rules(preset, options)
    rng = random.Random(4)
    g = new_game(rules, seed=11)
    bots = [make_bot(level, rng) for _ in range(g.n)]
    for b in bots:
        if isinstance(b, ExpertBot) and level == "expert":
            b.worlds = 3
    _play_hand(g, bots, rng)


PRESET_SEATED = [c for c in CONFIGS if "players" not in c[1]]  # each preset's own seats


@pytest.mark.parametrize(("preset", "options"), PRESET_SEATED,
                         ids=map(config_id, PRESET_SEATED))
def test_the_expert_facing_basic_computers_plays_only_legal_actions(
        preset: str, options: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert told its opponents are ``basic`` computers plays legally throughout (few
    worlds, to stay quick), searching against their rule in the 45s games of four with
    bidding, and only there."""
    from forties.bots import model

    searched = 0
    real = model.model_outcomes

    def spy(st: Any) -> Any:
        nonlocal searched
        searched += 1
        return real(st)

    monkeypatch.setattr(model, "model_outcomes", spy)
    rules = build_rules(preset, options)
    rng = random.Random(5)
    g = new_game(rules, seed=12)
    mine = next(s for s in g.sides if 0 in s) if hasattr(g, "sides") else (0,)
    seats = ["expert" if s in mine else "basic" for s in range(g.n)]
    bots = [make_bot(lv, rng, seats=seats) for lv in seats]
    for b in bots:
        if isinstance(b, ExpertBot):
            b.worlds = 3
    _play_hand(g, bots, rng)
    takes = g.n == 4 and preset in ("merrimack-valley", "auction-45") and g.bidder >= 0 \
        if isinstance(g, FortyFivesState) else False
    assert (searched > 0) == takes


def test_levels_are_listed() -> None:
    assert set(LEVELS) == {"random", "basic", "expert", "oracle", "ismcts"}
    with pytest.raises(ValueError, match="unknown level"):
        make_bot("genius", random.Random(0))


def test_basic_values_the_five_above_a_small_trump() -> None:
    """Seed 000: the 5 is the boss card: a hand with it is worth more than one without."""
    five = 1 << parse_card("5S")
    small = 1 << parse_card("7S")
    filler = sum(1 << parse_card(c) for c in ("2D", "3D", "4C", "6C"))
    assert strength(five | filler, SPADES) > strength(small | filler, SPADES)


def test_basic_does_not_trump_its_partners_winner() -> None:
    """Fourth hand, partner winning the trick: basic throws a card that is not a trump
    whenever it may (AH is a trump whatever the suit, so it is not thrown either)."""
    rules = build_rules("merrimack-valley", {"follow": "trump-only"})
    positions = with_ah = 0
    for seed in range(400):
        g = new_game(rules, seed=seed)
        bots = [BasicBot() for _ in range(4)]
        while not g.hand_over:
            seat = g.turn
            assert seat is not None
            legal = g.legal_actions()
            a = bots[seat].choose(g.view(seat), legal)
            if g.phase is Phase.PLAY and len(g.trick_cards) == 3 and \
                    ff_trick_winner(g.trick_cards, g.trump) == 1:
                trumps = TRUMPS[g.trump]
                cards = [x.arg for x in legal]
                if any(not c & trumps for c in cards):
                    positions += 1
                    with_ah += any(c == AH_BIT for c in cards)
                    assert not a.arg & trumps, f"seed {seed}: {a} trumps the partner's winner"
            g.apply(a)
    # the check met the case it is about: AH held beside a card that may be thrown
    assert positions >= 100 and with_ah >= 5, (positions, with_ah)


def test_basic_takes_a_trick_its_partner_has_no_use_for_in_forty_one() -> None:
    """Forty One scores each seat's own bid: a seat that still needs tricks takes the
    trick its partner is winning when the partner has made his bid (or cannot make it).
    Last to play it takes it with its cheapest winner; earlier only with the top card
    still out of its suit: a heart then always holds, a card of the suit led nearly
    always (a seat after it may ruff)."""
    from forties.fortyone import KEY as KEY41

    last = earlier = beaten = 0
    for seed in range(1000):
        g = new_game("forty-one", seed=seed)
        bots = [BasicBot() for _ in range(4)]
        while not g.hand_over:
            seat = g.turn
            assert seat is not None
            legal = g.legal_actions()
            a = bots[seat].choose(g.view(seat), legal)
            before = list(g.trick_cards) if g.phase is Phase.PLAY else []
            partner = (seat + 2) % 4
            p_need, need = ((g.bids[s] or 0) - g.taken[s] for s in (partner, seat))
            left, leader = 13 - g.trick_no, g.trick_leader
            seen = g.hands[seat] | sum(1 << c for t in g.tricks for c in t.cards)
            g.apply(a)
            if not before:
                continue
            key = KEY41[before[0] // 13]
            best = max(range(len(before)), key=lambda i: key[before[i]])
            if (leader + best) % 4 != partner or need <= 0 or 0 < p_need <= left:
                continue
            cards = [x.arg.bit_length() - 1 for x in legal]
            winners = [c for c in cards if key[c] > key[before[best]]]
            mine = a.arg.bit_length() - 1
            if not winners or len(winners) == len(cards):
                continue  # no choice: every card wins, or none does
            if len(before) == 3:
                last += 1
                assert mine == min(winners, key=lambda c: key[c]), \
                    f"seed {seed}: {a} leaves the partner's useless trick"
            elif mine in winners:
                earlier += 1
                seen |= sum(1 << c for c in before)
                above = SUIT_MASKS[mine // 13] & ~((2 << mine) - 1)
                assert not above & ~seen, f"seed {seed}: {a} is not the top card still out"
                while g.trick_cards:  # the others play on
                    s = g.turn
                    assert s is not None
                    g.apply(bots[s].choose(g.view(s), g.legal_actions()))
                lost = g.tricks[-1].winner != seat
                assert not (lost and mine // 13 == HEARTS), f"seed {seed}: {a} was beaten"
                beaten += lost
    assert last >= 20 and earlier >= 20 and beaten <= earlier // 5, (last, earlier, beaten)


def test_expert_values_every_legal_card() -> None:
    rng = random.Random(2)
    g = new_game("merrimack-valley", seed=5)
    basic = BasicBot()
    while g.phase is not Phase.PLAY:
        seat = g.turn
        assert seat is not None
        g.apply(basic.choose(g.view(seat), g.legal_actions()))
    seat = g.turn
    assert seat is not None
    choice = ExpertBot(rng, worlds=4, judge=PlayoutJudge()).decide(g.view(seat),
                                                                   g.legal_actions())
    assert set(choice.values) == set(g.legal_actions())
    assert choice.action in g.legal_actions()
    assert choice.values[choice.action] == max(choice.values.values())


def test_deals_a_bid_by_level_and_players() -> None:
    """A 45s choice before the first card is valued over 120 imagined deals by ``expert``
    and over WIDE_DEALS by ``expert-wide-bids`` with four players, a sixth of each with
    six. The deals drawn are as many as that says."""
    from lab.levels import WIDE_DEALS

    for preset, options, div in (("merrimack-valley", {}, 1), ("auction-45", {"players": 6}, 6)):
        g = new_game(build_rules(preset, options), seed=5)
        seat = g.turn
        assert seat is not None and g.phase is Phase.AUCTION
        view, legal = g.view(seat), g.legal_actions()
        for level, n in (("expert", 120), ("expert-wide-bids", WIDE_DEALS)):
            bot = make_bot(level, random.Random(1))
            assert isinstance(bot, ExpertBot)
            drawn: list[int] = []

            def counted(*a: Any, _real: Any = bot._deal_for_contract,
                        _drawn: list[int] = drawn) -> Any:
                _drawn.append(1)
                return _real(*a)

            bot._deal_for_contract = counted  # type: ignore[method-assign]
            bot.decide(view, legal)
            assert len(drawn) == max(12, n // div), (preset, level)


def test_deals_a_card_by_level_and_players() -> None:
    """A 45s card is valued over PLAY_WORLDS imagined deals by ``expert`` with four
    players (``expert-narrow``: 96, the expert as it was; ``expert-wide``: WIDE_WORLDS
    whatever the players); with six, ``expert`` keeps 96, a sixth early in the hand."""
    from forties.bots.expert import PLAY_WORLDS, PLAY_WORLDS_MANY
    from lab.levels import WIDE_WORLDS

    assert PLAY_WORLDS > 96 == PLAY_WORLDS_MANY
    for preset, options, want in (
            ("merrimack-valley", {}, {"expert": PLAY_WORLDS, "expert-wide": WIDE_WORLDS,
                                      "expert-narrow": 96}),
            ("auction-45", {"players": 6}, {"expert": 96 // 6, "expert-wide": WIDE_WORLDS // 6,
                                            "expert-narrow": 96 // 6})):
        g = new_game(build_rules(preset, options), seed=5)
        while g.phase is not Phase.PLAY:
            seat = g.turn
            assert seat is not None
            g.apply(BasicBot().choose(g.view(seat), g.legal_actions()))
        seat = g.turn
        assert seat is not None
        view, legal = g.view(seat), g.legal_actions()
        for level, n in want.items():
            bot = make_bot(level, random.Random(1))
            assert isinstance(bot, ExpertBot)
            assert bot._play_count(view) == n, (preset, level)
            assert len(bot._play_worlds(view)) == n
        expert = make_bot("expert", random.Random(1))
        assert isinstance(expert, ExpertBot)
        choice = expert.decide(view, legal)
        assert choice.action in legal and set(choice.values) == set(legal)
        if expert.weighs(view):  # a deal drawn more than once by weight is solved once
            assert 0 < choice.samples <= want["expert"]
        else:
            assert choice.samples == want["expert"]


def _best_on_the_true_deal(g: GameState, bot: ExpertBot, card: Action) -> bool:
    """Whether ``card``, for the seat to play in ``g``, is one the solver rates best on the
    real deal, by ``bot``'s utility."""
    seat = g.turn
    assert seat is not None
    true = bot.judge.play_outcomes(g)
    u = {b: utility(g, seat, true[b], bot.win_bonus) for b in g.legal_actions()}
    return u[card] == max(u.values())


@pytest.mark.parametrize("preset, options", [
    ("merrimack-valley", {}), ("auction-45", {}), ("auction-45", {"players": 6}),
    ("nova-scotia", {}), ("call-your-partner", {})])
def test_the_oracle_plays_the_best_card_on_the_true_deal(preset: str, options: dict) -> None:
    """Every card of the oracle, in every Forty-Fives preset (those where the expert weighs
    its imagined deals too), is one the solver rates best on the real deal."""
    from forties.bots.oracle import OracleBot

    oracle = OracleBot(random.Random(1))
    checked = 0
    for seed in range(3, 9):  # (a hand may be thrown in before the play)
        g = new_game(build_rules(preset, options), seed=seed)
        while not g.hand_over:
            legal = g.legal_actions()
            a = oracle.choose_from_state(g)
            if g.phase is Phase.PLAY and len(legal) > 1:
                assert _best_on_the_true_deal(g, oracle, a), (preset, seed, g.trick_no, a)
                checked += 1
            g.apply(a)
    assert checked >= 20


@pytest.mark.parametrize("options", [{}, {"end": "must-bid-on-green"},
                                     {"forty_five_resets": True},
                                     {"bidder_scores": "taken"}])
def test_the_experts_utility_scores_a_hand_as_the_engine_does(options: dict) -> None:
    """``utility`` of a 45s hand bid for: each side's score moves as the engine moves it
    (45 going back to 0) and the win bonus goes to the winner the rules name (the bidder
    going out when both sides pass 120, nobody when a side is shut out on the green),
    for every split of the points at scores near the end and near 45."""
    rules = build_rules("merrimack-valley", options)
    g = new_game(rules, seed=3)
    assert isinstance(g, FortyFivesState)
    bot = BasicBot()
    while g.phase is not Phase.PLAY:
        assert g.turn is not None
        g.apply(bot.choose(g.view(g.turn), g.legal_actions()))
    bonus = 100.0
    decided = 0
    for start in ([105, 105], [90, 105], [105, 90], [25, 30], [0, 0]):
        for bid in (15, 20, 25):
            for mine in range(0, 35, 5):
                outcome = [mine, 30 - mine] if g.bidder % 2 == 0 else [30 - mine, mine]
                g.bid, g.scores, g.start_scores = bid, list(start), list(start)
                real = score_forty_fives(rules, FortyFivesHand(tuple(outcome), g.bidder, bid),
                                         start)
                for seat in range(4):
                    side = g.side_of[seat]
                    moved = [a - b for a, b in zip(real.scores, start, strict=True)]
                    want = moved[side] - moved[1 - side]
                    if real.winner is not None:
                        want += bonus if real.winner == side else -bonus
                        decided += 1
                    assert utility(g, seat, outcome, bonus) == want, (start, bid, outcome)
    assert decided > 0


def test_hint_explains_its_choice() -> None:
    g = new_game("auction-45", seed=9)
    h = hint(g, worlds=3)
    assert h.action in g.legal_actions()
    assert "imagined deals" in h.explanation or "only" in h.explanation
    with pytest.raises(ValueError):
        hint(g, seat=(g.turn or 0) + 1)


def test_arena_is_deterministic_and_fair() -> None:
    rules = build_rules("merrimack-valley")
    a = run_match(rules, "basic", "random", deals=6, games=1, seed=3, jobs=1)
    b = run_match(rules, "basic", "random", deals=6, games=1, seed=3, jobs=1)
    assert a.points_per_hand == b.points_per_hand
    assert a.games_won == b.games_won
    # the same player on both sides of a duplicate deal cancels out exactly
    assert play_deal(rules, "basic", "basic", 1, 0) == 0.0


def test_arena_plays_deals_and_games_in_one_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """With workers, one pool plays the deals and the games (each worker loads the players
    and numba once), and the result is the one a single process gets."""
    made: list[int] = []

    class CountedPool(arena.ProcessPoolExecutor):
        def __init__(self, max_workers: int) -> None:
            made.append(max_workers)
            super().__init__(max_workers=max_workers)

    monkeypatch.setattr(arena, "ProcessPoolExecutor", CountedPool)
    rules = build_rules("merrimack-valley")
    pooled = run_match(rules, "basic", "random", deals=5, games=2, seed=4, jobs=2)
    alone = run_match(rules, "basic", "random", deals=5, games=2, seed=4, jobs=1)
    assert made == [2]
    assert (pooled.points_per_hand, pooled.games_won) == (alone.points_per_hand,
                                                          alone.games_won)


def test_intervals() -> None:
    m = mean_interval([1.0, 2.0, 3.0])
    assert m.mean == 2.0 and m.low < 2.0 < m.high
    w = wilson_interval(10, 10)
    assert w.mean == 1.0 and 0.6 < w.low < 1.0 and w.high == 1.0


def test_arena_command_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    r = run_forties("arena", "basic", "random", "--deals", "4", "--games", "0", "--jobs", "1",
                    "--out", str(out))
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    assert data["a"] == "basic" and data["deals"] == 4
    assert "points per hand for basic" in r.stdout
    bad = run_forties("arena", "basic", "genius")
    assert bad.returncode == 2 and "unknown player" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_odds_make_sense() -> None:
    """Worked out by hand: the 5, J and AH of trumps are three tricks whoever holds what,
    and the 5's trick is the bonus, so they make 20 on every deal (and 15); the J alone
    is beaten by the 5 whenever another seat holds it after the draw, so it makes 20
    less often."""
    rules = build_rules("merrimack-valley")
    assert isinstance(rules, FortyFivesRules)
    rng = random.Random(1)
    for h in HOLDINGS:
        hand = holding_hand(h, SPADES, rng)
        assert hand.bit_count() == 5
        trumps = TRUMPS[SPADES] & hand
        assert trumps.bit_count() == len(h.top) + h.small
    judge = PlayoutJudge()
    strong = make_chances(rules, HOLDINGS[6], 60, 1, judge)  # 5 J AH
    weak = make_chances(rules, HOLDINGS[1], 60, 1, judge)  # J alone
    assert strong[15] == strong[20] == 1.0
    assert weak[20] < 1.0


def test_par_of_a_finished_hand() -> None:
    g = new_game("merrimack-valley", seed=2)
    rng = random.Random(0)
    _play_hand(g, [make_bot("basic", rng) for _ in range(4)], rng)
    p = par(g)
    assert p is not None
    assert 0 <= p.points <= 30
    assert "could take" in p.text


def test_call_your_partner_odds_count_the_partner() -> None:
    """The 5, J, AH and A of trumps take four tricks and the bonus whoever partners the
    bidder: 25 is made every time, partner or not (the partner's tricks count too)."""
    rules = build_rules("call-your-partner")
    chances = make_chances(rules, HOLDINGS[-1], 40, 3)
    assert chances[25] == 1.0


FORTY_ONE_CONFIGS: list[Config] = [
    ("forty-one", {}),
    ("forty-one", {"tie": "team-total", "partner_positive": False}),
    ("forty-one", {"double_from": 4, "target": 25, "min_total": 4}),
]


@pytest.mark.parametrize(("preset", "options"), FORTY_ONE_CONFIGS,
                         ids=map(config_id, FORTY_ONE_CONFIGS))
@pytest.mark.parametrize("level", ["expert", "oracle", "expert-tricks", "oracle-tricks"])
def test_forty_one_players_play_only_legal_actions(preset: str, options: dict,
                                                   level: str) -> None:
    """Forty One's search players (for the score and the earlier ones for team tricks),
    with few imagined deals to stay quick, bid and play legally hand after hand, the
    scores moving towards the target, against basic."""
    rules = build_rules(preset, options)
    rng = random.Random(5)
    g = new_game(rules, seed=21)
    bots = [make_bot(level if s % 2 == 0 else "basic", rng) for s in range(4)]
    for b in bots:
        if isinstance(b, ExpertBot) and b.name == "expert":  # expert and expert-tricks
            b.worlds, b.deals, b.worlds41, b.bid_deals41 = 3, 6, 3, 6
    for _ in range(4):
        _play_hand(g, bots, rng)
        if g.over:
            break
        g.next_hand()


def test_the_default_forty_one_expert_plays_for_the_score() -> None:
    """``expert`` is the player that searches for Forty One's score (it beat the team-trick
    player in duplicate); ``expert-score`` names it, ``expert-tricks`` the earlier one."""
    rng = random.Random(1)
    expert, by_name, earlier = (make_bot(x, rng) for x in
                                ("expert", "expert-score", "expert-tricks"))
    assert isinstance(expert, ExpertBot) and isinstance(by_name, ExpertBot)
    assert isinstance(earlier, ExpertBot)
    assert expert.forty_one == by_name.forty_one == "score"
    assert earlier.forty_one == "tricks"


def test_expert_bids41_weighs_its_deals_by_the_bids() -> None:
    """``expert-bids41`` weighs each imagined Forty One deal by how well the others' cards
    fit their bids: a deal that gives a bidder of 4 the cards of a 4 weighs more than one
    that gives him nothing; the plain expert weighs every deal alike."""
    from forties.fortyone import FortyOneState
    from forties.position import start_hands_of

    g = new_game("forty-one", seed=8, first_dealer=3)
    while g.phase.value == "auction":
        s = g.turn
        assert s is not None
        g.apply(BasicBot().choose(g.view(s), g.legal_actions()))
    assert isinstance(g, FortyOneState) and g.phase.value == "play"
    weighed, plain = make_bot("expert-bids41", random.Random(1)), make_bot("expert",
                                                                          random.Random(1))
    assert isinstance(weighed, ExpertBot) and isinstance(plain, ExpertBot)
    seat = g.turn
    assert seat is not None
    deals = weighed._worlds_41(g.view(seat))[:24]
    ws = [weighed._bid_weight(w, seat) for w in deals]
    assert all(0 < w <= 1 for w in ws) and max(ws) > 2 * min(ws)
    assert {plain._bid_weight(w, seat) for w in deals} == {1.0}
    assert len({tuple(start_hands_of(w)) for w in deals}) > 1


def test_forty_one_expert_values_every_card_and_bid() -> None:
    """The Forty One expert for the score weighs every legal card; as dealer it weighs the
    least bid that keeps the hand from being thrown in."""
    from forties.bots.expert import bid_candidates
    from forties.fortyone import FortyOneState

    g = new_game("forty-one", seed=8, first_dealer=3)
    assert isinstance(g, FortyOneState)
    for _ in range(3):
        g.apply(g.legal_actions()[0])  # three bids of 1: the dealer needs 8 to play
    assert 8 in bid_candidates(g, 3)
    bot = ExpertBot(random.Random(1), forty_one="score")
    bot.worlds41, bot.bid_deals41 = 4, 8
    choice = bot.decide(g.view(3), g.legal_actions())
    assert choice.action in g.legal_actions() and choice.samples == 8
    g.apply(choice.action)
    basic = BasicBot()
    while g.phase is Phase.PLAY and g.turn != 0:
        g.apply(basic.choose(g.view(g.turn), g.legal_actions()))
    if g.phase is Phase.PLAY:
        choice = bot.decide(g.view(0), g.legal_actions())
        assert set(choice.values) == set(g.legal_actions()) or len(g.legal_actions()) == 1
        assert choice.values[choice.action] == max(choice.values.values())


@pytest.mark.parametrize("how", ["solver", "playout"])
def test_forty_one_bids_valued_both_ways_are_legal(how: str) -> None:
    """Bids valued by the solver and by playouts: a legal bid, the best valued of those
    weighed, and a bid that leaves the total under the minimum worth nothing."""
    from forties.bots.expert import bid_by_solver
    from forties.fortyone import FortyOneState

    g = new_game("forty-one", seed=12, first_dealer=3)
    assert isinstance(g, FortyOneState)
    for _ in range(3):
        g.apply(g.legal_actions()[1])  # three bids of 2: the dealer needs 5 to play
    choice = bid_by_solver([g], 3, g.legal_actions(), 4, 1, 200, how)
    assert choice.action in g.legal_actions()
    assert choice.values[choice.action] == max(choice.values.values())
    assert all(v == 0 for a, v in choice.values.items() if a.arg < 5)


def test_strength_log_resumes_and_agrees_with_the_arena(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """The long-match log plays the arena's own deals: stopped after 2 and resumed to 4,
    it holds the margins ``play_deal`` gives deals 0 to 3, and its summary says so."""
    from lab import strength

    log = str(tmp_path / "m.jsonl")
    strength.main(["basic", "random", "--count", "2", "--log", log])
    strength.main(["basic", "random", "--count", "4", "--log", log])
    rows = [json.loads(x) for x in Path(log).read_text().splitlines()]
    rules = build_rules("forty-one")
    assert [r["x"] for r in rows] == [play_deal(rules, "basic", "random", 1, i)
                                      for i in range(4)]
    assert "4 deals: points per hand" in capsys.readouterr().out


def test_decision_time_bench_times_forty_one_score_player() -> None:
    """``python -m bench.expert HANDS forty-one score`` times the score player's
    bids and cards (one hand here)."""
    from bench.expert import decision_times

    by_phase = decision_times("forty-one", 1, "score")
    assert set(by_phase) == {"auction", "play"}
    assert all(t >= 0 for ts in by_phase.values() for t in ts)


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45"])
def test_the_blind_oracle_plays_as_the_expert_then_as_the_oracle(preset: str) -> None:
    """``oracle-blind2``: in the first two tricks each card is the one the default expert
    plays on the same imagined deals (weighed where the expert weighs); after them, every
    card is the best on the true deal."""
    from forties.bots.oracle import BlindOracleBot

    blind_seen = seeing = 0
    for seed in range(3, 7):
        g = new_game(preset, seed=seed)
        blind = make_bot("oracle-blind2", random.Random(seed))
        assert isinstance(blind, BlindOracleBot) and blind.blind_tricks == 2
        while not g.hand_over:
            legal = g.legal_actions()
            before = blind.rng.getstate()
            a = blind.choose_from_state(g)
            if g.phase is Phase.PLAY and len(legal) > 1:
                seat = g.turn
                assert seat is not None
                if g.trick_no < 2:
                    twin = ExpertBot(random.Random())
                    twin.rng.setstate(before)
                    mine = twin.decide(g.view(seat), legal)
                    assert mine.action == a and mine.samples > 1
                    blind_seen += 1
                else:
                    assert _best_on_the_true_deal(g, blind, a), (preset, seed, g.trick_no, a)
                    seeing += 1
            g.apply(a)
    assert blind_seen >= 8 and seeing >= 8
    forty_one = new_game("forty-one", seed=3)
    blind.truth = forty_one  # Forty One: the oracle, blind for no trick
    assert not blind.blind()


def test_play_out_plays_to_the_end_of_its_last_hand() -> None:
    """``play_out`` with ``max_hands``: that many hands, the last played to its end and no
    next one dealt; without a limit, the game to its end."""
    from forties.bots import play_out

    g = new_game("merrimack-valley", seed=1)
    assert play_out(g, [make_bot("random", random.Random(1)) for _ in range(g.n)], 2) == 2
    assert g.hand_index == 1 and g.hand_over and not g.over
    hands = play_out(g, [make_bot("basic", random.Random(1)) for _ in range(g.n)], None)
    assert g.over and hands == g.hand_index  # the first call's hand counted again
