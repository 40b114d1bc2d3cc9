"""The hand as the table gives it to its seat (Table.view): in the order a player holds it
(show.sort_hand: trumps first by the engine's own rank, the ace of hearts among them, then
the other suits with their colours alternating), and the cards the seat drew marked."""

from __future__ import annotations

import itertools

import pytest

from forties import build_rules
from forties.cards import CARD_NAMES, SUITS
from forties.fortyfives import KEY, TRUMP_ORDER
from forties.show import sort_hand
from forties.table import COMPUTER, PERSON, Settings, Table, computer_choice

RED = {"D", "H"}


def suits_in_turn(hand: list[str]) -> list[str]:
    out: list[str] = []
    for c in hand:
        if not out or out[-1] != c[1]:
            out.append(c[1])
    return out


@pytest.mark.parametrize("trump", ["C", "D", "H", "S", None])
def test_a_whole_pack_sorts_trumps_first_then_colours_alternating(trump: str | None) -> None:
    """Every card: the trumps in the engine's trump order (5, J, AH, A, ...), then three
    suits whose colours alternate, and each suit best first by the engine's trick keys."""
    pack = list(CARD_NAMES)
    held = sort_hand(pack, trump, "forty-fives")
    assert sorted(held) == sorted(pack)
    rest = held
    if trump is not None:
        t = SUITS.index(trump)
        trumps = [CARD_NAMES[c] for c in TRUMP_ORDER[t]]
        assert held[:len(trumps)] == trumps and "AH" in trumps
        assert held[:3] == [f"5{trump}", f"J{trump}", "AH"] or trump == "H"
        rest = held[len(trumps):]
    order = suits_in_turn(rest)
    assert len(order) == len(set(order)), order  # each suit together
    colours = [s in RED for s in ([trump] if trump else []) + order]
    assert all(a != b for a, b in itertools.pairwise(colours)), (trump, order)
    for s in order:  # each suit best first, as the engine ranks it led
        cards = [c for c in rest if c[1] == s]
        led = SUITS.index(s)
        keys = [KEY[SUITS.index(trump) if trump else (led + 1) % 4][led][CARD_NAMES.index(c)]
                for c in cards]
        assert keys == sorted(keys, reverse=True), (s, cards)


def test_forty_one_holds_hearts_first_then_colours_alternating() -> None:
    held = sort_hand(list(CARD_NAMES), "H", "forty-one")
    assert held[:13] == [f"{r}H" for r in "AKQJT98765432"]
    order = suits_in_turn(held)
    assert order[0] == "H" and all((a in RED) != (b in RED) for a, b in itertools.pairwise(order))


def play_until(t: Table, stop: str) -> None:
    for _ in range(300):
        if t.state.phase.value == stop:
            return
        turn = t.state.turn
        assert turn is not None
        a = computer_choice("basic", t.computer_key(), t.state.view(turn), t.state.legal_actions())
        t.apply({"kind": "act", "seat": turn, "action": str(a)})
    raise AssertionError(f"no {stop} phase")


@pytest.mark.parametrize("seed", range(12))
def test_the_tables_view_holds_the_hand_sorted_and_marks_what_was_drawn(seed: int) -> None:
    """Many deals: each seat's view has its hand in sort_hand's order with the trump known
    (nothing added or lost), and in the play the cards it drew (not dealt it, not the kitty
    it took) as ``drawn``, in the same order."""
    t = Table("t", build_rules("merrimack-valley"), seed, Settings())
    for i in range(4):
        t.apply({"kind": "sit", "seat": i, "as": COMPUTER if i else PERSON, "name": "P",
                 "level": "basic"})
    t.apply({"kind": "start"})
    v = t.view(0)
    assert v["hand"] == sort_hand(t.state.view(0)["hand"], None, v["game"]) and v["drawn"] == []
    play_until(t, "play")
    for seat in range(4):
        v = t.view(seat)
        raw = t.state.view(seat)
        assert v["hand"] == sort_hand(raw["hand"], raw["trump"], v["game"])
        assert sorted(v["hand"]) == sorted(raw["hand"])
        dealt = {CARD_NAMES[c] for c in t.state.deal.hands[seat]}
        kitty = set(raw["kitty"] or [])
        kept = dealt | kitty | {raw["up_card"]}
        assert v["drawn"] == [c for c in v["hand"] if c not in kept]
    assert any(t.view(s)["drawn"] for s in range(4)), "nobody drew a card in this deal"
    assert t.view(None)["hand"] == [] and "drawn" not in t.view(None)
