"""The deployment docs/deploy.md describes, on this machine: Debian's Caddy with the shipped
``deploy/Caddyfile`` (tests/caddy.py: certificates from Caddy's internal CA, 127.0.0.1 and
free ports), the shipped systemd units, and the commands the guide gives.

- a whole game played in Chromium over https and wss through Caddy, at a site named
  forties.test, in front of two ``forties serve`` processes started by the unit's own
  ExecStart, over one PostgreSQL and one Redis;
- every request naming a table (its page, its websocket, its API) reaches one process, the
  same each time, the tables spread over the processes; other requests go to any; when a
  process stops answering its tables go to the others and no one else's move; a process
  whose /readyz says no (draining) gets nothing new, and its tables back when it says yes;
  the address a process is told is the one Caddy saw, never one the client wrote;
- the units in deploy/ (and Debian's caddy.service with the shipped drop-in) pass
  ``systemd-analyze verify``;
- every option the guide, the units and the environment file give a forties command is
  one that command has, and every FORTIES_LIMITS they give is one forties takes;
- every ``forties admin`` command the guide gives names its database, the backups it
  makes never need an existing file's name, and PostgreSQL's dumps are the forties
  user's (its folder is its own);
- the settings files: SQLite's by default, every variable one that something reads, and
  Caddy (which writes its environment to the journal) given the site's file only.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import click
import pytest

from forties.cli import main as cli_main

from ..caddy import ROOT, STORAGE_RACE, Caddy, StorageRace, caddy, unverified, wait_answering
from ..helpers_engine import FORTIES
from ..helpers_web import TEST_LIMITS, serving_port
from ..services import Redis, reserved_port
from .conftest import CHROMIUM, CHROMIUM_ARGS
from .pages import PHONE, body, mine, over, play_until, wait_ready

DEPLOY = ROOT / "deploy"
GUIDE = ROOT / "docs" / "deploy.md"


# ----- which process a request reaches ----------------------------------------------------


class Echo:
    """A stand-in for a server process on 127.0.0.1: it answers every request with its own
    name and what it was told (the path, the forwarded address, the table header), and
    ``/readyz`` with 503 while it is not ``ready`` (as a draining server does)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ready = True
        me = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                data = json.dumps({"name": me.name, "path": self.path,
                                   "for": self.headers.get("X-Forwarded-For"),
                                   "proto": self.headers.get("X-Forwarded-Proto")}).encode()
                self.send_response(200 if me.ready or self.path != "/readyz" else 503)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.address = f"127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Stop answering: the port is closed, as when the process dies."""
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@contextlib.contextmanager
def echoes(names: list[str]) -> Iterator[list[Echo]]:
    made = [Echo(n) for n in names]
    try:
        yield made
    finally:
        for e in made:
            with contextlib.suppress(OSError):
                e.stop()


class Client:
    """One kept-alive HTTPS connection to Caddy (a handshake a request would cost more than
    the rest of the test)."""

    def __init__(self, front: Caddy) -> None:
        self.conn = http.client.HTTPSConnection("127.0.0.1", front.port, timeout=15,
                                                context=unverified())

    def ask(self, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
        self.conn.request("GET", path, headers=headers or {})
        r = self.conn.getresponse()
        data = r.read()
        assert r.status == 200, (path, r.status, data[:300])
        got: dict[str, Any] = json.loads(data)
        return got


def table_paths(table: str) -> list[str]:
    return [f"/t/{table}", f"/ws/{table}", f"/api/tables/{table}",
            f"/api/tables/{table}/join", f"/api/tables/{table}/record"]


def owners(client: Client, tables: list[str]) -> dict[str, str]:
    """The process each table's requests reach, checking that all of them reach it."""
    out = {}
    for t in tables:
        seen = {client.ask(p)["name"] for p in table_paths(t)}
        assert len(seen) == 1, (t, seen)
        out[t] = seen.pop()
    return out


def test_each_table_reaches_one_process_and_moves_only_when_it_stops(tmp_path: Path) -> None:
    tables = [f"tbl{i:03d}x" for i in range(40)]
    with echoes(["a", "b", "c"]) as (a, b, c), \
            caddy([a.address, b.address, c.address], tmp_path) as front:
        client = Client(front)
        before = owners(client, tables)
        # spread over the three (each of 40 tables chooses one of three: all three get some)
        assert set(before.values()) == {"a", "b", "c"}, Counter(before.values())
        # the same again: a table's process does not change while they all answer
        assert owners(client, tables) == before
        # pages, static files and the rest of the API go to any process
        others = Counter(client.ask(p)["name"] for p in ["/", "/static/app.js",
                                                          "/api/lobby", "/hall"] * 8)
        assert len(others) >= 2, others
        # the address a process is told is the one Caddy saw, whatever the client wrote;
        # and that it came over https
        told = client.ask("/api/lobby", {"X-Forwarded-For": "203.0.113.9"})
        assert told["for"] == "127.0.0.1" and told["proto"] == "https", told
        # the metrics, and anything under them, are not the internet's (a process would
        # answer them: every request through Caddy comes from loopback)
        for path in ["/metrics", "/metrics/", "/metrics?name[]=x", "/metricsx"]:
            client.conn.request("GET", path)
            r = client.conn.getresponse()
            assert (r.status, r.read()) == (404, b""), path

        c.stop()
        after = owners(client, tables)  # every request answered (by a and b)
        assert set(after.values()) == {"a", "b"}, Counter(after.values())
        moved = {t for t in tables if after[t] != before[t]}
        assert moved == {t for t in tables if before[t] == "c"}

        # a process that says it cannot serve (/readyz 503: draining before it stops) is
        # sent nothing new once Caddy's health check has seen it; its tables go to a, and
        # come back when it is ready again
        b.ready = False
        some = next(t for t in tables if after[t] == "b")
        until(lambda: client.ask(f"/ws/{some}")["name"] == "a", "b's table to go to a")
        assert set(owners(client, tables).values()) == {"a"}
        b.ready = True
        until(lambda: client.ask(f"/ws/{some}")["name"] == "b", "b's table back on b")
        assert owners(client, tables) == after


def until(done: Any, what: str, seconds: float = 20.0) -> None:
    """Until ``done()`` (Caddy's health checks come every 2 s), or fail saying ``what``."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"expected {what} within {seconds} s"
        time.sleep(0.1)


# ----- the shipped units and the guide's commands -------------------------------------------


def forties_exe() -> Path:
    """The command of the environment the tests run in (its bin need not be on PATH, as
    under `make test`)."""
    assert FORTIES.exists(), f"forties is not installed beside {sys.executable}"
    return FORTIES


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    """``systemd-analyze verify`` on each shipped unit (the template as an instance), and
    on Debian's caddy.service with the shipped drop-in, with no word about them: the
    program's path is this checkout's (verify checks that ExecStart's program exists)."""
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing (Debian: apt-get install systemd)"
    units = sorted(p.name for p in DEPLOY.iterdir() if p.suffix in (".service", ".target"))
    assert units == ["forties.target", "forties@.service"], units
    for name in units:
        text = (DEPLOY / name).read_text()
        assert "/opt/forties/venv/bin/forties" in text or name.endswith(".target")
        (tmp_path / name).write_text(
            text.replace("/opt/forties/venv/bin/forties", str(forties_exe())))
    caddy_unit = Path("/lib/systemd/system/caddy.service")
    assert caddy_unit.exists(), "Debian's caddy package is missing (apt-get install caddy)"
    shutil.copy(caddy_unit, tmp_path / "caddy.service")
    shutil.copytree(DEPLOY / "caddy.service.d", tmp_path / "caddy.service.d")
    for name in ["forties.target", "forties@8001.service", "caddy.service"]:
        res = subprocess.run([analyze, "verify", str(tmp_path / name)], capture_output=True,
                             text=True, timeout=60, check=False)
        assert res.returncode == 0 and str(tmp_path) not in res.stderr, (name, res.stderr)


# a forties command where it is run: at the start of a line or of inline code, or as a
# path's program (/opt/forties/venv/bin/forties); its words up to a pipe, a redirection or
# a comment
COMMAND = re.compile(r"(?:^\s*|/bin/)forties((?:[ \t]+[^\s|;&>#`]+)+)", re.M)


def commands_in(text: str) -> list[list[str]]:
    return [m.group(1).split() for m in COMMAND.finditer(text)]


def options_of(words: list[str]) -> tuple[str, set[str]]:
    """The command that ``forties WORDS`` runs and the options it takes."""
    cmd: click.Command = cli_main
    name = ["forties"]
    ctx = click.Context(cli_main)
    for w in words:
        if not isinstance(cmd, click.Group):
            break
        sub = cmd.get_command(ctx, w)
        if sub is None:
            break
        cmd, name = sub, [*name, w]
    opts = {o for p in cmd.params for o in [*p.opts, *p.secondary_opts]}
    return " ".join(name), opts | {"--help", "-h"}


def guide_commands() -> list[tuple[str, list[str]]]:
    """Every forties command in docs/deploy.md (its code blocks and inline code) and in the
    files of deploy/, with where it is."""
    guide = GUIDE.read_text()
    pieces = [*re.findall(r"```[a-z]*\n(.*?)```", guide, re.S),
              *(" ".join(span.split()) for span in re.findall(
                  r"`([^`]+)`", re.sub(r"```.*?```", "", guide, flags=re.S)))]
    found = [("docs/deploy.md", words) for text in pieces for words in commands_in(text)]
    for f in sorted(p for p in DEPLOY.rglob("*") if p.is_file()):
        found += [(str(f.relative_to(ROOT)), words) for words in commands_in(f.read_text())]
    env = (DEPLOY / "forties.env.example").read_text()
    for m in re.finditer(r"^#?\s*FORTIES_OPTIONS=\"?([^\"\n]*)", env, re.M):
        found.append(("deploy/forties.env.example", ["serve", *shlex.split(m.group(1))]))
    return found


def test_every_option_the_guide_gives_exists() -> None:
    found = guide_commands()
    for where, words in found:
        name, opts = options_of(words)
        assert name != "forties", (where, words)  # a command forties has
        for w in words:
            if w.startswith("-"):
                assert w.split("=")[0] in opts, (where, name, w)
    named = {options_of(words)[0] for _, words in found}
    assert {"forties serve", "forties warm-up"} <= named, named
    serve = [words for where, words in found if where.endswith("forties@.service")]
    assert serve and serve[0][0] == "serve", serve


def test_the_limits_the_settings_file_and_the_guide_give_are_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each FORTIES_LIMITS the settings file or the guide gives is one forties starts with
    (a name that is not a limit, or a wrong value, stops it)."""
    from forties.web.limits import Limits

    env = (DEPLOY / "forties.env.example").read_text()
    given = re.findall(r"^FORTIES_LIMITS='([^']*)'$", env, re.M)
    assert given, "forties.env.example sets no FORTIES_LIMITS"
    given += re.findall(r"'(\{[^'\n]*\})'", GUIDE.read_text())
    for text in given:
        monkeypatch.setenv("FORTIES_LIMITS", text)
        limits = Limits.from_env()
        for k, v in json.loads(text).items():
            assert getattr(limits, k) == v, (text, k)
    assert len(given) >= 3, given


def guide_blocks() -> list[str]:
    return re.findall(r"```[a-z]*\n(.*?)```", GUIDE.read_text(), re.S)


ADMIN = re.compile(r"^.*\bforties admin .*$", re.M)


def test_every_admin_command_in_the_guide_names_its_database() -> None:
    """Without --db, ``forties admin`` opens a database of its own in the data folder of
    whoever runs it (root's or the forties user's home), not the server's: it finds no
    tables, or makes an empty file the backup then copies."""
    lines = [line for block in guide_blocks() for line in ADMIN.findall(block)]
    assert len(lines) >= 6, lines
    for line in lines:
        words = shlex.split(line.lstrip("# "))
        assert "--db" in words, line
        db = words[words.index("--db") + 1]
        assert db in ("sqlite:////var/lib/forties/forties.db", "postgresql:///forties"), line
        assert line.lstrip("# ").startswith(
            "runuser -u forties -- /opt/forties/venv/bin/forties admin "), line


def test_the_guides_backups_never_meet_an_existing_file_and_are_the_forties_users() -> None:
    """``forties admin backup`` refuses a file that exists (so does a night's second run of
    a name by the day alone); the backups' folder is the forties user's alone (mode 700),
    so PostgreSQL's dumps are written and read by it, not by the postgres user."""
    lines = [line.lstrip("# ") for block in guide_blocks() for line in block.splitlines()]
    made = [x for x in lines if " admin backup " in x or "pg_dump" in x]
    assert len(made) >= 4 and any("pg_dump" in x for x in made), made
    for line in made:
        assert "/var/backups/forties/forties-$(date +%F-%H%M%S)." in line, line
        assert line.startswith("runuser -u forties -- "), line
    for line in lines:
        if "runuser -u postgres" in line:
            assert re.match(r"runuser -u postgres -- (createuser|createdb) ", line), line
        if re.search(r"\bpg_(dump|restore)\b", line):
            assert line.startswith("runuser -u forties -- "), line


def settings(path: Path) -> dict[str, str]:
    """The variables a settings file sets (its lines not commented out), as systemd reads
    them (one pair of quotes taken off)."""
    out = {}
    for line in path.read_text().splitlines():
        m = re.fullmatch(r"([A-Z_][A-Z0-9_]*)=(.*)", line)
        if m:
            out[m.group(1)] = shlex.split(m.group(2))[0] if m.group(2) else ""
    return out


def test_the_settings_files_are_sqlites_and_caddy_gets_the_sites_alone() -> None:
    site, own = settings(DEPLOY / "site.env.example"), settings(DEPLOY / "forties.env.example")
    # Caddy's file: the two settings the Caddyfile reads, nothing else (it is printed to
    # the journal by caddy run --environ); the drop-in gives Caddy that file alone
    assert sorted(site) == ["FORTIES_SITE", "FORTIES_UPSTREAMS"], site
    dropin = (DEPLOY / "caddy.service.d" / "forties.conf").read_text()
    assert re.findall(r"^EnvironmentFile=(.*)$", dropin, re.M) == ["/etc/forties/site.env"]
    assert set(re.findall(r"\{\$(\w+)\}", (DEPLOY / "Caddyfile").read_text())) == set(site)
    unit = (DEPLOY / "forties@.service").read_text()
    assert re.findall(r"^EnvironmentFile=(.*)$", unit, re.M) == [
        "/etc/forties/site.env", "/etc/forties/forties.env"]
    # SQLite by default: one process, no database or Redis named, no drain to wait for;
    # PostgreSQL's options commented out below
    assert site["FORTIES_UPSTREAMS"] == "127.0.0.1:8001", site
    assert own["FORTIES_OPTIONS"] == "", own
    assert json.loads(own["FORTIES_LIMITS"]) == {"drain_seconds": 0}, own
    assert re.search(r"^#FORTIES_OPTIONS=\"--db postgresql:///forties --redis ",
                     (DEPLOY / "forties.env.example").read_text(), re.M)
    # the tables where the guide says, whoever's home the unit's user has
    assert "Environment=FORTIES_DATA=/var/lib/forties\n" in unit
    # every variable is read: by the unit, or by forties itself
    assert own.get("FORTIES_LOG_FORMAT") == "json", own
    serve = cli_main.get_command(click.Context(cli_main), "serve")
    assert serve is not None
    envvars = {p.envvar for p in serve.params if isinstance(p, click.Option) and p.envvar}
    for name in own:
        assert (f"${name}" in unit or f"${{{name}}}" in unit or name in envvars
                or name == "FORTIES_LIMITS"), name


# ----- a whole game through Caddy ------------------------------------------------------------


def exec_start(unit: str, instance: str, env: dict[str, str]) -> list[str]:
    """A unit's ExecStart as systemd runs it: ``%i`` the instance, ``$VAR`` alone as the
    variable's words, ``${VAR}`` as its text."""
    line = next(x for x in unit.splitlines() if x.startswith("ExecStart="))
    words: list[str] = []
    for w in shlex.split(line[len("ExecStart="):]):
        w = w.replace("%i", instance)
        alone = re.fullmatch(r"\$([A-Za-z_]\w*)", w)
        if alone:
            words += env.get(alone.group(1), "").split()
        else:
            words.append(re.sub(r"\$\{([A-Za-z_]\w*)\}", lambda m: env.get(m.group(1), ""), w))
    return words


@contextlib.contextmanager
def two_processes(tmp_path: Path, db: str, rd: Redis, site: str) -> Iterator[list[str]]:
    """Two server processes run as forties@.service runs them (its ExecStart, each on a
    free port), over one PostgreSQL database and one Redis, the site's address ``site``:
    their addresses."""
    unit = (DEPLOY / "forties@.service").read_text()
    procs = []
    try:
        for i in range(2):
            folder = tmp_path / f"p{i}"
            env = {**os.environ, "FORTIES_SITE": site, "FORTIES_DATA": str(folder / "data"),
                   "FORTIES_OPTIONS": f"--db {db} --redis {rd.url}",
                   "FORTIES_LIMITS": json.dumps({**TEST_LIMITS, "review_seconds": 600.0})}
            for k in ("DISPLAY", "WAYLAND_DISPLAY"):
                env.pop(k, None)
            argv = exec_start(unit, "0", env)
            assert argv[0] == "/opt/forties/venv/bin/forties", argv
            procs.append(subprocess.Popen([str(forties_exe()), *argv[1:]], env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          text=True))
        yield [f"127.0.0.1:{serving_port(p)}" for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
            try:
                _, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
                _, err = p.communicate(timeout=30)
            assert "Traceback" not in err, err[-3000:]


SITE = "forties.test"  # a name of the site's own, which Chromium is told is 127.0.0.1


@contextlib.contextmanager
def chromium_for(browser: Any, site: str) -> Iterator[Any]:
    """Debian's Chromium (as the ``browser`` fixture's) that finds ``site`` at 127.0.0.1."""
    other = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {site} 127.0.0.1"])
    try:
        yield other
    finally:
        other.close()


def made_table(front: Caddy) -> dict[str, Any]:
    status, data = front.request("POST", "/api/tables", {
        "preset": "merrimack-valley", "name": "Ann", "public": False, "hints": False,
        "turn_seconds": None, "level": "basic", "options": {"target": 5}})
    assert status == 200, data[:500]
    made: dict[str, Any] = json.loads(data)
    return made


def test_a_whole_game_in_chromium_over_https_through_caddy(
        tmp_path: Path, db: str, rd: Redis, browser: Any) -> None:
    """Two friends and two computer players, a game to 5 points (a hand or two), at
    https://forties.test:PORT: the pages are https, their websockets wss, and the game
    ends at game-over for both. The site's name is no loopback one, so its pages are let
    in only as the unit tells the processes the site's address."""
    # the processes are told the public address, Caddy's, before it starts in front of them
    # (its port held meanwhile: ``reserved_port``)
    with reserved_port() as port, \
            two_processes(tmp_path, db, rd, f"{SITE}:{port}") as ups, \
            caddy(ups, tmp_path / "caddy", port, site=SITE) as front, \
            chromium_for(browser, SITE) as chromium:
        made = made_table(front)
        pages = []
        for i, link in enumerate([made["url"], made["invites"][0]["url"]]):
            ctx = chromium.new_context(viewport=PHONE, has_touch=True,
                                       ignore_https_errors=True)
            page = ctx.new_page()
            page.set_default_timeout(15000)
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.errors = errors
            page.goto(front.url + link)
            if i:
                page.wait_for_selector("#join-name", state="visible")
                page.fill("#join-name", "Bea")
                page.click("#join-go")
            wait_ready(page)
            pages.append(page)
        host = pages[0]
        try:
            host.wait_for_selector("#start")
            host.click("#start")
            for p in pages:  # (a table waiting for its players is in its auction already)
                p.wait_for_selector("#waiting", state="hidden")
                p.wait_for_function("document.body?.dataset.phase === 'auction'")
                assert p.evaluate("location.protocol") == "https:"
                assert p.evaluate("window.fortiesConnection.ws.url").startswith(
                    f"wss://{SITE}:{front.port}/ws/{made['table']}")
            for _hand in range(8):
                play_until(pages, lambda: over(host), limit=60)
                if body(host, "phase") == "game-over":
                    break
                for p in pages:
                    p.click("#ready")
                host.wait_for_function("document.body?.dataset.phase !== 'hand-over'")
            assert body(host, "phase") == "game-over", front.said()
            for p in pages:
                p.wait_for_function("document.body?.dataset.phase === 'game-over'")
                assert not mine(p) and not p.errors, p.errors
            # the record, through Caddy too: a whole game, as the referee judges it
            status, record = front.request("GET", f"/api/tables/{made['table']}/record")
            assert status == 200, record[:500]
            (tmp_path / "game.json").write_bytes(record)
            res = subprocess.run([str(forties_exe()), "check", str(tmp_path / "game.json")],
                                 capture_output=True, text=True, timeout=120, check=False)
            verdict = json.loads(res.stdout)
            assert res.returncode == 0 and verdict["ok"] and verdict["over"], res.stdout
        finally:
            for p in pages:
                p.context.close()


def test_caddys_storage_race_is_told_apart_from_a_caddy_that_does_not_answer(
        tmp_path: Path) -> None:
    """The harness starts Caddy again only for Caddy's own race (its cleaning deleted the
    certificate it was obtaining, said in its log); a Caddy that does not answer for any
    other reason fails the test with what it said."""
    with reserved_port() as port:  # (held, and nothing listens there)
        sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            log = tmp_path / "caddy.log"
            front = Caddy(f"https://127.0.0.1:{port}", "127.0.0.1", port, sleeper, log,
                          tmp_path / "root.crt")
            log.write_text('{"msg":"[INFO] Deleting certificates/local/127.0.0.1 '
                           f'{STORAGE_RACE}"}}\n')
            with pytest.raises(StorageRace):
                wait_answering(front, seconds=5.0)
            log.write_text('{"msg":"serving initial configuration"}\n')
            with pytest.raises(RuntimeError, match="did not answer") as failed:
                wait_answering(front, seconds=0.5)
            assert not isinstance(failed.value, StorageRace)
        finally:
            sleeper.kill()
            sleeper.wait()
