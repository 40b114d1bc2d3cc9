"""The scale-out load test (``python -m bench.load``): counts of processes run in rounds
whose order is reversed each round, each run's CPU a move by part and the machine's other
work, and the ceiling each count could reach on this machine; a tiny run through Caddy.
(The figures themselves are in docs/benchmarks.md.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.load import ceiling, one_run, orders, report, schedule
from bench.seats import Seat, accept_for, frame
from tests.services import Postgres, Redis

ROOT = Path(__file__).resolve().parents[1]


def test_the_rounds_reverse_the_order_of_the_counts() -> None:
    assert orders([1, 2, 4], 3) == [(1, 1), (1, 2), (1, 4), (2, 4), (2, 2), (2, 1),
                                    (3, 1), (3, 2), (3, 4)]
    assert orders([2], 2) == [(1, 2), (2, 2)]


def test_with_another_tree_the_trees_take_turns_and_the_first_is_swapped_each_round(
        ) -> None:
    assert schedule(["new", "old"], [1, 2], 3) == [
        (1, "new", 1), (1, "new", 2), (1, "old", 1), (1, "old", 2),
        (2, "old", 2), (2, "old", 1), (2, "new", 2), (2, "new", 1),
        (3, "new", 1), (3, "new", 2), (3, "old", 1), (3, "old", 2)]


def _row(workers: int, moves: float, server: float, rest: float,
         round_: int = 1) -> dict[str, Any]:
    return {"round": round_, "workers": workers, "via": "caddy", "tables": 16, "clients": 64,
            "seconds": 20.0, "moves_per_second": moves,
            "latency_ms": {"p50": 10.0, "p99": 30.0, "samples": 100},
            "cpu_ms_per_move": {"server processes": server, "load generator": rest},
            "other_cores_busy": 0.25}


def test_the_ceiling_is_one_core_a_process_and_every_core_for_all_the_parts() -> None:
    # one process: one core's worth of its 1 ms a move, though the parts fit in two cores
    assert ceiling(_row(1, 500, server=1.0, rest=0.5), cores=2) == 1000.0
    # two: the two cores hold 1.5 ms a move in all
    assert ceiling(_row(2, 500, server=1.0, rest=0.5), cores=2) == 1333.3
    # four processes on two cores have no more cores than two
    assert ceiling(_row(4, 500, server=1.0, rest=0.0), cores=2) == 2000.0


def test_the_report_gives_each_rounds_ratio_and_their_median() -> None:
    rows = [_row(1, 400, 1.0, 0.5, 1), _row(2, 600, 1.1, 0.5, 1),
            _row(2, 500, 1.1, 0.5, 2), _row(1, 500, 1.0, 0.5, 2),
            _row(2, 900, 1.1, 0.5, 3), _row(1, 450, 1.0, 0.5, 3)]
    text = report(rows)
    assert "3 rounds, the order reversed each round" in text
    assert "2 processes / 1: 1.50 x the moves a second (same run; each round: 1.50, " \
           "1.00, 2.00)" in text
    assert "| 2 | 1 | 500 | 10.0 | 30.0 | 1.0 | 0.5 | 1000.0 | 0.25 |" in text


@pytest.mark.parametrize("args, says", [(["--rounds", "0"], "--rounds"),
                                        (["--against", "/nowhere"], "--against /nowhere")])
def test_bad_rounds_or_trees_are_refused_in_one_line(args: list[str], says: str) -> None:
    res = subprocess.run([sys.executable, "-m", "bench.load", *args], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, check=False)
    assert res.returncode == 2 and says in res.stderr.strip().splitlines()[-1]


@pytest.mark.asyncio
async def test_a_tiny_run_through_caddy_accounts_for_every_part(tmp_path: Path, pg: Postgres,
                                                                  rd: Redis) -> None:
    """One table on two processes behind the shipped Caddyfile: moves counted, the CPU a
    move of the servers, PostgreSQL, Redis, Caddy and the loader, and the rest of the
    machine's work meanwhile."""
    row = await one_run(2, 1, 1.0, pg, rd, tmp_path, at_least=4, via="caddy", warmup=0.2)
    assert row["workers"] == 2 and row["via"] == "caddy" and row["clients"] == 4
    assert row["moves"] > 0 and row["errors"] == 0 and row["reconnections"] == 0, row
    assert set(row["cpu_ms_per_move"]) == {"server processes", "PostgreSQL", "Redis",
                                           "Caddy", "load generator"}
    assert row["cpu_seconds"]["server processes"] > 0
    assert row["cpu_seconds"]["load generator"] > 0
    assert row["other_cores_busy"] >= 0 and row["load_average"] >= 0
    assert "| 1 | 2 |" in report([{"round": 1, **row}])


# ----- the lean seat client (bench.seats) ------------------------------------------------


def _unmask(data: bytes) -> tuple[int, bytes]:
    """A client's frame: its opcode and its payload, unmasked."""
    n, at = data[1] & 0x7F, 2
    if n == 126:
        n, at = int.from_bytes(data[2:4], "big"), 4
    elif n == 127:
        n, at = int.from_bytes(data[2:10], "big"), 10
    assert data[0] & 0x80 and data[1] & 0x80  # whole, and masked as a client's must be
    key, body = data[at:at + 4], data[at + 4:]
    assert len(body) == n
    return data[0] & 0x0F, bytes(b ^ key[i % 4] for i, b in enumerate(body))


@pytest.mark.parametrize("size", [0, 5, 125, 126, 65535, 65536])
def test_a_seats_frames_are_masked_and_sized_as_the_protocol_says(size: int) -> None:
    payload = bytes(i % 251 for i in range(size))
    assert _unmask(frame(0x1, payload)) == (0x1, payload)


def test_the_handshakes_answer_is_checked_by_the_protocols_own_example() -> None:
    assert accept_for(b"dGhlIHNhbXBsZSBub25jZQ==") == b"s3pPLMBiTxaQ9kYGzzhZRbK+xOo="


class _Wire:
    """A transport that keeps what the seat writes."""

    def __init__(self) -> None:
        self.out: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.out.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


def _server_frame(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    n = len(payload)
    size = bytes((n,)) if n < 126 else bytes((126,)) + n.to_bytes(2, "big")
    return bytes(((0x80 if fin else 0) | opcode,)) + size + payload


@pytest.mark.asyncio
async def test_a_seat_says_hello_plays_its_view_answers_pings_and_refuses_a_bad_answer(
        ) -> None:
    seat = Seat("ws://127.0.0.1:9", "T", "tok").autoplay(seed=1)
    wire = _Wire()
    seat.connection_made(wire)  # type: ignore[arg-type]
    assert wire.out[0].startswith(b"GET /ws/T?token=tok HTTP/1.1\r\nHost: 127.0.0.1:9\r\n")
    key = next(line.split(b": ")[1] for line in wire.out[0].split(b"\r\n")
               if line.startswith(b"Sec-WebSocket-Key"))
    answer = (b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
              b"Sec-WebSocket-Accept: " + accept_for(key) + b"\r\n\r\n")
    snapshot = json.dumps({"type": "snapshot", "seq": 7, "view": {
        "version": 3, "legal": ["a", "b"]}}).encode()
    # the answer, then the snapshot in two fragments cut across two reads, then a ping
    data = answer + _server_frame(0x1, snapshot[:10], fin=False) + \
        _server_frame(0x0, snapshot[10:]) + _server_frame(0x9, b"hi")
    seat.data_received(data[:len(answer) + 5])
    seat.data_received(data[len(answer) + 5:])
    said = [_unmask(x) for x in wire.out[1:]]
    assert said[0] == (0x1, b'{"type": "hello", "seq": 0}')
    act = json.loads(said[1][1])
    assert act["type"] == "act" and act["version"] == 3 and act["action"] in ("a", "b")
    assert said[2] == (0xA, b"hi") and seat.seq == 7 and seat.connections == 1
    # a second connection whose answer is not the key's: dropped, unread
    other = _Wire()
    seat.connection_made(other)  # type: ignore[arg-type]
    seat.data_received(answer)
    assert other.closed and seat.connections == 1
