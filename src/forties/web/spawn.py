"""The server's child processes, deaf to Ctrl-C from their first instant.

Ctrl-C in a terminal sends SIGINT to the whole foreground process group: the server, its
processes for the computer players and the pars, and those of ``--workers``. The server
stops its children itself, so each child ignores SIGINT; but a spawned child is a new
Python that spends a second or more importing before it runs a line of ours, and a
SIGINT in that second would end it with a KeyboardInterrupt traceback on the terminal.
So the parent starts every child with SIGINT blocked (a blocked signal stays blocked
across fork and exec, and waits), and the child's first act, :func:`deaf_to_ctrl_c`,
ignores SIGINT, which drops one that waited, and unblocks it.
"""

from __future__ import annotations

import signal
from multiprocessing import resource_tracker
from multiprocessing.context import SpawnContext, SpawnProcess

_INT = {signal.SIGINT}


class DeafSpawnProcess(SpawnProcess):
    """A spawned process started with SIGINT blocked."""

    def start(self) -> None:
        # (the mask is the calling thread's: another thread of the parent takes a Ctrl-C
        # meanwhile, or it waits the few milliseconds to this one). The resource tracker
        # first: starting it unblocks SIGINT in the thread that starts it.
        resource_tracker.ensure_running()
        old = signal.pthread_sigmask(signal.SIG_BLOCK, _INT)
        try:
            super().start()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


class DeafSpawnContext(SpawnContext):
    Process = DeafSpawnProcess


def spawn_context() -> DeafSpawnContext:
    """The start method for every child of the server: spawn, started deaf to Ctrl-C."""
    return DeafSpawnContext()


def deaf_to_ctrl_c() -> None:
    """A child's first act: ignore SIGINT (the server stops its children), and drop one
    that came while it started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _INT)
