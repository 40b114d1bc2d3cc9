"""The server's limits from FORTIES_LIMITS, and the pars' process's priority."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from forties.web.pools import ParPool, child_of_the_server
from forties.web.service import Limits, Service
from forties.web.spawn import spawn_context
from forties.web.store import Store

from .helpers_engine import FORTIES
from .helpers_web import TEST_LIMITS, ServerProcess, alive, launch_serve, serving_port


def test_limits_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORTIES_LIMITS", raising=False)
    assert Limits.from_env() == Limits()
    monkeypatch.setenv("FORTIES_LIMITS", '{"par_nice": 0, "bot_delay": 1, "par": false, '
                                         '"review_seconds": null, "message_burst": 2.5}')
    got = Limits.from_env()
    assert (got.par_nice, got.bot_delay, got.par, got.review_seconds, got.message_burst) == \
        (0, 1, False, None, 2.5)


@pytest.mark.parametrize("raw, words", [
    ('{"par_nice": "x"}', "par_nice must be a whole number, not \"x\""),
    ('{"par_nice": 1.5}', "par_nice must be a whole number, not 1.5"),
    ('{"workers": true}', "workers must be a whole number, not true"),
    ('{"par": 1}', "par must be true or false, not 1"),
    ('{"par_nice": null}', "par_nice must be a whole number, not null"),
    ('{"bot_delay": "fast"}', "bot_delay must be a number or null, not \"fast\""),
    ('{"par_budget": 2.5}', "par_budget must be a whole number or null, not 2.5"),
    ('{"speed": 1}', "FORTIES_LIMITS must be an object with keys among"),
    ('[1]', "FORTIES_LIMITS must be an object with keys among"),
    ('{', "FORTIES_LIMITS is not JSON"),
    ('{"stop_seconds": -1}', "stop_seconds must be above 0, not -1"),
    ('{"stop_seconds": 0}', "stop_seconds must be above 0, not 0"),
    ('{"stop_seconds": "soon"}', "stop_seconds must be a number, not \"soon\""),
])
def test_a_wrong_limit_is_one_line(monkeypatch: pytest.MonkeyPatch, raw: str,
                                   words: str) -> None:
    monkeypatch.setenv("FORTIES_LIMITS", raw)
    with pytest.raises(ValueError) as e:
        Limits.from_env()
    assert words in str(e.value) and "\n" not in str(e.value)


@pytest.mark.asyncio
async def test_the_pars_process_runs_at_the_niceness_asked() -> None:
    here = os.nice(0)
    for nice in (10, 0):
        pars = ParPool(nice)
        try:
            assert await pars.run(os.nice, 0) == min(19, here + nice)
        finally:
            pars.close()
    assert ParPool().nice == Limits().par_nice == 10


def test_serve_with_a_wrong_limit_says_so_in_one_line(tmp_path: Path) -> None:
    env = {**os.environ, "FORTIES_DATA": str(tmp_path),
           "FORTIES_LIMITS": '{"par_nice": "low"}'}
    res = subprocess.run([str(FORTIES), "serve", "--no-browser", "--port", "0"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == ("forties: FORTIES_LIMITS: par_nice must be a whole number, "
                          "not \"low\"\n")


@pytest.mark.asyncio
async def test_a_started_pars_process_has_its_solvers_loaded_before_the_first_par() -> None:
    from forties.warmup import is_warm

    cold = ParPool(0)
    try:
        assert await cold.run(is_warm) is False  # started by the first par: nothing loaded
    finally:
        cold.close()
    ready = ParPool(0)
    try:
        ready.start()
        assert await ready.run(is_warm) is True  # the first task it was given
    finally:
        ready.close()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


@pytest.mark.parametrize("par", [True, False])
def test_serve_starts_the_pars_process_with_it_where_there_are_pars(tmp_path: Path,
                                                                    par: bool) -> None:
    server = ServerProcess(tmp_path, par=par).start()
    assert server.proc is not None
    try:
        with urllib.request.urlopen(server.http + "/", timeout=30) as r:  # (started: served)
            assert r.status == 200
        deadline = time.monotonic() + 30
        while par and not children(server.proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        # (the expert players' pool starts when a computer first needs it)
        assert bool(children(server.proc.pid)) == par
    finally:
        code, _, err = server.stop()
    assert code == 0 and "Traceback" not in err



def parent_death_signal() -> int:
    """In the pars' process: the signal it gets when its server dies (PR_GET_PDEATHSIG)."""
    import ctypes

    got = ctypes.c_int(0)
    assert ctypes.CDLL(None).prctl(2, ctypes.byref(got)) == 0
    return got.value


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
@pytest.mark.asyncio
async def test_the_servers_processes_die_with_it_even_killed(tmp_path: Path) -> None:
    # (else a server killed outright would leave its par searching on, up to a minute)
    pars = ParPool(0)
    try:
        assert await pars.run(parent_death_signal) == signal.SIGKILL
    finally:
        pars.close()
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits())
    try:  # the computer players' and hints' processes too
        got = await asyncio.get_running_loop().run_in_executor(service.pool,
                                                               parent_death_signal)
        assert got == signal.SIGKILL
    finally:
        await service.close()
        service.store.close()


def test_achild_of_the_server_is_deaf_to_ctrl_c_while_it_starts() -> None:
    """A SIGINT that comes while the child is still importing (before a line of ours
    runs) neither kills it nor prints a KeyboardInterrupt: it waits, blocked, and the
    child's first act drops it. (A plain spawned child dies of it.)"""
    for _ in range(3):
        child = spawn_context().Process(target=child_of_the_server)
        child.start()
        os.kill(child.pid, signal.SIGINT)  # (Python is starting: loading the server's modules)
        child.join(60)
        assert child.exitcode == 0


@pytest.mark.parametrize("after", [0.0, 1.0])
def test_ctrl_c_in_a_terminal_stops_serve_and_its_processes_without_a_traceback(
        tmp_path: Path, after: float) -> None:
    """Ctrl-C reaches the whole foreground process group: the server, the pars' process
    and its helper; at once (the pars' process still importing) or a second later."""
    proc = launch_serve(tmp_path, {**TEST_LIMITS, "par": True}, ["--port", "0"],
                        new_session=True)
    serving_port(proc)
    deadline = time.monotonic() + 30
    while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    left = children(proc.pid)
    assert left
    time.sleep(after)  # (then the pars' process has started loading the solvers)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def serve_with_pars(tmp_path: Path, **limits: Any) -> subprocess.Popen[str]:
    """``forties serve`` in a session of its own, its pars' process started."""
    proc = launch_serve(tmp_path, {**TEST_LIMITS, "par": True, "par_nice": 0, **limits},
                        ["--port", "0"], new_session=True)
    serving_port(proc)
    deadline = time.monotonic() + 30
    while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert children(proc.pid)
    return proc


def pars_process(proc: subprocess.Popen[str]) -> int:
    """The pid of the pars' process of ``proc`` (``serve_with_pars``), not the helper that
    tracks files."""
    kids = [pid for pid in children(proc.pid)
            if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text()]
    assert len(kids) == 1, kids
    return kids[0]


def waiting_for_work(pid: int, within: float = 240.0) -> None:
    """Returns once the process ``pid`` sleeps and has used no processor time for two
    seconds: the pars' process, its solvers loaded (numba may compile them first)."""
    deadline = time.monotonic() + within
    seen: list[int] = []
    while time.monotonic() < deadline:
        stat = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()
        seen = [*seen[-2:], int(stat[11]) + int(stat[12]) if stat[0] == "S" else -1]
        if len(seen) == 3 and seen[0] >= 0 and seen.count(seen[0]) == 3:
            return
        time.sleep(1.0)
    raise AssertionError(f"process {pid} still busy after {within:g} s")


def stops_cleanly(proc: subprocess.Popen[str]) -> None:
    """``proc`` stops by itself: "stopped serving", status 0, no traceback and no need of
    the stop thread (which would have ended it after ``stop_seconds``, 20, saying "still
    stopping"). What it says, not the seconds it took: those were checked under 10 until
    a loaded machine took more over a right stop."""
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert out.strip().endswith("forties: stopped serving"), out
    assert "Traceback" not in err and "still stopping" not in err, err


def ended(pid: int, what: str) -> None:
    """Wait until process ``pid`` no longer runs (ended by what was checked before: a
    killed process takes a moment to end, longer on a loaded machine); a process left
    running fails the test after 30 s."""
    deadline = time.monotonic() + 30
    while alive(pid):
        assert time.monotonic() < deadline, f"{what} ({pid}) still runs"
        time.sleep(0.05)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_frozen_pars_process_does_not_hold_up_a_stop(tmp_path: Path) -> None:
    """Three people saw a server that, after some minutes of play, did not stop on SIGTERM
    or Ctrl-C. Here its pars' process is frozen (SIGSTOP): the server kills it on the way
    out without waiting on it, and stops in seconds (under the default ``stop_seconds``,
    20, without the stop thread), its pars' process ended, frozen as it was. (Ending a
    ``multiprocessing`` pool so frozen waited for ever: the stop thread ended it.)"""
    proc = serve_with_pars(tmp_path)
    kid = pars_process(proc)
    os.kill(kid, signal.SIGSTOP)
    proc.send_signal(signal.SIGTERM)
    stops_cleanly(proc)
    ended(kid, "the frozen pars' process")


def test_the_stop_watchdog_ends_a_process_whose_main_thread_is_stuck(tmp_path: Path) -> None:
    """``end_at_once_after`` in a process whose main thread waits on a lock for ever, with
    a worker process of its own: the process still ends, and its worker with it."""
    script = tmp_path / "stuck.py"
    script.write_text(
        "import multiprocessing, threading, time\n"
        "from forties.web.serving import end_at_once_after\n"
        "if __name__ == '__main__':\n"
        "    child = multiprocessing.get_context('spawn').Process(target=time.sleep,"
        " args=(120,))\n"
        "    child.start()\n"
        "    print(child.pid, flush=True)\n"
        "    end_at_once_after(1)\n"
        "    lock = threading.Lock()\n"
        "    lock.acquire()\n"
        "    lock.acquire()  # never\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert err.strip() == "forties: still stopping after 1 s: stopped at once (every " \
                          "move was already saved)"
    ended(int(out.split()[0]), "the stuck process's worker, asleep for two minutes")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("group", [True, False])
def test_sigterm_stops_serve_at_once_and_says_so(tmp_path: Path, group: bool) -> None:
    """SIGTERM, to the server alone (kill) or to its whole process group (systemctl stop,
    timeout), stops it in seconds with "stopped serving", status 0, under the default
    ``stop_seconds`` (20) and without the stop thread. To the group it kills the pars'
    process too, waiting for work: a ``multiprocessing`` pool's worker died so holding
    its task queue's lock, and the pool's terminate waited for that lock until the stop
    thread ended the server, 20 s later."""
    proc = serve_with_pars(tmp_path)
    waiting_for_work(pars_process(proc))
    if group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    stops_cleanly(proc)


@pytest.mark.asyncio
async def test_the_servers_computer_players_are_told_what_each_seat_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A computer player of the web tables, in the pool (the expert) or not (``basic``), is
    told each seat's level as the table shows it, None for a person (what the expert does
    with it: ``test_table``, ``test_model``)."""
    from concurrent.futures import ThreadPoolExecutor

    from forties import table
    from forties.web import pools

    told: list[tuple[str, Any]] = []
    real = table.computer_choice

    def choice(level: str, key: str, view: Any, legal: Any, seats: Any = None) -> Any:
        told.append((level, seats))
        return real(level, key, view, legal, seats)

    monkeypatch.setattr(table, "computer_choice", choice)  # (the quick levels')
    monkeypatch.setattr(pools, "computer_choice", choice)  # (the pool's)
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits())
    service.pools.computers_pool = ThreadPoolExecutor(1)  # (in this process, with the stand-in)
    try:
        await service.create_table(
            "merrimack-valley", settings={"bot_delay": 0},
            seats=[{"kind": "computer", "level": "expert"}, {"kind": "computer", "level": "basic"},
                   {"kind": "person", "name": "P"}, {"kind": "computer", "level": "basic"}])
        for _ in range(600):
            if {lv for lv, _ in told} == {"expert", "basic"}:
                break
            await asyncio.sleep(0.05)
        assert {lv for lv, _ in told} == {"expert", "basic"}
        assert all(seats == ["expert", "basic", None, "basic"] for _, seats in told)
    finally:
        await service.close()
        service.store.close()
