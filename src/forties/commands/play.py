"""The ``forties play`` and ``forties replay`` commands (registered by ``forties.cli``).

Textual is imported only when a full-screen command runs, so the other commands
start fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..command_line import (
    InputFile,
    OutputFile,
    fail,
    given,
    read_record,
    rules_file_option,
    rules_from_cli,
    shown_path,
)
from ..players import LEVELS
from ..record import RecordError, replay_record
from ..rules import PRESETS
from ..state import IllegalActionError
from ..tui.session import Session, SessionError, default_save_path


def _option_name(ctx: click.Context, name: str) -> str:
    """How the parameter ``name`` is written on the command line (its longest form)."""
    param = next(p for p in ctx.command.params if p.name == name)
    return max(param.opts, key=len)


def _interactive() -> bool:
    """Whether a full-screen app can run here (a real terminal, not TERM=dumb)."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


# Options that a record fixes, refused with --resume: the game goes on as it began.
FIXED_BY_RECORD = ("preset", "options", "rules_file", "seed", "name")


# The most players the terminal table seats (the engine deals up to ten).
TABLE_SEATS = 6


def _check_seats(players: int) -> None:
    if players > TABLE_SEATS:
        fail(f"the terminal table seats up to {TABLE_SEATS} players, not players={players} "
             "(the engine, forties demo and forties check play up to ten)")


@click.command()
@click.option("--preset", "-p", default=None,
              help="Rules preset: " + ", ".join(PRESETS) + " (default merrimack-valley).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="House rule: override one option of the preset (repeatable).")
@rules_file_option
@click.option("--seat", type=click.IntRange(min=0), default=None,
              help="Your seat, 0 to players-1 (default 0); play goes to the next seat.")
@click.option("--partner", type=click.Choice(LEVELS), default=None,
              help="How your partner plays (default basic; a resumed game keeps its own).")
@click.option("--opponents", type=click.Choice(LEVELS), default=None,
              help="How the other players play (default basic; a resumed game keeps its "
                   "own).")
@click.option("--name", default="You", show_default=True, help="Your name in the record.")
@click.option("--seed", type=int, default=None, help="Seed for the deals (same seed, same "
              "cards).")
@click.option("--save", type=OutputFile(), default=None,
              help="Write the game record here as it goes (default: a new file in the "
                   "forties data folder).")
@click.option("--resume", type=InputFile(), default=None, metavar="RECORD",
              help="Carry on the game saved in RECORD.")
@click.option("--plain", is_flag=True,
              help="Plain lines instead of the full-screen table (any terminal, screen "
                   "readers; honours NO_COLOR).")
@click.option("--delay", type=click.FloatRange(min=0), default=0.6, show_default=True,
              help="Seconds between the computer players' actions on the table (0: at once).")
@click.option("--autoplay/--no-autoplay", default=True, show_default=True,
              help="Play your card by itself when it is the only one you may play.")
@click.option("--auto-next", is_flag=True,
              help="Deal the next hand by itself after each hand's review (shown a few "
                   "seconds), with no key to press.")
@click.pass_context
def play(ctx: click.Context, preset: str | None, options: tuple[str, ...],
         rules_file: str | None, seat: int | None, partner: str | None,
         opponents: str | None, name: str, seed: int | None, save: str | None,
         resume: str | None, plain: bool, delay: float, autoplay: bool,
         auto_next: bool) -> None:
    """Play against computer players in the terminal.

    The game is saved after every action; a crash or Ctrl-C loses nothing.

    \b
    Examples:
      forties play
      forties play --preset nova-scotia --seat 1
      forties play -p auction-45 -o players=3 --opponents random
      forties play --opponents expert --partner expert
      forties play --plain
      forties play --delay 0.3 --auto-next
      forties play --resume ~/.local/share/forties/games/2025-01-01-120000-merrimack-valley.json
    """
    try:
        if resume:
            if save:
                fail("--save and --resume: a resumed game is saved back to its record")
            fixed = [p for p in FIXED_BY_RECORD if given(ctx, p)]
            if fixed:
                names = ", ".join(_option_name(ctx, p) for p in fixed)
                fail(f"--resume carries on a game whose record fixes its rules, seed and "
                     f"names: leave out {names}")
            session = Session.resume(Path(resume).expanduser(), human=seat, partner=partner,
                                     opponents=opponents)
            _check_seats(session.record.rules.players)
        else:
            if save and Path(save).expanduser().exists():
                fail(f"{save} already exists: carry it on with --resume {save}, or give "
                     "--save another name")
            rules = rules_from_cli(preset, options, rules_file)
            _check_seats(rules.players)
            path = Path(save).expanduser() if save else default_save_path(rules.preset)
            try:
                session = Session.start(rules, seed=seed, human=seat or 0,
                                        partner=partner or "basic",
                                        opponents=opponents or "basic", you=name,
                                        save_path=path)
            except SessionError:
                if not save:  # the empty file default_save_path made for this game
                    path.unlink(missing_ok=True)
                raise
    except SessionError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot save the game: {e.strerror}: {e.filename}")
    if plain or not _interactive():
        from ..tui.plain import run_plain

        sys.exit(run_plain(session, resumed=bool(resume), autoplay=autoplay,
                           auto_next=auto_next))

    from ..tui.app import TableApp

    def fresh() -> Session:
        rules = session.record.rules
        return Session.start(rules, human=session.human, levels=session.levels,
                             names=session.record.players,
                             save_path=default_save_path(rules.preset))

    app = TableApp(session, delay=delay, resumed=bool(resume), new_session=fresh,
                   autoplay=autoplay, auto_next=max(4.0, 6 * delay) if auto_next else None)
    app.run()
    final = app.session
    if final.save_path is not None:
        if final.state.over:
            click.echo(f"The game record is in {final.save_path}")
        else:
            click.echo(f"Saved. Resume with: forties play --resume {final.save_path}")


@click.command()
@click.argument("record", metavar="RECORD|-", type=InputFile(allow_dash=True))
@click.option("--plain", is_flag=True, help="Print every hand and action as lines instead.")
def replay(record: str, plain: bool) -> None:
    """Step through a game record with every hand visible.

    ← → one action, PgUp PgDn one hand, Home End, q to quit.

    \b
    Examples:
      forties replay game.json
      forties replay --plain game.json | less
    """
    rec = read_record(record)
    try:  # a record that is no game at all is refused as check refuses it (exit 2)
        replay_record(rec)
    except RecordError as e:
        fail(f"{shown_path(record)}: {e}")
    except IllegalActionError:
        pass  # replayed up to that action, which is shown with its reason (exit 1)
    if plain or record == "-" or not _interactive():
        from ..tui.replay import replay_plain

        sys.exit(replay_plain(rec, sys.stdout))
    from ..tui.replay import ReplayApp

    ReplayApp(rec).run()
