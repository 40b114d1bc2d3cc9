"""Make the screenshots of ``forties play`` in this folder (SVG, 80 x 24).

    .venv/bin/python docs/screenshots/make_screenshots.py

A fixed seed and the ``basic`` player for every seat, the person's seat included,
so the same pictures come out every time: the table at bidding, in the middle of
a trick, and the review at the end of the hand.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from forties import Action, Verb, build_rules
from forties.bots import make_bot
from forties.tui.app import TableApp
from forties.tui.screens import ReviewScreen
from forties.tui.session import Session

HERE = Path(__file__).resolve().parent
SEED = 8


async def enter(pilot: Pilot[Any], app: TableApp, action: Action) -> None:
    """Type ``action`` as a person would: a card by its keys, a choice by its number."""
    words = str(action).split()
    if action.verb is Verb.PLAY:
        await pilot.press(words[-1][0].lower(), words[-1][1].lower())
    elif action.verb is Verb.DISCARD:
        for card in words[2:]:
            await pilot.press(card[0].lower(), card[1].lower())
        await pilot.press("enter")
    else:
        index = next(i for i, ch in enumerate(app.choices) if ch.action == action)
        await pilot.press(str(index + 1), "enter")
    await pilot.pause()


async def shoot(out: Path) -> list[Path]:
    rules = build_rules("merrimack-valley")
    # The person deals, so the others' bids are on the table when it is his turn to bid.
    session = Session.start(rules, seed=SEED, first_dealer=0)
    app = TableApp(session, delay=0)
    bot = make_bot("basic", random.Random(SEED))
    saved: list[Path] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        saved.append(Path(app.save_screenshot("bidding.svg", str(out))))
        while not isinstance(app.screen, ReviewScreen):
            s = app.session
            v = s.view()
            trick = v["trick"]["cards"] if v["trick"] else []
            if v["phase"] == "play" and len(trick) == 2 and len(saved) == 1:
                await pilot.press("h")  # the hint, with the legal cards marked
                await pilot.app.workers.wait_for_complete()
                await pilot.pause()
                saved.append(Path(app.save_screenshot("mid-trick.svg", str(out))))
            await enter(pilot, app, bot.choose(s.view(), s.legal()))
        await pilot.app.workers.wait_for_complete()  # the double-dummy par, if a solver
        await pilot.pause()
        saved.append(Path(app.save_screenshot("review.svg", str(out))))
    return saved


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    out.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(shoot(out)):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
