"""An independent check of the Forty-Fives golden verdicts' tricks, points, scores and
results.

The 116 verdicts in ``golden/ff_deal_auction`` and ``golden/ff_play_score`` were written
by the engine and checked by hand when they were made. This module checks what they say
about the play and the score again without the engine: it reads each record's deal and
actions as text, and works out, from rules.md's rank tables and scoring rules as written
here, every trick's leader and winner, each hand's points (the bonus included), the
scores after each hand, games won, whether the game is over and who won. A verdict that
disagrees with this reading fails, whoever is wrong.

What it does not recompute: which actions are legal (the ``legal`` lists, ``to_act``) and
the reasons given for illegal ones. Those stored verdicts guard against change; the
rules behind them are tested one by one, by hand, in test_golden_play.py,
test_golden_auction.py, test_ranks.py and test_state.py.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

# Only the rank tables are shared with other tests: data copied from rules.md section 1.
from .helpers_engine import OFF_TABLE, TRUMP_TABLE

GOLDEN = Path(__file__).parent / "golden"
FOLDERS = ("ff_deal_auction", "ff_play_score")
NAMES = sorted(f"{d}/{p.name.removesuffix('.record.json')}" for d in FOLDERS
               for p in (GOLDEN / d).glob("*.record.json"))

# rules.md section 3: the options that decide the play and the score, per preset.
MV = {"players": 4, "teams": None, "auction": "single", "bonus": "best-trump",
      "bidder_scores": "taken", "made_30_scores_60": False, "lock_at": None, "target": 120,
      "forty_five_resets": False, "end": "bidder-goes-out", "match": "single",
      "call_partner": False}
A45 = {**MV, "auction": "open", "bidder_scores": "bid", "made_30_scores_60": True,
       "lock_at": 100}
PRESETS: dict[str, dict[str, Any]] = {
    "merrimack-valley": MV,
    "nova-scotia": {**MV, "auction": "none", "target": 45},
    "auction-45": A45,
    "call-your-partner": {**A45, "players": 5, "call_partner": True},
}
BID_RANK = {"30for60": 31, "60for120": 32}  # above 30, in that order


def options(record: dict[str, Any]) -> dict[str, Any]:
    r = record["rules"]
    preset, given = (r, {}) if isinstance(r, str) else (r["preset"], r.get("options", {}))
    out = {**PRESETS[preset], **given}
    n = out["players"]
    if out["teams"] is None:  # each preset's layout for its player count
        out["teams"] = {4: "pairs", 6: "two-threes" if preset == "nova-scotia"
                        else "three-pairs"}.get(n, "individual")
    return out


def sides_of(o: dict[str, Any]) -> list[list[int]]:
    n = o["players"]
    return {"pairs": [[0, 2], [1, 3]], "three-pairs": [[0, 3], [1, 4], [2, 5]],
            "two-threes": [[0, 2, 4], [1, 3, 5]]}.get(o["teams"], [[s] for s in range(n)])


def trumps(trump: str) -> list[str]:
    return TRUMP_TABLE[trump].split()


def trick_winner(cards: list[str], trump: str) -> int:
    """Index in ``cards`` of the highest trump, else of the highest card of the suit led."""
    order = trumps(trump)
    held = [c for c in cards if c in order]
    if held:
        return cards.index(min(held, key=order.index))
    off = OFF_TABLE[cards[0][1]].split() if cards[0] not in order else order
    return cards.index(min((c for c in cards if c in off), key=off.index))


@dataclass
class Hand:
    """What the checker reads from one hand's actions."""

    dealer: int
    trump: str | None = None
    bidder: int | None = None
    bid: str | None = None
    called: str | None = None
    given: str | None = None  # traditional 45: the card a robber gave up
    plays: list[tuple[int, str]] = field(default_factory=list)


def read_hand(deal: dict[str, Any], actions: list[str], dealer: int, o: dict[str, Any]) -> Hand:
    h = Hand(dealer)
    if o["auction"] == "none":
        h.trump = deal["stock"][0][1]  # the turned-up card, the top of the stock
    best = 0
    for text in actions:
        seat_text, verb, *args = text.split()
        seat = int(seat_text)
        if verb in ("bid", "raise"):
            rank = BID_RANK.get(args[0]) or int(args[0])
            if rank > best:
                best, h.bid = rank, args[0]
        elif verb == "trump":
            h.trump, h.bidder = args[0], seat
        elif verb == "call":
            h.called = None if args[0] == "none" else args[0]
        elif verb == "rob":
            h.given = args[0]
        elif verb == "play":
            h.plays.append((seat, args[0]))
    return h


def tricks_of(h: Hand, n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(0, len(h.plays), n):
        chunk = h.plays[i:i + n]
        cards = [c for _, c in chunk]
        leader = chunk[0][0]
        assert [s for s, _ in chunk] == [(leader + k) % n for k in range(len(chunk))]
        winner = (leader + trick_winner(cards, h.trump or "")) % n if len(chunk) == n else None
        out.append({"leader": leader, "cards": cards, "winner": winner})
    return out


def cards_in_play(deal: dict[str, Any], actions: list[str], o: dict[str, Any]) -> set[str]:
    """Every card held when the play starts. Each is played in the end, so the hand's
    highest trump is known from the deal and the actions before the first lead: the dealt
    hands and the kitty, less every discard, topped up to five each from the stock's top
    (who draws which card does not change the set), then a rob's exchange."""
    held = {c for hand in deal["hands"] for c in hand}
    if o["auction"] != "none":
        held |= set(deal.get("kitty", []))
    for text in actions:
        _, verb, *args = text.split()
        if verb == "discard":
            held -= set(args)
    held |= set(deal["stock"][:5 * o["players"] - len(held)])
    for text in actions:
        _, verb, *args = text.split()
        if verb == "rob" and o["auction"] == "none":  # gives a card for the turned-up one
            held = (held - set(args)) | {deal["stock"][0]}
        elif verb == "rob":  # the dealer's exchange with the pack: cards given and taken
            held ^= set(args)
    return held


def bonus_card(trump: str, held: set[str], o: dict[str, Any]) -> str | None:
    """The card whose trick is worth 10: the highest trump in play, or the 5 of trumps."""
    order = trumps(trump)
    if o["bonus"] == "five-only":
        return order[0] if order[0] in held else None
    return next((c for c in order if c in held), None)


@dataclass
class Game:
    """The running totals between hands."""

    o: dict[str, Any]
    sides: list[list[int]]
    scores: list[int]
    games: list[int]
    over: bool = False
    winner: Any = None
    new_game_due: bool = False

    def side(self, seat: int) -> int:
        return next(i for i, s in enumerate(self.sides) if seat in s)

    def game_won(self, winner: Any, side: int) -> None:
        """A game is won: the match goes on (best of 3, fewer than 2 won) or is over."""
        if self.o["match"] == "best-of-3":
            self.games[side] += 1
            if self.games[side] < 2:
                self.new_game_due = True
                return
        self.over, self.winner = True, winner


def check_hand(game: Game, deal: dict[str, Any], actions: list[str], dealer: int,
               shown: dict[str, Any]) -> None:
    """Work out one hand, compare it with the verdict's entry ``shown``, move the totals."""
    o, n = game.o, game.o["players"]
    if game.new_game_due:
        game.scores = [0] * len(game.sides)
        game.new_game_due = False
    start = list(game.scores)
    h = read_hand(deal, actions, dealer, o)
    tricks = tricks_of(h, n)
    assert shown["tricks"] == tricks
    assert shown["dealer"] == dealer
    if o["auction"] != "none":
        assert (shown["bid"], shown["trump"]) == (h.bid, h.trump) or h.bidder is None
        assert shown["bidder"] == h.bidder or h.bidder is None
    done = [t for t in tricks if t["winner"] is not None]
    points = [0] * len(game.sides)
    bonus = bonus_card(h.trump, cards_in_play(deal, actions, o), o) if done else None
    for t in done:
        worth = 10 if bonus in t["cards"] else 5
        x = game.side(t["winner"])
        points[x] += worth
        if o["auction"] == "none":
            game.scores[x] += worth
            if game.scores[x] >= o["target"]:  # the game ends at once
                game.game_won(x, x)
                break
    assert shown["points"] == points
    if o["auction"] != "none" and len(done) == 5:
        score_auction_hand(game, h, tricks, points, start)
    assert shown["scores"] == game.scores


def score_auction_hand(game: Game, h: Hand, tricks: list[dict[str, Any]], points: list[int],
                       start: list[int]) -> None:
    o = game.o
    assert h.bidder is not None and h.bid is not None
    bidding = [game.side(h.bidder)]
    partner = None
    if h.called:  # Call Your Partner: whoever plays the called card in the first two tricks
        for t in tricks[:2]:
            if h.called in t["cards"]:
                holder = (t["leader"] + t["cards"].index(h.called)) % o["players"]
                if holder != h.bidder:
                    partner = holder
                    bidding.append(game.side(holder))
    took = sum(points[x] for x in set(bidding))
    need = 30 if h.bid in BID_RANK else int(h.bid)
    if took >= need:
        gain = {"30for60": 60, "60for120": 120}.get(h.bid) or (
            60 if need == 30 and o["made_30_scores_60"] else
            took if o["bidder_scores"] == "taken" else need)
    else:
        gain = -{"30for60": 60, "60for120": 120}.get(h.bid, need)
    for x in range(len(game.sides)):
        if x in bidding:
            delta = gain
        elif o["lock_at"] is not None and start[x] >= o["lock_at"]:
            delta = 0
        else:
            delta = points[x]
        game.scores[x] += delta
        if o["forty_five_resets"] and delta and game.scores[x] == 45:
            game.scores[x] = 0
    reached = [x for x, s in enumerate(game.scores) if s >= o["target"]]
    # on the green before the hand and still after it (a side fallen off ends the green)
    on_green = all(sum(s >= o["target"] - 30 for s in scores) >= 2
                   for scores in (start, game.scores))
    if o["end"] == "must-bid-on-green" and on_green:
        reached = [x for x in reached if x in bidding]
    if not reached:
        return
    if any(x in reached for x in bidding):
        winner: Any = sorted([h.bidder, partner]) if partner is not None else bidding[0]
        game.game_won(winner, bidding[0])
        return
    top = max(game.scores[x] for x in reached)
    leaders = [x for x in reached if game.scores[x] == top]
    if len(leaders) == 1:
        game.game_won(leaders[0], leaders[0])


@pytest.mark.parametrize("name", NAMES)
def test_golden_verdict_agrees_with_an_independent_reading(name: str) -> None:
    record = json.loads((GOLDEN / f"{name}.record.json").read_text(encoding="utf-8"))
    verdict = json.loads((GOLDEN / f"{name}.expected.json").read_text(encoding="utf-8"))
    o = options(record)
    game = Game(o, sides_of(o), [0] * len(sides_of(o)), [0] * len(sides_of(o)))
    assert verdict["sides"] == game.sides
    hands = record["hands"]
    error = verdict.get("error")
    for i, (hand, shown) in enumerate(zip(hands, verdict["hands"], strict=False)):
        actions = hand["actions"]
        if error is not None and error["hand"] == i:
            actions = actions[:error["index"]]  # the illegal action is not played
        check_hand(game, hand["deal"], actions, (record["first_dealer"] + i) % o["players"],
                   shown)
    assert verdict["scores"] == game.scores
    assert verdict["over"] == game.over
    assert verdict["winner"] == game.winner
    if o["match"] == "best-of-3":
        assert verdict["games"] == game.games


def test_every_forty_fives_golden_is_read() -> None:
    assert len(NAMES) >= 116
