"""A hint's one reason (``forties.reasons``), on positions built card by card: each code
said where its fact holds and not where it does not, and a hint that is the same, reason
and values, whatever the cards the seat cannot see."""

from __future__ import annotations

from typing import Any

import pytest

from forties import Action, Record
from forties.advice import hint_json
from forties.cards import HEARTS, SUIT_MASKS, mask_of_names
from forties.games import new_game
from forties.reasons import CODES, reason
from forties.record import replay_record

from .helpers_engine import MV_HANDS, MV_KITTY, MV_OPENING, mv_deal_json

# The fixed Merrimack Valley hand (tests/helpers_engine.py): seat 0 bids 20 alone and names
# spades; seats: 0 "JS 4S KD 9C 3H", 1 "5S 2D 7C 8H QD", 2 "AH 4D 5C 6H TD", 3 "9S 8D TC 2H JD".


def state_after(actions: list[str], hands: tuple[str, ...] = MV_HANDS) -> Any:
    deal = mv_deal_json()
    deal["hands"] = [h.split() for h in hands]
    obj = {"format": "forties-record/1", "game": "forty-fives", "rules": "merrimack-valley",
           "players": ["Ann", "Bob", "Cy", "Di"], "first_dealer": 3,
           "hands": [{"deal": deal, "actions": actions}]}
    st = replay_record(Record.from_json(obj))
    assert st is not None
    return st


def why(actions: list[str], action: str) -> dict[str, Any]:
    st = state_after(actions)
    a = Action.parse(action)
    assert st.reason(a) is None, f"{action} is not legal here: {st.reason(a)}"
    return reason(st.view(a.seat), a)


OPENING = list(MV_OPENING)


@pytest.mark.parametrize(("before", "action", "code", "params"), [
    # leading the king of diamonds keeps both trumps (best first)
    ([], "0 play KD", "keeps_trumps", {"card": "KD", "cards": ["JS", "4S"], "count": 2}),
    # the jack of spades led while the five is unseen: no sure trick, nothing to say
    ([], "0 play JS", "searched", {}),
    # partner (seat 0) winning with the jack: the ace of hearts, lower, leaves it to him
    (["0 play JS", "1 play 2D"], "2 play AH", "partner_winning", {"card": "AH", "seat": 0}),
    # last to play, made to follow the trump lead with the nine: no card can take it
    (["0 play JS", "1 play 2D", "2 play AH"], "3 play 9S", "cannot_win", {"card": "9S"}),
    # the five of trumps on the jack: the highest trump there is
    (["0 play JS"], "1 play 5S", "top_trump", {"card": "5S"}),
    # the jack gone, the five over the four: the best trump left, by the cards seen
    (["0 play JS", "1 play 2D", "2 play AH", "3 play 9S", "0 play 4S"], "1 play 5S",
     "top_trump", {"card": "5S"}),
    # last to play, the king of diamonds over the queen, ten and jack: takes the trick
    (["0 play JS", "1 play 2D", "2 play AH", "3 play 9S", "0 play 4S", "1 play 5S",
      "2 play 4D", "3 play 8D", "1 play QD", "2 play TD", "3 play JD"], "0 play KD",
     "takes_trick", {"card": "KD"}),
])
def test_a_card_is_explained_by_what_the_seat_sees(before: list[str], action: str, code: str,
                                                    params: dict[str, Any]) -> None:
    got = why(OPENING + before, action)
    assert got == {"code": code, "params": params}
    assert code in CODES  # (the page has words for each code: tests/test_web_i18n.py)


def test_a_card_that_beats_the_trick_so_far_says_so_and_no_more() -> None:
    """The seven of clubs over the nine (black suits run low to high) with two to play: it
    beats what is there, nothing says it takes the trick."""
    tricks = ["0 play JS", "1 play 2D", "2 play AH", "3 play 9S", "0 play 4S", "1 play 5S",
              "2 play 4D", "3 play 8D", "1 play QD", "2 play TD", "3 play JD", "0 play KD",
              "0 play 9C"]
    assert why(OPENING + tricks, "1 play 7C") == {"code": "beats_so_far",
                                                  "params": {"card": "7C"}}


def test_the_discard_names_what_is_kept_trumps_first() -> None:
    upto = OPENING[:5]  # the bidder holds his five and the kitty: eight cards
    assert why(upto, "0 discard 2C 3C 4C") == {"code": "discard_down", "params": {
        "cards": ["JS", "4S", "KD", "9C", "3H"]}}
    # four kept of eight: one dealt back, not the four thrown
    assert why(upto, "0 discard 2C 3C 4C 3H") == {"code": "discard_keeps", "params": {
        "cards": ["JS", "4S", "KD", "9C"], "count": 1}}
    assert why(upto, "0 discard 2C 3C 4C 3H 9C KD 4S") == {"code": "discard_keeps", "params": {
        "cards": ["JS"], "count": 4}}
    assert why(OPENING[:6], "1 discard") == {"code": "discard_none", "params": {}}


def test_the_auction_names_the_suit_of_the_most_trumps_with_the_ace_of_hearts() -> None:
    # seat 0: two spades (jack and four), one card of every other suit
    assert why([], "0 bid 20") == {"code": "bid_trumps", "params": {
        "suit": "S", "cards": ["JS", "4S"], "count": 2}}
    # seat 2 (after a bid and a pass): the ace of hearts is a trump in every suit, so
    # diamonds give him three (the ace of hearts over the ten and four of diamonds), not two
    assert why(["0 bid 20", "1 pass"], "2 pass") == {"code": "pass_trumps", "params": {
        "suit": "D", "cards": ["AH", "TD", "4D"], "count": 3}}
    assert why(["0 bid 20", "1 pass", "2 pass", "3 pass"], "0 trump S") == {
        "code": "trump_cards", "params": {"suit": "S", "cards": ["JS", "4S"], "count": 2}}


def test_forty_one_bid_counts_the_hand() -> None:
    st = new_game("forty-one", seed=3)
    seat = st.turn
    hand = st.view(seat)["hand"]
    bid = next(a for a in st.legal_actions() if str(a).split()[1] == "bid")
    got = reason(st.view(seat), bid)
    assert got["code"] == "bid41"
    assert got["params"] == {"aces": sum(c[0] == "A" for c in hand),
                             "kings": sum(c[0] == "K" for c in hand),
                             "hearts": bin(mask_of_names(hand) & SUIT_MASKS[HEARTS]).count("1")}


def test_the_hint_is_the_same_whatever_the_cards_the_seat_cannot_see() -> None:
    """Seats 1 and 3 swap their hands: seat 0 sees the same position (its cards, the
    bidding, the kitty it threw back), so its hint, reason and values, must not change;
    the hint of seat 1, who sees his own cards change, may."""
    swapped = (MV_HANDS[0], MV_HANDS[3], MV_HANDS[2], MV_HANDS[1])
    assert MV_KITTY not in swapped
    one, two = state_after(OPENING), state_after(OPENING, swapped)
    assert one.view(0) == two.view(0) and one.view(1) != two.view(1)
    first, second = hint_json(one, 0), hint_json(two, 0)
    assert len(first["values"]) >= 2 and first["reason"]["code"] != ""
    assert first == second


def test_the_hint_says_why_its_choice_is_not_the_first_by_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert keeps the usual choice (a pass) where the search finds a bid better by too
    little to leave it: the values, best first, put the bid first, and the hint says why
    its choice is not that one ("sound"); where the choice is the best, it says nothing."""
    from forties import Verb
    from forties.bots.expert import Choice, ExpertBot

    st = state_after(["0 bid 20"])
    default, better = Action(1, Verb.PASS), Action(1, Verb.BID, 25)

    def keeps_default(self: ExpertBot, view: object, legal: object) -> Choice:
        return Choice(default, {default: 1.5, better: 2.0}, 40)

    monkeypatch.setattr(ExpertBot, "decide", keeps_default)
    got = hint_json(st, 1)
    assert got["action"] == "1 pass" and [v["action"] for v in got["values"]] == \
        ["1 bid 25", "1 pass"]
    assert got["prefers"] == "sound"
    assert got["reason"]["code"] == "pass_trumps"

    def best(self: ExpertBot, view: object, legal: object) -> Choice:
        return Choice(better, {default: 1.5, better: 2.0}, 40)

    monkeypatch.setattr(ExpertBot, "decide", best)
    assert hint_json(st, 1)["prefers"] is None
