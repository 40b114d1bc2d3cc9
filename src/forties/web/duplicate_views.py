"""What the duplicate sessions' pages and exports show of a session: pure functions of
the stored document and its ``forties.duplicate.Session``, no request and no store.

What stays hidden: a board's results (scores, matchpoints, each table's contract and
its par) and cards are shown to everyone only once every table of its round has played
it (``complete``); until then the pages say only which tables are done, and the
standings count only the boards every table has played. A partnership that finished a
board sees that board's cards and the results in so far through its own play link
(``board_view(..., pair=...)``).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from ..actions import bid_text
from ..duplicate import DIRECTIONS, Session, board_slip
from ..fortyfives import bid_ladder
from ..rules import FortyFivesRules, RulesError, rules_from_json
from ..spreadsheet import to_csv


def pct(x: Fraction | None) -> float | None:
    return None if x is None else round(float(x), 2)


def done_tables(session: Session, board: int) -> list[int]:
    """The tables whose result on ``board`` is in, in order."""
    return sorted(t for (b, t) in session.results if b == board)


def complete(session: Session, board: int) -> bool:
    """Whether every table of ``board``'s round has played it."""
    return len(done_tables(session, board)) == session.movement.tables_of(board)


def complete_boards(session: Session) -> list[int]:
    return [b.number for b in session.boards if complete(session, b.number)]


def shown_session(session: Session) -> Session:
    """The session with the results of the complete boards only: what the public sees."""
    keep = set(complete_boards(session))
    return Session(session.partnerships, session.boards, session.movement,
                   {k: v for k, v in session.results.items() if k[0] in keep})


def current_round(session: Session) -> int | None:
    """The first round some table of which has a board still to play (None: all done)."""
    for r in session.movement.rounds:
        if any(not complete(session, b) for b in r.boards):
            return r.number
    return None


def board_rows(session: Session, board: int) -> list[dict[str, Any]]:
    """Each table's result on ``board`` (those in), with both pairs' matchpoints."""
    scores = session.board_scores(board)
    rows = []
    for t in done_tables(session, board):
        r = session.results[(board, t)]
        ns, ew = scores[r.ns], scores[r.ew]
        rows.append({"table": t, "ns": r.ns, "ew": r.ew, "ns_score": r.ns_score,
                     "ew_score": r.ew_score, "ns_matchpoints": ns["matchpoints"],
                     "ew_matchpoints": ew["matchpoints"], "top": ns["top"],
                     "ns_percent": pct(ns["percent"]), "ew_percent": pct(ew["percent"])})
    return rows


def plays_of(body: dict[str, Any]) -> dict[str, Any]:
    """What the board page shows of each table's hand beyond its scores, by "board/table":
    an online table's contract, tricks and par (kept under ``online``), a hall table's
    contract as its phone reported it and its par (kept under ``plays``)."""
    online = body.get("online")
    holder = online if isinstance(online, dict) else body
    plays = holder.get("plays")
    if not isinstance(plays, dict):
        plays = holder["plays"] = {}
    return plays


def bidding(body: dict[str, Any]) -> dict[str, Any] | None:
    """What the tables' phone asks of a contract: the Forty-Fives' bids (lowest first) and
    whether a hand nobody bid on is thrown in ("no_bid"); Forty One's bids of tricks."""
    try:
        rules = rules_from_json(body["rules"])
    except (RulesError, KeyError, TypeError):
        return None
    if isinstance(rules, FortyFivesRules):
        return {"bids": [bid_text(b) for b in bid_ladder(rules)],
                "no_bid": rules.all_pass == "redeal" and rules.auction != "none"}
    return {"tricks": [1, 13]}


def pair_json(session: Session, extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The partnerships, each marked with its computer players (``one_computer``: the
    level of the computer in one of its seats, the second)."""
    return [{**p.to_json(), "one_computer": (extra.get(str(p.number)) or {}).get("one_computer")}
            for p in session.partnerships]


def public_view(eid: str, version: int, body: dict[str, Any],
                session: Session) -> dict[str, Any]:
    """The session page's JSON (``GET /api/dup/ID``): anyone with the session's number."""
    shown = shown_session(session)
    done = complete_boards(session)
    rounds = []
    for r in session.movement.rounds:
        rounds.append({"number": r.number, "boards": list(r.boards), "sit_out": r.sit_out,
                       "tables": [{"table": t.table, "ns": t.ns, "ew": t.ew,
                                   "done": [b for b in r.boards
                                            if (b, t.table) in session.results]}
                                  for t in r.tables]})
    now = current_round(session)
    return {"id": eid, "version": version, "title": body.get("title", ""),
            "game": body["game"], "mode": body["mode"], "club": body.get("club"),
            "bidding": bidding(body), "boards": len(session.boards),
            "status": "over" if now is None else "playing",
            "round": now, "rounds": rounds, "filled": session.movement.filled,
            "partnerships": pair_json(session, body.get("pairs", {})),
            "complete": done,
            "results": {str(b): board_rows(shown, b) for b in done},
            "standings": [s.to_json() for s in shown.standings()]}


def board_view(body: dict[str, Any], session: Session, board: int, *,
               director: bool = False, pair: int | None = None) -> dict[str, Any]:
    """The board page's JSON: the tables done, and once it may be shown (every table
    done; or ``pair`` has played it) each table's result, the cards and what the online
    tables kept of the play."""
    rnd = session.movement.round_of(board)
    b = session.boards[board - 1]
    done = done_tables(session, board)
    out: dict[str, Any] = {
        "board": board, "round": rnd.number, "boards": len(session.boards),
        "game": body["game"], "mode": body["mode"],
        "tables": [{"table": t.table, "ns": t.ns, "ew": t.ew, "done": t.table in done}
                   for t in rnd.tables],
        "complete": len(done) == len(rnd.tables), "shown": False}
    played = pair is not None and any((board, t.table) in session.results
                                      for t in rnd.tables if pair in (t.ns, t.ew))
    if not (out["complete"] or played):
        out["why"] = ("the board is shown once every table has played it" if pair is None
                      else "the board is shown to you once you have played it")
        return out
    slip = board_slip(b)
    out.update(shown=True, dealer=slip["dealer"], hands=slip["hands"],
               kitty=slip.get("kitty"), rows=board_rows(session, board))
    plays = plays_of(body)
    for row in out["rows"]:
        kept = plays.get(f"{board}/{row['table']}")
        if kept:
            row.update({k: kept.get(k) for k in ("contract", "tricks", "par")})
    return out


def export_json(eid: str, body: dict[str, Any], session: Session) -> dict[str, Any]:
    """The whole session as far as it may be shown: complete boards' cards and results."""
    shown = shown_session(session)
    done = complete_boards(session)
    return {"format": "forties-duplicate/1", "id": eid, "title": body.get("title", ""),
            "game": body["game"], "rules": body["rules"], "mode": body["mode"],
            "partnerships": pair_json(session, body.get("pairs", {})),
            "movement": session.movement.to_json(),
            "boards": [{"board": b, "slip": board_slip(session.boards[b - 1]),
                        "results": board_rows(shown, b)} for b in done],
            "standings": [s.to_json() for s in shown.standings()]}


def export_csv(session: Session) -> str:
    """Each complete board's results (a row per table), then the standings."""
    shown = shown_session(session)
    rows: list[list[Any]] = [["board", "table", "N-S pair", "E-W pair", "N-S score",
                              "E-W score", "N-S matchpoints", "E-W matchpoints", "top",
                              "N-S %", "E-W %"]]
    for b in complete_boards(session):
        for r in board_rows(shown, b):
            rows.append([b, r["table"], r["ns"], r["ew"], r["ns_score"], r["ew_score"],
                         r["ns_matchpoints"], r["ew_matchpoints"], r["top"],
                         r["ns_percent"], r["ew_percent"]])
    rows.append([])
    rows.append(["rank", "pair", "name", "boards", "matchpoints", "factored", "top", "%"])
    for s in shown.standings():
        rows.append([f"{s.rank}=" if s.tied else s.rank, s.pair.number, s.pair.name,
                     s.boards, s.matchpoints, round(float(s.factored), 2), s.top,
                     pct(s.percent)])
    return to_csv(rows)


def pair_boards(session: Session, pair: int) -> list[dict[str, Any]]:
    """What ``pair`` plays, board by board, and whether each is done."""
    return [{"board": b, "table": t, "direction": d, "done": (b, t) in session.results}
            for b, t, d in session.boards_of(pair)]


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=1, ensure_ascii=False) + "\n"


__all__ = ["DIRECTIONS", "board_rows", "board_view", "complete", "complete_boards",
           "current_round", "done_tables", "dumps", "export_csv", "export_json",
           "pair_boards", "public_view", "shown_session"]
