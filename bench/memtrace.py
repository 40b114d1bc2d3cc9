"""What grows in a server's memory: ``forties serve`` with Python's allocations traced.

    python -m bench.memtrace serve [forties serve's options]     (FORTIES_MEMTRACE=DIR)
    python -m bench.memtrace compare DIR [--top N] [--first K] [--last L]

``serve`` runs ``forties serve`` (``forties.cli``) in this process with ``tracemalloc``
on (``FORTIES_MEMTRACE_FRAMES`` frames a trace, 8 by default; 0: not traced). A daemon
thread writes, every ``FORTIES_MEMTRACE_EVERY`` seconds (60 by default), one line to
``DIR/samples.jsonl``: the seconds since the start, the process's RSS and its anonymous
part, Python's traced memory and its allocated blocks, what the C allocator holds in use
and free (glibc's ``mallinfo2``) and what SQLite says it uses (its page caches);
traced, also the objects the garbage collector tracks, by type, and (after a full
collection) a snapshot of the traces in ``DIR/snapshot-NNN.bin``. With
``FORTIES_MEMTRACE_TRIM=1`` it then asks the C allocator to give back what it keeps free
(``malloc_trim``) and notes the RSS after. ``bench.soak --trace DIR`` starts its server
this way (the ``FORTIES_MEMTRACE_*`` settings passed on).

``compare`` reads those: the samples as a table (RSS beside the traced memory: RSS rising
while the traced memory stays flat is the C allocator's, not Python's), and the ``--top``
places whose allocations grew most from snapshot ``--first`` (the first after the
warm-up, by default the second) to snapshot ``--last`` (the last by default), with the
lines that allocated them.

A tool of the lab's, not the product's: tracing slows the server several times over (at
150 tables on this 2-core machine the clients' requests timed out), so a traced run finds
what grows and the figures come from untraced runs (``FORTIES_MEMTRACE_FRAMES=0`` costs
a few reads a minute).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import gc
import json
import os
import re
import sys
import threading
import time
import tracemalloc
from pathlib import Path
from typing import Any


def _rss_kib(key: str = "VmRSS") -> int:
    m = re.search(key + r":\s+(\d+) kB", Path("/proc/self/status").read_text())
    return int(m.group(1)) if m else 0


class _MallInfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd",
                                                "usmblks", "fsmblks", "uordblks", "fordblks",
                                                "keepcost")]


def _c_memory() -> dict[str, float]:
    """What the C allocator holds (glibc's ``mallinfo2``, every arena: in use, and free
    but kept) and what SQLite's own count says it uses (its page caches, statements), MB."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
        m = libc.mallinfo2()
        out["malloc_used_mb"] = round((m.uordblks + m.hblkhd) / 2**20, 2)
        out["malloc_free_mb"] = round(m.fordblks / 2**20, 2)
    with contextlib.suppress(OSError, AttributeError, ImportError):
        import _sqlite3

        used = ctypes.CDLL(_sqlite3.__file__).sqlite3_memory_used
        used.restype = ctypes.c_int64
        out["sqlite_mb"] = round(used() / 2**20, 2)
    return out


def _trim() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _kinds() -> dict[str, int]:
    """How many objects the garbage collector tracks, by type (the 40 commonest)."""
    counts: dict[str, int] = {}
    for o in gc.get_objects():
        name = type(o).__qualname__
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1])[:40])


def _watch(folder: Path, every: float, t0: float, trim: bool) -> None:
    n = 0
    while True:
        time.sleep(every)
        traced = tracemalloc.is_tracing()
        if traced:  # (the snapshot without the garbage; untraced, the server's own pace)
            gc.collect()
        current = tracemalloc.get_traced_memory()[0]
        line: dict[str, Any] = {
            "seconds": round(time.monotonic() - t0, 1),
            "traced_mb": round(current / 2**20, 2) if traced else None,
            "rss_mb": round(_rss_kib() / 1024, 1), "anon_mb": round(_rss_kib("RssAnon") / 1024, 1),
            "py_blocks": sys.getallocatedblocks(), **_c_memory()}
        if traced:  # (a walk of every object: a list of them all, made and freed)
            line.update(gc_objects=len(gc.get_objects()), kinds=_kinds())
        if trim:  # what the C allocator gives back when asked: free memory it kept
            _trim()
            line["rss_mb_trimmed"] = round(_rss_kib() / 1024, 1)
        if traced:
            tracemalloc.take_snapshot().dump(str(folder / f"snapshot-{n:03d}.bin"))
        with (folder / "samples.jsonl").open("a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
        n += 1


def serve(argv: list[str]) -> None:
    folder = Path(os.environ.get("FORTIES_MEMTRACE") or "memtrace")
    folder.mkdir(parents=True, exist_ok=True)
    frames = int(os.environ.get("FORTIES_MEMTRACE_FRAMES", "8"))
    every = float(os.environ.get("FORTIES_MEMTRACE_EVERY", "60"))
    trim = os.environ.get("FORTIES_MEMTRACE_TRIM") == "1"
    if frames > 0:
        tracemalloc.start(frames)
    threading.Thread(target=_watch, args=(folder, every, time.monotonic(), trim), daemon=True,
                     name="memtrace").start()
    from forties.cli import main

    main(["serve", *argv])


def compare(folder: Path, top: int, first: int | None, last: int | None) -> str:
    lines = [json.loads(x) for x in (folder / "samples.jsonl").read_text().splitlines() if x]
    cols = [("RSS MB", "rss_mb"), ("anon", "anon_mb"), ("trimmed", "rss_mb_trimmed"),
            ("traced", "traced_mb"), ("malloc used", "malloc_used_mb"),
            ("malloc free", "malloc_free_mb"), ("sqlite", "sqlite_mb"),
            ("py blocks", "py_blocks"), ("gc objects", "gc_objects")]
    out = [f"{'minute':>7} " + " ".join(f"{c:>11}" for c, _ in cols) + f" {'Tasks':>6}"]
    for s in lines:
        tasks = s.get("kinds", {}).get("Task", "-")
        out.append(f"{s['seconds'] / 60:>7.1f} " + " ".join(
            f"{'-' if s.get(k) is None else s[k]:>11}" for _, k in cols) + f" {tasks:>6}")
    if len(lines) > 2 and "kinds" in lines[1]:
        a, b = lines[1]["kinds"], lines[-1]["kinds"]
        grown = sorted(((b.get(k, 0) - a.get(k, 0), k) for k in set(a) | set(b)), reverse=True)
        out.append("objects by type, from the second sample to the last: " + ", ".join(
            f"{k} {d:+}" for d, k in grown[:12] if d))
    shots = sorted(folder.glob("snapshot-*.bin"))
    if len(shots) < 2:
        return "\n".join([*out, "(fewer than two snapshots: nothing to compare)"])
    a = shots[1 if first is None and len(shots) > 2 else (first or 0)]
    b = shots[-1 if last is None else last]
    keep = [tracemalloc.Filter(False, tracemalloc.__file__),
            tracemalloc.Filter(False, "<frozen importlib._bootstrap*>")]
    old = tracemalloc.Snapshot.load(str(a)).filter_traces(keep)
    new = tracemalloc.Snapshot.load(str(b)).filter_traces(keep)
    out.append(f"\ngrowth from {a.name} to {b.name}, by line:")
    for d in new.compare_to(old, "lineno")[:top]:
        out.append(f"  {d.size_diff / 1024:+9.1f} KiB {d.count_diff:+8} blocks  "
                   f"{d.traceback[0].filename}:{d.traceback[0].lineno}")
    out.append(f"\ngrowth from {a.name} to {b.name}, by traceback (the {min(top, 8)} largest):")
    for d in new.compare_to(old, "traceback")[:min(top, 8)]:
        out.append(f"  {d.size_diff / 1024:+9.1f} KiB {d.count_diff:+8} blocks")
        for fr in d.traceback.format()[-16:]:
            out.append("     " + fr)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"]:
        serve(argv[1:])
        return 0
    ap = argparse.ArgumentParser(prog="python -m bench.memtrace")
    sub = ap.add_subparsers(dest="what", required=True)
    sub.add_parser("serve", help="forties serve, traced (its options follow)")
    cp = sub.add_parser("compare", help="what grew between two snapshots")
    cp.add_argument("folder")
    cp.add_argument("--top", type=int, default=25)
    cp.add_argument("--first", type=int, default=None)
    cp.add_argument("--last", type=int, default=None)
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    if not (folder / "samples.jsonl").is_file():
        print(f"forties: no samples in {folder} (bench.memtrace serve writes them)",
              file=sys.stderr)
        return 2
    if not 1 <= args.top <= 500:
        print("forties: --top must be from 1 to 500", file=sys.stderr)
        return 2
    print(compare(folder, args.top, args.first, args.last))
    return 0


if __name__ == "__main__":
    sys.exit(main())
