"""An evening's export: everything derived (seatings, results, standings, prizes, the tie
breaks, the cookie jar) as JSON beside the events, and the standings and the results as
CSV for a spreadsheet (text cells that a spreadsheet would run as a formula are quoted:
``forties.spreadsheet``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..spreadsheet import to_csv
from .draw import METHOD, commitment
from .evening import Hall
from .events import HallError
from .movement import Seating
from .prizes import Contest


def _number(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else round(float(x), 2)


def _contest_json(ct: Contest) -> dict[str, Any]:
    out: dict[str, Any] = {
        "couples": list(ct.couples), "prizes": list(ct.prizes), "score": _number(ct.score),
        "method": ct.method, "votes": {str(c): v for c, v in ct.votes.items()},
        "answers": {str(c): v for c, v in ct.answers.items()},
        "waiting_for": ct.waiting_for(), "shared": ct.shared,
        "order": None if ct.order is None else list(ct.order)}
    for name, cut in (("cut", ct.cut), ("forfeit_cut", ct.forfeit_cut)):
        if cut is not None:
            out[name] = {"draw": cut.name, "cards": {str(c): list(v) for c, v in cut.draws}}
    if ct.playoff is not None:
        out["play_off"] = {"games": [{"couples": [a, b], "winner": w}
                                     for a, b, w in ct.playoff.games],
                           "pending": [list(p) for p in ct.playoff.pending]}
    return out


def export_json(hall: Hall) -> dict[str, Any]:
    """The evening (``Hall.to_json``) with everything derived from it."""
    s = hall.settings
    out = hall.to_json()
    out["status"] = hall.status()
    out["couples"] = [{"couple": c.number, "names": list(c.names), "first_game": c.first_game,
                       "left_game": c.left_game} for c in hall.couples.values()]
    out["games"] = []
    for g, seat in enumerate(hall.seatings, 1):
        row = seat.to_json()
        for t in row["tables"]:
            r = hall.result(g, t["table"])
            t["reported"] = r is not None
            t["winner"] = None if r is None else r.winner
            if r is not None and r.points is not None:
                t["points"] = {str(c): p for c, p in r.points}
        out["games"].append(row)
    out["standings"] = [{"place": st.place, "couple": st.couple, "names": list(st.names),
                         "score": _number(st.score), "won": list(st.won), "byes": list(st.byes),
                         "played": st.played, "absent": list(st.absent)}
                        for st in hall.standings()]
    out["awards"] = [{"prize": a.prize, "couples": list(a.couples), "how": a.how}
                     for a in hall.awards()]
    out["contests"] = {k: _contest_json(ct) for k, ct in hall.contests().items()}
    jar = hall.cookie_jar()
    if jar is not None:
        out["cookie_jar"] = {"games": list(jar.games), "winners": list(jar.winners),
                             "best": jar.best, "rule": s.cookie_jar_rule}
    out["draws"] = {"seed_sha256": commitment(s.seed), "method": METHOD}
    if hall.over:
        out["draws"]["seed"] = s.seed
        out["draws"]["seed_text"] = str(s.seed)  # (a page cannot hold 128 bits in a number)
    out["notes"] = list(hall.notes)
    return out


def standings_csv(hall: Hall) -> str:
    """One row per couple: place, couple, names, score, games punched, byes, absent."""
    rows: list[list[Any]] = [["place", "couple", "name 1", "name 2",
                              "matchpoints" if hall.settings.duplicate else "games", "won",
                              "byes", "absent"]]
    for st in hall.standings():
        rows.append([st.place, st.couple, st.names[0], st.names[1], _number(st.score),
                    " ".join(map(str, st.won)), " ".join(map(str, st.byes)),
                     " ".join(map(str, st.absent))])
    return to_csv(rows)


def results_csv(hall: Hall) -> str:
    """One row per table and game: who sat there, who dealt first, who won."""
    rows: list[list[Any]] = [["game", "table", "deals first", "other", "winner", "points",
                              "sitting out"]]
    for g, seat in enumerate(hall.seatings, 1):
        for t, (a, b) in enumerate(seat.tables, 1):
            r = hall.result(g, t)
            winner = "" if r is None else "no game" if r.winner is None else r.winner
            pts = "" if r is None or r.points is None else \
                " ".join(f"{c}:{p}" for c, p in r.points)
            rows.append([g, t, a, b, winner, pts,
                         seat.sitting_out if t == 1 and seat.sitting_out else ""])
    return to_csv(rows)


def contest_json(ct: Contest) -> dict[str, Any]:
    """A tie as a screen shows it: the votes, the cut's cards, the play-off pairings, and
    what it waits for (``to_vote``, ``to_answer``, ``pending`` for buttons)."""
    out = _contest_json(ct)
    out["key"] = ct.key
    out["to_vote"] = [c for c in ct.couples if c not in ct.votes] \
        if ct.policy == "vote" and ct.method is None else []
    out["to_answer"] = ct.must_answer()
    out["decided"] = ct.decided
    if "play_off" not in out:
        out["play_off"] = None
    return out


def _game_json(hall: Hall, game: int, seat: Seating) -> dict[str, Any]:
    tables = []
    for t, (a, b) in enumerate(seat.tables, 1):
        r = hall.result(game, t)
        row: dict[str, Any] = {"table": t, "deals_first": a, "other": b,
                               "reported": r is not None,
                               "winner": None if r is None else r.winner}
        if r is not None and r.points is not None:
            row["points"] = {str(c): p for c, p in r.points}
        tables.append(row)
    return {"game": game, "begun": game <= hall.begun, "tables": tables,
            "sitting_out": seat.sitting_out}


def board_json(hall: Hall) -> dict[str, Any]:
    """What the director's screens show, in one object: the game to report (``current``: its
    tables, the results in so far; ``last``: the game before it, while the next has not
    begun, for corrections), the moves for it, the standings, and after the last game the prizes
    with the ties worked through, the cookie jar and the booby prize. Nothing secret: the
    seed itself only once the evening is over."""
    s = hall.settings
    status = hall.status()
    begun = hall.begun
    game = begun
    if not hall.started or (hall.game_complete(begun) and begun < hall.games):
        game = begun + 1
    try:
        seat = hall.seating(game) if game <= hall.games else None
    except HallError:  # fewer than two couples so far
        seat = None
    current = None if seat is None else _game_json(hall, game, seat)
    last = None if not 1 <= begun != game else _game_json(hall, begun, hall.seatings[begun - 1])
    moves = [{"couple": m.couple, "from": m.from_table, "to": m.to_table,
              "deals_first": m.deals_first, "stays": m.stays}
             for m in (hall.moves(game) if seat is not None else [])]
    out: dict[str, Any] = {
        "title": s.title, "games": hall.games, "status": status,
        "settings": {"games": s.games, "prizes": s.prizes, "places": s.places,
                     "tie_break": s.tie_break, "bye_wins": s.bye_wins,
                     "cookie_jar": s.cookie_jar, "cookie_jar_rule": s.cookie_jar_rule,
                     "booby": s.booby, "duplicate": s.duplicate,
                     "present_to_win": s.present_to_win, "rules": s.rules.to_json()},
        "couples": [{"couple": c.number, "names": list(c.names), "first_game": c.first_game,
                     "left_game": c.left_game} for c in hall.couples.values()],
        "current": current, "last": last, "moves": moves,
        "standings": [{"place": st.place, "couple": st.couple, "names": list(st.names),
                       "score": _number(st.score), "won": list(st.won), "byes": list(st.byes),
                       "played": st.played, "absent": list(st.absent)}
                      for st in hall.standings()],
        "awards": [{"prize": a.prize, "couples": list(a.couples), "how": a.how}
                   for a in hall.awards()],
        "contests": [contest_json(ct) for ct in hall.contests().values()],
        "cookie_jar": None, "draws": {"seed_sha256": commitment(s.seed), "method": METHOD},
        "notes": list(hall.notes)}
    jar = hall.cookie_jar()
    if jar is not None:
        out["cookie_jar"] = {"games": list(jar.games), "winners": list(jar.winners),
                             "best": jar.best, "rule": s.cookie_jar_rule}
    if hall.over:
        out["draws"]["seed"] = s.seed
        out["draws"]["seed_text"] = str(s.seed)  # (a page cannot hold 128 bits in a number)
    return out
