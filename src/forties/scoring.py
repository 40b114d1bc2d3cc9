"""One hand's score from what the table knows, and who has won: the one copy of the
scoring rules, used by the game state machines at the end of every hand and by the
score pad for games played with real cards.

A hand is summed up as a table would write it down: for the Forty-Fives, who won the
bid and for how much (nobody, when a card was turned up for trump), the partner called
in Call Your Partner, and the points each side took; for Forty One, each seat's bid and
tricks. ``score_forty_fives`` and ``score_forty_one`` return the scores after the hand,
what happened (made, set, locked, back to 0) and, when the game is won, the winner and
the rule that decided it. ``game_won`` counts games in a best-of-three match.

Sides are numbered as ``rules.sides``; seats 0..players-1. A winner is a side number
for the Forty-Fives, or a tuple of seats (the bidder and his partner in Call Your
Partner, a team in Forty One), as ``GameState.winner``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import BID_30_FOR_60, BID_60_FOR_120
from .rules import FortyFivesRules, FortyOneRules

Winner = int | tuple[int, ...]
# What a scorekeeper notes of a hand: a kind and the side or seat it is about (-1: none).
# Kinds: made, set, made-30-60, locked, reset, thrown-in, double, partner-not-positive,
# reached, hanging.
Note = tuple[str, int]


@dataclass(frozen=True)
class FortyFivesHand:
    """A hand of the Forty-Fives as the table knows it.

    ``bidder`` is the seat that won the bid and ``bid`` its value (``BID_30_FOR_60`` and
    ``BID_60_FOR_120`` for those bids); both None/0 when the trump was turned up or the
    hand was thrown in. ``partner`` is the seat that held the called card (Call Your
    Partner), None when the bidder went alone. ``points`` are each side's points in the
    hand (with a turned-up trump: up to the trick that ended the game, if one did).
    """

    points: tuple[int, ...]
    bidder: int | None = None
    bid: int = 0
    partner: int | None = None
    thrown_in: bool = False


@dataclass(frozen=True)
class FortyOneHand:
    """A hand of Forty One: each seat's bid and each seat's tricks (none when the bids
    came to less than the minimum and the hand was thrown in)."""

    bids: tuple[int, ...]
    tricks: tuple[int, ...] = ()

    def thrown_in(self, rules: FortyOneRules) -> bool:
        return sum(self.bids) < rules.min_total


@dataclass(frozen=True)
class Outcome:
    """What a hand did: the scores after it (per side for the Forty-Fives, per seat for
    Forty One), how each moved, whether the bid was made, the notes a scorekeeper would
    write, and the game's winner with the rule that decided it (None: play on)."""

    scores: tuple[int, ...]
    deltas: tuple[int, ...]
    made: bool | None = None
    notes: tuple[Note, ...] = ()
    winner: Winner | None = None
    reason: str | None = None


# ----- the Forty-Fives -----------------------------------------------------------------


def bid_need(bid: int) -> int:
    """The points a bid must take: its value, or 30 for 30-for-60 and 60-for-120."""
    return min(bid, 30)


def on_green(rules: FortyFivesRules, scores: Sequence[int]) -> bool:
    """Whether ``scores`` are on the green: two sides or more within 30 of the target (or
    past it), when the rules say only a bidding side may then go out. A side past the
    target without bidding is shut out only if the scores are on the green both before
    and after the hand: once a side falls off the green, the game ends as usual."""
    return rules.end == "must-bid-on-green" and sum(
        1 for s in scores if s >= rules.target - 30) >= 2


def side_of_seat(rules: FortyFivesRules, seat: int) -> int:
    for i, side in enumerate(rules.sides):
        if seat in side:
            return i
    raise ValueError(f"no seat {seat}")


def bidding_sides(rules: FortyFivesRules, bidder: int | None,
                  partner: int | None) -> tuple[int, ...]:
    """The sides that share the bid: the bidder's, and his called partner's."""
    if bidder is None or bidder < 0:
        return ()
    b = side_of_seat(rules, bidder)
    if partner is not None and partner >= 0:
        p = side_of_seat(rules, partner)
        if p != b:
            return (b, p)
    return (b,)


def score_forty_fives(rules: FortyFivesRules, hand: FortyFivesHand,
                      before: Sequence[int]) -> Outcome:
    """The scores after ``hand`` from the scores ``before`` it, and the game's winner."""
    if hand.thrown_in:
        return Outcome(tuple(before), (0,) * len(before), notes=(("thrown-in", -1),))
    if rules.auction == "none":
        return _score_turned_up(rules, hand, before)
    return _score_auction(rules, hand, before)


def first_to_target(rules: FortyFivesRules, scores: Sequence[int]) -> int | None:
    """With a turned-up trump the points count trick by trick: the side that reaches the
    target wins at once (only one can be there, the game stopping at the first)."""
    reached = [x for x, s in enumerate(scores) if s >= rules.target]
    return reached[0] if len(reached) == 1 else None


def _score_turned_up(rules: FortyFivesRules, hand: FortyFivesHand,
                     before: Sequence[int]) -> Outcome:
    scores = [b + p for b, p in zip(before, hand.points, strict=True)]
    winner = first_to_target(rules, scores)
    if winner is not None:
        hanging = len(scores) == 2 and before[1 - winner] == rules.target - 5
        return Outcome(tuple(scores), tuple(hand.points),
                       notes=(("hanging", 1 - winner),) if hanging else (),
                       winner=winner, reason="first")
    notes = _resets(rules, scores, [p != 0 for p in hand.points])
    return Outcome(tuple(scores), tuple(s - b for s, b in zip(scores, before, strict=True)),
                   notes=notes)


def _resets(rules: FortyFivesRules, scores: list[int], moved: Sequence[bool]) -> tuple[Note, ...]:
    """45 exactly goes back to 0 (when the rules say so and the score moved there)."""
    notes: list[Note] = []
    if rules.forty_five_resets:
        for x, m in enumerate(moved):
            if m and scores[x] == 45:
                scores[x] = 0
                notes.append(("reset", x))
    return tuple(notes)


def _score_auction(rules: FortyFivesRules, hand: FortyFivesHand,
                   before: Sequence[int]) -> Outcome:
    pts = hand.points
    bsides = bidding_sides(rules, hand.bidder, hand.partner)
    took = sum(pts[x] for x in bsides)
    bid = hand.bid
    made = took >= bid_need(bid)
    notes: list[Note] = []
    if made:
        if bid in (BID_30_FOR_60, BID_60_FOR_120):
            gain = bid
        elif bid == 30 and rules.made_30_scores_60:
            gain = 60
            notes.append(("made-30-60", -1))
        elif rules.bidder_scores == "taken":
            gain = took
        else:
            gain = bid
    else:
        gain = -bid
    notes.insert(0, ("made" if made else "set", -1))
    deltas = []
    for x in range(len(rules.sides)):
        if x in bsides:
            deltas.append(gain)
        elif rules.lock_at is not None and before[x] >= rules.lock_at:
            deltas.append(0)
            if pts[x]:
                notes.append(("locked", x))
        else:
            deltas.append(pts[x])
    scores = [b + d for b, d in zip(before, deltas, strict=True)]
    notes += _resets(rules, scores, [d != 0 for d in deltas])
    # the green holds only while two sides or more are on it, before the hand and after:
    # a side that falls off it ends it, and a side past the target without bidding wins
    green = on_green(rules, before) and on_green(rules, scores)
    winner, reason = _going_out(rules, scores, bsides, green)
    return Outcome(tuple(scores), tuple(deltas), made, tuple(notes), winner, reason)


def _going_out(rules: FortyFivesRules, scores: Sequence[int], bsides: tuple[int, ...],
               green: bool) -> tuple[Winner | None, str | None]:
    reached = [x for x, sc in enumerate(scores) if sc >= rules.target]
    shut_out = False
    if green:
        shut_out = any(x not in bsides for x in reached)
        reached = [x for x in reached if x in bsides]
    if not reached:
        return None, None
    if rules.call_partner:
        if any(x in bsides for x in reached):
            seats = tuple(sorted(s for x in bsides for s in rules.sides[x]))
            if green and shut_out:
                return seats, "green"
            if len(bsides) > 1 and not all(x in reached for x in bsides):
                return seats, "partners"
            return seats, ("bidder-goes-out" if any(
                sc >= rules.target for x, sc in enumerate(scores) if x not in bsides)
                else "first")
        best = _highest(scores, reached)
        return ((best,), "highest") if best is not None else (None, None)
    if len(reached) == 1:
        if green and shut_out:
            return reached[0], "green"
        return reached[0], "first"
    if bsides and bsides[0] in reached:
        return bsides[0], "bidder-goes-out"
    best = _highest(scores, reached)
    return (best, "highest") if best is not None else (None, None)


def _highest(scores: Sequence[int], reached: list[int]) -> int | None:
    top = max(scores[x] for x in reached)
    best = [x for x in reached if scores[x] == top]
    return best[0] if len(best) == 1 else None  # a tie plays on


# ----- Forty One -----------------------------------------------------------------------


def bid_value(rules: FortyOneRules, bid: int) -> int:
    """What a bid is worth: its tricks, doubled from ``double_from``."""
    return 2 * bid if bid >= rules.double_from else bid


def team_qualifies(rules: FortyOneRules, scores: Sequence[int], team: tuple[int, int]) -> bool:
    a, b = team
    return any(scores[p] >= rules.target and (not rules.partner_positive or scores[q] > 0)
               for p, q in ((a, b), (b, a)))


def score_forty_one(rules: FortyOneRules, hand: FortyOneHand,
                    before: Sequence[int]) -> Outcome:
    """The seats' scores after ``hand`` from ``before``, and the winning team if any."""
    if hand.thrown_in(rules):
        return Outcome(tuple(before), (0,) * 4,
               notes=(("thrown-in", -1),))
    deltas = []
    notes: list[Note] = []
    for s in range(4):
        v = bid_value(rules, hand.bids[s])
        deltas.append(v if hand.tricks[s] >= hand.bids[s] else -v)
        if hand.bids[s] >= rules.double_from:
            notes.append(("double", s))
    scores = [b + d for b, d in zip(before, deltas, strict=True)]
    winner, reason = _winning_team(rules, scores)
    if winner is None and rules.partner_positive:
        for a, b in rules.teams:
            for p, q in ((a, b), (b, a)):
                if scores[p] >= rules.target and scores[q] <= 0:
                    notes.append(("partner-not-positive", p))
    return Outcome(tuple(scores), tuple(deltas), None, tuple(notes), winner, reason)


def forty_one_reason(rules: FortyOneRules, scores: Sequence[int]) -> str | None:
    """Why a team has won on ``scores`` (``pad.REASONS``' code), None while play goes on."""
    return _winning_team(rules, scores)[1]


def forty_one_blocked(rules: FortyOneRules, scores: Sequence[int]) -> list[tuple[int, int]]:
    """Each seat on the target that has not won for a partner not above 0: (seat, partner)."""
    if not rules.partner_positive or _winning_team(rules, scores)[0] is not None:
        return []
    return [(p, q) for a, b in rules.teams for p, q in ((a, b), (b, a))
            if scores[p] >= rules.target and scores[q] <= 0]


def _winning_team(rules: FortyOneRules,
                  scores: Sequence[int]) -> tuple[tuple[int, ...] | None, str | None]:
    teams = [t for t in rules.teams if team_qualifies(rules, scores, t)]
    first = "positive-partner" if rules.partner_positive else "first"
    if not teams:
        return None, None
    if len(teams) == 1:
        return teams[0], first
    if rules.tie == "lower-partner":
        measure = [min(scores[a], scores[b]) for a, b in teams]
        why = "tie-lower-partner"
    else:
        measure = [scores[a] + scores[b] for a, b in teams]
        why = "tie-team-total"
    if measure[0] == measure[1]:
        return None, None  # a tie plays on
    return (teams[0] if measure[0] > measure[1] else teams[1]), why


# ----- matches -------------------------------------------------------------------------


def game_won(match: str, games: Sequence[int], winner: Winner,
             side_of: Sequence[int]) -> tuple[tuple[int, ...], bool]:
    """A game won: the games each side has won since, and whether the match is over
    (one game in a single game; two in a best of three, the next game from 0)."""
    out = list(games)
    if match == "best-of-3":
        first = winner if isinstance(winner, int) else side_of[winner[0]]
        out[first] += 1
        return tuple(out), out[first] >= 2
    return tuple(out), True


__all__ = ["FortyFivesHand", "FortyOneHand", "Outcome", "bid_need", "bid_value",
           "bidding_sides", "first_to_target", "game_won", "on_green", "score_forty_fives",
           "score_forty_one", "team_qualifies"]
