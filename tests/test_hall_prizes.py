"""Prizes, ties and side prizes: the seed evening's worked example exactly as written,
each way a tie is broken, the cookie jar, the booby prize, duplicate matchpoints."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from forties.cards import CARD_NAMES
from forties.hall import BOOBY, Award, Hall, HallError, Level
from forties.hall.draw import commitment, cookie_jar_games, cut_deck
from forties.hall.events import Answer, CutDeck, PlayoffWin, Vote
from forties.hall.prizes import Playoff, prize_levels

from .hall_helpers import hall_of, play_game, random_picker, steer_to

F = Fraction


def ranked(*scores: int) -> list[tuple[int, Fraction]]:
    return [(i, F(s)) for i, s in enumerate(scores, 1)]


# ----- which scores win which prizes --------------------------------------------------------


def test_the_worked_example_16_is_second_and_the_18s_share_first_and_third() -> None:
    # two couples on 18 games, one on 16, two on 15: the 16 is automatically second
    levels = prize_levels(ranked(18, 18, 16, 15, 15), 3, "score-levels")
    assert levels == [Level(F(18), (1, 2), (1, 3)), Level(F(16), (3,), (2,))]


def test_standard_places_give_the_18s_first_and_second() -> None:
    levels = prize_levels(ranked(18, 18, 16, 15, 15), 3, "standard")
    assert levels == [Level(F(18), (1, 2), (1, 2)), Level(F(16), (3,), (3,))]


@pytest.mark.parametrize(("scores", "want"), [
    ((20, 19, 18, 17), [((1,), (1,)), ((2,), (2,)), ((3,), (3,))]),
    ((18, 18, 18, 16), [((1, 2, 3), (1, 2, 3))]),
    ((18, 17, 16, 16, 16), [((1,), (1,)), ((2,), (2,)), ((3, 4, 5), (3,))]),
    ((18, 18, 16, 16, 15), [((1, 2), (1, 3)), ((3, 4), (2,))]),
    ((18, 16, 16, 16), [((1,), (1,)), ((2, 3, 4), (2, 3))]),
    ((9, 9), [((1, 2), (1, 2))]),
])
def test_score_levels(scores: tuple[int, ...], want: list[tuple[tuple[int, ...],
                                                                tuple[int, ...]]]) -> None:
    got = prize_levels(ranked(*scores), 3, "score-levels")
    assert [(lv.couples, lv.prizes) for lv in got] == want


def seed_example() -> Hall:
    """A whole evening (25 games, seven couples, byes counting) ending 18, 18, 16, 15, 15,
    12 and 6 games."""
    h = steer_to([18, 18, 16, 15, 15, 12, 6], 25)
    assert [(s.couple, s.wins) for s in h.standings()] == [
        (1, 18), (2, 18), (3, 16), (4, 15), (5, 15), (6, 12), (7, 6)]
    return h


def test_golden_seed_evening_prizes() -> None:
    h = seed_example()
    assert h.over
    assert h.prize_levels() == [Level(F(18), (1, 2), (1, 3)), Level(F(16), (3,), (2,))]
    assert h.awards() == [Award(2, (3,), "outright")]  # first and third wait for the tie
    assert list(h.contests()) == ["prize-1"]
    ct = h.contests()["prize-1"]
    assert ct.couples == (1, 2) and ct.prizes == (1, 3) and ct.method is None
    assert ct.waiting_for() == "votes from couples 1, 2"


# ----- the tie walked through ----------------------------------------------------------------


def test_split_when_every_tied_couple_agrees() -> None:
    h = seed_example()
    h.apply(Vote("prize-1", 1, "split"))
    assert not h.contests()["prize-1"].decided
    h.apply(Vote("prize-1", 2, "split"))
    assert h.awards() == [Award(1, (1, 2), "split"), Award(2, (3,), "outright"),
                          Award(3, (1, 2), "split")]
    assert h.status()["phase"] == "finished"


def test_no_split_unless_unanimous_then_the_deck_is_cut() -> None:
    h = seed_example()
    h.apply(Vote("prize-1", 1, "split"))
    h.apply(Vote("prize-1", 2, "cut"))
    ct = h.contests()["prize-1"]
    assert ct.method == "cut" and not ct.decided and ct.waiting_for() == "the cut of the deck"
    h.apply(CutDeck("prize-1"))
    ct = h.contests()["prize-1"]
    # the draw anyone can redo from the published method: shuffle, couples draw in order
    deck = list(CARD_NAMES)
    random.Random(f"{h.settings.seed}/cut/prize-1/0").shuffle(deck)
    assert ct.cut is not None
    assert ct.cut.draws[0] == (1, (deck[0],)) and ct.cut.draws[1][1][0] == deck[1]
    # seed 0: couple 1 draws the king of hearts, couple 2 the two: low card, couple 2
    assert ct.cut.draws == ((1, ("KH",)), (2, ("2H",)))
    assert ct.order == (2, 1)
    assert h.awards() == [Award(1, (2,), "cut"), Award(2, (3,), "outright"),
                          Award(3, (1,), "cut")]


def test_the_cut_is_low_card_with_the_ace_low_and_ties_draw_again() -> None:
    # a seed whose first cards tie on rank shows the draw-again rule
    for seed in range(2000):
        deck = list(CARD_NAMES)
        random.Random(f"{seed}/cut/x/0").shuffle(deck)
        if deck[0][0] == deck[1][0]:
            break
    cut = cut_deck(seed, "x", [4, 9, 2])
    by = dict(cut.draws)
    assert by[2] == (deck[0], deck[3]) and by[4] == (deck[1], deck[4])
    assert by[9] == (deck[2],)
    assert cut_deck(seed, "x", [4, 9, 2]) == cut  # the same seed, the same cut
    # an ace beats a two: find a draw where one couple cuts an ace and the other a two
    for seed in range(5000):
        cut = cut_deck(seed, "y", [1, 2])
        ranks = {c: cards[0][0] for c, cards in cut.draws}
        if set(ranks.values()) == {"A", "2"}:
            break
    ace = next(c for c, r in ranks.items() if r == "A")
    assert cut.order[0] == ace


def test_one_couple_wants_a_play_off_the_other_forfeits() -> None:
    h = seed_example()
    h.apply(Vote("prize-1", 1, "split"))
    h.apply(Vote("prize-1", 2, "play-off"))
    ct = h.contests()["prize-1"]
    assert ct.method == "play-off" and ct.waiting_for() == "couple 1: play off or forfeit"
    with pytest.raises(HallError, match="nothing to answer"):
        h.apply(Answer("prize-1", 2, True))  # couple 2 asked for it: it plays
    h.apply(Answer("prize-1", 1, False))
    assert h.awards() == [Award(1, (2,), "play-off"), Award(2, (3,), "outright"),
                          Award(3, (1,), "play-off")]


def test_a_play_off_played() -> None:
    h = seed_example()
    h.apply(Vote("prize-1", 1, "play-off"))
    h.apply(Vote("prize-1", 2, "cut"))
    h.apply(Answer("prize-1", 2, True))
    ct = h.contests()["prize-1"]
    assert ct.waiting_for() == "play-off: couple 1 v couple 2"
    with pytest.raises(HallError, match="not in the tie"):
        h.apply(PlayoffWin("prize-1", 3))
    h.apply(PlayoffWin("prize-1", 2))
    assert [a for a in h.awards() if a.prize in (1, 3)] == [
        Award(1, (2,), "play-off"), Award(3, (1,), "play-off")]
    with pytest.raises(HallError, match="no play-off game"):
        h.apply(PlayoffWin("prize-1", 1))


def test_tie_steps_out_of_turn_are_refused_and_change_nothing() -> None:
    h = seed_example()
    before = h.to_json()
    for bad, why in [(Vote("prize-1", 3, "split"), "not in the tie"),
                     (Vote("prize-9", 1, "split"), "no tie 'prize-9'"),
                     (CutDeck("prize-1"), "no cut"),
                     (Answer("prize-1", 1, True), "nothing to answer")]:
        with pytest.raises(HallError, match=why):
            h.apply(bad)
    assert h.to_json() == before
    h.apply(Vote("prize-1", 1, "cut"))
    with pytest.raises(HallError, match="voted already"):
        h.apply(Vote("prize-1", 1, "split"))
    with pytest.raises(HallError, match="can no longer be corrected"):
        h.correct(25, 1, h.seatings[-1].tables[0][1])


def test_ties_wait_for_the_end_of_the_evening() -> None:
    h = hall_of(4, games=2)
    play_game(h, lambda t, a, b: a)
    with pytest.raises(HallError, match="once the evening is over"):
        h.apply(Vote("prize-1", 1, "split"))


def test_fixed_policies() -> None:
    cut = steer_to([18, 18, 16, 15, 15, 12, 6], 25, tie_break="cut")
    with pytest.raises(HallError, match="settled by cut"):
        cut.apply(Vote("prize-1", 1, "split"))
    cut.apply(CutDeck("prize-1"))
    assert cut.contests()["prize-1"].decided
    split = steer_to([18, 18, 16, 15, 15, 12, 6], 25, tie_break="split")
    assert split.awards()[0] == Award(1, (1, 2), "split")
    off = steer_to([18, 18, 16, 15, 15, 12, 6], 25, tie_break="play-off")
    assert off.contests()["prize-1"].waiting_for() == "couples 1, 2: play off or forfeit"
    off.apply(Answer("prize-1", 1, False))
    off.apply(Answer("prize-1", 2, False))
    # both forfeit: they cut for the order
    ct = off.contests()["prize-1"]
    assert ct.forfeit_cut is not None and ct.order == ct.forfeit_cut.order


def test_play_off_brackets() -> None:
    three = Playoff([4, 5, 6], 1, lowest=False)
    assert three.pending == [(4, 5)]  # 6, the highest number, has the bye
    three.win(5)
    assert three.pending == [(5, 6)]
    three.win(6)
    assert three.done and three.order == [6]
    four = Playoff([1, 2, 3, 4], 3, lowest=False)
    assert four.pending == [(1, 2), (3, 4)]
    four.win(1)
    four.win(4)
    assert four.pending == [(1, 4)]
    four.win(4)
    assert four.order == [4, 1] and four.pending == [(2, 3)]  # semi-final losers for third
    four.win(3)
    assert four.order == [4, 1, 3] and four.done
    booby = Playoff([7, 8], 1, lowest=True)
    booby.win(7)
    assert booby.order == [8]  # the loser takes the booby prize


# ----- the cookie jar and the booby prize ----------------------------------------------------


def test_cookie_jar_games_are_the_published_draw() -> None:
    assert cookie_jar_games(5, 25, 8) == tuple(sorted(
        random.Random("5/cookie-jar").sample(range(1, 26), 8)))
    assert len(set(cookie_jar_games(5, 25, 10))) == 10


def test_cookie_jar_all_and_most() -> None:
    for rule in ("all", "most"):
        h = hall_of(6, games=6, cookie_jar=3, cookie_jar_rule=rule, seed=11)
        rng = random.Random(3)
        for _ in range(6):
            play_game(h, random_picker(rng))
        jar = h.cookie_jar()
        assert jar is not None and len(jar.games) == 3
        counts = {s.couple: len(set(s.won) & set(jar.games)) for s in h.standings()}
        assert jar.best == max(counts.values())
        need = 3 if rule == "all" else jar.best
        assert jar.winners == tuple(sorted(c for c, n in counts.items() if n >= need))


def test_booby_prize_for_the_fewest_games_among_those_there_all_evening() -> None:
    h = seed_example()  # booby off
    assert not any(a.prize == BOOBY for a in h.awards())
    b = steer_to([18, 18, 16, 15, 15, 12, 6], 25, booby=True)
    assert b.awards()[-1] == Award(BOOBY, (7,), "outright")
    tied = hall_of(4, games=2, booby=True, prizes=1)
    play_game(tied, lambda t, a, b: a)  # 1 and 3 win
    play_game(tied, lambda t, a, b: b)  # at (3, 2) and (1, 4): 2 and 4 win
    # everyone on 1 game: four tie for the one prize; nobody is left for the booby
    assert [lv.prizes for lv in tied.prize_levels()] == [(1,)]
    late = hall_of(4, games=2, booby=True, prizes=1)
    play_game(late, lambda t, a, b: a)  # 1 and 3 win
    late.register(("Late", "Pair"))
    play_game(late, lambda t, a, b: a)  # 4 sits out; (3, 2) and (1, 5): 3 and 1 win
    wins = {s.couple: s.wins for s in late.standings()}
    assert wins == {1: 2, 2: 0, 3: 2, 4: 1, 5: 0}
    # couple 5 came late: the booby prize is for those there all evening
    assert late.awards()[-1] == Award(BOOBY, (2,), "outright")


def test_a_couple_that_left_cannot_take_a_prize() -> None:
    h = hall_of(4, games=3, prizes=1)
    play_game(h, lambda t, a, b: 1 if 1 in (a, b) else a)
    play_game(h, lambda t, a, b: 1 if 1 in (a, b) else a)
    h.leave(1)
    play_game(h, lambda t, a, b: a)
    assert {s.couple: s.wins for s in h.standings()}[1] == 2
    assert all(1 not in a.couples for a in h.awards())


# ----- duplicate -----------------------------------------------------------------------------


def test_duplicate_matchpoints_hand_worked() -> None:
    h = hall_of(6, games=1, duplicate=True)
    h.begin()  # tables (1, 2), (3, 4), (5, 6): 1, 3 and 5 held the same cards
    h.report(1, 1, 1, {1: 45, 2: 20})   # 1 wins by 25
    h.report(1, 2, 3, {3: 45, 4: 20})   # 3 wins by 25: ties with 1
    h.report(1, 3, 6, {5: 30, 6: 45})   # 5 loses by 15
    mp = h.matchpoints()[1]
    # 1 and 3: each beat 5 and tied the other: 1.5 of 2 = 75%; 5 beat nobody
    assert (mp[1], mp[3], mp[5]) == (F(75), F(75), F(0))
    # the other direction: 6 won (100%), 2 and 4 lost by 25 each (tie: 25%)
    assert (mp[6], mp[2], mp[4]) == (F(100), F(25), F(25))
    assert [(s.couple, s.score) for s in h.standings()][:3] == [
        (6, F(100)), (1, F(75)), (3, F(75))]


def test_duplicate_win_beats_any_loss_and_byes_score_average() -> None:
    h = hall_of(5, games=1, duplicate=True)
    h.begin()  # (1, 2), (3, 4); 5 sits out
    h.report(1, 1, 2, {1: 40, 2: 45})  # 1 loses by 5
    h.report(1, 2, 3, {3: 45, 4: 44})  # 3 wins by 1
    mp = h.matchpoints()[1]
    assert mp == {1: F(0), 3: F(100), 2: F(100), 4: F(0), 5: F(50)}
    with pytest.raises(HallError, match="points"):
        h2 = hall_of(4, games=1, duplicate=True)
        h2.report(1, 1, 1)


def test_duplicate_deals_are_the_same_at_every_table_of_a_game() -> None:
    from forties import new_game

    h = hall_of(6, games=2, duplicate=True, seed=9)
    hands = {new_game(h.settings.rules, seed=h.deal_seed(1, t), first_dealer=0).deal
             for t in (1, 2, 3)}
    assert len(hands) == 1
    assert h.deal_seed(2, 1) != h.deal_seed(1, 1)
    plain = hall_of(6, games=2, seed=9)
    assert plain.deal_seed(1, 1) != plain.deal_seed(1, 2)


def test_the_seed_is_committed_before_and_shown_after() -> None:
    h = seed_example()
    assert h.status()["seed_sha256"] == commitment(h.settings.seed)
    import hashlib

    assert commitment(1234) == hashlib.sha256(b"1234").hexdigest()


def _redo_cut(method: str, seed: int, name: str, couples: list[int]) -> dict[str, list[str]]:
    """A hall member's check of a cut, by the published method alone: the deck in the
    order it gives, shuffled with the seed and the draw's name, couples drawing in order
    of number, a tie on rank drawing again."""
    assert 'random.Random("{seed}/{name}/{k}").shuffle(deck)' in method
    assert "2C 3C ... AC 2D ... AS" in method and "ace is low" in method
    deck = [r + s for s in "CDHS" for r in "23456789TJQKA"]
    stream: list[str] = []
    for k in range(4):
        d = list(deck)
        random.Random(f"{seed}/{name}/{k}").shuffle(d)
        stream += d
    top = iter(stream)
    drawn: dict[str, list[str]] = {str(c): [] for c in sorted(couples)}
    low = {r: i for i, r in enumerate("A23456789TJQK")}

    def rank(group: list[int]) -> None:
        for c in group:
            drawn[str(c)].append(next(top))
        by: dict[int, list[int]] = {}
        for c in group:
            by.setdefault(low[drawn[str(c)][-1][0]], []).append(c)
        for tied in by.values():
            if len(tied) > 1:
                rank(tied)

    rank(sorted(couples))
    return drawn


def test_a_cut_is_redone_from_the_exported_evening_alone() -> None:
    import json

    from forties.commands.hall import contest_lines
    from forties.hall.export import export_json

    h = seed_example()
    h.apply(Vote("prize-1", 1, "cut"))
    h.apply(Vote("prize-1", 2, "cut"))
    h.apply(CutDeck("prize-1"))
    d = json.loads(json.dumps(export_json(h)))
    cut = d["contests"]["prize-1"]["cut"]
    name = cut["draw"]
    assert name == "cut/prize-1"
    couples = d["contests"]["prize-1"]["couples"]
    assert _redo_cut(d["draws"]["method"], d["draws"]["seed"], name, couples) == cut["cards"]
    # the director's printout names the same draw
    assert any(f"draw {name}," in line for line in contest_lines(h, h.contests()["prize-1"]))


def test_every_cut_carries_the_name_that_redoes_it() -> None:
    from forties.hall.draw import METHOD

    for name in ("prize-2/forfeit", "booby"):
        cut = cut_deck(77, name, [5, 2, 9])
        assert cut.name == f"cut/{name}"
        assert _redo_cut(METHOD, 77, cut.name, [5, 2, 9]) == \
            {str(c): list(v) for c, v in cut.draws}
