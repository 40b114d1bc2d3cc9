"""The movement of a hall evening: golden evenings worked by hand, then properties of any
evening (2 to 200 couples, 1 to 40 games, couples coming and going)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forties.hall import Hall, HallError, Seating
from forties.hall.checks import check_evening
from forties.hall.events import Close, Swap
from forties.hall.movement import choose_sit_out, first_seating, next_seating
from forties.hall.printing import move_lines

from .hall_helpers import hall_of, play_game, random_picker


def winners(*w: int | None) -> object:
    """A picker naming each table's winner in order."""
    it = iter(w)
    return lambda t, a, b: next(it)


# ----- golden: four couples, two tables -----------------------------------------------------


def test_four_couples_winners_move_and_deal_first_losers_stay() -> None:
    h = hall_of(4, games=3)
    assert h.begin() == Seating(1, ((1, 2), (3, 4)), None)  # lower number deals first
    h.report(1, 1, 2)
    h.report(1, 2, 3)
    # table 1 keeps its loser (1) and takes table 2's winner (3, dealing first);
    # table 2 keeps 4 and takes table 1's winner 2
    assert h.seating(2) == Seating(2, ((3, 1), (2, 4)), None)
    play_game(h, winners(3, 4))
    assert h.seating(3) == Seating(3, ((4, 1), (3, 2)), None)
    play_game(h, winners(1, 2))
    assert [(s.couple, s.won) for s in h.standings()] == [
        (2, (1, 3)), (3, (1, 2)), (1, (3,)), (4, (2,))]
    assert all(c.ok for c in check_evening(h))


def test_a_single_table_keeps_its_couples_and_the_winner_deals() -> None:
    h = hall_of(2, games=2)
    h.begin()
    h.report(1, 1, 2)
    assert h.seating(2) == Seating(2, ((2, 1),), None)


# ----- golden: five couples, one sits out each game -----------------------------------------


def five_couples() -> Hall:
    h = hall_of(5, games=3, booby=True)
    assert h.begin() == Seating(1, ((1, 2), (3, 4)), 5)  # the last couple sits out first
    play_game(h, winners(2, 3))
    return h


def test_five_couples_golden_evening() -> None:
    h = five_couples()
    # natural: table 1 (3 from table 2, 1 stays), table 2 (2 from table 1, 4 stays);
    # couple 4 sits out next (going down from 5), and 5 takes its place
    assert h.seating(2) == Seating(2, ((3, 1), (2, 5)), 4)
    play_game(h, winners(1, 5))
    # natural: table 1 (5 from table 2, 3 stays), table 2 (1 from table 1, 2 stays);
    # couple 3 sits out next, 4 comes back into its place
    assert h.seating(3) == Seating(3, ((5, 4), (1, 2)), 3)
    play_game(h, winners(4, 1))
    cards = {s.couple: s.won for s in h.standings()}
    assert cards == {1: (2, 3), 2: (1,), 3: (1, 3), 4: (2, 3), 5: (1, 2)}
    assert {s.couple: s.byes for s in h.standings()} == {1: (), 2: (), 3: (3,), 4: (2,),
                                                          5: (1,)}
    assert sum(len(w) for w in cards.values()) == 6 + 3  # six games won, three byes
    assert all(c.ok for c in check_evening(h))


def test_a_bye_that_does_not_count_is_not_punched() -> None:
    h = hall_of(5, games=3, bye_wins=False)
    for w in ((2, 3), (1, 5), (4, 1)):
        play_game(h, winners(*w))
    assert {s.couple: s.won for s in h.standings()} == {
        1: (2, 3), 2: (1,), 3: (1,), 4: (3,), 5: (2,)}
    assert all(c.ok for c in check_evening(h))


def test_moves_for_the_next_game() -> None:
    h = five_couples()
    moves = {m.couple: m for m in h.moves(2)}
    assert (moves[3].from_table, moves[3].to_table, moves[3].deals_first) == (2, 1, True)
    assert moves[1].stays and not moves[1].deals_first
    assert (moves[5].from_table, moves[5].to_table) == (None, 2)
    assert moves[4].to_table is None
    assert move_lines(h.moves(2), 2) == [
        "Couple 2 to table 2 (deals first)", "Couple 3 to table 1 (deals first)",
        "Couple 5 to table 2", "Couple 4 sits out game 2", "Couple 1 stays at table 1"]
    assert move_lines(h.moves(2), 2, "fr")[0] == "Couple 2 à la table 2 (donne le premier)"


def test_wrap_around_from_the_last_table() -> None:
    h = hall_of(8, games=2)
    play_game(h, lambda t, a, b: a)
    seat = h.seating(2)
    assert seat is not None
    assert seat.tables[0][0] == 7  # the winner at table 4 goes to table 1
    assert [pair[0] for pair in seat.tables] == [7, 1, 3, 5]


# ----- sitting out in turn ------------------------------------------------------------------


def test_sit_outs_go_down_the_numbers_and_wrap() -> None:
    h = hall_of(7, games=9)
    rng = random.Random(4)
    outs = []
    for _ in range(9):
        play_game(h, random_picker(rng))
        outs.append(h.seatings[-1].sitting_out)
    assert outs == [7, 6, 5, 4, 3, 2, 1, 7, 6]


def test_choose_sit_out_prefers_fewest_then_next_down() -> None:
    assert choose_sit_out([1, 2, 3], {}, None) == 3
    assert choose_sit_out([1, 2, 3], {3: 1}, 3) == 2
    assert choose_sit_out([1, 2, 3], {1: 1, 2: 1, 3: 1}, 1) == 3  # wraps round
    assert choose_sit_out([1, 2, 3, 4], {4: 1, 2: 1}, 2) == 1
    assert choose_sit_out([5, 9], {}, 7) == 5


# ----- couples leaving and arriving, tables that cannot finish ------------------------------


def test_a_couple_leaving_frees_its_place_for_the_couple_sitting_out() -> None:
    h = hall_of(5, games=3)
    play_game(h, winners(2, 3))
    h.leave(1)  # leaves after game 1
    seat = h.seating(2)
    assert seat == Seating(2, ((3, 5), (2, 4)), None)  # 5 takes 1's place; nobody sits out
    h.begin(2)
    with pytest.raises(HallError, match="game 2 has begun"):
        h.leave(3, 2)
    assert all(c.ok for c in check_evening(h))


def test_a_departure_closes_the_last_table() -> None:
    h = hall_of(6, games=3)
    play_game(h, winners(1, 3, 5))
    h.leave(2)
    seat = h.seating(2)
    assert seat is not None and len(seat.tables) == 2 and seat.sitting_out is not None
    assert 2 not in seat.couples() and seat.couples() == {1, 3, 4, 5, 6}
    # the winner from table 2 (3) moves on to table 1 under the new count
    assert seat.place_of(3) == (1, 0)
    play_game(h, lambda t, a, b: a)
    play_game(h, lambda t, a, b: b)
    assert all(c.ok for c in check_evening(h)), check_evening(h)
    row = {s.couple: s for s in h.standings()}[2]
    assert row.absent == (2, 3) and row.played == 1


def test_a_late_couple_joins_and_is_not_first_to_sit_out() -> None:
    h = hall_of(4, games=4)
    play_game(h, winners(1, 3))
    c = h.register(("Late", "Comers"))
    assert c == 5 and h.couples[5].first_game == 2
    seat = h.seating(2)
    assert seat is not None and seat.sitting_out != 5  # it has missed a game already
    assert 5 in seat.couples()
    play_game(h, lambda t, a, b: a)
    assert all(ch.ok for ch in check_evening(h))
    row = {s.couple: s for s in h.standings()}[5]
    assert row.absent == (1,)


def test_no_game_moves_the_dealing_couple_on_and_punches_nobody() -> None:
    h = hall_of(4, games=2)
    h.begin()
    h.report(1, 1, None)
    h.report(1, 2, 4)
    # table 1 had no game: couple 1 (which dealt first) moves on, 2 stays
    assert h.seating(2) == Seating(2, ((4, 2), (1, 3)), None)
    assert {s.couple: s.wins for s in h.standings()} == {1: 0, 2: 0, 3: 0, 4: 1}


def test_a_swap_puts_couples_where_they_really_sat() -> None:
    h = hall_of(6, games=2)
    h.begin()
    h.apply(Swap(1, (1, 3)))
    assert h.seatings[0].tables[:2] == ((3, 2), (1, 4))
    h.report(1, 1, 3)
    with pytest.raises(HallError, match="already reported"):
        h.apply(Swap(1, (3, 5)))


def test_closing_the_evening_early() -> None:
    h = hall_of(4, games=5, cookie_jar=2)
    play_game(h, winners(1, 3))
    play_game(h, winners(3, 1))
    with pytest.raises(HallError):
        h.apply(Close(1))
    h.apply(Close(2))
    assert h.over and h.games == 2
    jar = h.cookie_jar()
    assert jar is not None and jar.games == (1, 2) and jar.winners == (1, 3)


# ----- properties of any evening ------------------------------------------------------------


@st.composite
def evenings(draw: st.DrawFn) -> tuple[int, int, int, float, bool]:
    couples = draw(st.integers(2, 200))
    games = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**32))
    no_game = draw(st.sampled_from([0.0, 0.0, 0.1]))
    return couples, games, seed, no_game, draw(st.booleans())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evenings())
def test_any_evening_keeps_every_rule(ev: tuple[int, int, int, float, bool]) -> None:
    couples, games, seed, no_game, bye_wins = ev
    h = hall_of(couples, games=games, bye_wins=bye_wins)
    rng = random.Random(seed)
    for _ in range(games):
        play_game(h, random_picker(rng, no_game))
    assert h.over
    for c in check_evening(h):
        assert c.ok, c
    tables = couples // 2
    assert all(len(s.tables) == tables for s in h.seatings)
    # every couple plays one game a round unless it sits out; sit-outs differ by one at most
    rows = h.standings()
    assert all(r.played + len(r.byes) == games for r in rows)
    byes = [len(r.byes) for r in rows]
    assert max(byes) - min(byes) <= 1 and sum(byes) == (games if couples % 2 else 0)
    # winners moved and dealt first, every game
    for g in range(2, games + 1):
        prev, seat = h.seatings[g - 2], h.seatings[g - 1]
        for t, pair in enumerate(prev.tables, 1):
            w = h.results[g - 2][t].winner
            mover = pair[0] if w is None else w
            if mover != seat.sitting_out:
                assert seat.place_of(mover) == (t % tables + 1, 0)
    # the standings are the punch cards; total punched = games won + byes counted
    decided = sum(1 for res in h.results for r in res.values() if r.winner is not None)
    assert sum(r.wins for r in rows) == decided + (sum(byes) if bye_wins else 0)
    assert [r.wins for r in rows] == sorted((r.wins for r in rows), reverse=True)
    assert all(r.place == 1 + sum(1 for o in rows if o.wins > r.wins) for r in rows)
    again = Hall.from_json(h.to_json())
    assert again.seatings == h.seatings and again.standings() == rows


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 60), st.integers(2, 30), st.integers(0, 2**32))
def test_couples_coming_and_going_keep_the_evening_whole(couples: int, games: int,
                                                         seed: int) -> None:
    h = hall_of(couples, games=games)
    rng = random.Random(seed)
    for g in range(1, games + 1):
        if g > 1 and rng.random() < 0.3:
            here = [c for c in h.active(g)]
            if len(here) > 2:
                h.leave(rng.choice(here))
        if g > 1 and rng.random() < 0.3:
            h.register(("Late", f"Couple {g}"))
        play_game(h, random_picker(rng, 0.05))
    for c in check_evening(h):
        assert c.ok, c
    for g, seat in enumerate(h.seatings, 1):
        assert seat.couples() == set(h.active(g))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 40), st.integers(2, 12), st.integers(0, 2**32))
def test_a_correction_before_the_next_game_is_as_if_reported_right(couples: int, games: int,
                                                                   seed: int) -> None:
    rng = random.Random(seed)
    plan = []
    for _ in range(games):
        plan.append([rng.random() < 0.5 for _ in range(couples // 2)])
    g_fix = rng.randrange(1, games + 1)
    t_fix = rng.randrange(1, couples // 2 + 1)

    def run(correct: bool) -> Hall:
        h = hall_of(couples, games=games)
        for g in range(1, games + 1):
            seat = h.begin(g)
            for t, (a, b) in enumerate(seat.tables, 1):
                w = a if plan[g - 1][t - 1] else b
                if (g, t) == (g_fix, t_fix) and correct:
                    h.report(g, t, b if w == a else a)  # the wrong couple, then corrected
                    h.correct(g, t, w)
                else:
                    h.report(g, t, w)
        return h

    right, fixed = run(False), run(True)
    assert fixed.seatings == right.seatings and fixed.standings() == right.standings()
    assert Hall.from_json(fixed.to_json()).standings() == right.standings()


def test_a_correction_after_the_next_game_began_keeps_the_moves() -> None:
    h = hall_of(4, games=3)
    play_game(h, winners(1, 3))
    h.begin(2)
    before = h.seating(2)
    h.correct(1, 1, 2)
    assert h.seating(2) == before
    assert {s.couple: s.won for s in h.standings()}[2] == (1,)
    assert h.notes == ["game 1, table 1 corrected after game 2 began: the moves for game 2 "
                       "stand"]


def test_seating_functions_refuse_an_odd_table() -> None:
    with pytest.raises(ValueError):
        first_seating([1, 2, 3], None)
    with pytest.raises(ValueError):
        next_seating(Seating(1, ((1, 2),)), {1: 1}, [1, 2, 3], None)


def test_the_checks_catch_a_broken_evening(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each check fails on an evening tampered with behind the events' back."""
    import dataclasses

    def evening() -> Hall:
        h = hall_of(7, games=3)
        rng = random.Random(2)
        for _ in range(3):
            play_game(h, random_picker(rng))
        assert all(c.ok for c in check_evening(h))
        return h

    def failed(h: Hall) -> list[str]:
        return [c.name.split(" ")[0] + " " + c.name.split(" ")[1] for c in check_evening(h)
                if not c.ok]

    h = evening()
    (a, b), *rest = h.seatings[1].tables
    h.seatings[1] = dataclasses.replace(h.seatings[1], tables=((b, a), *rest))
    assert failed(h) == ["winners moved"]
    h = evening()
    h.seatings[2] = dataclasses.replace(h.seatings[2], tables=h.seatings[2].tables[:-1])
    assert "every couple" in failed(h)
    h = evening()
    s = h.seatings[2]
    first_out = h.seatings[0].sitting_out
    assert first_out is not None and s.sitting_out is not None
    pos = s.place_of(first_out)
    assert pos is not None
    tables = [list(p) for p in s.tables]
    tables[pos[0] - 1][pos[1]] = s.sitting_out
    h.seatings[2] = Seating(3, tuple((x, y) for x, y in tables), first_out)
    assert "no couple" in failed(h)  # couple 7 sits out again before couple 5 has
    h = evening()
    h.results[0].pop(1)
    assert "games counted" in failed(h)
    h = evening()
    real = h.standings

    def moved_punch() -> list[object]:
        rows: list[object] = list(real())
        i, row = next((i, r) for i, r in enumerate(real()) if 0 < r.wins < 3)
        lost = next(g for g in (1, 2, 3) if g not in row.won)
        rows[i] = dataclasses.replace(row, won=(*row.won[1:], lost))
        return rows

    monkeypatch.setattr(h, "standings", moved_punch)
    assert "punch cards" in failed(h)


def test_when_a_table_closes_its_winner_takes_a_free_dealing_place_first() -> None:
    h = hall_of(7, games=2)
    play_game(h, winners(1, 3, 5))  # 7 sat out
    h.leave(1)  # a winner leaves: its dealing place at table 2 is free
    h.leave(2)
    # two tables now; 6 sits out (going down from 7); table 3's winner (5) takes the free
    # dealing place before 7, back from sitting out, takes the home place
    assert h.seating(2) == Seating(2, ((3, 7), (5, 4)), 6)


def test_when_a_table_closes_and_no_dealing_place_is_free() -> None:
    h = hall_of(7, games=2)
    play_game(h, winners(1, 3, 5))
    h.leave(2)  # two losers leave: the home places are free
    h.leave(4)
    # 5 (winner at the closed table 3) and 7 (back) fill the home places in that order;
    # at table 1 two winners meet, and 3, who came by the ordinary move, deals first
    assert h.seating(2) == Seating(2, ((3, 5), (1, 7)), 6)
