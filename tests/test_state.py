"""The game state through its public API: one Merrimack Valley hand worked out by hand,
refusals in a player's words, new deals, snapshots, copies and per-seat views.

The fixed hand (tests/helpers_engine.py), trump spades, dealer Di (seat 3):
  Ann (0) JS 4S KD 9C 3H   Bob (1) 5S 2D 7C 8H QD   Cy (2) AH 4D 5C 6H TD
  Di (3) 9S 8D TC 2H JD    kitty 2C 3C 4C (Ann takes it and throws it back)
  1: Ann leads JS. Bob's only trump is 5S, which outranks the J led: he may keep it and
     plays 2D. Cy's only trump is AH, below the J: he must play it. Di must play 9S.
     JS beats AH and 9S: Ann wins.
  2: Ann leads 4S; Bob plays 5S (the best trump of the hand: 5 more), Cy and Di have no
     trump left and play 4D, 8D. Bob wins 10.
  3: Bob leads QD (off-suit: any card may answer); TD, JD, KD: no trump, K highest: Ann.
  4: Ann leads 9C; 7C, 5C, TC: clubs rank K Q J A 2 3 4 5 6 7 8 9 T, 5C highest: Cy.
  5: Cy leads 6H; 2H, 3H, 8H: hearts rank K..2, 8H highest: Bob.
  Ann & Cy take 15 of a bid of 20 and go down 20; Bob & Di score their 15 (30 in all).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from forties import (
    Action,
    Deal,
    DealError,
    GameState,
    IllegalActionError,
    Phase,
    StateError,
    Verb,
    new_game,
)
from forties.cards import FULL_DECK, cards_of

from .helpers_engine import MV_OPENING, MV_TRICKS, card_tokens, mask, mv_deal_json


def mv_state(options: dict[str, Any] | None = None) -> GameState:
    from forties import build_rules

    rules = build_rules("merrimack-valley", options or {})
    return new_game(rules, first_dealer=3, deal=Deal.from_json(mv_deal_json()))


def played(state: GameState, actions: Any) -> GameState:
    for a in actions:
        state.apply(a)
    return state


def legal(state: GameState) -> list[str]:
    return sorted(str(a) for a in state.legal_actions())


# ----- the hand, step by step --------------------------------------------------------------


def test_the_auction_draw_and_first_trick_follow_the_rules() -> None:
    """Seat 0 bids first (left of dealer 3); after the draw the bidder leads; on JS led
    Bob may keep his 5S, Cy must play AH, Di must play 9S."""
    st = mv_state()
    assert st.phase is Phase.AUCTION and st.turn == 0 and st.dealer == 3
    played(st, MV_OPENING[:4])
    assert st.phase is Phase.TRUMP and st.turn == 0
    st.apply("0 trump S")
    assert st.phase is Phase.DRAW and st.turn == 0
    assert st.hands[0] == mask("JS 4S KD 9C 3H 2C 3C 4C")  # the kitty taken
    played(st, MV_OPENING[5:])
    assert st.phase is Phase.PLAY and st.turn == 0
    assert legal(st) == sorted(f"0 play {c}" for c in ("JS", "4S", "KD", "9C", "3H"))
    st.apply("0 play JS")
    assert legal(st) == sorted(f"1 play {c}" for c in ("5S", "2D", "7C", "8H", "QD"))
    st.apply("1 play 2D")
    assert legal(st) == ["2 play AH"]
    st.apply("2 play AH")
    assert legal(st) == ["3 play 9S"]


def test_the_whole_hand_scores_as_worked_out() -> None:
    st = played(mv_state(), MV_OPENING)
    for trick in MV_TRICKS:
        played(st, trick)
    assert [t.winner for t in st.tricks] == [0, 1, 0, 2, 1]
    assert st.points == [15, 15]  # type: ignore[attr-defined]
    assert st.scores == [-20, 15]
    assert st.hand_over and not st.over and st.winner is None and st.turn is None
    assert st.phase is Phase.HAND_OVER and list(st.legal_actions()) == []


def test_played_to_15_the_hand_ends_the_game() -> None:
    """Only Bob & Di reach 15: they win and the game is over."""
    st = played(mv_state({"target": 15}), MV_OPENING)
    for trick in MV_TRICKS:
        played(st, trick)
    assert st.over and st.winner == 1 and st.phase is Phase.GAME_OVER
    assert st.reason(Action(0, Verb.PASS)) == "the game is over"
    with pytest.raises(StateError):
        st.next_hand()


# ----- refusals ----------------------------------------------------------------------------


def test_refusals_say_why() -> None:
    st = played(mv_state(), [*MV_OPENING, "0 play 4S", "1 play 2D", "2 play 4D"])
    why = st.reason(Action.parse("3 play 8D"))
    assert why is not None and "trump" in why and "9S" in why
    with pytest.raises(IllegalActionError) as e:
        st.apply("3 play 8D")
    assert e.value.reason == why and e.value.action == Action.parse("3 play 8D")
    assert "seat 3" in (st.reason(Action.parse("0 play KD")) or "")
    not_held = st.reason(Action.parse("3 play 5H")) or ""
    assert "hold" in not_held and "5H" in not_held
    assert st.reason(Action(7, Verb.PLAY, mask("9S"))) is not None  # no seat 7
    assert st.reason(Action(3, Verb.PLAY, mask("9S 8D"))) is not None  # two cards


def test_malformed_actions_are_refused_not_crashed_on() -> None:
    """Actions built in code that no record line can spell (two cards played at once, a
    suit index that is no suit) are refused like any illegal action, changing nothing."""
    st = played(mv_state(), MV_OPENING[:4])
    for arg in (-1, 4, 7):
        with pytest.raises(IllegalActionError):
            st.apply(Action(0, Verb.TRUMP, arg))
    played(st, MV_OPENING[4:])
    before = st.to_json()
    for bad in (Action(0, Verb.PLAY, mask("JS 4S")), Action(0, Verb.PLAY, 0)):
        with pytest.raises(IllegalActionError):
            st.apply(bad)
    assert st.to_json() == before and st.hands[0] == mask("JS 4S KD 9C 3H")


def test_a_finished_hand_refuses_actions_until_the_next_deal() -> None:
    st = played(mv_state(), MV_OPENING)
    for trick in MV_TRICKS:
        played(st, trick)
    why = st.reason(Action(0, Verb.PASS))
    assert why is not None and "deal" in why


# ----- new deals ---------------------------------------------------------------------------


def test_next_hand_moves_the_deal_on() -> None:
    st = new_game("merrimack-valley", seed=4, first_dealer=2)
    with pytest.raises(StateError):
        st.next_hand()  # the hand is not over
    while not st.hand_over:
        st.apply(st.legal_actions()[0])
    st.next_hand()
    assert (st.hand_index, st.dealer, st.turn, st.phase) == (1, 3, 0, Phase.AUCTION)
    assert st.deal == st.deal_for(1) and st.history == []


def test_a_redeal_moves_the_deal_on() -> None:
    """Auction 45: everyone passes and the hand is thrown in; the next dealer deals."""
    st = new_game("auction-45", seed=9, first_dealer=1)
    for seat in (2, 3, 0, 1):
        st.apply(f"{seat} pass")
    assert st.hand_over and st.thrown_in and st.scores == [0, 0]
    st.next_hand()
    assert st.dealer == 2 and st.turn == 3


def test_a_game_without_seed_needs_each_deal() -> None:
    st = played(mv_state(), MV_OPENING)
    for trick in MV_TRICKS:
        played(st, trick)
    with pytest.raises(DealError):
        st.next_hand()


@pytest.mark.parametrize("edit", ["short hand", "card twice", "short kitty", "missing"])
def test_a_bad_deal_is_refused(edit: str) -> None:
    obj = mv_deal_json()
    if edit == "short hand":
        obj["hands"][1] = obj["hands"][1][:4]
    elif edit == "card twice":
        obj["hands"][1][0] = "JS"
    elif edit == "short kitty":
        obj["kitty"] = obj["kitty"][:2]
    else:
        obj["stock"] = obj["stock"][:-1]
    with pytest.raises(DealError):
        new_game("merrimack-valley", deal=Deal.from_json(obj))


def test_first_dealer_must_be_a_seat() -> None:
    with pytest.raises(DealError):
        new_game("merrimack-valley", seed=1, first_dealer=4)


def test_forty_one_deal_has_no_kitty() -> None:
    hands = tuple(tuple(c for c in range(52) if c % 4 == s) for s in range(4))
    with pytest.raises(DealError):
        new_game("forty-one", deal=Deal((*hands[:3], hands[3][:12]), stock=(hands[3][12],)))


# ----- snapshots and copies ----------------------------------------------------------------


def test_snapshot_at_every_step_of_the_hand() -> None:
    """At every step the snapshot reads back to the same snapshot and legal actions."""
    st = mv_state()
    for a in [*MV_OPENING, *(x for t in MV_TRICKS for x in t)]:
        snap = st.to_json()
        back = GameState.from_json(json.loads(json.dumps(snap)))
        assert back.to_json() == snap and legal(back) == legal(st)
        st.apply(a)
    back = GameState.from_json(st.to_json())
    assert back.scores == [-20, 15] and back.hand_over


@pytest.mark.parametrize("bad", [
    [1, 2],
    {"format": "forties-state/0"},
    "edit:rules",
    "edit:actions",
    "edit:deal",
])
def test_a_bad_snapshot_is_refused(bad: Any) -> None:
    snap = played(mv_state(), MV_OPENING[:2]).to_json()
    if bad == "edit:rules":
        snap["rules"] = {"preset": "merrimac-valley"}
    elif bad == "edit:actions":
        snap["actions"].append("1 bid 15")  # not higher than 20
    elif bad == "edit:deal":
        snap["deal"]["hands"][0][0] = "ZZ"
    else:
        snap = bad
    with pytest.raises(StateError):
        GameState.from_json(snap)


def test_clone_is_independent() -> None:
    st = played(mv_state(), MV_OPENING)
    before = st.to_json()
    copy = st.clone()
    played(copy, MV_TRICKS[0])
    assert st.to_json() == before and st.hands[0] == mask("JS 4S KD 9C 3H")
    assert copy.tricks and not st.tricks


def test_the_same_seed_deals_the_same() -> None:
    a, b = new_game("auction-45", seed=77), new_game("auction-45", seed=77)
    assert a.deal == b.deal
    a.apply(str(a.legal_actions()[1]))
    b.apply(b.legal_actions()[1])
    assert a.to_json() == b.to_json()


# ----- views -------------------------------------------------------------------------------


def test_only_the_bidder_sees_the_kitty_and_only_once_taken() -> None:
    st = played(mv_state(), MV_OPENING[:4])
    assert all(st.view(s)["kitty"] is None for s in range(4))
    st.apply("0 trump S")
    assert sorted(st.view(0)["kitty"]) == ["2C", "3C", "4C"]
    for seat in (1, 2, 3, None):
        assert not {"2C", "3C", "4C"} & card_tokens(st.view(seat))


def test_every_hand_as_dealt_is_shown_once_the_hand_is_over() -> None:
    """The review: while a hand is played no view holds "deal"; once it is over every
    seat's view and the spectator's show each hand as dealt and the kitty."""
    st = mv_state()
    for a in [*MV_OPENING, *(x for t in MV_TRICKS for x in t)][:-1]:
        st.apply(a)
        assert all(st.view(s)["deal"] is None for s in (None, 0, 1, 2, 3))
    st.apply(MV_TRICKS[-1][-1])
    dealt = mv_deal_json()
    for seat in (None, 0, 1, 2, 3):
        assert st.view(seat)["deal"] == {"hands": dealt["hands"], "kitty": dealt["kitty"]}


def test_a_thrown_in_hand_shows_its_deal_too() -> None:
    st = new_game("auction-45", seed=5)
    while not st.hand_over:
        st.apply(f"{st.turn} pass")
    assert st.thrown_in
    view = st.view(None)
    assert [len(h) for h in view["deal"]["hands"]] == [5, 5, 5, 5]
    assert len(view["deal"]["kitty"]) == 3
    st.next_hand()
    assert st.view(None)["deal"] is None


def test_discards_are_counts_to_the_others() -> None:
    st = played(mv_state(), MV_OPENING[:6])  # Ann has thrown 2C 3C 4C back
    mine = st.view(0)
    assert sorted(mine["my_discards"]) == ["2C", "3C", "4C"]
    assert "0 discard 2C 3C 4C" in mine["history"]
    for seat in (1, 2, 3):
        view = st.view(seat)
        assert view["discard_counts"] == [3, 0, 0, 0]
        assert not {"2C", "3C", "4C"} & card_tokens(view)


def test_the_card_robbed_away_stays_hidden() -> None:
    """Nova Scotia: 7D turned up, Bob holds AD and robs, giving up KC: everyone sees that
    he took 7D; only Bob knows the card he gave."""
    from forties.cards import CARD_NAMES

    hands = ("5D QH 2S 8S JC", "AD KC 3S 9H 2C", "8C 4C JH 6S TS", "AH 3D KS 7C 4H")
    used = mask(" ".join(hands) + " 7D")
    stock = ["7D"] + [CARD_NAMES[c] for c in range(52) if not used >> c & 1]
    st = new_game("nova-scotia", first_dealer=0,
                  deal=Deal.from_json({"hands": [h.split() for h in hands], "stock": stock}))
    assert st.phase is Phase.ROB and st.turn == 1
    st.apply("1 rob KC")
    assert st.phase is Phase.PLAY and st.hands[1] == mask("AD 7D 3S 9H 2C")
    assert "KC" in card_tokens(st.view(1))
    for seat in (0, 2, 3, None):
        view = st.view(seat)
        assert "KC" not in card_tokens(view)
        assert view["up_card"] == "7D" and view["robbed"] is True


def test_seeded_deck_is_pythons_shuffle() -> None:
    """The fast seeded shuffle deals exactly what random.Random(...).shuffle would, so a
    seed written in a record means the same deal to anyone."""
    import random as _random

    from forties.state import shuffled_deck

    for seed, hand in [(0, 0), (1, 5), (123456789, 2), (2**40, 17)]:
        deck = list(range(52))
        _random.Random(seed * 1_000_003 + hand).shuffle(deck)
        assert shuffled_deck(seed, hand) == deck


def test_hand_built_actions_naming_no_card_are_refused() -> None:
    """An Action built in code with a card set outside the deck is refused, not a crash."""
    from forties import Action, Verb, new_game

    g = new_game("merrimack-valley", seed=1)
    seat = g.turn
    assert seat is not None
    for verb in (Verb.PLAY, Verb.DISCARD, Verb.ROB, Verb.CALL):
        for arg in (-1, 1 << 60):
            assert g.reason(Action(seat, verb, arg)) == "that names no card"


# ----- misuse of the library ---------------------------------------------------------------


@pytest.mark.parametrize("seat", [-1, 4, 7, "a", 1.0, True, "0"])
def test_a_view_for_no_seat_is_refused(seat: Any) -> None:
    """view() answers only a seat at the table (or None, a spectator): view(-1) would
    otherwise show the last seat's hand."""
    from forties import SeatError

    g = new_game("merrimack-valley", seed=1)
    with pytest.raises(SeatError) as e:
        g.view(seat)
    assert "seat" in str(e.value) and "\n" not in str(e.value)
    assert g.view(None)["hand"] == [] and len(g.view(3)["hand"]) == 5


@pytest.mark.parametrize("preset", ["merrimack-valley", "forty-one"])
@pytest.mark.parametrize("bad", [None, 5, 1.5, b"0 pass", ["0", "pass"],
                                 ("0", "pass"), object()])
def test_applying_what_is_not_an_action_is_refused(preset: str, bad: Any) -> None:
    from forties import ActionSyntaxError

    g = new_game(preset, seed=3)
    before = g.to_json()
    with pytest.raises(ActionSyntaxError) as e:
        g.apply(bad)
    assert "action" in str(e.value)
    assert g.to_json() == before


@pytest.mark.parametrize("preset", ["merrimack-valley", "forty-one"])
def test_hand_built_actions_of_the_wrong_types_are_refused(preset: str) -> None:
    g = new_game(preset, seed=3)
    seat = g.turn
    assert seat is not None
    legal_first = g.legal_actions()[0]
    before = g.to_json()
    for bad in (Action("a", legal_first.verb, legal_first.arg),  # type: ignore[arg-type]
                Action(seat, "bid", 20),  # type: ignore[arg-type]
                Action(seat, legal_first.verb, "x"),  # type: ignore[arg-type]
                Action(seat, Verb.PLAY, 2.5),  # type: ignore[arg-type]
                Action(float(seat), legal_first.verb, legal_first.arg),  # type: ignore[arg-type]
                Action(seat, legal_first.verb, float(legal_first.arg))):  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            g.apply(bad)
        assert g.reason(bad) is not None
    assert g.to_json() == before


@pytest.mark.parametrize("seed", ["1", 1.5, True, [1], b"1"])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: Any) -> None:
    with pytest.raises(DealError) as e:
        new_game("merrimack-valley", seed=seed)
    assert "seed" in str(e.value)


@pytest.mark.parametrize("first_dealer", ["a", 1.0, None, True])
def test_a_first_dealer_that_is_not_a_seat_number_is_refused(first_dealer: Any) -> None:
    with pytest.raises(DealError):
        new_game("merrimack-valley", seed=1, first_dealer=first_dealer)


@pytest.mark.parametrize("rules", [7, None, {"preset": "merrimack-valley"}])
def test_new_game_needs_rules_or_a_preset_name(rules: Any) -> None:
    from forties import RulesError

    with pytest.raises(RulesError):
        new_game(rules, seed=1)


def test_a_deal_that_is_not_a_deal_is_refused() -> None:
    with pytest.raises(DealError):
        new_game("merrimack-valley", deal=[[1, 2, 3]])  # type: ignore[arg-type]


@pytest.mark.parametrize("edit", [
    ("game", "chess"),
    ("game", None),
    ("game", "forty-one"),  # the rules are Forty-Fives
    ("actions", "0 bid 20"),
    ("actions", None),
    ("actions", [20]),
    ("actions", ["0 bid"]),
    ("actions", {"0": "bid 20"}),
    ("seed", "7"),
    ("scores", None),
    ("deal", None),
    ("rules", None),
    ("hand_index", -1),
])
def test_a_snapshot_with_an_unknown_game_or_malformed_part_is_refused(edit: Any) -> None:
    key, value = edit
    snap = played(mv_state(), MV_OPENING[:2]).to_json()
    snap[key] = value
    with pytest.raises(StateError) as e:
        GameState.from_json(snap)
    msg = str(e.value)
    assert key in msg and "\n" not in msg and "NoneType" not in msg


@pytest.mark.parametrize("key", ["game", "rules", "deal", "actions", "scores"])
def test_a_snapshot_missing_a_part_names_it(key: str) -> None:
    snap = played(mv_state(), MV_OPENING[:2]).to_json()
    del snap[key]
    with pytest.raises(StateError) as e:
        GameState.from_json(snap)
    assert f"missing {key!r}" in str(e.value)


def test_cards_of_lists_every_card_of_a_mask_lowest_first() -> None:
    """cards_of, on masks of every size (it reads big ones a byte at a time), on each
    byte's edges, and on ints past the 52 cards: the set bits, lowest first."""
    rng = random.Random(0)
    masks = [0, 1, 1 << 51, FULL_DECK, (1 << 56) - 1, 1 << 55, 1 << 56 | 5, 1 << 70 | 3]
    masks += [(0xFF << (8 * k)) | 1 << (8 * k + 8) for k in range(7)]
    masks += [sum(1 << c for c in rng.sample(range(52), k)) for k in range(53) for _ in range(30)]
    for m in masks:
        assert cards_of(m) == [c for c in range(m.bit_length()) if m >> c & 1], hex(m)
