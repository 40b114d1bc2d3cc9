"""How uvicorn serves the app in every server process, and how a server told to stop ends
(within its ``stop_seconds`` whatever it still waits on).

The command (``forties.commands.serve``) and the processes of ``--workers``
(``forties.web.workers``) both serve through these.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Any

from ..errors import FortiesError

# The largest websocket frame the transport reads: the app itself answers a message over
# its own limit (Limits.message_bytes, 4 KiB) with a "size" error frame and keeps the
# connection; only a frame over this one is closed by the transport (code 1009).
WS_MAX_SIZE = 1024 * 1024


# Stopping: the seconds a stopping server gives its connections and requests to end (then
# they are cancelled). Past the limit ``stop_seconds`` after the signal it ends at once,
# whatever it is still waiting for (every move was committed as it was made, so nothing
# is lost: the tables carry on when the server starts again).
GRACEFUL_SECONDS = 5


def uvicorn_config(app: Any, log_format: str = "text") -> Any:
    """How uvicorn serves the app (every server process alike): X-Forwarded-For and
    -Proto believed only from the proxies the operator names (the app's ``door``; none,
    and no address is taken from a header), and the transport's limits
    (``transport.guarded_protocol``) from the app's ``Limits``; with ``log_format``
    "json" uvicorn's own lines go through the server's JSON logs (``forties.web.logs``)."""
    import uvicorn

    from .transport import guarded_protocol, make_room_for

    limits = app.state.service.limits
    trusted = tuple(app.state.door.trusted_proxies)
    make_room_for(int(limits.connections_total))
    more: dict[str, Any] = {"log_config": None} if log_format == "json" else {}
    return uvicorn.Config(app, log_level="warning", lifespan="on", ws_ping_interval=10,
                          ws_ping_timeout=10, ws_per_message_deflate=False,
                          ws_max_size=WS_MAX_SIZE, access_log=False,
                          timeout_graceful_shutdown=GRACEFUL_SECONDS,
                          proxy_headers=bool(trusted),
                          forwarded_allow_ips=",".join(trusted) if trusted else "",
                          limit_concurrency=int(limits.connections_total) + 1,
                          http=guarded_protocol(limits, trusted, app.state.door.public_url),
                          **more)


class StoppedBySignal(FortiesError):
    """SIGTERM, raised again by uvicorn once the server has stopped."""


def stopped_by_sigterm(_signum: int, _frame: Any) -> None:
    raise StoppedBySignal


_watchdog_lock = threading.Lock()
_watchdog: threading.Thread | None = None


def end_at_once_after(seconds: float) -> None:
    """Once told to stop, a server process ends within ``seconds`` whatever it waits on
    (a connection that never closes, a worker process that never answers, a lock): a
    daemon thread, which runs even while the main thread is blocked, ends the process's
    own worker processes and then the process itself. Armed once; a process that stops
    in time never sees it fire."""
    global _watchdog
    with _watchdog_lock:
        if _watchdog is not None:
            return

        def fire() -> None:
            import multiprocessing
            import time

            time.sleep(seconds)
            with contextlib.suppress(Exception):
                sys.stderr.write(f"forties: still stopping after {seconds:g} s: stopped at "
                                 "once (every move was already saved)\n")
                sys.stderr.flush()
            with contextlib.suppress(Exception):
                for child in multiprocessing.active_children():
                    child.kill()
            os._exit(0)

        _watchdog = threading.Thread(target=fire, name="forties-stop", daemon=True)
        _watchdog.start()


_serving: Any = None


def serving_now() -> Any:
    """This process's uvicorn server once it serves (None before): a connection handed
    over by another process (``forties.web.relay``) is served as one of its own."""
    return _serving


def stopping_server_class(stop_seconds: float) -> Any:
    """uvicorn's Server, which on the signal to stop also arms ``end_at_once_after``, and
    first drains the app where it can (its ``state.drain``, ``forties.web.drain``): uvicorn
    stops (closing its socket and connections) once the drain is done. A second signal
    stops it at once, as uvicorn does (a third Ctrl-C: without waiting on anything)."""
    import asyncio

    import uvicorn

    class StoppingServer(uvicorn.Server):
        drain_asked = False
        draining: asyncio.Task[None] | None = None

        async def startup(self, sockets: Any = None) -> None:
            global _serving
            await super().startup(sockets)
            _serving = self

        def handle_exit(self, sig: int, frame: Any) -> None:
            end_at_once_after(stop_seconds)
            if self.drain_asked or self._drain() is None:
                super().handle_exit(sig, frame)
                return
            self._captured_signals.append(sig)  # (raised again once stopped, as uvicorn's)
            self.drain_asked = True  # (begun on the loop's next tick: not in a handler)

        def _drain(self) -> Any:
            return getattr(getattr(self.config.app, "state", None), "drain", None)

        async def on_tick(self, counter: int) -> bool:
            if self.drain_asked and self.draining is None:
                self.draining = asyncio.ensure_future(self._drain()())
            if self.draining is not None and self.draining.done():
                self.should_exit = True
            return bool(await super().on_tick(counter))

    return StoppingServer
