"""The installable app: the web app manifest (``/manifest.webmanifest``) and the service
worker (``/sw.js``, at the site's root so that its scope is the whole site) that keeps
the page's own static files on the device.

The worker's script is ``static/sw.js`` with its version and its list of files written
in: the version is a digest of the files it keeps, so that a server with changed files
serves a changed worker, which the browser installs, and whose cache replaces the old
one. It keeps the scripts, styles and icons under ``/static/`` only: never a game's
state, an ``/api`` answer, a websocket or a table's page.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

STATIC = Path(__file__).resolve().parent / "static"
KEPT = (".js", ".css", ".png", ".svg", ".webmanifest")
NO_STORE = {"Cache-Control": "no-cache"}


@functools.lru_cache(maxsize=1)
def worker_script() -> bytes:
    """``static/sw.js`` with the version and the files written in (read once a process)."""
    files = sorted(p for p in STATIC.rglob("*")
                   if p.is_file() and p.suffix in KEPT and p.name != "sw.js")
    digest = hashlib.sha256()
    for p in files:
        digest.update(p.relative_to(STATIC).as_posix().encode() + b"\0" + p.read_bytes())
    paths = [f"/static/{p.relative_to(STATIC).as_posix()}" for p in files]
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    text = text.replace("'__VERSION__'", json.dumps(digest.hexdigest()[:16]))
    return text.replace("__FILES__", json.dumps(paths)).encode()


async def service_worker(request: Request) -> Response:
    # (no-cache: the browser asks again each time it checks for a new version)
    return Response(worker_script(), media_type="text/javascript",
                    headers={**NO_STORE, "Service-Worker-Allowed": "/"})


async def manifest(request: Request) -> Response:
    return Response((STATIC / "manifest.webmanifest").read_bytes(),
                    media_type="application/manifest+json", headers=NO_STORE)


ROUTES: list[BaseRoute] = [
    Route("/sw.js", service_worker),
    Route("/manifest.webmanifest", manifest),
]
