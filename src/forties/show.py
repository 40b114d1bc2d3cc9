"""A readable hand history of a record: who bid what, trump, each trick, points, scores;
and a hand in the order a player holds it, for every client that shows one."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Verb, bid_text
from .cards import CARD_NAMES, SUIT_NAMES, SUITS, format_mask, parse_card
from .fortyfives import OFF_ORDER, TRUMP_ORDER, FortyFivesState
from .fortyone import FortyOneState
from .pad import REASONS
from .record import Record, Replay
from .rules import FORTY_ONE, PRESETS, FortyOneRules
from .scoring import forty_one_reason
from .state import GameState, Phase

# The suits after the trumps, so that colours alternate through the hand (black, red,
# black or red, black, red): by the trump suit (clubs, diamonds, hearts, spades), and with no
# trump yet spades, hearts, clubs, diamonds. (Suits are 0 clubs, 1 diamonds, 2 hearts, 3 spades.)
_AFTER_TRUMP = {0: (2, 3, 1), 1: (3, 2, 0), 2: (3, 1, 0), 3: (2, 0, 1), -1: (3, 2, 0, 1)}


def sort_hand(names: Sequence[str], trump: str | None, game: str) -> list[str]:
    """A hand as a player holds it: trumps first, best first (in the Forty-Fives the five,
    the jack, the ace of hearts, the ace of trumps, then the rest as the engine ranks them;
    in Forty One hearts, ace high), then the other suits with their colours alternating,
    each best first as the engine ranks it; before trump is known, by suit and rank. The
    browser table and the terminal both show a hand in this order."""
    cards = [parse_card(n) for n in names]
    if game == FORTY_ONE:
        after = _AFTER_TRUMP[2]
        order = {c: (0 if c // 13 == 2 else 1 + after.index(c // 13), -(c % 13)) for c in cards}
        return [n for _, n in sorted(zip((order[c] for c in cards), names, strict=True))]
    t = SUITS.index(trump) if trump else -1
    keys: dict[int, tuple[int, int]] = {}
    suit_rank = {s: 1 + i for i, s in enumerate(_AFTER_TRUMP[t])}
    for c in cards:
        if t >= 0 and c in TRUMP_ORDER[t]:
            keys[c] = (0, TRUMP_ORDER[t].index(c))
        else:
            s = c // 13
            off = OFF_ORDER[s]
            keys[c] = (suit_rank[s], off.index(c) if c in off else -1)
    return [n for _, n in sorted(zip((keys[c] for c in cards), names, strict=True))]


def side_name(record: Record, side: tuple[int, ...]) -> str:
    return " & ".join(record.players[s] for s in side)


def says(who: str, verb: str, s_form: str) -> str:
    """``who`` and the verb that agrees with it: "You pass", "Bob passes", "Ann & Cy win"."""
    plural = who == "You" or " & " in who
    return f"{who} {verb if plural else s_form}"


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return " ".join(CARD_NAMES[c] for c in cards)


def render(record: Record) -> str:
    """The whole record as text; an illegal action ends it with a line saying why."""
    rules = record.rules
    sides = rules.sides
    out = [f"{PRESETS[rules.preset].summary.split(':')[0]} ({rules.preset})"]
    if rules.overrides:
        out.append("House rules: " + ", ".join(f"{k}={v}" for k, v in rules.overrides))
    if isinstance(rules, FortyOneRules):
        teams = rules.teams
        out.append("Teams: " + "  vs  ".join(side_name(record, t) for t in teams)
                   + " (each player scores alone)")
    else:
        out.append("Sides: " + "  vs  ".join(side_name(record, s) for s in sides))
    replay = Replay(record)
    names = record.players
    for h, st in replay.states():
        hand = record.hands[h]
        out.append("")
        out.append(f"Hand {h + 1}, dealer {names[st.dealer]}")
        trump = st.view(None).get("trump")
        for seat, cards in enumerate(hand.deal.hands):  # as a player holds them: by suit
            held = sort_hand([CARD_NAMES[c] for c in cards], trump, rules.game)
            out.append(f"  {names[seat]:<12} {' '.join(held)}")
        if hand.deal.kitty:
            out.append(f"  {'kitty':<12} {_cards(hand.deal.kitty)}")
        up = getattr(st, "up_card", -1)
        if up >= 0:
            out.append(f"  Turned up {CARD_NAMES[up]}: {SUIT_NAMES[up // 13]} are trump")
        auction: list[str] = []
        for i, text in enumerate(hand.actions):
            try:
                a = Action.parse(text)
                why = st.reason(a)
            except ValueError as e:
                out.append(f"  ! action {i + 1} ({text}): {e}")
                return "\n".join(out) + "\n"
            if why is not None:
                out.extend(_trick_so_far(st, names))  # the cards that make it illegal
                out.append(f"  ! action {i + 1} ({text}) is illegal: {why}")
                return "\n".join(out) + "\n"
            line = _describe(st, a, names)
            tricks_before = len(st.tricks)
            phase_before = st.phase
            st.apply(a)
            if phase_before is Phase.AUCTION:
                auction.append(line)
                if st.phase is not Phase.AUCTION:
                    out.append(f"  {_auction_label(st)}: " + ", ".join(auction)
                               + _bids_total(st))
                    auction = []
                continue
            if line:
                out.append("  " + line)
            if len(st.tricks) > tricks_before:
                t = st.tricks[-1]
                order = [names[(t.leader + k) % st.n] + " " + CARD_NAMES[c]
                         for k, c in enumerate(t.cards)]
                out.append(f"  Trick {len(st.tricks)}: {', '.join(order)}; "
                           + says(names[t.winner or 0], "win", "wins"))
        if auction:
            out.append(f"  {_auction_label(st)} so far: " + ", ".join(auction))
        if not st.hand_over:
            out.extend(_trick_so_far(st, names))
        out.extend("  " + x for x in _hand_end(st, record))
    if replay.state is not None and replay.state.over:
        out.append("")
        out.append(game_end(replay.state, record))
    return "\n".join(out) + "\n"


def _trick_so_far(st: GameState, names: list[str]) -> list[str]:
    """The cards of the trick being played: "  Trick 2 so far: East 7C, South 3C"."""
    if st.phase is not Phase.PLAY or not st.trick_cards:
        return []
    order = [names[(st.trick_leader + k) % st.n] + " " + CARD_NAMES[c]
             for k, c in enumerate(st.trick_cards)]
    return [f"  Trick {len(st.tricks) + 1} so far: {', '.join(order)}"]


def _auction_label(st: GameState) -> str:
    return "Bids" if st.game == "forty-one" else "Auction"


def _bids_total(st: GameState) -> str:
    """Forty One: the bids' total, and whether it was enough to play."""
    if not isinstance(st, FortyOneState):
        return ""
    total = sum(b or 0 for b in st.bids)
    need = st.rules.min_total
    return f" (total {total}{f', under {need}' if total < need else ''})"


def _describe(st: GameState, a: Action, names: list[str]) -> str:
    who = names[a.seat]
    v = a.verb
    if v is Verb.BID:
        return f"{who} {bid_text(a.arg)}"
    if v is Verb.PASS:
        if st.phase is Phase.RAISE:
            return says(who, "keep", "keeps") + " the bid"
        if st.phase is Phase.ROB:
            return says(who, "do", "does") + " not rob"
        if st.phase is Phase.PACK:
            return says(who, "do", "does") + " not rob the pack"
        return says(who, "pass", "passes")
    if v is Verb.HOLD:
        return says(who, "hold", "holds")
    if v is Verb.RAISE:
        return says(who, "raise", "raises") + f" to {bid_text(a.arg)}"
    if v is Verb.TRUMP:
        return says(who, "name", "names") + f" {SUIT_NAMES[a.arg]} trump"
    if v is Verb.DISCARD:
        if st.phase is Phase.TRUMP:
            goes = "go" if who == "You" else "goes"
            return says(who, "throw", "throws") + f" in {format_mask(a.arg)} and {goes} on " \
                "the " + ("top card" if getattr(st, "went_on_kitty", False) else "kitty")
        k = a.arg.bit_count()
        return says(who, "discard", "discards") + f" {k}" + (
            f": {format_mask(a.arg)}" if k else "")
    if v is Verb.ROB:
        return says(who, "rob", "robs") + f": {format_mask(a.arg)}"
    if v is Verb.CALL:
        return says(who, "go", "goes") + " alone" if a.arg == 0 else \
            says(who, "call", "calls") + f" {format_mask(a.arg)}"
    return ""


def _hand_end(st: GameState, record: Record) -> list[str]:
    sides: tuple[tuple[int, ...], ...] = st.sides
    if st.thrown_in:
        return ["Thrown in: a new deal"]
    if not st.hand_over:
        return ["(hand in progress)"]
    lines = []
    if isinstance(st, FortyOneState):
        bids = [b or 0 for b in st.bids]  # all made: the hand was played
        taken = st.taken
        deltas = st.hand_deltas()
        for s in range(st.n):
            verdict = "made" if taken[s] >= bids[s] else "down"
            lines.append(f"{record.players[s]:<12} bid {bids[s]:>2}, took {taken[s]:>2}: "
                         f"{verdict} {deltas[s]:+d}")
    else:
        assert isinstance(st, FortyFivesState)
        pts = st.points
        lines.append("Points: " + ", ".join(
            f"{side_name(record, s)} {pts[i]}" for i, s in enumerate(sides)))
        bidder = st.bidder
        made = st.made()
        if made is not None:
            bid = bid_text(st.bid)
            lines.append(f"{record.players[bidder]} bid {bid}: {'made' if made else 'set'}")
    lines.append("Scores: " + ", ".join(
        f"{side_name(record, s)} {st.scores[i]}" for i, s in enumerate(sides)))
    if isinstance(st, FortyOneState) and not st.over:
        lines.extend(_forty_one_waits(st, record))
    return lines


def _forty_one_waits(st: FortyOneState, record: Record) -> list[str]:
    """Why a player on the target has not won yet: a partner not above 0, or a tie."""
    rules = st.rules
    sc, names = st.scores, record.players
    teams = rules.teams
    if all(st.team_qualifies(t) for t in teams):
        return [f"Both teams qualify, level by {rules.tie}: play goes on"]
    out: list[str] = []
    if not rules.partner_positive:
        return out
    for a, b in teams:
        for p, q in ((a, b), (b, a)):
            if sc[p] >= rules.target and sc[q] <= 0:
                out.append(says(names[p], "have", "has") + f" {sc[p]} but partner {names[q]} "
                           "is not above 0")
    return out


def game_end(st: GameState, record: Record) -> str:
    """The closing line: "Game over: North & South win (North 42, South 4): 41 with a partner
    above 0"."""
    w = st.winner
    if isinstance(w, tuple):
        scores = ", ".join(f"{record.players[s]} {st.scores[s]}" for s in w) \
            if st.game == "forty-one" else ""
        why = ""
        if isinstance(st.rules, FortyOneRules):  # the rule that ended it, as the pad says it
            code = forty_one_reason(st.rules, st.scores)
            why = f": {REASONS[code].format(target=st.rules.target)}" if code else ""
        return ("Game over: " + says(" & ".join(record.players[s] for s in w), "win", "wins")
                + (f" ({scores})" if scores else "") + why)
    assert w is not None
    return "Game over: " + says(side_name(record, st.sides[w]), "win", "wins")
