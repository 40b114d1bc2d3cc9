"""A tap lost with a server that dies: the page sends it again once it is back.

The server is stopped (SIGSTOP) before the player taps, so the tap reaches the socket
but never the table; then it is killed and a new server starts on the same database and
port. The page reconnects by itself and, the table being still where the tap was made,
sends the tap again: it is played without a second tap, and only once.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

from tests.helpers_web import ServerProcess

from .pages import DESKTOP, body, mine, new_page, post, until, wait_ready


def four_people(base: str) -> tuple[str, dict[str, Any]]:
    """A Merrimack Valley table of four people (no computer to move it on), started: its
    host's page address and what the server answered."""
    made = post(base, "/api/tables", {"preset": "merrimack-valley", "name": "Ann",
                                      "public": False, "turn_seconds": None})
    for i, inv in enumerate(made["invites"]):
        code = inv["url"].split("#invite=")[1]
        post(base, f"/api/tables/{made['table']}/join", {"invite": code, "name": f"Guest {i}"})
    post(base, f"/api/tables/{made['table']}/start", {"token": made["token"]})
    return made["url"], made


def test_a_tap_lost_with_the_server_is_played_when_it_is_back(tmp_path: Path,
                                                               browser: Any) -> None:
    srv = ServerProcess(tmp_path).start()
    try:
        url, _ = four_people(srv.http)
        page = new_page(browser, DESKTOP)
        page.goto(srv.http + url)
        wait_ready(page)
        until(page, "document.body.dataset.mine === 'true'", "the host's turn to bid")
        version = body(page, "version")
        assert srv.proc is not None
        os.kill(srv.proc.pid, signal.SIGSTOP)  # the tap is read by nobody
        page.click("#actions button[data-action$=' pass']")
        srv.kill()
        page.wait_for_function("document.body?.dataset.conn !== 'open'"
                               " || document.getElementById('conn').textContent !== ''")
        srv = ServerProcess(tmp_path, db=srv.db).start(port=srv.port)
        # no second tap: the page sends the first again once it is up to date
        until(page, "v => document.body.dataset.version !== v", "the pass played", arg=version,
              timeout=30)
        assert not mine(page)
        assert body(page, "version") == str(int(version) + 1)
        assert not page.errors, page.errors
    finally:
        if srv.proc is not None and srv.proc.poll() is None:
            srv.stop()
