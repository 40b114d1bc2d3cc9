"""What the history pages' tests share: rows of the games' index (``web.account_schema``)
written into an app's store as ``web.games`` writes them for a finished game, so that the
pages are tested on games whose every figure the test chose itself."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from starlette.testclient import TestClient

from forties.web.account_schema import (
    account_stats_t,
    game_players_t,
    games_t,
    rating_history_t,
    ratings_t,
)
from forties.web.accounts import accounts_t
from forties.web.store import Store


def run(client: TestClient | Store, fn: Any) -> Any:
    """``fn(conn)`` in one transaction of the app's store (a ``TestClient``'s app's, in its
    portal) or of a ``Store`` over a running server's database (in a thread of its own:
    the browser tests' thread has Playwright's loop)."""
    if isinstance(client, Store):
        store = client
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, store.run(fn)).result()
    portal: Any = client.portal
    return portal.call(client.app.state.store.run, fn)  # type: ignore[attr-defined]


def add_game(client: TestClient | Store, table: str, preset: str, finished: float,
             seats: Sequence[dict[str, Any]], scores: Sequence[int], winners: Sequence[int],
             rated: bool = False, counted: bool = False, why: str | None = None,
             hands: int = 3, ratings: dict[int, tuple[float, float]] | None = None) -> None:
    """A finished game of ``preset`` at ``table``: ``seats`` ({"name", "kind", "level",
    "account", "side"}), the sides' ``scores``, the winning ``winners`` sides; each
    account's ``game_players`` row (its partners: the accounts on its side), its rating
    before and after from ``ratings`` (by seat), one more game in its statistics' totals
    (its own, and its partnerships'), as ``web.games`` indexes a game."""
    ratings = ratings or {}
    family = preset  # (a game family is a preset)

    def work(conn: Connection) -> None:
        conn.execute(games_t.insert(), {
            "table_id": table, "family": family, "preset": preset, "finished": finished,
            "rated": rated, "counted": counted, "why": why, "hands": hands,
            "seats": json.dumps([dict(s, seat=i) for i, s in enumerate(seats)]),
            "result": json.dumps({"scores": list(scores), "winner": [
                i for i, s in enumerate(seats) if s["side"] in winners]})})
        for i, s in enumerate(seats):
            if not s.get("account"):
                continue
            partners = [o["account"] for j, o in enumerate(seats) if j != i and
                        o.get("account") and o["side"] == s["side"]]
            before, after = ratings.get(i, (None, None))
            conn.execute(game_players_t.insert(), {
                "table_id": table, "seat": i, "account_id": s["account"], "family": family,
                "finished": finished, "side": s["side"], "partners": " ".join(partners),
                "won": s["side"] in winners, "stats": "{}", "rating_before": before,
                "rating_after": after})
            for partner in ["", *partners]:
                one_more(conn, s["account"], family, partner, s["side"] in winners)
    run(client, work)


def one_more(conn: Connection, account: str, family: str, partner: str, won: bool) -> None:
    """One more game (won or not) in an account's statistics' totals."""
    key = (account_stats_t.c.account_id == account, account_stats_t.c.family == family,
           account_stats_t.c.partner_id == partner)
    row = conn.execute(sa.select(account_stats_t.c.body).where(*key)).first()
    body = json.loads(row.body) if row is not None else {"games": 0, "won": 0}
    body = {**body, "games": body.get("games", 0) + 1, "won": body.get("won", 0) + int(won)}
    conn.execute(account_stats_t.delete().where(*key))
    conn.execute(account_stats_t.insert(), {
        "account_id": account, "family": family, "partner_id": partner,
        "games": body["games"], "body": json.dumps(body), "updated": 0.0})


def set_rating(client: TestClient | Store, subject: str, family: str, mu: float, sigma: float,
               games: int, last: float, history: Sequence[tuple[float, float]] = ()) -> None:
    """A rating (an account's, or a partnership's "a+b"), and its history (at, shown)."""
    def work(conn: Connection) -> None:
        conn.execute(ratings_t.insert(), {"subject": subject, "family": family, "mu": mu,
                                          "sigma": sigma, "games": games, "last_rated": last})
        for k, (at, shown) in enumerate(history):
            conn.execute(rating_history_t.insert(), {
                "subject": subject, "family": family, "table_id": f"h{k}", "at": at,
                "mu": mu, "sigma": sigma, "shown": shown})
    run(client, work)


def set_stats(client: TestClient | Store, account: str, family: str, partner: str,
              body: dict[str, Any]) -> None:
    """An account's statistics' totals (``partner`` "": its own in ``family``), as given."""
    def work(conn: Connection) -> None:
        conn.execute(account_stats_t.delete().where(
            account_stats_t.c.account_id == account, account_stats_t.c.family == family,
            account_stats_t.c.partner_id == partner))
        conn.execute(account_stats_t.insert(), {
            "account_id": account, "family": family, "partner_id": partner,
            "games": body.get("games", 0), "body": json.dumps(body), "updated": 0.0})
    run(client, work)


def delete_account(client: TestClient | Store, account: str) -> None:
    """The account deleted as the operator's side does it (its rows of games stay)."""
    run(client, lambda conn: conn.execute(accounts_t.update().where(
        accounts_t.c.id == account).values(status="deleted", name="a former player")))


def count(client: TestClient | Store, table: sa.Table) -> int:
    return int(run(client, lambda conn: conn.execute(
        sa.select(sa.func.count()).select_from(table)).scalar_one()))
