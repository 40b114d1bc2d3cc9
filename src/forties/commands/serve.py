"""``forties serve``: the web server (registered by ``forties.cli``).

The server's libraries are imported only when it runs, so other commands start fast.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import socket
import sys
import threading
import webbrowser
from typing import Any

import click

from ..command_line import fail
from ..paths import data_dir
from ..web.serving import (
    StoppedBySignal,
    stopped_by_sigterm,
    stopping_server_class,
    uvicorn_config,
)


def has_desktop() -> bool:
    """Whether a browser window can be opened here."""
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def trusted_addresses(given: tuple[str, ...]) -> tuple[str, ...]:
    """--trusted-proxy's addresses and networks, each written as uvicorn reads it."""
    import ipaddress

    out = []
    for text in given:
        try:
            out.append(str(ipaddress.ip_network(text, strict=False)) if "/" in text
                       else str(ipaddress.ip_address(text)))
        except ValueError:
            fail(f"--trusted-proxy must be an IP address or network, not {text!r}")
    return tuple(out)


def default_db_url() -> str:
    path = data_dir() / "forties.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8045, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--db", "db_url", default=None, metavar="URL",
              help="Database URL (default: an SQLite file in the data folder; "
                   "postgresql://... for PostgreSQL).")
@click.option("--redis", "redis_url", default=None, metavar="URL",
              help="Redis URL (redis://HOST:PORT/0) through which several server processes, "
                   "on this machine or others, tell each other of every move (with --db "
                   "postgresql://...).")
@click.option("--workers", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Server processes on this machine, sharing the port (more than one needs "
                   "--db postgresql://... and --redis).")
@click.option("--public-url", default=None, metavar="URL",
              help="The site's address as people's browsers reach it, e.g. "
                   "https://forties.example.org (default: the address it serves on). Pages "
                   "of other sites may not open its websockets or change anything.")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDR",
              help="A proxy (an address, or a network such as 10.0.0.0/8) whose "
                   "X-Forwarded-For and X-Forwarded-Proto are believed; repeatable (none by "
                   "default: a client's address is its connection's).")
@click.option("--no-browser", is_flag=True, help="Do not open a browser window.")
@click.option("--metrics-allow", "metrics_allow", multiple=True, metavar="CIDR",
              help="Addresses that may read /metrics (repeatable, e.g. 10.0.0.0/8; "
                   "default: loopback only); others get 404.")
@click.option("--log-format", type=click.Choice(["text", "json"]), default="text",
              envvar="FORTIES_LOG_FORMAT", show_default=True,
              help="Logs on standard error: text (warnings and errors), or json (one "
                   "object a line: every request, websocket and error, with its request "
                   "id). Also FORTIES_LOG_FORMAT.")
def serve(host: str, port: int, db_url: str | None, redis_url: str | None, workers: int,
          public_url: str | None, trusted_proxies: tuple[str, ...], no_browser: bool,
          metrics_allow: tuple[str, ...], log_format: str) -> None:
    """Serve tables to play in the browser: with friends by invite links, against computer
    players, or watching. The games are kept in a database in the data folder (the
    environment variable FORTIES_DATA moves it); a stopped server carries every table on
    where it was.

    \b
    Examples:
      forties serve
      forties serve --port 8080 --no-browser
      forties serve --db postgresql://forties@db/forties --redis redis://db:6379/0 --workers 4
      forties serve --public-url https://forties.example.org --trusted-proxy 127.0.0.1

    Limits on connections (per address and in all), on the seconds to send a request's
    headers and body, on the bytes of a request's headers, and on open websockets per
    address are in FORTIES_LIMITS (connections_per_address 64, connections_total 1024,
    header_seconds 10, header_bytes 65536, body_seconds 30, websockets_per_address 64),
    each server process's own.
    """
    from ..web import logs, metrics
    from ..web.app import ServerSettings, create_app, open_doors
    from ..web.service import Limits
    from ..web.store import StoreError

    try:
        limits = Limits.from_env()
    except ValueError as e:
        fail(str(e))
    try:
        allow = metrics.networks(metrics_allow or metrics.LOOPBACK)
    except ValueError as e:
        fail(f"--metrics-allow: {e}")
    from ..web.workers import check_scale_out

    why = check_scale_out(db_url, redis_url, workers)
    if why:
        fail(why)
    from ..web.guard import origin_of

    proxies = trusted_addresses(trusted_proxies)
    if public_url is not None and origin_of(public_url) is None:
        fail(f"--public-url must be an http:// or https:// address, not {public_url!r}")
    try:
        sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        fail(f"cannot listen on {host} port {port}: {e.strerror or e}")
    real_port = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    url = f"http://{shown if ':' not in shown else f'[{shown}]'}:{real_port}/"
    settings = ServerSettings(db_url or default_db_url(), limits, redis_url,
                              start_par=True, public_url=public_url or url,
                              trusted_proxies=proxies,
                              metrics_allow=tuple(map(str, allow)), log_format=log_format)
    try:
        app = create_app(settings)
    except StoreError as e:
        sock.close()
        fail(str(e))
    except OSError as e:
        sock.close()
        fail(f"cannot open the data folder: {e.strerror or e}")
    logs.configure(log_format)
    if workers > 1:
        from ..web.workers import Workers, serve_worker

        app.state.store.close()  # each process opens its own (checked and migrated above)

        def say_ready() -> None:
            click.echo(f"forties: serving on {url} (Ctrl-C to stop)")
            click.echo(f"forties: {workers} server processes share the port")
            sys.stdout.flush()

        with metrics.shared_between_processes(workers):
            status = Workers(serve_worker, sock, workers, settings).run(say_ready)
        click.echo("forties: stopped serving")
        sys.exit(status)

    class Server(stopping_server_class(limits.stop_seconds)):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            # What was made to start (modules, catalogs, the tables brought back) stays:
            # the collector's full rounds, which stop every table at once, skip it.
            gc.collect()
            gc.freeze()
            click.echo(f"forties: serving on {url} (Ctrl-C to stop)")
            sys.stdout.flush()
            if not no_browser and has_desktop():
                threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    open_doors(app)
    server = Server(uvicorn_config(app, log_format))
    # uvicorn raises the signal that stopped it again once it has stopped: Ctrl-C's as a
    # KeyboardInterrupt, SIGTERM's (systemctl stop, kill) through this handler, so that
    # both end as a stop, not as a process killed
    signal.signal(signal.SIGTERM, stopped_by_sigterm)
    with contextlib.suppress(KeyboardInterrupt, StoppedBySignal), \
            metrics.shared_between_processes(1):  # (the operator's folder: wiped)
        server.run(sockets=[sock])
    click.echo("forties: stopped serving")
    sys.exit(0)
