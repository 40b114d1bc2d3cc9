"""What the hostile tests share: the app in process over a SQLite file, every per-address
rate lifted (``client``), and the reading of a one-line refusal (``refused``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits, Rates


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app over a SQLite file of its own, the pars off, every rate lifted; a failure
    inside it is answered as a client would see it (500), not raised into the test."""
    app = create_app(ServerSettings(db_url=f"sqlite:///{tmp_path / 'app.db'}",
                                    limits=Limits(par=False, **Rates.lifted())))
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


def refused(resp: Any, status: int = 400) -> str:
    """The one line of a refusal with ``status``."""
    assert resp.status_code == status, (resp.status_code, resp.text[:300])
    body = resp.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    assert "\n" not in body["error"] and "Traceback" not in body["error"]
    return str(body["error"])
