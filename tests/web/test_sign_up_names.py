"""The browser tests share one server per test worker, and an account's name is taken
once on a server: two tests signing up under one name pass alone and fail together,
whichever ran second (its sign-up refused: "that name is taken"), as the worker's lot
decides. Each name a browser test signs up under (``signed_up(...)``, or typed into the
account page's ``#signup-name``) is written once in the whole of tests/web, its language
(``{lang}``) or number (``{n}``) filled in as the test fills it."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
# the name's literal in a sign-up: signed_up(browser, base, lang, NAME, ...) or
# .fill("#signup-name", NAME)
SIGN_UPS = re.compile(r"""signed_up\(\s*\w+,\s*\w+,\s*[\w"']+,\s*(f?"[^"]*")"""
                      r"""|fill\(\s*"#signup-name",\s*(f?"[^"]*")""")


def sign_up_names(text: str) -> list[str]:
    return [a or b for a, b in SIGN_UPS.findall(text)]


def test_the_pattern_finds_both_ways_of_signing_up() -> None:
    text = ('signed_up(browser, base, lang, f"Host {lang}", TABLET)\n'
            'page.fill("#signup-name", "Rose Doucet")\n'
            'signed_up(browser, base, "en", "Halifax Director", PHONE)\n')
    assert sign_up_names(text) == ['f"Host {lang}"', '"Rose Doucet"', '"Halifax Director"']


def test_no_two_browser_tests_sign_up_under_one_name() -> None:
    where: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        for name in sign_up_names(path.read_text(encoding="utf-8")):
            where.setdefault(name, []).append(path.name)
    assert len(where) > 10, sorted(where)  # (the pattern still finds the sign-ups)
    twice = {n: files for n, files in where.items() if len(files) > 1}
    assert not twice, twice
