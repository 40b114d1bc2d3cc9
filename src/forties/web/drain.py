"""A server told to stop (SIGTERM, Ctrl-C) drains before it stops, so that an upgrade loses
no game and no tap: it takes no new table (503, "the server is restarting"), says it is
not ready (``/readyz``), lets every commit in progress finish, and tells every page at its
tables to reconnect: after its last frames, each websocket is closed with 1012 ("service
restart"), on which the page and the Python client reconnect by themselves, with their
usual backoff, to whichever server is up. A websocket opened during the drain is closed
the same way. The drain lasts at least ``Limits.drain_seconds`` (0 by default: a proxy
that asks ``/readyz`` every few seconds wants about that long to send no one here), and
the server then stops as before (``forties.web.serving``).

Also here: ``/readyz``, whether this process can serve a game now (its database answers,
Redis where it has one, and it is not draining): ``{"ok": true}`` or 503 and one line.
"""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .http import error
from .service import RESTARTING, Service

log = logging.getLogger("forties.web")
RESTART = 1012  # the websocket's close code: "service restart" (RFC 6455, IANA registry)
COMMITS_SECONDS = 5.0  # the longest the drain waits for the commits in progress
CHECK_SECONDS = 2.0  # the longest /readyz waits for the database or Redis


async def drain(service: Service, seconds: float = 0.0) -> None:
    """Drain ``service``: no new tables from now on, every commit in progress finished
    and every connection at every table closed with RESTART after its last frames; then
    wait out the rest of ``seconds`` (from the start)."""
    began = time.monotonic()
    service.draining = True
    try:
        await asyncio.wait_for(close_tables(service), COMMITS_SECONDS)
    except TimeoutError:
        log.warning("draining: a table's commit still in progress after %g s; stopping "
                    "anyway (it is finished or lost as a whole)", COMMITS_SECONDS)
    except Exception:  # the stop goes on whatever happened here
        log.exception("draining failed; stopping anyway")
    left = seconds - (time.monotonic() - began)
    if left > 0:
        await asyncio.sleep(left)  # the window in which a proxy learns we are draining


async def close_tables(service: Service) -> None:
    """Each table in turn, under its lock (so no commit of it is in progress): its
    connections are told to reconnect."""
    for live in list(service.tables.values()):
        async with live.lock:
            for conn in list(live.conns):
                conn.close(RESTART)


async def readyz(request: Request) -> Response:
    service: Service = request.app.state.service
    if service.draining:
        return error(503, RESTARTING, "restarting")
    try:
        await asyncio.wait_for(service.store.reachable(), CHECK_SECONDS)
    except Exception as e:
        log.warning("not ready: the database: %s", _first_line(e))
        return error(503, "the database does not answer", "database")
    bus = service.bus
    if bus is not None:
        try:
            await asyncio.wait_for(bus.redis.ping(), CHECK_SECONDS)
        except Exception as e:
            log.warning("not ready: Redis: %s", _first_line(e))
            return error(503, "Redis does not answer", "redis")
    return JSONResponse({"ok": True})


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


__all__ = ["RESTART", "RESTARTING", "close_tables", "drain", "readyz"]
