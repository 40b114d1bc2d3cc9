"""``web.http.Turns``: the changes of one process to one document take turns, those to
other documents do not wait, and a document's lock is forgotten once nothing holds it or
waits for it (the hall's evenings and the duplicate sessions keep theirs so)."""

from __future__ import annotations

import asyncio

from forties.web.http import Turns


def test_changes_to_one_document_take_turns_and_the_lock_is_then_forgotten() -> None:
    async def run() -> list[str]:
        turns = Turns()
        said: list[str] = []
        first_in = asyncio.Event()
        release = asyncio.Event()

        async def first() -> None:
            async with turns.of("a"):
                said.append("first in")
                first_in.set()
                await release.wait()
                said.append("first out")

        async def second() -> None:
            await first_in.wait()
            async with turns.of("a"):
                said.append("second in")

        async def other() -> None:
            await first_in.wait()
            async with turns.of("b"):  # (another document: no waiting)
                said.append("other in")
            release.set()

        await asyncio.gather(first(), second(), other())
        assert "a" not in turns and "b" not in turns
        return said

    assert asyncio.run(run()) == ["first in", "other in", "first out", "second in"]


def test_a_change_that_fails_gives_its_turn_back() -> None:
    async def run() -> bool:
        turns = Turns()
        try:
            async with turns.of("a"):
                raise ValueError("refused")
        except ValueError:
            pass
        held = "a" in turns
        async with turns.of("a"):
            return held or "a" not in turns
    assert asyncio.run(run()) is False
