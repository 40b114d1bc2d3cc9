"""Players' statistics (``forties.stats``): each game's counts checked against what this
test works out itself from the game's verdict (``forties check``'s JSON: each hand's
bidder, bid, points and scores after it, or the golden verdicts stored beside the golden
records, written by hand), walking its hands one by one; for games of every family played
to the end by computer players (with some random moves, so that bids get set) and given
their real pars, and for the golden records; a small hand worked out by hand; merging
(hypothesis); and the refusals of what is not a game."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties import Phase, Record, Recorder, build_rules, new_game, referee
from forties.advice import par_json
from forties.cards import CARD_NAMES
from forties.errors import FortiesError
from forties.stats import (
    BidCount,
    GameStats,
    StatsError,
    Tally,
    game_stats,
    merge,
    merge_all,
    partners,
)
from forties.table import computer_choice

from .helpers_engine import GOLDEN_DIR, mv_record_json

# ----- the test's own reading of a verdict --------------------------------------------------

COUNTS = ("games", "finished", "won", "hands", "hands_won", "points", "took", "par_hands",
          "par_equal", "par_better", "par_worse")
TARGETS = {"nova-scotia": 45, "forty-one": 41}  # (the others' is 120)


def blank() -> dict[str, Any]:
    return {**dict.fromkeys(COUNTS, 0), "bids": {}}


def bid_count(t: dict[str, Any], bid: str, made: bool) -> None:
    c = t["bids"].setdefault(bid, {"made": 0, "set": 0})
    c["made" if made else "set"] += 1


def sort_bids(t: dict[str, Any]) -> dict[str, Any]:
    return {**t, "bids": dict(sorted(t["bids"].items()))}


def expected(record: dict[str, Any], verdict: dict[str, Any],
             pars: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The statistics of ``record`` as the stats module's docstring defines them, worked
    out from ``verdict`` alone (not from the engine): {"seats": [...], "sides": {...}}."""
    pars = pars or {}
    forty_one = record["game"] == "forty-one"
    rules = record["rules"]
    preset, options = (rules, {}) if isinstance(rules, str) else (
        rules["preset"], rules.get("options") or {})
    match = options.get("match") == "best-of-3"
    target = options.get("target", TARGETS.get(preset, 120))
    n = len(record["players"])
    sides = [tuple(s) for s in verdict["sides"]]  # the scoring sides
    side_of = {s: x for x, side in enumerate(sides) for s in side}
    teams = [(0, 2), (1, 3)] if forty_one else sides
    seats = [blank() for _ in range(n)]
    units = {t: blank() for t in teams}
    pairs: dict[tuple[int, ...], dict[str, Any]] = {}
    hands = verdict["hands"]
    size = 13 if forty_one else 5
    before = [0] * len(sides)
    in_game: set[tuple[int, ...]] = set()

    def begin() -> None:
        for t in [*seats, *units.values()]:
            t["games"] += 1
        in_game.clear()

    def end(winners: set[int]) -> None:
        for s, t in enumerate(seats):
            t["finished"] += 1
            t["won"] += s in winners
        for team, t in units.items():
            t["finished"] += 1
            t["won"] += set(team) <= winners
        for pair in in_game:
            pairs[pair]["finished"] += 1
            pairs[pair]["won"] += set(pair) == winners

    if hands:
        begin()
    for h, hand in enumerate(hands):
        last = h == len(hands) - 1
        if last and verdict["to_act"] is not None and not verdict["over"]:
            break  # a hand in progress
        scores = hand["scores"]
        delta = [a - b for a, b in zip(scores, before, strict=True)]
        tricks = hand["tricks"]
        played_out = len(tricks) == size
        pts = hand["points"]
        par = pars.get(h) if played_out else None
        thrown = not tricks and (forty_one or hand["bidder"] is None)
        if not thrown and forty_one:
            bids = hand["bids"]
            gains = {team: sum(delta[s] for s in team) for team in teams}
            for s in range(4):
                team = (0, 2) if s in (0, 2) else (1, 3)
                t = seats[s]
                t["hands"] += 1
                t["points"] += delta[s]
                t["took"] += pts[s]
                t["hands_won"] += pts[s] >= bids[s]
                bid_count(t, str(bids[s]), pts[s] >= bids[s])
            for team in teams:
                t = units[team]
                other = gains[(1, 3) if team == (0, 2) else (0, 2)]
                t["hands"] += 1
                t["points"] += gains[team]
                t["took"] += sum(pts[s] for s in team)
                t["hands_won"] += gains[team] > other
                for s in team:
                    bid_count(t, str(bids[s]), pts[s] >= bids[s])
            if par is not None and par.get("exact", True):
                for team in teams:
                    figure = next(p["tricks"] for p in par["teams"] if tuple(p["seats"]) == team)
                    diff = sum(pts[s] for s in team) - figure
                    for t in [units[team], *(seats[s] for s in team)]:
                        t["par_hands"] += 1
                        t[{1: "par_better", 0: "par_equal", -1: "par_worse"}[
                            (diff > 0) - (diff < 0)]] += 1
        elif not thrown:
            bidder = hand["bidder"]
            partner = hand.get("partner")
            bsides = set()
            made = False
            if bidder is not None:
                bsides = {side_of[bidder]} | ({side_of[partner]} if partner is not None else set())
                need = 30 if hand["bid"] in ("30for60", "60for120") else int(hand["bid"])
                made = played_out and sum(pts[x] for x in bsides) >= need
                won = bsides if made else set(range(len(sides))) - bsides
            else:
                top = max(pts)
                won = {x for x, p in enumerate(pts) if p == top}
                won = won if len(won) == 1 else set()
            par_sides: set[int] = set()
            diff = 0
            if par is not None:
                par_sides = bsides or {side_of[par["side"][0]]}
                diff = sum(pts[x] for x in par_sides) - par["points"]

            f = {"delta": delta, "side_of": side_of, "bidder": bidder, "pts": pts,
                 "won": won, "bid": hand["bid"], "made": made, "par": par, "diff": diff,
                 "par_sides": par_sides}
            for s in range(n):
                ff_count(seats[s], {side_of[s]}, (s,), f)
            for team in teams:
                ff_count(units[team], {side_of[s] for s in team}, team, f)
            if partner is not None and partner != bidder:
                pair = tuple(sorted((bidder, partner)))
                if pair not in pairs:
                    pairs[pair] = blank()
                if pair not in in_game:
                    in_game.add(pair)
                    pairs[pair]["games"] += 1
                ff_count(pairs[pair], bsides, pair, f)
        before = list(scores)
        if last and verdict["over"]:
            w = verdict["winner"]
            end(set(w) if isinstance(w, list) else set(sides[w]))
        elif match and max(scores) >= target:  # a game of the match won, another due
            end(set(sides[scores.index(max(scores))]))
            before = [0] * len(sides)
            if not last:
                begin()
    return {"seats": [sort_bids(t) for t in seats],
            "sides": {k: sort_bids(v) for k, v in {**units, **pairs}.items()}}


def ff_count(t: dict[str, Any], xs: set[int], who: tuple[int, ...], f: dict[str, Any]) -> None:
    """One Forty-Fives hand added to ``t``, the count of the seats ``who`` (scoring sides
    ``xs``), from the hand's facts ``f``."""
    t["hands"] += 1
    mine = f["bidder"] in who
    t["points"] += f["delta"][f["side_of"][f["bidder"]] if mine else min(xs)]
    t["took"] += sum(f["pts"][x] for x in xs)
    t["hands_won"] += bool(xs & f["won"])
    if mine:
        bid_count(t, f["bid"], f["made"])
    if f["par"] is not None:
        d = f["diff"] if xs & f["par_sides"] else -f["diff"]
        t["par_hands"] += 1
        t[{1: "par_better", 0: "par_equal", -1: "par_worse"}[(d > 0) - (d < 0)]] += 1


def as_json(gs: GameStats) -> dict[str, Any]:
    got = gs.to_json()
    return {"seats": [sort_bids(t) for t in got["seats"]],
            "sides": {tuple(e["seats"]): sort_bids(e["stats"]) for e in got["sides"]}}


# ----- games played to the end ----------------------------------------------------------------


def played(preset: str, options: dict[str, Any], seed: int,
           pars: int = 0) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """``play``'s game, worked out once for the whole module (a fresh copy each time)."""
    record, got = _played(preset, json.dumps(options, sort_keys=True), seed, pars)
    return json.loads(record), {int(k): v for k, v in json.loads(got).items()}


@functools.cache
def _played(preset: str, options: str, seed: int, pars: int) -> tuple[str, str]:
    record, got = play(preset, json.loads(options), seed, pars=pars)
    return json.dumps(record), json.dumps(got)


def play(preset: str, options: dict[str, Any], seed: int, noise: float = 0.3,
         pars: int = 0) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """A whole game of basic computer players who now and then play a random legal card
    instead of theirs (so that some bids are set and some hands miss their par), its
    record as the server serves it, and the par of each of its first ``pars`` played
    hands as the server works them out."""
    rec = Recorder(new_game(build_rules(preset, options), seed=seed))
    rng = random.Random(seed)
    got: dict[int, dict[str, Any]] = {}
    while not rec.state.over:
        g = rec.state
        if g.hand_over:
            rec.next_hand()
            continue
        legal = list(g.legal_actions())
        seat = g.turn
        assert seat is not None
        a = rng.choice(legal) if g.phase is Phase.PLAY and rng.random() < noise else \
            computer_choice(
            "basic", f"{seed}:{len(g.history)}:{g.hand_index}", g.view(seat), legal)
        rec.apply(a)
        if g.hand_over and g.tricks and len(got) < pars:
            value = par_json(g)
            assert value is not None
            got[g.hand_index] = value
        assert g.hand_index < 200, "the game should have ended"
    out = rec.record.to_json()
    out.pop("seed", None)
    return out, got


FAMILIES = [
    ("merrimack-valley", {}),
    ("nova-scotia", {}),
    ("auction-45", {"players": 3, "teams": "individual"}),  # cut-throat
    ("call-your-partner", {}),
    ("forty-one", {"target": 21}),
]


@pytest.mark.parametrize(("preset", "options"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_a_whole_game_of_each_family_counted_as_its_verdict_says(
        preset: str, options: dict[str, Any]) -> None:
    record, pars = played(preset, options, seed=3, pars=2 if preset == "forty-one" else 4)
    verdict, status = referee(Record.from_json(record))
    assert status == 0 and verdict["over"]
    gs = game_stats(record, pars)
    assert as_json(gs) == expected(record, verdict, pars)
    # the game counted once, won by the winners, every hand played or thrown in
    assert all(t.games == t.finished == 1 for t in gs.seats)
    w = verdict["winner"]
    winners = set(w) if isinstance(w, list) else set(verdict["sides"][w])
    assert {s for s, t in enumerate(gs.seats) if t.won} == winners
    assert max(t.hands for t in gs.seats) >= 2
    assert sum(t.par_hands for t in gs.seats) > 0
    assert gs.family == preset


def test_the_games_bids_include_sets_and_the_pars_differ_from_what_was_played() -> None:
    """The whole games above are not all made bids and pars equalled: what they check is
    not trivial (a guard on the games chosen, not on the module)."""
    stats = [game_stats(*played(p, o, seed=3, pars=2 if p == "forty-one" else 4))
             for p, o in FAMILIES]
    sets = sum(c.set for gs in stats for t in gs.seats for c in t.bids.values())
    assert sets > 0
    assert sum(t.par_worse + t.par_better for gs in stats for t in gs.seats) > 0
    assert sum(t.par_equal for gs in stats for t in gs.seats) > 0


# ----- the golden records ------------------------------------------------------------------


def golden() -> list[Path]:
    return sorted(GOLDEN_DIR.glob("*/*.record.json"))


def verdict_of(path: Path) -> dict[str, Any]:
    name = path.name.removesuffix(".record.json")
    for suffix in (".expected.json", ".verdict.json"):
        v = path.with_name(name + suffix)
        if v.exists():
            out: dict[str, Any] = json.loads(v.read_text())
            return out
    raise AssertionError(f"no verdict beside {path}")


@pytest.mark.parametrize("path", golden(), ids=lambda p: f"{p.parent.name}/{p.name[:-12]}")
def test_each_golden_record_counted_as_its_stored_verdict_says(path: Path) -> None:
    record = json.loads(path.read_text())
    verdict = verdict_of(path)
    if not verdict["ok"]:  # an illegal action: no statistics, one line saying where
        with pytest.raises(StatsError) as e:
            game_stats(record)
        assert "\n" not in str(e.value) and f"hand {verdict['error']['hand'] + 1}" in str(e.value)
        return
    assert as_json(game_stats(record)) == expected(record, verdict)


def test_the_golden_records_cover_what_the_counts_must_handle() -> None:
    """Sets, 30 for 60 and 60 for 120 bids, Forty One's doubled bids, Call Your Partner's
    partners going out together, a match, a tie that plays on (a guard on the corpus)."""
    seen: dict[str, int] = {}
    for path in golden():
        record = json.loads(path.read_text())
        if not verdict_of(path)["ok"]:
            continue
        gs = game_stats(record)
        for t in gs.seats:
            for k, c in t.bids.items():
                seen[f"{k} set"] = seen.get(f"{k} set", 0) + c.set
                seen[f"{k} made"] = seen.get(f"{k} made", 0) + c.made
        seen["pair won"] = seen.get("pair won", 0) + sum(
            t.won for t in gs.partnerships.values() if record["rules"] != "forty-one"
            and "call-your-partner" in json.dumps(record["rules"]))
        seen["match"] = seen.get("match", 0) + (max(t.games for t in gs.seats) > 1)
        seen["tie"] = seen.get("tie", 0) + ("tie_plays_on" in path.name)
    for key in ("20 set", "30for60 made", "30for60 set", "60for120 made", "60for120 set",
                "7 made", "7 set", "pair won", "match", "tie"):
        assert seen.get(key, 0) > 0, key


# ----- a hand worked out by hand -------------------------------------------------------------


def test_a_hand_counted_by_hand() -> None:
    """The Merrimack Valley hand of helpers_engine (dealer 3): seat 0 bids 20 and names
    spades; the tricks go to seats 0, 1 (with 5S, the bonus), 0, 2, 1. Seats 0 and 2
    take 15, seats 1 and 3 take 15: the 20 is set, 0 and 2 go down 20 (scores -20, 15)."""
    record = mv_record_json()
    by_hand = {"side": [0, 2], "points": 20, "text": "..."}
    gs = game_stats(record, {"0": by_hand})
    bidders = {"games": 1, "finished": 0, "won": 0, "hands": 1, "hands_won": 0,
               "points": -20, "took": 15, "par_hands": 1, "par_equal": 0, "par_better": 0,
               "par_worse": 1, "bids": {"20": {"made": 0, "set": 1}}}
    others = {**bidders, "hands_won": 1, "points": 15, "par_worse": 0, "par_better": 1,
              "bids": {}}
    assert gs.sides[(0, 2)].to_json() == bidders
    assert gs.sides[(1, 3)].to_json() == others
    assert gs.seats[0].to_json() == bidders
    assert gs.seats[2].to_json() == {**bidders, "bids": {}}  # his partner's bid, not his
    assert gs.seats[1].to_json() == gs.seats[3].to_json() == others
    assert gs.seats[0].mean_points == -20 and Tally().mean_points is None
    # told the par was 15, the hand was played to it, for both sides
    at_par = game_stats(record, {0: {**by_hand, "points": 15}})
    assert all(t.par_equal == t.par_hands == 1 for t in at_par.seats)
    # stopped after three tricks: the game begun, the hand in progress counted nowhere
    stopped = game_stats(mv_record_json(tricks=3))
    assert stopped.seats[0].to_json() == {**blank(), "games": 1}
    assert partners(record) == [(0, 2), (1, 3)]
    seats, pairs = gs.contributions()
    assert seats == dict(enumerate(gs.seats)) and set(pairs) == {(0, 2), (1, 3)}


def test_partners_of_each_family() -> None:
    assert partners({**mv_record_json(), "rules": "call-your-partner",
                     "players": list("abcde")}) == [(0,), (1,), (2,), (3,), (4,)]
    assert partners({**mv_record_json(), "game": "forty-one", "rules": "forty-one"}) == \
        [(0, 2), (1, 3)]
    assert partners({**mv_record_json(), "rules": {"preset": "merrimack-valley", "options": {
        "players": 6, "teams": "two-threes"}}, "players": list("abcdef")}) == \
        [(0, 2, 4), (1, 3, 5)]


def test_a_best_of_three_match_counts_each_game() -> None:
    record, _ = played("nova-scotia", {"players": 3, "teams": "individual",
                                       "match": "best-of-3", "target": 20}, seed=8)
    verdict, _ = referee(Record.from_json(record))
    gs = game_stats(record)
    assert as_json(gs) == expected(record, verdict)
    games = verdict["games"]
    assert [t.won for t in gs.seats] == games
    assert all(t.games == t.finished == sum(games) for t in gs.seats)


# ----- merging ---------------------------------------------------------------------------------

small = st.integers(min_value=0, max_value=10**6)
tallies = st.builds(
    lambda counts, points, took, bids: Tally(**counts, points=points, took=took, bids=bids),
    st.fixed_dictionaries({k: small for k in COUNTS if k not in ("points", "took")}),
    st.integers(min_value=-10**6, max_value=10**6), small,
    st.dictionaries(st.sampled_from(["5", "15", "20", "25", "30", "30for60", "60for120", "7",
                                     "13"]),
                                    st.builds(BidCount, small, small)))


@given(tallies, tallies, tallies)
@settings(max_examples=100, deadline=None)
def test_merging_is_associative_and_commutative_and_keeps_every_count(
        a: Tally, b: Tally, c: Tally) -> None:
    before = [t.to_json() for t in (a, b, c)]
    left, right = merge(merge(a, b), c), merge(a, merge(b, c))
    assert left.to_json() == right.to_json() == merge(c, merge(b, a)).to_json()
    assert merge_all([a, b, c]).to_json() == left.to_json()
    assert merge(a, Tally()).to_json() == a.to_json()
    assert [t.to_json() for t in (a, b, c)] == before  # (merge changes neither)
    for k in COUNTS:
        assert getattr(left, k) == getattr(a, k) + getattr(b, k) + getattr(c, k)
    for key in {*a.bids, *b.bids, *c.bids}:
        assert left.bids[key].made == sum(t.bids[key].made for t in (a, b, c) if key in t.bids)
    assert Tally.from_json(json.loads(json.dumps(left.to_json()))).to_json() == left.to_json()


def test_running_totals_of_two_games_are_their_sum() -> None:
    one, _ = played("merrimack-valley", {}, seed=5)
    two, _ = played("merrimack-valley", {}, seed=6)
    a, b = game_stats(one).seats[0], game_stats(two).seats[0]
    total = Tally()
    total.add(a)
    total.add(b)
    assert total.games == 2 and total.hands == a.hands + b.hands
    assert total.points == a.points + b.points
    assert total.to_json() == merge(a, b).to_json()


# ----- what is not a game ----------------------------------------------------------------------


def one_line_refusal(record: Any, pars: Any = None) -> str:
    with pytest.raises(StatsError) as e:
        game_stats(record, pars)
    text = str(e.value)
    assert isinstance(e.value, FortiesError) and text and "\n" not in text
    return text


def test_what_is_not_a_game_is_refused_in_one_line() -> None:
    good = mv_record_json()
    assert "not JSON" in one_line_refusal("{not json")
    assert "missing key 'hands'" in one_line_refusal({k: v for k, v in good.items()
                                                       if k != "hands"})
    assert "a record must be a JSON object" in one_line_refusal([good])
    assert "players" in one_line_refusal({**good, "players": ["\ud800", "b", "c", "d"]})
    bad = json.loads(json.dumps(good))
    bad["hands"][0]["actions"][1] = "1 bid 5"  # under the minimum of 15
    assert "hand 1, action 2" in one_line_refusal(bad)
    bad["hands"][0]["actions"][1] = "1 sing"
    assert "hand 1, action 2" in one_line_refusal(bad)
    bad = json.loads(json.dumps(good))
    bad["hands"][0]["deal"]["kitty"] = ["JS", "4S", "KD"]  # cards dealt twice
    assert "hand 1" in one_line_refusal(bad)
    bad = json.loads(json.dumps(good))
    bad["hands"][0]["actions"] = bad["hands"][0]["actions"][:3]  # stopped mid-auction,
    bad["hands"].append(json.loads(json.dumps(good))["hands"][0])  # and a hand after it
    assert "hand 2 starts before hand 1 is finished" in one_line_refusal(bad)


def test_a_bad_par_is_refused_in_one_line() -> None:
    good = mv_record_json()
    par = {"side": [0, 2], "points": 20, "text": ""}
    assert "hand" in one_line_refusal(good, {"x": par})
    assert "no hand 3" in one_line_refusal(good, {"3": par})
    assert "JSON object" in one_line_refusal(good, [par])
    assert "not for the bidders" in one_line_refusal(good, {"0": {**par, "side": [1, 3]}})
    assert "not for the bidders" in one_line_refusal(good, {"0": {**par, "side": [0, 1]}})
    assert "not for the bidders" in one_line_refusal(good, {"0": {**par, "side": [0]}})
    assert "points" in one_line_refusal(good, {"0": {**par, "points": -5}})
    assert "points" in one_line_refusal(good, {"0": {**par, "points": "20"}})
    assert "seats" in one_line_refusal(good, {"0": {**par, "side": [0, 9]}})
    assert "JSON object" in one_line_refusal(good, {"0": "20"})
    assert "JSON object" in one_line_refusal(good, {"0": None})
    assert "hand 0: that hand was not finished" in one_line_refusal(mv_record_json(tricks=3),
                                                                      {"0": par})
    thrown = json.loads((GOLDEN_DIR / "ff_deal_auction/all_pass_redeal_thrown_in.record.json")
                        .read_text())
    assert "hand 0: that hand was thrown in" in one_line_refusal(thrown, {"0": par})


def test_a_bad_tally_is_refused_in_one_line() -> None:
    for bad, words in [([], "JSON object"), ({"games": -1}, "games"),
                       ({"games": 1.5}, "games"), ({"games": True}, "games"),
                       ({"nope": 1}, "unknown key"), ({"bids": {"x": {"made": 1, "set": 0}}},
                                                      "not a bid"),
                       ({"bids": {"20": {"made": -1, "set": 0}}}, "made and set"),
                       ({"bids": []}, "bids")]:
        with pytest.raises(StatsError) as e:
            Tally.from_json(bad)
        assert words in str(e.value) and "\n" not in str(e.value)
    assert Tally.from_json({"points": -40}).points == -40


def test_a_folded_bid_is_set_and_its_hand_played_without_a_par() -> None:
    """"Booked?": seat 0 bids 20 in hearts, asks seat 1 (who holds only hearts), is told
    yes and folds: seats 0 and 2 go down 20, nobody else scores (worked out by hand)."""
    hands = ["JS 4S KD 9C 3D", "2H 3H 4H 6H 7H", "AH 4D 5C 8S TD", "9S 8D TC 8H JD"]
    kitty = "2C 3C 4C"
    used = set(" ".join([*hands, kitty]).split())
    record = {**mv_record_json(), "rules": {"preset": "merrimack-valley",
                                           "options": {"booked": True}},
              "hands": [{"deal": {"hands": [h.split() for h in hands], "kitty": kitty.split(),
                                  "stock": [c for c in CARD_NAMES if c not in used]},  # (all
                         # the other cards, in index order)
                         "actions": ["0 bid 20", "1 pass", "2 pass", "3 pass", "0 trump H",
                                     "0 discard 2C 3C 4C", "1 discard", "2 discard",
                                     "3 discard", "0 ask 1", "1 answer yes", "0 fold"]}]}
    gs = game_stats(record, {0: {"side": [0, 2], "points": 30, "text": ""}})
    bidders = {**blank(), "games": 1, "hands": 1, "points": -20,
               "bids": {"20": {"made": 0, "set": 1}}}
    assert gs.sides[(0, 2)].to_json() == gs.seats[0].to_json() == bidders
    assert gs.sides[(1, 3)].to_json() == {**blank(), "games": 1, "hands": 1, "hands_won": 1}


@pytest.mark.parametrize(("options", "seed"), [({}, 1), ({"players": 3, "teams": "individual"}, 2)])
def test_a_tied_hand_without_a_bid_is_won_by_nobody(options: dict[str, Any], seed: int) -> None:
    """Traditional 45 (trump turned up): two sides level at the top of a hand's points
    have not won it (these games' first hand is such a one)."""
    record, pars = played("nova-scotia", options, seed, pars=2)
    verdict, _ = referee(Record.from_json(record))
    first = sorted(verdict["hands"][0]["points"])
    assert len(verdict["hands"][0]["tricks"]) == 5 and first[-1] == first[-2]
    gs = game_stats(record, pars)
    assert as_json(gs) == expected(record, verdict, pars)
    one_hand = game_stats({**record, "hands": record["hands"][:1]})
    assert [t.hands_won for t in one_hand.seats] == [0] * len(gs.seats)
    assert all(t.hands == 1 for t in one_hand.seats)


def test_forty_one_pars_estimated_are_left_out_and_bad_ones_refused() -> None:
    record, pars = played("forty-one", {"target": 21}, seed=3, pars=2)
    hand, par = min(pars.items())
    pars = {hand: par}
    assert par["exact"] is True
    counted = game_stats(record, pars)
    assert all(t.par_hands == 1 for t in counted.seats)
    estimated = game_stats(record, {hand: {**par, "exact": False}})
    assert all(t.par_hands == 0 for t in [*estimated.seats, *estimated.sides.values()])
    teams = par["teams"]
    one_more = [{**teams[0], "tricks": teams[0]["tricks"] + 1}, teams[1]]
    assert "come to 13" in one_line_refusal(record, {hand: {**par, "teams": one_more}})
    crossed = [{**teams[0], "seats": [0, 1]}, {**teams[1], "seats": [2, 3]}]
    assert "two partnerships" in one_line_refusal(record, {hand: {**par, "teams": crossed}})
    assert "teams" in one_line_refusal(record, {hand: {**par, "teams": teams[:1]}})
    assert "exact" in one_line_refusal(record, {hand: {**par, "exact": "yes"}})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=True)
    | st.text(max_size=6) | st.sampled_from(["\ud800", "20", "0 bid 20", "JS", "forty-one"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=12)


def places(v: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and indexes), itself included."""
    out = [path]
    if isinstance(v, dict):
        for k, x in v.items():
            out += places(x, (*path, k))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += places(x, (*path, i))
    return out


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_any_part_of_a_record_or_par_replaced_is_counted_or_refused_in_one_line(
        data: st.DataObject) -> None:
    """Whatever one place of a record (or of its par) is replaced by, the answer is
    statistics or a one-line StatsError, never another error."""
    record = mv_record_json()
    pars: dict[str, Any] = {"0": {"side": [0, 2], "points": 20, "text": ""}}
    whole = {"record": record, "pars": pars}
    path = data.draw(st.sampled_from(places(whole)[1:]))
    value = data.draw(json_values)
    here: Any = whole
    for k in path[:-1]:
        here = here[k]
    here[path[-1]] = value
    try:
        game_stats(whole["record"], whole["pars"])
    except StatsError as e:
        assert str(e) and "\n" not in str(e)
