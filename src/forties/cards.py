"""Cards as bit positions, card sets as bitmasks in Python ints, and their text form.

A card is an index 0..51 (``suit * 13 + rank``); a set of cards is an int with
one bit per card. Text is two characters, rank then suit (``TD``, ``AH``); input
also accepts ``10``, lower case and the suit symbols.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import FortiesError

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

FULL_DECK = (1 << 52) - 1
BITS = tuple(1 << c for c in range(52))  # BITS[card]: the card's bit
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))

_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SYMBOL_TO_SUIT.update({"♧": "C", "♢": "D", "♡": "H", "♤": "S"})


class CardError(FortiesError, ValueError):
    """A text that is not a card."""


def card(rank: int, suit: int) -> int:
    """The index of the card of ``rank`` (0 = two .. 12 = ace) in ``suit``."""
    return suit * 13 + rank


CARD_NAMES = tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52))
_NAME_TO_CARD = {name: i for i, name in enumerate(CARD_NAMES)}

ACE_OF_HEARTS = card(ACE, HEARTS)
AH_BIT = 1 << ACE_OF_HEARTS


def parse_card(text: str) -> int:
    """The card index of ``text`` ("TD", "10d", "A♥"); raises CardError."""
    t = text.strip().upper()
    if t and t[-1] in _SYMBOL_TO_SUIT:
        t = t[:-1] + _SYMBOL_TO_SUIT[t[-1]]
    if t.startswith("10"):
        t = "T" + t[2:]
    try:
        return _NAME_TO_CARD[t]
    except KeyError:
        raise CardError(f"not a card: {text!r}") from None


def parse_suit(text: str) -> int:
    """The suit index of ``text`` ("H", "hearts", "♥"); raises CardError."""
    t = text.strip()
    if t in _SYMBOL_TO_SUIT:
        t = _SYMBOL_TO_SUIT[t]
    t = t.upper()
    if len(t) == 1 and t in SUITS:
        return SUITS.index(t)
    for i, name in enumerate(SUIT_NAMES):
        if t == name.upper():
            return i
    raise CardError(f"not a suit: {text!r}")


def card_name(c: int) -> str:
    return CARD_NAMES[c]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# _BYTE[k][v]: the cards of the bits set in ``v`` (0..255) placed at byte ``k`` of a mask.
_BYTE = tuple(tuple(tuple(8 * k + i for i in range(8) if v >> i & 1) for v in range(256))
              for k in range(7))
_B0, _B1, _B2, _B3, _B4, _B5, _B6 = _BYTE


def cards_of(mask: int) -> list[int]:
    """The card indices in ``mask``, lowest first."""
    if mask.bit_count() > 3 and 0 <= mask < 1 << 56:  # a hand or more: a byte at a time
        return [*_B0[mask & 255], *_B1[mask >> 8 & 255], *_B2[mask >> 16 & 255],
                *_B3[mask >> 24 & 255], *_B4[mask >> 32 & 255], *_B5[mask >> 40 & 255],
                *_B6[mask >> 48]]
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of_names(texts: Iterable[str]) -> int:
    """The card set named by ``texts`` ("5H", "JD", ...); raises CardError."""
    m = 0
    for t in texts:
        m |= 1 << parse_card(t)
    return m


def mask_names(mask: int) -> list[str]:
    """Names of the cards in ``mask``, clubs first then by rank: stable for output."""
    return [CARD_NAMES[c] for c in cards_of(mask)]


def format_mask(mask: int) -> str:
    return " ".join(mask_names(mask))
