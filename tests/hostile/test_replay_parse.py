"""A record to replay (a body of up to 4 MB, some 0.3 s of JSON to read at worst) is read
in the replays' process, not on the event loop that every table and ``/healthz`` wait
on: no large body is parsed on a thread that runs an event loop, and the refusals of a
body that is no record are the same lines as before."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.testclient import TestClient

from .conftest import refused
from .test_limits import long_record


def test_a_record_is_read_off_the_event_loop(client: TestClient,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    body = json.dumps({"record": long_record(20, seed=3)}).encode()
    on_loop: list[int] = []  # the sizes of large JSON texts read on an event loop's thread
    real = json.loads

    def spy(text: Any, *args: Any, **kwargs: Any) -> Any:
        if len(text) >= len(body) // 2:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                pass
            else:
                on_loop.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(json, "loads", spy)
    r = client.post("/api/replay", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text[:300]
    assert len(r.json()["steps"]) > 20
    assert on_loop == [], f"a body of {len(body)} bytes was read on the event loop"


@pytest.mark.parametrize("sent, words", [
    (b"{oops", "the request is not JSON"),
    (b"[1, 2]", "the request must be a JSON object"),
    (b"{}", "send {\"record\": <the record JSON>}"),
    (b'{"record": {"hands": [%s]}}' % b",".join([b"{}"] * 201),
     "a record of 201 hands is too long to replay here: at most 200"),
])
def test_a_body_that_is_no_record_is_refused_in_one_line(client: TestClient, sent: bytes,
                                                         words: str) -> None:
    r = client.post("/api/replay", content=sent, headers={"Content-Type": "application/json"})
    assert refused(r, 413 if "too long" in words else 400) == words
