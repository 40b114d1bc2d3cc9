"""``forties serve --workers N``: N server processes sharing one listening socket.

The parent binds the socket, starts N processes (spawned, each a whole server: its own
app, its own connections to the database and Redis), says "serving" once every one is
ready, and starts another in place of one that dies, until it is told to stop (Ctrl-C or
SIGTERM), when it stops them all. The system shares the connections out among the
processes; the database is the authority and Redis tells each process of the others'
moves (``forties.web.bus``), so a client may land on any of them. Each table is run by
one process (``forties.web.owners``): a websocket that lands on another is handed over
whole to it through the private door each process opens (``forties.web.relay``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from typing import Any

import click

from .metrics import process_gone
from .spawn import deaf_to_ctrl_c, spawn_context

READY = "ready"
START_SECONDS = 120.0  # a process not ready in this long is given up on

# What a worker process runs: a top-level function (so that spawn can find it) that makes
# the app and serves it on the socket, calling ``ready()`` once it accepts connections.
Target = Callable[[socket.socket, Callable[[], None], Any], None]


def _child(target: Target, sock: socket.socket, conn: multiprocessing.connection.Connection,
           arg: Any) -> None:
    deaf_to_ctrl_c()  # the parent says when to stop (SIGTERM)

    def ready() -> None:
        conn.send(READY)

    target(sock, ready, arg)


class Workers:
    """N processes serving one socket, kept at N."""

    def __init__(self, target: Target, sock: socket.socket, count: int, arg: Any) -> None:
        self.target, self.sock, self.count, self.arg = target, sock, count, arg
        self.ctx = spawn_context()
        self.procs: list[BaseProcess] = []
        self.stopping = False

    def _start_one(self) -> tuple[BaseProcess, multiprocessing.connection.Connection]:
        parent, child = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(target=_child, args=(self.target, self.sock, child, self.arg),
                             daemon=False)
        p.start()
        child.close()
        return p, parent

    def _wait_ready(self, started: list[tuple[BaseProcess,
                                              multiprocessing.connection.Connection]]) -> bool:
        end = time.monotonic() + START_SECONDS
        for p, conn in started:
            while True:
                if conn.poll(0.2):
                    try:
                        if conn.recv() == READY:
                            break
                    except EOFError:
                        return False
                if not p.is_alive() or time.monotonic() > end or self.stopping:
                    return False
        return True

    def run(self, on_ready: Callable[[], None]) -> int:
        """Serve until told to stop; the exit status."""
        def stop(_signum: int, _frame: Any) -> None:
            self.stopping = True

        old = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
        try:
            started = [self._start_one() for _ in range(self.count)]
            self.procs = [p for p, _ in started]
            if not self._wait_ready(started):
                if not self.stopping:
                    click.echo("forties: a server process could not start (see above)",
                               err=True)
                self._stop_all()
                return 0 if self.stopping else 1
            on_ready()
            while not self.stopping:
                time.sleep(0.2)
                for i, p in enumerate(self.procs):
                    if not p.is_alive() and not self.stopping:
                        click.echo(f"forties: server process {p.pid} stopped (status "
                                   f"{p.exitcode}); starting another", err=True)
                        if p.pid is not None:
                            process_gone(p.pid)  # its gauges no longer count
                        q, conn = self._start_one()
                        self.procs[i] = q
                        self._wait_ready([(q, conn)])
            self._stop_all()
            return 0
        finally:
            for s, h in old.items():
                signal.signal(s, h)

    def _stop_all(self) -> None:
        for p in self.procs:
            if p.is_alive() and p.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(p.pid, signal.SIGTERM)
        # each process ends itself within its stop_seconds; then it is killed
        end = time.monotonic() + float(getattr(getattr(self.arg, "limits", None),
                                               "stop_seconds", 20.0)) + 5
        for p in self.procs:
            p.join(max(0.1, end - time.monotonic()))
            if p.is_alive():
                p.kill()
                p.join(5)
        sys.stdout.flush()


def check_scale_out(db_url: str | None, redis_url: str | None, workers: int) -> str | None:
    """Why ``--db``, ``--redis`` and ``--workers`` cannot go together (None: they can), and
    whether Redis answers (one line)."""
    postgres = bool(db_url) and str(db_url).startswith(("postgresql:", "postgres:",
                                                        "postgresql+psycopg:"))
    if workers > 1 and not (postgres and redis_url):
        return (f"--workers {workers}: several processes share their tables through "
                "PostgreSQL and Redis: give --db postgresql://... and --redis redis://...")
    if redis_url and not postgres:
        return ("--redis: the processes that share Redis must share one PostgreSQL "
                "database too: give --db postgresql://...")
    if redis_url:
        try:
            import redis
        except ImportError:
            return "--redis needs the redis package: pip install -e '.[scale]'"
        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=5,
                                          socket_timeout=5)
            client.ping()
            client.close()
        except ValueError as e:
            return f"--redis {redis_url}: {e}"
        except Exception as e:  # redis's own errors and OSError
            text = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            return f"cannot reach Redis at {redis_url}: {text}"
    return None


def serve_worker(sock: socket.socket, ready: Callable[[], None], settings: Any) -> None:
    """One server process of ``--workers``: its own app over the shared socket."""
    from . import logs
    from .app import create_app, open_doors
    from .serving import stopping_server_class, uvicorn_config

    logs.configure(settings.log_format)

    class Server(stopping_server_class(settings.limits.stop_seconds)):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            ready()

    app = create_app(settings)
    open_doors(app)
    Server(uvicorn_config(app, settings.log_format)).run(sockets=[sock])
