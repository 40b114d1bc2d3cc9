"""Duplicate sessions for people (issue 35, its pure core): boards from a secret key,
printed slips, the movement, matchpoints with factoring, and a session's standings."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties.bots import play_hand
from forties.cards import CARD_NAMES
from forties.duplicate import (
    Board,
    DuplicateError,
    Movement,
    Pair,
    Session,
    board_slip,
    make_boards,
    matchpoints,
    movement,
    neuberg,
    percent_of_top,
    scores_of_hand,
)
from forties.errors import FortiesError
from forties.games import new_game
from forties.players import make_bot
from forties.rules import build_rules
from forties.state import DealKey, keyed_deck

PARTNERSHIP_GAMES = ("merrimack-valley", "auction-45", "forty-one")
KEY = DealKey(bytes(range(32)))


def pairs(n: int, computer: dict[int, str] | None = None) -> tuple[Pair, ...]:
    computer = computer or {}
    return tuple(Pair(i, f"Pair {i}", computer.get(i)) for i in range(1, n + 1))


# ----- matchpoints ------------------------------------------------------------------


def test_matchpoints_by_hand() -> None:
    # A beats B, C and D: 3 x 2 = 6. B and C tie each other (1) and beat D (2): 3 each.
    # D beats nobody: 0. The top is 2 x (4 - 1) = 6.
    mp = matchpoints({"A": 100, "B": 50, "C": 50, "D": -20})
    assert mp == {"A": 6, "B": 3, "C": 3, "D": 0}
    assert percent_of_top(6, 4) == 100
    assert percent_of_top(3, 4) == 50
    # two results: the better takes the top (2), the other 0; level, 1 each
    assert matchpoints({1: -5, 2: 10}) == {1: 0, 2: 2}
    assert matchpoints({1: 10, 2: 10}) == {1: 1, 2: 1}
    # a lone result has nothing to beat, and scores 50%
    assert matchpoints({7: 30}) == {7: 0}
    assert percent_of_top(0, 1) == 50


def test_neuberg_by_hand() -> None:
    # 3 results where 4 were meant: a top (4 of 4) becomes (4 + 1) * 4 / 3 - 1 = 17/3
    # of a top of 6; a bottom (0) becomes 4/3 - 1 = 1/3.
    assert neuberg(4, 3, 4) == Fraction(17, 3)
    assert neuberg(0, 3, 4) == Fraction(1, 3)
    # a full board is unchanged
    assert neuberg(3, 4, 4) == 3


@given(st.lists(st.integers(-200, 200), min_size=1, max_size=12))
def test_matchpoints_properties(values: list[int]) -> None:
    k = len(values)
    mp = matchpoints(dict(enumerate(values)))
    assert sum(mp.values()) == k * (k - 1)
    for i, j in itertools.permutations(range(k), 2):
        assert 0 <= mp[i] <= 2 * (k - 1)
        # a better result never scores less; equal results score the same
        if values[i] > values[j]:
            assert mp[i] > mp[j]
        if values[i] == values[j]:
            assert mp[i] == mp[j]
    # the mean percentage on a board is 50
    assert sum(percent_of_top(m, k) for m in mp.values()) == 50 * k


@given(st.lists(st.integers(-200, 200), min_size=1, max_size=8), st.integers(0, 6))
def test_neuberg_keeps_the_mean(values: list[int], missing: int) -> None:
    k = len(values)
    meant = k + missing
    mp = matchpoints(dict(enumerate(values)))
    factored = [neuberg(m, k, meant) for m in mp.values()]
    # factored to ``meant`` results, the board still averages half the top
    assert sum(factored) == Fraction(k * (meant - 1))
    assert all(0 <= f <= 2 * (meant - 1) for f in factored)


# ----- boards and slips ---------------------------------------------------------------


@pytest.mark.parametrize("preset", PARTNERSHIP_GAMES)
def test_boards_valid_reproducible_and_keyed(preset: str) -> None:
    rules = build_rules(preset)
    boards = make_boards(rules, 8, KEY)
    assert [b.number for b in boards] == list(range(1, 9))
    assert [b.dealer for b in boards] == [0, 1, 2, 3, 0, 1, 2, 3]  # N, E, S, W, N...
    for b in boards:
        st_ = b.game(rules)  # the engine checks every count and that no card is twice
        assert st_.dealer == b.dealer and st_.deal == b.deal
    assert make_boards(rules, 8, DealKey(bytes(range(32)))) == boards
    other = make_boards(rules, 8, DealKey(bytes(range(1, 33))))
    assert all(a.deal != b.deal for a, b in zip(boards, other, strict=True))
    assert len({b.deal.hands for b in boards}) == 8
    # the boards come from a key derived for them: not the table's own deals
    table = new_game(rules, seed=KEY)
    assert all(b.deal != table.deal_from_deck(keyed_deck(KEY, b.number)) for b in boards)


def test_boards_refuse_other_games_and_bad_counts() -> None:
    with pytest.raises(DuplicateError, match="four in two partnerships"):
        make_boards(build_rules("call-your-partner"), 4, KEY)
    for bad in (0, -1, True, 2.0, "4", 10_000):
        with pytest.raises(DuplicateError, match="number of boards"):
            make_boards(build_rules("merrimack-valley"), bad, KEY)  # type: ignore[arg-type]
    with pytest.raises(DuplicateError, match="DealKey"):
        make_boards(build_rules("merrimack-valley"), 4, b"x" * 32)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", PARTNERSHIP_GAMES)
def test_slips_list_every_card_once(preset: str) -> None:
    rules = build_rules(preset)
    for b in make_boards(rules, 4, KEY):
        slip = board_slip(b)
        listed = [c for h in slip["hands"] for c in h["cards"]]
        listed += slip.get("kitty", []) + slip.get("stock", [])
        assert sorted(listed) == sorted(CARD_NAMES)  # 52 cards, each once
        assert slip["dealer"] == ("North", "East", "South", "West")[b.dealer]
        for h, cards in zip(slip["hands"], b.deal.hands, strict=True):
            assert sorted(h["cards"]) == sorted(CARD_NAMES[c] for c in cards)
            # sorted as the deck is: spades, hearts, diamonds, clubs, each ace down
            order = [("SHDC".index(c[1]), "AKQJT98765432".index(c[0])) for c in h["cards"]]
            assert order == sorted(order)
        if b.deal.stock:  # the stock keeps the order it is drawn in
            assert slip["stock"] == [CARD_NAMES[c] for c in b.deal.stock]


# ----- the movement -----------------------------------------------------------------


def movements() -> list[tuple[int, str | None, int]]:
    out = []
    for p in range(3, 9):
        for fill in (None, "basic"):
            if p == 3 and fill is None:
                continue
            for boards in (12, 7, 30):
                out.append((p, fill, boards))
    return out


@pytest.mark.parametrize(("p", "fill", "boards"), movements())
def test_movement_properties(p: int, fill: str | None, boards: int) -> None:
    m = movement(p, boards, fill=fill)
    seated = m.pairs
    assert seated == (p + 1 if p % 2 and fill else p)
    assert m.filled == (p + 1 if p % 2 and fill else None)
    assert m.boards == tuple(range(1, boards + 1))  # every board, once, in order
    sizes = [len(r.boards) for r in m.rounds]
    assert max(sizes) - min(sizes) <= 1
    full_rounds = seated - 1 if seated % 2 == 0 else seated
    assert len(m.rounds) == min(full_rounds, boards)
    played: Counter[tuple[int, int]] = Counter()
    ns: Counter[int] = Counter()
    ew: Counter[int] = Counter()
    met: Counter[frozenset[int]] = Counter()
    outs: Counter[int] = Counter()
    for r in m.rounds:
        at = [q for t in r.tables for q in (t.ns, t.ew)]
        assert len(at) == len(set(at))  # nobody at two tables
        assert [t.table for t in r.tables] == list(range(1, len(r.tables) + 1))
        # every board of the round is played at every table: several tables
        assert len(r.tables) >= 2
        everyone = set(range(1, seated + 1))
        if r.sit_out is None:
            assert set(at) == everyone
        else:
            outs[r.sit_out] += 1
            assert set(at) == everyone - {r.sit_out}
        for t in r.tables:
            ns[t.ns] += 1
            ew[t.ew] += 1
            met[frozenset((t.ns, t.ew))] += 1
            for b in r.boards:
                played[(t.ns, b)] += 1
                played[(t.ew, b)] += 1
    assert max(played.values()) == 1  # no pair plays a board twice
    assert max(met.values()) == 1  # nobody meets the same pair twice
    if len(m.rounds) == full_rounds:  # a whole round robin: everybody meets everybody
        assert len(met) == seated * (seated - 1) // 2
        if p % 2 and not fill:
            assert sorted(outs) == list(range(1, p + 1)) and set(outs.values()) == {1}
    for q in range(1, seated + 1):
        assert abs(ns[q] - ew[q]) <= 1  # each direction in turn, as far as it goes
        if ns[q] + ew[q] >= 2:
            assert ns[q] >= 1 and ew[q] >= 1


def test_four_partnerships_two_tables() -> None:
    m = movement(pairs(4), make_boards(build_rules("auction-45"), 12, KEY), tables=2)
    assert [len(r.tables) for r in m.rounds] == [2, 2, 2]
    assert [r.boards for r in m.rounds] == [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)]


def test_movement_refusals() -> None:
    with pytest.raises(DuplicateError, match="fill the fourth pair"):
        movement(3, 12)
    with pytest.raises(DuplicateError, match="at 2 tables, not 3"):
        movement(4, 12, tables=3)
    with pytest.raises(DuplicateError, match="at 2 tables"):
        movement(5, 12, tables=3)
    assert len(movement(5, 12, tables=3, fill="basic").rounds[0].tables) == 3
    for bad in (2, 0, True, "4", 4.0, None):
        with pytest.raises(DuplicateError):
            movement(bad, 12)  # type: ignore[arg-type]
    with pytest.raises(DuplicateError, match="numbered"):
        movement([Pair(2, "x"), Pair(1, "y"), Pair(3, "z"), Pair(4, "w")], 12)
    with pytest.raises(DuplicateError, match="number of boards"):
        movement(4, 0)


# ----- a session played by the engine's computer players ------------------------------


def play_session(preset: str, nboards: int, npairs: int, fill: str | None = None,
                 computer: dict[int, str] | None = None) -> tuple[Session, list[Any]]:
    rules = build_rules(preset)
    boards = make_boards(rules, nboards, KEY)
    m = movement(npairs, boards, fill=fill)
    computer = dict(computer or {})
    if m.filled is not None:
        computer[m.filled] = fill  # type: ignore[assignment]
    session = Session(pairs(m.pairs, computer), boards, m)
    rng = random.Random(5)
    played = []
    for r in m.rounds:
        for b in r.boards:
            for t in r.tables:
                state = boards[b - 1].game(rules)
                # people are played by ``basic``; a computer pair at its own level
                levels = [session.partnerships[(t.ns if seat % 2 == 0 else t.ew) - 1].computer
                          or "basic" for seat in range(4)]
                play_hand(state, [make_bot(level, rng) for level in levels])
                session.record_hand(b, t.table, state)
                played.append((b, t.ns, t.ew, list(state.scores)))
    return session, played


def expected_standings(played: list[Any], preset: str, through: int) -> dict[int, Any]:
    """The test's own arithmetic: each board's N-S results compared with each other, E-W
    the same; two points a result beaten, one a tie; every board complete."""
    by_board: dict[int, list[tuple[int, int, int]]] = {}
    for b, ns, ew, scores in played:
        if b > through:
            continue
        if preset == "forty-one":  # four seats' scores: partners opposite add up
            ns_score, ew_score = scores[0] + scores[2], scores[1] + scores[3]
        else:
            ns_score, ew_score = scores
        by_board.setdefault(b, []).append((ns, ew, ns_score - ew_score))
    mp: Counter[int] = Counter()
    top: Counter[int] = Counter()
    for rows in by_board.values():
        for ns, ew, net in rows:
            for ns2, _ew2, net2 in rows:
                if ns2 == ns:
                    continue
                mp[ns] += 2 if net > net2 else 1 if net == net2 else 0
                mp[ew] += 2 if -net > -net2 else 1 if net == net2 else 0
            top[ns] += 2 * (len(rows) - 1)
            top[ew] += 2 * (len(rows) - 1)
    return {p: (mp[p], top[p], Fraction(100 * mp[p], top[p])) for p in top}


def test_twelve_boards_four_partnerships_by_the_computers() -> None:
    session, played = play_session("merrimack-valley", 12, 4, computer={4: "basic"})
    assert len(played) == 24  # 12 boards at 2 tables each
    assert session.partnerships[3].computer == "basic"
    for b, ns, ew, scores in played:  # the score recorded is the state machine's
        row = next(r for r in session.results.values() if r.board == b and r.ns == ns)
        assert (row.ew, row.ns_score, row.ew_score) == (ew, *scores)
    for through in range(0, 13):
        want = expected_standings(played, "merrimack-valley", through)
        got = session.standings(through)
        assert [s.rank for s in got] == sorted(s.rank for s in got)
        for s in got:
            if s.pair.number not in want:
                assert s.boards == 0 and s.percent is None
                continue
            mp, top, pct = want[s.pair.number]
            assert (s.matchpoints, s.top, s.factored, s.percent) == (mp, top, mp, pct)
            assert s.boards == top // 2
        ranked = [s.percent for s in got if s.percent is not None]
        assert ranked == sorted(ranked, reverse=True)
    final = session.standings()
    assert sum(s.matchpoints for s in final) == 12 * 2 * 2  # per board: k(k-1) a direction
    assert sum(s.percent for s in final if s.percent is not None) == 200  # averages 50


@pytest.mark.parametrize("preset", ["auction-45", "forty-one"])
def test_other_games_five_pairs_with_a_sit_out(preset: str) -> None:
    session, played = play_session(preset, 5, 5)
    assert len(played) == 10
    want = expected_standings(played, preset, 5)
    for s in session.standings():
        mp, top, pct = want[s.pair.number]
        assert (s.matchpoints, s.top, s.percent, s.boards) == (mp, top, pct, 4)  # one round sat out


def test_three_pairs_with_a_computer_pair() -> None:
    session, played = play_session("merrimack-valley", 6, 3, fill="random")
    assert session.partnerships[3] == Pair(4, "Pair 4", "random")
    assert len(played) == 12  # 3 rounds of 2 boards at 2 tables
    want = expected_standings(played, "merrimack-valley", 6)
    for s in session.standings():
        mp, top, pct = want[s.pair.number]
        assert (s.matchpoints, s.top, s.percent, s.boards) == (mp, top, pct, 6)
    with pytest.raises(DuplicateError, match="computers' filled pair"):
        Session(pairs(4), session.boards, session.movement)


def test_scores_of_hand() -> None:
    rules = build_rules("forty-one")
    state = make_boards(rules, 1, KEY)[0].game(rules)
    with pytest.raises(DuplicateError, match="not over"):
        scores_of_hand(state)
    play_hand(state, [make_bot("basic", random.Random(1)) for _ in range(4)])
    ns, ew = scores_of_hand(state)
    assert (ns, ew) == (state.scores[0] + state.scores[2], state.scores[1] + state.scores[3])


# ----- factoring, ties and bad input --------------------------------------------------


def small_session(npairs: int = 4, nboards: int = 3) -> Session:
    boards = make_boards(build_rules("merrimack-valley"), nboards, KEY)
    return Session(pairs(npairs), boards, movement(npairs, boards))


def test_missing_result_is_factored() -> None:
    # 6 pairs, 3 tables each round: board 1 has only tables 1 and 2 in.
    s = small_session(6, 5)
    t1, t2 = s.seating(1, 1), s.seating(1, 2)
    s.record(1, 1, 20, 10)  # N-S +10
    s.record(1, 2, 5, 25)  # N-S -20
    got = {x.pair.number: x for x in s.standings()}
    # two results of three meant: the better, 2 matchpoints, factors to (2+1)*3/2 - 1
    # = 7/2 of a top of 4; the worse (0) to 1/2
    assert got[t1.ns].matchpoints == 2 and got[t1.ns].factored == Fraction(7, 2)
    assert got[t1.ns].top == 4 and got[t1.ns].percent == Fraction(175, 2)
    assert got[t2.ns].factored == Fraction(1, 2) and got[t2.ns].percent == Fraction(25, 2)
    assert got[t2.ew].factored == Fraction(7, 2)
    board = s.board_scores(1)
    assert board[t1.ns]["percent"] == 100 and board[t1.ns]["meant"] == 3


def test_ties_settled_by_the_results_compared_then_shared() -> None:
    s = small_session(4, 3)  # one board a round
    r1, r2, r3 = s.movement.rounds
    # every board: table 1's N-S +10, table 2's N-S +10 on board 1 (a tie), then
    # boards 2 and 3 decided
    s.record(1, 1, 10, 0)
    s.record(1, 2, 10, 0)
    got = s.standings()
    assert all(x.percent == 50 for x in got)
    assert all(x.rank == 1 and x.tied for x in got)  # nobody beat anybody: shared
    s.record(2, 1, 30, 0)
    s.record(2, 2, 0, 30)
    s.record(3, 1, 0, 30)
    s.record(3, 2, 30, 0)
    want: Counter[int] = Counter()
    for rnd, (a, b) in zip((r1, r2, r3), ((10, 10), (30, -30), (-30, 30)), strict=True):
        t1, t2 = rnd.tables
        want[t1.ns] += 2 if a > b else 1 if a == b else 0
        want[t2.ns] += 2 if b > a else 1 if a == b else 0
        want[t1.ew] += 2 if -a > -b else 1 if a == b else 0
        want[t2.ew] += 2 if -b > -a else 1 if a == b else 0
    got = s.standings()
    assert {x.pair.number: x.matchpoints for x in got} == dict(want)
    # seats: round 1 1-4, 2-3; round 2 4-2, 3-1; round 3 3-4, 1-2 (N-S first).
    # Totals 5, 5, 1, 1: pairs 1 and 4 level, and never in the same direction on a
    # board (they were never compared): they share first place; 2 and 3 the same, third
    assert [[(t.ns, t.ew) for t in r.tables] for r in (r1, r2, r3)] == [
        [(1, 4), (2, 3)], [(4, 2), (3, 1)], [(3, 4), (1, 2)]]
    assert dict(want) == {1: 5, 4: 5, 2: 1, 3: 1}
    assert [(x.pair.number, x.rank, x.tied) for x in got] == [
        (1, 1, True), (4, 1, True), (2, 3, True), (3, 3, True)]


def test_two_level_pairs_ranked_by_head_to_head() -> None:
    s = small_session(4, 3)
    # board 1: pairs in the same direction compared; contrive equal totals for two pairs
    first = s.movement.rounds[0].tables
    s.record(1, 1, 20, 0)  # table 1's N-S beats table 2's N-S
    s.record(1, 2, 0, 20)  # and table 2's E-W beats table 1's E-W
    got = s.standings()
    top_two = [x.pair.number for x in got[:2]]
    assert sorted(top_two) == sorted([first[0].ns, first[1].ew])
    assert got[0].percent == got[1].percent == 100
    assert got[0].rank == got[1].rank == 1 and got[0].tied  # never compared: shared


def test_head_to_head_breaks_a_level_percentage() -> None:
    s = small_session(6, 5)
    seats = [[(t.ns, t.ew) for t in r.tables] for r in s.movement.rounds[:3]]
    assert seats == [[(1, 6), (2, 5), (4, 3)], [(6, 2), (3, 1), (5, 4)],
                     [(3, 6), (4, 2), (1, 5)]]
    # N-S results by table (E-W's the opposite): board 1 +20, +10, 0; board 2 0, 0, +10;
    # board 3 +10, -10, 0
    for board, nets in ((1, (20, 10, 0)), (2, (0, 0, 10)), (3, (10, -10, 0))):
        for table, net in enumerate(nets, 1):
            s.record(board, table, max(net, 0), max(-net, 0))
    # matchpoints by hand (top 4 a board, 12 in all):
    #   board 1 N-S: 1 (+20) 4, 2 (+10) 2, 4 (0) 0;  E-W: 3 (0) 4, 5 (-10) 2, 6 (-20) 0
    #   board 2 N-S: 5 (+10) 4, 6 and 3 (0) 1 each; E-W: 2 and 1 (0) 3 each, 4 (-10) 0
    #   board 3 N-S: 3 (+10) 4, 1 (0) 2, 4 (-10) 0;  E-W: 2 (+10) 4, 5 (0) 2, 6 (-10) 0
    # totals: 1, 2 and 3 level on 9 (75%), 5 8, 6 1, 4 0.
    # Among 1, 2, 3 where they held the same cards: board 1 N-S 1 beat 2; board 2 E-W 1
    # and 2 tied; board 3 N-S 3 beat 1: 1 and 3 one each (they share first), 2 none.
    got = s.standings()
    assert [(x.pair.number, x.matchpoints, x.rank, x.tied) for x in got] == [
        (1, 9, 1, True), (3, 9, 1, True), (2, 9, 3, False), (5, 8, 4, False),
        (6, 1, 5, False), (4, 0, 6, False)]
    assert [x.percent for x in got] == [75, 75, 75, Fraction(200, 3), Fraction(25, 3), 0]


def test_record_refusals() -> None:
    s = small_session(4, 3)
    s.record(1, 1, 10, 0)
    cases = [((1, 1, 10, 0), "already in"), ((4, 1, 0, 0), "no board 4"),
             ((0, 1, 0, 0), "no board 0"), ((1, 3, 0, 0), "tables 1 to 2, not 3"),
             ((1, 2, 1.5, 0), "whole number"), ((1, 2, True, 0), "whole number"),
             ((1, 2, "10", 0), "whole number"), ((1, 2, 10**9, 0), "whole number"),
             (("1", 2, 0, 0), "no board")]
    for args, words in cases:
        with pytest.raises(DuplicateError, match=words):
            s.record(*args)  # type: ignore[arg-type]
    rules = build_rules("merrimack-valley")
    other = s.boards[1].game(rules)
    play_hand(other, [make_bot("basic", random.Random(2)) for _ in range(4)])
    with pytest.raises(DuplicateError, match="not board 1"):
        s.record_hand(1, 2, other)
    assert len(s.results) == 1  # nothing refused was kept
    with pytest.raises(DuplicateError, match="no board 9"):
        s.standings(9)


def test_json_round_trip() -> None:
    session, _ = play_session("auction-45", 6, 5, fill="basic")
    text = json.dumps(session.to_json())
    back = Session.from_json(json.loads(text))
    assert back.to_json() == session.to_json()
    assert back.standings() == session.standings()
    assert [x.to_json() for x in back.standings()] == [x.to_json() for x in session.standings()]
    assert Movement.from_json(json.loads(json.dumps(session.movement.to_json()))) \
        == session.movement
    assert Board.from_json(session.boards[0].to_json()) == session.boards[0]
    for preset in ("merrimack-valley", "forty-one"):
        board = make_boards(build_rules(preset), 1, KEY)[0].to_json()
        assert Board.from_json(board).to_json() == board
        twice = json.loads(json.dumps(board))
        twice["deal"]["hands"][1][0] = twice["deal"]["hands"][0][0]
        short = json.loads(json.dumps(board))
        short["deal"]["hands"][3] = short["deal"]["hands"][3][:-1]
        three = {**board, "deal": {**board["deal"], "hands": board["deal"]["hands"][:3]}}
        for bad, words in ((twice, "twice"), (short, "4 cards|12 cards"),
                           (three, "3 hands")):
            with pytest.raises(DuplicateError, match=words):
                Board.from_json(bad)


def test_json_refusals() -> None:
    good = small_session(4, 3)
    good.record(1, 1, 10, 0)
    base = good.to_json()
    bad: list[Any] = [None, [], "x", {}, {**base, "version": 2}, {**base, "extra": 1},
                      {**base, "results": [[1, 1, 10, 0], [1, 1, 10, 0]]},
                      {**base, "results": [[1, 1, 10]]}, {**base, "results": "no"},
                      {**base, "boards": base["boards"][:2]},
                      {**base, "partnerships": base["partnerships"][:3]},
                      {**base, "movement": {**base["movement"], "pairs": 6}},
                      {**base, "movement": {**base["movement"], "rounds": [{"x": 1}]}}]
    for obj in bad:
        with pytest.raises(DuplicateError):
            Session.from_json(obj)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 60) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["version", "partnerships", "boards", "movement", "results"]),
       json_values)
def test_json_fuzz_one_line_errors(where: str, value: Any) -> None:
    base = small_session(4, 3).to_json()
    try:
        Session.from_json({**base, where: value})
    except FortiesError as e:
        assert "\n" not in str(e)


def test_record_by_the_partnerships() -> None:
    s = small_session(4, 3)
    # round 1 seats pair 1 North-South against pair 4 at table 1, pair 2 against 3 at 2
    assert s.record_pairs(1, 2, 3, 15, 15) == s.results[(1, 2)]
    for args, words in [((1, 4, 1, 0, 0), "not played by pair 4 North-South against pair 1"),
                        ((2, 1, 4, 0, 0), "not played by pair 1"),
                        ((9, 1, 4, 0, 0), "no board 9"), ((1, 2, 3, 0, 0), "already in")]:
        with pytest.raises(DuplicateError, match=words):
            s.record_pairs(*args)
    assert list(s.results) == [(1, 2)]


def test_partnership_names_checked() -> None:
    base = small_session(4, 3).to_json()
    for name in ("", "x" * 101, 5, None):
        obj = {**base, "partnerships": [{"number": 1, "name": name, "computer": None},
                                        *base["partnerships"][1:]]}
        with pytest.raises(DuplicateError, match="name"):
            Session.from_json(obj)


@settings(max_examples=60, deadline=None)
@given(st.integers(4, 20), st.integers(1, 60), st.booleans())
def test_movement_properties_wide(p: int, boards: int, fill: bool) -> None:
    m = movement(p, boards, fill="basic" if fill else None)
    seen: set[tuple[int, int]] = set()
    direction: Counter[tuple[int, int]] = Counter()
    for r in m.rounds:
        assert len(r.tables) >= 2
        for t in r.tables:
            direction[(t.ns, 0)] += 1
            direction[(t.ew, 1)] += 1
            for b in r.boards:
                for q in (t.ns, t.ew):
                    assert (q, b) not in seen
                    seen.add((q, b))
    assert m.boards == tuple(range(1, boards + 1))
    for q in range(1, m.pairs + 1):
        assert abs(direction[(q, 0)] - direction[(q, 1)]) <= 1


def _paths(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a JSON value, as a path of keys and indices."""
    out = [at]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*at, i))
    return out


@settings(max_examples=300, deadline=None)
@given(st.data(), json_values)
def test_json_fuzz_anywhere_inside(data: st.DataObject, value: Any) -> None:
    s = small_session(4, 3)
    s.record(1, 1, 10, 0)
    base = s.to_json()
    path = data.draw(st.sampled_from(_paths(base)[1:]))
    obj = json.loads(json.dumps(base))
    inner = obj
    for k in path[:-1]:
        inner = inner[k]
    inner[path[-1]] = value
    try:
        back = Session.from_json(obj)
    except FortiesError as e:
        assert "\n" not in str(e)
    else:  # taken: then it reads back as itself
        assert Session.from_json(back.to_json()).to_json() == back.to_json()
