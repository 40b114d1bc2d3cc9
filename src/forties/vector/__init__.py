"""Many tables at once, compiled: the engine for simulation and research.

``VectorGame(rules, tables)`` keeps ``tables`` games of any preset and house rules
in numpy arrays and steps them all with one call. It plays by exactly the rules of
``GameState`` (the tests play both side by side, action for action, over every
preset and many house rules): table ``t``'s legal actions are
``legal_actions(t)``, in the same order as ``GameState.legal_actions()``, and
``step(choices)`` applies, on every table that has a move, the ``choices[t]``-th
of them. With ``auto=True`` (the default) a table whose hand ends is dealt the next
hand by its own seeded generator, and a new game once its game is over, so a loop
never waits; ``hands_played`` counts the hands finished. With ``auto=False`` a
table waits at the end of a hand for ``next_hand(t, deck)``: that is how a caller
deals its own cards (``shuffled_deck(seed, hand)`` deals what ``new_game`` would).

    >>> import numpy as np
    >>> from forties import build_rules
    >>> from forties.vector import VectorGame
    >>> env = VectorGame(build_rules("merrimack-valley"), tables=256, seed=1)
    >>> rng = np.random.default_rng(1)
    >>> for _ in range(100):
    ...     n = env.legal_counts()
    ...     env.step((rng.random(env.tables) * n).astype(np.int64))
    >>> env.hands_played > 0
    True

Tables are independent and the class is not thread-safe; one ``VectorGame`` runs
on one core. It holds every card of every table: it is for simulation, not for
showing a seat its game, which goes through ``GameState.view`` alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action, Verb
from ..rules import FortyFivesRules, FortyOneRules, Rules, RulesError, conflicts
from ..state import IllegalActionError, Phase
from . import kernel as k

VERBS = tuple(Verb)
PHASES = tuple(Phase)
_AUCTIONS = {"single": k.AU_SINGLE, "none": k.AU_NONE, "hold-reopens": k.AU_HOLD_REOPENS,
             "open": k.AU_OPEN}
_LEADS = {"bidder": k.LEAD_BIDDER, "left-of-bidder": k.LEAD_LEFT_OF_BIDDER,
          "left-of-dealer": k.LEAD_LEFT_OF_DEALER}
_RENEGES = {"top3": k.RENEGE_TOP3, "five-only": k.RENEGE_FIVE_ONLY, "none": k.RENEGE_NONE}

Int64Array = npt.NDArray[np.int64]


def rules_vector(rules: Rules) -> Int64Array:
    """The rules as the kernel reads them (the ``R_`` slots of ``kernel``); RulesError
    for rules that cannot be played (a ``Rules`` value made without ``build_rules``)."""
    problems = conflicts(rules)
    if problems:
        raise RulesError("; ".join(problems))
    if rules.players > k.MAX_SEATS:
        raise RulesError(f"the vector engine plays up to {k.MAX_SEATS} players, not "
                         f"players={rules.players}")
    r = np.zeros(k.R_SIZE, dtype=np.int64)
    sides: tuple[tuple[int, ...], ...] = rules.sides
    r[k.R_N] = rules.players
    r[k.R_NSIDES] = len(sides)
    for x, side in enumerate(sides):
        for s in side:
            r[k.R_SIDE_OF + s] = x
            r[k.R_SIDE_SEATS + x] |= 1 << s
    if isinstance(rules, FortyOneRules):
        r[k.R_GAME] = k.G_FORTY_ONE
        r[k.R_HAND_SIZE] = 13
        r[k.R_TARGET] = rules.target
        r[k.R_MIN_TOTAL] = rules.min_total
        r[k.R_DOUBLE_FROM] = rules.double_from
        r[k.R_PARTNER_POS] = rules.partner_positive
        r[k.R_TIE_TOTAL] = rules.tie == "team-total"
        r[k.R_LOCK] = k.NEVER
        return r
    assert isinstance(rules, FortyFivesRules)
    r[k.R_GAME] = k.G_FORTY_FIVES
    r[k.R_HAND_SIZE] = 5
    r[k.R_KITTY] = rules.kitty
    r[k.R_AUCTION] = _AUCTIONS[rules.auction]
    r[k.R_MIN_BID] = rules.min_bid
    r[k.R_B3060] = rules.bid_30_for_60
    r[k.R_B60120] = rules.bid_60_for_120
    r[k.R_MAY_HOLD] = rules.dealer_may_hold
    r[k.R_REDEAL] = rules.all_pass == "redeal"
    r[k.R_MIN100] = rules.min_bid_at_100 or 0
    r[k.R_MAY_RAISE] = rules.winner_may_raise
    r[k.R_NEEDS_CARD] = rules.trump_needs_card
    r[k.R_KITTY_FIRST] = rules.kitty_before_trump
    r[k.R_GO_KITTY] = rules.go_on_kitty
    r[k.R_GO_TOP] = rules.go_on_top_card
    r[k.R_KEEP_MIN] = rules.keep_min
    r[k.R_FLIP] = rules.four_and_a_flip
    r[k.R_BY_THREES] = rules.replenish == "by-threes"
    r[k.R_ROBS_PACK] = rules.dealer_robs_pack
    r[k.R_ROBBING] = rules.robbing
    r[k.R_LEAD] = _LEADS[rules.lead]
    r[k.R_SUIT_OR_TRUMP] = rules.follow == "suit-or-trump"
    r[k.R_RENEGE] = _RENEGES[rules.renege]
    r[k.R_HOH] = rules.hearts_on_hearts
    r[k.R_BONUS_FIVE] = rules.bonus == "five-only"
    r[k.R_SCORES_BID] = rules.bidder_scores == "bid"
    r[k.R_MADE30] = rules.made_30_scores_60
    r[k.R_LOCK] = k.NEVER if rules.lock_at is None else rules.lock_at
    r[k.R_TARGET] = rules.target
    r[k.R_RESETS] = rules.forty_five_resets
    r[k.R_GREEN] = rules.end == "must-bid-on-green"
    r[k.R_BEST3] = rules.match == "best-of-3"
    r[k.R_CALL_PARTNER] = rules.call_partner
    r[k.R_BOOKED] = rules.booked
    r[k.R_STOCK0] = 5 * rules.players + rules.kitty
    r[k.R_STOCK_LEN] = rules.stock_size()
    r[k.R_STOCK_TIGHT] = (rules.auction != "none"
                          and rules.replacements_needed() > rules.stock_size())
    return r


def _deck_row(deck: Sequence[int]) -> Int64Array:
    row = np.asarray(deck, dtype=np.int64)
    if row.shape != (52,) or sorted(row.tolist()) != list(range(52)):
        raise ValueError("a deck is the 52 cards 0..51, each once")
    return row


class VectorGame:
    """``tables`` games of ``rules``, played together (see the module's doc)."""

    def __init__(self, rules: Rules, tables: int = 1, seed: int = 0, *, auto: bool = True,
                 decks: Sequence[Sequence[int]] | npt.NDArray[Any] | None = None,
                 first_dealer: int = 0) -> None:
        if type(tables) is not int or tables < 1:
            raise ValueError(f"tables must be a whole number from 1, not {tables!r}")
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first dealer {first_dealer} is not a seat "
                             f"(0..{rules.players - 1})")
        self.rules = rules
        self.tables = tables
        self.auto = auto
        self.n = rules.players
        self.R = rules_vector(rules)
        self.S: Int64Array = np.zeros((tables, k.NF), dtype=np.int64)
        self.D: Int64Array = np.zeros((tables, 52), dtype=np.int64)
        self.S[:, k.F_RNG] = np.random.default_rng(seed).integers(1, 1 << 62, size=tables)
        # Each table's count of legal actions, kept up to date by step(); _fresh is False
        # once anything else has changed a table.
        self._counts: Int64Array = np.zeros(tables, dtype=np.int64)
        self._counts_view = self._counts.view()
        self._counts_view.flags.writeable = False
        self._fresh = False
        if decks is None:
            k.new_games(self.S, self.D, self.R, first_dealer, True)
        else:
            if len(decks) != tables:
                raise ValueError(f"{len(decks)} decks for {tables} tables")
            for t, deck in enumerate(decks):
                self.D[t] = _deck_row(deck)
            k.new_games(self.S, self.D, self.R, first_dealer, False)

    # ----- stepping ---------------------------------------------------------------------

    def legal_counts(self) -> Int64Array:
        """Each table's number of legal actions (0 for a table waiting for a deal), as a
        read-only array that the next change to the tables overwrites."""
        if not self._fresh:
            k.counts(self.S, self.R, self._counts)
            self._fresh = True
        return self._counts_view

    def step(self, choices: npt.NDArray[np.int64] | Sequence[int]) -> None:
        """Every table with a legal action applies its ``choices[t]``-th one; if any
        choice is out of range, ValueError, and no table changes."""
        c = np.ascontiguousarray(choices, dtype=np.int64)
        if c.shape != (self.tables,):
            raise ValueError(f"step needs {self.tables} choices, not {c.shape}")
        counts = self.legal_counts()
        bad = k.step(self.S, self.D, self.R, c, self._counts, self.auto)
        if bad >= 0:
            raise ValueError(f"table {bad}: choice {c[bad]} is not one of its "
                             f"{counts[bad]} legal actions")

    def play_random(self, steps: int) -> None:
        """``steps`` rounds in which every table plays a uniformly random legal action
        (drawn by its own generator) and deals on when its hand ends: the whole loop
        compiled."""
        self._fresh = False
        k.play_random(self.S, self.D, self.R, steps)

    @property
    def hands_played(self) -> int:
        """Hands finished (thrown-in hands too) since the tables were made (auto)."""
        return int(self.S[:, k.F_HANDS_DONE].sum())

    @property
    def hands_thrown_in(self) -> int:
        """Of ``hands_played``, those thrown in (everyone passed; Forty One's low bids)."""
        return int(self.S[:, k.F_THROWN_DONE].sum())

    @property
    def games_played(self) -> int:
        """Games finished since the tables were made (auto)."""
        return int(self.S[:, k.F_GAMES_DONE].sum())

    # ----- one table --------------------------------------------------------------------

    def _table(self, t: int) -> int:
        if type(t) is not int or not 0 <= t < self.tables:
            raise IndexError(f"there is no table {t!r} (tables are 0..{self.tables - 1})")
        return t

    def legal_actions(self, t: int) -> list[Action]:
        """Table ``t``'s legal actions, as ``GameState.legal_actions()`` lists them."""
        t = self._table(t)
        s = int(self.S[t, k.F_TURN])
        out = []
        for i in range(k.count(self.S, self.R, t)):
            verb, arg = k.nth(self.S, self.R, t, i)
            out.append(Action(s, VERBS[verb], int(arg)))
        return out

    def legal_count(self, t: int) -> int:
        return int(k.count(self.S, self.R, self._table(t)))

    def legal_action(self, t: int, i: int) -> Action:
        """The ``i``-th legal action of table ``t`` (without listing the others)."""
        n = self.legal_count(t)
        if not 0 <= i < n:
            raise IndexError(f"table {t} has {n} legal actions, not {i + 1}")
        verb, arg = k.nth(self.S, self.R, t, i)
        return Action(int(self.S[t, k.F_TURN]), VERBS[verb], int(arg))

    def apply(self, t: int, action: Action | str) -> None:
        """Apply ``action`` to table ``t``; IllegalActionError unless it is legal."""
        t = self._table(t)
        if isinstance(action, str):
            action = Action.parse(action)
        verb = VERBS.index(action.verb)
        if (action.seat != self.S[t, k.F_TURN] or not 0 <= action.arg < 1 << 62
                or k.find(self.S, self.R, t, verb, action.arg) < 0):
            raise IllegalActionError(action, "not a legal action now"
                                     if self.S[t, k.F_TURN] >= 0
                                     else "the hand is over: a new deal is due")
        self._fresh = False
        k.apply(self.S, self.D, self.R, t, verb, action.arg)
        if self.auto and self.S[t, k.F_TURN] < 0:
            k.deal_on(self.S, self.D, self.R, t)

    def next_hand(self, t: int, deck: Sequence[int] | None = None) -> None:
        """Deal table ``t``'s next hand (a new game if its game is over), from ``deck``
        or its own generator."""
        t = self._table(t)
        if self.S[t, k.F_TURN] >= 0:
            raise ValueError(f"table {t}: the hand is not over")
        self._fresh = False
        if deck is None:
            k.deal_on(self.S, self.D, self.R, t)
            return
        self.D[t] = _deck_row(deck)
        k.deal_from_deck(self.S, self.D, self.R, t)

    def snapshot(self, t: int) -> dict[str, Any]:
        """Table ``t``'s state as plain data, with the names ``GameState`` uses."""
        t = self._table(t)
        row = [int(v) for v in self.S[t]]
        n, ns = self.n, int(self.R[k.R_NSIDES])
        kind, val = row[k.F_WKIND], row[k.F_WVAL]
        winner: int | tuple[int, ...] | None = None
        if kind == k.W_SIDE:
            winner = val
        elif kind == k.W_SEATS:
            winner = tuple(s for s in range(k.MAX_SEATS) if val >> s & 1)
        turn = row[k.F_TURN]
        out: dict[str, Any] = {
            "phase": PHASES[row[k.F_PHASE]],
            "turn": None if turn < 0 else turn,
            "hand_index": row[k.F_HAND_INDEX],
            "dealer": row[k.F_DEALER],
            "scores": row[k.F_SCORES:k.F_SCORES + ns],
            "games": row[k.F_GAMES:k.F_GAMES + ns],
            "over": bool(row[k.F_OVER]),
            "winner": winner,
            "thrown_in": bool(row[k.F_THROWN]),
            "hands": row[k.F_HANDS:k.F_HANDS + n],
            "trick_cards": row[k.F_TRICK:k.F_TRICK + row[k.F_TRICK_N]],
            "trick_no": row[k.F_TRICK_NO],
            "trick_leader": row[k.F_LEADER],
            "taken": row[k.F_TAKEN:k.F_TAKEN + n],
        }
        if self.R[k.R_GAME] == k.G_FORTY_ONE:
            out["bids"] = row[k.F_BIDS:k.F_BIDS + 4]
            return out
        out.update({
            "trump": row[k.F_TRUMP], "bidder": row[k.F_BIDDER], "bid": row[k.F_BID],
            "high": row[k.F_HIGH], "high_bidder": row[k.F_HIGH_BIDDER],
            "passed": row[k.F_PASSED], "kitty": row[k.F_KITTY],
            "kitty_taken": bool(row[k.F_KITTY_TAKEN]), "pile": row[k.F_PILE],
            "faceup": row[k.F_FACEUP], "up_card": row[k.F_UP], "robber": row[k.F_ROBBER],
            "robbed": bool(row[k.F_ROBBED]), "rob_given": row[k.F_ROB_GIVEN],
            "pack_taken": row[k.F_PACK_TAKEN], "called": row[k.F_CALLED],
            "partner": row[k.F_PARTNER], "bonus_card": row[k.F_BONUS],
            "points": row[k.F_POINTS:k.F_POINTS + ns],
            "discarded": row[k.F_DISCARDED:k.F_DISCARDED + n],
            "on_green": bool(row[k.F_ON_GREEN]),
            "asked": row[k.F_ASKED], "answer": row[k.F_ANSWER],
            "folded": bool(row[k.F_FOLDED]),
        })
        return out


__all__ = ["VectorGame", "rules_vector"]
