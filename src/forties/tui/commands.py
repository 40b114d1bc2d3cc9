"""The ``forties play`` and ``forties replay`` commands (registered by ``forties.cli``).

Textual is imported only when a full-screen command runs, so the other commands
start fast.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..rules import PRESETS
from .session import LEVELS, Session, SessionError, default_save_path


def _interactive() -> bool:
    """Whether a full-screen app can run here (a real terminal, not TERM=dumb)."""
    return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM") != "dumb"


@click.command()
@click.option("--preset", "-p", default="merrimack-valley", show_default=True,
              help="Rules preset: " + ", ".join(PRESETS) + ".")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="House rule: override one option of the preset (repeatable).")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
              help="House rules file (TOML or JSON): preset and [options].")
@click.option("--seat", type=int, default=None,
              help="Your seat, 0 to players-1 (default 0); play goes to the next seat.")
@click.option("--partner", type=click.Choice(LEVELS), default=None,
              help="How your partner plays (default basic).")
@click.option("--opponents", type=click.Choice(LEVELS), default=None,
              help="How the other players play (default basic).")
@click.option("--name", default="You", show_default=True, help="Your name in the record.")
@click.option("--seed", type=int, default=None, help="Seed for the deals (same seed, same "
              "cards).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record here as it goes (default: a new file in the "
                   "forties data folder).")
@click.option("--resume", type=click.Path(dir_okay=False), default=None, metavar="RECORD",
              help="Carry on the game saved in RECORD.")
@click.option("--plain", is_flag=True,
              help="Plain lines instead of the full-screen table (any terminal, screen "
                   "readers; honours NO_COLOR).")
@click.option("--delay", type=float, default=0.6, show_default=True,
              help="Seconds between the computer players' actions on the table.")
def play(preset: str, options: tuple[str, ...], rules_file: str | None, seat: int | None,
         partner: str | None, opponents: str | None, name: str, seed: int | None,
         save: str | None, resume: str | None, plain: bool, delay: float) -> None:
    """Play against computer players in the terminal.

    The game is saved after every action; a crash or Ctrl-C loses nothing.

    \b
    Examples:
      forties play
      forties play --preset nova-scotia --seat 1
      forties play -p auction-45 -o players=3 --opponents random
      forties play --plain
      forties play --resume ~/.local/share/forties/games/2025-01-01-120000-merrimack-valley.json
    """
    from .. import cli

    try:
        if resume:
            if save:
                cli.fail("--save and --resume: a resumed game is saved back to its record")
            session = Session.resume(Path(resume).expanduser(), human=seat, partner=partner,
                                     opponents=opponents)
        else:
            rules = cli.rules_from_cli(preset, options, rules_file)
            path = Path(save).expanduser() if save else default_save_path(rules.preset)
            session = Session.start(rules, seed=seed, human=seat or 0,
                                    partner=partner or "basic",
                                    opponents=opponents or "basic", you=name, save_path=path)
    except SessionError as e:
        cli.fail(str(e))
    except OSError as e:
        cli.fail(f"cannot save the game: {e.strerror}: {e.filename}")
    if plain or not _interactive():
        from .plain import run_plain

        sys.exit(run_plain(session, resumed=bool(resume)))

    from .app import TableApp

    def fresh() -> Session:
        rules = session.record.rules
        return Session.start(rules, human=session.human, levels=session.levels,
                             names=session.record.players,
                             save_path=default_save_path(rules.preset))

    app = TableApp(session, delay=max(delay, 0.0), resumed=bool(resume), new_session=fresh)
    app.run()
    final = app.session
    if final.save_path is not None:
        if final.state.over:
            click.echo(f"The game record is in {final.save_path}")
        else:
            click.echo(f"Saved. Resume with: forties play --resume {final.save_path}")


@click.command()
@click.argument("record", metavar="RECORD|-")
@click.option("--plain", is_flag=True, help="Print every hand and action as lines instead.")
def replay(record: str, plain: bool) -> None:
    """Step through a game record with every hand visible.

    ← → one action, PgUp PgDn one hand, Home End, q to quit.

    \b
    Examples:
      forties replay game.json
      forties replay --plain game.json | less
    """
    from .. import cli

    rec = cli.read_record(record)
    if plain or record == "-" or not _interactive():
        from .replay import replay_plain

        sys.exit(replay_plain(rec, sys.stdout))
    from .replay import ReplayApp

    ReplayApp(rec).run()
