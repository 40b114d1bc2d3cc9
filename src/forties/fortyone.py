"""Forty One, the Syrian partnership game, on the same engine as the Forty-Fives.

13 cards each, hearts always trump, aces high, follow suit. Every player bids
his own tricks; bids under ``min_total`` in all throw the hand in. A made bid
scores its value (double from ``double_from``), a missed one loses it. A team
wins when one player reaches ``target`` with his partner above zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, Verb, bid_text
from .cards import CARD_NAMES, HEARTS, SUIT_MASKS, SUIT_NAMES, SUITS, format_mask, mask_names
from .rules import FortyOneRules
from .scoring import FortyOneHand, bid_value, score_forty_one, team_qualifies
from .state import Deal, DealError, GameState, Phase, Refusal, card_actions, new_trick, not_held


def _keys(led: int) -> tuple[int, ...]:
    key = [0] * 52
    for c in range(52):
        s, r = divmod(c, 13)
        if s == HEARTS:
            key[c] = 100 + r
        elif s == led:
            key[c] = 1 + r
    return tuple(key)


KEY = tuple(_keys(s) for s in range(4))
PLAY_ACTIONS = tuple(tuple(Action(s, Verb.PLAY, 1 << c) for c in range(52)) for s in range(4))
BID_ACTIONS = tuple(tuple(Action(s, Verb.BID, k) for k in range(1, 14)) for s in range(4))
_AUCTION, _PLAY = Phase.AUCTION, Phase.PLAY
_V_PLAY, _V_BID = Verb.PLAY, Verb.BID


class FortyOneState(GameState):
    """A game of Forty One in progress. Scores are per seat; partners sit opposite."""

    game = "forty-one"
    hand_size = 13
    rules: FortyOneRules

    def deal_from_deck(self, deck: Sequence[int]) -> Deal:
        return Deal(tuple(tuple(deck[13 * i:13 * i + 13]) for i in range(4)))

    def check_deal(self, deal: Deal) -> None:
        if deal.kitty or deal.stock:
            raise DealError("a Forty One deal has no kitty and no stock")
        deal.check(4, 13, 0, full_deck=True)

    def _begin(self) -> None:
        self.bids: list[int | None] = [None] * 4
        self.taken = [0] * 4
        self.trick_no = 0
        self.trump = HEARTS
        self.phase, self.turn = Phase.AUCTION, (self.dealer + 1) % 4
        self.trick_leader = -1

    def bid_value(self, bid: int) -> int:
        return bid_value(self.rules, bid)

    # ----- actions ----------------------------------------------------------------------

    def legal_play_mask(self, s: int) -> int:
        hand = self.hands[s]
        if self.trick_cards:
            follow = hand & SUIT_MASKS[self.trick_cards[0] // 13]
            if follow:
                return follow
        return hand

    def legal_actions(self) -> Sequence[Action]:
        s = self.turn
        if s is None:
            return []
        if self.phase is _AUCTION:
            return BID_ACTIONS[s]
        return card_actions(PLAY_ACTIONS[s], self.legal_play_mask(s))

    def _reason(self, a: Action) -> str | None:
        if self.phase is Phase.AUCTION:
            if a.verb is Verb.PASS:
                return Refusal("there is no pass in Forty One: bid the tricks you will take "
                               "(1 to 13)", "no-pass")
            if a.verb is not Verb.BID:
                return Refusal("bid the number of tricks you will take (1 to 13)", "bid-tricks")
            if not 1 <= a.arg <= 13:
                return Refusal(f"a bid is 1 to 13 tricks, not {bid_text(a.arg)}", "bid-range",
                               {"bid": bid_text(a.arg)})
            return None
        if a.verb is not Verb.PLAY:
            return Refusal("it is your turn to play a card", "play-card")
        if not 0 < a.arg < 1 << 52 or a.arg.bit_count() != 1:
            return Refusal("play one card", "play-one")
        hand = self.hands[a.seat]
        if not a.arg & hand:
            return not_held(a.arg)
        if a.arg & self.legal_play_mask(a.seat):
            return None
        suit = self.trick_cards[0] // 13
        held = hand & SUIT_MASKS[suit]
        return Refusal(f"must follow {SUIT_NAMES[suit]}: you hold {format_mask(held)}",
                       "follow", {"suit": SUITS[suit], "cards": mask_names(held)})

    def apply(self, action: Action | str) -> None:
        # The play phase is the hot path: check it without building the legal list.
        if self.phase is _PLAY and type(action) is Action:
            s, verb, arg = action
            if (verb is _V_PLAY and s == self.turn and type(s) is type(arg) is int and arg > 0
                    and arg.bit_count() == 1):
                legal = self.hands[s]
                if self.trick_cards:  # legal_play_mask, inlined: this is the hot path
                    legal = legal & SUIT_MASKS[self.trick_cards[0] // 13] or legal
                if arg & legal:
                    self.history.append(action)
                    self._play(s, arg)
                    return
        elif self.phase is _AUCTION and type(action) is Action:
            s, verb, arg = action
            if (verb is _V_BID and s == self.turn and type(s) is type(arg) is int
                    and 1 <= arg <= 13):  # as _reason
                self.history.append(action)
                self._apply(action)
                return
        super().apply(action)

    def _apply(self, a: Action) -> None:
        s = a.seat
        if self.phase is _AUCTION:
            self.bids[s] = a.arg
            if s != self.dealer:
                self.turn = (s + 1) % 4
                return
            if sum(b or 0 for b in self.bids) < self.rules.min_total:
                self.thrown_in = True
                self.phase, self.turn = Phase.HAND_OVER, None
                return
            self.phase = Phase.PLAY
            self.turn = self.trick_leader = (self.dealer + 1) % 4
            return
        self._play(s, a.arg)

    def _play(self, s: int, card_bit: int) -> None:
        """Seat ``s`` plays the card ``card_bit`` (checked already)."""
        self.hands[s] ^= card_bit
        tc = self.trick_cards
        tc.append(card_bit.bit_length() - 1)
        if len(tc) < 4:
            self.turn = (s + 1) % 4
            return
        keys = list(map(KEY[tc[0] // 13].__getitem__, tc))
        w = (self.trick_leader + keys.index(max(keys))) % 4  # the led card's key is above 0
        self.taken[w] += 1
        self.tricks.append(new_trick(self.trick_leader, tuple(tc), w))
        self.trick_cards = []
        self.trick_no += 1
        if self.trick_no == 13:
            self._score_hand()
        else:
            self.turn = self.trick_leader = w

    # ----- scoring ----------------------------------------------------------------------

    def summary(self) -> FortyOneHand:
        """The hand as the table knows it (see scoring): each seat's bid and tricks."""
        return FortyOneHand(tuple(b or 0 for b in self.bids), tuple(self.taken))

    def hand_deltas(self) -> list[int]:
        return list(score_forty_one(self.rules, self.summary(), self.start_scores).deltas)

    def _score_hand(self) -> None:
        """Score the hand played out (see scoring: the one copy of the scoring rules)."""
        out = score_forty_one(self.rules, self.summary(), self.start_scores)
        self.scores = list(out.scores)
        if out.winner is not None:
            self._game_won(out.winner)
        self.phase = Phase.GAME_OVER if self.over else Phase.HAND_OVER
        self.turn = None

    def team_qualifies(self, team: tuple[int, int]) -> bool:
        return team_qualifies(self.rules, self.scores, team)

    # ----- views ------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        v = self._common_view(seat)
        v.update({
            "trump": "H",
            "bids": list(self.bids),
            "taken": list(self.taken),
            "history": [str(a) for a in self.history],
        })
        return v

    def card_name(self, c: int) -> str:
        return CARD_NAMES[c]
