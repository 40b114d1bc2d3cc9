"""Sequences of actions made on demand: a draw may have hundreds of legal discards,
and a random player needs only one of them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import overload

from .actions import Action, Verb


class SubsetActions(Sequence[Action]):
    """Every ``verb`` action of ``seat`` whose cards are a subset of ``cards`` with a size
    in ``sizes``; smallest subsets first, each size in lexicographic order."""

    __slots__ = ("_bits", "_counts", "_len", "seat", "sizes", "verb")

    def __init__(self, seat: int, verb: Verb, cards: Sequence[int], sizes: range) -> None:
        self.seat = seat
        self.verb = verb
        self._bits = [1 << c for c in cards]
        self.sizes = range(max(sizes.start, 0), min(sizes.stop, len(cards) + 1))
        self._counts = [comb(len(cards), k) for k in self.sizes]
        self._len = sum(self._counts)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        for k, cnt in zip(self.sizes, self._counts, strict=True):
            if i < cnt:
                return Action(self.seat, self.verb, self._unrank(i, k))
            i -= cnt
        raise IndexError(i)  # pragma: no cover

    def _unrank(self, i: int, k: int) -> int:
        """The mask of the ``i``-th k-combination in lexicographic order."""
        bits, m, mask, start = self._bits, len(self._bits), 0, 0
        for left in range(k, 0, -1):
            for j in range(start, m):
                block = comb(m - j - 1, left - 1)
                if i < block:
                    mask |= bits[j]
                    start = j + 1
                    break
                i -= block
        return mask

    def __iter__(self) -> Iterator[Action]:
        for k in self.sizes:
            for combo in combinations(self._bits, k):
                yield Action(self.seat, self.verb, sum(combo))

    def __contains__(self, a: object) -> bool:
        if not isinstance(a, Action) or a.seat != self.seat or a.verb is not self.verb:
            return False
        full = sum(self._bits)
        return a.arg & ~full == 0 and a.arg.bit_count() in self.sizes
