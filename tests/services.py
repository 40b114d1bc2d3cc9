"""A throwaway PostgreSQL and Redis, started on 127.0.0.1 for a test run or a load test and
stopped after it (Debian's packages: ``make services``, which ``make test`` and ``make
loadtest`` run, installs them with apt when they are missing).

PostgreSQL refuses to run as root: as root, the cluster belongs to the ``postgres`` user
the Debian package makes, and its commands run with ``runuser``."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


def free_port() -> int:
    """A port free now (for the benchmarks' servers; the tests hold theirs with
    ``reserved_port`` until their server takes it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def reserved_port() -> Iterator[int]:
    """A free port on 127.0.0.1, held until the block ends: bound (with SO_REUSEADDR) but
    not listening. No other process's bind to port 0 (a test's server) is given it
    meanwhile, as it could be a port found free and let go before its server took it (the
    seconds of a PostgreSQL's initdb, two servers started before Caddy); the server it is
    for, which binds with SO_REUSEADDR itself (Redis, PostgreSQL, Caddy: Linux lets it
    while nothing listens there), listens on it as it is held."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def stop(proc: subprocess.Popen[bytes] | subprocess.Popen[str], seconds: float = 10) -> None:
    """End a service the tests started: asked (SIGTERM), then killed if it lingers."""
    proc.terminate()
    try:
        proc.wait(seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(seconds)


def wait_for_port(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def pg_bin(name: str) -> str:
    """A PostgreSQL program: Debian keeps them in /usr/lib/postgresql/VERSION/bin."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    path = shutil.which(name)
    if path is None:
        raise RuntimeError(f"{name} is missing: run make services (apt-get install postgresql)")
    return path


@dataclass
class Postgres:
    url: str  # postgresql://forties@127.0.0.1:PORT/forties
    port: int
    folder: Path

    def pids(self) -> list[int]:
        """The server's processes (the postmaster and its children), for CPU accounting."""
        head = int((self.folder / "data" / "postmaster.pid").read_text().split()[0])
        return [head, *children(head)]


@contextlib.contextmanager
def postgres() -> Iterator[Postgres]:
    """A PostgreSQL cluster of its own in a fresh folder, on 127.0.0.1 and a free port, with
    a database ``forties`` owned by the user ``forties`` (trust on loopback: test only)."""
    as_root = os.geteuid() == 0
    folder = Path(tempfile.mkdtemp(prefix="forties-pg-"))
    run_as: list[str] = []
    if as_root:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"

    def run(*args: str) -> None:
        subprocess.run([*run_as, *args], check=True, capture_output=True, timeout=120)

    run(pg_bin("initdb"), "-D", str(data), "-U", "forties", "--auth=trust", "-E", "UTF8",
        "--no-sync")
    with reserved_port() as port:  # (held until the server listens on it: -w waits)
        run(pg_bin("pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-o",
            f"-c listen_addresses=127.0.0.1 -c port={port} "
            f"-c unix_socket_directories={folder} -c fsync=off -c max_connections=200",
            "start")
    try:
        run(pg_bin("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "forties", "forties")
        yield Postgres(f"postgresql://forties@127.0.0.1:{port}/forties", port, folder)
    finally:
        run(pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    url: str  # redis://127.0.0.1:PORT/0
    port: int
    pid: int


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(stat.parent.name))
    return out


@contextlib.contextmanager
def redis() -> Iterator[Redis]:
    """A Redis server on 127.0.0.1 and a free port, keeping nothing on disk."""
    exe = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not Path(exe).exists():
        raise RuntimeError("redis-server is missing: run make services "
                           "(apt-get install redis-server)")
    with tempfile.TemporaryDirectory(prefix="forties-redis-") as folder, \
            reserved_port() as port:
        proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                 "--appendonly", "no", "--dir", folder],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port)
            yield Redis(f"redis://127.0.0.1:{port}/0", port, proc.pid)
        finally:
            stop(proc)
