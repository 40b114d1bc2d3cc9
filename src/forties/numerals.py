"""Whole numbers as people type them, read safely.

``str.isdigit()`` says yes to "²" and "¹", which ``int()`` then refuses, and ``int()`` of a
few thousand digits raises too: neither may decide what the outside world sends. ``whole``
accepts only decimal digits (Unicode category Nd), all of one script, at most ``most`` of
them, after an optional minus sign where ``signed`` allows one. ASCII "0"-"9" are the usual
case; the pad is also used in Arabic, so "٣" (ARABIC-INDIC DIGIT THREE) reads as 3, each
digit converted explicitly by ``unicodedata.decimal``. Anything else is None: the caller
answers with its one-line refusal.
"""

from __future__ import annotations

import unicodedata

MOST = 9  # digits: below a billion, far above any score, seat, game or table


def whole(text: str, *, signed: bool = False, most: int = MOST) -> int | None:
    """``text`` as a whole number, or None when it is not one (see the module's note)."""
    t = text.strip()
    negative = signed and t[:1] == "-"
    if negative:
        t = t[1:]
    if not 1 <= len(t) <= most:
        return None
    zero = None
    n = 0
    for ch in t:
        if unicodedata.category(ch) != "Nd":
            return None
        d = unicodedata.decimal(ch)
        if zero is None:
            zero = ord(ch) - d
        elif ord(ch) - d != zero:
            return None  # digits of two scripts mixed: not a number anyone typed
        n = n * 10 + d
    return -n if negative else n
