"""``expert-infer``: imagined deals weighed by what the other seats bid, kept and played."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import lab.levels  # noqa: F401  (the comparison players join PLAYERS)
from forties import build_rules, new_game
from forties.actions import Action, Verb
from forties.bots import infer as inf
from forties.bots.basic import BasicBot
from forties.bots.expert import ExpertBot
from forties.bots.sampler import Knowledge, deal_world, knowledge
from forties.fortyfives import TRUMP_ORDER, TRUMPS, FortyFivesState
from forties.players import make_bot
from forties.rules import FortyFivesRules
from forties.state import Phase

from .helpers_engine import config_id
from .test_bots import CONFIGS, quick_hands_calls


def _first_card_after_bid(bid: int) -> tuple[FortyFivesState, int]:
    """A Merrimack Valley hand in which one seat's only bid was ``bid`` (the others
    passed), stopped at the second card, a seat other than the bidder's with a choice;
    and the bidder.
    The auction is forced: seat 1 bids ``bid`` at its turn whatever it holds, the others
    pass (the dealer bagged only if needed), so that the test does not depend on
    ``basic``'s judgement of the cards."""
    for seed in range(200):
        g = new_game("merrimack-valley", seed=seed, first_dealer=0)
        basic = BasicBot()
        assert isinstance(g, FortyFivesState)
        while not g.hand_over and g.phase is not Phase.PLAY:
            s = g.turn
            assert s is not None
            if g.phase is Phase.AUCTION:
                a = Action(s, Verb.BID, bid) if s == 1 else Action(s, Verb.PASS)
                if g.reason(a) is not None:
                    break
                g.apply(a)
                continue
            g.apply(basic.choose(g.view(s), g.legal_actions()))
        if g.phase is not Phase.PLAY or g.bidder != 1:
            continue
        # the bidder leads: play its card, then stop at the next seat
        g.apply(basic.choose(g.view(1), g.legal_actions()))
        if len(g.legal_actions()) > 1:
            return g, 1
    raise AssertionError("no hand reached the play")


def _top_held(hand: int, trump: int, k: int = 3) -> int:
    return sum(1 for c in TRUMP_ORDER[trump][:k] if hand >> c & 1)


def _weights_by_holding(g: FortyFivesState, bidder: int, bid: str | None = None,
                        deals: int = 3000) -> dict[str, float]:
    """The mean weight of deals that give the bidder none of the 5, J and AH of trumps,
    and of those that give it two or more (with ``bid``, as if it had bid that)."""
    seat = g.turn
    assert seat is not None and seat != bidder
    view = g.view(seat)
    k = knowledge(view, soft=False)
    ev = inf.Evidence(view, k)
    if bid is not None:
        table = inf.table("merrimack-valley")
        assert table is not None
        ev.given[bidder] = table.given(inf.seat_class(bid, inf.kept_class(view, bidder)))
    rng = random.Random(1)
    cands = [d for d in (deal_world(k, rng) for _ in range(deals)) if d is not None]
    ws = ev.weights(cands)
    assert all(w > 0 for w in ws)  # soft: no deal is ruled out by the model
    played = [0] * g.n
    for a in k.plays:
        played[a.seat] |= a.arg
    groups: dict[str, list[float]] = {"none": [], "two or more": []}
    for d, w in zip(cands, ws, strict=True):
        top = _top_held(d[bidder] | played[bidder], g.trump)
        if top == 0:
            groups["none"].append(w)
        elif top >= 2:
            groups["two or more"].append(w)
    assert all(len(v) >= 20 for v in groups.values()), {k: len(v) for k, v in groups.items()}
    return {name: sum(v) / len(v) for name, v in groups.items()}


def test_a_bid_of_30_weighs_deals_with_the_top_trumps_higher() -> None:
    """After a seat bid 30, deals that give it two or more of the 5, J and AH of trumps
    weigh far more than deals that give it none of them; the same position read as if
    it had bid 15 (the same cards kept in the draw) makes much less of the difference."""
    g, bidder = _first_card_after_bid(30)
    mean30 = _weights_by_holding(g, bidder)
    assert mean30["two or more"] > 5 * mean30["none"], mean30
    mean15 = _weights_by_holding(g, bidder, bid="B15")
    ratio30 = mean30["two or more"] / mean30["none"]
    ratio15 = mean15["two or more"] / mean15["none"]
    assert ratio30 > 2 * ratio15, (ratio30, ratio15)


def test_the_resampled_deals_move_towards_the_truth_of_the_model() -> None:
    """Over hands of ``basic`` against itself (the model the counts come from), the
    weighed deals give the other seats more of their real trumps than the plain ones."""
    rng = random.Random(3)
    plain = weighed = truth = 0.0
    for seed in range(12):
        g = new_game("merrimack-valley", seed=500 + seed)
        bot = BasicBot()
        while not g.hand_over and g.phase is not Phase.PLAY:
            s = g.turn
            assert s is not None
            g.apply(bot.choose(g.view(s), g.legal_actions()))
        if g.hand_over:
            continue
        assert isinstance(g, FortyFivesState)
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        tm = TRUMPS[g.trump]
        k = knowledge(view)
        cands = [d for d in (deal_world(k, rng) for _ in range(300)) if d is not None]
        ws = inf.Evidence(view, k).weights(cands)
        for s in range(g.n):
            if s == seat:
                continue
            truth += (g.hands[s] & tm).bit_count()
            plain += sum((d[s] & tm).bit_count() for d in cands) / len(cands)
            weighed += sum(w * (d[s] & tm).bit_count() for d, w in zip(cands, ws,
                                                                         strict=True)) / sum(ws)
    assert abs(weighed - truth) < abs(plain - truth), (plain, weighed, truth)


def test_a_seat_that_did_not_take_a_trick_it_could_is_read_so() -> None:
    """Last to play, the other side winning, a seat that did not win the trick: deals
    that give it a card that would have won weigh ``PLAY_FLOOR`` of the others."""
    for seed in range(300):
        g = new_game("merrimack-valley", seed=seed)
        bot = BasicBot()
        while not g.hand_over and (g.phase is not Phase.PLAY or g.tricks == []):
            s = g.turn
            assert s is not None
            g.apply(bot.choose(g.view(s), g.legal_actions()))
        if g.hand_over:
            continue
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        k = knowledge(view)
        ev = inf.Evidence(view, k)
        if not ev.ducks:
            continue
        s, _, card = ev.ducks[0]
        assert s != seat
        rng = random.Random(seed)
        seen_with = seen_without = 0
        for _ in range(400):
            d = deal_world(k, rng)
            if d is None:
                continue
            held = d[s] | sum(a.arg for a in k.plays if a.seat == s)
            could = inf._beats_any(held, card, view_trump(view))
            w = ev.play_weight(d)
            if could:
                seen_with += 1
                assert w <= inf.PLAY_FLOOR
            else:
                seen_without += 1
                assert w == 1.0 or len(ev.ducks) > 1
        if seen_with and seen_without:
            return
    raise AssertionError("no position with a trick not taken and both kinds of deal")


def _basic_positions(preset: str, count: int, seed: int) -> list[FortyFivesState]:
    """Hands of ``basic`` against itself stopped at a card of the second trick or later."""
    rng = random.Random(seed)
    out = []
    for i in range(count * 3):
        g = new_game(preset, seed=seed * 1000 + i)
        assert isinstance(g, FortyFivesState)
        stop = rng.randrange(g.n + 1, 4 * g.n)
        played = 0
        bot = BasicBot()
        while not g.hand_over and not (g.phase is Phase.PLAY and played == stop):
            played += g.phase is Phase.PLAY
            s = g.turn
            assert s is not None
            g.apply(bot.choose(g.view(s), g.legal_actions()))
        if not g.hand_over:
            out.append(g)
        if len(out) == count:
            break
    return out


def _drawn(preset: str, count: int, seed: int, rng: random.Random, draws: int,
           ) -> Iterator[tuple[FortyFivesState, int, dict[str, Any], Knowledge, list[list[int]]]]:
    """Each of ``_basic_positions``: the game, the seat to play, its view, what it knows,
    and the deals the sampler draws for it (of ``draws`` tries)."""
    for g in _basic_positions(preset, count, seed):
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        k = knowledge(view)
        yield g, seat, view, k, [d for d in (deal_world(k, rng) for _ in range(draws))
                                 if d is not None]


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45"])
def test_the_opponents_cards_read_as_basics_never_rule_out_the_true_deal(preset: str) -> None:
    """Against ``basic``, the reading of each opponent card as ``basic``'s (``policy``)
    gives the true deal the full weight at every position (the rule is read again
    faithfully from the view), reads the opponents' cards only, and weighs down most of
    the deals the sampler draws."""
    rng = random.Random(5)
    mean = []
    for g, seat, view, k, cands in _drawn(preset, 25, 7, rng, 200):
        ev = inf.Evidence(view, k, policy=True)
        partners = next(set(x) for x in view["sides"] if seat in x)
        assert ev.reads and all(r[0] not in partners for r in ev.reads)
        assert len(ev.reads) == sum(1 for a in k.plays if a.seat not in partners)
        assert ev.policy_weight([g.hands[s] for s in range(g.n)]) == 1.0
        ws = [ev.policy_weight(d) for d in cands]
        assert all(0 < w <= 1 for w in ws)
        mean.append(sum(ws) / len(ws))
    assert sum(mean) / len(mean) < 0.6, mean


def test_the_partners_cards_are_read_too_where_asked() -> None:
    """``partner`` (the level ``expert-partner``): the partner's cards are read by
    ``basic``'s rule as the opponents' are, and no longer by the rule of the last seat
    alone; against ``basic`` the true deal keeps its full weight, and the deals that give
    the partner cards it would not have played so are weighed down."""
    rng = random.Random(5)
    lower = 0
    for g, seat, view, k, cands in _drawn("merrimack-valley", 20, 7, rng, 150):
        partners = next(set(x) for x in view["sides"] if seat in x) - {seat}
        plain = inf.Evidence(view, k, policy=True)
        both = inf.Evidence(view, k, policy=True, partner=True)
        assert {r[0] for r in both.reads} - {r[0] for r in plain.reads} <= partners
        assert len(both.reads) == sum(1 for a in k.plays if a.seat != seat)
        assert not any(s in partners for s, _, _ in both.ducks)
        assert both.policy_weight([g.hands[s] for s in range(g.n)]) == 1.0
        for d in cands:
            w, w2 = plain.policy_weight(d), both.policy_weight(d)
            assert 0 < w2 <= w
            lower += w2 < w
    assert lower > 0
    bot = make_bot("expert-partner", random.Random(1))
    assert isinstance(bot, ExpertBot) and bot.read_partner and bot.policy


def test_each_opponent_is_read_as_one_kind_of_player_for_the_whole_hand() -> None:
    """``types`` (the level ``expert-types``): one kind of player is the plain reading; two
    kinds alike are one; a hard kind (no card but ``basic``'s) keeps exactly the deals
    that agree with every card; two kinds weigh each deal between the two, and against
    ``basic`` never weigh down the true deal."""
    rng = random.Random(8)
    seen_between = several = 0
    for g, _, view, k, cands in _drawn("merrimack-valley", 12, 5, rng, 120):

        def weights(types: tuple[tuple[float, float], ...] | None,
                    view: dict = view, k: Knowledge = k,
                    cands: list[list[int]] = cands) -> list[float]:
            return [inf.Evidence(view, k, policy=True, types=types).policy_weight(d)
                    for d in cands]

        plain = weights(None)
        assert weights(((1.0, inf.POLICY_FLOOR),)) == pytest.approx(plain, rel=1e-12)
        assert weights(((0.5, inf.POLICY_FLOOR), (0.5, inf.POLICY_FLOOR))) == pytest.approx(
            plain, rel=1e-12)
        assert weights(((1.0, 0.0),)) == [1.0 if w == 1.0 else 0.0 for w in plain]
        # half the time a player who plays anything, half the time basic itself: each
        # opponent who played a card basic would not have halves the weight, once for the
        # hand however many such cards it played (two opponents: never under a quarter)
        halves = weights(((0.5, 1.0), (0.5, 0.0)))
        assert set(halves) <= {1.0, 0.5, 0.25}
        assert [h == 1.0 for h in halves] == [w == 1.0 for w in plain]
        several += sum(w < inf.POLICY_FLOOR ** 2.5 for w in plain)
        mixed = weights(inf.POLICY_TYPES)
        low = weights(((1.0, min(f for _, f in inf.POLICY_TYPES)),))
        for lo, mid, hi in zip(low, mixed, weights(((1.0, max(f for _, f in inf.POLICY_TYPES)),)),
                               strict=True):
            assert lo - 1e-12 <= mid <= hi + 1e-12
            seen_between += lo < mid < hi
        truth = [g.hands[s] for s in range(g.n)]
        assert inf.Evidence(view, k, policy=True, types=inf.POLICY_TYPES).policy_weight(
            truth) == 1.0
    assert seen_between > 0 and several > 0  # deals with three cards or more not basic's


def test_reading_the_opponents_cards_moves_the_deals_towards_the_truth() -> None:
    """Over hands of ``basic`` against itself, the deals weighed by the opponents' cards
    place the hidden cards where they are more often than the deals weighed without."""
    rng = random.Random(11)
    right = {False: 0.0, True: 0.0}
    for g, seat, view, k, cands in _drawn("merrimack-valley", 20, 3, rng, 300):
        for policy in (False, True):
            ws = inf.Evidence(view, k, policy=policy).weights(cands)
            for s in range(g.n):
                if s != seat:
                    right[policy] += sum(w * (d[s] & g.hands[s]).bit_count()
                                         for d, w in zip(cands, ws, strict=True)) / sum(ws)
    assert right[True] > 1.1 * right[False], right


def view_trump(view: dict) -> int:
    return "CDHS".index(view["trump"])


def test_weighted_worlds_are_deterministic_for_a_seed() -> None:
    g, _ = _first_card_after_bid(25)
    seat = g.turn
    assert seat is not None
    view = g.view(seat)
    a = inf.weighted_worlds(view, 40, random.Random(9))
    b = inf.weighted_worlds(view, 40, random.Random(9))
    assert [(w.hands, x) for w, x in a] == [(w.hands, x) for w, x in b]
    assert sum(x for _, x in a) == 40  # every draw fell on a deal (none illegal here)
    bots = [ExpertBot(random.Random(5), worlds=12, infer=True) for _ in range(2)]
    one, two = (bot.decide(view, g.legal_actions()) for bot in bots)
    assert one == two


def test_the_pool_chooses_its_deals_from_more_drawn() -> None:
    """``expert-pool`` draws POOL_OVERSAMPLE cheap deals for each deal it solves: read by
    the opponents' cards, the same number of draws then falls on more distinct deals."""
    bot = make_bot("expert-pool", random.Random(1))
    assert isinstance(bot, ExpertBot) and bot.oversample == inf.POOL_OVERSAMPLE > inf.OVERSAMPLE
    distinct = {inf.OVERSAMPLE: 0, inf.POOL_OVERSAMPLE: 0}
    for g in _basic_positions("merrimack-valley", 10, 4):
        seat = g.turn
        assert seat is not None
        for over in distinct:
            ws = inf.weighted_worlds(g.view(seat), 64, random.Random(3), over, policy=True)
            assert sum(x for _, x in ws) == 64
            distinct[over] += len(ws)
    assert distinct[inf.POOL_OVERSAMPLE] > 1.1 * distinct[inf.OVERSAMPLE], distinct


def _first_card(preset: str, options: dict | None = None) -> FortyFivesState:
    """A hand of ``preset`` bid, named and drawn by ``basic``, at its first card."""
    for seed in range(50):
        g = new_game(build_rules(preset, options or {}), seed=seed)
        while g.phase is not Phase.PLAY and not g.hand_over:
            s = g.turn
            assert s is not None
            g.apply(BasicBot().choose(g.view(s), g.legal_actions()))
        if g.phase is Phase.PLAY and len(g.legal_actions()) > 1:
            assert isinstance(g, FortyFivesState)
            return g
    raise AssertionError("no hand reached its play")


@pytest.mark.parametrize(("preset", "options", "expected"), [
    ("auction-45", {}, {"expert": "weighs", "expert-plain": None, "expert-infer": "weighs",
                        "expert-policy": "reads plays", "expert-narrow": "weighs"}),
    ("merrimack-valley", {}, {"expert": "reads plays", "expert-plain": None,
                              "expert-infer": "weighs", "expert-policy": "reads plays",
                              "expert-narrow": None, "expert-wide": None}),
    ("auction-45", {"players": 6}, {"expert": None, "expert-plain": None,
                                    "expert-infer": "weighs", "expert-policy": "reads plays"}),
])
def test_the_default_expert_weighs_its_deals_where_that_won(preset: str, options: dict,
                                                              expected: dict) -> None:
    """``expert`` plays on weighed deals in Auction 45 and Merrimack Valley of four
    players, where that beat the plain player in duplicate, and not elsewhere; in
    Merrimack Valley it also reads the opponents' cards as ``basic``'s, where that beat
    the expert without it; ``expert-plain`` never weighs, ``expert-policy`` always reads
    the cards, and the players kept for comparison (``expert-narrow``, ``expert-wide``,
    ``expert-infer``) are as they were."""
    g = _first_card(preset, options)
    seat = g.turn
    assert seat is not None
    calls: list[str] = []
    real = inf.weighted_worlds

    def spy(view: dict, count: int, rng: random.Random, **kw: bool) -> list:
        calls.append("reads plays" if kw.get("policy") else "weighs")
        return real(view, count, rng, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(inf, "weighted_worlds", spy)
    try:
        for level, how in expected.items():
            calls.clear()
            bot = make_bot(level, random.Random(1))
            assert isinstance(bot, ExpertBot)
            bot.worlds = 8
            bot.decide(g.view(seat), g.legal_actions())
            assert calls == ([how] if how else []), level
    finally:
        mp.undo()


FF_CONFIGS = [c for c in CONFIGS if c[0] != "forty-one"]


@pytest.mark.parametrize(("preset", "options"), FF_CONFIGS, ids=map(config_id, FF_CONFIGS))
@pytest.mark.parametrize("level", ["expert-infer", "expert-policy", "expert-types",
                                   "expert-pool", "expert-partner", "expert-calib"])
def test_expert_infer_plays_only_legal_actions(preset: str, options: dict, level: str) -> None:
    """Every Forty-Fives preset and player count: expert-infer and expert-policy (few
    deals, to stay quick) make only legal choices for a whole hand, and weigh their deals
    in the play."""
    rules = build_rules(preset, options)
    assert isinstance(rules, FortyFivesRules)
    calls = quick_hands_calls(rules, level, inf, "weighted_worlds")
    assert calls > 0


def test_auction_classes_read_bids_holds_and_passes() -> None:
    history = ["1 pass", "2 bid 20", "3 bid 25", "0 hold", "1 pass", "2 pass", "3 pass",
               "0 raise 30", "0 trump C"]
    assert inf.auction_classes(history, 4, 20) == {
        0: "B30", 1: "N0-30", 2: "N20-30", 3: "N25-30"}


def test_decision_time_bench_times_expert_infer() -> None:
    """``python -m bench.expert HANDS merrimack-valley infer`` times it."""
    from bench.expert import decision_times

    by_phase = decision_times("merrimack-valley", 1, "infer")
    assert "play" in by_phase and all(t >= 0 for t in by_phase["play"])


def test_placement_bench_reports_both_samplers(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m lab.infer POSITIONS PRESET`` prints the log-loss of the plain,
    the weighed and the weighed-and-read deals over the same positions."""
    from lab.infer import report

    report(positions=3, preset="auction-45")
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert "plain (expert-plain): log-loss" in out[0] and "weighed (expert-infer)" in out[1]
    assert "cards read (expert-policy)" in out[2]
    assert out[0].split(":")[0] == out[1].split(":")[0] == out[2].split(":")[0]


def test_agreement_bench_counts_the_experts_cards_that_are_basics() -> None:
    """``python -m lab.infer agree HANDS PRESET`` counts, by the number of legal
    cards, how often the expert's card was ``basic``'s: in two hands, some of its cards
    are and some are not."""
    from lab import infer as bench

    rows = bench.agreement(2, "merrimack-valley")
    assert rows and all(k >= 2 and 0 <= same <= total for k, (same, total) in rows.items())
    same = sum(r[0] for r in rows.values())
    assert 0 < same < sum(r[1] for r in rows.values()), rows


def test_spread_bench_says_the_reading_leaves_the_weight_on_fewer_deals(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m lab.infer spread POSITIONS PRESET``: by tricks played, the
    effective share of the drawn deals the reading leaves the weight on, above nothing
    and, once an opponent has played against basic's rule's alternatives, under all."""
    from lab import infer as bench

    rows = bench.spread(12, "merrimack-valley")
    shares = [x for xs in rows.values() for x in xs]
    assert shares and all(0 < x <= 1 for x in shares)
    assert min(shares) < 0.5, rows
    bench.print_spread(4, "auction-45")
    out = capsys.readouterr().out
    assert "auction-45, 4 positions" in out and "tricks played:" in out


def test_calib_features_count_top_trumps_trumps_and_off_suit_kings() -> None:
    """``calib_features``: how many of the top four trumps (not which), trumps (to 4+) and
    off-suit kings (to 2+); the king of trumps is a trump, not an off-suit king."""
    from forties.cards import mask_of_names, parse_suit

    hearts = parse_suit("H")  # 5H JH AH KH are hearts' top four
    hand = mask_of_names(["5H", "AH", "KS", "KD", "KC"])
    assert inf.calib_features(hand, hearts) == (2 * 5 + 2) * 3 + 2
    spades = parse_suit("S")
    hand = mask_of_names(["KS", "KH", "2C", "3C", "4C"])
    assert inf.calib_features(hand, spades) == (0 * 5 + 1) * 3 + 1


def test_only_the_calib_proposal_deals_kept_kings_more_often() -> None:
    """``knowledge(kings=True)`` weighs the off-suit kings of a seat that kept cards in
    the draw (as ``basic`` keeps them); the default knowledge, which today's levels use,
    does not."""
    g = _first_card("merrimack-valley")
    seat = g.turn
    assert seat is not None
    view = g.view(seat)
    plain, kings = knowledge(view), knowledge(view, kings=True)
    trump = g.trump
    off_kings = [s * 13 + 11 for s in range(4) if not TRUMPS[trump] >> (s * 13 + 11) & 1]
    kept = [s for s in range(g.n) if s != seat and inf._kept(view, s) > 0]
    assert kept
    for s in kept:
        assert all(c not in plain.weights[s] for c in off_kings)
        assert all(kings.weights[s][c] > 1 for c in off_kings)


@pytest.mark.parametrize("preset", ["merrimack-valley", "auction-45"])
def test_the_calibrated_weighing_never_weighs_the_true_deal_to_zero(preset: str) -> None:
    """``expert-calib``'s weighing (with the reading of the opponents' cards where the
    preset's default has it) gives the true deal a weight above zero at every position,
    before the first card and later, as it gives every deal drawn."""
    from forties.bots.expert import POLICY_PRESETS

    rng = random.Random(3)
    positions = [_first_card(preset), *_basic_positions(preset, 12, 9)]
    for g in positions:
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        k = knowledge(view, kings=True)
        cands = inf.draw_deals(k, 120, rng)
        ev = inf.Evidence(view, k, preset in POLICY_PRESETS, calib=True)
        ev.fit_start(k, len(cands), rng)
        assert (ev.start is None) == (not k.plays)
        truth = [g.hands[s] for s in range(g.n)]
        ws = ev.weights([truth, *cands])
        assert ws[0] > 0 and all(w > 0 for w in ws), ws[:3]


def _nearer(rows: dict[tuple[int, str], list[float]], col: int, kinds: tuple[str, ...],
            tricks: range) -> bool:
    """Whether weighing ``col`` (of the bench's WEIGHINGS) puts each of ``kinds`` nearer the
    truth than the plain sampler, over ``tricks``."""
    for kind in kinds:
        n = sum(rows[t, kind][0] for t in tricks)
        truth, plain, other = (sum(rows[t, kind][1 + i] for t in tricks) / n
                               for i in (0, 1, col))
        if abs(other - truth) >= abs(plain - truth):
            return False
    return True


def test_the_calibrated_weighing_places_kings_and_top_trumps_nearer_the_truth() -> None:
    """``python -m lab.infer calibration HANDS PRESET``, small: against
    ``basic``, before the first card and over the first three tricks, ``expert-calib``'s
    deals put the hidden off-suit kings and top-4 trumps in the others' hands nearer the
    truth than the plain sampler; today's Merrimack Valley weighing does not (it places
    both in the hands less often than the plain sampler, the truth being more often)."""
    from lab import infer as bench

    rows = bench.calibration(16, "merrimack-valley", draws=240)
    calib, today = bench.WEIGHINGS.index("calib"), bench.WEIGHINGS.index("today")
    kinds = ("off-suit king", "top-4 trump")
    assert _nearer(rows, calib, kinds, range(1)), rows
    assert _nearer(rows, calib, ("off-suit king",), range(3)), rows
    assert not _nearer(rows, today, kinds, range(1)), rows


def test_calibration_bench_prints_each_kind_and_trick(capsys: pytest.CaptureFixture[str]) -> None:
    from lab import infer as bench

    mp = pytest.MonkeyPatch()
    real = bench.calibration
    mp.setattr(bench, "calibration", lambda h, p: real(h, p, draws=40))
    try:
        bench.print_calibration(2, "auction-45")
    finally:
        mp.undo()
    out = capsys.readouterr().out
    assert "auction-45, 2 hands" in out and "trick 1, off-suit king" in out
    assert "calib" in out and "|error|" in out


def test_expert_calib_weighs_with_the_calibrated_table_and_times_it() -> None:
    """The level ``expert-calib`` weighs its deals in every preset with the calibrated
    table (``calib=True``), reading the opponents' cards where the default does; the
    default ``expert`` does not use it; ``bench.expert ... calib`` times it."""
    from bench.expert import decision_times

    calls: list[dict[str, Any]] = []
    real = inf.weighted_worlds

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(*args, **kwargs)

    mp = pytest.MonkeyPatch()
    mp.setattr(inf, "weighted_worlds", spy)
    try:
        for preset, policy in (("merrimack-valley", True), ("auction-45", False)):
            g = _first_card(preset)
            seat = g.turn
            assert seat is not None
            for level, calib in (("expert-calib", True), ("expert", False)):
                calls.clear()
                bot = make_bot(level, random.Random(1))
                assert isinstance(bot, ExpertBot)
                bot.worlds = 4
                bot.decide(g.view(seat), g.legal_actions())
                assert calls and calls[0]["calib"] is calib
                assert calls[0]["policy"] is policy
    finally:
        mp.undo()
    by_phase = decision_times("merrimack-valley", 1, "calib")
    assert "play" in by_phase and all(t >= 0 for t in by_phase["play"])


def test_the_start_of_the_play_is_read_back_from_the_cards_played() -> None:
    """``sampler.start_knowledge``: the seat's cards when the play began, every card the
    others played back among the unknown ones, five cards a seat and no voids; the true
    start of the play fits it."""
    from forties.bots.sampler import start_knowledge

    for g in _basic_positions("auction-45", 6, 4):
        seat = g.turn
        assert seat is not None
        k = knowledge(g.view(seat), kings=True)
        k0 = start_knowledge(k)
        start = list(g.hands)
        for a in k.plays:
            start[a.seat] |= a.arg
        assert k.plays and k0.plays == [] and k0.mine == start[seat]
        assert k0.sizes == [5] * g.n and k0.forbid == [0] * g.n
        assert k0.weights is k.weights
        for s in range(g.n):
            if s != seat:
                assert start[s] & ~k0.unknown & ~k0.fixed[s] == 0
