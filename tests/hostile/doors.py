"""What the hostile tests of the server's door share: ``forties serve`` processes with
their own limits and options (started together, stopped with no traceback), raw sockets
that send exactly the bytes a stranger would, and the peak memory of a server process."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ..helpers_web import TEST_LIMITS, launch_serve, serving_port


@dataclass
class Door:
    """A running ``forties serve``: its process id and address."""

    pid: int
    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


@contextlib.contextmanager
def doors(folder: Path, *servers: tuple[dict[str, Any], list[str]]) -> Iterator[list[Door]]:
    """Each of ``servers`` (its limits over TEST_LIMITS, its options) as ``forties serve``
    of its own, started at once; stopped at the end, each having written no traceback."""
    procs = [launch_serve(folder / str(i), {**TEST_LIMITS, **limits}, ["--port", "0", *args])
             for i, (limits, args) in enumerate(servers)]
    try:
        yield [Door(p.pid, serving_port(p)) for p in procs]
    finally:
        errs = []
        for p in procs:
            if p.poll() is None:
                p.terminate()
            _, err = p.communicate(timeout=30)
            errs.append(err)
        for err in errs:
            assert "Traceback" not in err, err[-3000:]


def new_table(door: Door, **headers: str) -> dict[str, Any]:
    """A table made through the API (its ``table``, its host's ``token``)."""
    r = httpx.post(f"{door.http}/api/tables", json={"preset": "auction-45"}, headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def connect(door: Door, source: str = "127.0.0.1", timeout: float = 10.0) -> socket.socket:
    """A raw connection to the server from ``source`` (any 127.x.y.z: all are this
    machine's), nothing sent yet."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(("127.0.0.1", door.port))
    return s


def read_all(s: socket.socket) -> bytes:
    """What the server sends until it closes the connection (socket.timeout if it does
    not within the socket's timeout)."""
    out = b""
    while True:
        try:
            got = s.recv(65536)
        except ConnectionResetError:
            return out
        if not got:
            return out
        out += got


def status_and_body(answer: bytes) -> tuple[int, Any]:
    """The status of a raw HTTP answer and its JSON body."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, json.loads(body) if body else None


def memory_kb(pid: int, field: str) -> int:
    """``VmRSS`` or ``VmHWM`` (the peak since the last ``reset_peak``) of a process, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"/proc/{pid}/status has no {field}")


def reset_peak(pid: int) -> None:
    """Make a process's peak memory (VmHWM) its memory now."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")
    assert memory_kb(pid, "VmHWM") <= memory_kb(pid, "VmRSS") + 256


def until(condition: Any, what: str, seconds: float = 10.0) -> None:
    """Wait for ``condition()`` to be true (AssertionError saying ``what`` after
    ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {seconds:g} s: {what}")
        time.sleep(0.02)
