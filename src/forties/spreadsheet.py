"""CSV that a spreadsheet opens as data, never as formulas.

A cell of text that begins with "=", "+", "-", "@", a tab or a carriage return is taken
for a formula by Excel, LibreOffice and Sheets (CSV injection): a player's name
"=HYPERLINK(...)" would run when the director opens the export. Such text cells are
written with a single quote in front (OWASP's advice). Numbers stay numbers: an int or
float is written as it is, and so is text that is plainly a number ("-20", "-1.5").
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from typing import Any

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def cell(value: Any) -> Any:
    """``value`` as safe to put in a CSV cell."""
    if isinstance(value, str) and value.startswith(FORMULA_START) and \
            not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def to_csv(rows: Iterable[Iterable[Any]]) -> str:
    """``rows`` as CSV text, one line each, every text cell made safe by ``cell``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in rows:
        w.writerow([cell(v) for v in row])
    return buf.getvalue()
