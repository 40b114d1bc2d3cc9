"""Ratings (forties.ratings, docs/ratings.md): the players' and partnerships' new ratings
against openskill called here directly and against the doc's worked example (recomputed
from its own formulas), the computer players' fixed ratings, the display rating and
provisional bounds, why a game does not count, the limits on repeated pairings,
leaderboards, and bad input (one line each)."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from forties.errors import FortiesError
from forties.ratings import (
    ACTIVE_DAYS,
    COMPUTER_RATINGS,
    PAIRING_DAY_LIMIT,
    PAIRING_WINDOW_S,
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    RATED_FAMILIES,
    REASONS,
    SHARE_GAMES,
    RatedGame,
    Rating,
    RatingError,
    active,
    leaderboard,
    new_rating,
    pair_key,
    pairing_check,
    rate_game,
    rated_game,
    why_not_rated,
)
from forties.rules import PRESETS
from forties.table import TABLE_LEVELS

DOC = Path(__file__).resolve().parents[1] / "docs" / "ratings.md"
MV = "merrimack-valley"
HOUR = 3600.0
NOW = 1_800_000_000.0

# openskill's published defaults, written here again: the module must use these.
MU, SIGMA, BETA, TAU = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0


def direct() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


def close(r: Rating, mu: float, sigma: float) -> bool:
    return math.isclose(r.mu, mu, abs_tol=1e-9) and math.isclose(r.sigma, sigma, abs_tol=1e-9)


# ----- the new ratings against openskill ------------------------------------------------


def test_a_partnership_game_matches_openskill_called_directly() -> None:
    ratings: dict[str | tuple[str, str], Rating] = {
        "ann": Rating(27.0, 5.0, 24), "bob": Rating(22.0, 3.5, 80), "cy": Rating(31.0, 4.0, 7)}
    up = rate_game(MV, [["ann", "cy"], ["bob", "dee"]], ranks=[1, 0], ratings=ratings)
    m = direct()
    [[ann, cy], [bob, dee]] = m.rate(
        [[m.rating(27.0, 5.0), m.rating(31.0, 4.0)], [m.rating(22.0, 3.5), m.rating()]],
        ranks=[1, 0])
    assert close(up.accounts["ann"], ann.mu, ann.sigma)
    assert close(up.accounts["cy"], cy.mu, cy.sigma)
    assert close(up.accounts["bob"], bob.mu, bob.sigma)
    assert close(up.accounts["dee"], dee.mu, dee.sigma)  # a newcomer: 25 +- 8.333
    assert [up.accounts[k].games for k in ("ann", "bob", "cy", "dee")] == [25, 81, 8, 1]


def test_scores_are_the_same_as_the_ranks_they_give() -> None:
    sides = [["ann", "cy"], ["bob", "dee"]]
    by_score = rate_game(MV, sides, scores=[84, 121], ratings={})
    by_rank = rate_game(MV, sides, ranks=[2, 1], ratings={})
    assert by_score == by_rank
    assert by_score.accounts["bob"].mu > MU > by_score.accounts["ann"].mu


def test_a_win_raises_the_winners_and_lowers_the_losers() -> None:
    before = {"ann": Rating(30.0, 2.0, 50), "bob": Rating(20.0, 6.0, 3),
              "cy": Rating(26.0, 4.0, 30), "dee": Rating(24.0, 3.0, 40)}
    up = rate_game(MV, [["ann", "cy"], ["bob", "dee"]], ranks=[0, 1], ratings=dict(before))
    for k in ("ann", "cy"):
        assert up.accounts[k].mu > before[k].mu
    for k in ("bob", "dee"):
        assert up.accounts[k].mu < before[k].mu
    for k in before:  # each game makes the site surer (tau added first, so not by much)
        assert up.accounts[k].sigma < before[k].sigma


def test_a_tie_moves_sides_alike() -> None:
    up = rate_game("forty-one", [["ann", "cy"], ["bob", "dee"]], ranks=[0, 0], ratings={})
    assert {round(r.mu, 9) for r in up.accounts.values()} == {MU}


def test_a_computer_players_rating_never_changes() -> None:
    assert set(COMPUTER_RATINGS) == set(TABLE_LEVELS)
    fixed = dict(COMPUTER_RATINGS)
    computers = {"seat1": "expert", "seat3": "basic"}
    for ranks in ([0, 1], [1, 0]):
        up = rate_game(MV, [["ann", "cy"], ["seat1", "seat3"]], ranks=ranks, ratings={},
                       computers=computers)
        assert set(up.accounts) == {"ann", "cy"}
        assert "seat1" not in up.accounts and "seat3" not in up.accounts
    assert fixed == COMPUTER_RATINGS
    # the computers take part at their published ratings
    m = direct()
    e, b = COMPUTER_RATINGS["expert"], COMPUTER_RATINGS["basic"]
    [[ann, _], _] = m.rate([[m.rating(), m.rating()],
                            [m.rating(e.mu, e.sigma), m.rating(b.mu, b.sigma)]], ranks=[1, 0])
    assert close(up.accounts["ann"], ann.mu, ann.sigma)


def test_the_computers_published_ratings_are_the_docs() -> None:
    text = DOC.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\w+) \| ([\d.]+) \| ([\d.]+) \| (\d+) \|$", text, re.M)
    table = {level: (float(mu), float(sigma), int(shown)) for level, mu, sigma, shown in rows}
    assert table == {level: (r.mu, r.sigma, r.display) for level, r in COMPUTER_RATINGS.items()}


# ----- partnerships ---------------------------------------------------------------------


def test_a_partnership_is_rated_as_one_player_against_the_other_partnership() -> None:
    ratings: dict[str | tuple[str, str], Rating] = {
        ("ann", "cy"): Rating(29.0, 4.0, 12), ("bob", "dee"): Rating(24.0, 6.0, 2)}
    up = rate_game(MV, [["cy", "ann"], ["dee", "bob"]], ranks=[1, 0], ratings=ratings)
    assert set(up.partnerships) == {("ann", "cy"), ("bob", "dee")}  # sorted keys
    m = direct()
    [[ac], [bd]] = m.rate([[m.rating(29.0, 4.0)], [m.rating(24.0, 6.0)]], ranks=[1, 0])
    assert close(up.partnerships[("ann", "cy")], ac.mu, ac.sigma)
    assert close(up.partnerships[("bob", "dee")], bd.mu, bd.sigma)
    assert up.partnerships[("ann", "cy")].games == 13
    assert up.partnerships[("bob", "dee")].games == 3
    assert up.partnerships[("ann", "cy")].mu < 29.0  # the losers' pair drops
    assert up.partnerships[("bob", "dee")].mu > 24.0


def test_against_a_side_with_a_computer_the_stand_in_is_its_players_mean() -> None:
    ratings: dict[str | tuple[str, str], Rating] = {"bob": Rating(30.0, 3.0, 60)}
    up = rate_game(MV, [["ann", "cy"], ["bob", "seat3"]], ranks=[0, 1], ratings=ratings,
                   computers={"seat3": "expert"})
    assert set(up.partnerships) == {("ann", "cy")}  # a person and a computer: no partnership
    e = COMPUTER_RATINGS["expert"]
    m = direct()
    [[ac], _] = m.rate([[m.rating()], [m.rating((30.0 + e.mu) / 2,
                                                math.sqrt((9.0 + e.sigma ** 2) / 2))]],
                       ranks=[0, 1])
    assert close(up.partnerships[("ann", "cy")], ac.mu, ac.sigma)
    assert ac.mu > MU


def test_no_partnership_in_a_cut_throat_game_nor_a_side_of_three() -> None:
    up = rate_game("call-your-partner", [["a"], ["b"], ["c"], ["d"], ["e"]],
                   ranks=[0, 1, 2, 3, 4], ratings={})
    assert up.partnerships == {}
    up = rate_game(MV, [["a", "b", "c"], ["d", "e", "f"]], ranks=[0, 1], ratings={})
    assert up.partnerships == {}
    assert len(up.accounts) == 6


def test_pair_key_is_sorted() -> None:
    assert pair_key("zoe", "al") == pair_key("al", "zoe") == ("al", "zoe")


# ----- cut-throat -----------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cut_throat_with_three_to_six_sides_matches_openskill(n: int) -> None:
    keys = [f"p{i}" for i in range(n)]
    ratings: dict[str | tuple[str, str], Rating] = {
        k: Rating(20.0 + 2 * i, 3.0 + i / 2, 30 + i) for i, k in enumerate(keys)}
    ranks = [(i + 2) % n for i in range(n)]  # p{n-2} first, p{n-3} last
    up = rate_game("call-your-partner", [[k] for k in keys], ranks=ranks, ratings=ratings)
    m = direct()
    after = m.rate([[m.rating(ratings[k].mu, ratings[k].sigma)] for k in keys],
                   ranks=[float(r) for r in ranks])
    for k, [r] in zip(keys, after, strict=True):
        assert close(up.accounts[k], r.mu, r.sigma)
    first, last = keys[ranks.index(0)], keys[ranks.index(n - 1)]
    assert up.accounts[first].mu > ratings[first].mu
    assert up.accounts[last].mu < ratings[last].mu


# ----- the display rating and provisional -----------------------------------------------


def test_the_display_rating() -> None:
    assert new_rating() == Rating(MU, SIGMA, 0)
    assert new_rating().display == 1000
    assert Rating(25.0, 5.0 / 3.0, 100).display == 1500
    assert Rating(30.0, 2.0, 100).display == 1000 + 25 * 24


def test_the_provisional_boundary() -> None:
    assert PROVISIONAL_GAMES == 20 and PROVISIONAL_SIGMA == 6.5  # as docs/ratings.md says
    assert Rating(25.0, 6.5, 20).provisional is False
    assert Rating(25.0, 6.5, 19).provisional is True
    assert Rating(25.0, 6.5001, 20).provisional is True
    assert Rating(25.0, 2.0, 1000).provisional is False
    assert new_rating().provisional is True


# ----- why a game does not count --------------------------------------------------------


def base(**over: object) -> dict[str, object]:
    kw: dict[str, object] = {"marked_rated": True, "finished": True, "house_rules": False,
                             "computers": {"s3": "expert"}, "history": (), "at": NOW}
    kw.update(over)
    return kw


def test_why_not_rated_each_reason() -> None:
    sides = [["ann", "cy"], ["bob", "s3"]]
    assert why_not_rated(MV, sides, **base()) is None  # type: ignore[arg-type]
    cases = [
        ("not_rated_game", "whist", sides, {}),
        ("house_rules", MV, sides, {"house_rules": True}),
        ("not_marked", MV, sides, {"marked_rated": False}),
        ("not_finished", MV, sides, {"finished": False}),
        ("guest", MV, [["ann", None], ["bob", "s3"]], {}),
        ("unrated_computer", MV, sides, {"computers": {"s3": "ismcts"}}),
        ("no_account", MV, [["s0", "s2"], ["s1", "s3"]],
         {"computers": {f"s{i}": "basic" for i in range(4)}}),
    ]
    for code, family, s, over in cases:
        assert why_not_rated(family, s, **base(**over)) == code  # type: ignore[arg-type]
        assert code in REASONS


def test_the_first_reason_that_applies_is_given() -> None:
    # unfinished, with a guest, at a table not marked rated, with house rules: in that order
    faults = {"finished": False, "marked_rated": False, "house_rules": True}
    sides = [["ann", None], ["bob", "s3"]]
    assert why_not_rated(MV, sides, **base(**faults)) == "house_rules"  # type: ignore[arg-type]
    del faults["house_rules"]
    assert why_not_rated(MV, sides, **base(**faults)) == "not_marked"  # type: ignore[arg-type]
    del faults["marked_rated"]
    assert why_not_rated(MV, sides, **base(**faults)) == "not_finished"  # type: ignore[arg-type]
    assert list(REASONS).index("house_rules") < list(REASONS).index("not_marked") < list(
        REASONS).index("not_finished") < list(REASONS).index("guest")


def test_every_preset_is_a_rated_game() -> None:
    assert set(RATED_FAMILIES) == set(PRESETS)
    for family in RATED_FAMILIES:
        assert why_not_rated(family, [["a"], ["b"]], **base()) is None  # type: ignore[arg-type]


def test_the_reasons_are_the_docs_one_line_sentences() -> None:
    text = DOC.read_text(encoding="utf-8")
    part = text.split("<!-- reasons -->", 1)[1].split("\n\n", 1)[0]
    rows = dict(re.findall(r"^\| (\w+) \| (.+) \|$", part, re.M)[1:])
    assert rows == REASONS and list(rows) == list(REASONS)  # in the order they are judged
    for sentence in REASONS.values():
        assert "\n" not in sentence and sentence.endswith(".") and sentence[0].isupper()


# ----- the limits on repeated pairings --------------------------------------------------


def meeting(at: float, a: str = "ann", b: str = "bob") -> RatedGame:
    return rated_game(at, [[a, "s2"], [b, "s3"]], {"s2": "expert", "s3": "expert"})


def test_the_day_limit_stops_the_next_game_and_flags_it() -> None:
    history = [meeting(NOW - HOUR * (i + 1)) for i in range(PAIRING_DAY_LIMIT)]
    game = meeting(NOW)
    counts, flag = pairing_check(history, game)
    assert counts is False
    assert flag is not None and "ann" in flag and "bob" in flag and "\n" not in flag
    assert why_not_rated(MV, [["ann", "s2"], ["bob", "s3"]],  # type: ignore[arg-type]
                         **base(computers={"s2": "expert", "s3": "expert"},
                                history=history)) == "pairing_day"
    # one game fewer in the window: this one counts
    assert pairing_check(history[1:], game) == (True, None)


def test_a_game_outside_the_window_no_longer_weighs() -> None:
    history = [meeting(NOW - HOUR * (i + 1)) for i in range(PAIRING_DAY_LIMIT - 1)]
    history.append(meeting(NOW - PAIRING_WINDOW_S))  # exactly 24 hours before: outside
    assert pairing_check(history, meeting(NOW)) == (True, None)
    history[-1] = meeting(NOW - PAIRING_WINDOW_S + 1)  # a second later: inside
    assert pairing_check(history, meeting(NOW))[0] is False


def test_partners_and_others_are_not_limited() -> None:
    partners = [rated_game(NOW - 60 * (i + 1), [["ann", "bob"], ["s1", "s3"]],
                           {"s1": "basic", "s3": "basic"}) for i in range(30)]
    assert pairing_check(partners, rated_game(NOW, [["ann", "bob"], ["cy", "dee"]])) == (
        True, None)
    # ann met bob often, but this game is against cy and dee
    history = [meeting(NOW - HOUR * (i + 1)) for i in range(PAIRING_DAY_LIMIT)]
    assert pairing_check(history, meeting(NOW, "ann", "cy")) == (True, None)


def test_the_share_limit_over_an_accounts_last_games() -> None:
    # ann's last 39 counted games, spread over weeks: 20 against bob, 19 against others;
    # bob's last 39, all since, against others
    week = 7 * 24 * HOUR
    history = [meeting(NOW - week * (i + 1), "ann", "bob" if i % 2 == 0 else f"x{i}")
               for i in range(SHARE_GAMES - 1)]
    history += [meeting(NOW - 60 * (i + 1), f"y{i}", "bob") for i in range(SHARE_GAMES - 1)]
    assert sum(1 for g in history if g.sides == (("ann",), ("bob",))) == 20
    counts, flag = pairing_check(history, meeting(NOW))
    assert counts is False and flag is not None
    assert "account ann: 21 of its last 40 rated games against bob" in flag
    assert "account bob" not in flag
    assert why_not_rated(MV, [["ann", "s2"], ["bob", "s3"]],  # type: ignore[arg-type]
                         **base(computers={"s2": "expert", "s3": "expert"},
                                history=history)) == "pairing_share"
    # one more recent game against someone else pushes the oldest meeting out of the 40
    newer = [*history, meeting(NOW - HOUR, "ann", "zed")]
    assert pairing_check(newer, meeting(NOW)) == (True, None)


def test_before_the_end_the_pairing_limits_are_not_judged() -> None:
    history = [meeting(NOW - HOUR * (i + 1)) for i in range(PAIRING_DAY_LIMIT)]
    assert why_not_rated(MV, [["ann", "s2"], ["bob", "s3"]],  # type: ignore[arg-type]
                         **base(computers={"s2": "expert", "s3": "expert"},
                                history=history, at=None)) is None


# ----- leaderboards ---------------------------------------------------------------------


def test_active_is_a_rated_game_in_the_last_days() -> None:
    day = 86400.0
    assert active(NOW - ACTIVE_DAYS * day, NOW) is True
    assert active(NOW - ACTIVE_DAYS * day - 1, NOW) is False
    assert active(None, NOW) is False


def test_leaderboard_order_and_the_inactive_left_out() -> None:
    rows = [
        ("carl", Rating(30.0, 2.0, 40), NOW - 10),
        ("anne", Rating(30.0, 2.0, 40), NOW - 10),  # same rating and games: by id
        ("bea", Rating(30.0, 2.0, 90), NOW - 10),  # same rating, more games: first of three
        ("dan", Rating(35.0, 2.0, 5), NOW - 10),
        ("old", Rating(40.0, 1.0, 500), NOW - (ACTIVE_DAYS + 1) * 86400.0),
        ("never", Rating(40.0, 1.0, 500), None),
    ]
    assert [k for k, _ in leaderboard(rows, NOW)] == ["dan", "bea", "anne", "carl"]


# ----- the doc's worked example ---------------------------------------------------------


def doc_table(marker: str) -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    part = text.split(f"<!-- worked example: {marker} -->", 1)[1].split("\n\n", 1)[0]
    rows = [[c.strip() for c in line.strip("|").split("|")]
            for line in part.strip().splitlines()]
    return rows[2:]


def shown(cell: str) -> tuple[int, bool]:
    number, _, note = cell.partition(" ")
    return int(number), note == "(provisional)"


def two_sides(winners: list[tuple[float, float]], losers: list[tuple[float, float]]
              ) -> tuple[float, float, list[tuple[float, float]]]:
    """The doc's formulas for two sides: c, p, and each player's new (mu, sigma)."""
    w = [(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in winners]
    lo = [(mu, math.sqrt(s * s + TAU * TAU)) for mu, s in losers]
    vw, vl = sum(s * s for _, s in w), sum(s * s for _, s in lo)
    c = math.sqrt(vw + vl + 2 * BETA * BETA)
    ew, el = math.exp(sum(mu for mu, _ in w) / c), math.exp(sum(mu for mu, _ in lo) / c)
    p = ew / (ew + el)
    out = []
    for sign, side, v in ((1, w, vw), (-1, lo, vl)):
        for mu, s in side:
            out.append((mu + sign * s * s / c * (1 - p),
                        s * math.sqrt(max(1 - s * s * math.sqrt(v) * p * (1 - p) / c ** 3,
                                          1e-4))))
    return c, p, out


def test_the_docs_worked_example() -> None:
    players = doc_table("players")
    assert [r[0] for r in players] == ["Anne", "Ben", "Chloé", "expert"]
    keys = {"Anne": "anne", "Ben": "ben", "Chloé": "chloe", "expert": "s3"}
    ratings: dict[str | tuple[str, str], Rating] = {
        keys[r[0]]: Rating(float(r[2]), float(r[3]), int(r[4])) for r in players[:3]}
    # Ben is a newcomer: his 8.333 is 25/3 rounded, so he is left out (a newcomer's rating)
    assert ratings.pop("ben") == Rating(round(MU, 3), round(SIGMA, 3), 0)
    [pair_row, stand_in] = doc_table("partnerships")
    ratings[("anne", "ben")] = Rating(float(pair_row[2]), float(pair_row[3]), int(pair_row[4]))

    up = rate_game(MV, [["anne", "ben"], ["chloe", "s3"]], ranks=[0, 1], ratings=ratings,
                   computers={"s3": "expert"})
    after: dict[str, Rating] = {**up.accounts, "s3": COMPUTER_RATINGS["expert"]}
    for row in players:
        key = keys[row[0]]
        before = COMPUTER_RATINGS["expert"] if key == "s3" else ratings.get(key, new_rating())
        assert (row[1] == "won") == (key in ("anne", "ben"))
        assert (round(after[key].mu, 3), round(after[key].sigma, 3)) == (
            float(row[5]), float(row[6])), row[0]
        if key != "s3":
            assert shown(row[7]) == (before.display, before.provisional), row[0]
            assert shown(row[8]) == (after[key].display, after[key].provisional), row[0]
        else:  # a computer player's fixed rating
            assert int(row[7]) == int(row[8]) == before.display
    pair = up.partnerships[("anne", "ben")]
    assert (round(pair.mu, 3), round(pair.sigma, 3), pair.games) == (
        float(pair_row[5]), float(pair_row[6]), 6)
    assert shown(pair_row[7]) == (ratings[("anne", "ben")].display, True)
    assert shown(pair_row[8]) == (pair.display, pair.provisional)

    # the doc's formulas, computed here, give the same numbers and the doc's c and p
    text = DOC.read_text(encoding="utf-8")
    e = COMPUTER_RATINGS["expert"]
    c, p, out = two_sides([(ratings["anne"].mu, ratings["anne"].sigma), (MU, SIGMA)],
                          [(ratings["chloe"].mu, ratings["chloe"].sigma), (e.mu, e.sigma)])
    assert f"c = {c:.3f}" in text and f"p = {p:.3f}" in text
    for key, (mu, sigma) in zip(["anne", "ben", "chloe"], out, strict=False):
        assert close(up.accounts[key], mu, sigma)
    assert (float(stand_in[2]), float(stand_in[3])) == (28.0, round(math.sqrt(6.5), 3))
    c, p, out = two_sides([(26.0, 6.0)], [(28.0, math.sqrt(6.5))])
    assert f"c = {c:.3f} and p = {p:.3f}" in text
    assert close(pair, *out[0])
    # the computer players' chances the doc gives: an expert pair against a basic pair
    b = COMPUTER_RATINGS["basic"]
    _, p, _ = two_sides([(e.mu, e.sigma)] * 2, [(b.mu, b.sigma)] * 2)
    assert f"p = {p:.2f} against a pair of `basic`" in text


# ----- bad input ------------------------------------------------------------------------


BAD = [
    ({"family": "whist"}, "family must be one of"),
    ({"family": 45}, "family must be one of"),
    ({"sides": [["ann"]]}, "sides must be a list of 2 to 10 sides"),
    ({"sides": "ab"}, "sides must be a list of 2 to 10 sides"),
    ({"sides": [["ann"], []]}, "each side must be a list of 1 to 5 participants"),
    ({"sides": [["ann"], "bob"]}, "each side must be a list of 1 to 5 participants"),
    ({"sides": [["ann"], ["ann"]]}, "appears more than once"),
    ({"sides": [["ann"], [None]]}, "a participant must be an account id"),
    ({"sides": [["ann"], [7]]}, "a participant must be an account id"),
    ({"sides": [["ann"], [""]]}, "a participant must be an account id"),
    ({"sides": [["ann"], ["\ud800" * 201]]}, "a participant must be an account id"),
    ({"sides": [["ann"], ["x" * 201]]}, "a participant must be an account id"),
    ({"sides": [["ann"], ["bob\ud800"]]}, "a participant must be an account id"),
    ({"sides": [["ann"], ["bob\n"]]}, "a participant must be an account id"),
    ({"ranks": None}, "give either ranks"),
    ({"scores": [1, 2]}, "give either ranks"),
    ({"ranks": [0]}, "ranks or scores must be 2 finite numbers"),
    ({"ranks": [0, math.nan]}, "ranks or scores must be 2 finite numbers"),
    ({"ranks": [0, True]}, "ranks or scores must be 2 finite numbers"),
    ({"ranks": "01"}, "ranks or scores must be 2 finite numbers"),
    ({"ratings": {"ann": (25, 8)}}, "the rating of 'ann' must be a Rating"),
    ({"ratings": {("ann", "cy"): 3}}, "the rating of partnership"),
    ({"ratings": [1]}, "ratings must map"),
    ({"computers": {"bob": "grandmaster"}}, "computer level 'grandmaster' has no published"),
    ({"computers": ["bob"]}, "computers must map"),
    ({"sides": [["s1"], ["s2"]], "computers": {"s1": "basic", "s2": "basic"}},
     "a rated game needs at least one account"),
]


@pytest.mark.parametrize(("over", "words"), BAD)
def test_bad_input_is_one_line(over: dict[str, object], words: str) -> None:
    kw: dict[str, object] = {"family": MV, "sides": [["ann", "cy"], ["bob", "dee"]],
                             "ranks": [0, 1], "ratings": {}, "computers": {}}
    if "sides" in over and "ranks" not in over and "scores" not in over:
        kw["ranks"] = list(range(len(over["sides"]))) if isinstance(  # type: ignore[arg-type]
            over["sides"], list) else [0, 1]
    kw.update(over)
    family, sides = kw.pop("family"), kw.pop("sides")
    with pytest.raises(RatingError) as e:
        rate_game(family, sides, **kw)  # type: ignore[arg-type]
    assert isinstance(e.value, FortiesError) and isinstance(e.value, ValueError)
    assert words in str(e.value)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(("mu", "sigma", "games"), [
    (math.inf, 1.0, 0), (25.0, 0.0, 0), (25.0, -1.0, 0), ("25", 1.0, 0), (25.0, 1.0, -1),
    (25.0, 1.0, 1.5), (25.0, 1.0, True), (math.nan, 1.0, 0)])
def test_a_bad_rating_is_one_line(mu: object, sigma: object, games: object) -> None:
    with pytest.raises(RatingError) as e:
        Rating(mu, sigma, games)  # type: ignore[arg-type]
    assert "\n" not in str(e.value)


def test_bad_times_and_games_for_the_pairing_check() -> None:
    for at in (math.inf, "now", None):
        with pytest.raises(RatingError):
            rated_game(at, [["a"], ["b"]])  # type: ignore[arg-type]
    with pytest.raises(RatingError):
        pairing_check([], "game")  # type: ignore[arg-type]
    with pytest.raises(RatingError):
        why_not_rated(MV, [["a"]], **base())  # type: ignore[arg-type]
