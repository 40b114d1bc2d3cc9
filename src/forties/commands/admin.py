"""``forties admin``: the operator's tools for the web server's database (registered by
``forties.cli``), each safe while ``forties serve`` serves it: back it up and restore it,
list the tables, close one, silence a chat name at one, remove old finished ones.

The work is ``forties.web.admin``'s; a refusal is one line on standard error (exit status
1; a mistake on the command line, 2).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from ..command_line import InputFile, OutputFile, fail

F = TypeVar("F", bound=Callable[..., Any])


def db_option(fn: F) -> F:
    """``--db URL``, the database ``forties serve`` uses by default when not given."""
    return click.option(
        "--db", "db_url", default=None, metavar="URL",
        help="Database URL (default: forties serve's, the SQLite file in the data "
             "folder).")(fn)


def refusals(fn: F) -> F:
    """An ``AdminError`` is one line on standard error, exit status 1."""
    @wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        from ..web.admin import AdminError

        try:
            return fn(*args, **kwargs)
        except AdminError as e:
            fail(str(e), e.status)
    return run  # type: ignore[return-value]


def database(db_url: str | None) -> str:
    """The database ``--db`` names; without it, ``forties serve``'s default, made (empty)
    if it is not there yet, as the server would make it."""
    if db_url is not None:
        return db_url
    from ..web.admin import opened
    from .serve import default_db_url

    url = default_db_url()
    with opened(url, make=True):
        pass
    return url


def when(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).strftime("%Y-%m-%d %H:%M")


@click.group()
def admin() -> None:
    """The operator's tools for forties serve's database, safe while it serves: backups,
    the list of tables, closing a table, silencing a name in a table's chat, removing old
    finished tables.

    \b
    Examples:
      forties admin backup /var/backups/forties-$(date +%F).db
      forties admin restore forties-2026-12-01.db --db sqlite:///new.db
      forties admin tables --live
      forties admin close Xa12bc3dEf
      forties admin silence Xa12bc3dEf "Rude Guest"
      forties admin prune --days 90 --dry-run
    """


@admin.command()
@click.argument("path", type=OutputFile())
@db_option
@refusals
def backup(path: str, db_url: str | None) -> None:
    """Copy the database to PATH (a new file), consistent, while the server goes on
    serving (SQLite's online backup). A PostgreSQL database is backed up with pg_dump.

    \b
    Examples:
      forties admin backup /var/backups/forties-$(date +%F).db
    """
    from ..web.admin import backup as copy

    tables, events = copy(database(db_url), Path(path))
    click.echo(f"backed up {tables} tables ({events} events) to {path}")


@admin.command()
@click.argument("path", type=InputFile())
@db_option
@click.option("--force", is_flag=True,
              help="Replace a database that holds tables already (stop its server first).")
@refusals
def restore(path: str, db_url: str | None, force: bool) -> None:
    """Copy the backup PATH into the database (a new or empty one; --force replaces one
    that holds tables). Then serve it: forties serve --db URL.

    \b
    Examples:
      forties admin restore forties-2026-12-01.db --db sqlite:///srv/forties/new.db
    """
    from ..web.admin import restore as copy

    url = database(db_url)
    tables, events = copy(Path(path), url, force)
    click.echo(f"restored {tables} tables ({events} events) from {path} into {url}")


@admin.command()
@db_option
@click.option("--live", is_flag=True, help="Only the tables waiting or in play.")
@click.option("--finished", is_flag=True, help="Only the tables over, closed or expired.")
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="At most this many (the last changed first).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON, one table a line.")
@refusals
def tables(db_url: str | None, live: bool, finished: bool, limit: int | None,
           as_json: bool) -> None:
    """List the tables, the last changed first: id, game, status, last change (UTC) and
    players.

    \b
    Examples:
      forties admin tables --live
      forties admin tables --finished --limit 20
    """
    from ..web.admin import FINISHED, LIVE, list_tables

    if live and finished:
        raise click.UsageError("--live or --finished, not both (neither: every table)")
    statuses = LIVE if live else FINISHED if finished else None
    rows = list_tables(database(db_url), statuses, limit)
    if as_json:
        for r in rows:
            click.echo(json.dumps(r.to_json()))
        return
    if not rows:
        click.echo("no tables")
        return
    wid = max(len(r.id) for r in rows)
    game = max(len(r.preset) for r in rows)
    for r in rows:
        click.echo(f"{r.id:<{wid}}  {r.preset:<{game}}  {r.status:<8}  {when(r.updated)}  "
                   f"{', '.join(r.players)}")


@admin.command()
@click.argument("table")
@db_option
@refusals
def close(table: str, db_url: str | None) -> None:
    """End TABLE: no more moves, chat or seats. A server serving it stops it and tells
    its players within a few seconds (FORTIES_LIMITS' watch_seconds).

    \b
    Examples:
      forties admin close Xa12bc3dEf
    """
    from ..web.admin import close_table

    close_table(database(db_url), table)
    click.echo(f"closed table {table}")


@admin.command()
@click.argument("table")
@click.argument("name")
@db_option
@refusals
def silence(table: str, name: str, db_url: str | None) -> None:
    """Drop the chat of the player called NAME at TABLE from now on (kept in the
    database: a restart keeps it).

    \b
    Examples:
      forties admin silence Xa12bc3dEf "Rude Guest"
    """
    from ..web.admin import silence as mute

    if mute(database(db_url), table, name):
        click.echo(f"silenced {name!r} at table {table}")
    else:
        click.echo(f"{name!r} was silenced at table {table} already")


@admin.command()
@click.option("--days", type=click.FloatRange(min=0, min_open=True), required=True,
              help="Remove the finished tables unchanged for this many days.")
@db_option
@click.option("--dry-run", is_flag=True, help="Only say what would be removed.")
@refusals
def prune(days: float, db_url: str | None, dry_run: bool) -> None:
    """Remove the finished tables (over, closed or expired) unchanged for --days days,
    with their events and seat keys.

    \b
    Examples:
      forties admin prune --days 90 --dry-run
      forties admin prune --days 90
    """
    from ..web.admin import prune as remove

    ids, events = remove(database(db_url), days, dry_run)
    verb = "would remove" if dry_run else "removed"
    click.echo(f"{verb} {len(ids)} finished tables ({events} events) unchanged for "
               f"{days:g} days{': ' + ' '.join(ids) if dry_run and ids else ''}")
