"""The server's worker processes: a pool for the computer players' choices and the hints,
the pars' pool (one process, at a lower priority) and the replays' (the same, a process
of its own: a long record's replay never waits on a par nor holds one up), each a
standard ``concurrent.futures`` process pool, so that the event loop never waits on a
search or a replay.

The pars' pool is ended, not waited for, when the server stops (a par may search for a
minute); a pars' process that dies (killed, crashed) fails only the pars it owed, and the
next par starts a fresh one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any

from ..actions import Action
from ..advice import hint_json, par_json
from ..errors import FortiesError
from ..state import GameState
from ..table import computer_choice
from .replays import replay_body
from .spawn import deaf_to_ctrl_c, spawn_context


def child_of_the_server(nice: int = 0) -> None:
    """A worker process of the server's (the pars', the computer players'): deaf to
    Ctrl-C, at ``nice`` (the pars' yield the cores to the play: a par may search for a
    minute), and on Linux ended with its server even when the server is killed outright
    (else it would go on with what it was given)."""
    # Ctrl-C in a terminal reaches the whole process group: the server ends its workers
    # itself (no KeyboardInterrupt traceback from each of them, even while they start)
    deaf_to_ctrl_c()
    if nice:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(nice)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


# ----- the work, run in the pools' processes ------------------------------------------------


def pool_choice(level: str, key: str, view: dict[str, Any], legal: list[str],
                seats: list[str | None]) -> str:
    return str(computer_choice(level, key, view, [Action.parse(a) for a in legal], seats))


def pool_par(state: GameState, budget: int | None = None) -> dict[str, Any] | None:
    """The par of a hand, worked out in the pars' process (``forties.advice``)."""
    return par_json(state, budget)


def pool_hint(state: GameState, seat: int) -> dict[str, Any]:
    """A hint, worked out in the computers' pool (``forties.advice``)."""
    return hint_json(state, seat)


def pool_replay(body: bytes, max_hands: int, max_bytes: int) -> bytes:
    """The replay of the record in a request's body (its bytes as they came: read as JSON
    there), as its answer's JSON, worked out in the replays' process
    (``forties.web.replays``)."""
    return replay_body(body, max_hands, max_bytes)


def load_solvers() -> None:
    from ..warmup import warm_up

    warm_up()


# ----- the pars' pool -----------------------------------------------------------------------


class ParsEnded(FortiesError, RuntimeError):
    """A par that will not come back: the pars' process ended before it answered (killed
    or crashed; the next par starts a fresh one), or the server is stopping."""


class ParFailed(FortiesError, RuntimeError):
    """A par whose answer (its value, or the exception it raised) could not be sent or
    read back: it would fail the same way if asked again, unlike ``ParsEnded``."""


def _answer(call: bytes) -> tuple[bool, bytes]:
    """In the pars' process: the pickled ``(fn, args)`` called, and its value or the
    exception it raised, pickled here, so that an answer that cannot travel fails its
    par alone (the pool would count an unreadable answer as a broken process)."""
    try:
        fn, args = pickle.loads(call)
        value, ok = fn(*args), True
    except Exception as e:
        value, ok = e, False
    try:
        return ok, pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception as e:
        return False, pickle.dumps(ParFailed(f"a par's answer could not be sent: {e!r}"))


class ParPool:
    """One process for the pars, at a lower priority (``nice``: its niceness, 10 unless
    told), so that a long search never holds up a computer's move."""

    def __init__(self, nice: int = 10) -> None:
        self.nice = nice
        self.closed = False  # closed for good: a par asked after it is refused
        self._pool: ProcessPoolExecutor | None = None
        self._broken: ProcessPoolExecutor | None = None  # (the pool whose process died)
        self._owed: dict[Future[tuple[bool, bytes]],
                         tuple[asyncio.AbstractEventLoop, asyncio.Future[Any]]] = {}

    def run(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``fn(*args)`` in the pars' process, as an awaitable: its value, or the exception
        it raised, or ``ParFailed`` when that answer cannot come back, or ``ParsEnded``
        when the process ends before it answers."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        call = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        pool = self._open()
        try:
            done = pool.submit(_answer, call)
        except BrokenProcessPool:  # (it died that instant)
            fut.set_exception(ParsEnded("the pars' process ended: the par was not worked "
                                        "out"))
            return fut
        processes = list(pool._processes.values())
        self._owed[done] = (loop, fut)
        done.add_done_callback(lambda d: self._settle(pool, processes, d))
        return fut

    def start(self) -> None:
        """Start the process now, and have it load the solvers first (``forties serve``
        does this as it starts: the first par then waits on neither)."""
        self._open().submit(_answer, pickle.dumps((load_solvers, ())))

    def _open(self) -> ProcessPoolExecutor:
        if self.closed:  # (a process started now would outlive its server's stop)
            raise RuntimeError("the server is stopping: no more pars")
        if self._pool is None or self._pool is self._broken:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=spawn_context(), initializer=child_of_the_server,
                initargs=(self.nice,))
        return self._pool

    def _settle(self, pool: ProcessPoolExecutor, processes: Sequence[BaseProcess],
                done: Future[tuple[bool, bytes]]) -> None:
        """A par's answer (in the pool's thread): its future settled on its loop."""
        owed = self._owed.pop(done, None)
        if owed is None:
            return  # (closed meanwhile: failed already)
        value: Any = None
        error: BaseException | None = None
        try:
            ok, payload = done.result()
        except BrokenProcessPool:
            self._broken = pool
            error = ParsEnded(self._why_ended(processes) + ": the par was not worked out")
        except BaseException as e:  # (the call could not be sent, or was cancelled)
            error = e
        else:
            try:
                value = pickle.loads(payload)
            except Exception as e:  # (sent, but not to be read here)
                ok, value = False, ParFailed(f"a par's answer could not be read: {e!r}")
            if not ok:
                error, value = value, None
        _settle(*owed, value, error)

    @staticmethod
    def _why_ended(processes: Sequence[BaseProcess]) -> str:
        why = "the pars' process ended"
        for p in processes:
            with contextlib.suppress(Exception):  # (its end may not be reaped yet)
                p.join(1)
            code = p.exitcode
            if code is not None and code < 0:
                with contextlib.suppress(ValueError):
                    return f"{why} (killed by {signal.Signals(-code).name})"
            elif code is not None:
                return f"{why} (status {code})"
        return why

    def close(self) -> None:
        """Refuse pars from now on and end the process at once (SIGKILL: a par is only
        worked out again), whether it waits, searches, is frozen or is already dead; the
        pars it owed fail with ``ParsEnded``."""
        self.closed = True
        pool, self._pool = self._pool, None
        owed, self._owed = list(self._owed.values()), {}
        if pool is not None:
            for p in list(pool._processes.values()):
                with contextlib.suppress(Exception):
                    p.kill()  # (a frozen process too)
                with contextlib.suppress(Exception):
                    p.join(1)
            pool.shutdown(wait=False, cancel_futures=True)
        error = ParsEnded("the server is stopping: the par was not worked out")
        for loop, fut in owed:
            _settle(loop, fut, None, error)


class Pools:
    """The server's pools: the computer players' and the hints' (``workers``
    processes, started when a computer first needs one), the pars' (``ParPool``) and
    the replays' (a ``ParPool`` too: one process at the pars' niceness, started by the
    first replay)."""

    def __init__(self, workers: int = 1, par_nice: int = 10) -> None:
        self.workers = workers
        self.computers_pool: Executor | None = None
        self.pars = ParPool(par_nice)
        self.replays = ParPool(par_nice)
        self.closed = False

    @property
    def computers(self) -> Executor:
        if self.closed:  # (a process started now would outlive its server's stop)
            raise RuntimeError("the server is stopping: no more computer players' work")
        if self.computers_pool is None:
            self.computers_pool = ProcessPoolExecutor(
                max_workers=max(1, self.workers), mp_context=spawn_context(),
                initializer=child_of_the_server)
        return self.computers_pool

    def close(self) -> None:
        """Refuse work from now on; the computers' pool is not waited for, the pars'
        process is ended at once."""
        self.closed = True
        if self.computers_pool is not None:
            self.computers_pool.shutdown(wait=False, cancel_futures=True)
        self.pars.close()
        self.replays.close()
        self.computers_pool = None


def _settle(loop: asyncio.AbstractEventLoop, fut: asyncio.Future[Any], value: Any,
            error: BaseException | None) -> None:
    """Give ``fut`` its value or its exception, on its loop (from any thread). A par that
    raised StopIteration fails with a RuntimeError (a future refuses StopIteration, and
    would never be settled), as a coroutine does."""
    if isinstance(error, StopIteration):
        cause, error = error, RuntimeError(f"the par raised StopIteration: {error!r}")
        error.__cause__ = cause

    def settle() -> None:
        if fut.done():
            return  # (cancelled meanwhile: nobody waits)
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(value)

    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
        loop.call_soon_threadsafe(settle)


__all__ = ["ParFailed", "ParPool", "ParsEnded", "Pools", "child_of_the_server",
           "pool_choice", "pool_hint", "pool_par", "pool_replay"]
