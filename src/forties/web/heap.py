"""Memory the C allocator keeps: what the server freed that glibc's ``malloc`` holds on to
(free chunks between the ones still in use, where it cannot shrink its heap by itself)
is given back to the system at each sweep (``give_back``), so that over months of play
the server's resident memory follows what it uses rather than its busiest minute's
scattered holes.

Frames, views and records of a few kilobytes are made and freed at every move; the
Python objects that live on (tables in play, connections) sit among them, so the holes
they leave stay resident. ``malloc_trim(0)`` returns their whole pages (``madvise``),
about a millisecond on a heap of 100 MB with nothing to give, 10 ms giving 50 MB.
Where the C library has no ``malloc_trim`` (musl, macOS) nothing is done.
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        fn = ctypes.CDLL(None).malloc_trim  # the process's own C library
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_size_t]
    fn.restype = ctypes.c_int
    return fn


def give_back() -> bool:
    """Give the free memory the C allocator keeps back to the system; whether it could
    (False: this C library has no way)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


__all__ = ["give_back"]
