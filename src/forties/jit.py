"""The one way forties compiles a function with numba: ``njit``, kept in numba's cache on
disk (``paths.configure_cache`` says where), so that a later process loads it instead of
compiling it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

_F = TypeVar("_F", bound=Callable[..., Any])


def jit(inline: bool = False, nogil: bool = False, refcount: bool = True) -> Callable[[_F], _F]:
    """numba's ``njit``, cached on disk. ``inline``: compiled into each caller (numba's
    ``inline="always"``), for the small steps a search runs millions of times. ``nogil``:
    other Python threads run while it does. ``refcount=False``: without reference counting,
    for functions whose arrays all belong to the caller (in the solvers, counting references
    to them took three quarters of the time)."""
    compile_: Any = njit
    return cast(Callable[[_F], _F], compile_(cache=True, inline="always" if inline else "never",
                                             nogil=nogil, _nrt=refcount))
