"""Rules: the presets of rules.md section 3, overrides, house-rules files, every value of
every option, refusals that list what is allowed, and the record form round-tripping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from forties import PRESETS, RulesError, build_rules
from forties.rules import (
    OPTIONS,
    OptionSpec,
    Rules,
    Value,
    format_value,
    load_rules_file,
    option_specs,
    rules_from_json,
)

# ----- presets -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted({a for p in PRESETS.values() for a in (p.name,
                                                                             *p.aliases)}))
def test_every_preset_and_alias_builds(name: str) -> None:
    rules = build_rules(name)
    assert rules.preset in PRESETS
    assert name in (rules.preset, *PRESETS[rules.preset].aliases)
    assert rules.overrides == ()


# What rules.md section 3 says of each preset.
PRESET_VALUES: dict[str, dict[str, Value]] = {
    "merrimack-valley": {
        "players": 4, "teams": "pairs", "kitty": 3, "auction": "single", "min_bid": 15,
        "all_pass": "dealer-bagged", "keep_min": 1, "replenish": "all-at-once",
        "lead": "bidder", "follow": "trump-only", "renege": "top3", "bonus": "best-trump",
        "bidder_scores": "taken", "target": 120, "end": "bidder-goes-out",
        "robbing": False, "call_partner": False},
    "nova-scotia": {
        "auction": "none", "kitty": 0, "robbing": True, "lead": "left-of-dealer",
        "follow": "suit-or-trump", "renege": "top3", "bonus": "best-trump", "target": 45},
    "auction-45": {
        "players": 4, "teams": "pairs", "kitty": 3, "auction": "open", "min_bid": 20,
        "dealer_may_hold": True, "all_pass": "redeal", "winner_may_raise": True,
        "trump_needs_card": True, "keep_min": 0, "replenish": "by-threes",
        "lead": "left-of-bidder", "follow": "suit-or-trump", "renege": "top3",
        # seed 001: a bidder who makes it gains his bid; raising to 30 is worth 60
        "bidder_scores": "bid", "made_30_scores_60": True, "lock_at": 100, "target": 120},
    "call-your-partner": {"players": 5, "teams": "individual", "call_partner": True,
                          "auction": "open", "min_bid": 20, "lock_at": 100},
    "forty-one": {"target": 41, "min_total": 11, "double_from": 7, "partner_positive": True,
                  "tie": "lower-partner"},
}


@pytest.mark.parametrize("preset", sorted(PRESET_VALUES))
def test_presets_hold_what_rules_md_says(preset: str) -> None:
    options = build_rules(preset).options()
    for name, value in PRESET_VALUES[preset].items():
        assert options[name] == value, name


# ----- overrides ---------------------------------------------------------------------------


def test_build_rules_overrides_and_records_them() -> None:
    r = build_rules("merrimack-valley", {"lead": "left-of-bidder", "min-bid": "20",
                                         "made_30_scores_60": "true", "players": 6})
    opts = r.options()
    assert opts["lead"] == "left-of-bidder" and opts["min_bid"] == 20
    assert opts["made_30_scores_60"] is True and opts["players"] == 6
    # six players in Merrimack Valley play as partners opposite, keeping two (seed 002)
    assert opts["teams"] == "three-pairs" and opts["keep_min"] == 2
    assert dict(r.overrides) == {"lead": "left-of-bidder", "min_bid": 20,
                                 "made_30_scores_60": True, "players": 6}
    assert build_rules("merrimack-valley", {"min_bid_at_100": "null"}).options()[
        "min_bid_at_100"] is None


@pytest.mark.parametrize("preset, options, named", [
    ("merrimack-valley", {"teams": "pairs", "players": 5}, ("teams", "players")),
    ("merrimack-valley", {"bid_60_for_120": True}, ("bid_60_for_120", "bid_30_for_60")),
    ("merrimack-valley", {"go_on_top_card": True}, ("go_on_top_card", "go_on_kitty")),
    ("merrimack-valley", {"robbing": True}, ("robbing", "auction")),
    ("merrimack-valley", {"lock_at": 100, "target": 100}, ("lock_at", "target")),
    ("merrimack-valley", {"call_partner": True}, ("call_partner", "players")),
    ("nova-scotia", {"lead": "bidder"}, ("lead",)),
    ("nova-scotia", {"kitty": 3}, ("kitty",)),
    ("auction-45", {"kitty": 0, "go_on_kitty": True}, ("go_on_kitty", "kitty")),
    ("merrimack-valley", {"four_and_a_flip": True, "keep_min": 2},
     ("four_and_a_flip", "keep_min")),
])
def test_conflicts_are_refused_naming_the_options(
        preset: str, options: dict[str, Any], named: tuple[str, ...]) -> None:
    """A combination that cannot work is refused when the rules are built, naming it."""
    with pytest.raises(RulesError) as e:
        build_rules(preset, options)
    for name in named:
        assert name in str(e.value)


def test_unknown_option_and_preset_suggest_a_name() -> None:
    with pytest.raises(RulesError, match=r"unknown option 'min_bids'.*min_bid"):
        build_rules("merrimack-valley", {"min_bids": 20})
    with pytest.raises(RulesError, match=r"unknown preset.*merrimack-valley"):
        build_rules("merimack-valley")
    with pytest.raises(RulesError, match="unknown option 'kitty' for forty-one"):
        build_rules("forty-one", {"kitty": 3})


# ----- house-rules files -------------------------------------------------------------------


def test_house_rules_from_toml(tmp_path: Path) -> None:
    p = tmp_path / "house.toml"
    p.write_text('preset = "auction-45"\n\n[options]\nplayers = 3\nlead = "left-of-dealer"\n'
                 'renege = "five-only"\n', encoding="utf-8")
    r = load_rules_file(p)
    assert r.preset == "auction-45"
    opts = r.options()
    assert (opts["players"], opts["teams"], opts["lead"], opts["renege"]) == (
        3, "individual", "left-of-dealer", "five-only")


def test_house_rules_from_json(tmp_path: Path) -> None:
    p = tmp_path / "house.json"
    p.write_text(json.dumps({"preset": "forty-one", "options": {"target": 31,
                                                                "tie": "team-total"}}))
    r = load_rules_file(p)
    assert r.options()["target"] == 31 and r.options()["tie"] == "team-total"


@pytest.mark.parametrize("name, text, expected", [
    ("bad.toml", 'preset = "auction-45"\n[options\nplayers = 3\n', "TOML"),
    ("bad.json", '{"preset": "auction-45", "options": {', "JSON"),
    ("unknown.toml", 'preset = "auction-45"\n[options]\nplayrs = 3\n', "playrs"),
    ("value.toml", 'preset = "auction-45"\n[options]\nrenege = "jack"\n', "five-only"),
    ("nopreset.toml", '[options]\nplayers = 3\n', "preset"),
    ("conflict.json", '{"preset": "nova-scotia", "options": {"kitty": 4}}', "kitty"),
    ("extra.json", '{"preset": "nova-scotia", "house": 1}', "house"),
    ("list.json", '[1, 2]', "preset"),
])
def test_a_bad_house_rules_file_is_one_clear_line(tmp_path: Path, name: str, text: str,
                                                  expected: str) -> None:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as e:
        load_rules_file(p)
    message = str(e.value)
    assert "\n" not in message and str(p) in message and expected in message


def test_a_missing_house_rules_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="cannot read"):
        load_rules_file(tmp_path / "none.toml")


# ----- every value of every option ---------------------------------------------------------

# Values that rules.md makes depend on another option: the least that lets them work.
NEEDS: dict[tuple[str, Value], dict[str, Value]] = {
    ("teams", "three-pairs"): {"players": 6},
    ("teams", "two-threes"): {"players": 6},
    ("teams", "two-teams"): {"players": 8},
    ("teams", "three-threes"): {"players": 9},
    ("players", 10): {"kitty": 0},
    ("go_on_top_card", True): {"go_on_kitty": True},
    ("bid_60_for_120", True): {"bid_30_for_60": True},
}


def spec_values(spec: OptionSpec) -> tuple[Value, ...]:
    if spec.values is not None:
        return spec.values
    assert spec.int_range is not None
    lo, hi = spec.int_range
    return (lo, (lo + hi) // 2, hi)


def presets_of(game: str) -> list[str]:
    return [name for name, p in PRESETS.items() if p.game == game]


ALL_VALUES = [(spec, v) for spec in OPTIONS for v in spec_values(spec)]


def build_with(spec: OptionSpec, value: Value) -> Rules:
    """The rules of the first preset of the option's game where ``value`` works."""
    errors = []
    for preset in presets_of(spec.game):
        try:
            return build_rules(preset, {spec.name: value, **NEEDS.get((spec.name, value), {})})
        except RulesError as e:
            errors.append(str(e))
    raise AssertionError(f"{spec.name}={format_value(value)} works nowhere: {errors}")


@pytest.mark.parametrize("spec, value", ALL_VALUES,
                         ids=[f"{s.game}:{s.name}={format_value(v)}" for s, v in ALL_VALUES])
def test_every_value_of_every_option_works_somewhere(spec: OptionSpec, value: Value) -> None:
    """Each value is accepted (alone, or with what it needs) over some preset, and the
    rules built hold it; written as on a command line it means the same."""
    rules = build_with(spec, value)
    assert rules.options()[spec.name] == value
    again = build_rules(rules.preset, {spec.name: format_value(value),
                                       **NEEDS.get((spec.name, value), {})})
    assert again == rules


@pytest.mark.parametrize("spec", OPTIONS, ids=[f"{s.game}:{s.name}" for s in OPTIONS])
def test_bad_values_are_refused_listing_the_allowed(spec: OptionSpec) -> None:
    preset = presets_of(spec.game)[0]
    if spec.values is None:
        assert spec.int_range is not None
        lo, hi = spec.int_range
        for bad in (lo - 1, hi + 1, "many", True, 2.5):
            with pytest.raises(RulesError) as e:
                build_rules(preset, {spec.name: bad})
            assert spec.name in str(e.value) and f"{lo} to {hi}" in str(e.value)
        return
    for bad in ("bogus", 999, [1]):
        with pytest.raises(RulesError) as e:
            build_rules(preset, {spec.name: bad})
        message = str(e.value)
        assert spec.name in message and "\n" not in message
        for allowed in spec.values:
            assert format_value(allowed) in message


def test_every_option_has_a_documented_field() -> None:
    """OPTIONS and the rules classes agree: each option is a field of its game's rules."""
    for game, preset in (("forty-fives", "merrimack-valley"), ("forty-one", "forty-one")):
        assert set(option_specs(game)) == set(build_rules(preset).options())


# ----- the record form ---------------------------------------------------------------------


@pytest.mark.parametrize("spec, value", ALL_VALUES,
                         ids=[f"{s.game}:{s.name}={format_value(v)}" for s, v in ALL_VALUES])
def test_rules_json_round_trips(spec: OptionSpec, value: Value) -> None:
    """``Rules.to_json()`` through JSON text and ``rules_from_json`` gives the same rules."""
    rules = build_with(spec, value)
    text = json.dumps(rules.to_json())
    back = rules_from_json(json.loads(text))
    assert back == rules and back.options() == rules.options()
    assert back.to_json() == rules.to_json()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_preset_is_written_without_options(preset: str) -> None:
    assert build_rules(preset).to_json() == {"preset": preset}
    assert rules_from_json(preset) == build_rules(preset)


# ----- up to ten players -------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "options", "most"), [
    # Traditional 45 has no kitty and no draw: ten hands of five and the turned card, 51
    ("nova-scotia", {}, 10),
    # a kitty of three: nine hands (45 + 3 = 48), leaving 4 cards for the draw
    ("merrimack-valley", {}, 9),
    ("auction-45", {}, 9),
    # no kitty: ten hands and two cards for the draw
    ("merrimack-valley", {"kitty": 0}, 10),
    # a kitty of four: nine hands (49) and three for the draw
    ("merrimack-valley", {"kitty": 4}, 9),
])
def test_up_to_ten_players_where_the_deck_allows(preset: str, options: dict[str, Any],
                                                  most: int) -> None:
    """"Anywhere from 2 to 10 players": every count whose deal fits in 52 cards is
    accepted; one more is refused, naming the players, the kitty and the count."""
    for n in range(2, most + 1):
        rules = build_rules(preset, {**options, "players": n})
        assert rules.players == n
    if most < 10:
        with pytest.raises(RulesError) as e:
            build_rules(preset, {**options, "players": most + 1})
        msg = str(e.value)
        assert f"players={most + 1}" in msg and "52" in msg and "kitty" in msg
    with pytest.raises(RulesError, match="players"):
        build_rules(preset, {**options, "players": 11})


@pytest.mark.parametrize(("players", "teams", "sides"), [
    (8, "pairs", ((0, 4), (1, 5), (2, 6), (3, 7))),
    (10, "pairs", ((0, 5), (1, 6), (2, 7), (3, 8), (4, 9))),
    (8, "two-teams", ((0, 2, 4, 6), (1, 3, 5, 7))),
    (10, "two-teams", ((0, 2, 4, 6, 8), (1, 3, 5, 7, 9))),
    (9, "three-threes", ((0, 3, 6), (1, 4, 7), (2, 5, 8))),
    (7, "individual", tuple((s,) for s in range(7))),
    (4, "pairs", ((0, 2), (1, 3))),
    (6, "three-pairs", ((0, 3), (1, 4), (2, 5))),
    (6, "two-threes", ((0, 2, 4), (1, 3, 5))),
])
def test_team_layouts_for_every_count(players: int, teams: str,
                                      sides: tuple[tuple[int, ...], ...]) -> None:
    """Partners sit opposite, teams alternate round the table."""
    rules = build_rules("nova-scotia", {"players": players, "teams": teams})
    assert rules.sides == sides  # type: ignore[attr-defined]


@pytest.mark.parametrize(("players", "teams"), [
    (7, "pairs"), (9, "pairs"), (6, "pairs"), (6, "two-teams"), (5, "two-teams"),
    (8, "three-threes"), (6, "three-threes"), (8, "two-threes"), (10, "three-pairs"),
])
def test_team_layouts_that_cannot_seat_the_players_are_refused(players: int,
                                                               teams: str) -> None:
    with pytest.raises(RulesError) as e:
        build_rules("nova-scotia", {"players": players, "teams": teams})
    assert f"teams={teams}" in str(e.value) and f"not {players}" in str(e.value)


def test_eight_and_ten_default_to_partners_opposite() -> None:
    assert build_rules("merrimack-valley", {"players": 8}).teams == "pairs"  # type: ignore[attr-defined]
    assert build_rules("nova-scotia", {"players": 10}).teams == "pairs"  # type: ignore[attr-defined]
    assert build_rules("nova-scotia", {"players": 9}).teams == "individual"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("preset", "players"), [
    ("nova-scotia", 10), ("merrimack-valley", 9), ("auction-45", 8), ("nova-scotia", 7)])
def test_a_big_table_plays_whole_games(preset: str, players: int) -> None:
    """Seven to ten players play whole games with the basic players: every hand's
    tricks have one card from each seat, and (with an auction) each hand comes back to
    five cards a seat after the draw however the stock holds out."""
    import random

    from forties import new_game
    from forties.players import make_bot

    rules = build_rules(preset, {"players": players})
    rng = random.Random(players)
    bots = [make_bot("basic", rng) for _ in range(players)]
    g = new_game(rules, seed=players)
    hands = 0
    while not g.over and hands < 60:
        if g.hand_over:
            for t in g.tricks:
                assert len(t.cards) == players
            g.next_hand()
            hands += 1
            continue
        if g.phase.value == "play" and not g.tricks and not g.trick_cards:
            assert all(h.bit_count() == 5 for h in g.hands)
        s = g.turn
        assert s is not None
        g.apply(bots[s].choose(g.view(s), g.legal_actions()))
    assert hands > 0


def test_the_solver_refuses_more_seats_than_it_searches_and_the_expert_plays_on() -> None:
    """The double-dummy search keys its table on six hands: at eight it refuses by name,
    and the expert's judge finishes imagined hands by playouts instead."""
    from forties import new_game, solver
    from forties.bots.judge import SolverJudge

    g = new_game("nova-scotia", seed=4)
    g8 = new_game(build_rules("nova-scotia", {"players": 8}), seed=4)
    while g8.phase.value != "play":
        g8.apply(g8.legal_actions()[0])
    with pytest.raises(ValueError, match="up to 6 players, not 8"):
        solver.best_moves(g8)
    outcomes = SolverJudge().play_outcomes(g8)
    assert set(outcomes) == set(g8.legal_actions())
    assert all(sum(v) in (25, 30) for v in outcomes.values())
    del g


def test_the_terminal_table_refuses_more_than_six_players_in_one_line() -> None:
    from .helpers_engine import run_forties

    p = run_forties("play", "-p", "nova-scotia", "-o", "players=8", "--plain")
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
    assert "up to 6 players, not players=8" in p.stderr


def test_demo_plays_ten() -> None:
    """forties demo names all ten players (it ran out of names after six)."""
    from .helpers_engine import run_forties

    p = run_forties("demo", "-p", "nova-scotia", "-o", "players=10", "--seed", "1")
    assert p.returncode == 0 and p.stderr == ""
    assert "Jo" in p.stdout and "win" in p.stdout
