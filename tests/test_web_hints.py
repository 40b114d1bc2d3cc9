"""A hint is worked out beside the connection: the seat's page is answered meanwhile (a
ping, an action, the server's drain), and a server that stops while a hint is worked out
ends the work with its other background work, without a traceback."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web import messages
from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits


def test_a_connection_reads_on_while_its_hint_is_worked_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = messages.pool_hint

    def slow_hint(state: Any, seat: int) -> dict[str, Any]:
        # held until the test has its pong; the minute is only a guard: a server that
        # read nothing more while the hint is worked out would have the test wait for the
        # pong and the hint for the test, and this ends that wait (the hint then comes
        # first, and the test fails)
        release.wait(60)
        return real(state, seat)

    monkeypatch.setattr(messages, "pool_hint", slow_hint)
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 't.db'}",
                                    limits=Limits(bot_delay=0.0, par=False)))
    with TestClient(app) as client:
        app.state.service.pools.computers_pool = ThreadPoolExecutor(1)
        made = client.post("/api/tables", json={"preset": "merrimack-valley", "name": "Ann",
                                                "level": "random", "hints": True}).json()
        table, token = made["table"], made["token"]
        assert client.post(f"/api/tables/{table}/start", json={"token": token}).status_code \
            == 200
        with client.websocket_connect(f"/ws/{table}?token={token}") as ws:
            ws.send_json({"type": "hello", "seq": 0})
            frame = ws.receive_json()
            while not (frame.get("view") or {}).get("legal"):
                frame = ws.receive_json()
            ws.send_json({"type": "hint"})
            ws.send_json({"type": "ping"})
            try:
                first = ws.receive_json()
            finally:
                release.set()
            second = ws.receive_json()
            assert [first["type"], second["type"]] == ["pong", "hint"], (first, second)
            assert second["action"] in frame["view"]["legal"]
