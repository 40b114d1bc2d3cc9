"""The engine's refusals of the play in a form programs can read: each is the same English
sentence as before (a ``str``) with a ``code`` and ``params`` beside it, so that the web
page can say it in the reader's language (``forties.state.Refusal``).

Each position below produces one code; the sentence is checked word for word against
what the engine said before the codes (the golden verdicts hold the same sentences)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from forties import (
    Action,
    Deal,
    GameState,
    IllegalActionError,
    Record,
    Verb,
    build_rules,
    new_game,
)
from forties.cards import parse_card
from forties.state import REFUSAL_CODES, Refusal
from forties.table import PERSON, Settings, Table, TableError

from .helpers_engine import (
    GOLDEN_DIR,
    PRESET_CONFIGS,
    VARIANT_CONFIGS,
    Config,
    candidate_actions,
    config_id,
    play_record,
    rules_of,
)

LOCALE = Path(__file__).resolve().parent.parent / "src" / "forties" / "web" / "locale"


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


def test_every_play_code_has_a_position() -> None:
    """The play's codes the web page translates are the codes these positions produce."""
    play = REFUSAL_CODES[REFUSAL_CODES.index("not-held"):REFUSAL_CODES.index("called") + 1]
    assert {c[4] for c in CASES} == {"turn", *play}


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


def test_only_a_programs_mistake_stays_plain_text() -> None:
    """A refusal with no code is the plain English line, as before: only for what no
    player at a table can send (a seat that is not there)."""
    g = new_game("forty-one", seed=3)
    why = g.reason(Action(7, Verb.BID, 3))
    assert why == "there is no seat 7 (seats are 0..3)"
    assert type(why) is str
    why = g.reason(Action.parse(f"{g.turn} pass"))
    assert why == "there is no pass in Forty One: bid the tricks you will take (1 to 13)"
    assert isinstance(why, Refusal) and (why.code, why.params) == ("no-pass", {})


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


# ----- every refusal a player can meet, in every phase ----------------------------------

# What the page says of each param (table.js, refusalText): the placeholder it fills.
PAGE_PARAMS = {"cards": "cards", "give": "give", "take": "take", "card": "card", "suit": "suit",
               "seat": "name", "seats": "names", "bid": "bid", "bids": "bids", "held": "held",
               "count": "count", "keep": "keep"}
# House rules that reach "booked?", the pack, the raise, going on the kitty and holding.
MORE_CONFIGS: list[Config] = [
    ("merrimack-valley", {"booked": True}),
    ("call-your-partner", {"booked": True, "dealer_robs_pack": True}),
    ("auction-45", {"go_on_kitty": True, "go_on_top_card": True}),
    ("auction-45", {"kitty_before_trump": True}),
]


@cache
def catalog(lang: str) -> dict[str, str]:
    with open(LOCALE / f"{lang}.po", "rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}


def attempts(st: GameState) -> list[Action]:
    """What a player at the table might send now, legal or not (its own seat and the
    others, never a seat that is not there)."""
    if st.turn is None:
        return [Action(s, v, a) for s in range(st.n) for v, a in
                ((Verb.PASS, 0), (Verb.BID, 20), (Verb.PLAY, 1), (Verb.DISCARD, 0))]
    out, _ = candidate_actions(st)
    s = st.turn
    out += [Action(s, Verb.ASK, x) for x in range(st.n)]
    out += [Action(s, Verb.ANSWER, 0), Action(s, Verb.ANSWER, 1), Action(s, Verb.FOLD),
            Action(s, Verb.STAY)]
    return [a for a in out if a.seat < st.n]


def check_refusal(why: str, where: str | Callable[[], str]) -> str:
    """``why`` has a code the pages know, params they can say, and a sentence in every
    language that says each of its params and nothing else; its code. (``where`` says, on
    failure, where it was met; each code with each set of params is checked once, in
    ``check_code``: a million refusals come in a few hundred kinds.)"""
    def said() -> str:
        return where if isinstance(where, str) else where()

    assert isinstance(why, Refusal) and why.code, (said(), why)
    try:
        check_code(why.code, frozenset(why.params))
    except AssertionError as e:
        raise AssertionError(f"{said()}: {e}") from None
    return why.code


@cache
def check_code(code: str, params: frozenset[str]) -> None:
    """What ``check_refusal`` checks of a refusal's code and its params' names."""
    assert code in REFUSAL_CODES, code
    assert params <= set(PAGE_PARAMS), (code, sorted(params))
    given = {PAGE_PARAMS[k] for k in params}
    for lang in ("en", "fr", "ar"):
        text = catalog(lang).get(f"refusal.{code}", "")
        assert text, (lang, code)
        assert set(re.findall(r"\{(\w+)\}", text)) <= given, (lang, code, sorted(params))


def test_every_refusal_a_player_can_meet_has_a_code_in_every_language() -> None:
    """Random games of every preset and some house rules: at each step the actions a
    player might send are tried (a random handful of the many card sets), and every one
    refused (in any phase, between hands and at the game's end) has a code with a
    sentence in each language; a new refusal without one fails here."""
    seen: set[str] = set()
    for cfg in [*PRESET_CONFIGS, *VARIANT_CONFIGS, *MORE_CONFIGS]:
        rng = random.Random(config_id(cfg))
        for seed in range(2):
            g = new_game(rules_of(cfg), seed=seed)
            for _ in range(150):
                tries = attempts(g)
                sets = [a for a in tries if a.verb in (Verb.DISCARD, Verb.ROB)]  # many
                tries = [a for a in tries if a.verb not in (Verb.DISCARD, Verb.ROB)]
                for a in tries + rng.sample(sets, min(len(sets), 40)):
                    why = g.reason(a)
                    if why is not None:
                        seen.add(check_refusal(
                            why, lambda a=a, cfg=cfg, g=g: f"{config_id(cfg)} {g.phase} {a}"))
                if g.over:
                    break
                if g.turn is None:
                    g.next_hand()
                else:  # passing often, so that the dealer is bagged now and then
                    legal = list(g.legal_actions())
                    passes = [a for a in legal if a.verb is Verb.PASS]
                    g.apply(rng.choice(passes if passes and rng.random() < 0.5 else legal))
    # the attempts reach every phase: most codes are met (the rest by the positions above)
    assert len(seen) >= 40, sorted(set(REFUSAL_CODES) - seen)
    assert {"bagged", "not-a-bid", "bid-range", "raise-kitty", "trump-held", "go-on-top",
            "discard-down", "keep", "pack-even", "rob", "ask", "answer", "call-five",
            "hand-over", "game-over"} <= seen


def test_the_tables_own_refusals_have_codes() -> None:
    """The table's refusals before the engine's (not started, a computer in the seat, an
    action for another seat) carry codes too, with the English line as before."""
    t = Table("t1", build_rules("merrimack-valley"), 7, Settings())
    for i in range(t.n):
        t.apply({"kind": "sit", "seat": i, "as": PERSON, "name": f"P{i}"})
    seat = t.state.turn
    assert seat is not None
    cases: list[tuple[Any, str, str]] = []
    with pytest.raises(TableError) as e:
        t.check_act(seat, f"{seat} pass", t.version)
    cases.append((e.value, "the game has not started", "not-started"))
    t.apply({"kind": "start"})
    with pytest.raises(TableError) as e:
        t.check_act(seat, f"{(seat + 1) % 4} pass", t.version)
    cases.append((e.value, f"that action is P{(seat + 1) % 4}'s, not yours", "not-yours"))
    t.apply({"kind": "away", "seat": seat})
    with pytest.raises(TableError) as e:
        t.check_act(seat, f"{seat} pass", t.version)
    cases.append((e.value, "a computer player has your seat: take it back first", "away"))
    for err, text, code in cases:
        assert err.code == "turn" and err.reason == text and err.refusal == code
        assert err.params == {} and code in REFUSAL_CODES
        check_refusal(Refusal(text, code, err.params), code)
