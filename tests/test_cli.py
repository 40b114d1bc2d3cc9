"""The ``forties`` command as a user runs it: a subprocess of .venv/bin/forties.

The fixed Merrimack Valley hand (tests/helpers_engine.py, reasoned in test_state.py) is
the record most cases start from: dealer Di (seat 3), Ann (seat 0) bids 20 and names
spades; Ann & Cy take 15 and are set (-20), Bob & Di take 15."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import click
import pytest

import forties
from forties.cli import main as cli_main

from .hall_helpers import hall_of, play_game
from .helpers_engine import (
    FORTIES,
    MV_OPENING,
    mv_record_json,
    run_forties,
    run_many,
    same_as_installed,
)


def write(tmp_path: Path, obj: Any, name: str = "game.json") -> Path:
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj), encoding="utf-8")
    return p


def check(tmp_path: Path, obj: Any) -> tuple[int, dict[str, Any]]:
    res = run_forties("check", str(write(tmp_path, obj)))
    assert res.stderr == "" and "Traceback" not in res.stdout
    return res.returncode, json.loads(res.stdout)


# ----- records that are not games at all: exit 2, one line ---------------------------------


def _edit(path: tuple[Any, ...], value: Any) -> Any:
    rec = mv_record_json()
    *head, last = path
    node: Any = rec
    for k in head:
        node = node[k]
    node[last] = value
    return rec


def _deal(seat: int, cards: list[str]) -> Any:
    return _edit(("hands", 0, "deal", "hands", seat), cards)


def _without(key: str) -> Any:
    rec = mv_record_json()
    del rec[key]
    return rec


def _actions(*actions: str) -> Any:
    return _edit(("hands", 0, "actions"), list(actions))


MALFORMED: dict[str, tuple[Any, tuple[str, ...]]] = {
    "bad JSON": ('{"format": "forties-record/1",\n "rules": ', ("not JSON", "line 2")),
    "not an object": ("[1, 2, 3]", ("JSON object",)),
    "wrong format": (_edit(("format",), "pbn"), ("format", "pbn")),
    "unknown preset": (_edit(("rules",), "merrimac-valley"),
                       ("unknown preset", "merrimac-valley")),
    "unknown option": (_edit(("rules",), {"preset": "merrimack-valley",
                                          "options": {"trumps": "S"}}),
                       ("unknown option", "trumps")),
    "bad option value": (_edit(("rules",), {"preset": "merrimack-valley",
                                            "options": {"lead": "dealer"}}),
                         ("lead", "dealer", "bidder, left-of-bidder, left-of-dealer")),
    "conflicting options": (_edit(("rules",), {"preset": "nova-scotia",
                                               "options": {"kitty": 3}}),
                            ("kitty", "auction")),
    "unknown card": (_deal(1, ["5S", "2D", "7C", "8H", "1X"]), ("hand 1", "1X")),
    "a card twice": (_deal(1, ["5S", "2D", "7C", "8H", "JS"]), ("hand 1", "JS", "twice")),
    "four cards in a hand": (_deal(2, ["AH", "4D", "5C", "6H"]), ("hand 1", "hand 2", "4")),
    "a short kitty": (_edit(("hands", 0, "deal", "kitty"), ["2C", "3C"]), ("kitty", "2")),
    # the stock is the unused cards in index order (helpers_engine): 6C comes first
    "a card missing": (_edit(("hands", 0, "deal", "stock"),
                             mv_record_json()["hands"][0]["deal"]["stock"][1:]),
                       ("hand 1", "missing", "6C")),
    "bad first_dealer": (_edit(("first_dealer",), 4), ("first_dealer", "4")),
    "first_dealer not a number": (_edit(("first_dealer",), "3"), ("first_dealer",)),
    "unknown key": (_edit(("scoresheet",), [1, 2]), ("unknown key", "scoresheet")),
    "unknown key in a hand": (_edit(("hands", 0, "comment"), "x"), ("hand 1", "comment")),
    "unknown key in a deal": (_edit(("hands", 0, "deal", "flop"), []), ("hand 1", "flop")),
    "missing rules": (_without("rules"), ("missing key 'rules'",)),
    # record.md: only seed, started, times, notes and event may be left out
    "missing players": (_without("players"), ("missing key 'players'",)),
    "missing first_dealer": (_without("first_dealer"), ("missing key 'first_dealer'",)),
    "missing hands": (_without("hands"), ("missing key 'hands'",)),
    "options not an object": (_edit(("rules",), {"preset": "merrimack-valley",
                                                 "options": ["kitty"]}),
                              (": rules: options must be an object",)),
    "three names for four seats": (_edit(("players",), ["Ann", "Bob", "Cy"]),
                                   ("players", "3")),
    "game and preset disagree": (_edit(("game",), "forty-one"), ("forty-one",)),
    "actions not strings": (_actions("0 bid 20", 1), ("hand 1", "actions")),
    "a bid not a number": (_actions("0 bid twenty"), ("hand 1, action 1", "twenty")),
    "an unknown verb": (_actions("0 bid 20", "1 fly"), ("hand 1, action 2", "fly")),
    "a seat not a number": (_actions("North bid 20"), ("hand 1, action 1", "seat")),
    "an action with no verb": (_actions("0"), ("hand 1, action 1",)),
    "two cards played": (_actions(*MV_OPENING, "0 play JS 4S"),
                         ("hand 1, action 10", "one card")),
    "an unknown card played": (_actions(*MV_OPENING, "0 play 1S"), ("hand 1, action 10", "1S")),
    "a pass with a card": (_actions("0 pass 5H"), ("hand 1, action 1", "pass")),
    "a trump that is no suit": (_actions("0 bid 20", "1 pass", "2 pass", "3 pass",
                                         "0 trump X"), ("hand 1, action 5", "X")),
}


Job = tuple[list[str], bytes, None, None]


@pytest.fixture(scope="module")
def malformed_checked(tmp_path_factory: pytest.TempPathFactory
                      ) -> dict[str, tuple[Path, Job, subprocess.CompletedProcess[bytes]]]:
    """``forties check`` of each malformed record, all in one process (run_many)."""
    folder = tmp_path_factory.mktemp("malformed")
    paths = {case: write(folder, MALFORMED[case][0], f"case{i}.json")
             for i, case in enumerate(sorted(MALFORMED))}
    jobs: dict[str, Job] = {case: (["check", str(p)], b"", None, None)
                            for case, p in paths.items()}
    runs = run_many(list(jobs.values()))
    return {case: (paths[case], jobs[case], res) for case, res in zip(jobs, runs, strict=True)}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_check_refuses_what_is_not_a_game(malformed_checked: dict[str, Any], case: str) -> None:
    """A record that is not a game: exit 2, nothing on stdout, and one line on stderr that
    names the file and what is wrong where, never a traceback. (Every case runs in one
    process, run_many; the first also through the installed script, the same.)"""
    _, expected = MALFORMED[case]
    path, job, done = malformed_checked[case]
    res = subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(),
                                      done.stderr.decode())
    assert res.returncode == 2, res.stdout + res.stderr
    assert res.stdout == ""
    assert "Traceback" not in res.stderr
    assert res.stderr.endswith("\n") and res.stderr.count("\n") == 1, res.stderr
    assert str(path) in res.stderr
    for piece in expected:
        assert piece in res.stderr, f"{piece!r} not in {res.stderr!r}"
    assert res.stderr.count("rules:") <= 1, res.stderr  # said once
    if case == sorted(MALFORMED)[0]:
        same_as_installed(job, done)


def test_check_of_a_missing_file_is_one_line(tmp_path: Path) -> None:
    """A file that is not there: exit 2, one line."""
    res = run_forties("check", str(tmp_path / "nowhere.json"))
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert "nowhere.json" in res.stderr and "Traceback" not in res.stderr


# ----- verdicts ----------------------------------------------------------------------------


def test_check_names_an_illegal_renege(tmp_path: Path) -> None:
    """Trick 2 is led with 4S; Di holds 9S, a trump without privilege, and discards 8D:
    exit 1, the error's position, and Di's only legal card just before it."""
    rec = mv_record_json(tricks=0)
    rec["hands"][0]["actions"] += ["0 play 4S", "1 play 2D", "2 play 4D", "3 play 8D"]
    status, out = check(tmp_path, rec)
    assert status == 1 and out["ok"] is False
    err = out["error"]
    assert (err["hand"], err["index"], err["action"]) == (0, len(MV_OPENING) + 3, "3 play 8D")
    assert "trump" in err["reason"] and "9S" in err["reason"]
    assert out["to_act"] == 3 and out["legal"] == ["3 play 9S"]
    assert out["over"] is False and out["scores"] == [0, 0]


def test_check_names_an_illegal_bid(tmp_path: Path) -> None:
    """Bob bids 15 over Ann's 20: bids must go up. Before it Bob may pass, bid 25 or 30
    (Merrimack Valley bids 15-30 in fives; only the dealer may be bagged)."""
    status, out = check(tmp_path, _actions("0 bid 20", "1 bid 15"))
    assert status == 1 and out["ok"] is False
    assert out["error"] == {"hand": 0, "index": 1, "action": "1 bid 15",
                            "reason": out["error"]["reason"]}
    assert "20" in out["error"]["reason"]
    assert out["to_act"] == 1 and sorted(out["legal"]) == ["1 bid 25", "1 bid 30", "1 pass"]


def test_check_of_a_record_stopped_mid_trick(tmp_path: Path) -> None:
    """After two tricks and Bob's lead of QD: Cy to act with any card (an off-suit lead
    may be answered with any card); points count the two finished tricks (Ann 5; Bob 5
    and 5 more for the 5S, the best trump); scores are still those before the hand."""
    rec = mv_record_json(tricks=2)
    rec["hands"][0]["actions"].append("1 play QD")
    status, out = check(tmp_path, rec)
    assert status == 0 and out["ok"] is True
    hand = out["hands"][0]
    assert (hand["dealer"], hand["bidder"], hand["bid"], hand["trump"]) == (3, 0, "20", "S")
    assert hand["tricks"][-1] == {"leader": 1, "cards": ["QD"], "winner": None}
    assert [t["winner"] for t in hand["tricks"][:2]] == [0, 1]
    assert hand["points"] == [5, 10] and hand["scores"] == [0, 0]
    assert out["scores"] == [0, 0] and out["over"] is False and out["winner"] is None
    assert out["to_act"] == 2
    assert sorted(out["legal"]) == ["2 play 5C", "2 play 6H", "2 play TD"]


def test_check_of_a_finished_hand_awaits_a_new_deal(tmp_path: Path) -> None:
    """The whole hand: Ann & Cy take 15 of their bid of 20 and go down 20; Bob & Di score
    their 15. A new deal is due: to_act null, legal empty."""
    status, out = check(tmp_path, mv_record_json())
    assert status == 0 and out["ok"] is True
    assert out["sides"] == [[0, 2], [1, 3]]
    hand = out["hands"][0]
    assert [t["winner"] for t in hand["tricks"]] == [0, 1, 0, 2, 1]
    assert hand["tricks"][0] == {"leader": 0, "cards": ["JS", "2D", "AH", "9S"], "winner": 0}
    assert hand["points"] == [15, 15] and hand["scores"] == [-20, 15]
    assert out["scores"] == [-20, 15] and out["over"] is False
    assert out["to_act"] is None and out["legal"] == []


def test_check_of_a_finished_game(tmp_path: Path) -> None:
    """Played to 15, Bob & Di's 15 ends the game: over, winner side 1, to_act and legal
    null; a further hand after the end is no game (exit 2)."""
    rec = mv_record_json(options={"target": 15})
    status, out = check(tmp_path, rec)
    assert status == 0 and out["over"] is True and out["winner"] == 1
    assert out["to_act"] is None and out["legal"] is None
    more = copy.deepcopy(rec)
    more["hands"].append({"deal": rec["hands"][0]["deal"], "actions": []})
    res = run_forties("check", str(write(tmp_path, more, "more.json")))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "hand 2" in res.stderr


def test_check_reads_standard_input(tmp_path: Path) -> None:
    """``check -`` reads the record from standard input and gives the file's verdict."""
    text = json.dumps(mv_record_json(tricks=3))
    piped = run_forties("check", "-", stdin=text)
    filed = run_forties("check", str(write(tmp_path, text)))
    assert piped.returncode == filed.returncode == 0
    assert json.loads(piped.stdout) == json.loads(filed.stdout)
    bad = run_forties("check", "-", stdin="{")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "<stdin>" in bad.stderr


# ----- show --------------------------------------------------------------------------------


def test_show_prints_bids_trump_tricks_points_and_scores(tmp_path: Path) -> None:
    """The hand history names the bid, the trump, every trick with its winner, the points
    and the scores."""
    res = run_forties("show", str(write(tmp_path, mv_record_json())))
    assert res.returncode == 0 and res.stderr == ""
    lines = res.stdout.splitlines()

    def line_with(*pieces: str) -> str:
        found = [ln for ln in lines if all(p in ln for p in pieces)]
        assert found, f"no line with {pieces} in:\n{res.stdout}"
        return found[0]

    line_with("Ann", "20")
    line_with("spades")
    for number, (cards, winner) in enumerate(
            [("JS 2D AH 9S", "Ann"), ("4S 5S 4D 8D", "Bob"), ("QD TD JD KD", "Ann"),
             ("9C 7C 5C TC", "Cy"), ("6H 2H 3H 8H", "Bob")], start=1):
        line = line_with(f"Trick {number}", *cards.split())
        assert line.rstrip().endswith(f"{winner} wins")
    line_with("Points", "15")
    line_with("Scores", "-20", "15")


def test_show_refuses_a_bad_record_in_one_line(tmp_path: Path) -> None:
    res = run_forties("show", str(write(tmp_path, _edit(("first_dealer",), 9))))
    assert res.returncode == 2 and res.stderr.count("\n") == 1 and "first_dealer" in res.stderr


# ----- rules, version, help ----------------------------------------------------------------


def test_rules_list_names_every_preset() -> None:
    res = run_forties("rules", "list")
    assert res.returncode == 0
    starts = {ln.split()[0] for ln in res.stdout.splitlines() if ln.strip()}
    assert set(forties.PRESETS) <= starts


@pytest.mark.parametrize("preset", sorted(forties.PRESETS))
def test_rules_show_lists_every_option(preset: str) -> None:
    rules = forties.build_rules(preset)
    res = run_forties("rules", "show", preset)
    assert res.returncode == 0
    for name in rules.options():
        assert name in res.stdout


def test_rules_show_with_an_override() -> None:
    res = run_forties("rules", "show", "merrimack-valley", "-o", "lead=left-of-bidder")
    assert res.returncode == 0
    line = next(ln for ln in res.stdout.splitlines() if ln.lstrip("* ").startswith("lead "))
    assert "left-of-bidder" in line


@pytest.mark.parametrize("args, expected", [
    (("merrimac-valley",), "unknown preset"),
    (("merrimack-valley", "-o", "trumps=S"), "unknown option"),
    (("merrimack-valley", "-o", "lead=dealer"), "left-of-dealer"),
    (("merrimack-valley", "-o", "players=11"), "players"),
    (("merrimack-valley", "-o", "lead"), "NAME=VALUE"),
    (("nova-scotia", "-o", "kitty=3"), "kitty"),
])
def test_rules_show_refuses_in_one_line(args: tuple[str, ...], expected: str) -> None:
    res = run_forties("rules", "show", *args)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.count("\n") == 1 and expected in res.stderr
    assert "Traceback" not in res.stderr


def test_version() -> None:
    res = run_forties("--version")
    assert res.returncode == 0 and forties.__version__ in res.stdout


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            out += _commands(cmd, (*prefix, name))
        else:
            out.append((*prefix, name))
    return out


@pytest.fixture(scope="module")
def helps() -> dict[tuple[str, ...], tuple[Job, subprocess.CompletedProcess[bytes]]]:
    """``forties COMMAND --help`` of every command, in one process (run_many)."""
    jobs: list[Job] = [([*c, "--help"], b"", None, None) for c in _commands(cli_main)]
    return {tuple(job[0][:-1]): (job, res) for job, res in zip(jobs, run_many(jobs),
                                                               strict=True)}


@pytest.mark.parametrize("command", _commands(cli_main), ids=lambda c: " ".join(c) or "forties")
def test_help_shows_an_example(helps: dict[tuple[str, ...], Any],
                               command: tuple[str, ...]) -> None:
    """Every command's --help ends in examples of its use (all in one process; forties
    --help also through the installed script, the same)."""
    job, res = helps[command]
    out = res.stdout.decode()
    assert res.returncode == 0
    assert "Example" in out
    assert f"forties {' '.join(command)}".strip() in out.split("Example", 1)[1]
    if command == ():
        same_as_installed(job, res)


# ----- demo --------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [("-p", "nova-scotia", "--seed", "5"),
                                  ("-p", "auction-45", "--seed", "8", "--max-hands", "2")])
def test_demo_is_deterministic_and_its_record_checks(tmp_path: Path,
                                                     args: tuple[str, ...]) -> None:
    """The same seed plays the same game; the saved record passes ``check``, whose
    verdict agrees with the demo's last scores."""
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    first = run_forties("demo", *args, "--save", str(a))
    second = run_forties("demo", *args, "--save", str(b))
    assert first.returncode == second.returncode == 0, first.stderr
    assert first.stdout.replace(str(a), "X") == second.stdout.replace(str(b), "X")
    assert a.read_text() == b.read_text()
    res = run_forties("check", str(a))
    assert res.returncode == 0
    verdict = json.loads(res.stdout)
    assert verdict["ok"] is True
    last_scores = [ln for ln in first.stdout.splitlines() if "Scores" in ln][-1]
    for score in verdict["scores"]:
        assert str(score) in last_scores


# ----- files: every file option of every command, pointed where it cannot work ------------

# A command's file argument that must be a real file while one of its options is tested
# (a saved evening, written by _saved_evening); when the argument itself is tested, the
# file under test takes its place.
EVENING = "<a saved evening>"
# An account's id in a database of its own (``--db`` too), written by _an_account.
ACCOUNT = "<an account>"

# How each command that takes a file runs here, small and quick; the file under test (an
# option's value, or the command's argument) is added to these. A command with a new file
# option runs with it at once; a new command with a file option must be added here.
FILE_RUNS: dict[tuple[str, ...], tuple[str, ...]] = {
    ("demo",): ("--seed", "1", "--max-hands", "1"),
    ("rules", "show"): ("merrimack-valley",),
    ("check",): (),
    ("show",): (),
    ("hint",): ("--worlds", "1"),
    ("replay",): ("--plain",),
    ("odds",): ("-p", "merrimack-valley", "--deals", "1"),
    ("arena",): ("random", "random", "--deals", "1", "--games", "0", "--jobs", "1"),
    ("play",): ("--plain",),
    ("hall", "simulate"): ("--couples", "2", "--games", "1", "--players", "random", "--seed",
                           "1"),
    ("hall", "cards"): (EVENING, "--tables"),
    ("pad",): (),  # no hand typed: the pad is saved as it starts
    ("admin", "backup"): (),  # (of forties serve's default database, made empty)
    ("admin", "restore"): (),
    ("admin", "accounts", "export"): (ACCOUNT,),
}


def _saved_evening(folder: Path) -> str:
    """A four-couple evening of one game, saved as ``forties hall simulate --json`` would."""
    h = hall_of(4, games=1)
    play_game(h, lambda table, visitors, home: visitors)
    path = folder / "evening.json"
    path.write_text(json.dumps(h.to_json()), encoding="utf-8")
    return str(path)


def _an_account(folder: Path) -> list[str]:
    """An account in an SQLite database of ``folder``: its id and ``--db`` with the
    database's URL."""
    import time

    from forties.web.accounts import accounts_t
    from forties.web.store import Store

    url = f"sqlite:///{folder / 'accounts.db'}"
    if (folder / "accounts.db").is_file():  # (made for an earlier case of the same test)
        return ["AnAccount0000001", "--db", url]
    store = Store(url)
    try:
        with store.engine.begin() as conn:
            conn.execute(accounts_t.insert(), {
                "id": "AnAccount0000001", "name": "Ann", "name_key": "ann",
                "created": time.time(), "status": "active", "hidden": False,
                "last_seen": None})
    finally:
        store.close()
    return ["AnAccount0000001", "--db", url]


def _file_params() -> list[tuple[tuple[str, ...], str]]:
    """(command, parameter name) for every parameter of type click.Path in the CLI."""
    out = []
    for path in _commands(cli_main):
        cmd: click.Command = cli_main
        for name in path:
            assert isinstance(cmd, click.Group)
            cmd = cmd.commands[name]
        for p in cmd.params:
            if isinstance(p.type, click.Path):
                out.append((path, str(p.name)))
    return out


def _file_job(tmp_path: Path, command: tuple[str, ...], param: str,
              value: str) -> tuple[list[str], bytes, dict[str, str], Path]:
    """``forties COMMAND ...`` with ``value`` as its file ``param``: (args, stdin, env,
    folder), for run_many or the installed script."""
    from forties.cli import main as group

    cmd: click.Command = group
    for name in command:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[name]
    p = next(x for x in cmd.params if x.name == param)
    args = list(FILE_RUNS[command])
    if isinstance(p, click.Argument):
        args = [value if a == EVENING else a for a in args] if EVENING in args \
            else [*args, value]
    else:
        args = [_saved_evening(tmp_path) if a == EVENING else a for a in args]
        if ACCOUNT in args:
            i = args.index(ACCOUNT)
            args[i:i + 1] = _an_account(tmp_path)
        args += [max(p.opts, key=len), value]
    env = {**os.environ, "FORTIES_DATA": str(tmp_path / "data")}
    return [*command, *args], b"", env, tmp_path


def _file_cases(tmp_path: Path, command: tuple[str, ...], param: str) -> dict[str, str]:
    """The paths where ``param`` cannot work (case: path), the files they need made."""
    from forties.command_line import InputFile

    cmd: click.Command = cli_main
    for name in command:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[name]
    kind = next(p.type for p in cmd.params if p.name == param)
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    (tmp_path / "latin1.json").write_bytes(b"{\"players\": \"\xe9\xff\"}")
    bad = {"through a file": str(tmp_path / "afile" / "x.json"),
           "a folder": str(tmp_path)}
    if isinstance(kind, InputFile):
        bad["missing folder"] = str(tmp_path / "no" / "such" / "x.json")
        bad["not UTF-8"] = str(tmp_path / "latin1.json")
    return bad


@pytest.mark.parametrize("command, param", _file_params(),
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_every_file_option_fails_in_one_line_or_makes_its_folder(
        tmp_path: Path, command: tuple[str, ...], param: str) -> None:
    """Every file a command reads or writes, pointed into a folder that does not exist,
    through a file where a folder should be, at a folder, or (to read) at a file that is
    not UTF-8 text: a file to write gets its folder made and is written; anything else is
    one line on standard error, exit status 2, never a traceback, before any work.

    The cases of one option run in one process (run_many, as the command line would run
    each); test_file_options_say_the_same_from_the_installed_command runs some through
    the installed script."""
    from forties.command_line import InputFile, OutputFile

    assert command in FILE_RUNS, f"add 'forties {' '.join(command)}' to FILE_RUNS"
    cmd: click.Command = cli_main
    for name in command:
        assert isinstance(cmd, click.Group)
        cmd = cmd.commands[name]
    kind = next(p.type for p in cmd.params if p.name == param)
    assert isinstance(kind, InputFile | OutputFile), \
        f"{param} of forties {' '.join(command)} must be an InputFile or an OutputFile"
    bad = _file_cases(tmp_path, command, param)
    target = tmp_path / "no" / "such" / "out.file"
    values = [*bad.values(), *([str(target)] if isinstance(kind, OutputFile) else [])]
    runs = run_many([_file_job(tmp_path, command, param, v) for v in values])
    for (case, value), res in zip(bad.items(), runs, strict=False):
        err, out = res.stderr.decode(), res.stdout.decode()
        assert res.returncode == 2, (case, out, err)
        assert "Traceback" not in err + out, (case, err)
        assert err.count("\n") == 1, (case, err)
        assert value in err or Path(value).name in err, (case, err)
    if isinstance(kind, OutputFile):
        res = runs[-1]
        if param == "plot_path" and importlib.util.find_spec("matplotlib") is None:
            assert res.returncode == 2 and b"matplotlib" in res.stderr  # said before the work
            assert res.stderr.count(b"\n") == 1 and not target.exists()
        else:
            assert res.returncode == 0, res.stderr
            assert target.is_file() and target.stat().st_size > 0


@pytest.mark.parametrize("command, param", [(("check",), "record"), (("demo",), "save")],
                         ids=lambda x: " ".join(x) if isinstance(x, tuple) else x)
def test_file_options_say_the_same_from_the_installed_command(
        tmp_path: Path, command: tuple[str, ...], param: str) -> None:
    """run_many, which the test above uses, says what the installed ``forties`` says, byte
    for byte, for every bad path of a file read (a command's argument) and of a file
    written (an option)."""
    jobs = [_file_job(tmp_path, command, param, v)
            for v in _file_cases(tmp_path, command, param).values()]
    for job, got in zip(jobs, run_many(jobs), strict=True):
        assert got.returncode == 2
        same_as_installed(job, got)


# ----- options that disagree, numbers out of range ------------------------------------------


OUT_OF_RANGE: list[tuple[tuple[str, ...], str]] = [
    (("demo", "--max-hands", "0"), "--max-hands"),
    (("hint", "--worlds", "-3", "RECORD"), "--worlds"),
    (("odds", "--deals", "0"), "--deals"),
    (("arena", "basic", "random", "--jobs", "0"), "--jobs"),
    (("arena", "basic", "random", "--deals", "-1"), "--deals"),
    (("arena", "basic", "random", "--games", "-2"), "--games"),
    (("arena", "basic", "random", "--deals", "0", "--games", "0"), "nothing to play"),
    (("arena", "basic", "random", "--play-only", "--games", "2"), "--play-only"),
    (("arena", "basic", "nobody"), "nobody"),
    (("play", "--seat", "-1"), "--seat"),
    (("play", "--delay", "-1"), "--delay"),
    (("play", "--opponents", "genius"), "genius"),
    (("demo", "--level", "genius"), "genius"),
    (("demo", "--no-such-option"), "--no-such-option"),
    (("hall", "simulate", "--couples", "0"), "--couples"),
    (("hall", "simulate", "--couples", "2001"), "--couples"),
    (("hall", "simulate", "--games", "-1"), "--games"),
    (("hall", "simulate", "--games", "201"), "--games"),
    (("hall", "simulate", "--jobs", "0"), "--jobs"),
    (("hall", "simulate", "--prizes", "-1"), "--prizes"),
    (("hall", "simulate", "--cookie-jar", "-1"), "--cookie-jar"),
    (("hall", "simulate", "--top", "-1"), "--top"),
    (("hall", "simulate", "--seed", "-1"), "--seed"),
    (("hall", "simulate", "--places", "random"), "--places"),
    (("hall", "ante", "--stake", "0"), "--stake"),
    (("hall", "home", "--matches", "0"), "--matches"),
    (("hall", "home", "--matches", "1001"), "--matches"),
]


@pytest.fixture(scope="module")
def out_of_range(tmp_path_factory: pytest.TempPathFactory
                 ) -> dict[tuple[str, ...], tuple[Job, subprocess.CompletedProcess[bytes]]]:
    """Each command line of OUT_OF_RANGE (RECORD: a record of the fixed hand), all in one
    process (run_many)."""
    record = str(write(tmp_path_factory.mktemp("range"), mv_record_json()))
    jobs: list[Job] = [([record if a == "RECORD" else a for a in args], b"", None, None)
                       for args, _ in OUT_OF_RANGE]
    return {args: (job, res) for (args, _), job, res in zip(OUT_OF_RANGE, jobs, run_many(jobs),
                                                            strict=True)}


@pytest.mark.parametrize("args, expected", OUT_OF_RANGE)
def test_numbers_out_of_range_are_refused_in_one_line(
        out_of_range: dict[tuple[str, ...], Any], args: tuple[str, ...], expected: str) -> None:
    """A number out of range or a word not in the list: exit 2, one line naming it. (All
    in one process; the first also through the installed script, the same.)"""
    job, done = out_of_range[args]
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 2, out + err
    assert err.count("\n") == 1 and expected in err, err
    assert "Traceback" not in err and out == ""
    if args == OUT_OF_RANGE[0][0]:
        same_as_installed(job, done)


def test_a_preset_and_a_rules_file_of_another_preset_are_refused(tmp_path: Path) -> None:
    """-p names one preset and --rules a file of another: refused, naming both; the same
    preset (or its alias) with the file is fine, and ``rules show --rules FILE`` needs no
    preset."""
    house = tmp_path / "house.toml"
    house.write_text('preset = "nova-scotia"\n[options]\ntarget = 60\n', encoding="utf-8")
    for command in (("demo", "--max-hands", "1", "-p"), ("rules", "show"),
                    ("arena", "random", "random", "--deals", "1", "--games", "0", "-p")):
        res = run_forties(*command, "auction-45", "--rules", str(house))
        assert res.returncode == 2 and res.stderr.count("\n") == 1, (command, res.stderr)
        assert "auction-45" in res.stderr and "nova-scotia" in res.stderr
    res = run_forties("play", "--plain", "-p", "auction-45", "--rules", str(house),
                      "--save", str(tmp_path / "p.json"))
    assert res.returncode == 2 and "nova-scotia" in res.stderr
    shown = run_forties("rules", "show", "--rules", str(house))
    assert shown.returncode == 0, shown.stderr
    assert "Nova Scotia" in shown.stdout and re.search(r"target\s+60", shown.stdout)
    alias = run_forties("rules", "show", "ns", "--rules", str(house))
    assert alias.returncode == 0 and alias.stdout == shown.stdout
    nothing = run_forties("rules", "show")
    assert nothing.returncode == 2 and "--rules" in nothing.stderr


@pytest.fixture(scope="module")
def started_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A game begun with ``forties play --plain --seed 2 --save`` and left at once (the
    tests below resume copies of it)."""
    folder = tmp_path_factory.mktemp("started")
    saved = folder / "g.json"
    start = subprocess.run([str(FORTIES), "play", "--plain", "--seed", "2", "--save",
                            str(saved)], input="", capture_output=True, text=True, timeout=60,
                           env={**os.environ, "FORTIES_DATA": str(folder)}, check=False)
    assert start.returncode == 0 and saved.exists(), start.stderr
    return saved


@pytest.mark.parametrize("extra, named", [
    (("-p", "nova-scotia"), "--preset"),
    (("-o", "kitty=0"), "--option"),
    (("--rules", "RULES"), "--rules"),
    (("--seed", "4"), "--seed"),
    (("--name", "Zed"), "--name"),
    (("--save", "OTHER"), "--save"),
])
def test_resume_refuses_what_the_record_already_fixes(
        tmp_path: Path, started_game: Path, extra: tuple[str, ...], named: str) -> None:
    """A resumed game goes on under its record's rules, seed and names: an option that
    would change them is refused, naming it, and the record is left as it was."""
    saved = tmp_path / "g.json"
    env = {**os.environ, "FORTIES_DATA": str(tmp_path)}
    shutil.copy(started_game, saved)
    before = saved.read_text()
    rules = tmp_path / "house.toml"
    rules.write_text('preset = "merrimack-valley"\n', encoding="utf-8")
    args = [str(rules) if a == "RULES" else str(tmp_path / "o.json") if a == "OTHER" else a
            for a in extra]
    res = subprocess.run([str(FORTIES), "play", "--plain", "--resume", str(saved), *args],
                         input="", capture_output=True, text=True, timeout=60, env=env,
                         check=False)
    assert res.returncode == 2 and res.stderr.count("\n") == 1, res.stderr
    assert named in res.stderr
    assert saved.read_text() == before


# ----- play against any level ----------------------------------------------------------------


@pytest.mark.parametrize("partner, opponents", [("expert", "expert"), ("oracle", "random"),
                                                ("random", "basic")])
def test_play_takes_every_level_and_resume_keeps_them(tmp_path: Path, partner: str,
                                                      opponents: str) -> None:
    """``forties play --opponents expert`` (and a partner of any level) starts a game whose
    record keeps each seat's level; a resume keeps them, and changes only what it is told."""
    from forties.tui.session import Session

    saved = tmp_path / "g.json"
    env = {**os.environ, "FORTIES_DATA": str(tmp_path)}
    res = subprocess.run([str(FORTIES), "play", "--plain", "--partner", partner,
                          "--opponents", opponents, "--save", str(saved)], input="",
                         capture_output=True, text=True, timeout=120, env=env, check=False)
    assert res.returncode == 0, res.stderr
    resumed = Session.resume(saved)
    assert resumed.levels == [None, opponents, partner, opponents]
    assert resumed.table.seat_levels() == [None, opponents, partner, opponents]
    again = Session.resume(saved, partner="basic")
    assert again.levels == [None, opponents, "basic", opponents]


def test_the_licence_is_an_spdx_expression() -> None:
    """pyproject.toml gives the licence as an SPDX string (the table form makes every
    install print a deprecation box) and asks for a setuptools that reads it."""
    import tomllib

    meta = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert meta["project"]["license"] == "MIT"
    need = [r for r in meta["build-system"]["requires"] if r.startswith("setuptools")]
    version = re.fullmatch(r"setuptools>=(\d+)[.\d]*", need[0])
    assert version is not None and int(version.group(1)) >= 77


# ----- words: agreement, numbers, exit status ------------------------------------------------


def _renege_record() -> dict[str, Any]:
    """The fixed hand with Di's illegal 8D (she holds 9S) as the 13th action of hand 1."""
    rec = mv_record_json(tricks=0)
    rec["hands"][0]["actions"] += ["0 play 4S", "1 play 2D", "2 play 4D", "3 play 8D"]
    return rec


def test_every_command_numbers_hands_and_actions_from_one(tmp_path: Path) -> None:
    """People count from 1: the 13th action of the first hand is "hand 1, action 13" in
    show, replay, hint and check's messages alike (check's JSON keeps the record's
    0-based indices, hand 0 and index 12)."""
    path = write(tmp_path, _renege_record())
    status, verdict = check(tmp_path, _renege_record())
    assert status == 1 and (verdict["error"]["hand"], verdict["error"]["index"]) == (0, 12)
    shown = run_forties("show", str(path))
    assert "! action 13 (3 play 8D) is illegal" in shown.stdout and "Hand 1," in shown.stdout
    replayed = run_forties("replay", "--plain", str(path))
    assert "hand 1, action 13 (3 play 8D) is illegal" in replayed.stdout
    hinted = run_forties("hint", str(path))
    assert hinted.returncode == 1 and "hand 1, action 13 (3 play 8D)" in hinted.stderr, \
        hinted.stderr
    syntax = _actions("0 bid 20", "1 fly")
    res = run_forties("check", str(write(tmp_path, syntax, "bad.json")))
    assert res.returncode == 2 and "hand 1, action 2" in res.stderr


def test_show_exits_1_on_an_illegal_action(tmp_path: Path) -> None:
    """``show`` prints the history up to an illegal action, says why, and exits 1 (as
    ``check`` does); a legal record exits 0."""
    res = run_forties("show", str(write(tmp_path, _renege_record())))
    assert res.returncode == 1 and "is illegal" in res.stdout
    assert run_forties("show", str(write(tmp_path, mv_record_json(), "ok.json"))).returncode == 0


def test_show_speaks_to_you_and_of_one_player_in_agreement(tmp_path: Path) -> None:
    """A record whose first seat is "You" (as ``forties play`` writes it): "You bid 20",
    "Bob passes", "You win" a trick; a game won by one player: "Cy wins"."""
    rec = mv_record_json(players=["You", "Bob", "Cy", "Di"])
    res = run_forties("show", str(write(tmp_path, rec)))
    assert res.returncode == 0
    out = res.stdout
    assert "Bob passes" in out and "Bob pass," not in out
    assert "You discard 3" in out and "You discards" not in out
    assert "; You win" in out and "; Bob wins" in out
    demo = run_forties("demo", "-p", "call-your-partner", "--seed", "7")
    last = [ln for ln in demo.stdout.splitlines() if ln.startswith("Game over")][-1]
    assert re.fullmatch(r"Game over: \w+ wins", last), last


# ----- the files that play and pad write -------------------------------------------------------


def invoke(args: list[str], data: Path, lines: str = "") -> tuple[int, str, str]:
    """``forties ARGS`` in this process (click's runner), FORTIES_DATA at ``data``."""
    from click.testing import CliRunner

    res = CliRunner().invoke(cli_main, args, input=lines, env={"FORTIES_DATA": str(data)})
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("command", ["play", "pad"])
def test_save_refuses_a_file_that_is_already_there(tmp_path: Path, command: str) -> None:
    """``--save FILE`` with a FILE already there (a game in progress, a finished record:
    the user meant --resume) is refused in one line that names it and says what to do,
    and the file is left byte for byte as it was."""
    precious = write(tmp_path, mv_record_json(), "friday.json")
    before = precious.read_bytes()
    args = [command, "--save", str(precious)] + (["--plain"] if command == "play" else [])
    code, _, err = invoke(args, tmp_path / "data")
    assert code == 2 and err.count("\n") == 1, err
    assert f"{precious} already exists" in err and f"--resume {precious}" in err
    assert precious.read_bytes() == before
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").rglob("*.json"))


def test_default_save_names_never_collide(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games (and two pads) started in the same second get a file each: the second
    name has -2, the third -3, and no game writes over another's."""
    import datetime as dt

    from forties.commands import pad as pad_module
    from forties.tui import session as session_module

    class Frozen(dt.datetime):
        @classmethod
        def now(cls, tz: Any = None) -> Any:
            return dt.datetime(2026, 11, 28, 13, 26, 34, tzinfo=tz)

    monkeypatch.setattr(session_module._dt, "datetime", Frozen)
    monkeypatch.setattr(pad_module._dt, "datetime", Frozen)
    for seed in ("1", "2", "3"):
        code, _, err = invoke(["play", "--plain", "--seed", seed], tmp_path, "")
        assert code == 0, err
    games = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert games == ["2026-11-28-132634-merrimack-valley-2.json",
                     "2026-11-28-132634-merrimack-valley-3.json",
                     "2026-11-28-132634-merrimack-valley.json"]
    seeds = {json.loads((tmp_path / "games" / g).read_text())["seed"] for g in games}
    assert seeds == {1, 2, 3}
    for _ in range(2):
        assert invoke(["pad"], tmp_path, "quit\n")[0] == 0
    assert sorted(p.name for p in (tmp_path / "pads").iterdir()) == [
        "2026-11-28-132634-merrimack-valley-2.json", "2026-11-28-132634-merrimack-valley.json"]


def test_a_refused_resume_leaves_the_record_as_it_was(tmp_path: Path) -> None:
    """A record the terminal table refuses (nine players), or one resumed and left at
    once (a finished game), is not written: the file keeps its bytes."""
    nine = tmp_path / "nine.json"
    assert invoke(["demo", "-o", "players=9", "--seed", "1", "--save", str(nine)],
                  tmp_path)[0] == 0
    finished = tmp_path / "finished.json"
    assert invoke(["demo", "--seed", "5", "--save", str(finished)], tmp_path)[0] == 0
    nine_before, finished_before = nine.read_bytes(), finished.read_bytes()
    code, _, err = invoke(["play", "--plain", "--resume", str(nine)], tmp_path)
    assert code == 2 and "seats up to 6" in err
    assert nine.read_bytes() == nine_before
    code, out, err = invoke(["play", "--plain", "--resume", str(finished)], tmp_path)
    assert code == 0 and "Game over" in out, err
    assert finished.read_bytes() == finished_before


@pytest.mark.parametrize("notes, kept", [
    ({"club": "Friday at Bob's, table 3"}, {"club": "Friday at Bob's, table 3"}),
    ("Friday at Bob's", {"text": "Friday at Bob's"}),
])
def test_resume_keeps_the_records_own_notes(tmp_path: Path, notes: Any,
                                            kept: dict[str, Any]) -> None:
    """A resumed game adds its own note (the seat and the levels) beside the record's
    notes and keeps them; a note in words is kept as the notes' "text"."""
    saved = tmp_path / "g.json"
    assert invoke(["play", "--plain", "--seed", "3", "--save", str(saved)], tmp_path,
                  "15\n")[0] == 0
    rec = json.loads(saved.read_text())
    assert "forties-play" in rec["notes"]
    rec["notes"] = notes
    saved.write_text(json.dumps(rec), encoding="utf-8")
    code, _, err = invoke(["play", "--plain", "--resume", str(saved)], tmp_path, "keep\n")
    assert code == 0, err
    after = json.loads(saved.read_text())["notes"]
    assert {k: v for k, v in after.items() if k != "forties-play"} == kept
    assert after["forties-play"]["seat"] == 0


@pytest.mark.parametrize("args, expected", [
    (("check",), "forties: check: missing the RECORD argument (see forties check --help)"),
    (("show",), "forties: show: missing the RECORD argument (see forties show --help)"),
    (("hint",), "forties: hint: missing the RECORD argument (see forties hint --help)"),
    (("replay",), "forties: replay: missing the RECORD argument (see forties replay --help)"),
    (("hall", "cards"), "forties: hall cards: missing the EVENING argument "
                        "(see forties hall cards --help)"),
    (("play", "--resume"), "forties: play: Option '--resume' requires an argument. "
                           "(see forties play --help)"),
])
def test_a_file_left_out_is_named(args: tuple[str, ...], expected: str) -> None:
    """A command whose file argument (or an option's value) is left out says what is
    missing and which command's help to read, in one line."""
    res = run_forties(*args)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == expected + "\n"


def test_a_byte_order_mark_is_let_be(tmp_path: Path) -> None:
    """A record, a saved game, a score pad or a house rules file saved as Windows Notepad
    saves UTF-8 (a byte-order mark first) reads as the same file without it."""
    bom = b"\xef\xbb\xbf"
    record = tmp_path / "bom.json"
    record.write_bytes(bom + json.dumps(mv_record_json()).encode())
    plain = write(tmp_path, mv_record_json(), "plain.json")
    for command in ("check", "show"):
        got, want = run_forties(command, str(record)), run_forties(command, str(plain))
        assert got.returncode == want.returncode and got.stderr == "", got.stderr
        assert got.stdout == want.stdout
    assert run_forties("check", "-", stdin="\ufeff" + plain.read_text()).returncode == 0
    saved = tmp_path / "g.json"
    assert invoke(["play", "--plain", "--seed", "3", "--save", str(saved)], tmp_path)[0] == 0
    saved.write_bytes(bom + saved.read_bytes())
    code, out, err = invoke(["play", "--plain", "--resume", str(saved)], tmp_path)
    assert code == 0 and "Saved. Resume with" in out, err
    pad = tmp_path / "pad.json"
    assert invoke(["pad", "--save", str(pad)], tmp_path, "quit\n")[0] == 0
    pad.write_bytes(bom + pad.read_bytes())
    code, out, err = invoke(["pad", "--resume", str(pad), "--export", "csv"], tmp_path)
    assert code == 0 and out.startswith("hand"), err
    house = tmp_path / "house.toml"
    house.write_bytes(bom + b'preset = "nova-scotia"\n')
    code, out, err = invoke(["rules", "show", "--rules", str(house)], tmp_path)
    assert code == 0 and "Nova Scotia" in out, err


@pytest.mark.parametrize("case", ["a card twice", "four cards in a hand", "a card missing",
                                  "an unknown verb", "a bid not a number"])
def test_replay_refuses_what_is_not_a_game_as_check_does(tmp_path: Path, case: str) -> None:
    """``replay`` gives a record that is not a game (a deal holding a card twice, an
    action that is no action) the exit status 2 and the one line on standard error that
    ``check`` gives it; an illegal action is still replayed up to it (exit 1)."""
    path = write(tmp_path, MALFORMED[case][0])
    checked = run_forties("check", str(path))
    replayed = run_forties("replay", "--plain", str(path))
    assert (replayed.returncode, replayed.stdout) == (2, "")
    assert replayed.stderr == checked.stderr and checked.returncode == 2
    illegal = run_forties("replay", "--plain", str(write(tmp_path, _renege_record(), "r.json")))
    assert illegal.returncode == 1 and "is illegal" in illegal.stdout and illegal.stderr == ""


def test_show_lists_the_trick_in_progress(tmp_path: Path) -> None:
    """A record stopped in a trick shows its cards before "(hand in progress)"; an illegal
    card shows the trick it was played to (Di's 8D after Ann's 4S lead: she holds 9S)."""
    rec = mv_record_json(tricks=2)
    rec["hands"][0]["actions"] += ["1 play QD", "2 play TD"]
    res = run_forties("show", str(write(tmp_path, rec)))
    assert res.returncode == 0
    assert res.stdout.endswith("  Trick 3 so far: Bob QD, Cy TD\n  (hand in progress)\n")
    res = run_forties("show", str(write(tmp_path, _renege_record(), "renege.json")))
    assert res.returncode == 1
    assert res.stdout.endswith("  Trick 1 so far: Ann 4S, Bob 2D, Cy 4D\n"
                               "  ! action 13 (3 play 8D) is illegal: must play a trump: "
                               "you hold 9S\n"), res.stdout[-300:]


def test_hint_worlds_applies_to_a_bid_too(tmp_path: Path) -> None:
    """``hint --worlds N`` searches N imagined deals for a bid as for a card: the advice
    at the first bid of the fixed hand is averaged over 5 deals with --worlds 5, over 7
    with --worlds 7."""
    path = write(tmp_path, _actions())
    for n in (5, 7):
        res = run_forties("hint", "--worlds", str(n), str(path))
        assert res.returncode == 0, res.stderr
        assert f"averaged over {n} imagined deals" in res.stdout, res.stdout
