"""Sequences of actions made on demand: a draw may have hundreds of legal discards,
and a random player needs only one of them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, pairwise
from math import comb
from typing import overload

from .actions import Action, Verb
from .cards import CARD_NAMES, cards_of

# _COMB[m][k] = comb(m, k) for the 53 sizes a set of cards can have.
_COMB = tuple(tuple(comb(m, k) for k in range(m + 1)) for m in range(53))

# Sets of at most this many cards (1024 subsets) are indexed through a table of subsets.
_TABLE_MAX = 10
_new_action = tuple.__new__  # Action's own __new__, without the Python-level call


Shape = tuple[tuple[int, ...], int, tuple[tuple[int, ...], ...] | None]


@lru_cache(maxsize=64)
def _shape(m: int, lo: int, hi: int) -> Shape:
    """For subsets of ``m`` cards with ``lo <= size < hi``: the count of each size, the
    total, and (for ``m <= _TABLE_MAX``) the positions of every subset, smallest first,
    each size in lexicographic order, as ``SubsetActions`` counts them."""
    counts = tuple(_COMB[m][k] if m < 53 else comb(m, k) for k in range(lo, hi))
    table = (tuple(c for k in range(lo, hi) for c in combinations(range(m), k))
             if m <= _TABLE_MAX else None)
    return counts, sum(counts), table


@lru_cache(maxsize=256)
def _discard_texts(seat: int, bits: tuple[int, ...], lo: int, hi: int) -> tuple[str, ...]:
    """The record lines of ``seat``'s discards of the subsets of ``bits`` (lowest card
    first) with a size in ``lo..hi-1``, in ``SubsetActions``' order: an action's line is
    its cards' names, lowest first, after "SEAT discard", so the names are joined
    directly instead of each action's mask being written out."""
    head = f"{seat} {Verb.DISCARD.value}"
    names = [CARD_NAMES[b.bit_length() - 1] for b in bits]
    out: list[str] = []
    for k in range(lo, hi):
        if k == 0:
            out.append(str(Action(seat, Verb.DISCARD, 0)))
        else:
            out += [f"{head} {' '.join(c)}" for c in combinations(names, k)]
    return tuple(out)


class SubsetActions(Sequence[Action]):
    """Every ``verb`` action of ``seat`` whose cards are a subset of ``cards`` (card
    indices, or a card set as a bitmask) with a size in ``sizes``; smallest subsets first,
    each size in lexicographic order (of the indices as given; a bitmask's lowest first)."""

    __slots__ = ("_bits", "_counts", "_len", "_table", "seat", "sizes", "verb")

    def __init__(self, seat: int, verb: Verb, cards: Sequence[int] | int, sizes: range) -> None:
        self.seat = seat
        self.verb = verb
        self._bits = [1 << c for c in (cards_of(cards) if isinstance(cards, int) else cards)]
        m = len(self._bits)
        self.sizes = range(max(sizes.start, 0), min(sizes.stop, m + 1))
        self._counts, self._len, self._table = _shape(m, self.sizes.start, self.sizes.stop)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        table = self._table
        if table is not None and type(i) is int and -self._len <= i < self._len:
            mask = sum(map(self._bits.__getitem__, table[i]))
            return _new_action(Action, (self.seat, self.verb, mask))
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
                block = comb(m - j - 1, left - 1) if m - j > 53 else _COMB[m - j - 1][left - 1]
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

    def texts(self) -> list[str]:
        """Every action's record line, in order: ``[str(a) for a in self]``, written
        faster for discards (a draw may have hundreds, and the seat's view lists them)."""
        bits = self._bits
        if self.verb is not Verb.DISCARD or type(self.seat) is not int or \
                any(a >= b for a, b in pairwise(bits)):
            return [str(a) for a in self]
        return list(_discard_texts(self.seat, tuple(bits), self.sizes.start, self.sizes.stop))

    def __contains__(self, a: object) -> bool:
        if not isinstance(a, Action) or a.seat != self.seat or a.verb is not self.verb:
            return False
        full = sum(self._bits)
        return a.arg & ~full == 0 and a.arg.bit_count() in self.sizes
