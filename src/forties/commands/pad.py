"""``forties pad``: keep the score of a game played with real cards, in plain lines.

The scorekeeper types one line a hand (``Ann 20 : 20 10``), corrects a hand
(``fix 2 Bob 25 : 10 20``), strikes out the last (``undo``); the pad prints the line it
wrote, the totals and who deals next, and declares the winner. It is saved after every
hand (in the forties data folder unless ``--save`` says where); ``--resume FILE``
carries on, ``--export csv`` prints it as a spreadsheet.
"""

from __future__ import annotations

import datetime as _dt
import json
import sys
from pathlib import Path

import click

from ..actions import ActionSyntaxError, parse_bid
from ..command_line import (
    InputFile,
    OutputFile,
    fail,
    given,
    rules_file_option,
    rules_from_cli,
)
from ..numerals import whole
from ..pad import Entry, Pad, PadError
from ..paths import data_dir
from ..rules import PRESETS, FortyFivesRules, FortyOneRules


def default_pad_path(preset: str) -> Path:
    """A new file in the data folder's pads/, named for now and the preset; made empty
    here, so that two pads started in the same second never share one."""
    from ..tui.session import new_file

    stamp = _dt.datetime.now().strftime("%Y-%m-%d-%H%M%S")
    return new_file(Path(data_dir()) / "pads", f"{stamp}-{preset}")


# ----- one line a hand --------------------------------------------------------------------


def example(pad: Pad) -> str:
    """How to write a hand for these rules."""
    r, names = pad.rules, pad.names
    if isinstance(r, FortyOneRules):
        return "the 4 bids, then the tricks: 3 4 2 3 : 4 3 2 4 (bids only when they are " \
               "thrown in)"
    assert isinstance(r, FortyFivesRules)
    pts = " ".join(["20", "10"] + ["0"] * (len(pad.sides) - 2))
    if r.auction == "none":
        return f"the points: {pts} (the card turned up first if you like: JD : {pts})"
    line = f"bidder bid : points, as {names[1]} 20 : {pts}"
    if r.call_partner:
        line = f"bidder bid with partner : points, as {names[1]} 20 with {names[3]} : " \
               f"0 20 0 10 0 (leave out 'with' when he went alone)"
    if r.all_pass == "redeal":
        line += "; 'pass' when nobody bid"
    return line + "; 'in H' after the bid notes the trump"


def _seat(pad: Pad, word: str) -> int:
    low = word.lower()
    hits = [i for i, n in enumerate(pad.names) if n.lower() == low]
    if not hits:
        hits = [i for i, n in enumerate(pad.names) if n.lower().startswith(low)]
    if len(hits) != 1:
        raise PadError(f"who is {word!r}? the players are {', '.join(pad.names)}")
    return hits[0]


def _numbers(words: list[str], what: str) -> tuple[int, ...]:
    out = []
    for w in words:
        n = whole(w, signed=True, most=5)
        if n is None:
            raise PadError(f"{what}: {w[:20]!r} is not a number")
        out.append(n)
    return tuple(out)


def parse_hand(pad: Pad, line: str) -> Entry:
    """A hand as the scorekeeper types it (see ``example``); PadError when it is not."""
    text = line.replace(",", " ").strip()
    if isinstance(pad.rules, FortyOneRules):
        head, _, tail = text.partition(":")
        return Entry(bids=_numbers(head.split(), "bids"), tricks=_numbers(tail.split(), "tricks"))
    r = pad.rules
    assert isinstance(r, FortyFivesRules)
    if text.lower() in ("pass", "thrown in", "redeal"):
        return Entry(thrown_in=True)
    head, colon, tail = text.partition(":")
    if not colon:
        if r.auction == "none":
            head, tail = "", head
        else:
            raise PadError(f"write the hand as {example(pad)}")
    words = head.split()
    trump = None
    if r.auction == "none":
        if len(words) > 1:
            raise PadError(f"write the hand as {example(pad)}")
        trump = words[0] if words else None
        return Entry(points=_numbers(tail.split(), "points"), trump=trump)
    if len(words) < 2:
        raise PadError(f"write the hand as {example(pad)}")
    bidder = _seat(pad, words[0])
    try:
        bid = parse_bid(words[1])
    except ActionSyntaxError:
        raise PadError(f"{words[1]!r} is not a bid") from None
    partner = None
    rest = words[2:]
    while rest:
        if rest[0].lower() == "with" and len(rest) > 1:
            partner = _seat(pad, rest[1])
        elif rest[0].lower() == "in" and len(rest) > 1:
            trump = rest[1]
        else:
            raise PadError(f"what is {rest[0]!r}? write the hand as {example(pad)}")
        rest = rest[2:]
    return Entry(points=_numbers(tail.split(), "points"), bidder=bidder, bid=bid,
                 partner=partner, trump=trump)


# ----- the pad on paper -------------------------------------------------------------------


def pad_text(pad: Pad) -> str:
    """The whole pad: a line a hand with the running totals, then who deals or who won."""
    names = pad.side_names()
    width = max(8, *(len(n) for n in names))
    lines = [f"{'hand':>4}  {'dealer':<8}" + "".join(f" {n:>{width}}" for n in names)]
    for row in pad.rows:
        lines.append(f"{row.hand:>4}  {pad.names[row.dealer]:<8}"
                     + "".join(f" {s:>{width}}" for s in row.scores) + f"  {row.text}")
    lines.append(foot(pad))
    return "\n".join(lines)


def row_text(pad: Pad) -> str:
    row = pad.rows[-1]
    totals = ", ".join(f"{n} {s}" for n, s in zip(pad.side_names(), row.scores, strict=True))
    return f"Hand {row.hand}: {row.text}\n  Totals: {totals}\n{foot(pad)}"


def foot(pad: Pad) -> str:
    result = pad.result_text()
    if result:
        return f"Game over. {result}."
    return f"Next deal: {pad.names[pad.dealer]} (hand {len(pad.rows) + 1})."


HELP = """One line a hand: {example}.
  fix N <hand>   correct hand N (the hands after it are scored again)
  undo           strike out the last hand
  show           the whole pad
  quit           stop (the pad is saved after every hand)"""


def _save(pad: Pad, path: Path) -> None:
    from ..tui.session import write_atomic

    try:
        write_atomic(path, json.dumps(pad.to_json(), indent=1) + "\n")
    except OSError as e:
        fail(f"{path}: cannot write: {e.strerror}")


def _load(path: str) -> Pad:
    try:
        obj = json.loads(Path(path).read_text(encoding="utf-8-sig"))  # a BOM is let be
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a UTF-8 text file")
    except (ValueError, RecursionError) as e:
        fail(f"{path}: not a score pad (not valid JSON: {str(e)[:60]})")
    try:
        return Pad.from_json(obj)
    except PadError as e:
        fail(f"{path}: {e}")


@click.command("pad")
@click.option("--preset", "-p", default=None,
              help="Rules preset: " + ", ".join(PRESETS) + " (default merrimack-valley).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="House rule: override one option of the preset (repeatable).")
@rules_file_option
@click.option("--names", default=None, metavar="ANN,BOB,...",
              help="The players in seat order, separated by commas (seats 0 and 2 are "
                   "partners at four; default Ann, Bob, Cy...).")
@click.option("--dealer", default=None, metavar="NAME",
              help="Who deals the first hand (default the first player).")
@click.option("--save", type=OutputFile(), default=None,
              help="Keep the pad in this file (default: a new file in the forties data "
                   "folder, pads/).")
@click.option("--resume", type=InputFile(), default=None, metavar="FILE",
              help="Carry on the pad saved in FILE.")
@click.option("--export", "export", type=click.Choice(["csv", "json"]), default=None,
              help="Print the pad of --resume FILE as CSV or JSON and stop.")
@click.pass_context
def pad_command(ctx: click.Context, preset: str | None, options: tuple[str, ...],
                rules_file: str | None, names: str | None, dealer: str | None,
                save: str | None, resume: str | None, export: str | None) -> None:
    """Keep the score of a game played with real cards: one line a hand.

    The pad applies the rules of the preset (made or set, 30 for 60, lock at 100, bidder
    goes out, Forty One's doubling...), shows the totals, says who deals next and who
    won, and why. Type 'help' at the prompt for how to write a hand.

    \b
    Examples:
      forties pad -p auction-45 --names Ann,Bob,Cy,Di
      forties pad -p forty-one --save friday.json
      forties pad --resume friday.json
      forties pad --resume friday.json --export csv > friday.csv
    """
    if export and not resume:
        fail("pad: --export needs --resume FILE (the pad to export)")
    if save and Path(save).exists() and not (resume and Path(save).samefile(resume)):
        fail(f"pad: {save} already exists: carry it on with --resume {save}, or give "
             "--save another name")
    if resume:
        for name in ("preset", "options", "rules_file", "names", "dealer"):
            if given(ctx, name):
                fail(f"pad: --{name.replace('_file', '').replace('options', 'option')} "
                     "cannot be given with --resume: the pad keeps its own")
        pad = _load(resume)
        if export == "csv":
            click.echo(pad.to_csv(), nl=False)
            return
        if export == "json":
            click.echo(json.dumps(pad.summary_json(), indent=1))
            return
        path = Path(save or resume)
    else:
        rules = rules_from_cli(preset, options, rules_file)
        people = [n.strip() for n in names.split(",")] if names else []
        if len(people) > rules.players:
            fail(f"pad: --names gives {len(people)} players; {rules.preset} has "
                 f"{rules.players}")
        try:
            pad = Pad(rules, people)
            if dealer is not None:
                pad = Pad(rules, people, _seat(pad, dealer))
        except PadError as e:
            fail(f"pad: {e}")
        try:
            path = Path(save) if save else default_pad_path(rules.preset)
        except OSError as e:
            fail(f"cannot keep the pad in the data folder: {e.strerror}: {e.filename}")
    _save(pad, path)
    click.echo(f"Score pad: {pad.rules.preset}; {', '.join(pad.side_names())}. "
               f"Saved as it goes in {path}.")
    click.echo(HELP.format(example=example(pad)))
    click.echo(pad_text(pad) if pad.rows else foot(pad))
    run_prompt(pad, path)


def run_prompt(pad: Pad, path: Path) -> None:
    """Read hands and commands until the game is won, 'quit' or the end of the input
    (a pad resumed after its game was won still takes 'fix' and 'undo')."""
    if pad.over:
        click.echo("The game is over: 'fix N ...' or 'undo' to change it, 'quit' to stop.")
    while True:
        click.echo(f"hand {len(pad.rows) + 1}> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            click.echo("")
            break
        text = line.strip()
        words = text.split()
        if not words:
            continue
        cmd = words[0].lower()
        try:
            if cmd in ("quit", "exit", "q"):
                break
            if cmd in ("help", "?"):
                click.echo(HELP.format(example=example(pad)))
                continue
            if cmd == "show":
                click.echo(pad_text(pad))
                continue
            if cmd == "undo":
                pad.remove_last()
                _save(pad, path)
                click.echo(f"Hand {len(pad.rows) + 1} struck out. {foot(pad)}")
                continue
            if cmd == "fix":
                n = whole(words[1], most=4) if len(words) >= 3 else None
                if n is None:
                    raise PadError("write fix N and the hand, as: fix 2 " + example(pad))
                pad.correct(n, parse_hand(pad, text.split(None, 2)[2]))
                _save(pad, path)
                click.echo(pad_text(pad))
                continue
            pad.add(parse_hand(pad, text))
        except PadError as e:
            click.echo(f"forties: {e}", err=True)
            continue
        _save(pad, path)
        click.echo(row_text(pad))
        if pad.over:
            break
    click.echo(f"The pad is saved in {path} (carry on: forties pad --resume {path}).")


__all__ = ["pad_command", "parse_hand"]
