"""Seeded draws anyone can check: the cut of the deck, the cookie jar, the deals.

Every draw of an evening comes from one number, the evening's seed, and a name
for the draw, through Python's own ``random.Random(text)`` (seeded from the
SHA-512 of the text, the same on every Python 3). The director shows the seed's
SHA-256 at the start and the seed itself at the end: anyone can then check that
it was fixed in advance and redo every draw with a few lines of Python.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..cards import CARD_NAMES, RANKS

# Low card wins a cut; the ace is low, the king high; suits do not count.
CUT_RANK = {r: i + 1 for i, r in enumerate("A23456789TJQK")}
assert set(CUT_RANK) == set(RANKS)

METHOD = (
    "Python 3: random.Random(\"{seed}/{name}/{k}\").shuffle(deck), name being the draw's "
    "name shown with each cut (such as cut/prize-1), deck the 52 cards in the order 2C 3C "
    "... AC 2D ... AS and k = 0 for the first deck (1 if it runs out, ...); couples draw "
    "from the top in order of couple number; the ace is low; couples who draw the same "
    "rank draw again, in the same order, until they differ.")


def commitment(seed: int) -> str:
    """The SHA-256 of the seed's decimal digits: shown before the draws, it proves the
    seed was not chosen after them."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def derived_seed(seed: int, *parts: object) -> int:
    """A 48-bit number for one use of the evening's seed (a table's deals, a play-off)."""
    text = "/".join([str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def _decks(seed: int, name: str) -> Iterator[str]:
    k = 0
    while True:
        deck = list(CARD_NAMES)
        random.Random(f"{seed}/{name}/{k}").shuffle(deck)
        yield from deck
        k += 1


@dataclass(frozen=True)
class Cut:
    """A cut of the deck among couples: the cards each drew, in order, and the result."""

    name: str  # the draw's name, exactly as it goes into METHOD ("cut/prize-1")
    draws: tuple[tuple[int, tuple[str, ...]], ...]  # (couple, cards drawn), couple order
    order: tuple[int, ...]  # best (lowest card) first


def cut_deck(seed: int, name: str, couples: Sequence[int]) -> Cut:
    """Couples cut for low card (see METHOD); ``order`` lists them lowest card first. The
    draw is named ``cut/NAME`` (``name`` being the contest's, such as ``prize-1``): the
    Cut carries that whole name, the one a hall member puts into METHOD to redo it."""
    draw = f"cut/{name}"
    cards = _decks(seed, draw)
    drawn: dict[int, list[str]] = {c: [] for c in sorted(couples)}

    def rank(group: list[int]) -> list[int]:
        for c in group:
            drawn[c].append(next(cards))
        by_rank: dict[int, list[int]] = {}
        for c in group:
            by_rank.setdefault(CUT_RANK[drawn[c][-1][0]], []).append(c)
        out: list[int] = []
        for r in sorted(by_rank):
            tied = by_rank[r]
            out.extend(tied if len(tied) == 1 else rank(tied))
        return out

    order = rank(sorted(couples)) if len(couples) > 1 else list(couples)
    return Cut(draw, tuple((c, tuple(v)) for c, v in drawn.items()), tuple(order))


def cookie_jar_games(seed: int, games: int, count: int) -> tuple[int, ...]:
    """The cookie jar's games: ``count`` of 1..``games``, drawn by
    ``random.Random("SEED/cookie-jar").sample(range(1, games + 1), count)``, sorted."""
    count = min(count, games)
    return tuple(sorted(random.Random(f"{seed}/cookie-jar").sample(range(1, games + 1), count)))
