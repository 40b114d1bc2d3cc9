"""The expert's imagined deals agree with everything its seat has seen, and only that."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forties import new_game
from forties.bots.sampler import knowledge, worlds
from forties.cards import SUIT_MASKS
from forties.state import Phase

from .helpers_engine import play_until

PRESETS = ["merrimack-valley", "nova-scotia", "auction-45", "call-your-partner", "forty-one"]


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_true_deal_satisfies_every_fact(preset: str, seed: int, pick: int) -> None:
    """The real hands never break a fact the sampler derives: it derives no false facts."""
    g = play_until(preset, seed, random.Random(pick), 0.25)
    if g is None:
        return
    seat = g.turn
    assert seat is not None
    k = knowledge(g.view(seat))
    for s in range(g.n):
        assert g.hands[s] & k.forbid[s] == 0
        assert k.fixed[s] & ~g.hands[s] == 0
        assert k.sizes[s] == g.hands[s].bit_count()
        if s != seat:
            assert g.hands[s] & ~(k.unknown | k.fixed[s]) == 0


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_every_world_is_consistent(preset: str, seed: int, pick: int) -> None:
    """Each world keeps the seat's own hand and every public card, and every play in it
    was legal (a 45s world is rebuilt by replaying them; a Forty One world after the first
    is a copy, checked against a replay in test_fast_paths), so the seat's choices are the
    same."""
    rng = random.Random(pick)
    g = play_until(preset, seed, rng, 0.3)
    if g is None:
        return
    seat = g.turn
    assert seat is not None
    view = g.view(seat)
    ws = worlds(view, 6, rng)
    assert len(ws) == 6
    for w in ws:
        assert w.hands[seat] == g.hands[seat]
        assert [t.cards for t in w.tricks] == [t.cards for t in g.tricks]
        assert w.trick_cards == g.trick_cards
        assert [str(a) for a in w.legal_actions()] == [str(a) for a in g.legal_actions()]
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in g.hands]
        assert w.view(seat)["scores"] == view["scores"]  # what the table has seen


def test_a_void_shown_is_respected() -> None:
    """Forty One: a player who did not follow clubs is never given a club."""
    rng = random.Random(5)
    for seed in range(300):
        g = new_game("forty-one", seed=seed)
        while not g.hand_over and g.phase is not Phase.PLAY:
            g.apply(rng.choice(list(g.legal_actions())))
        if g.hand_over:
            continue
        # play until someone shows out of the suit led
        while not g.hand_over:
            before = len(g.tricks)
            g.apply(rng.choice(list(g.legal_actions())))
            if len(g.tricks) > before:
                t = g.tricks[-1]
                led = t.cards[0] // 13
                void = [(t.leader + i) % 4 for i, c in enumerate(t.cards) if c // 13 != led]
                if void and not g.hand_over:
                    seat = g.turn
                    assert seat is not None
                    others = [s for s in void if s != seat]
                    if not others:
                        continue
                    for w in worlds(g.view(seat), 10, rng):
                        for s in others:
                            assert w.hands[s] & SUIT_MASKS[led] == 0
                    return
    pytest.fail("no void shown in 300 deals")


def test_the_seat_never_sees_what_it_may_not() -> None:
    """Worlds differ from each other in the hidden hands: the sampler does not peek."""
    rng = random.Random(11)
    g = play_until("merrimack-valley", 3, rng, 1.0)  # the first lead: nothing shown yet
    assert g is not None
    seat = g.turn
    assert seat is not None
    other = (seat + 1) % g.n
    hands = {w.hands[other] for w in worlds(g.view(seat), 30, rng)}
    assert len(hands) > 1
