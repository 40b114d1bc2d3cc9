"""A stranger asks for ``/metrics``: only the addresses the operator allows read it
(``--metrics-allow``, loopback by default); any other gets the answer of a page that does
not exist (404, one line), judged by the address the request really came from, so that a
header naming an allowed address (``X-Forwarded-For``) from someone no proxy vouches for
does not open it."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from forties.web.app import ServerSettings, create_app
from forties.web.limits import Limits
from forties.web.metrics import networks

from ..helpers_web import TEST_LIMITS, launch_serve, serving_port


def app_allowing(tmp_path: Path, *allow: str) -> object:
    settings = ServerSettings(f"sqlite:///{tmp_path / 't.db'}", Limits(**TEST_LIMITS))
    if allow:
        settings.metrics_allow = allow
    return create_app(settings)


@pytest.mark.parametrize(("allow", "client", "ok"), [
    ((), "127.0.0.1", True),
    ((), "::1", True),
    ((), "203.0.113.9", False),
    ((), "10.1.2.3", False),
    ((), "testclient", False),  # (not an address at all)
    (("10.0.0.0/8",), "10.1.2.3", True),
    (("10.0.0.0/8",), "127.0.0.1", False),  # (naming networks replaces loopback)
    (("10.0.0.0/8", "2001:db8::/32"), "2001:db8::7", True),
    (("192.0.2.7",), "::ffff:192.0.2.7", True),  # (IPv4 on an IPv6 socket)
])
def test_metrics_only_to_the_allowed_addresses(tmp_path: Path, allow: tuple[str, ...],
                                               client: str, ok: bool) -> None:
    app = app_allowing(tmp_path, *allow)
    with TestClient(app, client=(client, 40000)) as http:  # type: ignore[arg-type]
        r = http.get("/metrics")
        if ok:
            assert r.status_code == 200 and "forties_requests_total" in r.text
        else:
            assert r.status_code == 404
            assert r.json() == {"error": "there is no such page"}
            assert "forties_" not in r.text


def test_a_network_that_is_not_one_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="'ten' is not an address or a network"):
        networks(["ten"])
    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0", "--metrics-allow", "ten"])
    _, err = proc.communicate(timeout=60)
    assert proc.returncode != 0 and "Traceback" not in err
    assert err.strip().splitlines()[-1].endswith(
        "--metrics-allow: 'ten' is not an address or a network (such as 10.0.0.0/8 or ::1)")


def get_from(source: str, port: int, headers: str = "") -> str:
    """GET /metrics from the local address ``source`` (a loopback address other than the
    server's), the raw answer's status line."""
    with socket.create_connection(("127.0.0.1", port), timeout=10,
                                  source_address=(source, 0)) as s:
        s.sendall(f"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Connection: close\r\n\r\n"
                  .encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data.split(b"\r\n", 1)[0].decode()


def test_a_forwarded_for_header_from_a_stranger_opens_nothing(tmp_path: Path) -> None:
    """The server allows 127.0.0.1 alone; a stranger (here 127.0.0.9: no proxy the server
    trusts) says it forwards for 127.0.0.1, and is still a stranger."""
    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0", "--metrics-allow",
                                                "127.0.0.1/32"])
    try:
        port = serving_port(proc)
        assert get_from("127.0.0.1", port).endswith("200 OK")
        assert get_from("127.0.0.9", port).endswith("404 Not Found")
        for spoof in ("X-Forwarded-For: 127.0.0.1\r\n", "Forwarded: for=127.0.0.1\r\n",
                      "X-Real-IP: 127.0.0.1\r\n"):
            assert get_from("127.0.0.9", port, spoof).endswith("404 Not Found"), spoof
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)


def test_the_shipped_caddyfile_keeps_metrics_from_the_internet(tmp_path: Path) -> None:
    """Through Caddy (deploy/Caddyfile) every request reaches forties from loopback, which
    may read /metrics: Caddy itself refuses it, and serves the rest."""
    import http.client

    from ..caddy import caddy, unverified

    proc = launch_serve(tmp_path, TEST_LIMITS, ["--port", "0"])
    try:
        port = serving_port(proc)
        with caddy([f"127.0.0.1:{port}"], tmp_path / "caddy") as front:
            conn = http.client.HTTPSConnection("127.0.0.1", front.port, timeout=15,
                                               context=unverified())
            for path, status in (("/healthz", 200), ("/metrics", 404),
                                 ("/metrics?x=1", 404), ("/healthz", 200)):
                conn.request("GET", path)
                r = conn.getresponse()
                body = r.read()
                assert r.status == status, (path, r.status)
                assert b"forties_" not in body
            conn.close()
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
