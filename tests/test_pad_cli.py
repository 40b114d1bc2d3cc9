"""``forties pad`` in the terminal: a whole game typed line by line, a correction, the
winner, saved as it goes, resumed and exported; every mistake one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from forties.cli import main


def run(args: list[str], lines: str = "", data: Path | None = None) -> tuple[int, str, str]:
    env = {"FORTIES_DATA": str(data)} if data else {}
    res = CliRunner().invoke(main, args, input=lines, env=env)
    assert ("Traceback" not in res.output and res.exception is None) or \
        isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.stdout, res.stderr


def test_a_whole_game_with_a_correction(tmp_path: Path) -> None:
    save = tmp_path / "friday.json"
    lines = "\n".join([
        "Bob 20 : 10 20",
        "Ann 25 : 25 5",         # a slip: Ann was set, with 20
        "fix 2 Ann 25 in H : 20 10",
        "Ann 30 : 30 0",         # a made 30 scores 60 in Auction 45
        "Bob 20 : 5 25",
        "Cy 20 : 25 5",
        "show",
        "Ann 30 : 30 0",         # 70 + 60: out
        "Ann 20 : 20 10",        # not read: the game is over
    ]) + "\n"
    code, out, err = run(["pad", "-p", "auction-45", "--names", "Ann,Bob,Cy,Di",
                          "--save", str(save)], lines)
    assert code == 0, err
    assert "Hand 2: Ann bid 25: made" in out
    assert "   2  Bob             -15         30  Ann bid 25 in hearts: set" in out
    assert "30 made scores 60" in out
    assert "Game over. Ann and Cy win: first to 120." in out
    saved = json.loads(save.read_text())
    assert saved["format"] == "forties-pad/1" and len(saved["hands"]) == 6
    code, out, _ = run(["pad", "--resume", str(save), "--export", "csv"])
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0][-3:] == ["Ann and Cy total", "Bob and Di total",
                                          "what happened"]
    assert rows[-1][-3:-1] == ["130", "55"] and "win: first to 120" in rows[-1][-1]
    code, out, err = run(["pad", "--resume", str(save)], "Ann 20 : 20 10\nundo\nquit\n")
    assert "The game is over: 'fix N ...' or 'undo'" in out and "Hand 6 struck out" in out
    assert "the game is over: Ann and Cy win" in err
    code, out, _ = run(["pad", "--resume", str(save), "--export", "json"])
    assert code == 0 and json.loads(out)["result"] is None  # hand 6 struck out


def test_saved_in_the_data_folder_and_resumed(tmp_path: Path) -> None:
    code, out, _ = run(["pad", "-p", "forty-one", "--dealer", "Cy"],
                       "2 2 2 2\n3 3 3 3 : 4 3 3 3\n", data=tmp_path)
    assert code == 0
    assert "Hand 1: bids total 8, under 11: thrown in" in out
    assert "Next deal: Di (hand 2)" in out and "Next deal: Ann (hand 3)" in out
    (path,) = (tmp_path / "pads").glob("*-forty-one.json")
    code, out, _ = run(["pad", "--resume", str(path)], "undo\nquit\n")
    assert code == 0 and "Hand 2 struck out. Next deal: Di (hand 2)." in out
    assert len(json.loads(path.read_text())["hands"]) == 1


def test_traditional_45_points_only(tmp_path: Path) -> None:
    code, out, _ = run(["pad", "-p", "nova-scotia", "--save", str(tmp_path / "p.json")],
                       "JD : 25 5\n20 0\n")
    assert code == 0 and "JD turned up" in out
    assert "Ann and Cy win: first to 45" in out


def test_house_rules_with_o(tmp_path: Path) -> None:
    code, out, _ = run(["pad", "-p", "merrimack-valley", "-o", "target=30",
                        "--save", str(tmp_path / "p.json")], "Ann 20 : 30 0\n")
    assert code == 0 and "Ann and Cy win: first to 30" in out


def test_bad_lines_get_one_line_and_the_pad_goes_on(tmp_path: Path) -> None:
    lines = "\n".join(["Zed 20 : 20 10", "Ann 20 : 20 20", "Ann lots : 20 10", "Ann 20",
                       "fix 9 Ann 20 : 20 10", "fix x", "undo", "Ann 20 : 20 10"]) + "\n"
    code, out, err = run(["pad", "--save", str(tmp_path / "p.json")], lines)
    assert code == 0
    errors = err.strip().splitlines()
    assert errors == [
        "forties: who is 'Zed'? the players are Ann, Bob, Cy, Di",
        "forties: the points add up to 40: a hand has 30 (25 when no trump was played)",
        "forties: 'lots' is not a bid",
        "forties: write the hand as bidder bid : points, as Bob 20 : 20 10; 'in H' after "
        "the bid notes the trump",
        "forties: there is no hand to correct yet",
        "forties: write fix N and the hand, as: fix 2 bidder bid : points, as Bob 20 : "
        "20 10; 'in H' after the bid notes the trump",
        "forties: there is no hand to remove",
    ]
    assert "Hand 1: Ann bid 20: made" in out


@pytest.mark.parametrize(("args", "message"), [
    (["pad", "--export", "csv"], "--export needs --resume FILE"),
    (["pad", "--names", "A,B,C,D,E"], "--names gives 5 players; merrimack-valley has 4"),
    (["pad", "--names", "Ann,Ann"], "two players have the same name"),
    (["pad", "-p", "auction-45", "--names", "Eve,Fay,Di"],
     "pad: the names give 3 players; auction-45 has 4"),
    (["pad", "--dealer", "Zed"], "who is 'Zed'?"),
    (["pad", "-p", "whist"], "unknown preset 'whist'"),
    (["pad", "-o", "target=0"], "option target: 0 is not an integer"),
    (["pad", "--resume", "nowhere.json"], "nowhere.json: no such file"),
])
def test_bad_command_lines(args: list[str], message: str, tmp_path: Path) -> None:
    code, _, err = run(args, data=tmp_path)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_bad_saved_pads(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = run(["pad", "--resume", str(bad)])
    assert code == 2 and "not a score pad" in err
    bad.write_text(json.dumps({"format": "forties-pad/1", "rules": "auction-45",
                               "hands": [{"bidder": 0, "bid": "15", "points": [20, 10]}]}))
    code, _, err = run(["pad", "--resume", str(bad)])
    assert code == 2 and "hand 1: 15 is not a bid here (bids: 20, 25, 30)" in err
    good = tmp_path / "good.json"
    run(["pad", "--save", str(good)], "quit\n")
    code, _, err = run(["pad", "--resume", str(good), "-p", "auction-45"])
    assert code == 2 and "--preset cannot be given with --resume" in err
