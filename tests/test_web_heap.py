"""Memory levels off below Python too: what the server frees that the C allocator would
keep (holes of a few kilobytes between the objects that live on, which glibc's heap
cannot shrink past) goes back to the system at each sweep (``forties.web.heap``)."""

from __future__ import annotations

import asyncio
import platform
import random
import re
from pathlib import Path

import pytest

from forties.web.service import Limits, Service
from forties.web.store import Store

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc",
                                reason="malloc_trim is glibc's")


def rss_mb() -> float:
    text = Path("/proc/self/status").read_text()
    m = re.search(r"VmRSS:\s+(\d+) kB", text)
    assert m, "no VmRSS in /proc/self/status"
    return int(m.group(1)) / 1024


def holes(rounds: int = 3, each: int = 20000) -> list[bytes]:
    """Frames' worth of allocations (600 to 4,000 bytes: the C allocator's, not Python's
    small-object one), one in 40 kept: some 40 MB freed in holes between those kept."""
    rng = random.Random(0)
    kept: list[bytes] = []
    for _ in range(rounds):
        made = [bytes(rng.randrange(600, 4000)) for _ in range(each)]
        kept += made[::40]
        del made
    return kept


def test_the_sweep_gives_the_memory_the_c_allocator_keeps_back(tmp_path: Path) -> None:
    service = Service(Store(f"sqlite:///{tmp_path / 't.db'}"), Limits())
    try:
        kept = holes()
        before = rss_mb()
        asyncio.run(service.sweep())
        after = rss_mb()
        assert len(kept) == 1500
        assert before - after >= 15, f"RSS {before:.1f} MB before the sweep, {after:.1f} after"
    finally:
        service.store.close()
