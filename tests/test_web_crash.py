"""A server killed in the middle of hands under traffic (SIGKILL), started again on the
same database: every client reconnects by itself and the games go on from the last
committed action, nothing lost and nothing doubled. The referee judges each finished
record, and every frame each seat received (before and after the crash) is the view of
that record's game at that version."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.client import SeatClient

from .helpers_engine import FORTIES
from .helpers_web import (
    ServerProcess,
    basic_player,
    check_frames,
    expect,
    knowledge_by_version,
    private_table,
    stop_all,
)

pytestmark = pytest.mark.asyncio

TABLES = 3


async def test_sigkill_mid_hand_and_the_games_go_on(tmp_path: Path) -> None:
    srv = ServerProcess(tmp_path, review_seconds=30.0).start()
    tables: list[tuple[str, dict[int, str]]] = []
    async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
        for _ in range(TABLES):
            tables.append(await private_table(http, "merrimack-valley",
                                              options={"target": 50}))
    clients = {t: [SeatClient(srv.ws, t, tok[s]).start() for s in sorted(tok)]
               for t, tok in tables}
    watchers = {t: SeatClient(srv.ws, t).start() for t, _ in tables}
    everyone = [c for cs in clients.values() for c in cs] + list(watchers.values())
    try:
        # every seat and watcher there before any table plays, then every table plays at
        # once, and the crash comes when the first has heard forty events: no game to 50
        # (two hands at least, some sixty events) is over by then. (The seats played as
        # fast as the server answered from the start, and each table's fortieth event was
        # waited for in turn: a table a second ahead of another could end its game before
        # the crash, and then had nothing to go on with after it.)
        for c in everyone:
            await expect(c, lambda c: c.view is not None, "the table's snapshot")
        seats = [c for cs in clients.values() for c in cs]
        for c in seats:
            c.autoplay(basic_player)
        await asyncio.gather(*(c.play_now() for c in seats))
        forty = [asyncio.ensure_future(cs[0].wait_for(lambda c: c.seq > 40, timeout=60))
                 for cs in clients.values()]
        first, waiting = await asyncio.wait(forty, return_when=asyncio.FIRST_COMPLETED)
        for w in waiting:
            w.cancel()
        for w in first:
            w.result()  # (forty events before the crash, or the wait's TimeoutError)
        mid_hand = [w.view is not None and w.view["phase"] != "hand-over"
                    for w in watchers.values()]
        srv.kill()
        assert srv.proc is not None and srv.proc.returncode == -9
        before = {t: w.seq for t, w in watchers.items()}
        for c in everyone:  # clients find the server gone and keep knocking
            await expect(c, lambda c: c.ws is None, "the connection lost with the server")
        srv = ServerProcess(tmp_path, db=srv.db, review_seconds=30.0).start(port=srv.port)
        for c in everyone:
            await expect(c, lambda c: c.connections >= 2, "a connection to the new server",
                         timeout=60)
        for t, cs in clients.items():
            for c in cs:
                await expect(c, lambda c: c.over, "the game over", timeout=180)
            await expect(watchers[t], lambda c: c.over, "the game over")
            assert watchers[t].seq > before[t]
    finally:
        await stop_all(everyone)
        code, _, err = srv.stop()
    assert code == 0 and "Traceback" not in err, err[-2000:]
    assert any(mid_hand)
    srv = ServerProcess(tmp_path, db=srv.db).start()
    try:
        async with httpx.AsyncClient(base_url=srv.http, timeout=30) as http:
            for t, _ in tables:
                record = (await http.get(f"/api/tables/{t}/record")).json()
                path = tmp_path / f"{t}.json"
                path.write_text(json.dumps(record))
                res = subprocess.run([str(FORTIES), "check", str(path)], capture_output=True,
                                     text=True, timeout=120, check=False)
                verdict = json.loads(res.stdout)
                assert res.returncode == 0 and verdict["ok"] and verdict["over"]
                known = knowledge_by_version(record)
                for s, c in enumerate(clients[t]):
                    assert c.connections >= 2
                    assert check_frames(c.frames, s, known) > 20
                assert check_frames(watchers[t].frames, None, known) > 20
    finally:
        srv.stop()
