"""Bad input never produces a traceback.

The project's rule: a malformed record, an illegal move or a wrong option gets a
clear one-line answer and loses nothing. ``forties check`` exits 0 (every action
legal), 1 (an illegal action, described in "error") or 2 (not a game at all: one
line on standard error). These tests take the golden records and mangle them in
every structured way a careless hand or a buggy client could (dropped and
doubled keys, values of the wrong type, bad cards, bad actions, actions in the
wrong hand, unknown rules, wrong players, a dealer who is not a seat), then
check that only the documented errors ever come out: through the API the
command uses, through the real command, and through the other readers of user
input (state snapshots, action text, rules, rules files, ``--option``).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forties import Action, GameState, Record, build_rules, new_game, referee
from forties.actions import ActionSyntaxError
from forties.cli import main as cli_main
from forties.record import RecordError
from forties.rules import OPTIONS, PRESETS, Rules, RulesError, load_rules_file
from forties.show import render
from forties.state import StateError

from .helpers_engine import FORTIES, GOLDEN_DIR, run_many, same_as_installed

GOLDEN = sorted(GOLDEN_DIR.glob("*/*.record.json"))
GOLDEN_TEXT = [p.read_text(encoding="utf-8") for p in GOLDEN]

FUZZ = settings(max_examples=250, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
FUZZ_SMALL = settings(max_examples=120, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

T = TypeVar("T")
JsonPath = tuple[str | int, ...]

# ----- the raw material of mistakes -----------------------------------------------------

BAD_CARDS = ("5h", "10D", "10d", "♥A", "A♥", "a♥", "ZZ", "", " ", "5H ", " 5H", "1H", "11H",
             "TT", "5X", "ＡＨ", "²H", "AHH", "H5", "10", "T", "5\u200bH", "5H\n", "\U0001f0b1",
             "JOKER", "null", "AH", "5H", "JD", "\ud800", "5\udc80")
SEATS = ("-1", "99", "x", "", "0", "1", "2", "3", "4", "5", "6", "00", "²", "٣", "1.0", "+1",
         "9" * 5000, "0x1", "０")
VERBS = ("pass", "bid", "hold", "raise", "trump", "discard", "rob", "call", "play", "PLAY",
         "Pass", "bet", "trumps", "", "fold", "play5H", "ｐｌａｙ")
ARGS = ("0", "35", "30for60", "60for120", "30-for-60", "30 for 60", "abc", "-5", "15", "20",
        "25", "30", "7", "13", "14", "1", "H", "h", "hearts", "♥", "X", "none", "\udc80", "5H",
        "JD AH", "5H 5H", "AH JH KH QH TH 9H", "²", "9" * 5000, "", "10H", "5♥")
BAD_PRESETS = ("merrimack", "Merrimack Valley", "MV", "45", "nova_scotia", "auction 45",
               "forty one", "forty-twos", "", " ", "m-v", "cyp", "41", "x" * 300, "♥")
OPTION_NAMES = (*sorted({o.name for o in OPTIONS}), "lead-", "Lead", "LEAD", "bid-30-for-60",
                "players ", "", "colour", "target\n", "min bid")
OPTION_VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, 2, 3, 4, 5, 6, 7, 15, 20, 41, 45, 100, 120, -1, 10**30, -10**30,
    1.5, float("nan"), float("inf"), "4", " 4 ", "true", "yes", "off", "null", "none", "²",
    "--5", "-5", "9" * 5000, "1\n2", "pairs", "individual", "three-pairs", "two-threes",
    "open", "single", "none", "hold-reopens", "left-of-bidder", "bidder", "top3", "five-only",
    "redeal", "best-of-3", "by-threes", "lower-partner", "team-total", [], [4], {}, {"a": 1},
    "", "\u00a0")
WILD: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 3, 4, 5, 99, 10**40, -10**40, 2**63, 2.5, -0.0,
    float("nan"), float("inf"), "", "x", "merrimack-valley", "forties-record/1", "5H", "♥",
    [], [1], ["5H"], [[]], {}, {"preset": "mv"}, {"hands": []}, "0 play 5H", [None])


class Chooser(Protocol):
    """Where a mutation's choices come from: hypothesis (shrinkable) or a seeded Random."""

    def pick(self, options: Sequence[T]) -> T: ...

    def number(self, lo: int, hi: int) -> int: ...

    def value(self) -> Any: ...


def json_values() -> st.SearchStrategy[Any]:
    """Any JSON-like value, nested a little: the wrong type in the wrong place."""
    scalars = (st.none() | st.booleans() | st.integers(-10, 60) | st.integers()
               | st.sampled_from([10**40, -10**40, 2**63]) | st.floats()
               | st.text(max_size=8) | st.sampled_from(WILD))
    keys = st.text(max_size=6) | st.sampled_from(
        ["preset", "options", "hands", "deal", "actions", "kitty", "stock"])
    return st.recursive(scalars, lambda c: st.lists(c, max_size=4)
                        | st.dictionaries(keys, c, max_size=3), max_leaves=8)


JSON_VALUES = json_values()


class HypothesisChooser:
    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def pick(self, options: Sequence[T]) -> T:
        return self.data.draw(st.sampled_from(options))

    def number(self, lo: int, hi: int) -> int:
        return self.data.draw(st.integers(lo, hi))

    def value(self) -> Any:
        return self.data.draw(JSON_VALUES)


class RandomChooser:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def number(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def value(self) -> Any:
        kind = self.rng.randrange(4)
        if kind == 0:
            return [self.pick(WILD) for _ in range(self.rng.randrange(4))]
        if kind == 1:
            return {self.pick(("a", "preset", "hands", "")): self.pick(WILD)}
        return self.pick(WILD)


# ----- walking and editing JSON trees ------------------------------------------------------


def nodes(obj: Any, path: JsonPath = ()) -> Iterator[tuple[JsonPath, Any]]:
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from nodes(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from nodes(v, (*path, i))


def get_at(obj: Any, path: JsonPath) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def set_at(root: Any, path: JsonPath, value: Any) -> Any:
    if not path:
        return value
    get_at(root, path[:-1])[path[-1]] = value
    return root


def op_replace(obj: Any, ch: Chooser) -> Any:
    """Any value anywhere becomes a value of another type (or the same, wrong)."""
    path, _ = ch.pick(list(nodes(obj)))
    return set_at(obj, path, ch.value())


def op_drop_key(obj: Any, ch: Chooser) -> Any:
    dicts = [(p, v) for p, v in nodes(obj) if isinstance(v, dict) and v]
    if dicts:
        _, d = ch.pick(dicts)
        del d[ch.pick(sorted(d))]
    return obj


def op_swap_keys(obj: Any, ch: Chooser) -> Any:
    dicts = [(p, v) for p, v in nodes(obj) if isinstance(v, dict) and len(v) >= 2]
    if dicts:
        _, d = ch.pick(dicts)
        keys = sorted(d)
        a = ch.pick(keys)
        b = ch.pick([k for k in keys if k != a])
        d[a], d[b] = d[b], d[a]
    return obj


def op_list(obj: Any, ch: Chooser) -> Any:
    """Truncate, extend, reorder or thin a list: a deal, the actions, the hands, players."""
    lists = [(p, v) for p, v in nodes(obj) if isinstance(v, list)]
    if not lists:
        return obj
    _, lst = ch.pick(lists)
    how = ch.pick(("truncate", "extend", "duplicate", "swap", "delete", "reverse"))
    if how == "truncate":
        del lst[ch.number(0, len(lst)):]
    elif how == "extend":
        lst.append(ch.value())
    elif how == "duplicate" and lst:
        i = ch.number(0, len(lst) - 1)
        lst.insert(ch.number(0, len(lst)), copy.deepcopy(lst[i]))
    elif how == "swap" and len(lst) >= 2:
        i, j = ch.number(0, len(lst) - 1), ch.number(0, len(lst) - 1)
        lst[i], lst[j] = lst[j], lst[i]
    elif how == "delete" and lst:
        del lst[ch.number(0, len(lst) - 1)]
    elif how == "reverse":
        lst.reverse()
    return obj


def op_card(obj: Any, ch: Chooser) -> Any:
    """A card of a deal is misspelt, unknown, or another card already dealt."""
    cards = [p for p, v in nodes(obj) if isinstance(v, str) and "deal" in p]
    if cards:
        set_at(obj, ch.pick(cards), ch.pick(BAD_CARDS))
    return obj


def made_up_action(ch: Chooser) -> str:
    parts = [ch.pick(SEATS), ch.pick(VERBS)]
    parts += [ch.pick(ARGS) for _ in range(ch.number(0, 2))]
    return ch.pick((" ", "  ", "\t", " \u00a0")).join(parts)


CARD_NAMES = tuple(r + s for s in "CDHS" for r in "23456789TJQKA")


def plausible_action(ch: Chooser) -> str:
    """A well-formed action, most often against the rules: the wrong seat, card or bid."""
    seat, verb = ch.number(0, 5), ch.pick(("pass", "bid", "hold", "raise", "trump", "discard",
                                           "rob", "call", "play", "play", "play"))
    if verb in ("pass", "hold"):
        return f"{seat} {verb}"
    if verb in ("bid", "raise"):
        return f"{seat} {verb} {ch.pick(('15', '20', '25', '30', '30for60', '7', '0', '35'))}"
    if verb == "trump":
        return f"{seat} trump {ch.pick('CDHS')}"
    if verb == "call":
        return f"{seat} call {ch.pick(('none', *CARD_NAMES))}"
    k = 1 if verb in ("play", "rob") else ch.number(0, 3)
    cards = {ch.pick(CARD_NAMES) for _ in range(k)}
    return " ".join([str(seat), verb, *sorted(cards)])


def tweak_action(text: str, ch: Chooser) -> str:
    words = text.split()
    how = ch.pick(("plausible", "plausible", "plausible", "spaces", "seat", "drop-last",
                   "add", "upper", "verb", "new", "empty"))
    if how == "plausible":
        return plausible_action(ch)
    if how == "spaces":
        return "  " + "   ".join(words) + " \t"
    if how == "seat" and words:
        return " ".join([ch.pick(SEATS), *words[1:]])
    if how == "drop-last" and words:
        return " ".join(words[:-1])
    if how == "add":
        return f"{text} {ch.pick(ARGS)}"
    if how == "upper":
        return text.upper()
    if how == "verb" and len(words) >= 2:
        return " ".join([words[0], ch.pick(VERBS), *words[2:]])
    if how == "empty":
        return ""
    return made_up_action(ch)


def op_action(obj: Any, ch: Chooser) -> Any:
    acts = [(p, v) for p, v in nodes(obj) if isinstance(v, str) and "actions" in p]
    if acts:
        path, text = ch.pick(acts)
        set_at(obj, path, tweak_action(text, ch))
    else:
        hands = obj.get("hands") if isinstance(obj, dict) else None
        if isinstance(hands, list) and hands and isinstance(hands[0], dict):
            hands[0]["actions"] = [made_up_action(ch)]
    return obj


def _hand_dicts(obj: Any) -> list[dict[str, Any]]:
    hands = obj.get("hands") if isinstance(obj, dict) else None
    if not isinstance(hands, list):
        return []
    return [h for h in hands if isinstance(h, dict) and isinstance(h.get("actions"), list)]


def op_move_action(obj: Any, ch: Chooser) -> Any:
    """An action written into another hand (or another place in its own)."""
    hands = _hand_dicts(obj)
    src = [h for h in hands if h["actions"]]
    if src:
        a = ch.pick(src)["actions"]
        text = a.pop(ch.number(0, len(a) - 1))
        b = ch.pick(hands)["actions"]
        b.insert(ch.number(0, len(b)), text)
    return obj


def op_hands(obj: Any, ch: Chooser) -> Any:
    hands = obj.get("hands") if isinstance(obj, dict) else None
    if not isinstance(hands, list):
        return obj
    how = ch.pick(("delete", "duplicate", "swap", "empty", "no-actions", "no-deal"))
    if how == "delete" and hands:
        del hands[ch.number(0, len(hands) - 1)]
    elif how == "duplicate" and hands:
        hands.insert(ch.number(0, len(hands)), copy.deepcopy(ch.pick(hands)))
    elif how == "swap" and len(hands) >= 2:
        hands.reverse()
    elif how == "empty":
        hands.clear()
    elif how in ("no-actions", "no-deal") and hands and isinstance(hands[-1], dict):
        hands[-1].pop("actions" if how == "no-actions" else "deal", None)
    return obj


def bad_rules(ch: Chooser) -> Any:
    how = ch.pick(("preset", "option", "options-type", "list", "number", "extra-key", "null"))
    if how == "preset":
        return ch.pick([*BAD_PRESETS, *PRESETS])
    if how == "option":
        return {"preset": ch.pick([*PRESETS, *BAD_PRESETS]),
                "options": {ch.pick(OPTION_NAMES): ch.pick(OPTION_VALUES)
                            for _ in range(ch.number(1, 3))}}
    if how == "options-type":
        return {"preset": ch.pick(list(PRESETS)), "options": ch.pick(([], "lead", 4, None))}
    if how == "list":
        return [ch.pick(list(PRESETS)), {"lead": "bidder"}]
    if how == "number":
        return ch.pick((0, 45, 41, 1.5))
    if how == "extra-key":
        return {"preset": "merrimack-valley", "option": {"lead": "bidder"}}
    return None


def op_rules(obj: Any, ch: Chooser) -> Any:
    if not isinstance(obj, dict):
        return obj
    rules = obj.get("rules")
    opts = rules.get("options") if isinstance(rules, dict) else None
    if isinstance(opts, dict) and ch.number(0, 1):
        opts[ch.pick(OPTION_NAMES)] = ch.pick(OPTION_VALUES)
    else:
        obj["rules"] = bad_rules(ch)
    return obj


def op_players(obj: Any, ch: Chooser) -> Any:
    if not isinstance(obj, dict):
        return obj
    players = obj.get("players")
    n = len(players) if isinstance(players, list) else 4
    obj["players"] = ch.pick((
        [f"P{i}" for i in range(n + 1)], [f"P{i}" for i in range(max(n - 1, 0))],
        list(range(n)), [None] * n, ["Ann", 2, "Cy", "Di", "Ed"][:n], "Ann Bob Cy Di", [],
        {"0": "Ann"}, [["Ann"]] * n, ["", "\n", "♥", "x" * 500, "Ed", "Flo"][:n],
        ["\ud800", "Bob", "Cy", "Di", "Ed", "Flo"][:n]))
    return obj


def op_first_dealer(obj: Any, ch: Chooser) -> Any:
    if isinstance(obj, dict):
        obj["first_dealer"] = ch.pick((-1, 4, 5, 6, 99, "0", "x", 1.0, 2.5, True, None, [0],
                                       10**30, -(10**30), float("nan")))
    return obj


RECORD_OPS: tuple[Callable[[Any, Chooser], Any], ...] = (
    op_replace, op_drop_key, op_swap_keys, op_list, op_card, op_action, op_action, op_action,
    op_action, op_move_action, op_move_action, op_hands, op_rules, op_players, op_first_dealer)


def text_op(text: str, obj: Any, ch: Chooser) -> str:
    """Damage to the text itself: cut short, doubled keys, deep nesting, huge numbers."""
    how = ch.pick(("none",) * 12 + ("truncate", "dup-key-first",
                   "dup-key-last", "nest", "huge-int", "bom", "char"))
    if how == "truncate":
        return text[:ch.number(0, len(text))]
    if how in ("dup-key-first", "dup-key-last") and isinstance(obj, dict) and obj:
        key = ch.pick(sorted(obj))
        pair = f"{json.dumps(key)}: {json.dumps(ch.value())}"
        body = json.dumps(obj)
        if how == "dup-key-first":
            return "{" + pair + ", " + body[1:]
        return body[:-1] + ", " + pair + "}"
    if how == "nest":
        depth = ch.pick((50, 5000, 200_000))
        return "[" * depth + text + "]" * ch.pick((0, depth))
    if how == "huge-int" and isinstance(obj, dict):
        return json.dumps({**obj, "first_dealer": 0})[:-1] + ', "first_dealer": ' \
            + "9" * ch.pick((30, 5000)) + "}"
    if how == "bom":
        return "\ufeff" + text
    if how == "char" and text:
        i = ch.number(0, len(text) - 1)
        return text[:i] + ch.pick(("}", "]", ",", '"', "\\", "\x00", "♥", "\n")) + text[i:]
    return text


def mutant(ch: Chooser) -> str:
    """A golden record after one to three structured mutations, as text."""
    obj: Any = json.loads(ch.pick(GOLDEN_TEXT))
    for _ in range(ch.pick((1, 1, 1, 2, 3))):
        obj = ch.pick(RECORD_OPS)(obj, ch)
    return text_op(json.dumps(obj), obj, ch)


def action_mutant(ch: Chooser) -> str:
    """A golden record whose last hand has well-formed actions replaced, inserted, dropped,
    doubled or swapped: a game with, most often, an illegal move in it."""
    obj: Any = json.loads(ch.pick(GOLDEN_TEXT))
    acts: list[str] = obj["hands"][-1]["actions"]
    for _ in range(ch.number(1, 3)):
        how = ch.pick(("replace", "insert", "append", "delete", "duplicate", "swap"))
        i = ch.number(0, max(len(acts) - 1, 0))
        if how == "replace" and acts:
            acts[i] = plausible_action(ch)
        elif how in ("insert", "append"):
            acts.insert(i if how == "insert" else len(acts), plausible_action(ch))
        elif how == "delete" and acts:
            del acts[i]
        elif how == "duplicate" and acts:
            acts.insert(i, acts[i])
        elif how == "swap" and acts:
            j = ch.number(0, len(acts) - 1)
            acts[i], acts[j] = acts[j], acts[i]
    return json.dumps(obj)


# ----- what a verdict must look like ---------------------------------------------------------

VERDICT_KEYS = {"ok", "sides", "hands", "scores", "over", "winner", "to_act", "legal"}
HAND_KEYS = {"dealer", "bidder", "bid", "trump", "tricks", "points", "scores"}


def one_line(message: str) -> None:
    assert message.strip(), "an error must say something"
    assert "\n" not in message.strip(), f"an error must be one line: {message!r}"
    assert "Traceback" not in message


def check_verdict(rec: Record, verdict: dict[str, Any], status: int) -> None:
    """The verdict is plain JSON with the keys record.md lists, consistent with the status."""
    assert status in (0, 1)
    assert json.loads(json.dumps(verdict, allow_nan=False)) == verdict
    assert verdict.keys() >= VERDICT_KEYS
    assert verdict["ok"] is (status == 0)
    for h in verdict["hands"]:
        assert h.keys() >= HAND_KEYS
        if rec.rules.game == "forty-one":  # each seat's bid, and no single bidder
            assert "bids" in h and h["bidder"] is None and h["trump"] == "H"
    if status == 1:
        err = verdict["error"]
        assert set(err) == {"hand", "index", "action", "reason"}
        # the error points at the very action of the record, and says why in words
        assert err["action"] == rec.hands[err["hand"]].actions[err["index"]]
        assert isinstance(err["reason"], str)
        one_line(err["reason"])
        assert len(verdict["hands"]) == err["hand"] + 1
    else:
        assert "error" not in verdict
    if verdict["over"]:
        assert verdict["to_act"] is None and verdict["legal"] is None
    elif verdict["to_act"] is None:
        assert verdict["legal"] == []
    else:
        seat = verdict["to_act"]
        assert verdict["legal"], "a seat to act has something legal to do"
        for text in verdict["legal"]:
            a = Action.parse(text)  # written as in a record: it reads back as itself
            assert str(a) == text and a.seat == seat


def judge(text: str) -> int:
    """What ``forties check`` must answer for ``text``, checked the way the command does it.

    Only RecordError (exit 2) may escape the reader and the referee; ``show`` renders
    the same record or refuses it with RecordError too.
    """
    try:
        rec = Record.loads(text)
        verdict, status = referee(rec)
    except RecordError as e:
        one_line(str(e))
        return 2
    check_verdict(rec, verdict, status)
    try:
        shown = render(rec)
    except RecordError as e:  # pragma: no cover - referee would have refused it first
        one_line(str(e))
    else:
        shown.encode("utf-8")  # printable: the command writes it to standard output
    return status


# ----- 1. records, through the API the command uses ----------------------------------------


def test_golden_records_are_found() -> None:
    """The fuzzing starts from every golden record of every folder."""
    assert len(GOLDEN) >= 100
    assert {p.parent.name for p in GOLDEN} >= {"ff_deal_auction", "ff_play_score"}


@FUZZ
@given(st.data())
def test_mutated_records_give_a_verdict_or_record_error(data: st.DataObject) -> None:
    """Any mangled golden record gets exit 0 or 1 with a full verdict, or a RecordError."""
    assert judge(mutant(HypothesisChooser(data))) in (0, 1, 2)


@FUZZ
@given(st.data())
def test_illegal_moves_in_a_game_are_exit_1_not_2(data: st.DataObject) -> None:
    """Well-formed actions out of turn, out of order or against the rules, in the last hand
    of a good record, are a game with an illegal action (exit 1) or still a legal one (0):
    never 'not a game'."""
    assert judge(action_mutant(HypothesisChooser(data))) in (0, 1)


@pytest.mark.parametrize("path", GOLDEN, ids=[f"{p.parent.name}/{p.name}" for p in GOLDEN])
def test_golden_records_themselves_are_judged(path: Path) -> None:
    """Unmangled, every golden record is a game: exit 0 or 1, never 2."""
    assert judge(path.read_text(encoding="utf-8")) in (0, 1)


# ----- 1b. records, through the real command -----------------------------------------------


def run_cli(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(FORTIES), *args], input=stdin, capture_output=True,
                          timeout=60, check=False)


def cli_says(proc: subprocess.CompletedProcess[bytes], allowed: set[int]) -> str:
    """Common checks of one run: a documented status, no traceback, one line for errors."""
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode in allowed, (proc.returncode, out[-500:], err[-2000:])
    assert "Traceback" not in out and "Traceback" not in err, err[-2000:]
    if proc.returncode == 2:
        assert err.count("\n") == 1 and err.endswith("\n"), err
        assert err.startswith("forties: ")
        assert out == ""
    return out


def test_cli_check_and_show_on_mutants(tmp_path: Path) -> None:
    """40 mangled records through ``forties check`` and ``forties show``: exit 0/1/2 as the
    API says, the same verdict as the API, one line on stderr for 2, no traceback.

    All run in one process (run_many, each as the command line would run it); one job of
    each kind (check a file, check standard input, show) and of each exit status also runs
    through the installed script, which must say the same byte for byte."""
    jobs: list[tuple[list[str], bytes | None, str, int]] = []
    for i in range(40):
        ch = RandomChooser(1000 + i)
        text = action_mutant(ch) if i % 4 == 1 else mutant(ch)
        expected = judge(text)
        f = tmp_path / f"m{i}.json"
        f.write_bytes(text.encode("utf-8", "surrogatepass"))
        if i % 8 == 7:
            jobs.append((["check", "-"], text.encode("utf-8", "surrogatepass"), text, expected))
        else:
            jobs.append((["check", str(f)], None, text, expected))
        if i % 4 == 0:
            jobs.append((["show", str(f)], None, text, expected))
    # not a text file at all, a missing file, an empty one
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe{\x00")
    (tmp_path / "empty.json").write_bytes(b"")
    for name in ("bin.json", "missing.json", "empty.json"):
        jobs.append((["check", str(tmp_path / name)], None, "", 2))
    jobs.append((["show", str(tmp_path / "bin.json")], None, "", 2))
    jobs.append((["check", "-"], b"\xff\xfe", "", 2))

    statuses = {job[3] for job in jobs}
    assert statuses >= {0, 1, 2}, "the sample should reach every exit status"
    runs = [(args, stdin, None, None) for args, stdin, _, _ in jobs]
    done = run_many(runs)
    compared: set[tuple[str, bool, int]] = set()
    for run, job, proc in zip(runs, jobs, done, strict=True):
        args, _, text, expected = job
        out = cli_says(proc, {0, 1, 2})
        # show exits as check does: 1 for an illegal action (written into the history
        # where the record stops), 2 for what is no game at all
        assert proc.returncode == expected, (args, text[:300])
        if args[0] == "check" and expected != 2:
            assert json.loads(out) == referee(Record.loads(text))[0]
        kind = (args[0], args[1] == "-", expected)
        if kind not in compared:
            compared.add(kind)
            same_as_installed(run, proc)
    assert len(compared) >= 6


# ----- 2. state snapshots --------------------------------------------------------------------

GAME_RULES: tuple[Rules, ...] = (
    *(build_rules(p) for p in PRESETS),
    build_rules("merrimack-valley", {"players": 6}),
    build_rules("merrimack-valley", {"dealer_robs_pack": True, "four_and_a_flip": True}),
    build_rules("auction-45", {"match": "best-of-3", "go_on_kitty": True,
                               "lock_at": None, "target": 25}),
)


def random_state(data: st.DataObject) -> GameState:
    """A game of some rules after a random number of random legal actions."""
    rules = data.draw(st.sampled_from(GAME_RULES))
    state = new_game(rules, seed=data.draw(st.integers(0, 2**32)),
                     first_dealer=data.draw(st.integers(0, rules.players - 1)))
    for _ in range(data.draw(st.integers(0, 70))):
        if state.over:
            break
        if state.hand_over:
            state.next_hand()
            continue
        legal = state.legal_actions()
        state.apply(legal[data.draw(st.integers(0, len(legal) - 1))])
    return state


def op_state_field(obj: Any, ch: Chooser) -> Any:
    """A snapshot field (dealer, scores, seed...) gets a wrong number or a wrong type."""
    if not isinstance(obj, dict):
        return obj
    key = ch.pick(("dealer", "first_dealer", "hand_index", "seed", "scores", "games",
                   "format", "game", "actions"))
    bad: tuple[Any, ...] = (
        -1, -3, 4, 6, 99, 10**30, 2.5, float("inf"), float("nan"), "1", "x", True, None, [],
        [0], [0, 0, 0, 0, 0, 0, 0], [float("inf"), 0], [float("nan"), 1], ["9" * 5000, 0],
        [None, 0], {"0": 1}, "0 pass")
    obj[key] = ch.pick(bad)
    return obj


STATE_OPS: tuple[Callable[[Any, Chooser], Any], ...] = (
    op_replace, op_drop_key, op_swap_keys, op_list, op_card, op_action, op_action,
    op_state_field, op_state_field, op_state_field, op_state_field, op_rules)


@FUZZ_SMALL
@given(st.data())
def test_mutated_state_snapshots_give_a_state_or_state_error(data: st.DataObject) -> None:
    """GameState.from_json on a mangled snapshot raises only StateError; a snapshot it
    accepts is a working game: it writes itself back unchanged, shows every seat its view,
    and plays on to the end of the hand."""
    state = random_state(data)
    ch = HypothesisChooser(data)
    obj: Any = copy.deepcopy(state.to_json())
    for _ in range(ch.number(1, 3)):
        obj = ch.pick(STATE_OPS)(obj, ch)
    try:
        back = GameState.from_json(obj)
    except StateError as e:
        one_line(str(e))
        return
    snap = back.to_json()
    assert json.loads(json.dumps(snap, allow_nan=False)) == snap
    assert GameState.from_json(snap).to_json() == snap
    for seat in (None, *range(back.n)):
        json.dumps(back.view(seat), allow_nan=False)
    for _ in range(80):
        legal = back.legal_actions()
        if not legal:
            break
        back.apply(legal[0])
    assert back.hand_over or back.turn is not None


def test_unmutated_snapshots_read_back() -> None:
    """The control: a snapshot as written reads back as the same position."""
    state = new_game("auction-45", seed=5)
    for _ in range(9):
        state.apply(state.legal_actions()[-1])
    assert GameState.from_json(state.to_json()).to_json() == state.to_json()


# ----- 2b. action text ------------------------------------------------------------------------


def action_texts() -> st.SearchStrategy[Any]:
    words = st.lists(st.sampled_from([*SEATS, *VERBS, *ARGS, *BAD_CARDS]) | st.text(max_size=5),
                     min_size=0, max_size=5)
    joined = st.builds(lambda ws, sep: sep.join(ws), words, st.sampled_from([" ", "  ", "\t"]))
    return st.one_of(st.text(), joined, st.none(), st.integers(), st.lists(st.text()),
                     st.binary(max_size=8))


@FUZZ
@given(action_texts())
def test_action_parse_raises_only_action_syntax_error(text: Any) -> None:
    """Any text is an action or an ActionSyntaxError with a one-line message; an action
    read is written back as a line that reads as the same action."""
    try:
        a = Action.parse(text)
    except ActionSyntaxError as e:
        one_line(str(e))
        return
    assert Action.parse(str(a)) == a


# ----- 2c. rules --------------------------------------------------------------------------------


def option_dicts() -> st.SearchStrategy[dict[Any, Any]]:
    names = st.sampled_from(OPTION_NAMES) | st.text(max_size=8) | st.integers(0, 3)
    values = (st.sampled_from(OPTION_VALUES) | JSON_VALUES
              | st.sampled_from([{1, 2}, (4,), b"4", frozenset(), object]))
    return st.dictionaries(names, values, max_size=4)


@FUZZ
@given(st.sampled_from([*PRESETS, *BAD_PRESETS]) | st.text(max_size=12), option_dicts())
def test_build_rules_raises_only_rules_error(preset: str, options: dict[Any, Any]) -> None:
    """Any preset name and option dict builds rules or raises RulesError in one line; rules
    built are written to a record's form and read back as the same rules."""
    try:
        rules = build_rules(preset, options)
    except RulesError as e:
        one_line(str(e))
        return
    again = build_rules(rules.preset, rules.to_json().get("options", {}))
    assert again == rules


def toml_texts() -> st.SearchStrategy[str]:
    scalar = st.sampled_from(['"merrimack-valley"', '"nova-scotia"', '"xx"', "4", "-1",
                              "true", "1979-05-27", "1979-05-27T07:32:00Z", "07:32:00", "1.5",
                              "inf", "nan", "[1, 2]", "{a = 1}", '"²"', '"--5"', '"1\\n2"',
                              "9" * 40, "[" * 3000])
    key = st.sampled_from(["preset", "options", "lead", "players", "target", "x", "rules"])
    line = st.builds(lambda k, v: f"{k} = {v}", key, scalar) | st.sampled_from(
        ["[options]", "[rules]", "[[options]]", "preset = ", "= 4", "[options", ""])
    return st.lists(line, max_size=6).map("\n".join)


def json_rules_texts() -> st.SearchStrategy[str]:
    obj = st.fixed_dictionaries(
        {"preset": st.sampled_from([*PRESETS, *BAD_PRESETS]) | JSON_VALUES},
        optional={"options": option_dicts().map(
            lambda d: {str(k): v for k, v in d.items() if not isinstance(v, (set, tuple,
                                                                              bytes, type,
                                                                              frozenset))})})
    return obj.map(json.dumps) | st.text()


@pytest.fixture(scope="module")
def rules_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("rules")


@FUZZ_SMALL
@given(st.sampled_from([".toml", ".json", ".JSON", ".txt", ""]),
       (toml_texts() | json_rules_texts()).map(lambda t: t.encode("utf-8", "surrogatepass"))
       | st.binary(max_size=20))
def test_load_rules_file_raises_only_rules_error(rules_dir: Path, suffix: str,
                                                 content: bytes) -> None:
    """A house rules file of any content gives rules or one RulesError line."""
    path = rules_dir / f"house{suffix}"
    path.write_bytes(content)
    try:
        load_rules_file(path)
    except RulesError as e:
        one_line(str(e))


def option_args() -> st.SearchStrategy[str]:
    name = st.sampled_from(OPTION_NAMES) | st.text(max_size=6)
    value = st.sampled_from([str(v) for v in OPTION_VALUES]) | st.text(max_size=6)
    return st.builds(lambda n, v, sep: f"{n}{sep}{v}", name, value,
                     st.sampled_from(["=", " = ", "==", ":", ""])) | st.text(max_size=10)


@FUZZ_SMALL
@given(st.lists(option_args(), min_size=1, max_size=3))
def test_cli_option_parsing_in_process(options: list[str]) -> None:
    """``forties rules show merrimack-valley -o TEXT``: exit 0 with the listing, or exit 2
    with one line on standard error; never an exception."""
    args = ["rules", "show", "merrimack-valley"]
    for o in options:
        args += ["-o", o]
    result = CliRunner().invoke(cli_main, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        repr(result.exception)
    assert result.exit_code in (0, 2)
    if result.exit_code == 2:
        one_line(result.stderr)
        assert result.stderr.startswith("forties: ")
    else:
        assert result.stdout.startswith("merrimack-valley: ")


def test_cli_option_parsing_subprocess() -> None:
    """The same through the real command, with text a shell user might type."""
    texts = ["lead=left-of-bidder", "lead", "=", "players=²", "players=--5", "target=1\n2",
             "target=" + "9" * 5000, "lead==bidder", "-x", "bid-30-for-60=yes", "♥=♥"]
    rng = RandomChooser(7)
    alphabet = "ab=-_ 0123456789²♥é\t"
    texts += ["".join(rng.pick(alphabet) for _ in range(rng.number(0, 12))) for _ in range(3)]

    def one(text: str) -> int:
        proc = run_cli(["rules", "show", "merrimack-valley", "-o", text])
        out = cli_says(proc, {0, 2})
        if proc.returncode == 0:
            assert out.startswith("merrimack-valley: ")
        return proc.returncode

    with ThreadPoolExecutor(max_workers=4) as pool:
        codes = list(pool.map(one, texts))
    assert codes[0] == 0 and codes[1] == 2  # a good option is taken; a bare word is refused


# ----- 3. regressions: each crash the fuzzing found, as its smallest example -----------------


@pytest.mark.parametrize("text", ["² pass", "0 bid ²", "9" * 5000 + " pass", "0 bid " + "9" * 5000,
                                  "٣ bid ²"])
def test_regression_digit_like_seat_or_bid(text: str) -> None:
    """'²' passes str.isdigit but is no number, and 5000 digits exceed int()'s limit: both
    were ValueError tracebacks; they are not actions."""
    with pytest.raises(ActionSyntaxError):
        Action.parse(text)


def test_regression_unprintable_player_name_or_action(tmp_path: Path) -> None:
    """JSON's "\\ud800" escape makes a string no output can print: ``forties show`` died
    with UnicodeEncodeError writing such a player name or action. A record holding one is
    not a game (exit 2, one line), for ``check`` and ``show`` alike."""
    for where in ("players", "actions"):
        obj = json.loads(GOLDEN_TEXT[0])
        if where == "players":
            obj["players"][0] = "\ud800"
        else:
            obj["hands"][0]["actions"][0] = "0 play \udc80"
        text = json.dumps(obj)
        assert judge(text) == 2
        path = tmp_path / f"{where}.json"
        path.write_text(text, encoding="ascii")
        for command in ("check", "show"):
            cli_says(run_cli([command, str(path)]), {2})


def test_regression_digit_like_action_in_a_record_is_exit_2() -> None:
    """Through the referee the same action text is a record error (exit 2), not a crash."""
    obj = json.loads(GOLDEN_TEXT[0])
    obj["hands"][0]["actions"] = ["² pass"]
    assert judge(json.dumps(obj)) == 2


@pytest.mark.parametrize("value", ["²", "--5", "9" * 5000, "1\n2", {1, 2}, b"4"])
def test_regression_option_values(value: Any) -> None:
    """Option values that crashed parse_value (int() of '²' or '--5', json.dumps of a set)
    or made a two-line message ('1\\n2' echoed raw) are one-line RulesErrors."""
    for name in ("players", "target", "lead"):
        with pytest.raises(RulesError) as e:
            build_rules("merrimack-valley", {name: value})
        one_line(str(e.value))


@pytest.mark.parametrize("text", ["[" * 200_000, '{"a": ' * 200_000,
                                  '{"format": "forties-record/1", "first_dealer": '
                                  + "9" * 5000 + "}"])
def test_regression_record_text_too_deep_or_number_too_long(text: str) -> None:
    """JSON nested past the recursion limit, or an integer past int()'s digit limit, was a
    RecursionError/ValueError traceback; it is a record that is not a game (exit 2)."""
    assert judge(text) == 2


@pytest.mark.parametrize(("suffix", "content"), [
    (".toml", b"a = " + b"[" * 100_000),
    (".json", b"[" * 200_000),
    (".toml", b'preset = "merrimack-valley"\n[options]\nlead = 1979-05-27\n'),
    (".toml", b'preset = "merrimack-valley"\n[options]\ntarget = 07:32:00\n'),
    (".toml", b"\xff\xfe preset"),
    (".json", b'{"preset": "merrimack-valley", "options": {"target": ' + b"9" * 5000 + b"}}"),
])
def test_regression_rules_files(tmp_path: Path, suffix: str, content: bytes) -> None:
    """Rules files nested too deep, with a TOML date as a value, or not UTF-8 were
    RecursionError/TypeError/UnicodeDecodeError tracebacks; they are RulesErrors, and the
    command says so in one line."""
    path = tmp_path / f"house{suffix}"
    path.write_bytes(content)
    with pytest.raises(RulesError) as e:
        load_rules_file(path)
    one_line(str(e.value))
    cli_says(run_cli(["rules", "show", "merrimack-valley", "--rules", str(path)]), {2})


@pytest.mark.parametrize(("key", "value"), [
    ("scores", [float("inf"), 0]), ("scores", [0]), ("scores", [0, 0, 0]), ("dealer", -3),
    ("dealer", 4), ("dealer", 2.5), ("hand_index", -1), ("seed", "x"), ("seed", [1]),
    ("first_dealer", 1.5), ("games", [1]), ("games", [float("inf"), 0])])
def test_regression_state_snapshot_fields(key: str, value: Any) -> None:
    """Snapshot numbers out of range or of the wrong type were accepted and crashed later
    (a negative dealer: 'negative shift count' when listing bids; one score for two sides:
    IndexError when scoring) or crashed at once (int(inf): OverflowError). Each is a
    StateError now."""
    obj = new_game("merrimack-valley", seed=3).to_json()
    obj[key] = value
    with pytest.raises(StateError):
        GameState.from_json(obj)


def test_regression_six_players_go_on_top_card_runs_out_of_stock() -> None:
    """Six players, kitty 3: the stock holds 52 - 30 - 3 = 19. With go_on_top_card the
    bidder turns up one card from it and then holds that card alone, so he draws 4; the
    five others keep at least 2 (keep_min for six) and draw up to 3 each: 1 + 4 + 15 = 20
    cards, one more than the stock. Replaying such a draw was an IndexError. Now each
    discard is limited to what the stock can still replace: every seat discarding all it
    may, the last discarder is the one held back, and every hand comes back to five."""
    rules = build_rules("merrimack-valley",
                        {"players": 6, "go_on_kitty": True, "go_on_top_card": True})
    for seed in range(20):
        g = new_game(rules, seed=seed)
        while g.phase.value != "draw":
            legal = g.legal_actions()
            goes = [a for a in legal if a.verb.value == "discard"]
            g.apply(goes[0] if goes else legal[-1] if g.phase.value == "auction" else legal[0])
        assert g.hands[g.bidder].bit_count() == 1  # on the top card
        while g.phase.value == "draw":
            legal = g.legal_actions()
            g.apply(max(legal, key=lambda a: a.arg.bit_count()))
        assert all(h.bit_count() == 5 for h in g.hands)
        assert g.stock_pos <= len(g.stock)
