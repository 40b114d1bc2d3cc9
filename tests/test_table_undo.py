"""Taking back an action (Table.undo through Table.act, "0 undo"): only at a table where one
person plays with computer players, before the next seat acts, never an action that showed
the person new cards; the record stays the game as played and the events rebuild it."""

from __future__ import annotations

from typing import Any

import pytest

from forties import Record, build_rules
from forties.table import COMPUTER, PERSON, Event, Settings, Table, TableError, computer_choice


def table(preset: str = "merrimack-valley", seed: int = 7, people: int = 1,
          log: list[Event] | None = None) -> Table:
    t = Table("t1", build_rules(preset), seed, Settings())
    events: list[Event] = [
        {"kind": "sit", "seat": i, "as": PERSON, "name": f"P{i}"} if i < people else
        {"kind": "sit", "seat": i, "as": COMPUTER, "name": "C", "level": "basic"}
        for i in range(t.n)]
    events.append({"kind": "start"})
    for e in events:
        apply(t, e, log)
    return t


def apply(t: Table, e: Event, log: list[Event] | None) -> None:
    t.apply(e)
    if log is not None:
        log.append(e)


def computers_until(t: Table, seat: int, log: list[Event] | None = None) -> None:
    """The computer players act (the basic level) until it is ``seat``'s turn."""
    for _ in range(200):
        turn = t.state.turn
        if turn == seat or turn is None:
            return
        a = computer_choice("basic", t.computer_key(), t.state.view(turn), t.state.legal_actions())
        apply(t, {"kind": "act", "seat": turn, "action": str(a)}, log)
    raise AssertionError("the computers never came round to the seat")


def first_legal(t: Table, seat: int, verbs: tuple[str, ...]) -> str:
    legal = [str(a) for a in t.state.legal_actions() if str(a).split()[1] in verbs]
    assert legal, f"seat {seat} has no {verbs} action in {t.state.phase}"
    return legal[0]


def test_an_undo_brings_the_game_back_and_the_record_forgets_the_action() -> None:
    """The person's bid is taken back before the next seat acts: the version moves on, the
    game (its view, its choices) is as it was before the bid, the record has no bid, and the
    table rebuilt from its events is the same; then a different bid is played."""
    log: list[Event] = []
    t = table(log=log)
    computers_until(t, 0, log)
    before_view = t.view(0)
    before_record = Record.from_json(t.public_record()).to_json()
    actions = list(t.rec.record.hands[-1].actions)
    bid = first_legal(t, 0, ("bid",))
    for e in t.act(0, bid, t.version):
        apply(t, e, log)
    assert t.rec.record.hands[-1].actions == [*actions, bid]
    events = t.act(0, "0 undo", t.version)
    assert events == [{"kind": "undo", "seat": 0, "action": bid}]
    version = t.version
    apply(t, events[0], log)
    assert t.version == version + 1
    after_view = t.view(0)
    assert {**after_view, "version": 0} == {**before_view, "version": 0}
    assert t.rec.record.hands[-1].actions == actions
    assert t.public_record() == before_record
    # the same game from its events (as the web's storage brings a table back)
    again = table()
    for e in log[t.n + 1:]:  # (after its seats and start)
        again.apply(e)
    assert again.view(0) == t.view(0) and again.rec.record.to_json() == t.rec.record.to_json()
    # and play goes on from there: another choice, then the computers
    other = next(str(a) for a in t.state.legal_actions() if str(a) != bid)
    for e in t.act(0, other, t.version):
        apply(t, e, log)
    computers_until(t, 0, log)
    assert t.rec.record.hands[-1].actions[len(actions)] == other


def test_an_undo_twice_takes_back_only_the_persons_own_actions() -> None:
    """Two undos in a row at the same position: the second finds no action of the person's
    left (the one before it was a computer's): refused, nothing changed."""
    t = table()
    computers_until(t, 0)
    for e in t.act(0, first_legal(t, 0, ("bid", "pass")), t.version):
        t.apply(e)
    t.apply(t.act(0, "0 undo", t.version)[0])
    had = (t.version, list(t.rec.record.hands[-1].actions))
    with pytest.raises(TableError) as e:
        t.act(0, "0 undo", t.version)
    assert (e.value.code, e.value.refusal) == ("undo", "undo-acted") or \
        (e.value.code, e.value.refusal) == ("undo", "undo-none")
    assert (t.version, t.rec.record.hands[-1].actions) == had


def test_an_undo_is_refused_once_the_next_seat_has_acted() -> None:
    t = table()
    computers_until(t, 0)
    for e in t.act(0, first_legal(t, 0, ("bid", "pass")), t.version):
        t.apply(e)
    mine = t.version
    t.apply({"kind": "act", "seat": 1, "action": str(computer_choice(
        "basic", t.computer_key(), t.state.view(1), t.state.legal_actions()))})
    with pytest.raises(TableError) as e:
        t.act(0, "0 undo", t.version)
    assert (e.value.code, e.value.refusal) == ("undo", "undo-acted")
    assert "next player has acted" in e.value.reason
    with pytest.raises(TableError) as e:  # on the version of its own action: stale
        t.act(0, "0 undo", mine)
    assert e.value.code == "stale"


def test_an_undo_is_refused_where_another_person_plays() -> None:
    """Two people at the table: the other would see the game go back under him."""
    t = table(people=2)
    for _ in range(8):
        turn = t.state.turn
        assert turn is not None
        if turn == 0:
            break
        t.apply({"kind": "act", "seat": turn, "action": str(t.state.legal_actions()[0])})
    for e in t.act(0, first_legal(t, 0, ("bid", "pass")), t.version):
        t.apply(e)
    with pytest.raises(TableError) as e:
        t.act(0, "0 undo", t.version)
    assert (e.value.code, e.value.refusal) == ("undo", "undo-alone")


def test_an_undo_is_refused_for_an_action_that_showed_new_cards() -> None:
    """The bidder's trump call gives him the kitty: taking it back would let him choose
    again knowing it."""
    t = table()
    for _ in range(60):
        computers_until(t, 0)
        if t.state.phase.value == "trump":
            break
        verbs = ("bid",) if t.state.phase.value == "auction" else ("pass", "bid", "play", "discard")
        legal = [str(a) for a in t.state.legal_actions() if str(a).split()[1] in verbs]
        for e in t.act(0, (legal or [str(t.state.legal_actions()[0])])[-1], t.version):
            t.apply(e)
    assert t.state.phase.value == "trump" and t.state.turn == 0, "seat 0 never named trump"
    for e in t.act(0, first_legal(t, 0, ("trump",)), t.version):
        t.apply(e)
    had = t.view(0)
    with pytest.raises(TableError) as e:
        t.act(0, "0 undo", t.version)
    assert (e.value.code, e.value.refusal) == ("undo", "undo-seen")
    assert t.view(0) == had


@pytest.mark.parametrize(("seat", "text", "code"), [
    (None, "0 undo", "seat"),
    (0, "1 undo", "bad"),
    (0, "0 undo 2", "bad"),
    (0, "undo", "bad"),
    (0, ["0 undo"], "bad"),
    (0, "0 undo", "undo"),  # nothing of this seat's in the hand yet
])
def test_hostile_undos_are_refused_in_one_line(seat: int | None, text: Any, code: str) -> None:
    t = table()
    computers_until(t, 0)
    if t.state.history and t.state.history[-1].seat == 0:
        pytest.fail("seat 0 should not have acted last here")
    had = (t.version, t.seq)
    with pytest.raises(TableError) as e:
        t.act(seat, text, t.version)
    assert e.value.code == code and "\n" not in e.value.reason and len(e.value.reason) < 200
    with pytest.raises(TableError) as e:
        t.act(0, "0 undo", "3")
    assert e.value.code == "bad"
    assert (t.version, t.seq) == had


def test_an_undo_event_that_does_not_match_the_last_action_is_refused() -> None:
    """Events edited in storage: an undo naming another action is refused, the table kept."""
    t = table()
    computers_until(t, 0)
    for e in t.act(0, first_legal(t, 0, ("bid", "pass")), t.version):
        t.apply(e)
    with pytest.raises(TableError) as e:
        t.apply({"kind": "undo", "seat": 0, "action": "0 bid 95"})
    assert e.value.code == "bad"


def test_a_client_catching_up_sees_the_action_and_its_undo() -> None:
    """The frames since an event before the action: the action's view has the bid, the
    undo's view has it no more (the past's states are rebuilt right across an undo)."""
    t = table()
    computers_until(t, 0)
    seq = t.seq
    bid = first_legal(t, 0, ("bid",))
    for e in t.act(0, bid, t.version):
        t.apply(e)
    t.apply(t.act(0, "0 undo", t.version)[0])
    frames = t.frames_since(0, seq)
    assert frames is not None and [f["event"]["kind"] for f in frames] == ["act", "undo"]
    assert frames[0]["view"]["history"][-1] == bid
    assert frames[1]["event"] == {"kind": "undo", "seat": 0}
    assert frames[1]["view"] == t.view(0)
    assert bid not in frames[1]["view"]["history"][-1:]
