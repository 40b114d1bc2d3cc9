"""``forties admin``: the operator's tools for the web server's database (registered by
``forties.cli``), each safe while ``forties serve`` serves it: back it up and restore it,
list the tables, close one, silence a chat name at one, remove old finished ones; find,
suspend, delete and export the players' accounts (``forties admin accounts``).

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
    finished tables, and the players' accounts (forties admin accounts --help).

    \b
    Examples:
      forties admin backup /var/backups/forties-$(date +%F).db
      forties admin restore forties-2026-12-01.db --db sqlite:///new.db
      forties admin tables --live
      forties admin close Xa12bc3dEf
      forties admin silence Xa12bc3dEf "Rude Guest"
      forties admin prune --days 90 --dry-run
      forties admin accounts find marie
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


# ----- accounts ---------------------------------------------------------------------------


def account_work(db_url: str | None, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(conn, *args)`` in one transaction on the database; an ``AccountError`` is one
    line, exit status 1."""
    from ..web.account_admin import AccountError
    from ..web.admin import AdminError, opened

    with opened(database(db_url)) as store:
        try:
            with store.engine.begin() as conn:
                return fn(conn, *args)
        except AccountError as e:
            raise AdminError(str(e)) from None


@admin.group()
def accounts() -> None:
    """The players' accounts: find one, suspend it (its sessions end) or make it active
    again, delete it (its games stay, its name replaced by "a former player"), write all
    its data as JSON, and list the games flagged for repeated pairings.

    \b
    Examples:
      forties admin accounts find marie
      forties admin accounts suspend Xa12bc3dEf456789
      forties admin accounts export Xa12bc3dEf456789 --out account.json
      forties admin accounts flags
    """


@accounts.command()
@click.argument("text")
@db_option
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True,
              help="At most this many (the last seen first).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON, one account a line.")
@refusals
def find(text: str, db_url: str | None, limit: int, as_json: bool) -> None:
    """The accounts whose id is TEXT or whose name holds it (case aside): id, name,
    status, created, last seen (UTC) and finished games.

    \b
    Examples:
      forties admin accounts find marie
    """
    from ..web.account_admin import find as look

    found = account_work(db_url, look, text, limit)
    if as_json:
        for f in found:
            click.echo(json.dumps(f.to_json(), ensure_ascii=False))
        return
    if not found:
        click.echo("no accounts")
        return
    wid = max(len(f.id) for f in found)
    name = max(len(f.name) for f in found)
    for f in found:
        seen = when(f.last_seen) if f.last_seen is not None else "never"
        click.echo(f"{f.id:<{wid}}  {f.name:<{name}}  {f.status:<9}  created "
                   f"{when(f.created)}  seen {seen}  {f.games} games")


@accounts.command()
@click.argument("account")
@db_option
@refusals
def suspend(account: str, db_url: str | None) -> None:
    """Suspend ACCOUNT (by its id): it cannot sign in, and its sessions end at once.

    \b
    Examples:
      forties admin accounts suspend Xa12bc3dEf456789
    """
    from ..web.account_admin import set_status
    from ..web.accounts import SUSPENDED

    ended = account_work(db_url, set_status, account, SUSPENDED)
    click.echo(f"suspended account {account} ({ended} sessions ended)")


@accounts.command()
@click.argument("account")
@db_option
@refusals
def unsuspend(account: str, db_url: str | None) -> None:
    """Make the suspended ACCOUNT active again (it signs in with its passkeys).

    \b
    Examples:
      forties admin accounts unsuspend Xa12bc3dEf456789
    """
    from ..web.account_admin import set_status
    from ..web.accounts import ACTIVE

    account_work(db_url, set_status, account, ACTIVE)
    click.echo(f"account {account} is active again")


@accounts.command()
@click.argument("account")
@db_option
@click.option("--force", is_flag=True,
              help="Delete it even while it sits at a table in play (that table's server "
                   "shows the old name until the table leaves its memory).")
@refusals
def delete(account: str, db_url: str | None, force: bool) -> None:
    """Delete ACCOUNT: its sessions, passkeys, recovery codes, ratings, follows, blocks and
    invitations removed, its name replaced by "a former player" wherever it sat; its
    games stay. It cannot be undone.

    \b
    Examples:
      forties admin accounts delete Xa12bc3dEf456789
    """
    from ..web.account_admin import delete as remove

    done = account_work(db_url, lambda conn: remove(conn, account, force=force))
    click.echo(f"deleted account {account} ({done.get('events', 0)} stored names "
               f"replaced, {sum(v for k, v in done.items() if k not in ('events', 'accounts'))}"
               f" rows removed)")


@accounts.command()
@click.argument("account")
@db_option
@click.option("--out", "out", type=OutputFile(), default=None,
              help="Write it to this new file (default: standard output).")
@refusals
def export(account: str, db_url: str | None, out: str | None) -> None:
    """Write everything kept about ACCOUNT as JSON (what the player's own download gives).

    \b
    Examples:
      forties admin accounts export Xa12bc3dEf456789 --out account.json
    """
    from ..web.account_admin import export as read
    from ..web.admin import AdminError

    data = account_work(db_url, read, account)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        with open(out, "x", encoding="utf-8") as f:
            f.write(text)
    except FileExistsError:
        raise AdminError(f"{out} is there already: write to a new file") from None
    except OSError as e:
        raise AdminError(f"cannot write {out}: {e.strerror or e}") from None
    click.echo(f"wrote account {account}'s data to {out}")


@accounts.command()
@db_option
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True,
              help="At most this many (the latest first).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON, one game a line.")
@refusals
def flags(db_url: str | None, limit: int, as_json: bool) -> None:
    """The games the ratings flagged for repeated pairings (the same accounts feeding
    each other): table, when (UTC), the accounts, why.

    \b
    Examples:
      forties admin accounts flags
    """
    from ..web.account_admin import flags as flagged

    found = account_work(db_url, flagged, limit)
    if as_json:
        for f in found:
            click.echo(json.dumps(f.to_json(), ensure_ascii=False))
        return
    if not found:
        click.echo("no flagged games")
        return
    for f in found:
        who = ", ".join(f"{n} ({i})" for i, n in f.accounts)
        click.echo(f"{f.table_id}  {when(f.at)}  {who}  {f.why}")
