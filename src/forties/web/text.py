"""Text from outside the server made into text that every store and page can hold, and
secret keys compared without failing on odd text.

JSON may carry what UTF-8 cannot: ``"a\\ud800"`` is valid JSON whose string has a lone
surrogate, which a document's JSON keeps (as the escape) but which no answer or page can
be encoded with, nor a database driver send as a value of its own (PostgreSQL refuses
NUL too). So every JSON body (``http.json_body``) and every websocket message
(``messages``) is passed through ``clean_json`` before anything reads it (unless
``plain`` says nothing in it could change), and every pad and evening read back from the
store is too (one stored before this cleaning is served clean, and written back clean by
its next change):

- lone surrogates, NUL and the other control characters go, except newline and tab;
- the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) go: one in
  a name could turn the rest of a line around. The marks (LRM, RLM, ALM) and the joiners
  (ZWJ, ZWNJ) stay, and so does every letter: Arabic text is kept as typed;
- the text is put in Unicode's composed form (NFC), so that one name is one string.

A name, a title or a chat line is then one line (``line``): every kind of space and line
break a single space, trimmed, and cut to its field's length (``NAME_MAX``, ``TITLE_MAX``,
``CHAT_MAX``).

Keys (seats' tokens, invites, the pad's, the director's, the tables', the players') are
all ``secrets.token_urlsafe``: ``is_key`` says whether text has that shape, and
``same_key`` / ``same_digest`` compare bytes with ``hmac.compare_digest`` only after it,
so a key with a surrogate, a non-ASCII one or a huge one is a wrong key, never a failure.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from typing import Any

NAME_MAX = 40  # a player's name at a table or on a pad
TITLE_MAX = 80  # a pad's or an evening's title
CHAT_MAX = 200  # a line of chat
KEY_MAX = 100  # no key the server makes is longer (token_urlsafe(24) is 32)

# What no store or page should hold: C0 controls but tab and newline, DEL and the C1
# controls, the bidi embeddings/overrides/isolates, and surrogates (only lone ones reach
# a str from JSON: a pair is decoded as the one character it encodes).
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                         "\ud800-\udfff]")
_SPACES = re.compile(r"\s+")  # str's whitespace: every space, tab and line break
_KEY = re.compile(r"[A-Za-z0-9_-]+")


def storable(text: str) -> str:
    """``text`` without what cannot be stored or shown safely (see the module's words), in
    NFC."""
    if text.isascii() and text.isprintable():
        return text  # most text: nothing to do
    text = _UNSTORABLE.sub("", text)
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    return text


def plain(raw: str | bytes) -> bool:
    """Whether JSON text ``raw`` can hold nothing that ``clean_json`` would change: ASCII
    with no escape (a surrogate or a control comes only escaped: JSON refuses them raw)
    and no DEL (which it allows). Most bodies and messages are; they need no walk."""
    if isinstance(raw, str):
        return raw.isascii() and "\\" not in raw and "\x7f" not in raw
    return raw.isascii() and b"\\" not in raw and b"\x7f" not in raw


def clean_json(obj: Any) -> Any:
    """A copy of parsed JSON with every string, keys included, made ``storable``.
    Iterative, so that JSON as deep as the parser allows is cleaned too."""
    if isinstance(obj, str):
        return storable(obj)
    if not isinstance(obj, (dict, list)):
        return obj
    root: Any = {} if isinstance(obj, dict) else []
    work: list[tuple[Any, Any]] = [(obj, root)]
    while work:
        src, dst = work.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for k, v in items:
            if isinstance(v, str):
                v = storable(v)
            elif isinstance(v, (dict, list)):
                made: Any = {} if isinstance(v, dict) else []
                work.append((v, made))
                v = made
            if isinstance(dst, dict):
                dst[storable(k) if isinstance(k, str) else k] = v
            else:
                dst.append(v)
    return root


def line(text: str, most: int | None = None) -> str:
    """``text`` as one line: storable, each run of spaces, tabs and line breaks one space,
    trimmed, and at most ``most`` characters (cut, then trimmed again)."""
    text = _SPACES.sub(" ", storable(text)).strip()
    if most is not None and len(text) > most:
        text = text[:most].rstrip()
    return text


# letters to Unicode that show as nothing (the Hangul fillers); the joiners some scripts
# (ZWNJ in Persian) and emoji (ZWJ) need between two characters
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
_JOINERS = frozenset("\u200c\u200d")


def invisible(ch: str) -> bool:
    """Whether the character ``ch`` shows as nothing where it stands, to make a name look
    shorter or emptier than it is: a format character (zero-width space, byte-order mark,
    word joiner, soft hyphen...) other than the two joiners, or a Hangul filler."""
    return ch in _BLANK_LETTERS or (unicodedata.category(ch) == "Cf" and ch not in _JOINERS)


def shown(text: str) -> str:
    """``text`` as it shows: without its invisible characters and its joiners."""
    return "".join(c for c in text if not invisible(c) and c not in _JOINERS)


def is_key(given: Any) -> bool:
    """Whether ``given`` has the shape of a key the server makes: URL-safe base64 text of
    1 to KEY_MAX characters."""
    return isinstance(given, str) and 0 < len(given) <= KEY_MAX and \
        _KEY.fullmatch(given) is not None


def _bytes(kept: Any) -> bytes:
    return str(kept).encode("utf-8", "replace")


def same_key(given: Any, kept: Any) -> bool:
    """Whether ``given`` is the key ``kept`` (kept as it was made), in constant time."""
    return is_key(given) and hmac.compare_digest(given.encode("ascii"), _bytes(kept))


def digest(key: str) -> str:
    """What a document keeps of a secret key: its SHA-256, in hex (odd text is hashed
    with '?' for what UTF-8 cannot hold: it can never match a key the server made)."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def same_digest(given: Any, kept: Any) -> bool:
    """Whether ``given`` is the key whose ``digest`` is ``kept``, in constant time."""
    return is_key(given) and hmac.compare_digest(digest(given).encode("ascii"),
                                                 _bytes(kept))


__all__ = ["CHAT_MAX", "KEY_MAX", "NAME_MAX", "TITLE_MAX", "clean_json", "digest", "is_key",
           "line", "plain", "same_digest", "same_key", "storable"]
