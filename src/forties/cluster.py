"""Ray: independent jobs (duplicate deals, games, the tables of a hall evening) spread over a
cluster of machines, with the same results as one machine.

An adapter beside the engine: Ray is imported only when a pool is opened, so nothing else in
forties needs Ray installed (``pip install -e '.[scale]'`` brings it). Every job carries its
own seed, and results come back in the order the jobs were given, so a match or an evening
played on a cluster is the one played here, figure for figure.

With no address, a local cluster is started for the run with a bounded number of CPUs, on
this machine's loopback address only, without its dashboard or usage reports, and stopped
at the end. With an address (``HOST:PORT`` of a running cluster's head, ``auto``, or
``ray://HOST:PORT``), the jobs go to that cluster, whose machines must have forties installed.
"""

from __future__ import annotations

import logging
import os
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .errors import FortiesError

T = TypeVar("T")
R = TypeVar("R")

# Jobs in flight per CPU of the cluster: enough to keep every CPU busy while results are
# collected, few enough that a million deals are not all queued at once.
IN_FLIGHT_PER_CPU = 4


class ClusterError(FortiesError):
    """Ray is missing or the cluster cannot be reached (a one-line message)."""


def _call(fn: Callable[[Any], Any], item: Any) -> Any:
    return fn(item)


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an address where nothing answers (Ray itself would wait for ever).

    ``auto`` (the cluster this machine belongs to) is left to Ray, which answers at once."""
    if address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit() and len(port) <= 5):
        raise ClusterError(f"--ray {address}: give the cluster's head as HOST:PORT "
                           "(or auto, or ray://HOST:PORT)")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        why = "it does not answer" if isinstance(e, TimeoutError) else \
            e.strerror or type(e).__name__
        raise ClusterError(f"cannot join the Ray cluster at {address}: {why}") from None


class RayPool:
    """A connection to a Ray cluster that plays jobs and gives their results in order."""

    def __init__(self, address: str | None = None, cpus: int = 2) -> None:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no reports to anyone
        if not address:
            # A cluster of this machine alone: Ray then keeps every address on loopback
            # (read when Ray is imported; the name says Windows or macOS, but the switch is
            # the same on Linux), so nothing listens beyond this machine.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        try:
            import ray
        except ImportError:
            raise ClusterError(
                "--ray needs Ray: pip install -e '.[scale]' (or pip install ray)") from None
        self._ray = ray
        self.started = False
        if ray.is_initialized():  # a cluster this program already joined: use it as it is
            pass
        elif address:
            _check_reachable(address)
            try:
                ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
            except Exception as e:  # Ray raises many kinds; the user needs one line
                why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                raise ClusterError(f"cannot join the Ray cluster at {address}: {why}") from None
            self.started = True
        else:
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False,
                     logging_level=logging.ERROR, _node_ip_address="127.0.0.1")
            self.started = True
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call]
        self.address = address or "a local cluster"
        self._remote = ray.remote(num_cpus=1)(_call)

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn`` of every item, played on the cluster, yielded in the items' order as soon
        as each one and those before it are done. ``fn`` must be a module-level function."""
        ray = self._ray
        window = self.cpus * IN_FLIGHT_PER_CPU
        pending: deque[Any] = deque()
        fn_ref = ray.put(fn)
        for item in items:
            pending.append(self._remote.remote(fn_ref, item))
            if len(pending) >= window:
                yield ray.get(pending.popleft())
        while pending:
            yield ray.get(pending.popleft())

    def close(self) -> None:
        """Leave the cluster (stopping it if this pool started it)."""
        if self.started:
            self._ray.shutdown()
            self.started = False

    def __enter__(self) -> RayPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def where(self) -> str:
        """Where the jobs run, for the report."""
        return f"Ray ({self.address}, {self.cpus} CPUs)"
