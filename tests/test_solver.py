"""The double-dummy solver (``forties.solver``).

Exactness is judged against a plain minimax written here over the engine's own
``legal_actions`` and ``apply`` (no pruning, no card numbering, no bounds: only a
memo of positions already valued), on positions with few cards left; the
compiled kernel against its pure-Python twin on thousands of random positions;
and both on hands worked out by hand from rules.md.

The side maximised in a hand with a bidder is the bidder, his partner once known
and, in Call Your Partner, the holder of the called card until the end of the
second trick; every other seat plays against it. Without a bidder (Traditional
45) a side plays against all the rest.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from forties import Action, Deal, FortyFivesRules, GameState, Phase, build_rules, new_game
from forties.cards import parse_card
from forties.fortyfives import TRUMPS, FortyFivesState
from forties.fortyone import FortyOneState
from forties.solver import (
    best_moves,
    best_moves_forty_one,
    kernel,
    par,
    solve,
    solve_forty_one,
)
from forties.solver.position import forty_fives_position

from .helpers_engine import Config, config_id

ENGINES = ("kernel", "python")

# Every following rule of rules.md: trump-only and suit-or-trump, the three renege
# rules, hearts on hearts, both bonus rules, two to six players, pairs, three pairs,
# two threes, cut-throat, no bidder (Traditional 45) and Call Your Partner.
RULES: list[Config] = [
    ("merrimack-valley", {}),
    ("merrimack-valley", {"renege": "five-only", "hearts_on_hearts": True}),
    ("merrimack-valley", {"renege": "none", "bonus": "five-only", "follow": "suit-or-trump"}),
    ("merrimack-valley", {"players": 3}),
    ("merrimack-valley", {"players": 6}),
    ("merrimack-valley", {"players": 2, "hearts_on_hearts": True}),
    ("nova-scotia", {}),
    ("nova-scotia", {"hearts_on_hearts": True}),
    ("nova-scotia", {"players": 6}),
    ("nova-scotia", {"players": 3, "renege": "five-only"}),
    ("auction-45", {}),
    ("auction-45", {"players": 5, "renege": "none"}),
    ("call-your-partner", {}),
    ("call-your-partner", {"hearts_on_hearts": True, "renege": "five-only",
                           "follow": "trump-only"}),
]


def players(c: Config) -> int:
    rules = build_rules(*c)
    assert isinstance(rules, FortyFivesRules)
    return rules.players


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def deal_with(hands: list[str], kitty: str = "") -> Deal:
    """A deal of these hands and kitty; the rest of the deck is the stock."""
    hs = tuple(cards(h) for h in hands)
    k = cards(kitty)
    used = {c for h in hs for c in h} | set(k)
    return Deal(hs, k, tuple(c for c in range(52) if c not in used))


def play(g: GameState, actions: list[str]) -> None:
    for a in actions:
        g.apply(a)


# ----- random positions -----------------------------------------------------------------

def position(config: Config, seed: int, plays: int) -> GameState:
    """A hand of ``config`` dealt from ``seed``, bid and drawn at random, then ``plays``
    random legal cards into the play (fewer if the hand ends)."""
    rng = random.Random(seed)
    g = new_game(build_rules(*config), seed=seed)
    while g.phase is not Phase.PLAY:
        if g.hand_over:  # thrown in: the next dealer deals
            g.next_hand()
            continue
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    for _ in range(plays):
        if g.phase is not Phase.PLAY:
            break
        acts = g.legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return g


def cards_left(g: GameState) -> int:
    return sum(h.bit_count() for h in g.hands)


# ----- a plain minimax over the engine ----------------------------------------------------

def called_holder(g: FortyFivesState) -> int:
    """The seat that holds the called card, or has played it to the trick in progress."""
    for s in range(g.n):
        if g.hands[s] & g.called:
            return s
    for i, c in enumerate(g.trick_cards):
        if 1 << c == g.called:
            return (g.trick_leader + i) % g.n
    return -1


def bidding_coalition(g: FortyFivesState) -> set[int]:
    """The seats playing for the bidder now: his side, his partner's, and the holder of the
    called card while the card may still be shown within the first two tricks."""
    seats = {s for x in g.bidding_sides() for s in g.sides[x]}
    if g.rules.call_partner and g.called > 0 and g.partner < 0 and g.trick_no < 2:
        holder = called_holder(g)
        if holder >= 0:
            seats.add(holder)
    return seats


def minimax(g: GameState, is_max: Callable[[GameState, int], bool],
            value: Callable[[GameState], int], memo: dict[Any, int]) -> int:
    """The value of ``g`` with the maximiser's seats playing for the most ``value`` at the
    end of the hand and the others for the least, every legal play tried."""
    if g.phase is not Phase.PLAY:
        return value(g)
    key = (tuple(g.hands), tuple(g.trick_cards), g.trick_leader, len(g.tricks),
           getattr(g, "partner", None), tuple(getattr(g, "points", ())),
           tuple(getattr(g, "taken", ())))
    if key in memo:
        return memo[key]
    assert g.turn is not None
    mx = is_max(g, g.turn)
    results = []
    for a in g.legal_actions():
        child = g.clone()
        child.apply(a)
        results.append(minimax(child, is_max, value, memo))
    memo[key] = max(results) if mx else min(results)
    return memo[key]


def ff(g: GameState) -> FortyFivesState:
    assert isinstance(g, FortyFivesState)
    return g


def fo(g: GameState) -> FortyOneState:
    assert isinstance(g, FortyOneState)
    return g


def hand_total(g: FortyFivesState) -> int:
    """25 points of tricks, and the bonus if a trump is held (rules.md: bonus)."""
    return 30 if g.bonus_card >= 0 else 25


def bidders_hold(g: FortyFivesState) -> int:
    """What the bidding coalition holds at the end of the hand, by minimax."""
    return minimax(g, lambda s, seat: seat in bidding_coalition(ff(s)),
                   lambda s: sum(ff(s).points[x] for x in ff(s).bidding_sides()), {})


def plain_solve(g: FortyFivesState, side: int) -> int:
    """The points ``side``'s coalition holds at the end of the hand, by minimax."""
    if g.bidder < 0:
        return minimax(g, lambda s, seat: ff(s).side_of[seat] == side,
                       lambda s: ff(s).points[side], {})
    v = bidders_hold(g)
    inside = any(s in bidding_coalition(g) for s in g.sides[side])
    return v if inside else hand_total(g) - v


def plain_moves(g: FortyFivesState) -> dict[Action, int]:
    """Each legal card of the seat to play and what its coalition then holds, by minimax."""
    seat = g.turn
    assert seat is not None
    out = {}
    for a in g.legal_actions():
        child = ff(g.clone())
        child.apply(a)
        if g.bidder < 0:
            v = plain_solve(child, g.side_of[seat])
        else:
            v = bidders_hold(child)
            if seat not in bidding_coalition(g):
                v = hand_total(g) - v
        out[a] = v
    return out


def plain_forty_one(g: FortyOneState, seats: set[int]) -> int:
    """The tricks ``seats`` take in the hand, by minimax."""
    return minimax(g, lambda s, seat: seat in seats,
                   lambda s: sum(fo(s).taken[q] for q in seats), {})


# ----- exactness --------------------------------------------------------------------------

@pytest.mark.parametrize("config", RULES, ids=config_id)
def test_solve_matches_plain_minimax(config: Config) -> None:
    """With a few tricks left, both engines give every side the value a plain minimax over
    the engine's legal plays gives, and every legal card its value; half the positions are
    taken just after a trump lead (AH under hearts on hearts, when it comes), where the
    renege and hearts-on-hearts rules bite."""
    n = players(config)
    left = 12 if n <= 4 else 2 * n  # heads-up: the whole hand; 3 and 4: four and three
    # tricks; 5 and 6: two
    checked = 0
    for seed in range(20):
        g = position(config, 100 + seed, 0)
        assert isinstance(g, FortyFivesState)
        rng = random.Random(seed)
        while g.phase is Phase.PLAY and cards_left(g) > left - rng.randrange(n):
            acts = g.legal_actions()
            g.apply(acts[rng.randrange(len(acts))])
        if seed % 2:
            # on to the first moment a trump (AH, one time in two, under hearts on hearts)
            # has been led and someone else must answer it
            lead = 1 << 38 if seed % 4 == 1 and g.rules.hearts_on_hearts else TRUMPS[g.trump]
            while g.phase is Phase.PLAY and not (
                    len(g.trick_cards) == 1 and lead >> g.trick_cards[0] & 1):
                acts = g.legal_actions()
                g.apply(acts[rng.randrange(len(acts))])
        if g.phase is not Phase.PLAY:
            continue
        for side in range(len(g.sides)):
            want = plain_solve(g, side)
            for engine in ENGINES:
                assert solve(g, side, engine) == want, (engine, side, g.to_json()["actions"])
        moves = plain_moves(g)
        for engine in ENGINES:
            assert best_moves(g, engine) == moves, engine
        checked += 1
    assert checked >= 10


def test_call_your_partner_second_trick_matches_plain_minimax() -> None:
    """In the second trick of Call Your Partner, while the called card may still make its
    holder the bidder's partner, both engines agree with a plain minimax."""
    checked = 0
    seed = 0
    while checked < 3:
        seed += 1
        g = position(("call-your-partner", {}), 500 + seed, 7 + seed % 3)
        assert isinstance(g, FortyFivesState)
        holder = called_holder(g) if g.called > 0 else -1
        if g.phase is not Phase.PLAY or g.trick_no != 1 or holder in (-1, g.bidder) \
                or g.partner >= 0:
            continue
        side = g.side_of[g.bidder]
        want = plain_solve(g, side)
        for engine in ENGINES:
            assert solve(g, side, engine) == want
            assert solve(g, g.side_of[holder], engine) == want  # the holder plays with him
        checked += 1


def test_both_sides_share_the_hand() -> None:
    """With two sides, what each can force adds up to the hand (25, or 30 with a trump
    held); par is the bidding side's value; a value never falls below what is banked."""
    for seed in range(40):
        config = RULES[seed % len(RULES)]
        g = position(config, 900 + seed, seed % 17)
        assert isinstance(g, FortyFivesState)
        if g.phase is not Phase.PLAY:
            continue
        values = [solve(g, x) for x in range(len(g.sides))]
        for v in values:
            assert 0 <= v <= hand_total(g)
        if len(g.sides) == 2:
            assert sum(values) == hand_total(g)
            assert all(g.points[x] <= values[x] for x in range(2))
        if g.bidder >= 0:
            assert par(g) == values[g.side_of[g.bidder]]


def test_hand_over_gives_the_points_taken() -> None:
    """Once the hand is played out, a side's value is what it took."""
    g = position(("merrimack-valley", {}), 7, 20)
    assert isinstance(g, FortyFivesState) and g.hand_over
    for engine in ENGINES:
        assert [solve(g, x, engine) for x in range(2)] == g.points
        assert best_moves(g, engine) == {}


def test_solve_refuses_a_hand_not_in_play() -> None:
    """Before trump and the draw there is nothing to solve; Forty One has its own call."""
    g = new_game("merrimack-valley", seed=3)
    with pytest.raises(ValueError, match="not being played"):
        solve(g, 0)
    with pytest.raises(TypeError):
        solve(position(("forty-one", {}), 3, 0), 0)
    with pytest.raises(ValueError, match="no bidder"):
        par(position(("nova-scotia", {}), 3, 0))


def test_compiled_numbering_matches_the_python_one() -> None:
    """The kernel's own numbering of a game's cards is the one ``position.py`` makes."""
    for seed in range(60):
        config = RULES[seed % len(RULES)]
        g = position(config, 300 + seed, seed % 13)
        assert isinstance(g, FortyFivesState)
        if g.phase is not Phase.PLAY:
            continue
        pos = forty_fives_position(g, 1, -1, 0, 0)
        kernel.future_ff(g, 1, -1, 0)
        t = kernel._table(5)
        m = len(pos.cards)
        assert list(t.buf[kernel.B_HANDS:kernel.B_HANDS + g.n]) == pos.hands
        assert list(t.buf[kernel.B_SEG:kernel.B_SEG + m]) == list(pos.seg)
        assert list(t.buf[kernel.B_CLS:kernel.B_CLS + m]) == list(pos.cls)
        assert list(t.buf[kernel.B_TRICK:kernel.B_TRICK + len(pos.trick)]) == pos.trick
        assert tuple(t.buf[kernel.B_SEGMASK:kernel.B_SEGMASK + 4]) == pos.segmask
        bonusbit = 1 << pos.bonus if pos.bonus >= 0 else 0
        assert list(t.cfg[[kernel.TSEG, kernel.PRIV, kernel.AH, kernel.PLAIN, kernel.BONUSBIT,
                           kernel.CALLED]]) == [pos.tseg, pos.priv, pos.ah, pos.hearts,
                                                bonusbit, pos.called]


# ----- the kernel and its twin --------------------------------------------------------------

def test_kernel_agrees_with_twin_on_random_positions() -> None:
    """Two thousand random positions (random deals, bids, draws and plays, under every
    following rule, two to six players): the compiled kernel and the pure-Python twin
    give the same value (the bidding side and another; without a bidder every side), and
    in one position in four the same value to every legal card. With five or six players
    the positions start after the first trick, to keep the pure-Python search short."""
    rng = random.Random(2024)
    compared = 0
    for i in range(2000):
        config = RULES[rng.randrange(len(RULES))]
        n = players(config)
        first = n if n >= 5 else 0
        g = position(config, 10_000 + i, rng.randrange(first, 5 * n))
        if g.phase is not Phase.PLAY:
            continue
        assert isinstance(g, FortyFivesState)
        if g.bidder >= 0:
            sides = [g.side_of[g.bidder], rng.randrange(len(g.sides))]
        else:
            sides = list(range(len(g.sides)))
        for side in sides:
            assert solve(g, side, "kernel") == solve(g, side, "python"), \
                (config, side, g.to_json())
        if i % 4 == 0:
            assert best_moves(g, "kernel") == best_moves(g, "python")
        compared += 1
    assert compared > 1800


def test_forty_one_kernel_agrees_with_twin() -> None:
    """Forty One, exact endgames and bounded searches of whole hands: the same values."""
    for i in range(60):
        g = position(("forty-one", {}), 20_000 + i, (i * 11) % 52)
        if g.phase is not Phase.PLAY:
            continue
        for seat in range(4):
            for alone in (False, True):
                a = solve_forty_one(g, seat, alone, engine="kernel")
                b = solve_forty_one(g, seat, alone, engine="python")
                assert a == b
        if i % 5 == 0:
            depth = 1 + i % 2
            assert best_moves_forty_one(g, depth=depth, engine="kernel") == \
                best_moves_forty_one(g, depth=depth, engine="python")


# ----- Forty One --------------------------------------------------------------------------

def test_forty_one_endgames_match_plain_minimax() -> None:
    """With three tricks or fewer left the Forty One search is exact: a team's tricks and a
    seat's alone, and each legal card's, are those of a plain minimax."""
    checked = 0
    for seed in range(12):
        g = position(("forty-one", {}), 700 + seed, 40 + seed % 4)
        assert isinstance(g, FortyOneState)
        if g.phase is not Phase.PLAY:
            continue
        for seat in range(4):
            team = {seat, (seat + 2) % 4}
            for engine in ENGINES:
                assert solve_forty_one(g, seat, engine=engine) == plain_forty_one(g, team)
                assert solve_forty_one(g, seat, alone=True, engine=engine) == \
                    plain_forty_one(g, {seat})
        mover = g.turn
        assert mover is not None
        want = {}
        for a in g.legal_actions():
            child = g.clone()
            child.apply(a)
            assert isinstance(child, FortyOneState)
            want[a] = plain_forty_one(child, {mover, (mover + 2) % 4})
        for engine in ENGINES:
            assert best_moves_forty_one(g, engine=engine) == want
        checked += 1
    assert checked >= 8


def test_forty_one_bounded_search_stays_in_range() -> None:
    """A whole hand is searched two tricks deep and estimated beyond: the answer is a
    number of tricks the team could take (what it has, up to all that are left), and the
    engines agree."""
    for seed in range(6):
        g = position(("forty-one", {}), 800 + seed, seed)
        assert isinstance(g, FortyOneState)
        for seat in (0, 1):
            v = solve_forty_one(g, seat)
            assert v == solve_forty_one(g, seat, engine="python")
            team = (seat, seat + 2)
            taken = sum(g.taken[s] for s in team)
            assert taken <= v <= taken + 13 - g.trick_no


# ----- hands worked out by hand -----------------------------------------------------------

def heads_up_hand() -> GameState:
    """Merrimack Valley heads-up, hearts trump. Seat 1 bids and leads holding 2H and four
    spades; seat 0 holds 5H and four clubs. Nothing else is in play."""
    g = new_game(build_rules("merrimack-valley", {"players": 2}),
                 deal=deal_with(["5H 9C 8C 7C 6C", "2H KS QS JS AS"], "2D 3D 4D"))
    play(g, ["1 bid 15", "0 pass", "1 trump H", "1 discard 2D 3D 4D", "0 discard"])
    assert g.phase is Phase.PLAY and g.turn == 1
    return g


def test_heads_up_keep_the_trump_to_ruff() -> None:
    """5H is the highest trump in play, so its trick and the bonus (10) are seat 0's
    whatever happens. If seat 1 leads a spade he keeps 2H to ruff the one club seat 0 can
    lead after taking his 5H trick, and wins the other four: 20. If he leads 2H, seat 0
    plays 5H on it, and seat 1, with nothing but spades, loses every club seat 0 leads:
    seat 0 takes all 30 (clubs led: trump-only, any card may be played, only a trump wins).
    """
    g = heads_up_hand()
    for engine in ENGINES:
        assert solve(g, 1, engine) == 20
        assert solve(g, 0, engine) == 10
        assert par(g, engine) == 20
        moves = best_moves(g, engine)
        assert moves == {Action.parse("1 play 2H"): 0, Action.parse("1 play KS"): 20,
                         Action.parse("1 play QS"): 20, Action.parse("1 play JS"): 20,
                         Action.parse("1 play AS"): 20}


def test_heads_up_privileged_five_may_wait() -> None:
    """After seat 1 leads KS and seat 0 throws a club, seat 1 leads 2H. The 5, seat 0's only
    trump, outranks the 2 led and may be withheld (top3): seat 0 may play any card."""
    g = heads_up_hand()
    play(g, ["1 play KS", "0 play 9C", "1 play 2H"])
    for engine in ENGINES:
        moves = best_moves(g, engine)
        assert len(moves) == 4  # 5H and the three clubs
        # 5H now wins this trick and the bonus (10), and seat 0 then leads clubs to seat
        # 1's spades: three more tricks (15), 25 in all.
        assert moves[Action.parse("0 play 5H")] == 25
        # A club lets seat 1 win with 2H; seat 0 ruffs the next spade with 5H (10) and
        # wins the two clubs after it (10): 20.
        for c in ("8C", "7C", "6C"):
            assert moves[Action.parse(f"0 play {c}")] == 20


def test_heads_up_no_renege_forces_the_five() -> None:
    """The same trick without reneging (renege none): 5H is seat 0's only legal card."""
    g = new_game(build_rules("merrimack-valley", {"players": 2, "renege": "none"}),
                 deal=deal_with(["5H 9C 8C 7C 6C", "2H KS QS JS AS"], "2D 3D 4D"))
    play(g, ["1 bid 15", "0 pass", "1 trump H", "1 discard 2D 3D 4D", "0 discard",
             "1 play KS", "0 play 9C", "1 play 2H"])
    for engine in ENGINES:
        assert best_moves(g, engine) == {Action.parse("0 play 5H"): 25}


def hearts_on_hearts_hand(hoh: bool) -> GameState:
    """Merrimack Valley heads-up, spades trump, hearts on hearts as given. Seat 1 bids and
    leads holding AH (a trump) and four clubs; seat 0 holds 5S, KH QH and 7D 8D."""
    g = new_game(build_rules("merrimack-valley", {"players": 2, "hearts_on_hearts": hoh}),
                 deal=deal_with(["5S KH QH 7D 8D", "AH 2C 3C 4C 6C"], "2D 3D 4D"))
    play(g, ["1 bid 15", "0 pass", "1 trump S", "1 discard 2D 3D 4D", "0 discard"])
    return g


def test_hearts_on_hearts_draws_the_five() -> None:
    """Leading AH is fatal to seat 1 under hearts on hearts: seat 0 must answer with his
    only trump, 5S (no privilege when AH is led), wins it with the bonus (10) and then
    leads his hearts and diamonds to seat 1's clubs, winning all 30. A club lead instead
    keeps AH to ruff seat 0's one lead after his 5S trick: seat 1 takes four tricks, 20.
    Without hearts on hearts the 5 may be withheld on AH, so all five cards are legal."""
    g = hearts_on_hearts_hand(True)
    for engine in ENGINES:
        moves = best_moves(g, engine)
        assert moves[Action.parse("1 play AH")] == 0
        assert all(moves[Action.parse(f"1 play {c}")] == 20 for c in ("2C", "3C", "4C", "6C"))
    g.apply("1 play AH")
    for engine in ENGINES:
        assert best_moves(g, engine) == {Action.parse("0 play 5S"): 30}
    free = hearts_on_hearts_hand(False)
    free.apply("1 play AH")
    for engine in ENGINES:
        moves = best_moves(free, engine)
        assert len(moves) == 5 and moves[Action.parse("0 play 5S")] == 30


def cyp_game(hands: list[str], call: str) -> GameState:
    """Call Your Partner (Auction rules: suit-or-trump, top3): seat 1 bids 20, names
    spades, throws the kitty (3C 4C 5C) away and calls ``call``; nobody else draws.
    Seat 2, left of the bidder, leads."""
    g = new_game("call-your-partner", deal=deal_with(hands, "3C 4C 5C"))
    play(g, ["1 bid 20", "2 pass", "3 pass", "4 pass", "0 pass", "1 pass", "1 trump S",
             "1 discard 3C 4C 5C", "2 discard", "3 discard", "4 discard", "0 discard",
             f"1 call {call}"])
    assert g.phase is Phase.PLAY and g.turn == 2
    return g


def cyp_hand(call: str) -> GameState:
    """Spades trump. Seat 1 holds the only trumps in play, 5S and JS, with 2H 3H 4H; seat
    3 holds the five top diamonds, seat 2 five low ones, seat 4 five clubs, seat 0 five
    high hearts (AH, a trump, is not in play)."""
    return cyp_game(["KH QH JH TH 9H", "5S JS 2H 3H 4H", "8D 7D 6D 5D 4D", "KD QD JD TD 9D",
                     "KC QC JC AC 2C"], call)


def test_call_your_partner_holder_counts_once_shown() -> None:
    """Seat 1 calls KD, held by seat 3. Seat 2 must lead a diamond; seat 1 throws a heart
    and seat 3 takes it, or seat 1 trumps: either way the bidder's side keeps the lead
    (seat 3's diamonds and seat 1's trumps win every trick), and seat 3 must show KD by
    the second trick, so his tricks are the bidder's: all 30. The others take nothing."""
    g = cyp_hand("KD")
    for engine in ENGINES:
        assert par(g, engine) == 30
        assert solve(g, 3, engine) == 30
        assert solve(g, 0, engine) == 0


def test_call_your_partner_called_card_in_second_trick() -> None:
    """Seat 3 takes the first trick with QD (10 points are not yet the bidder's); on the
    second trick KD is his only legal card, and with it the bidder's side takes all 30."""
    g = cyp_hand("KD")
    play(g, ["2 play 8D", "3 play QD", "4 play 2C", "0 play 9H", "1 play 2H"])
    for engine in ENGINES:
        assert best_moves(g, engine) == {Action.parse("3 play KD"): 30}
        assert par(g, engine) == 30


def test_call_your_partner_unshown_holder_plays_against_the_bidder() -> None:
    """Seat 1 calls KC from seat 3, who has diamonds. Seat 4 took the first trick with KH
    and leads 2D to the second; seat 3 must follow with a diamond, so KC cannot be shown
    by the end of the second trick: the bidder is alone, and the second trick, which seat 3
    takes, is not his. Then seat 1's two trumps (the only ones in play, 5S with the
    bonus) take two tricks and his 6H nothing (seat 0's hearts are higher): 15. Counting
    the holder's trick for the bidder would give 20."""
    g = cyp_game(["QH JH TH 9H 8H", "5S JS 3H 4H 6H", "2H QC JC AC 2C", "KC KD QD 9D 8D",
                  "KH 2D 3D 4D 5D"], "KC")
    play(g, ["2 play 2H", "3 play 8D", "4 play KH", "0 play 8H", "1 play 3H",
             "4 play 2D", "0 play 9H", "1 play 4H", "2 play 2C"])
    assert g.turn == 3
    for engine in ENGINES:
        assert par(g, engine) == 15
        assert solve(g, 0, engine) == 15  # the defenders
        assert solve(g, 3, engine) == 15  # seat 3 still plays for the bidder in this trick
        assert best_moves(g, engine) == {Action.parse("3 play KD"): 15,
                                         Action.parse("3 play QD"): 15,
                                         Action.parse("3 play 9D"): 15}


def test_call_your_partner_alone() -> None:
    """Seat 1 calls QS, which nobody holds: he is alone. His two trumps win the two tricks
    he plays them to, one with the bonus (15); his hearts are below seat 0's and he holds no
    diamond or club, so he can take nothing else: 15, and 15 to the others."""
    g = cyp_hand("QS")
    for engine in ENGINES:
        assert par(g, engine) == 15
        assert solve(g, 0, engine) == 15


def forty_one_endgame() -> GameState:
    """Forty One, seat 0 (North) leads: ten rounds of North's top hearts take every trick
    (East follows with his three low hearts, then throws clubs; South and West have no
    hearts). Left: North AS KS 2D, East QS JS 3D, South 4D 5D 6D, West 7D 8D 9D."""
    g = new_game("forty-one", first_dealer=3, deal=deal_with([
        "AH KH QH JH TH 9H 8H 7H 6H 5H AS KS 2D",
        "4H 3H 2H 2C 3C 4C 5C 6C 7C 8C QS JS 3D",
        "9C TC JC QC KC AC TD JD QD KD 4D 5D 6D",
        "AD 2S 3S 4S 5S 6S 7S 8S 9S TS 7D 8D 9D"]))
    play(g, ["0 bid 3", "1 bid 3", "2 bid 3", "3 bid 3"])
    east = ["4H", "3H", "2H", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    south = ["9C", "TC", "JC", "QC", "KC", "AC", "TD", "JD", "QD", "KD"]
    west = ["AD", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    for i, h in enumerate(["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H"]):
        play(g, [f"0 play {h}", f"1 play {east[i]}", f"2 play {south[i]}",
                 f"3 play {west[i]}"])
    assert g.phase is Phase.PLAY and g.turn == 0 and fo(g).taken == [10, 0, 0, 0]
    return g


def test_forty_one_cash_winners_before_giving_the_lead() -> None:
    """North cashes AS and KS (East must follow with his spades) and loses 2D to West's
    diamonds: North-South 12 tricks. Leading 2D first gives West the lead, and West's
    diamonds, all above South's, take the last two tricks too: 10."""
    g = forty_one_endgame()
    for engine in ENGINES:
        assert solve_forty_one(g, 0, engine=engine) == 12
        assert solve_forty_one(g, 1, engine=engine) == 1
        assert solve_forty_one(g, 0, alone=True, engine=engine) == 12
        assert solve_forty_one(g, 2, alone=True, engine=engine) == 0
        assert best_moves_forty_one(g, engine=engine) == {
            Action.parse("0 play AS"): 12, Action.parse("0 play KS"): 12,
            Action.parse("0 play 2D"): 10}
