"""The server's logs: plain text for a person at a terminal (``forties: ...``, warnings and
errors only, as always), or one JSON object a line for a machine (``--log-format json``):
every request, every websocket session's end and every error, each with the request id
the server made for it (``X-Request-Id`` on the answer).

A request id is made here for every request and websocket, never taken from the client
(a stranger's header would let them write into the server's log under any id); the error
logged while a request is handled carries its id, so the answer's header finds its error.
"""

from __future__ import annotations

import contextvars
import json
import logging
import secrets
import time
from typing import Any

FORMATS = ("text", "json")
REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar("forties_request_id",
                                                                         default=None)
requests_log = logging.getLogger("forties.request")


def new_request_id() -> str:
    """A fresh request id (16 hex digits), the current one from now on in this context
    (each request and websocket is a task of its own)."""
    rid = secrets.token_hex(8)
    REQUEST_ID.set(rid)
    return rid


def request_id() -> str | None:
    """The id of the request being handled (None: outside any)."""
    return REQUEST_ID.get()


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, the request id, the
    record's ``fields`` (``extra={"fields": {...}}``) and a traceback where there is one."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or REQUEST_ID.get()
        if rid:
            out["request_id"] = rid
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            out.update(fields)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        elif record.stack_info:
            out["stack"] = self.formatStack(record.stack_info)
        # (ASCII: a stranger's text can neither break the line nor the log's encoding)
        return json.dumps(out, default=str)


def configure(fmt: str = "text") -> None:
    """The server process's logging: ``text`` (``forties: message``, warnings and errors)
    or ``json`` (one object a line, the requests' lines too), to standard error."""
    if fmt not in FORMATS:
        raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {fmt!r}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json"
                         else logging.Formatter("forties: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    requests_log.setLevel(logging.INFO if fmt == "json" else logging.WARNING)


__all__ = ["FORMATS", "REQUEST_ID", "JsonFormatter", "configure", "new_request_id",
           "request_id", "requests_log"]
