"""The server's Prometheus metrics (``prometheus-client``), served at ``/metrics`` to the
addresses the operator allows (``--metrics-allow``; loopback by default), 404 to others.

What is counted: requests by route template and status class, open websockets, tables
live in memory, actions committed, how long an action takes (from its message to its
frames queued) and how long a commit takes, refusals by their code, errors by their kind
(every record of ERROR or above logged under ``forties``, by its exception's class).

With ``--workers N`` a scrape lands on any one of the processes, so they share their
figures through prometheus-client's multiprocess mode: the command points the environment
variable PROMETHEUS_MULTIPROC_DIR at a folder of its own (or the operator's, wiped of an
earlier run's files) before the processes start; each writes its figures there, and
``/metrics`` in any of them adds up all of them (gauges: the live processes' sum).
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
LOOPBACK = ("127.0.0.0/8", "::1/128")
SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

REGISTRY = CollectorRegistry()
REQUESTS = Counter("forties_requests", "HTTP requests answered, by route and status class",
                   ["route", "status"], registry=REGISTRY)
WEBSOCKETS = Gauge("forties_websockets_open", "Websockets open now",
                   multiprocess_mode="livesum", registry=REGISTRY)
LIVE_TABLES = Gauge("forties_live_tables", "Tables in play in memory",
                    multiprocess_mode="livesum", registry=REGISTRY)
ACTIONS = Counter("forties_actions", "Game actions committed (people's and computers')",
                  registry=REGISTRY)
ACTION_SECONDS = Histogram("forties_action_seconds", "From a player's action message to its "
                           "frames queued to every connection", buckets=SECONDS,
                           registry=REGISTRY)
COMMIT_SECONDS = Histogram("forties_commit_seconds", "A table's events committed to the "
                           "database", buckets=SECONDS, registry=REGISTRY)
REFUSALS = Counter("forties_refusals", "Requests and messages refused, by code",
                   ["code"], registry=REGISTRY)
ERRORS = Counter("forties_errors", "Errors logged, by kind (the exception's class)",
                 ["kind"], registry=REGISTRY)


def refused(code: str) -> None:
    REFUSALS.labels(code[:40]).inc()


def status_class(status: int) -> str:
    return f"{status // 100}xx" if 100 <= status < 600 else "other"


# ----- errors: every record of ERROR or above logged under "forties" --------------------------


class CountErrors(logging.Handler):
    """Counts each error logged (it prints nothing); the request lines are not errors."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("forties.request"):
            return
        exc = record.exc_info[1] if record.exc_info else None
        ERRORS.labels(type(exc).__name__ if exc is not None else "logged").inc()


def count_errors() -> None:
    """Count the errors logged under ``forties`` (once however often it is called)."""
    logger = logging.getLogger("forties")
    if not any(isinstance(h, CountErrors) for h in logger.handlers):
        logger.addHandler(CountErrors())


# ----- who may read them ----------------------------------------------------------------


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def networks(cidrs: Iterable[str]) -> Networks:
    """The networks of ``--metrics-allow`` (ValueError, one line, for one that is not)."""
    out = []
    for c in cidrs:
        try:
            out.append(ipaddress.ip_network(c.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{c!r} is not an address or a network (such as 10.0.0.0/8 "
                             "or ::1)") from None
    return tuple(out)


def allowed(host: str | None, allow: Networks) -> bool:
    """Whether the peer ``host`` (the address the request came from, after the proxies
    the server trusts) is in one of the networks ``allow``."""
    if not host:
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in allow)


async def metrics_page(request: Request) -> Response:
    """``/metrics``: the figures, to an allowed address; to any other, no such page."""
    allow: Networks = getattr(request.app.state, "metrics_allow", networks(LOOPBACK))
    if not allowed(request.client.host if request.client else None, allow):
        return JSONResponse({"error": "there is no such page"}, status_code=404)
    service = getattr(request.app.state, "service", None)
    if service is not None:
        LIVE_TABLES.set(len(service.tables))
    folder = os.environ.get(MULTIPROC_ENV)
    if folder:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, folder)  # type: ignore[no-untyped-call]
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    return Response(body, media_type=CONTENT_TYPE_LATEST)


# ----- several processes ------------------------------------------------------------------


@contextlib.contextmanager
def shared_between_processes(workers: int) -> Iterator[None]:
    """For the server processes started inside it: a folder where each writes its figures
    (the operator's PROMETHEUS_MULTIPROC_DIR, wiped of the files an earlier run left; else,
    for more than one process, a new one, removed after)."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        wipe(Path(given), keep=os.getpid())
        yield
        return
    if workers <= 1:  # one process: its own figures, in memory
        yield
        return
    folder = tempfile.mkdtemp(prefix="forties-metrics-")
    os.environ[MULTIPROC_ENV] = folder
    try:
        yield
    finally:
        os.environ.pop(MULTIPROC_ENV, None)
        shutil.rmtree(folder, ignore_errors=True)


def wipe(folder: Path, keep: int) -> None:
    """Remove the figures of processes other than ``keep`` (an earlier run's)."""
    folder.mkdir(parents=True, exist_ok=True)
    for f in folder.glob("*.db"):
        if not f.stem.endswith(f"_{keep}"):
            with contextlib.suppress(OSError):
                f.unlink()


def process_gone(pid: int) -> None:
    """A server process has ended: its gauges no longer count (its counters still do)."""
    folder = os.environ.get(MULTIPROC_ENV)
    if folder:
        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(pid, folder)  # type: ignore[no-untyped-call]


__all__ = ["ACTIONS", "ACTION_SECONDS", "COMMIT_SECONDS", "ERRORS", "LIVE_TABLES", "LOOPBACK",
           "REFUSALS", "REQUESTS", "WEBSOCKETS", "allowed", "count_errors", "metrics_page",
           "networks", "process_gone", "refused", "shared_between_processes",
           "status_class"]
