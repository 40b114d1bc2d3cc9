"""A club's season (forties.hall.season): evenings added up couple by couple, the ranking
under the season's rule (every evening or the best N), ties settled as the hall settles
its prizes (a checkable cut of the deck, or a shared place), the cookie jar's history,
unfinished evenings, and the CSV and JSON exports. Every expected number below is
worked out by the test from what it asked each evening to end on."""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from collections.abc import Sequence
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties.hall import Hall, Settings
from forties.hall.draw import METHOD, cut_deck
from forties.hall.season import (
    CSV_COLUMNS,
    SeasonError,
    SeasonEvening,
    SeasonRule,
    couple_key,
    draw_number,
    fold_name,
    season,
    season_csv,
    season_json,
)

from .hall_helpers import play_game, random_picker


def night(names: Sequence[tuple[str, str]], targets: Sequence[int], games: int,
          **opts: object) -> Hall:
    """An evening of couples ``names`` ending on exactly ``targets`` games won (found by
    trying each table's winner in turn, or no game), byes not counting unless asked."""
    opts.setdefault("bye_wins", False)
    h = Hall(Settings(games=games, **opts))  # type: ignore[arg-type]
    for ns in names:
        h.register(ns)
    done = _steer(h, list(targets))
    assert done is not None, f"no evening ends on {targets}"
    assert [s.wins for s in sorted(done.standings(), key=lambda s: s.couple)] == \
        list(targets)
    return done


def _steer(h: Hall, targets: list[int]) -> Hall | None:
    if h.over:
        return h
    seat = h.begin()
    left = h.games - seat.game
    won = {s.couple: s.wins for s in h.standings()}
    snapshot = h.to_json()
    for picks in itertools.product(*((a, b, None) for a, b in seat.tables)):
        after = dict(won)
        for c in picks:
            if c is not None:
                after[c] += 1
        if any(after[c] > targets[c - 1] or after[c] + left < targets[c - 1] for c in after):
            continue
        trial = Hall.from_json(snapshot)
        for t, c in enumerate(picks, 1):
            trial.report(seat.game, t, c)
        found = _steer(trial, targets)
        if found is not None:
            return found
    return None


def ev(key: str, day: int, hall: Hall) -> SeasonEvening:
    return SeasonEvening(key, date(2026, 1, day), f"Evening {key}", hall)


DOYLE = ("Mary Doyle", "Jim Burke")
DOYLE_TYPED = ("jim  BURKE", "Mary Doyle")  # the other way round, case and spaces
CAMPBELL = ("Ann Campbell", "Joe MacNeil")
ROSS = ("Flora Ross", "Dan Rankin")
GILLIS = ("Kay Gillis", "Neil Beaton")


def three_evenings() -> tuple[list[SeasonEvening], dict[tuple[str, str], list[int | None]]]:
    """Three evenings of 6 games (4 couples each); Gillis misses
    the second, Ross the third (a fifth couple, Walsh, comes to it instead). Returns the
    evenings and each couple's games per evening (None: absent)."""
    walsh = ("Pat Walsh", "Sue Gillis")
    e1 = night([DOYLE, CAMPBELL, ROSS, GILLIS], [5, 3, 2, 1], 6)
    e2 = night([CAMPBELL, DOYLE_TYPED, ROSS, walsh], [4, 1, 4, 3], 6)
    e3 = night([GILLIS, DOYLE, walsh, CAMPBELL], [5, 2, 1, 3], 6)
    per = {couple_key(DOYLE): [5, 1, 2], couple_key(CAMPBELL): [3, 4, 3],
           couple_key(ROSS): [2, 4, None], couple_key(GILLIS): [1, None, 5],
           couple_key(walsh): [None, 3, 1]}
    return [ev("a", 5, e1), ev("b", 12, e2), ev("c", 19, e3)], per


def by_key(s: object) -> dict[tuple[str, str], object]:
    return {couple_key(x.names): x for x in s.standings}  # type: ignore[attr-defined]


# ----- who is the same couple ------------------------------------------------------------


@pytest.mark.parametrize(("a", "b"), [
    (("Mary Doyle", "Jim Burke"), ("Jim Burke", "Mary Doyle")),
    (("Mary Doyle", "Jim Burke"), ("MARY   doyle", "jim burke")),
    (("Zoé Roy", "Luc Roy"), ("Zoe\u0301 Roy", "Luc Roy")),  # é written two ways
    (("Ｍary Doyle", "Jim Burke"), ("Mary Doyle", "Jim Burke")),  # full-width M
])
def test_the_same_couple_whichever_way_its_names_are_typed(a: tuple[str, str],
                                                           b: tuple[str, str]) -> None:
    assert couple_key(a) == couple_key(b)


def test_different_names_are_different_couples() -> None:
    assert couple_key(("Mary Doyle", "Jim Burke")) != couple_key(("Mary Doyle", "Jim Burk"))
    assert fold_name("  A   b ") == "a b"


# ----- adding the evenings up --------------------------------------------------------------


def test_every_evening_counts_games_attendance_and_places() -> None:
    evenings, per = three_evenings()
    s = season(SeasonRule(best=None, prizes=0), evenings, closed=False)
    want = {k: sum(g for g in v if g is not None) for k, v in per.items()}
    rows = by_key(s)
    assert {k: r.total for k, r in rows.items()} == want  # type: ignore[attr-defined]
    assert {k: r.games for k, r in rows.items()} == want  # type: ignore[attr-defined]
    assert {k: r.evenings for k, r in rows.items()} == {  # type: ignore[attr-defined]
        k: sum(g is not None for g in v) for k, v in per.items()}
    # each night in date order, with the couple's number that evening
    doyle = rows[couple_key(DOYLE)]
    assert [(n.evening, n.couple, n.games) for n in doyle.nights] == [  # type: ignore
        ("a", 1, 5), ("b", 2, 1), ("c", 2, 2)]
    # best first; places shared by the level (Campbell 10, Doyle 8, Ross and Gillis 6)
    totals = [r.total for r in s.standings]
    assert totals == sorted(want.values(), reverse=True)
    for r in s.standings:
        assert r.place == 1 + sum(t > r.total for t in totals)
    # shown under the names of the last evening each came to
    assert doyle.names == DOYLE  # type: ignore[attr-defined]
    s = season(SeasonRule(), evenings[:2], closed=False)
    assert by_key(s)[couple_key(DOYLE)].names == DOYLE_TYPED  # type: ignore[attr-defined]


def test_best_n_counts_each_couples_best_evenings() -> None:
    evenings, per = three_evenings()
    s = season(SeasonRule(best=2, prizes=0), evenings, closed=False)
    rows = by_key(s)
    for k, v in per.items():
        got = [g for g in v if g is not None]
        r = rows[k]
        assert r.total == sum(sorted(got, reverse=True)[:2])  # type: ignore[attr-defined]
        assert r.games == sum(got)  # type: ignore[attr-defined]
        assert sorted((n.games for n in r.nights if n.counted),  # type: ignore
                      reverse=True) == sorted(got, reverse=True)[:2]
    # Doyle's worst evening (1 game, the second) is the one not counted
    assert [n.counted for n in rows[couple_key(DOYLE)].nights] == [  # type: ignore
        True, False, True]


def test_level_on_best_n_the_games_over_every_evening_rank_first() -> None:
    # best 1: each has a best evening of 2 games; Campbell won 4 in all, Doyle 2
    e1 = night([DOYLE, CAMPBELL], [2, 0], 2)
    e2 = night([DOYLE, CAMPBELL], [0, 2], 2)
    e3 = night([DOYLE, CAMPBELL], [0, 2], 2)
    s = season(SeasonRule(best=1), [ev("a", 1, e1), ev("b", 2, e2), ev("c", 3, e3)],
               closed=True)
    assert [(r.names, r.total, r.games, r.place, r.tie) for r in s.standings] == [
        (CAMPBELL, 2, 4, 1, None), (DOYLE, 2, 2, 2, None)]
    assert s.ties == ()


def test_an_unfinished_evening_is_listed_and_adds_nothing() -> None:
    evenings, per = three_evenings()
    playing = Hall(Settings(games=4))
    for ns in (DOYLE, ("New", "Couple")):
        playing.register(ns)
    play_game(playing, lambda t, a, b: a)
    waiting = Hall(Settings(games=4))
    waiting.register(DOYLE)
    s = season(SeasonRule(), [*evenings, ev("d", 26, playing), ev("e", 27, waiting)],
               closed=True)
    assert [e.state for e in s.evenings] == ["over", "over", "over", "playing",
                                             "not started"]
    assert [e.key for e in s.counted()] == ["a", "b", "c"]
    rows = by_key(s)
    assert couple_key(("New", "Couple")) not in rows
    assert rows[couple_key(DOYLE)].total == sum(per[couple_key(DOYLE)])  # type: ignore
    assert not s.over  # the last date is past but an evening is not over
    # so Ross and Gillis, level on 6 for third, stay level
    assert [(t.key, t.method) for t in s.ties] == [("place-3", "level")]
    assert [r.place for r in s.standings][2:4] == [3, 3]
    out = season_json(s)
    assert [e["state"] for e in out["evenings"]] == ["over", "over", "over", "playing",
                                                     "not started"]
    assert [e["counted"] for e in out["evenings"]] == [True, True, True, False, False]


def test_a_couple_renamed_on_the_evening_counts_under_its_corrected_names() -> None:
    e1 = night([DOYLE, CAMPBELL], [2, 1], 3)
    e2 = night([("Mary Doyel", "Jim Burke"), CAMPBELL], [1, 2], 3)
    e2.rename(1, DOYLE)
    s = season(SeasonRule(), [ev("a", 1, e1), ev("b", 2, e2)], closed=False)
    assert by_key(s)[couple_key(DOYLE)].total == 3  # type: ignore[attr-defined]
    assert len(s.standings) == 2


def test_two_couples_of_one_evening_with_the_same_names_stay_apart() -> None:
    e1 = night([DOYLE, DOYLE_TYPED], [3, 1], 4)
    e2 = night([DOYLE, CAMPBELL], [2, 2], 4)
    s = season(SeasonRule(prizes=0), [ev("a", 1, e1), ev("b", 2, e2)], closed=False)
    assert sorted((r.couple, r.total, r.evenings) for r in s.standings) == [
        (1, 5, 2), (2, 1, 1), (3, 2, 1)]


def test_a_couple_withdrawn_before_playing_did_not_come() -> None:
    h = Hall(Settings(games=2, bye_wins=False))
    for ns in (DOYLE, CAMPBELL, ROSS):
        h.register(ns)
    h.leave(3, 1)
    play_game(h, lambda t, a, b: a)
    play_game(h, lambda t, a, b: a)
    s = season(SeasonRule(), [ev("a", 1, h)], closed=False)
    assert couple_key(ROSS) not in by_key(s)


# ----- prizes and the cookie jar -------------------------------------------------------------


def test_each_evenings_prizes_are_the_couples_with_their_place_and_how() -> None:
    e1 = night([DOYLE, CAMPBELL, ROSS, GILLIS], [4, 3, 2, 2], 6, prizes=2, booby=True,
               tie_break="split")
    s = season(SeasonRule(), [ev("a", 1, e1)], closed=False)
    rows = by_key(s)
    got = {k: [(p.evening, p.prize, p.how, p.shared) for p in r.prizes]  # type: ignore
           for k, r in rows.items()}
    assert got == {couple_key(DOYLE): [("a", 1, "outright", False)],
                   couple_key(CAMPBELL): [("a", 2, "outright", False)],
                   # Ross and Gillis level on 2 games, the fewest: they split the booby
                   couple_key(ROSS): [("a", 0, "split", True)],
                   couple_key(GILLIS): [("a", 0, "split", True)]}
    assert "E1:booby" in season_csv(s)


def test_an_evenings_prizes_still_being_settled_are_not_yet_won() -> None:
    e1 = night([DOYLE, CAMPBELL], [2, 2], 4, prizes=1, tie_break="cut")
    s = season(SeasonRule(), [ev("a", 1, e1)], closed=False)
    assert all(r.prizes == () for r in s.standings)
    assert season_json(s)["evenings"][0]["prizes_decided"] is False


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 2**32), min_size=1, max_size=5))
def test_the_cookie_jars_history_carries_over_as_the_hall_says(seeds: list[int]) -> None:
    names = [DOYLE, CAMPBELL, ROSS, GILLIS]
    evenings = []
    for i, seed in enumerate(seeds, 1):
        rng = random.Random(seed)
        h = Hall(Settings(games=6, cookie_jar=3, seed=seed))
        order = names[:]
        rng.shuffle(order)
        for ns in order:
            h.register(ns)
        for _ in range(6):
            play_game(h, random_picker(rng))
        evenings.append(ev(str(i), i, h))
    s = season(SeasonRule(), evenings, closed=False)
    assert [j.evening for j in s.cookie_jar] == [e.key for e in evenings]
    run = 0
    for j, e in zip(s.cookie_jar, evenings, strict=True):
        jar = e.hall.cookie_jar()
        assert jar is not None and j.games == jar.games
        want = sorted(couple_key(e.hall.couples[c].names) for c in jar.winners)
        got = sorted(couple_key(r.names) for r in s.standings if r.couple in j.winners)
        assert got == want
        assert j.carried == run
        run = 0 if j.winners else run + 1


# ----- ties --------------------------------------------------------------------------------


def level_season(**rule: object) -> tuple[list[SeasonEvening], SeasonRule]:
    """Doyle and Campbell level on 5 games for first place, Ross and Gillis on 3 for
    third; each evening with its own seed."""
    e1 = night([DOYLE, CAMPBELL, ROSS, GILLIS], [3, 2, 1, 2], 4, seed=18)
    e2 = night([DOYLE, CAMPBELL, ROSS, GILLIS], [2, 3, 2, 1], 4, seed=19)
    return [ev("a", 1, e1), ev("b", 2, e2)], SeasonRule(**rule)  # type: ignore[arg-type]


def test_a_tie_is_level_until_the_season_is_over() -> None:
    evenings, rule = level_season(ties="cut", prizes=3)
    s = season(rule, evenings, closed=False)
    assert [(t.key, t.places, t.method) for t in s.ties] == [
        ("place-1", (1, 2), "level"), ("place-3", (3, 4), "level")]
    assert [r.place for r in s.standings] == [1, 1, 3, 3]
    assert "draws" not in season_json(s)


def test_a_cut_of_the_deck_settles_the_ties_for_prize_places_checkably() -> None:
    evenings, rule = level_season(ties="cut", prizes=3)
    s = season(rule, evenings, closed=True)
    assert s.over
    number = draw_number(s.evenings)
    top = {couple_key(DOYLE), couple_key(CAMPBELL)}
    first_two = [r.couple for r in s.standings[:2]]
    assert {couple_key(r.names) for r in s.standings[:2]} == top
    # the same cut anyone redoes from the evenings' seeds, by the hall's method
    assert list(cut_deck(number, "season/place-1", sorted(first_two)).order) == first_two
    last_two = [r.couple for r in s.standings[2:]]
    assert list(cut_deck(number, "season/place-3", sorted(last_two)).order) == last_two
    # these seeds' cuts put the higher number first both times: the cut decided it
    assert first_two == sorted(first_two, reverse=True)
    assert last_two == sorted(last_two, reverse=True)
    assert [r.place for r in s.standings] == [1, 2, 3, 4]
    assert [t.method for t in s.ties] == ["cut", "cut"]
    assert s.ties[0].cut is not None and s.ties[0].cut.name == "cut/season/place-1"
    out = season_json(s)
    assert out["draws"]["number"] == number
    assert "SEED1/SEED2" in out["draws"]["how"]
    assert out["draws"]["method"] == METHOD
    # the number is the evenings' seeds in date order, hashed
    import hashlib
    assert number == int.from_bytes(hashlib.sha256(b"18/19/season").digest()[:6], "big")


def test_a_split_shares_the_place_for_good() -> None:
    evenings, rule = level_season(ties="split", prizes=3)
    s = season(rule, evenings, closed=True)
    assert [r.place for r in s.standings] == [1, 1, 3, 3]
    assert [t.method for t in s.ties] == ["split", "split"]
    assert "draws" not in season_json(s)


def test_a_tie_below_the_prize_places_simply_shares_its_place() -> None:
    evenings, rule = level_season(ties="cut", prizes=2)
    s = season(rule, evenings, closed=True)
    assert [t.key for t in s.ties] == ["place-1"]
    assert [r.place for r in s.standings] == [1, 2, 3, 3]
    assert [r.tie for r in s.standings[2:]] == [None, None]


# ----- the rule ----------------------------------------------------------------------------


def test_a_rule_as_stored_takes_defaults() -> None:
    assert SeasonRule.from_json({"best": 8}) == SeasonRule(8, "cut", 3)
    assert SeasonRule.from_json({"best": None}) == SeasonRule(None, "cut", 3)
    assert SeasonRule.from_json(SeasonRule(2, "split", 1).to_json()) == SeasonRule(2, "split", 1)


@pytest.mark.parametrize("bad", [
    [], "best 8", {"best": 0}, {"best": "8"}, {"best": True}, {"best": 10**9},
    {"ties": "vote"}, {"prizes": -1}, {"prizes": 3.5}, {"best": 8, "extra": 1},
])
def test_a_bad_rule_is_one_line(bad: object) -> None:
    with pytest.raises(SeasonError) as e:
        SeasonRule.from_json(bad)
    assert "\n" not in str(e.value) and len(str(e.value)) < 120


def test_an_evening_that_cannot_be_replayed_is_named() -> None:
    with pytest.raises(SeasonError, match="evening Friday"):
        SeasonEvening.of("x", date(2026, 1, 1), "Friday", {"format": "nope"})
    h = night([DOYLE, CAMPBELL], [1, 0], 1)
    e = SeasonEvening.of("x", date(2026, 1, 1), "Friday", h.to_json())
    assert e.hall.over
    with pytest.raises(SeasonError, match="twice"):
        season(SeasonRule(), [e, e], closed=False)


# ----- exports -----------------------------------------------------------------------------


def test_the_csv_has_its_columns_in_order_and_one_per_evening() -> None:
    evenings, per = three_evenings()
    s = season(SeasonRule(best=2, prizes=0), evenings, closed=False)
    rows = list(csv.reader(io.StringIO(season_csv(s))))
    assert rows[0] == [*CSV_COLUMNS, "E1 2026-01-05 Evening a", "E2 2026-01-12 Evening b",
                       "E3 2026-01-19 Evening c"]
    assert len(rows) == 1 + len(per)
    for row in rows[1:]:
        k = couple_key((row[2], row[3]))
        got = [int(x) if x else None for x in row[len(CSV_COLUMNS):]]
        assert got == per[k]
        assert int(row[4]) == sum(sorted((g for g in got if g is not None),
                                         reverse=True)[:2])
    doyle = next(r for r in rows[1:] if couple_key((r[2], r[3])) == couple_key(DOYLE))
    assert doyle[CSV_COLUMNS.index("not counted")] == "E2"


def test_a_name_a_spreadsheet_would_run_is_quoted() -> None:
    h = night([("=HYPERLINK(1)", "x"), CAMPBELL], [1, 0], 1)
    text = season_csv(season(SeasonRule(), [ev("a", 1, h)], closed=False))
    assert "'=HYPERLINK(1)" in text


def test_the_json_export_is_json_with_every_couples_nights() -> None:
    evenings, per = three_evenings()
    s = season(SeasonRule(best=2), evenings, closed=True)
    out = json.loads(json.dumps(season_json(s)))
    assert out["format"] == "forties-season/1"
    assert out["rule"] == {"best": 2, "ties": "cut", "prizes": 3}
    assert out["over"] is True
    assert [e["date"] for e in out["evenings"]] == ["2026-01-05", "2026-01-12", "2026-01-19"]
    for row in out["standings"]:
        k = couple_key(row["names"])
        want = [g for g in per[k] if g is not None]
        assert [n["games"] for n in row["nights"]] == want
        assert row["evenings"] == len(want)


# ----- properties --------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), best=st.one_of(st.none(), st.integers(1, 4)),
       evenings=st.integers(1, 4))
def test_any_season_adds_up(seed: int, best: int | None, evenings: int) -> None:
    rng = random.Random(seed)
    pool = [(f"A{i}", f"B{i}") for i in range(7)]
    evs = []
    for i in range(evenings):
        h = Hall(Settings(games=3, seed=rng.randrange(2**32)))
        for ns in rng.sample(pool, rng.randint(2, 6)):
            h.register(ns if rng.random() < 0.5 else (ns[1].lower(), ns[0]))
        for _ in range(3):
            play_game(h, random_picker(rng, no_game=0.1))
        evs.append(ev(str(i), i + 1, h))
    s = season(SeasonRule(best=best), evs, closed=True)
    wins: dict[tuple[str, str], list[int]] = {}
    for e in evs:
        for x in e.hall.standings():
            wins.setdefault(couple_key(x.names), []).append(x.wins)
    assert by_key(s).keys() == wins.keys()
    for k, r in by_key(s).items():
        got = wins[k]
        assert r.games == sum(got)  # type: ignore[attr-defined]
        assert r.total == sum(sorted(got, reverse=True)[:best or len(got)])  # type: ignore
        assert r.evenings == len(got)  # type: ignore[attr-defined]
    keys = [(-r.total, -r.games) for r in s.standings]
    assert keys == sorted(keys)
    assert sorted(r.couple for r in s.standings) == list(range(1, len(wins) + 1))
    places = [r.place for r in s.standings]
    assert places == sorted(places)
    # the prize places are each one couple's (cut) once the season is over
    prize = [p for p in places if p <= s.rule.prizes]
    assert len(prize) == len(set(prize))
