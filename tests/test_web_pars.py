"""The pars' process (``ParPool``): its answers, its death at any moment, its end."""

from __future__ import annotations

import asyncio
import logging
import operator
import os
import signal
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from forties.web.pools import ParFailed, ParPool, ParsEnded
from forties.web.service import Limits, Service
from forties.web.store import Store

from .helpers_web import alive

# A spawned process imports the server's modules before its first answer: seconds on a
# busy machine. Every wait here is bounded.
START = 60.0
# What would otherwise wait for ever (a broken pool) waits this long, then fails the test.
GUARD = 60.0


async def answer(fut: asyncio.Future[Any], within: float = START) -> Any:
    return await asyncio.wait_for(fut, within)


def marked_sleep(mark: str, seconds: float) -> None:
    """A long par that leaves ``mark`` (a file) when it begins."""
    Path(mark).touch()
    time.sleep(seconds)


async def begun(mark: Path) -> None:
    """Return once the par that leaves ``mark`` has begun in the pars' process."""
    end = time.monotonic() + START
    while not mark.exists():
        assert time.monotonic() < end, f"the pars' process did not begin the par in {START} s"
        await asyncio.sleep(0.02)


async def busy(pars: ParPool, folder: Path) -> tuple[int, asyncio.Future[Any]]:
    """The pars' process's pid, and a par it is in the middle of (an hour long)."""
    pid = await answer(pars.run(os.getpid))
    mark = folder / "begun"
    long = pars.run(marked_sleep, str(mark), 3600)
    await begun(mark)
    return pid, long


@pytest.mark.asyncio
async def test_a_par_comes_back() -> None:
    pars = ParPool(0)
    try:
        assert await answer(pars.run(operator.add, 2, 3)) == 5
        assert await answer(pars.run(operator.mul, "ab", 2)) == "abab"
        assert await answer(pars.run(os.getpid)) != os.getpid()
    finally:
        pars.close()


@pytest.mark.asyncio
async def test_an_exception_in_the_par_comes_back_as_it_was() -> None:
    pars = ParPool(0)
    try:
        with pytest.raises(ValueError, match="invalid literal for int"):
            await answer(pars.run(int, "x"))
        assert await answer(pars.run(int, "7")) == 7  # (the same process goes on)
    finally:
        pars.close()


@pytest.mark.asyncio
async def test_a_par_that_raises_stop_iteration_fails_with_a_runtime_error() -> None:
    """A future refuses StopIteration (it would be left unsettled, and the server's par
    task wait for ever): the par fails with a RuntimeError that names it, as a coroutine's
    would, and the process goes on."""
    pars = ParPool(0)
    try:
        with pytest.raises(RuntimeError, match="the par raised StopIteration") as got:
            await answer(pars.run(next, iter(())))
        assert not isinstance(got.value, ParsEnded)
        assert isinstance(got.value.__cause__, StopIteration)
        assert await answer(pars.run(operator.add, 2, 2)) == 4
    finally:
        pars.close()


def gated(mark: str, gate: str) -> None:
    """A par that leaves ``mark`` when it begins and ends when ``gate`` (a file) exists."""
    Path(mark).touch()
    while not Path(gate).exists():
        time.sleep(0.01)


@pytest.mark.asyncio
async def test_the_sends_never_wait_on_a_busy_process(tmp_path: Path) -> None:
    """Twenty pars of a megabyte each, asked while the process is busy (far more than a
    pipe holds): each ``run`` returns while the process is still busy, and all come back
    in order. The busy par ends only when the test opens its gate, after the sends (or
    after GUARD seconds, so that a ``run`` that waited on the pipe fails the test rather
    than hang it: the process then reads the pipe, the sends end, and the gate is found
    open)."""
    pars = ParPool(0)
    gate = tmp_path / "gate"
    opener = threading.Timer(GUARD, gate.touch)
    try:
        await answer(pars.run(os.getpid))
        first = pars.run(gated, str(tmp_path / "begun"), str(gate))
        await begun(tmp_path / "begun")
        opener.start()
        futs = [pars.run(len, bytes(1 << 20) + bytes(i)) for i in range(20)]
        assert not gate.exists(), "the sends waited for the busy process"
        assert not first.done()
        gate.touch()
        await answer(first)
        assert [await answer(f) for f in futs] == [(1 << 20) + i for i in range(20)]
    finally:
        opener.cancel()
        gate.touch()
        pars.close()


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.asyncio
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
async def test_a_killed_process_fails_its_pars_and_the_next_starts_afresh(
        sig: signal.Signals, tmp_path: Path) -> None:
    pars = ParPool(0)
    try:
        pid, long = await busy(pars, tmp_path)
        os.kill(pid, sig)
        # (the par would have slept a minute in the killed process: it is failed because
        # the pool saw its process die, or the wait ends after GUARD and the test fails)
        with pytest.raises(ParsEnded, match=rf"ended \(killed by {sig.name}\): the par was not"):
            await answer(long, GUARD)
        assert not pars.closed
        fresh = await answer(pars.run(os.getpid))
        assert fresh != pid and not alive(pid)
        assert await answer(pars.run(operator.add, 1, 1)) == 2
    finally:
        pars.close()


def closed_by_itself(pars: ParPool) -> None:
    """``pars.close()``, which must return without waiting for the process: a close that
    waited for it would wait for an hour's par, or for ever for a frozen process, and
    is failed after GUARD seconds (a bound for a hang, not a measure of speed)."""
    closing = threading.Thread(target=pars.close, daemon=True)
    closing.start()
    closing.join(GUARD)
    assert not closing.is_alive(), f"close still waited for the process after {GUARD:g} s"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.asyncio
@pytest.mark.parametrize("state", ["idle", "busy", "frozen", "dead", "never started"])
async def test_close_returns_at_once_whatever_the_process_is_doing(state: str,
                                                                  tmp_path: Path) -> None:
    """Busy in an hour's search, frozen (SIGSTOP), already dead (killed that instant,
    before the server heard), waiting, or never started: ``close`` returns without
    waiting for the process, the process gone, its pars failed; later pars are refused."""
    pars = ParPool(0)
    pid, long = None, None
    if state == "idle":
        pid = await answer(pars.run(os.getpid))
    elif state != "never started":
        pid, long = await busy(pars, tmp_path)
        if state == "frozen":
            os.kill(pid, signal.SIGSTOP)
        elif state == "dead":
            os.kill(pid, signal.SIGKILL)
    closed_by_itself(pars)
    assert pars.closed
    if pid is not None:
        assert not alive(pid)
    if long is not None:
        with pytest.raises(ParsEnded):
            await answer(long, GUARD)
    with pytest.raises(RuntimeError, match="the server is stopping: no more pars"):
        pars.run(operator.add, 1, 1)
    with pytest.raises(RuntimeError, match="the server is stopping: no more pars"):
        pars.start()
    pars.close()  # (twice: nothing more)


@pytest.mark.asyncio
async def test_a_par_lost_with_its_process_is_one_line_and_asked_again(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The server's side: a par whose process was killed is told in one line, not a
    traceback, and the hand may be asked again (when someone comes to the table)."""
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits(par_nice=0))
    pid = await answer(service.par_pool.run(os.getpid))
    real = service.par_pool.run
    mark = tmp_path / "begun"
    service.par_pool.run = (  # type: ignore[method-assign]
        lambda fn, *args: real(marked_sleep, str(mark), 60))
    live: Any = SimpleNamespace(table=SimpleNamespace(id="t1"), par_asked={3}, par_lost={},
                                lock=asyncio.Lock())
    try:
        task = asyncio.ensure_future(service.turns.par(live, 3, None))  # type: ignore[arg-type]
        await begun(mark)
        with caplog.at_level(logging.WARNING, logger="forties.web"):
            os.kill(pid, signal.SIGKILL)
            await asyncio.wait_for(task, GUARD)
        assert [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records] == [
            ("WARNING", "the par of table t1 hand 3: the pars' process ended (killed by "
                        "SIGKILL): the par was not worked out", None)]
        assert live.par_asked == set()
    finally:
        await service.close()
        service.store.close()


class NeedsTwo(Exception):
    """Pickled by the pars' process, but not read back here (its ``__init__`` takes two
    arguments, its ``args`` one)."""

    def __init__(self, a: str, b: str) -> None:
        super().__init__(f"{a} {b}")


def raise_needs_two() -> None:
    raise NeedsTwo("x", "y")


@pytest.mark.asyncio
async def test_an_answer_that_cannot_come_back_is_a_failed_par_not_a_lost_process() -> None:
    """An exception that cannot be read back, a value that cannot be sent: the par failed
    (``ParFailed``, which would come again if asked again), not ``ParsEnded`` (the process
    died: worth asking again); the process goes on."""
    pars = ParPool(0)
    try:
        pid = await answer(pars.run(os.getpid))
        with pytest.raises(ParFailed, match=r"could not be read: TypeError\(.*NeedsTwo") as got:
            await answer(pars.run(raise_needs_two))
        assert not isinstance(got.value, ParsEnded)
        with pytest.raises(ParFailed, match=r"could not be sent: TypeError\(.*lock") as got:
            await answer(pars.run(threading.Lock))
        assert not isinstance(got.value, ParsEnded)
        assert await answer(pars.run(os.getpid)) == pid
    finally:
        pars.close()


LOST = ("the par of table t1 hand 3: the pars' process ended (status 3): the par was not "
        "worked out")


@pytest.mark.asyncio
@pytest.mark.parametrize("par, asked, lines", [
    ((os._exit, 3), 3, [("WARNING", LOST), ("WARNING", LOST),
                        ("WARNING", LOST + "; not asked again (lost 3 times)")]),
    ((raise_needs_two,), 1, [("ERROR", "the par of table t1 hand 3 failed: ParFailed: a "
                                       "par's answer could not be read: TypeError(\"NeedsTwo")]),
    ((threading.Lock,), 1, [("ERROR", "the par of table t1 hand 3 failed: ParFailed: a "
                                      "par's answer could not be sent: TypeError(")]),
    ((int, "x"), 1, [("ERROR", "the par of table t1 hand 3 failed: ValueError: invalid "
                               "literal for int() with base 10: 'x'")]),
], ids=["kills its process", "unreadable", "unsendable", "raises"])
async def test_a_failed_par_is_not_asked_again_and_a_lost_one_twice_at_most(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, par: tuple[Any, ...], asked: int,
        lines: list[tuple[str, str]]) -> None:
    """Six events of a hand's review (a ready, a join...), each asking for its par: a par
    that fails the same way every time is asked once and told in one line with its cause;
    one whose process dies every time is asked again twice, then no more (not a fresh
    process and a fresh search at every event)."""
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits(par_nice=0))
    real, calls = service.par_pool.run, []

    def run(fn: Any, *args: Any) -> asyncio.Future[Any]:
        calls.append(fn)
        return real(*par)

    service.par_pool.run = run  # type: ignore[method-assign]
    table = SimpleNamespace(id="t1", par={}, state=SimpleNamespace(hand_index=3,
                                                                   clone=lambda: None))
    live: Any = SimpleNamespace(table=table, par_asked=set(), par_lost={}, conns={"Ann"},
                                remote=set(), standby=False, lock=asyncio.Lock(),
                                par_running=False)
    try:
        with caplog.at_level(logging.WARNING, logger="forties.web"):
            for _ in range(6):
                before = set(service.live_tables.tasks)
                service.turns.ask_par(live)
                await asyncio.wait_for(asyncio.gather(*(service.live_tables.tasks - before)), START)
        assert len(calls) == asked
        got = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records]
        assert len(got) == len(lines), got
        assert [(level, message[:len(want)], exc) for (level, message, exc), (_, want)
                in zip(got, lines, strict=True)] == [(level, want, None) for level, want in lines]
        assert all("\n" not in message for _, message, _ in got)
    finally:
        await service.close()
        service.store.close()
