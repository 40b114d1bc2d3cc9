"""Debian's Caddy in front of forties server processes, as docs/deploy.md sets it up, on
127.0.0.1 for a test or a load test: the shipped ``deploy/Caddyfile`` itself, its site
imported unchanged and its global options kept, with only what a machine of its own
would differ by given around it (the site's name and the processes through the
environment it reads, ``FORTIES_SITE`` and ``FORTIES_UPSTREAMS``; free high ports,
certificates from Caddy's own internal CA, its storage in a temporary folder and no
admin endpoint as global options, added to the file's own: Caddy takes one global block).

The site's name is 127.0.0.1, or a name (``site``) that a browser is told is 127.0.0.1
(Chromium's ``--host-resolver-rules``): then Caddy's certificate and its ``Host`` are that
name's, as on a real site, and ``Caddy.request`` asks it by that name.

Caddy runs as the caller's user, binds 127.0.0.1 only, and is stopped when the block
ends (SIGTERM, then SIGKILL after a few seconds)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import ssl
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .services import reserved_port, stop

ROOT = Path(__file__).resolve().parents[1]
CADDYFILE = ROOT / "deploy" / "Caddyfile"
START_SECONDS = 20.0


def caddy_exe() -> str:
    exe = shutil.which("caddy") or "/usr/bin/caddy"
    if not Path(exe).exists():
        raise RuntimeError("caddy is missing: run make services (apt-get install caddy)")
    return exe


def unverified() -> ssl.SSLContext:
    """A TLS context that accepts Caddy's internal CA (the test's own, made for this run)."""
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def split_global(text: str) -> tuple[str, str]:
    """A Caddyfile's global options block (what is inside its braces; empty where it has
    none) and the rest of it, the rest's lines where they were (Caddy's errors name them)."""
    lines = text.splitlines(keepends=True)
    first = next((i for i, x in enumerate(lines)
                  if x.strip() and not x.lstrip().startswith("#")), None)
    if first is None or lines[first].strip() != "{":
        return "", text
    end = next(i for i in range(first + 1, len(lines)) if lines[i].rstrip() == "}")
    inner = "".join(lines[first + 1:end])
    rest = lines[:first] + ["\n"] * (end + 1 - first) + lines[end + 1:]
    return inner, "".join(rest)


def config_text(folder: Path, http_port: int, https_port: int,
                caddyfile: Path = CADDYFILE, site: str | None = None) -> str:
    """The Caddyfile Caddy runs: the test's global options and ``caddyfile``'s own in one
    block, then the rest of ``caddyfile`` imported (written in ``folder``) (with ``site``,
    a client that names no site, as one asking 127.0.0.1 by its number, gets that site's
    certificate)."""
    own, sites = split_global(caddyfile.read_text())
    folder.mkdir(parents=True, exist_ok=True)
    rest = folder / "sites.caddy"
    rest.write_text(sites)
    return (
        "{\n"
        + own
        + "\tadmin off\n"
        "\tdefault_bind 127.0.0.1\n"
        + (f"\tdefault_sni {site}\n" if site else "")
        + f"\tstorage file_system {folder / 'storage'}\n"
        f"\thttp_port {http_port}\n"
        f"\thttps_port {https_port}\n"
        "\tlocal_certs\n"
        "\tskip_install_trust\n"
        "}\n"
        f"import {rest}\n")


@dataclass
class Caddy:
    url: str  # https://SITE:PORT
    site: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    root: Path  # the internal CA's root certificate, for clients that would trust it

    def said(self) -> str:
        """What Caddy logged (its last lines), for a test that failed."""
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-30:])

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        """One request over HTTPS to 127.0.0.1, by the site's name: its status and body
        (JSON ``body`` sent as such, from the site's own origin as its pages send it)."""
        conn = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=15,
                                           context=unverified())
        head = {"Host": f"{self.site}:{self.port}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            head |= {"Content-Type": "application/json", "Origin": self.url}
        try:
            conn.request(method, path, body=data, headers=head)
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()


# Caddy 2.6 cleans a new storage when it starts, while it obtains the site's first
# certificate: the cleaning can find the site's folder still empty and delete it
# ("Deleting certificates/local/127.0.0.1 because key is empty"), and the certificate,
# its files gone, is tried again only a minute later. That race is Caddy's, not the
# deployment's: seen in its log, Caddy is started again on an empty storage, once.
STORAGE_RACE = "because key is empty"


class StorageRace(RuntimeError):
    """Caddy's cleaning deleted the certificate it was obtaining (``STORAGE_RACE``)."""


def wait_answering(front: Caddy, seconds: float = START_SECONDS) -> None:
    """Until Caddy answers over HTTPS (any status: a proxy error is an answer), or fail
    with what it said (``StorageRace`` when its cleaning deleted its certificate)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            front.request("GET", "/healthz")
            return
        except (OSError, ssl.SSLError, http.client.HTTPException):
            if STORAGE_RACE in front.log.read_text(errors="replace"):
                raise StorageRace(front.said()) from None
            if front.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Caddy did not answer at {front.url} within {seconds} s "
                                   f"(exit status {front.proc.poll()}): "
                                   f"{front.said()}") from None
            time.sleep(0.05)


@contextlib.contextmanager
def caddy(upstreams: list[str], folder: Path | None = None, https_port: int = 0,
          site: str = "127.0.0.1", caddyfile: Path = CADDYFILE) -> Iterator[Caddy]:
    """Caddy with ``caddyfile`` in front of ``upstreams`` (``127.0.0.1:PORT`` each), for
    the site ``site`` on 127.0.0.1 and ``https_port`` (0: a free one); stopped at the
    end."""
    exe = caddy_exe()
    own = folder is None
    where = Path(tempfile.mkdtemp(prefix="forties-caddy-")) if folder is None else folder
    where.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as ports:  # (held while Caddy runs: ``reserved_port``)
        http_port = ports.enter_context(reserved_port())
        https_port = https_port or ports.enter_context(reserved_port())
        config = where / "test.caddy"
        config.write_text(config_text(where, http_port, https_port, caddyfile, site))
        env = {**os.environ, "HOME": str(where), "XDG_CONFIG_HOME": str(where / "config"),
               "XDG_DATA_HOME": str(where / "data"), "FORTIES_SITE": site,
               "FORTIES_UPSTREAMS": " ".join(upstreams)}
        log = where / "caddy.log"

        def started() -> Caddy:
            with log.open("wb") as out:
                proc = subprocess.Popen(
                    [exe, "run", "--adapter", "caddyfile", "--config", str(config)],
                    stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env, cwd=where)
            return Caddy(f"https://{site}:{https_port}", site, https_port, proc, log,
                         where / "storage" / "pki" / "authorities" / "local" / "root.crt")

        front = started()
        try:
            try:
                wait_answering(front)
            except StorageRace:  # (Caddy's own race: once more, on an empty storage)
                stop(front.proc)
                shutil.rmtree(where / "storage", ignore_errors=True)
                front = started()
                wait_answering(front)
            yield front
        finally:
            stop(front.proc)
            if own:
                shutil.rmtree(where, ignore_errors=True)
