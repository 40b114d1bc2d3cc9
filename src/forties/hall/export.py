"""An evening's export: everything derived (seatings, results, standings, prizes, the tie
breaks, the cookie jar) as JSON beside the events, and the standings and the results as
CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from .draw import METHOD, commitment
from .evening import Hall
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
    out["notes"] = list(hall.notes)
    return out


def standings_csv(hall: Hall) -> str:
    """One row per couple: place, couple, names, score, games punched, byes, absent."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["place", "couple", "name 1", "name 2",
                "matchpoints" if hall.settings.duplicate else "games", "won", "byes", "absent"])
    for st in hall.standings():
        w.writerow([st.place, st.couple, st.names[0], st.names[1], _number(st.score),
                    " ".join(map(str, st.won)), " ".join(map(str, st.byes)),
                    " ".join(map(str, st.absent))])
    return buf.getvalue()


def results_csv(hall: Hall) -> str:
    """One row per table and game: who sat there, who dealt first, who won."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["game", "table", "deals first", "other", "winner", "points", "sitting out"])
    for g, seat in enumerate(hall.seatings, 1):
        for t, (a, b) in enumerate(seat.tables, 1):
            r = hall.result(g, t)
            winner = "" if r is None else "no game" if r.winner is None else r.winner
            pts = "" if r is None or r.points is None else \
                " ".join(f"{c}:{p}" for c, p in r.points)
            w.writerow([g, t, a, b, winner, pts,
                        seat.sitting_out if t == 1 and seat.sitting_out else ""])
    return buf.getvalue()
