"""The pace a page tells the table (``{"type": "pace", "pace": ...}``), sent as a stranger
would send it: anything but "slow", "normal" or "fast" is refused in one line, the
connection answers on, and the pace it told before stands."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from .test_text import frame

BAD = [None, 7, 1.5, True, "", "SLOW", "slow ", "glacial", "x" * 3000, ["slow"],
       {"pace": "slow"}]


def test_a_bad_pace_is_refused_in_one_line_and_the_told_one_stands(
        client: TestClient) -> None:
    made = client.post("/api/tables", json={"preset": "auction-45", "name": "Host"}).json()
    service = client.app.state.service  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{made['table']}?token={made['token']}") as ws:
        ws.send_text(json.dumps({"type": "pace", "pace": "slow"}))
        early = frame(ws, "the refusal of a pace before hello")
        assert (early["type"], early["code"]) == ("error", "bad"), early
        ws.send_text(json.dumps({"type": "hello", "seq": 0}))
        assert frame(ws, "snapshot")["type"] == "snapshot"
        ws.send_text(json.dumps({"type": "pace", "pace": "slow"}))
        for bad in [*BAD, ...]:
            body = {"type": "pace"} if bad is ... else {"type": "pace", "pace": bad}
            ws.send_text(json.dumps(body))
            got = frame(ws, f"the refusal of the pace {str(bad)[:20]!r}")
            assert got == {"type": "error", "code": "bad",
                           "message": 'a pace is "slow", "normal" or "fast"'}, (bad, got)
        ws.send_text(json.dumps({"type": "ping"}))
        assert frame(ws, "pong")["type"] == "pong"
        [live] = service.live_tables.tables.values()
        assert [c.pace for c in live.conns] == ["slow"]
