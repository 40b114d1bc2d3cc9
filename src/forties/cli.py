"""The ``forties`` command line: demo games, rules, the referee and hand histories.

Every user mistake (a bad record, an unknown preset or option) gets one line on
standard error and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click

from . import __version__
from .command_line import (
    InputFile,
    OneLineGroup,
    OutputFile,
    fail,
    open_ray,
    rate_line,
    ray_option,
    read_record,
    rules_file_option,
    rules_from_cli,
    shown_path,
    write_file,
)
from .commands.admin import admin
from .commands.hall import hall
from .commands.pad import pad_command
from .commands.play import play, replay
from .commands.serve import serve
from .games import new_game
from .players import LEVELS
from .record import Recorder, RecordError, referee, replay_record
from .rules import PRESETS, FortyFivesRules, RulesError, build_rules, describe
from .show import render

preset_option = click.option(
    "--preset", "-p", default=None,
    help="Rules preset: " + ", ".join(PRESETS) + " (default merrimack-valley, or the "
         "preset of --rules).")
option_option = click.option(
    "--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
    help="Override one option of the preset (repeatable).")


@click.group(cls=OneLineGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="forties")
def main() -> None:
    """Forty-Fives and Forty One: rules, records, and a referee.

    \b
    Examples:
      forties demo --preset auction-45 --seed 7
      forties rules list
      forties check game.json
      forties show game.json
    """


@main.command()
@preset_option
@option_option
@rules_file_option
@click.option("--seed", type=int, default=None, help="Seed for the deals and the players.")
@click.option("--save", type=OutputFile(), default=None,
              help="Write the game record here.")
@click.option("--max-hands", type=click.IntRange(min=1), default=500, show_default=True,
              help="Stop after this many hands.")
@click.option("--level", type=click.Choice(LEVELS), default="basic",
              show_default=True, help="How the computer players play.")
def demo(preset: str | None, options: tuple[str, ...], rules_file: str | None, seed: int | None,
         save: str | None, max_hands: int, level: str) -> None:
    """Computer players play one full game; print its hand history.

    \b
    Examples:
      forties demo
      forties demo --preset nova-scotia --seed 3 --save game.json
      forties demo -p merrimack-valley -o players=6
    """
    from .bots import play_out
    from .players import make_bot
    from .tui.words import default_names

    rules = rules_from_cli(preset, options, rules_file)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 32)
    state = new_game(rules, seed=seed)
    rec = Recorder(state, default_names(state.n, None))
    rng = random.Random(seed)
    play_out(rec, [make_bot(level, rng, seats=[level] * state.n) for _ in range(state.n)],
             max_hands=max_hands)
    click.echo(render(rec.record), nl=False)
    if save:
        write_file(save, rec.record.dumps())
        click.echo(f"Record written to {save}")


@main.group()
def rules() -> None:
    """List the presets, or show every option of one.

    Every preset and option is explained, with its sources, in docs/rules.md.

    \b
    Examples:
      forties rules list
      forties rules show nova-scotia
    """


@rules.command("list")
def rules_list() -> None:
    """Print every preset with a one-line summary.

    \b
    Examples:
      forties rules list
    """
    width = max(len(n) for n in PRESETS)
    for p in PRESETS.values():
        alias = f" (also: {', '.join(p.aliases)})" if p.aliases else ""
        click.echo(f"{p.name:<{width}}  {p.summary}{alias}")


@rules.command("show")
@click.argument("preset", required=False)
@option_option
@rules_file_option
def rules_show(preset: str | None, options: tuple[str, ...], rules_file: str | None) -> None:
    """Print every option of PRESET (or of the house rules in --rules FILE) with its
    value and meaning.

    \b
    Examples:
      forties rules show merrimack-valley
      forties rules show auction-45 -o players=3
      forties rules show --rules house.toml
    """
    if preset is None and rules_file is None:
        fail("name a preset (forties rules list shows them), or give --rules FILE")
    click.echo(describe(rules_from_cli(preset, options, rules_file)))


@main.command()
@click.argument("record", metavar="RECORD|-", type=InputFile(allow_dash=True))
def check(record: str) -> None:
    """Replay a game record and print the referee's verdict as JSON.

    Exit status 0: every action legal; 1: an illegal action (in "error");
    2: not a game record at all (one line on standard error).

    \b
    Examples:
      forties check game.json
      cat game.json | forties check -
    """
    rec = read_record(record)
    try:
        verdict, status = referee(rec)
    except RecordError as e:
        fail(f"{shown_path(record)}: {e}")
    click.echo(json.dumps(verdict))
    sys.exit(status)


@main.command()
@click.argument("record", metavar="RECORD|-", type=InputFile(allow_dash=True))
def show(record: str) -> None:
    """Print a readable hand history of a game record.

    Exit status 0; 1 if the record has an illegal action (the history stops there and
    says why); 2 if it is not a game record at all.

    \b
    Examples:
      forties show game.json
    """
    from .state import IllegalActionError

    rec = read_record(record)
    status = 0
    try:
        text = render(rec)
        replay_record(rec)
    except RecordError as e:  # no game at all: nothing on standard output
        fail(f"{shown_path(record)}: {e}")
    except IllegalActionError:
        status = 1
    click.echo(text, nl=False)
    sys.exit(status)


@main.command()
@click.argument("record", metavar="RECORD|-", type=InputFile(allow_dash=True))
@click.option("--worlds", type=click.IntRange(min=1), default=None,
              help="Imagined deals the expert searches, for a bid as for a card (default: "
                   "24 for a card, 120 for a bid, trump or discard; Forty One: 64 for a "
                   "card, 120 for a bid).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def hint(record: str, worlds: int, as_json: bool) -> None:
    """The expert's advice for the seat to act at the end of RECORD, with the value of
    every legal action; or, if the record ends with a finished hand, its double-dummy par.

    \b
    Examples:
      forties hint game.json
      forties hint --worlds 64 --json game.json
    """
    from .analysis import action_words, par
    from .analysis import hint as advise
    from .state import IllegalActionError
    from .tui.words import pretty

    rec = read_record(record)
    try:
        st = replay_record(rec)
    except RecordError as e:
        fail(f"{shown_path(record)}: {e}")
    except IllegalActionError as e:  # the reason is "hand H, action I: why"
        where, _, why = e.reason.partition(": ")
        fail(f"{shown_path(record)}: {where} ({pretty(str(e.action), False)}) is illegal: "
             f"{pretty(why, False)}", 1)
    if st is None:
        fail("the record has no hand yet")
    if st.turn is not None:
        h = advise(st, worlds=worlds or 24, deals=worlds)
        ranked = sorted(h.values.items(), key=lambda kv: -kv[1])
        if as_json:
            click.echo(json.dumps({"to_act": st.turn, "action": str(h.action),
                                   "values": {str(a): round(v, 2) for a, v in ranked},
                                   "explanation": h.explanation}))
            return
        click.echo(f"{rec.players[st.turn]} to act: {h.explanation}")
        if len(ranked) > 1:
            click.echo("Points of this hand for the side to act over the others, on average:")
            for a, v in ranked:
                mark = "  <- the advice" if a == h.action else ""
                click.echo(f"  {action_words(a):<28} {v:+7.1f}{mark}")
        return
    p = par(st)
    if p is None:
        fail("no par: the hand was thrown in, or the solver is not installed", 1)
    text = p.words(rec.players)  # seats by the record's names, as show and replay say them
    if as_json:
        click.echo(json.dumps({"par": p.points, "seats": list(p.side), "text": text}))
    else:
        click.echo(text)


@main.command()
@click.option("--preset", "-p", "presets", multiple=True,
              help="Preset(s) to compute (default: every preset with an auction).")
@click.option("--deals", type=click.IntRange(min=1), default=400, show_default=True,
              help="Deals per holding and preset.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--markdown", "md_path", type=OutputFile(), default=None,
              help="Also write the table as Markdown here.")
@click.option("--plot", "plot_path", type=OutputFile(), default=None,
              help="Also draw a chart here (PNG; needs matplotlib).")
def odds(presets: tuple[str, ...], deals: int, seed: int, md_path: str | None,
         plot_path: str | None) -> None:
    """How often common holdings (the 5 alone, 5 J, 3 trumps with AH...) make 15, 20, 25
    and 30, computed by dealing and solving thousands of hands.

    \b
    Examples:
      forties odds -p merrimack-valley --deals 200
      forties odds --markdown docs/odds.md --plot docs/odds.png
    """
    from .odds import BIDS, markdown, odds_table

    names = presets or tuple(p for p in PRESETS if p not in ("nova-scotia", "forty-one"))
    chosen = []
    for name in names:
        try:
            rules = build_rules(name)
        except RulesError as e:
            fail(str(e))
        if not isinstance(rules, FortyFivesRules) or rules.auction == "none":
            fail(f"{name} has no bidding: odds are for the auction games")
        chosen.append(rules.preset)
    if plot_path:
        try:
            import matplotlib  # noqa: F401  (checked before the long work, not after)
        except ImportError:
            fail("--plot needs matplotlib: pip install matplotlib")
    table = odds_table(tuple(chosen), deals, seed)
    for preset, rows in table.items():
        click.echo(f"{preset}: share of {deals} deals in which the bidder's side takes at least")
        click.echo(f"  {'holding':<14}" + "".join(f"{b:>6}" for b in BIDS))
        for name, chances in rows.items():
            click.echo(f"  {name:<14}" + "".join(f"{chances[b]:>6.0%}" for b in BIDS))
    if md_path:
        text = markdown(table, deals, seed)
        if plot_path:
            text += f"\n![chances of making each bid]({Path(plot_path).name})\n"
        write_file(md_path, text)
    if plot_path:
        from .odds import plot

        try:
            plot(table, plot_path)
        except OSError as e:
            fail(f"{plot_path}: cannot write: {e.strerror}")


@main.command()
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the shell completion script for SHELL.

    \b
    Examples:
      eval "$(forties completion bash)"        # in ~/.bashrc
      forties completion fish > ~/.config/fish/completions/forties.fish
    """
    from click.shell_completion import get_completion_class

    cls = get_completion_class(shell)
    assert cls is not None
    comp = cls(main, {}, "forties", "_FORTIES_COMPLETE")
    click.echo(comp.source())


@main.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@preset_option
@option_option
@rules_file_option
@click.option("--deals", type=click.IntRange(min=0), default=200, show_default=True,
              help="Deals, each played once per rotation of the teams (points per hand).")
@click.option("--games", type=click.IntRange(min=0), default=20, show_default=True,
              help="Whole games, each played once per rotation (games won).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for deals and bots.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True,
              help="Worker processes.")
@click.option("--play-only", is_flag=True,
              help="The card play alone: every bid, trump, discard and call of a deal is "
                   "made by basic at every seat, so both rotations play the same contract "
                   "and A and B only play the cards (deals only; no games).")
@click.option("--out", type=OutputFile(), default=None,
              help="Write the results as JSON here.")
@ray_option
def arena(a: str, b: str, preset: str | None, options: tuple[str, ...], rules_file: str | None,
          deals: int, games: int, seed: int, jobs: int, play_only: bool, out: str | None,
          ray_address: str | None) -> None:
    """A duplicate match between two computer players A and B (random, basic, ...).

    Every deal is played with the teams swapped, so both players hold the same
    cards. Prints points per hand and games won for A, with 95% intervals.

    \b
    Examples:
      forties arena basic random --deals 2000
      forties arena basic random -p auction-45 --games 100 --out match.json
      forties arena basic random --deals 100000 --ray 10.0.0.5:6379
      forties arena oracle basic --deals 2000 --play-only
    """
    from .arena import run_match
    from .players import PLAYERS, unavailable

    for level in (a, b):
        if level not in PLAYERS:
            fail(f"unknown player {level!r}; players: {', '.join(PLAYERS)}")
        why = unavailable(level)
        if why:
            fail(why)
    if play_only:
        given = click.get_current_context().get_parameter_source("games")
        if games and given is not click.core.ParameterSource.DEFAULT:
            fail("--play-only plays deals, not games (a game's auctions are part of it): "
                 "leave out --games")
        games = 0
    if deals == 0 and games == 0:
        fail("--deals 0 and --games 0: nothing to play")
    rules = rules_from_cli(preset, options, rules_file)
    if "ismcts" in (a, b):
        from .envs.spiel import unsupported

        why = unsupported(rules)
        if why:
            fail(why)
    teams = 2 if rules.game == "forty-one" else len(rules.sides)
    pool = open_ray(ray_address, jobs)
    try:
        with click.progressbar(length=deals + games, label=f"{a} vs {b}",
                               file=sys.stderr) as bar:
            result = run_match(rules, a, b, deals, games, seed=seed, jobs=jobs,
                               progress=bar.update, ray=pool, play_only=play_only)
    finally:
        if pool is not None:
            pool.close()
    if pool is not None:
        where = pool.where()
    else:
        where = f"{jobs} worker processes" if jobs > 1 and deals + games > 1 else "one process"
    pph, gw = result.points_per_hand, result.games_won
    if play_only:
        click.echo(f"{rules.preset}: {a} vs {b}, {deals} deals, each in {teams} rotations "
                   f"with the auction fixed (basic's, the same at both tables), seed {seed}")
    else:
        click.echo(f"{rules.preset}: {a} vs {b}, {deals} deals and {games} games, "
                   f"each in {teams} rotations, seed {seed}")
    click.echo(f"  points per hand for {a}: {pph.mean:+.2f}  (95%: {pph.low:+.2f} .. "
               f"{pph.high:+.2f})")
    if games:
        click.echo(f"  games won by {a}: {gw.mean:.1%}  (95%: {gw.low:.1%} .. {gw.high:.1%})")
    what = "deals" if play_only else "deals and games"
    click.echo(f"  {rate_line(deals + games, what, result.seconds, where)}")
    if out:
        write_file(out, json.dumps(result.to_json(), indent=1) + "\n")


@main.command("warm-up")
@click.option("--all", "everything", is_flag=True,
              help="Also the many-table engine and the research environments (for tests and "
                   "benchmarks), each compiled in its own process.")
def warm_up_command(everything: bool) -> None:
    """Get the computer players' search ready now: numba compiles it once after an install
    or an update (20 to 50 seconds) and keeps it on disk, so that the first expert move or
    hint of a game comes at once. ``make run`` does this before the game.

    \b
    Examples:
      forties warm-up
      forties warm-up --all
    """
    from .paths import configure_cache
    from .warmup import warm_all, warm_up

    where = configure_cache()
    click.echo("Getting the computer players' search ready (compiled once after an install "
               "or an update: 20 to 50 s)...")
    if everything:
        parts = warm_all()
        click.echo("  " + ", ".join(f"{name} {s:.1f} s" for name, s in parts.items()))
        seconds = max(parts.values())
    else:
        seconds = warm_up()
    kept = f" The compiled code is kept in {where}." if where is not None else ""
    click.echo(f"Ready in {seconds:.1f} s.{kept}")


# The clients' and the hall's commands, each in its own module of forties.commands.
for command in (play, replay, hall, serve, pad_command, admin):
    main.add_command(command)

if __name__ == "__main__":  # pragma: no cover
    main()
