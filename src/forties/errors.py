"""The project's errors: ``FortiesError``, the base of every error forties raises on
purpose, and ``Refused``, the one way to say that something is refused, with a code and
the words for it."""

from __future__ import annotations

from typing import Any


class FortiesError(Exception):
    """An error forties raises on purpose (each keeps ``ValueError`` or ``RuntimeError``
    too where it was one, so that callers' ``except ValueError`` still catch it)."""


class Refused(FortiesError):
    """A refusal: ``message``, one line in English; ``code``, for programs and for pages
    that say it in their reader's language (None: it has none); ``params``, what that
    sentence says (numbers, seats by number from 0, cards by name)."""

    def __init__(self, message: str, code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params
