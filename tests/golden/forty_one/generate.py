"""Write the Forty One golden records and the referee verdicts they must get.

Run from the repository root::

    .venv/bin/python tests/golden/forty_one/generate.py

This script does not import the engine. Every deal is built so that each trick
is decided by construction (rules.md section 6: hearts trump, aces high, follow
suit):

- tricks 1 to 12 are one suit each, clubs, diamonds, spades, hearts, round and
  round; the first trick of a suit is played with its A K Q J, the second with
  T 9 8 7, the third with 6 5 4 3, and the seat meant to win it holds the
  highest of the four. Everyone follows suit, so every play is legal;
- trick 13 is the four twos: the seat meant to win it holds 2H, the only trump.

So a hand is given by each seat's bid and the tricks each seat is to take, and
the tricks, the points and the legal moves follow without the engine. Each
scenario also lists the scores after every hand as worked out by hand (in the
comments) and the winner; the script checks its own sums against them before
writing ``NAME.record.json`` and ``NAME.verdict.json`` (the JSON ``forties
check`` must print; exit status 0 when ``ok``, else 1).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYERS = ["North", "East", "South", "West"]
TEAMS = ((0, 2), (1, 3))
SUIT_ORDER = "CDSH"
BLOCKS = ("AKQJ", "T987", "6543")
RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
DEFAULTS: dict[str, Any] = {"target": 41, "min_total": 11, "double_from": 7,
                            "partner_positive": True, "tie": "lower-partner"}


def card_index(name: str) -> int:
    """Clubs first, then diamonds, hearts, spades; two to ace: the engine's listing order."""
    return SUITS.index(name[1]) * 13 + RANKS.index(name[0])


@dataclass
class Hand:
    """One hand: each seat's bid and tricks (indexed by seat), the scores after it."""

    bids: tuple[int, int, int, int]
    taken: tuple[int, int, int, int] | None  # None: thrown in
    scores: tuple[int, int, int, int]  # worked out by hand
    stop: int | None = None  # keep only this many actions (a game in progress)
    bad: tuple[int, str] | None = None  # (index, action): an illegal action there, then stop
    renounce: tuple[int, str] | None = None  # (index, suit): play a card of suit there
    # Written out in full instead of built: each seat's cards, and each trick as its cards in
    # play order and the seat worked out by hand to win it.
    written: tuple[tuple[str, str, str, str], list[tuple[str, int]]] | None = None


@dataclass
class Scenario:
    name: str
    about: str
    hands: list[Hand]
    winner: list[int] | None
    options: dict[str, Any] = field(default_factory=dict)
    first_dealer: int = 0
    reason: str | None = None  # the referee's reason for the illegal action


def trick_winners(taken: tuple[int, ...]) -> list[int]:
    """Who takes tricks 1..13: round the seats 0..3, one trick each while a seat has some left."""
    left = list(taken)
    out: list[int] = []
    while len(out) < 13:
        for s in range(4):
            if left[s]:
                out.append(s)
                left[s] -= 1
    return out


Layout = tuple[list[list[str]], list[tuple[int, list[str], int]]]


def lay_out(dealer: int, taken: tuple[int, ...]) -> Layout:
    """The deal and its 13 tricks (leader, cards in play order, winner)."""
    winners = trick_winners(taken)
    hands: list[list[str]] = [[] for _ in range(4)]
    tricks = []
    leader = (dealer + 1) % 4
    for t, w in enumerate(winners):
        order = [(leader + k) % 4 for k in range(4)]
        if t < 12:
            suit, block = SUIT_ORDER[t % 4], BLOCKS[t // 4]
            rest = iter(block[1:])
            cards = {s: (block[0] if s == w else next(rest)) + suit for s in order}
        else:
            others = iter("CDS")
            cards = {s: "2H" if s == w else "2" + next(others) for s in order}
        for s in order:
            hands[s].append(cards[s])
        tricks.append((leader, [cards[s] for s in order], w))
        leader = w
    for h in hands:
        h.sort(key=lambda c: (SUITS.index(c[1]), -RANKS.index(c[0])))
    return hands, tricks


def trick_winner(leader: int, cards: list[str]) -> int:
    """The highest heart, else the highest card of the suit led; aces high."""
    def key(c: str) -> int:
        if c[1] == "H":
            return 100 + RANKS.index(c[0])
        return 1 + RANKS.index(c[0]) if c[1] == cards[0][1] else 0
    best = max(range(4), key=lambda i: key(cards[i]))
    return (leader + best) % 4


def written_out(dealer: int,
                written: tuple[tuple[str, str, str, str], list[tuple[str, int]]]) -> Layout:
    """A deal written out in full, checked: every card once, suit followed, winners right."""
    hands = [h.split() for h in written[0]]
    assert sorted(c for h in hands for c in h) == sorted(r + s for r in RANKS for s in SUITS)
    held = [set(h) for h in hands]
    tricks = []
    leader = (dealer + 1) % 4
    for text, w in written[1]:
        cards = text.split()
        for k, c in enumerate(cards):
            seat = (leader + k) % 4
            assert c in held[seat], f"seat {seat} does not hold {c}"
            led = cards[0][1]
            assert k == 0 or c[1] == led or all(x[1] != led for x in held[seat]), (
                f"seat {seat} must follow {led} with {c}")
            held[seat].remove(c)
        assert trick_winner(leader, cards) == w, f"trick {text}: worked by hand {w}"
        tricks.append((leader, cards, w))
        leader = w
    assert len(tricks) == 13
    return hands, tricks


def value(bid: int, double_from: int) -> int:
    return 2 * bid if bid >= double_from else bid


def team_qualifies(scores: list[int], team: tuple[int, int], rules: dict[str, Any]) -> bool:
    a, b = team
    return any(scores[p] >= rules["target"] and (not rules["partner_positive"] or scores[q] > 0)
               for p, q in ((a, b), (b, a)))


def winning_team(scores: list[int], rules: dict[str, Any]) -> list[int] | None:
    teams = [t for t in TEAMS if team_qualifies(scores, t, rules)]
    if len(teams) == 1:
        return list(teams[0])
    if not teams:
        return None
    if rules["tie"] == "lower-partner":
        m = [min(scores[a], scores[b]) for a, b in teams]
    else:
        m = [scores[a] + scores[b] for a, b in teams]
    if m[0] == m[1]:
        return None
    return list(teams[0] if m[0] > m[1] else teams[1])


def build(sc: Scenario) -> tuple[dict[str, Any], dict[str, Any]]:
    rules = {**DEFAULTS, **sc.options}
    scores = [0, 0, 0, 0]
    rec_hands: list[dict[str, Any]] = []
    summaries: list[dict[str, Any]] = []
    winner: list[int] | None = None
    to_act: int | None = None
    legal: list[str] | None = []
    error: dict[str, Any] | None = None
    for h_i, hand in enumerate(sc.hands):
        assert winner is None, f"{sc.name}: a hand after the game is won"
        dealer = (sc.first_dealer + h_i) % 4
        bid_order = [(dealer + 1 + k) % 4 for k in range(4)]
        thrown = sum(hand.bids) < rules["min_total"]
        assert thrown == (hand.taken is None), f"{sc.name} hand {h_i}: thrown in is {thrown}"
        if hand.written is not None:
            deal, tricks = written_out(dealer, hand.written)
        else:
            deal, tricks = lay_out(dealer, hand.taken or (4, 3, 3, 3))
        actions = [f"{s} bid {hand.bids[s]}" for s in bid_order]
        if not thrown:
            assert hand.taken is not None and sum(hand.taken) == 13
            actions += [f"{(lead + k) % 4} play {c}" for lead, cards, _ in tricks
                        for k, c in enumerate(cards)]
        cut = len(actions)
        if hand.stop is not None:
            cut = hand.stop
        held = [set(h) for h in deal]
        bad = hand.bad
        if hand.renounce is not None:
            cut, suit = hand.renounce
            seat = int(actions[cut].split()[0])
            played = {a.split()[2] for a in actions[4:cut]}
            mine = sorted((c for c in held[seat] - played if c[1] == suit), key=card_index)
            bad = (cut, f"{seat} play {mine[0]}")
        if bad is not None:
            cut = bad[0]
        kept = actions[:cut]
        rec_actions = [*kept, bad[1]] if bad else kept
        rec_hands.append({"deal": {"hands": deal}, "actions": rec_actions})

        bids: list[int | None] = [None] * 4
        n_bids = min(len(kept), 4)
        for s in bid_order[:n_bids]:
            bids[s] = hand.bids[s]
        plays = kept[4:]
        done = len(plays) // 4
        points = [0, 0, 0, 0]
        out_tricks: list[dict[str, Any]] = []
        for leader, cards, w in tricks[:done]:
            points[w] += 1
            out_tricks.append({"leader": leader, "cards": cards, "winner": w})
        partial = plays[4 * done:]
        lead = tricks[done][0] if done < 13 else None
        if partial:
            out_tricks.append({"leader": lead, "cards": [a.split()[2] for a in partial],
                               "winner": None})
        for a in plays:
            held[int(a.split()[0])].discard(a.split()[2])
        finished = thrown or done == 13
        if finished:
            assert cut == len(actions)
            if not thrown:
                assert hand.taken is not None and points == list(hand.taken)
                for s in range(4):
                    b = hand.bids[s]
                    v = value(b, rules["double_from"])
                    scores[s] += v if points[s] >= b else -v
                winner = winning_team(scores, rules)
            to_act, legal = None, ([] if winner is None else None)
        elif n_bids < 4:
            to_act = bid_order[n_bids]
            legal = [f"{to_act} bid {k}" for k in range(1, 14)]
        else:
            assert lead is not None
            to_act = (lead + len(partial)) % 4
            mine = sorted(held[to_act], key=card_index)
            if partial:
                led = partial[0].split()[2][1]
                mine = [c for c in mine if c[1] == led] or mine
            legal = [f"{to_act} play {c}" for c in mine]
        assert tuple(scores) == hand.scores, (
            f"{sc.name} hand {h_i}: worked by hand {hand.scores}, summed {scores}")
        summaries.append({"dealer": dealer, "bidder": None, "bid": None, "trump": "H",
                          "bids": bids, "tricks": out_tricks, "points": points,
                          "scores": list(scores)})
        if bad is not None:
            error = {"hand": h_i, "index": cut, "action": bad[1], "reason": sc.reason}
            if hand.renounce is not None:
                seat = int(bad[1].split()[0])
                led = partial[0].split()[2][1]
                clubs = sorted((c for c in held[seat] if c[1] == led), key=card_index)
                assert sc.reason == (f"must follow {SUIT_NAMES[led]}: you hold "
                                     + " ".join(clubs)), sc.reason
            break
    assert winner == sc.winner, f"{sc.name}: winner {winner}, expected {sc.winner}"
    record: dict[str, Any] = {"format": "forties-record/1", "game": "forty-one",
                              "rules": ({"preset": "forty-one", "options": sc.options}
                                        if sc.options else "forty-one"),
                              "players": PLAYERS, "first_dealer": sc.first_dealer,
                              "hands": rec_hands, "notes": sc.about}
    verdict: dict[str, Any] = {"ok": error is None}
    if error is not None:
        verdict["error"] = error
    verdict.update({"sides": [[0], [1], [2], [3]], "hands": summaries, "scores": scores,
                    "over": winner is not None, "winner": winner,
                    "to_act": None if winner is not None else to_act,
                    "legal": None if winner is not None else legal})
    return record, verdict


# Seats: 0 North, 1 East, 2 South, 3 West; North and South (0+2) play East and West (1+3).
# bids, taken and scores are written by seat: (North, East, South, West).
# The dealer of hand k is first_dealer + k; bids start at his left, who also leads.

# The four hands that bring both teams' leaders past 41 with negative partners (tie tests):
#   H1 dealer N: E bids 12 takes 12 (+24); S 1/0 (-1); W 1/0 (-1); N 1/1 (+1) -> 1 24 -1 -1
#   H2 dealer E: N 12/12 (+24 -> 25); E 1/1 (+1 -> 25); S 1/0, W 1/0 (-1 each) -> 25 25 -2 -2
#   H3 dealer S: N 8/8 (double: +16 -> 41, but South is -3); E 5/5 (+5 -> 30); S, W 1/0
#                -> 41 30 -3 -3: nobody wins
#   H4 dealer W: N 3/3 (+3 -> 44); E 8/8 (+16 -> 46); S 1/1, W 1/1 (+1 -> -2 each)
#                -> 44 46 -2 -2: nobody wins, both partners negative
TIE_RUN_UP = [
    Hand(bids=(1, 12, 1, 1), taken=(1, 12, 0, 0), scores=(1, 24, -1, -1)),
    Hand(bids=(12, 1, 1, 1), taken=(12, 1, 0, 0), scores=(25, 25, -2, -2)),
    Hand(bids=(8, 5, 1, 1), taken=(8, 5, 0, 0), scores=(41, 30, -3, -3)),
    Hand(bids=(3, 8, 1, 1), taken=(3, 8, 1, 1), scores=(44, 46, -2, -2)),
]
# H5 dealer N, both teams qualify at once: N 1/1 (-> 45), E 3/3 (-> 49), S 6/6 (-> 4),
# W 3/3 (-> 1). Lower partners: N+S 4 against E+W 1; team totals: N+S 49 against E+W 50.
TIE_BOTH_QUALIFY = Hand(bids=(1, 3, 6, 3), taken=(1, 3, 6, 3), scores=(45, 49, 4, 1))

# First hand of several scenarios, dealer North, bids East 4, South 3, West 2, North 3 (12):
# North 3 of 3 (+3), East 6 of 4 (+4: overtricks are worth nothing), South 2 of 3 (-3),
# West 2 of 2 (+2).
MADE_MISSED = Hand(bids=(3, 4, 3, 2), taken=(3, 6, 2, 2), scores=(3, 4, -3, 2))

# Hand 1 of "trumps", dealer North: each seat holds one suit, West all the hearts. East
# leads AD; South and North, void, throw aces; West's 2H, the lowest trump, beats them all.
# West then leads his hearts and nobody can follow. West 13 tricks.
TRUMPS_1 = (
    ("AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
     "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
    [("AD AS 2H AC", 3),
     *[(f"{h}H {c}C {d}D {s}S", 3) for h, c, d, s in
       zip("3456789TJQKA", "KQJT98765432", "KQJT98765432", "KQJT98765432", strict=True)]],
)
# Hand 2, dealer East, South leads. North holds all the diamonds, West the spades but 2S
# for 7H; South and East share the clubs and the other hearts.
TRUMPS_2 = (
    ("AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D",
     "AC JC 9C 7C 5C 3C AH KH QH JH TH 9H 8H",
     "KC QC TC 8C 6C 4C 2C 6H 5H 4H 3H 2H 2S",
     "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 7H"),
    [("2C AS AD 3C", 1),   # no trump: the higher club wins, the off-suit aces do not;
                           # West, void in clubs, throws a spade though he holds 7H
     ("AC KC KS KD", 1),   # aces high: AC over KC
     ("JC QC QS QD", 2),
     ("2H 7H JD AH", 1),   # West must follow the heart lead with his only heart
     ("5C 4C JS TD", 1),
     ("7C 8C TS 9D", 2),
     ("3H 9S 8D 8H", 1),
     ("9C TC 8S 7D", 2),
     ("6C 7S 6D 9H", 1),   # East, out of clubs, trumps
     ("TH 4H 6S 5D", 1),
     ("JH 5H 5S 4D", 1),
     ("QH 6H 4S 3D", 1),
     ("KH 2S 3S 2D", 1)],  # South, out of hearts, throws 2S
)

SCENARIOS = [
    Scenario("trumps",
             "Hearts always trump: 2H beats three aces; with no heart in a trick the highest "
             "card of the suit led wins, aces high; a void player may discard or trump.",
             [
                 # H1 dealer N, bids E 1, S 1, W 13, N 1 (16): W 13/13 (+26), the others 1/0 (-1)
                 Hand(bids=(1, 1, 1, 13), taken=(0, 0, 0, 13), scores=(-1, -1, -1, 26),
                      written=TRUMPS_1),
                 # H2 dealer E, bids S 3, W 1, N 1, E 10 (15): E 10/10 (+20 -> 19),
                 # S 3/3 (+3 -> 2), W 1/0 (-> 25), N 1/0 (-> -2)
                 Hand(bids=(1, 10, 3, 1), taken=(0, 10, 3, 0), scores=(-2, 19, 2, 25),
                      written=TRUMPS_2),
             ], None),
    Scenario("made_missed_overtricks",
             "Bids made exactly score their value, overtricks add nothing, a miss loses the bid.",
             [MADE_MISSED], None),
    Scenario("double_at_seven",
             "Bids of 7 or more score double, made or missed; 6 does not; bids totalling 11 play.",
             [
                 # H1 dealer N: E 7/7 (+14), S 1/1 (+1), W 2/0 (-2), N 1/5 (+1); total 11
                 Hand(bids=(1, 7, 1, 2), taken=(5, 7, 1, 0), scores=(1, 14, 1, -2)),
                 # H2 dealer E: S 6/6 (+6, not doubled), W 7/3 (-14), N 1/2 (+1), E 2/2 (+2)
                 Hand(bids=(1, 2, 6, 7), taken=(2, 2, 6, 3), scores=(2, 16, 7, -16)),
             ], None),
    Scenario("double_from_five",
             "With double_from 5, bids of 5 or more score double (made or missed); 4 does not.",
             [
                 # H1 dealer N: E 5/5 (+10), S 4/4 (+4), W 1/0 (-1), N 1/4 (+1)
                 Hand(bids=(1, 5, 4, 1), taken=(4, 5, 4, 0), scores=(1, 10, 4, -1)),
                 # H2 dealer E: S 6/3 (-12), W 2/2 (+2), N 2/2 (+2), E 1/6 (+1)
                 Hand(bids=(2, 1, 6, 2), taken=(2, 6, 3, 2), scores=(3, 11, -8, 1)),
             ], None, options={"double_from": 5}),
    Scenario("thrown_in_at_ten",
             "Bids totalling 10 throw the hand in (its own entry, no score); the next dealer "
             "deals; 11 plays.",
             [
                 # H1 dealer N: E 3, S 2, W 3, N 2 = 10 < 11: thrown in
                 Hand(bids=(2, 3, 2, 3), taken=None, scores=(0, 0, 0, 0)),
                 # H2 dealer E, South bids first and leads: S 3/3, W 3/3, N 3/4, E 2/3 = 11
                 Hand(bids=(3, 2, 3, 3), taken=(4, 3, 3, 3), scores=(3, 2, 3, 3)),
             ], None),
    Scenario("min_total_thirteen",
             "With min_total 13, bids totalling 12 are thrown in and 13 plays.",
             [
                 # H1 dealer N: 3+3+3+3 = 12 < 13: thrown in
                 Hand(bids=(3, 3, 3, 3), taken=None, scores=(0, 0, 0, 0)),
                 # H2 dealer E: S 4/4, W 3/3, N 3/3, E 3/3 = 13: all made
                 Hand(bids=(3, 3, 4, 3), taken=(3, 3, 4, 3), scores=(3, 3, 4, 3)),
             ], None, options={"min_total": 13}),
    Scenario("win_positive_partner",
             "East reaches 42 with West on 2: East and West win.",
             [
                 # H1 dealer N: E 10/10 (+20), S 1/1, W 1/1, N 1/1 (+1 each)
                 Hand(bids=(1, 10, 1, 1), taken=(1, 10, 1, 1), scores=(1, 20, 1, 1)),
                 # H2 dealer E: S 1/0 (-1 -> 0), W 1/1 (-> 2), N 1/1 (-> 2), E 11/11 (+22 -> 42)
                 Hand(bids=(1, 11, 1, 1), taken=(1, 11, 0, 1), scores=(2, 42, 0, 2)),
             ], [1, 3]),
    Scenario("partner_negative_waits",
             "East passes 41 while West is negative, then on exactly 0: no win until West is "
             "above 0.",
             [
                 # H1 dealer N: E 10/10 (+20), S 1/1 (+1), W 2/0 (-2), N 1/2 (+1)
                 Hand(bids=(1, 10, 1, 2), taken=(2, 10, 1, 0), scores=(1, 20, 1, -2)),
                 # H2 dealer E: E 11/11 (+22 -> 42), S 1/1, N 1/1, W 1/0 (-> -3): no win
                 Hand(bids=(1, 11, 1, 1), taken=(1, 11, 1, 0), scores=(2, 42, 2, -3)),
                 # H3 dealer S: W 3/3 (-> 0), N 2/2, E 4/6 (+4 -> 46), S 2/2: West on 0, no win
                 Hand(bids=(2, 4, 2, 3), taken=(2, 6, 2, 3), scores=(4, 46, 4, 0)),
                 # H4 dealer W: N 2/2 (-> 6), E 3/4 (-> 49), S 2/2 (-> 6), W 4/5 (-> 4): E+W win
                 Hand(bids=(2, 3, 2, 4), taken=(2, 4, 2, 5), scores=(6, 49, 6, 4)),
             ], [1, 3]),
    Scenario("partner_positive_off",
             "With partner_positive false, East on 42 wins although West is on -3.",
             [
                 Hand(bids=(1, 10, 1, 2), taken=(2, 10, 1, 0), scores=(1, 20, 1, -2)),
                 Hand(bids=(1, 11, 1, 1), taken=(1, 11, 1, 0), scores=(2, 42, 2, -3)),
             ], [1, 3], options={"partner_positive": False}),
    Scenario("tie_lower_partner",
             "Both teams qualify in hand 5: South (4) beats West (1) as the lower partner, "
             "though East and West have the higher total.",
             [*TIE_RUN_UP, TIE_BOTH_QUALIFY], [0, 2]),
    Scenario("tie_team_total",
             "Both teams qualify in hand 5: with tie team-total, East and West (50) beat "
             "North and South (49).",
             [*TIE_RUN_UP, TIE_BOTH_QUALIFY], [1, 3], options={"tie": "team-total"}),
    Scenario("tie_lower_partner_plays_on",
             "Both teams qualify with lower partners level (2 and 2): play goes on; North and "
             "South win the next hand alone.",
             [
                 *TIE_RUN_UP,
                 # H5 dealer N: N 1/1 (-> 45), E 4/4 (-> 50), S 4/4 (-> 2), W 4/4 (-> 2)
                 Hand(bids=(1, 4, 4, 4), taken=(1, 4, 4, 4), scores=(45, 50, 2, 2)),
                 # H6 dealer E: S 3/3 (-> 5), W 3/2 (-> -1), N 3/4 (-> 48), E 3/4 (-> 53);
                 # West negative, so only North and South qualify
                 Hand(bids=(3, 3, 3, 3), taken=(4, 4, 3, 2), scores=(48, 53, 5, -1)),
             ], [0, 2]),
    Scenario("tie_team_total_plays_on",
             "With tie team-total, both teams qualify on 49 each: play goes on; North and "
             "South win the next hand alone.",
             [
                 *TIE_RUN_UP,
                 # H5 dealer N: S 4/4 (-> 2), W 3/3 (-> 1), N 3/3 (-> 47), E 2/3 (-> 48):
                 # totals 49 and 49
                 Hand(bids=(3, 2, 4, 3), taken=(3, 3, 4, 3), scores=(47, 48, 2, 1)),
                 # H6 dealer E: S 2/2 (-> 4), W 2/1 (-> -1), N 4/5 (-> 51), E 5/5 (-> 53)
                 Hand(bids=(4, 5, 2, 2), taken=(5, 5, 2, 1), scores=(51, 53, 4, -1)),
             ], [0, 2], options={"tie": "team-total"}),
    Scenario("long_game",
             "Twelve hands from first dealer South, five thrown in, scores deep below zero; "
             "South passes 41 with North negative and wins when North is back above 0.",
             [
                 # H1 dealer S: 1+1+1+1 = 4: thrown in
                 Hand(bids=(1, 1, 1, 1), taken=None, scores=(0, 0, 0, 0)),
                 # H2 dealer W: 3+2+3+2 = 10: thrown in
                 Hand(bids=(3, 2, 3, 2), taken=None, scores=(0, 0, 0, 0)),
                 # H3 dealer N: E 7/2 (-14), S 2/3 (+2), W 1/0 (-1), N 4/8 (+4)
                 Hand(bids=(4, 7, 2, 1), taken=(8, 2, 3, 0), scores=(4, -14, 2, -1)),
                 # H4 dealer E: 2+2+2+2 = 8: thrown in
                 Hand(bids=(2, 2, 2, 2), taken=None, scores=(4, -14, 2, -1)),
                 # H5 dealer S: W 13/5 (-26 -> -27), N 1/0 (-> 3), E 1/4 (-> -13), S 1/4 (-> 3)
                 Hand(bids=(1, 1, 1, 13), taken=(0, 4, 4, 5), scores=(3, -13, 3, -27)),
                 # H6 dealer W: N 6/5 (-> -3), E 6/5 (-> -19), S 1/1 (-> 4), W 1/2 (-> -26)
                 Hand(bids=(6, 6, 1, 1), taken=(5, 5, 1, 2), scores=(-3, -19, 4, -26)),
                 # H7 dealer N: E 1, S 2, W 3, N 4 = 10: thrown in
                 Hand(bids=(4, 1, 2, 3), taken=None, scores=(-3, -19, 4, -26)),
                 # H8 dealer E: S 9/9 (+18 -> 22), W 1/1 (-> -25), N 2/1 (-> -5), E 2/2 (-> -17)
                 Hand(bids=(2, 2, 9, 1), taken=(1, 2, 9, 1), scores=(-5, -17, 22, -25)),
                 # H9 dealer S: W 7/7 (+14 -> -11), N 1/1 (-> -4), E 1/1 (-> -16), S 2/4 (-> 24)
                 Hand(bids=(1, 1, 2, 7), taken=(1, 1, 4, 7), scores=(-4, -16, 24, -11)),
                 # H10 dealer W: 2+2+2+4 = 10: thrown in
                 Hand(bids=(2, 2, 2, 4), taken=None, scores=(-4, -16, 24, -11)),
                 # H11 dealer N: E 3/0 (-> -19), S 10/10 (+20 -> 44), W 1/2 (-> -10),
                 # N 1/1 (-> -3): South past 41 but North negative
                 Hand(bids=(1, 3, 10, 1), taken=(1, 0, 10, 2), scores=(-3, -19, 44, -10)),
                 # H12 dealer E: S 1/1 (-> 45), W 1/1 (-> -9), N 4/4 (-> 1), E 5/7 (-> -14)
                 Hand(bids=(4, 5, 1, 1), taken=(4, 7, 1, 1), scores=(1, -14, 45, -9)),
             ], [0, 2], first_dealer=2),
    Scenario("in_progress",
             "A game in progress: hand 2 stops in its third trick; the scores shown for it "
             "are those before it.",
             [
                 MADE_MISSED,
                 # H2 dealer E, bids 3 each; 4 bids + 2 tricks + 2 cards of the third
                 Hand(bids=(3, 3, 3, 3), taken=(4, 3, 3, 3), scores=(3, 4, -3, 2), stop=14),
             ], None),
    Scenario("in_auction",
             "A game in progress in the bidding: West is to bid, any of 1 to 13.",
             [Hand(bids=(3, 4, 3, 2), taken=(3, 6, 2, 2), scores=(0, 0, 0, 0), stop=2)],
             None),
    Scenario("illegal_renounce",
             "In hand 2 West, second to play to a club lead, plays a diamond while holding "
             "clubs.",
             [
                 Hand(bids=(2, 3, 2, 3), taken=None, scores=(0, 0, 0, 0)),
                 # dealer E; South leads trick 1 (action 4), West plays second (action 5)
                 Hand(bids=(3, 2, 3, 3), taken=(4, 3, 3, 3), scores=(0, 0, 0, 0),
                      renounce=(5, "D")),
             ], None, reason="must follow clubs: you hold 2C 5C 9C QC"),
    Scenario("illegal_bid_zero", "East bids 0 tricks: a bid is 1 to 13.",
             [Hand(bids=(3, 4, 3, 2), taken=(3, 6, 2, 2), scores=(0, 0, 0, 0),
                   bad=(0, "1 bid 0"))],
             None, reason="a bid is 1 to 13 tricks, not 0"),
    Scenario("illegal_bid_fourteen", "South bids 14 tricks: a bid is 1 to 13.",
             [Hand(bids=(3, 4, 3, 2), taken=(3, 6, 2, 2), scores=(0, 0, 0, 0),
                   bad=(1, "2 bid 14"))],
             None, reason="a bid is 1 to 13 tricks, not 14"),
    Scenario("illegal_pass", "West passes: Forty One has no pass.",
             [Hand(bids=(3, 4, 3, 2), taken=(3, 6, 2, 2), scores=(0, 0, 0, 0),
                   bad=(2, "3 pass"))],
             None, reason="there is no pass in Forty One: bid the tricks you will take (1 to 13)"),
]


def dump(value: Any, depth: int = 0) -> str:
    """JSON with one key or list item a line; what is short and flat stays on one line."""
    pad, inner = " " * depth, " " * (depth + 1)
    one_line = json.dumps(value)
    if len(one_line) <= 90 and "{" not in one_line[1:]:
        return one_line
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k)}: {dump(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        return "[\n" + ",\n".join(inner + dump(v, depth + 1) for v in value) + "\n" + pad + "]"
    return json.dumps(value)


def main() -> None:
    for sc in SCENARIOS:
        record, verdict = build(sc)
        (HERE / f"{sc.name}.record.json").write_text(dump(record) + "\n", encoding="utf-8")
        (HERE / f"{sc.name}.verdict.json").write_text(dump(verdict) + "\n", encoding="utf-8")
        print(f"wrote {sc.name}")


if __name__ == "__main__":
    main()
