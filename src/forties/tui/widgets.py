"""The pieces of the table on screen: a card of the hand, a choice button, a seat.

Cards and choices are fixed slots filled in on every refresh (never mounted and
removed), so the screen is stable and each slot keeps its id for the mouse and
for tests.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Static


class CardPicked(Message):
    """A card of the hand was clicked."""

    def __init__(self, card: str) -> None:
        super().__init__()
        self.card = card


class ChoicePicked(Message):
    """A choice (pass, a bid, a suit...) was clicked."""

    def __init__(self, index: int) -> None:
        super().__init__()
        self.index = index


class CardSlot(Static):
    """One place in the hand row; shows a card or nothing."""

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"slot-{index}", classes="card", markup=False)
        self.index = index
        self.card: str | None = None

    def on_click(self, event: events.Click) -> None:
        event.stop()
        if self.card is not None:
            self.post_message(CardPicked(self.card))


class ChoiceSlot(Static):
    """One place in the choices row."""

    def __init__(self, index: int) -> None:
        super().__init__("", id=f"choice-{index}", classes="choice", markup=False)
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(ChoicePicked(self.index))


class PickCard(Static):
    """A card in a picker (calling a partner, robbing the pack)."""

    def __init__(self, card: str, label: str, classes: str = "") -> None:
        super().__init__(label, id=f"pick-{card}", classes=f"pick {classes}", markup=False)
        self.card = card

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(CardPicked(self.card))
