"""Hints (``forties.analysis.hint`` and ``forties hint``): the text recommends the action
returned, values are points of this hand, and actions are written as players write them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forties import Action, Record, Verb
from forties.analysis import action_words, hint
from forties.bots.expert import Choice, ExpertBot
from forties.cards import parse_card
from forties.record import replay_record

from .helpers_engine import mv_record_json, run_forties

RAW_CODE = re.compile(r"\b(T[CDHS]|trump [CDHS]|30for60|call none)\b|^\d+ ")


def state_of(obj: dict[str, object]) -> object:
    st = replay_record(Record.from_json(obj))
    assert st is not None
    return st


def test_the_hint_names_the_action_it_returns_when_the_expert_keeps_its_default(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert may keep the sound default when the search is not sure another choice
    is better: the text then recommends that default (the action returned), and says what
    the search gave the other."""
    st = state_of(mv_record_json(tricks=0) | {"hands": [
        {**mv_record_json()["hands"][0], "actions": ["0 bid 20"]}]})
    default, better = Action(1, Verb.PASS), Action(1, Verb.BID, 25)

    def keeps_default(self: ExpertBot, view: object, legal: object) -> Choice:
        return Choice(default, {default: 1.5, better: 2.0}, 40)

    monkeypatch.setattr(ExpertBot, "decide", keeps_default)
    h = hint(st)  # type: ignore[arg-type]
    assert h.action == default
    assert h.explanation.startswith("pass: the sound choice")
    assert "bid 25 comes to +2.0" in h.explanation and "this to +1.5" in h.explanation


def test_values_are_points_of_this_hand_without_the_game_bonus() -> None:
    """Near the end of a game to 15 the expert weighs ending it (a bonus of 200 in its own
    values); the hint's values stay points of this hand, which can never pass 60."""
    obj = mv_record_json(tricks=2, options={"target": 15})
    st = state_of(obj)
    seat = st.turn  # type: ignore[attr-defined]
    own = ExpertBot(__import__("random").Random(0), worlds=24).decide(
        st.view(seat), st.legal_actions())  # type: ignore[attr-defined]
    assert max(abs(v) for v in own.values.values()) > 60  # the bonus is folded in there
    h = hint(st)  # type: ignore[arg-type]
    assert h.values and all(abs(v) <= 60 for v in h.values.values())
    assert h.explanation.startswith(action_words(h.action) + ": ")
    assert h.action in h.values


@pytest.mark.parametrize("actions, expected", [
    (["0 bid 20"], "pass"),
    (["0 bid 20", "1 pass", "2 pass", "3 pass"], "name "),
])
def test_hint_command_writes_actions_as_players_do(tmp_path: Path, actions: list[str],
                                                   expected: str) -> None:
    """``forties hint``: the advice and every value line in players' words (suits by name,
    10 not T), values in points of this hand; the JSON keeps the record's notation."""
    obj = mv_record_json(tricks=0)
    obj["hands"][0]["actions"] = actions
    path = tmp_path / "g.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    res = run_forties("hint", "--worlds", "4", str(path))
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert expected in lines[0]
    for line in lines:
        assert not RAW_CODE.search(line.strip()), line
    advised = [ln for ln in lines if ln.endswith("<- the advice")]
    assert len(advised) == 1 and advised[0].split()[0] in lines[0]
    values = [float(ln.split()[-4 if ln.endswith("advice") else -1]) for ln in lines[2:]]
    assert values and all(abs(v) <= 60 for v in values)
    as_json = json.loads(run_forties("hint", "--worlds", "4", "--json", str(path)).stdout)
    assert all(k.split()[0] == "1" or k.split()[0] == "0" for k in as_json["values"])


def test_action_words() -> None:
    """Every verb, as a player says it."""
    ten = 1 << parse_card("TH")
    assert action_words(Action(0, Verb.PLAY, ten)) == "play 10H"
    assert action_words(Action(0, Verb.TRUMP, 3)) == "name spades trump"
    assert action_words(Action(0, Verb.CALL, 0)) == "go alone"
    assert action_words(Action(0, Verb.DISCARD, 0)) == "keep every card"
    assert action_words(Action(0, Verb.RAISE, 30)) == "raise to 30"
    assert action_words(Action(0, Verb.PASS)) == "pass"
