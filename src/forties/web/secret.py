"""The site's own secret, and what the site keeps of a visitor's address under it.

The secret is 32 bytes from ``secrets``, made by the first server process that needs it
and kept in the site's database, beside the data it protects (a document of its own
kind, ``site``, which no route reads): every process and every restart uses the same
one, a backup carries it with the data, and it is never in the repository nor in a
setting file. Two processes that make it at once both read back the one stored first.

``SiteSecret.keyed(text)`` is HMAC-SHA-256 under it: what an evening keeps of the address
that made it (its tables count against that address, ``hall``). A plain hash of an IPv4
address is undone by trying the 2^32 addresses; a keyed one cannot be tried without the
key. An evening stored before (a plain hash) keeps it: the value is only ever a key to
count under, compared with nothing, so it goes on working as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets

from ..errors import FortiesError
from .http import DocumentStore

KIND, DOC = "site", "secret"  # the document that holds it
TRIES = 4


class NoSecret(FortiesError):
    """The site's secret could neither be read nor stored (the database refused)."""


class SiteSecret:
    """The site's secret in ``store``, read once and kept for the process's life."""

    def __init__(self, store: DocumentStore) -> None:
        self.store = store
        self._key: bytes | None = None

    async def key(self) -> bytes:
        if self._key is not None:
            return self._key
        for _ in range(TRIES):
            got = await self.store.get_doc(KIND, DOC)
            if got is not None:
                text = got[1].get("key")
                try:
                    key = bytes.fromhex(text) if isinstance(text, str) else b""
                except ValueError:
                    key = b""
                if len(key) != 32:
                    raise NoSecret("the site's secret in the database is not one it made")
                self._key = key
                return key
            with contextlib.suppress(self.store.Conflict):  # (another stored one first)
                await self.store.put_doc(KIND, DOC, {"key": secrets.token_hex(32)}, 0)
        raise NoSecret("the site's secret could not be stored")

    async def keyed(self, text: str) -> str:
        """``text`` hashed under the site's secret (HMAC-SHA-256), in hex."""
        key = await self.key()
        return hmac.new(key, text.encode("utf-8", "replace"), hashlib.sha256).hexdigest()


__all__ = ["DOC", "KIND", "NoSecret", "SiteSecret"]
