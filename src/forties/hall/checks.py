"""Checks that an evening kept its own rules, computed from its seatings and results
alone (not from the code that made them): a simulated evening runs them all, and the
tests run them on every evening they build."""

from __future__ import annotations

from dataclasses import dataclass

from .evening import Hall
from .movement import HOME, VISITORS


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def check_evening(hall: Hall) -> list[Check]:
    """Every rule of the evening, each with what was checked or the first breach."""
    return [_everyone_plays(hall), _winners_move(hall), _sit_outs_in_turn(hall),
            _punch_cards(hall), _games_counted(hall)]


def _everyone_plays(hall: Hall) -> Check:
    name = "every couple played every game (or sat out), two couples a table"
    for g, seat in enumerate(hall.seatings, 1):
        active = set(hall.active(g))
        seated = [c for pair in seat.tables for c in pair]
        if len(seated) != len(set(seated)) or any(a == b for a, b in seat.tables):
            return Check(name, False, f"game {g}: a couple is seated twice")
        everyone = set(seated) | ({seat.sitting_out} if seat.sitting_out else set())
        if everyone != active or (seat.sitting_out is not None) != (len(active) % 2 == 1):
            return Check(name, False, f"game {g}: seated {sorted(everyone)}, playing "
                                      f"{sorted(active)}")
    seats = sum(len(s.tables) for s in hall.seatings)
    return Check(name, True, f"{len(hall.seatings)} games, {seats} tables")


def _winners_move(hall: Hall) -> Check:
    """Where the same couples play two games running: each winner is at the next table,
    dealing first, and each loser at the same table; a couple going out to sit is
    replaced, place for place, by the one coming back."""
    name = "winners moved to the next table and dealt first, losers stayed"
    checked = 0
    for g in range(2, len(hall.seatings) + 1):
        prev, seat = hall.seatings[g - 2], hall.seatings[g - 1]
        if set(hall.active(g)) != set(hall.active(g - 1)) or \
                len(seat.tables) != len(prev.tables):
            continue
        n = len(seat.tables)
        for t, pair in enumerate(prev.tables, 1):
            r = hall.results[g - 2].get(t)
            if r is None:
                return Check(name, False, f"game {g - 1}, table {t} has no result")
            winner = pair[0] if r.winner is None else r.winner
            loser = pair[1] if winner == pair[0] else pair[0]
            for couple, want in ((winner, (t % n + 1, VISITORS)), (loser, (t, HOME))):
                if couple == seat.sitting_out:
                    couple = prev.sitting_out  # type: ignore[assignment]
                got = seat.place_of(couple)
                if got != want:
                    return Check(name, False, f"game {g}: couple {couple} is at {got}, "
                                              f"not table {want[0]} place {want[1]}")
        checked += 1
    return Check(name, True, f"{checked} changes of table checked")


def _sit_outs_in_turn(hall: Hall) -> Check:
    name = "no couple sat out twice before the others had sat out (or missed) as many"
    counts = {c.number: c.first_game - 1 for c in hall.couples.values()}
    for g, seat in enumerate(hall.seatings, 1):
        if seat.sitting_out is None:
            continue
        fewest = min(counts[c] for c in hall.active(g))
        if counts[seat.sitting_out] != fewest:
            return Check(name, False, f"game {g}: couple {seat.sitting_out} sat out with "
                                      f"{counts[seat.sitting_out]} games out, others {fewest}")
        counts[seat.sitting_out] += 1
    outs = sum(1 for s in hall.seatings if s.sitting_out is not None)
    return Check(name, True, f"{outs} games sat out")


def _punch_cards(hall: Hall) -> Check:
    name = "punch cards add up: each couple's punches are its wins (and byes), and the " \
           "standings are the punch cards"
    punched: dict[int, set[int]] = {c: set() for c in hall.couples}
    decided = byes = 0
    for g, seat in enumerate(hall.seatings, 1):
        if seat.sitting_out is not None and hall.settings.bye_wins:
            punched[seat.sitting_out].add(g)
            byes += 1
        for r in hall.results[g - 1].values():
            if r.winner is not None:
                punched[r.winner].add(g)
                decided += 1
    total = 0
    for st in hall.standings():
        if set(st.won) != punched[st.couple] or len(st.won) != len(punched[st.couple]):
            return Check(name, False, f"couple {st.couple}: card {st.won}, "
                                      f"won {sorted(punched[st.couple])}")
        if not hall.settings.duplicate and st.score != len(st.won):
            return Check(name, False, f"couple {st.couple}: standings say {st.score}, "
                                      f"card {len(st.won)}")
        total += len(st.won)
    if total != decided + byes:
        return Check(name, False, f"{total} punches for {decided} games won and {byes} byes")
    return Check(name, True, f"{total} punches = {decided} games won + {byes} byes")


def _games_counted(hall: Hall) -> Check:
    name = "games counted equal games played"
    tables = sum(len(s.tables) for s in hall.seatings)
    results = sum(len(r) for r in hall.results)
    for g, seat in enumerate(hall.seatings, 1):
        for t, r in hall.results[g - 1].items():
            if not 1 <= t <= len(seat.tables):
                return Check(name, False, f"game {g}: a result for table {t}, which it had not")
            if r.winner is not None and r.winner not in seat.tables[t - 1]:
                return Check(name, False, f"game {g} table {t}: couple {r.winner} not there")
    if hall.over and results != tables:
        return Check(name, False, f"{results} results for {tables} tables")
    return Check(name, True, f"{results} results for {tables} table games")
