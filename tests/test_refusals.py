"""The engine's refusals of the play in a form programs can read: each is the same English
sentence as before (a ``str``) with a ``code`` and ``params`` beside it, so that the web
page can say it in the reader's language (``forties.state.Refusal``).

Each position below produces one code; the sentence is checked word for word against
what the engine said before the codes (the golden verdicts hold the same sentences)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from forties import Action, Deal, GameState, IllegalActionError, Record, Verb, new_game
from forties.cards import parse_card
from forties.state import REFUSAL_CODES, Refusal

from .helpers_engine import GOLDEN_DIR, play_record


def golden(name: str) -> tuple[GameState, Action]:
    """A golden record that ends on a refused play: the state before it, and the play."""
    folder = GOLDEN_DIR / "ff_play_score"
    error = json.loads((folder / f"{name}.expected.json").read_text("utf-8"))["error"]
    rec = Record.from_json(json.loads((folder / f"{name}.record.json").read_text("utf-8")))
    return play_record(rec, error["hand"], error["index"]), Action.parse(error["action"])


def forty_one() -> GameState:
    """Forty One at the second card of the first trick: seat 2 led 2S; seat 3 holds the
    spades from 3S up and AH."""
    hands = ("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
             "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
             "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH 2S",
             "AH 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    g = new_game("forty-one", first_dealer=1,
                 deal=Deal.from_json({"hands": [h.split() for h in hands]}))
    for text in ("2 bid 12", "3 bid 5", "0 bid 1", "1 bid 1", "2 play 2S"):
        g.apply(text)
    return g


def two_cards(a: str, b: str) -> int:
    return 1 << parse_card(a) | 1 << parse_card(b)


SPADES = [f"{r}S" for r in "3456789TJQKA"]

# (case, position, action, today's sentence, code, params)
CASES: list[tuple[str, Any, Any, str, str, dict[str, Any]]] = [
    ("turn", forty_one, "1 play 2D", "it is seat 3's turn, not seat 1's", "turn", {"seat": 3}),
    ("not-held 41", forty_one, "3 play 2C", "you do not hold 2C", "not-held", {"cards": ["2C"]}),
    ("play-card 41", forty_one, "3 bid 2", "it is your turn to play a card", "play-card", {}),
    ("play-one 41", forty_one, lambda: Action(3, Verb.PLAY, two_cards("3S", "4S")),
     "play one card", "play-one", {}),
    ("follow", forty_one, "3 play AH",
     "must follow spades: you hold 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS", "follow",
     {"suit": "S", "cards": SPADES}),
    ("follow-or-trump", "follow_suit_or_trump", None,
     "must follow spades or trump: you hold JS", "follow-or-trump",
     {"suit": "S", "cards": ["JS"]}),
    ("trump", "follow_trump_only_must_trump", None, "must play a trump: you hold 4H", "trump",
     {"cards": ["4H"]}),
    ("trump, two held", "renege_top3_with_low_trump_must", None,
     "must play a trump: you hold 4H 5H", "trump", {"cards": ["4H", "5H"]}),
    ("hearts-trump", "hearts_on_hearts_trump_required", None,
     "hearts on hearts: AH was led, play a trump: you hold 5D", "hearts-trump",
     {"cards": ["5D"]}),
    ("hearts-heart", "hearts_on_hearts_heart_required", None,
     "hearts on hearts: AH was led, play a heart: you hold 4H", "hearts-heart",
     {"cards": ["4H"]}),
    ("called", "cyp_called_card_by_second_trick", None,
     "9H was called: it must be played in the second trick", "called", {"card": "9H"}),
]


def position(where: Any, action: Any) -> tuple[GameState, Action]:
    if isinstance(where, str):
        return golden(where)
    state = where()
    return state, action() if callable(action) else Action.parse(action)


@pytest.mark.parametrize(("where", "action", "text", "code", "params"),
                         [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_refusal_has_its_code_and_the_same_words(where: Any, action: Any, text: str,
                                                      code: str, params: dict[str, Any]
                                                      ) -> None:
    state, act = position(where, action)
    why = state.reason(act)
    assert isinstance(why, Refusal)
    assert why == text and str(why) == text  # the English sentence, word for word
    assert (why.code, why.params) == (code, params)
    assert code in REFUSAL_CODES
    with pytest.raises(IllegalActionError) as err:  # apply refuses with the same one
        state.apply(act)
    assert err.value.reason == text
    assert isinstance(err.value.reason, Refusal) and err.value.reason.code == code


def test_every_code_has_a_position() -> None:
    """The codes the web page translates are the codes these positions produce."""
    assert {c[4] for c in CASES} == set(REFUSAL_CODES)


def test_forty_fives_play_refusals_outside_following() -> None:
    """Forty-Fives says the same as Forty One for a card not held, two cards, or no card."""
    state, _ = golden("follow_suit_or_trump")
    seat = state.turn
    assert seat is not None
    held = {c for c in state.view(seat)["hand"]}
    other = next(f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA" if f"{r}{s}" not in held)
    for act, code, params in (
            (Action.parse(f"{seat} play {other}"), "not-held", {"cards": [other]}),
            (Action(seat, Verb.PLAY, two_cards(*sorted(held)[:2])), "play-one", {}),
            (Action(seat, Verb.PASS, 0), "play-card", {})):
        why = state.reason(act)
        assert isinstance(why, Refusal) and (why.code, why.params) == (code, params), act


def test_other_refusals_stay_plain_text() -> None:
    """A refusal with no code is the plain English line, as before."""
    g = new_game("forty-one", seed=3)
    why = g.reason(Action.parse(f"{g.turn} pass"))
    assert why == "there is no pass in Forty One: bid the tricks you will take (1 to 13)"
    assert type(why) is str


def test_params_name_only_the_refused_seats_own_cards() -> None:
    """What a refusal's params name is the seat's own hand, or public: the card led's suit,
    the called card (called aloud), the seat to act."""
    for case, where, action, _text, _code, _params in CASES:
        state, act = position(where, action)
        why = state.reason(act)
        assert isinstance(why, Refusal), case
        own = set(state.view(act.seat)["hand"])
        if "cards" in why.params and why.code != "not-held":
            assert set(why.params["cards"]) <= own, case
        if "card" in why.params:  # the called card: in the seat's own hand, and called
            assert why.params["card"] in own, case
