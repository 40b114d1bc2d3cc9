"""The game in words for the terminal clients: cards as people write them, what each
action means in plain English, the prompt for the player's turn, and the rules of a
preset explained.

Everything here reads a seat's view (``state.view(seat)``), never the state itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ..actions import Action, Verb, bid_text, parse_bid
from ..cards import CARD_NAMES, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from ..fortyfives import OFF_ORDER, TRUMP_ORDER, bid_need
from ..pad import REASONS
from ..rules import FORTY_ONE, PRESETS, FortyFivesRules, FortyOneRules, Rules, rules_from_json
from ..scoring import forty_one_blocked, forty_one_reason
from ..show import sort_hand

RED_SUITS = "DH"
COMPASS = ("North", "East", "South", "West")
FIRST_NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo")

_CARD_TOKEN = re.compile(r"\b(10|[2-9TJQKA])([CDHS])\b")


# ----- cards ------------------------------------------------------------------------------


def card_text(name: str, fancy: bool = True) -> str:
    """A card as people write it: ``10♥`` (fancy) or ``10H`` (plain ASCII)."""
    rank, suit = name[0], name[1]
    r = "10" if rank == "T" else rank
    return r + (SUIT_SYMBOLS[SUITS.index(suit)] if fancy else suit)


def cards_text(names: Sequence[str], fancy: bool = True) -> str:
    return " ".join(card_text(n, fancy) for n in names)


def suit_text(suit: str, fancy: bool = True) -> str:
    """``♥ hearts`` (fancy) or ``hearts``."""
    i = SUITS.index(suit)
    return f"{SUIT_SYMBOLS[i]} {SUIT_NAMES[i]}" if fancy else SUIT_NAMES[i]


def pretty(text: str, fancy: bool = True) -> str:
    """The engine's words with every card written as people write it."""
    def card(m: re.Match[str]) -> str:
        rank = "T" if m.group(1) == "10" else m.group(1)
        return card_text(rank + m.group(2), fancy)

    return _CARD_TOKEN.sub(card, text)


def is_red(name: str) -> bool:
    return name[1] in RED_SUITS


def game_name(preset: str) -> str:
    """The preset's name for people: "Merrimack Valley 45s", "Forty One"."""
    head = PRESETS[preset].summary.split(":")[0]
    return re.sub(r"\s*\(seed [^)]*\)", "", head)


# ----- seats ------------------------------------------------------------------------------


def default_names(n: int, human: int | None, you: str = "You") -> list[str]:
    """Seat names for a table of ``n``: compass points round a table of four (the human
    sitting South), first names otherwise; the human's seat is ``you``."""
    if n == 4:
        base = 2 if human is None else human
        names = [COMPASS[(2 + s - base) % 4] for s in range(4)]
    else:
        names = list(FIRST_NAMES[:n])
    if human is not None:
        names[human] = you
    return names


def rules_of(view: dict[str, Any]) -> Rules:
    return rules_from_json(view["rules"])


def side_names(view: dict[str, Any], names: Sequence[str]) -> list[str]:
    """Each scoring side as its players' names."""
    return [" & ".join(names[s] for s in side) for side in view["sides"]]


def side_of(view: dict[str, Any], seat: int) -> int:
    return next(i for i, side in enumerate(view["sides"]) if seat in side)


def partners(view: dict[str, Any], seat: int) -> list[int]:
    """The seats that score with ``seat`` (Forty One: the player opposite)."""
    if view["game"] == FORTY_ONE:
        return [(seat + 2) % 4]
    return [s for s in view["sides"][side_of(view, seat)] if s != seat]


def bid_words(view: dict[str, Any], bid: str) -> str:
    if view["game"] == FORTY_ONE:
        return f"{bid} trick" + ("" if bid == "1" else "s")
    return {"30for60": "30 for 60", "60for120": "60 for 120"}.get(bid, bid)


# ----- narration -----------------------------------------------------------------------


def _you(seat: int, human: int | None, names: Sequence[str]) -> bool:
    """Whether ``seat`` is spoken to ("you pass") rather than of ("West passes")."""
    return seat == human or names[seat] == "You"


def _says(name: str, you: bool, plain_form: str, s_form: str) -> str:
    return f"{name} {plain_form if you else s_form}"


def describe(line: str, phase: str, view: dict[str, Any], names: Sequence[str],
             human: int | None, fancy: bool = True, earlier: Sequence[str] = (),
             full: bool = False) -> str:
    """One history line (``"1 bid 20"``, ``"2 discard (3 cards)"``) in words, ``phase``
    being the phase it was made in and ``earlier`` the hand's lines before it.

    A line of the view is public (another seat's discards are a count); with ``full``
    (a replay) it is the record's own line, every card named."""
    parts = line.split()
    seat, verb, rest = int(parts[0]), parts[1], parts[2:]
    you = _you(seat, human, names)
    who = names[seat]
    hidden = bool(rest) and rest[0].startswith("(")
    if verb == "pass":
        if phase == "raise":
            return _says(who, you, "keep", "keeps") + f" the bid at {bid_words(view, view['bid'])}."
        if phase == "rob":
            return _says(who, you, "do", "does") + " not rob."
        if phase == "rob-pack":
            return _says(who, you, "do", "does") + " not rob the pack."
        return _says(who, you, "pass", "passes") + "."
    if verb == "bid":
        return _says(who, you, "bid", "bids") + f" {bid_words(view, rest[0])}."
    if verb == "hold":
        return _says(who, you, "hold", "holds") + f" at {bid_words(view, view['high_bid'])}."
    if verb == "raise":
        return _says(who, you, "raise", "raises") + f" to {bid_words(view, rest[0])}."
    if verb == "trump":
        return _says(who, you, "name", "names") + f" {suit_text(rest[0], fancy)} trump."
    if verb == "discard":
        if phase in ("trump", "raise"):
            what = "top card" if _went_on(earlier, seat) else "kitty"
            goes = "go" if you else "goes"
            return _says(who, you, "throw", "throws") + f" in the hand and {goes} on the {what}."
        if hidden:
            k = int(rest[0][1:])
        else:
            k = len(rest)
        if k == 0:
            return _says(who, you, "keep", "keeps") + " every card."
        shown = f": {cards_text(rest, fancy)}" if not hidden else ""
        return _says(who, you, "discard", "discards") + f" {k}{shown}."
    if verb == "rob":
        if phase == "rob-pack":
            if hidden or rest[:2] == ["the", "pack"]:
                return f"{who} robs the pack."
            return f"{who} rob the pack: {cards_text(rest, fancy)} change hands."
        up = view.get("up_card")
        if you or full:
            took = card_text(up, fancy) if up else "the turned-up card"
            return _says(who, you, "rob", "robs") + f": {'give' if you else 'gives'} up " \
                f"{cards_text(rest, fancy)} and {'take' if you else 'takes'} {took}."
        return f"{who} robs: takes the turned-up {cards_text(rest, fancy)}."
    if verb == "call":
        if rest == ["none"]:
            return _says(who, you, "go", "goes") + " alone."
        return _says(who, you, "call", "calls") + f" {cards_text(rest, fancy)}: whoever holds " \
            "it is the bidder's partner for this hand."
    if verb == "play":
        return _says(who, you, "play", "plays") + f" {cards_text(rest, fancy)}."
    if verb == "ask":
        asked = int(rest[0])
        whom = "you" if human == asked else names[asked]
        return _says(who, you, "ask", "asks") + f" {whom}: booked?"
    if verb == "answer":
        if rest[0] == "yes":
            return f"{who}: yes, booked (only trumps)." if not you else \
                "You answer yes: booked (only trumps)."
        return f"{who}: no, not booked." if not you else "You answer no: not booked."
    if verb == "fold":
        return _says(who, you, "fold", "folds") + ": the bid is lost, and nobody else " \
            "scores this hand."
    if verb == "stay":
        return _says(who, you, "stay", "stays") + " in: the hand is played."
    return line


def so_far(view: dict[str, Any], names: Sequence[str], human: int | None,
           fancy: bool = True) -> list[str]:
    """The current hand's history in words (after a resume or an undo)."""
    history = view["history"]
    return [describe(line, "?", view, names, human, fancy, history[:i])
            for i, line in enumerate(history)]


def _went_on(earlier: Sequence[str], seat: int) -> bool:
    """Whether ``seat`` already threw in a hand (so a second throw-in is the top card)."""
    return any(h.split()[:2] == [str(seat), "discard"] for h in earlier)


def narrate(before: dict[str, Any], after: dict[str, Any], names: Sequence[str],
            human: int | None, fancy: bool = True,
            actions: Sequence[str] | None = None) -> list[str]:
    """What happened between two views of the same seat, one line per event.

    ``actions`` (a replay, every card visible) are the record lines made in between,
    written out in place of the view's public history."""
    out: list[str] = []
    same_hand = before["hand_index"] == after["hand_index"]
    if not same_hand:
        return out
    new = after["history"][len(before["history"]):] if actions is None else list(actions)
    phase = before["phase"]
    tricks_seen = len(before["tricks"])
    done = len(before["history"])
    led = before["phase"] == "play" and not (before.get("trick") or {}).get("cards")
    for i, line in enumerate(new):
        text = describe(line, phase, after, names, human, fancy, after["history"][:done + i],
                        full=actions is not None)
        if led and i == 0 and line.split()[1] == "play":
            text = text.replace(" plays ", " leads ").replace(" play ", " lead ", 1)
        out.append(text)
        if line.split()[1] == "trump" and phase == "trump":
            phase = "draw"
    if before["phase"] == "auction" and after["phase"] != "auction":
        if after["game"] == FORTY_ONE:
            total = sum(b or 0 for b in after["bids"])
            if after["phase"] == "hand-over":
                out.append(f"The bids total {total}, under the minimum: the hand is thrown in.")
            else:
                out.append(f"The bids total {total}: play begins.")
        elif after.get("bidder") is None:
            out.append("Everyone passed: the hand is thrown in and the next dealer deals.")
        else:
            b = after["bidder"]
            out.append(f"{names[b]} {'win' if _you(b, human, names) else 'wins'} the bid at "
                       f"{bid_words(after, after['bid'])}.")
    if before["phase"] == "draw" and after["phase"] != "draw" and human is not None:
        got = [c for c in after["hand"] if c not in before["hand"]]
        if got:
            got = sort_hand(got, after["trump"], after["game"])
            out.append(f"{names[human]} draw {cards_text(got, fancy)}.")
    for number, t in enumerate(after["tricks"][tricks_seen:], start=tricks_seen + 1):
        w = t["winner"]
        card = t["cards"][(w - t["leader"]) % after["players"]]
        out.append(f"{names[w]} {'win' if _you(w, human, names) else 'wins'} trick {number} with "
                   f"{card_text(card, fancy)}.")
    if after["phase"] in ("hand-over", "game-over") and before["phase"] not in (
            "hand-over", "game-over") and after["tricks"]:
        out.extend(hand_result(after, names, fancy))
    return out


def hand_result(view: dict[str, Any], names: Sequence[str], fancy: bool = True) -> list[str]:
    """The end of a hand in words: what each side took, the bid made or set, the scores."""
    out = []
    sides = side_names(view, names)
    if view["game"] == FORTY_ONE:
        out.append("Bids and tricks: " + ", ".join(
            f"{names[s]} {view['bids'][s]}/{view['taken'][s]}" for s in range(view["players"])))
    else:
        rules = rules_of(view)
        assert isinstance(rules, FortyFivesRules)
        if rules.auction != "none":
            out.append("Points taken: " + ", ".join(
                f"{sides[i]} {p}" for i, p in enumerate(view["points"])) + ".")
            b = view["bidder"]
            if b is not None and len(view["tricks"]) == 5:
                need = bid_need(parse_bid(view["bid"]))
                bside = [side_of(view, b)]
                if view.get("partner") is not None:
                    bside.append(side_of(view, view["partner"]))
                took = sum(view["points"][x] for x in set(bside))
                made = took >= need
                set_ = "were set" if names[b] == "You" else "was set"
                out.append(f"{names[b]} bid {bid_words(view, view['bid'])} and "
                           f"{'made it' if made else set_} (took {took}).")
    out.append("Scores: " + ", ".join(f"{sides[i]} {s}" for i, s in enumerate(view["scores"]))
               + ".")
    if view["game"] == FORTY_ONE and not view["over"]:
        rules = rules_of(view)
        assert isinstance(rules, FortyOneRules)
        for p, q in forty_one_blocked(rules, view["scores"]):
            out.append(f"{names[p]} {'have' if names[p] == 'You' else 'has'} "
                       f"{view['scores'][p]} but {'your' if names[p] == 'You' else 'his'} "
                       f"partner {names[q]} is not above 0: play on.")
    return out


def game_result(view: dict[str, Any], names: Sequence[str]) -> str:
    w = view["winner"]
    if isinstance(w, list):
        who = " & ".join(names[s] for s in w)
    else:
        who = side_names(view, names)[w]
    verb = f"win{'s' if ' & ' not in who and who != 'You' else ''}"
    rules = rules_of(view)
    if isinstance(rules, FortyOneRules):  # the rule that ended it, as the score pad says it
        why = forty_one_reason(rules, view["scores"])
        if why:
            return f"Game over: {who} {verb}: {REASONS[why].format(target=rules.target)}."
    return f"Game over: {who} {verb}."


def hand_start(view: dict[str, Any], names: Sequence[str], human: int | None,
               fancy: bool = True) -> list[str]:
    """The lines that open a hand: who deals, and the turned-up trump."""
    out = [f"Hand {view['hand_index'] + 1}. {names[view['dealer']]} "
           f"{'deal' if _you(view['dealer'], human, names) else 'deals'}."]
    if view.get("up_card"):
        up = view["up_card"]
        out.append(f"Turned up: {card_text(up, fancy)}. {SUIT_NAMES[SUITS.index(up[1])].title()} "
                   "are trump.")
    return out


# ----- the player's turn ---------------------------------------------------------------


def discard_range(legal: Sequence[Action]) -> tuple[int, int]:
    """The fewest and most cards a legal discard throws away."""
    sizes = getattr(legal, "sizes", None)
    if isinstance(sizes, range) and len(sizes):
        return sizes.start, sizes.stop - 1
    counts = [a.arg.bit_count() for a in legal if a.verb is Verb.DISCARD]
    return (min(counts), max(counts)) if counts else (0, 0)


def task(view: dict[str, Any], legal: Sequence[Action], names: Sequence[str],
         fancy: bool = True) -> str:
    """What the player to act is asked to do, in one sentence."""
    phase = view["phase"]
    if phase == "auction":
        if view["game"] == FORTY_ONE:
            return "Your bid: how many tricks will you take?"
        hb = view.get("high_bid")
        if hb:
            return f"Your bid: {names[view['high_bidder']]} has bid {bid_words(view, hb)}. " \
                   "Bid higher or pass."
        if not any(a.verb is Verb.PASS for a in legal):
            return "Your bid: everyone passed, so the dealer is bagged and must bid."
        return "Your bid: bid or pass."
    if phase == "raise":
        bid = bid_words(view, view['bid'])
        if any(a.verb is Verb.TRUMP for a in legal):
            return f"You won the bid at {bid}: raise to 30, or keep it (naming trump keeps it)."
        return f"You won the bid at {bid}: raise to 30 or keep it."
    if phase == "trump":
        if any(a.verb is Verb.DISCARD for a in legal):
            return "Name trump, or throw in your hand and go on the kitty."
        return "Name trump."
    if phase == "draw":
        lo, hi = discard_range(legal)
        n = len(view["hand"])
        if lo == hi:
            return f"Discard {lo}."
        if lo:
            return f"Discard {lo} to {hi} cards: you hold {n} and keep five at most."
        return f"Discard up to {hi} cards, or keep them all."
    if phase == "rob":
        return f"You may rob the turned-up {card_text(view['up_card'], fancy)}: pick the card " \
               "to give up, or pass."
    if phase == "rob-pack":
        return "You may rob the pack: give cards from your hand for as many discards, or pass."
    if phase == "call":
        return "Call a card: its holder is your partner for this hand. Or go alone."
    if phase == "booked":
        return "Before the first lead you may ask an opponent whether he is booked (holds " \
               "only trumps), or pass."
    if phase == "answer":
        return f"{names[view['bidder']]} asks: are you booked (only trumps)? Answer."
    if phase == "fold":
        return "Told yes: fold (you go down your bid, nobody else scores) or stay and play."
    if phase == "play":
        trick = view["trick"]["cards"]
        if not trick:
            return "Your lead."
        return f"Your play: {card_text(trick[0], fancy)} was led."
    return ""


def choice_label(view: dict[str, Any], a: Action, fancy: bool = True) -> str:
    """The words on the button (or in the plain prompt) for a non-card action."""
    v = a.verb
    if v is Verb.PASS:
        return {"raise": f"Keep {bid_words(view, view['bid'] or '')}",
                "rob": "Don't rob", "rob-pack": "Don't rob",
                "booked": "Don't ask"}.get(view["phase"], "Pass")
    if v is Verb.BID:
        return bid_words(view, bid_text(a.arg)) if view["game"] != FORTY_ONE else str(a.arg)
    if v is Verb.HOLD:
        return "Hold"
    if v is Verb.RAISE:
        return "Raise to 30"
    if v is Verb.TRUMP:
        return suit_text(SUITS[a.arg], fancy).title() if fancy else SUIT_NAMES[a.arg].title()
    if v is Verb.DISCARD:
        return "Go on the top card" if _went_on(view["history"], view["seat"]) \
            else "Go on the kitty"
    if v is Verb.CALL:
        return "Go alone" if a.arg == 0 else "Call"
    if v is Verb.ASK:
        return f"Ask seat {a.arg}"
    if v is Verb.ANSWER:
        return "Yes, booked" if a.arg else "No, not booked"
    if v is Verb.FOLD:
        return "Fold"
    if v is Verb.STAY:
        return "Stay"
    return str(a)


def plain_word(view: dict[str, Any], a: Action) -> str:
    """What to type for ``a`` in plain mode."""
    v = a.verb
    if v is Verb.PASS:
        return "pass"
    if v is Verb.BID:
        return bid_text(a.arg)
    if v is Verb.HOLD:
        return "hold"
    if v is Verb.RAISE:
        return "raise"
    if v is Verb.TRUMP:
        return SUIT_NAMES[a.arg]
    if v is Verb.DISCARD and view["phase"] in ("trump", "raise"):
        return "go"
    if v is Verb.CALL and a.arg == 0:
        return "alone"
    if v is Verb.ASK:
        return f"ask {a.arg}"
    if v is Verb.ANSWER:
        return "yes" if a.arg else "no"
    if v is Verb.FOLD or v is Verb.STAY:
        return str(v.value)
    if v is Verb.PLAY:
        return card_text(str(a).split()[-1], False)
    return str(a).split(" ", 1)[1]


# The engine's reasons that already say, to the player, what he may not do.
_WHOLE_REASONS = ("you may not ", "you do not hold ", "you may ", "you already ")


def refusal(v: dict[str, Any], a: Action, why: str, fancy: bool = True) -> str:
    """Why ``a`` is refused, said once: "You can't play 2♣: must play a trump: you hold
    4♥." or, where the reason names the action itself, just the reason ("You may not call
    5♦: it outranks every trump you hold.")."""
    text = pretty(why, fancy)
    if why.startswith(_WHOLE_REASONS):
        return text[0].upper() + text[1:] + "."
    return f"You can't {doing(v, a, fancy)}: {text}."


def doing(v: dict[str, Any], a: Action, fancy: bool = True) -> str:
    """An action as the words after "You can't ...": "play 2♣", "bid 15", "pass"."""
    verb = a.verb
    text = str(a).split()
    if verb is Verb.PLAY:
        return f"play {card_text(text[-1], fancy)}"
    if verb is Verb.BID:
        return f"bid {bid_words(v, bid_text(a.arg))}"
    if verb is Verb.TRUMP:
        return f"name {suit_text(SUITS[a.arg], fancy)} trump"
    if verb is Verb.DISCARD:
        if v["phase"] in ("trump", "raise"):
            return "go on the kitty"
        cards = text[2:]
        return "keep every card" if not cards else "discard " + " ".join(card_text(c, fancy)
                                                                          for c in cards)
    if verb is Verb.ROB:
        return "rob with " + " ".join(card_text(c, fancy) for c in text[2:])
    if verb is Verb.CALL:
        return "go alone" if a.arg == 0 else f"call {card_text(text[-1], fancy)}"
    if verb is Verb.RAISE:
        return "raise to 30"
    if verb is Verb.HOLD:
        return "hold"
    if verb is Verb.ASK:
        return f"ask seat {a.arg}"
    if verb is Verb.ANSWER:
        return f"answer {'yes' if a.arg else 'no'}"
    if verb is Verb.FOLD or verb is Verb.STAY:
        return str(verb.value)
    return "pass"


# ----- the rules explained -------------------------------------------------------------


def rank_tables(fancy: bool = True) -> list[str]:
    """The Forty-Fives rank of every suit, as trump and as a plain suit."""
    out = ["When trump, highest first:"]
    for t in (2, 1, 0, 3):
        out.append(f"  {suit_text(SUITS[t], fancy):<11} "
                   + " ".join(card_text(CARD_NAMES[c], fancy) for c in TRUMP_ORDER[t]))
    out.append("When not trump, highest first (A♥ is always a trump):" if fancy else
               "When not trump, highest first (AH is always a trump):")
    for s in (2, 1, 0, 3):
        out.append(f"  {suit_text(SUITS[s], fancy):<11} "
                   + " ".join(card_text(CARD_NAMES[c], fancy) for c in OFF_ORDER[s]))
    return out


def rules_in_words(rules: Rules, fancy: bool = True) -> list[str]:
    """The rules being played, as a list of short paragraphs a player can read."""
    preset = PRESETS[rules.preset]
    head = f"{game_name(preset.name)} ({rules.preset})"
    if isinstance(rules, FortyOneRules):
        return [head,
                "Four players, partners sit opposite. Thirteen cards each; hearts are always "
                "trump and aces are high. You must follow suit if you can.",
                "Each player bids the tricks he will take, 1 to 13, starting left of the "
                f"dealer. If the bids total less than {rules.min_total}, the hand is thrown in.",
                f"Take at least your bid to score it (bids of {rules.double_from} or more "
                "score double); take fewer and you lose it. Extra tricks are worth nothing.",
                f"A team wins when one player has {rules.target} or more"
                + (" and his partner is above zero." if rules.partner_positive else ".")]
    assert isinstance(rules, FortyFivesRules)
    r = rules
    out = [head]
    teams = {"pairs": "in two pairs, partners opposite", "three-pairs": "in three pairs",
             "two-threes": "in two teams of three, alternate seats",
             "individual": "each for himself"}[r.teams]
    out.append(f"{r.players} players {teams}. Five cards each"
               + (f", {r.kitty} to the kitty." if r.kitty else "."))
    if r.auction == "none":
        out.append("The top card of the pack is turned up: its suit is trump."
                   + (" The holder of the ace of trumps may rob it, giving up any card; if an "
                      "ace is turned up the dealer may rob." if r.robbing else ""))
    else:
        kind = {"single": "Each player bids once, starting left of the dealer; the dealer "
                          "bids last.",
                "hold-reopens": "Each player bids once, the dealer last; if the dealer holds, "
                                "bidding goes on among those who have not passed.",
                "open": "Bidding goes round until all but one have passed."}[r.auction]
        bids = [bid_text(b) for b in range(r.min_bid, 31, 5)]
        if r.bid_30_for_60:
            bids.append("30 for 60")
        if r.bid_60_for_120:
            bids.append("60 for 120")
        out.append(f"{kind} Bids: {', '.join(bids)}."
                   + (" The dealer may hold (take the bid at the high)." if r.dealer_may_hold
                      else ""))
        out.append("If everyone passes, " + (
            f"the dealer is bagged and must bid {r.min_bid}." if r.all_pass == "dealer-bagged"
            else "the hand is thrown in and the next player deals."))
        if r.winner_may_raise:
            out.append("The winner of a bid under 30 may raise to 30 before naming trump.")
        out.append("The bidder names trump" + (
            " (only a suit he holds a trump of)" if r.trump_needs_card else "")
                   + (" after seeing the kitty." if r.kitty_before_trump else
                      ", then takes the kitty." if r.kitty else "."))
        keep = "any number of cards" if r.keep_min == 0 or r.four_and_a_flip else \
            f"all but {r.keep_min}"
        out.append(f"Each player may discard {keep}; the bidder comes down to five. The dealer "
                   "deals replacements from his left"
                   + (", at most three at a time round." if r.replenish == "by-threes" else ".")
                   + (" A player who discards all five gets his fifth card face up."
                      if r.four_and_a_flip else ""))
    lead = {"bidder": "The bidder leads the first trick.",
            "left-of-bidder": "The player left of the bidder leads the first trick.",
            "left-of-dealer": "The player left of the dealer leads the first trick."}[r.lead]
    follow = ("When trump is led you must play a trump if you have one; when another suit is "
              "led you may play any card." if r.follow == "trump-only" else
              "When trump is led you must play a trump if you have one; when another suit is "
              "led you must follow suit or trump.")
    a_h = "A♥" if fancy else "AH"
    renege = {"top3": f"The 5, the J of trumps and {a_h} may be withheld (reneged) when a "
                      "lower trump is led, never when a higher one is.",
              "five-only": "Only the 5 of trumps may be withheld when a lower trump is led.",
              "none": "No trump may be withheld."}[r.renege]
    out.append(f"{lead} {follow} {renege}"
               + (f" When {a_h} is led, every trump must be played." if r.hearts_on_hearts
                  else ""))
    bonus = "the trick holding the highest trump played" if r.bonus == "best-trump" else \
        "the trick holding the 5 of trumps"
    out.append(f"Each trick is worth 5; {bonus} is worth 5 more.")
    if r.auction != "none":
        took = "all it took" if r.bidder_scores == "taken" else "its bid"
        extra = []
        if r.made_30_scores_60:
            extra.append("a made 30 scores 60")
        if r.bid_30_for_60:
            extra.append("30 for 60 wins or loses 60")
        if r.lock_at is not None:
            extra.append(f"a side on {r.lock_at} or more scores only when it bid")
        out.append(f"The bidding side scores {took} if it makes its bid, else loses the bid; "
                   "the others score what they take" + ("; " + "; ".join(extra) if extra else "")
                   + ".")
    out.append(f"Game is {r.target}." + (
        " The game ends the moment a side reaches it, mid-hand." if r.auction == "none" else
        " If several sides pass it in one hand, the bidders win." if r.end == "bidder-goes-out"
        else " Once two sides are within 30 of it, only a bidding side can go out.")
               + (" A score landing on 45 goes back to 0." if r.forty_five_resets else "")
               + (" Best two games of three." if r.match == "best-of-3" else ""))
    if r.call_partner:
        out.append("After the draw the bidder calls a card (or goes alone); its holder is his "
                   "partner for the hand and must play it by the second trick.")
    return out
