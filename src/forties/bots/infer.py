"""Inference for 45s card play: imagined deals weighed by what the others did.

The sampler (``sampler``) deals the hidden cards at random within the hard facts.
Here each such deal is weighed by how likely the other seats' observed actions are
with the cards it gives them, under a model of how they act, and the deals the
expert solves are drawn in proportion to that weight (sampling importance
resampling: many cheap deals, a few solved):

- **The auction and the draw.** A seat's class (what it bid or passed, and how many
  cards it kept in the draw: ``B20/KB3`` for the bidder at 20 who kept 3 cards,
  ``N0-25/K1`` for a seat that never bid, passed when 25 was the least it could bid,
  and kept one card) says something of its cards when the play began, read as a few
  features: which of the top four trumps it held and how many trumps. How often each
  feature goes with each class is counted from hands that ``basic`` plays against
  itself (``python -m forties.bots.infer`` counts them again; ``infer_counts.json``).
  The sampler deals the hidden cards evenly within the hard facts, so a deal's
  weight is, for each other seat, P(its features | its class), read from the
  counts, over the sampler's own odds of those features (their share among the
  deals drawn): the posterior over the proposal. The counts are smoothed (see
  ``Table``) and mixed with the features' overall frequency (``FLOOR``), so that no
  deal is ruled out by a fault of the model.
- **The play.** A seat that played last to a trick that the other side was winning
  and did not take it held no card that could (every card that beats the winning
  card may be played in 45s): deals in which it did are weighed by ``PLAY_FLOOR``.
- **The opponents' play, card by card** (``policy``; the level ``expert-policy``): each
  card an opponent played is read as ``basic`` would have played it (``basic.play_card``)
  with the cards the deal gives it then; a deal in which ``basic`` would have played
  another card is weighed by ``POLICY_FLOOR`` for each such card. A partner's cards are
  read by the rule of the last seat only (above), but by the level ``expert-partner``,
  which reads them as ``basic``'s too.

**``expert-calib``** weighs its deals by another table (``calib_features``,
``infer_calib_counts.json``): how many of the top four trumps each seat held (not which), how
many trumps and how many off-suit kings (``basic`` keeps its kings with two trumps or
fewer), from a proposal that deals a seat that kept cards its off-suit kings more often
(``sampler.knowledge(kings=True)``). And it divides out the sampler's odds of each seat's
features as they were when the play began (``Evidence.fit_start``), not their share among
the deals weighed. That share is taken under everything the seat knows now: its own cards
(the Merrimack Valley bidder, who leads, sees 1.5 of the top four trumps on average in its
hand, the kitty and its discards) and the cards played. Dividing it out put each seat's
features back to its class's average over all deals, limited to the features still
possible: a defender's chance of holding a top trump the bidder holds went to holding
none, and the deals put the hidden top trumps in the others' hands less often than the
plain sampler (0.43 against 0.47, truth 0.55; ``python -m lab.infer
calibration``). No default uses it yet.

The level ``expert-infer`` weighs its deals so in every preset, without the reading of
the opponents' cards; ``expert-policy`` with it; the default ``expert`` where a duplicate
match showed it stronger (``INFER_PRESETS`` and ``POLICY_PRESETS`` in ``bots.expert``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from importlib import resources
from typing import Any

from ..actions import parse_bid
from ..cards import cards_of, parse_suit
from ..fortyfives import KEY, PRIVILEGED, TRUMP_ORDER, TRUMPS, follow_mask
from ..rules import FortyFivesRules, rules_from_json
from ..state import GameState, IllegalActionError
from .basic import play_card
from .sampler import Knowledge, _kept, _position, deal_world, knowledge, start_knowledge

FLOOR = 0.1  # each likelihood is mixed with the class's overall frequency this much
SMOOTH = 20.0  # pseudo-counts towards the frequency among the seats of the class's role
MIN_COUNT = 500  # a bidder's class seen less often is pooled with the bids below it
PLAY_FLOOR = 0.15  # the weight of a deal in which a seat did not win a trick it could
POLICY_FLOOR = 0.3  # the weight, for each card, of a deal in which basic would play another
# the two kinds of opponent ``expert-types`` reads each one as, one as likely as the other
# (prior, weight of each card basic would not have played): a player like the expert, who
# plays basic's card about six times in ten, and one who plays it nearly always
POLICY_TYPES = ((0.5, POLICY_FLOOR), (0.5, 0.03))
OVERSAMPLE = 3  # cheap deals drawn for each deal solved
# ``expert-pool``: the reading leaves few deals with most of the weight (of 768 drawn, as
# much as some 120 to 280 evenly weighed deals would hold: ``bench.infer spread``), so it
# draws more to choose from; against ``basic`` it gained on Auction 45, against the expert
# it lost there (docs/lab-notes.md), so no default draws so
POOL_OVERSAMPLE = 8
SOFT = True  # the proposal keeps the sampler's own soft facts (its odds are divided out)
TEMPER = 1.0  # each deal's weight is its likelihood to this power
FEATURES = 80
# ``expert-calib``: how many of the top four trumps, how many trumps (0 to 4+) and how
# many off-suit kings (0 to 2+) a hand holds (``calib_features``)
CALIB_FEATURES = 75
OFF_KINGS = [sum(1 << (s * 13 + 11) for s in range(4)) & ~TRUMPS[t] for t in range(4)]


def calib_features(hand: int, trump: int) -> int:
    """How many of the top four trumps a hand holds (0 to 4), how many trumps (0 to 4+)
    and how many off-suit kings (0 to 2+): the features of ``expert-calib``'s table.
    Counts, not which cards: a seat's class says how strong its trumps are, and that
    mass moves to the top trumps still hidden when the seat weighing its deals holds
    some of them (see ``Evidence``)."""
    top = sum(1 for c in TRUMP_ORDER[trump][:4] if hand >> c & 1)
    trumps = min(4, (hand & TRUMPS[trump]).bit_count())
    kings = min(2, (hand & OFF_KINGS[trump]).bit_count())
    return (top * 5 + trumps) * 3 + kings


def features(hand: int, trump: int) -> int:
    """Which of the top four trumps a hand holds, and how many trumps (0 to 4+)."""
    top = TRUMP_ORDER[trump]
    f = 0
    for i in range(4):
        if hand >> top[i] & 1:
            f |= 1 << i
    return f * 5 + min(4, (hand & TRUMPS[trump]).bit_count())


def auction_classes(history: Sequence[str], n: int, min_bid: int) -> dict[int, str]:
    """Each seat's part in the auction: ``B20`` for the bidder at 20; ``N15-25`` for a
    seat whose highest bid was 15 and which passed when 25 was the least it could bid
    (``N0-20``: it never bid)."""
    top = [0] * n
    refused = [0] * n
    high = 0
    bidder = None
    for h in history:
        parts = h.split()
        who, verb = int(parts[0]), parts[1]
        if verb in ("bid", "raise"):
            try:
                high = min(30, parse_bid(parts[2]))
            except ValueError:
                high = 30
            top[who] = max(top[who], high)
            bidder = who
        elif verb == "hold":
            top[who] = max(top[who], high)
            bidder = who
        elif verb == "pass":
            refused[who] = min(35, max(high + 5, min_bid))
        else:
            break
    out = {}
    for s in range(n):
        if s == bidder:
            out[s] = f"B{top[s]}"
        elif refused[s]:
            out[s] = f"N{top[s]}-{refused[s]}"
    return out


def kept_class(view: dict[str, Any], s: int) -> str | None:
    """``K2`` for a seat that kept 2 of its cards in the draw (``KB``: the bidder), or
    None when there was no draw."""
    counts = view.get("discard_counts") or []
    if not counts or view.get("up_card"):
        return None
    return f"K{'B' if view.get('bidder') == s else ''}{_kept(view, s)}"


def seat_class(auction: str | None, kept: str | None) -> str:
    """One seat's whole class: its part in the auction and in the draw (``B20/KB3``)."""
    return f"{auction or '-'}/{kept or '-'}"


class Table:
    """Counts of (class, features) from self-play, read as P(features | class).

    A bidder's class seen fewer than ``MIN_COUNT`` times (``basic`` seldom bids 30 in
    Merrimack Valley) is pooled with the bids below it (30 read as "25 or more"); every
    class is smoothed towards the features' frequency among the seats of its role (the
    bidder, seats that passed, seats outbid) and mixed (``FLOOR``) with their frequency
    over every seat."""

    def __init__(self, counts: dict[str, list[int]], size: int = FEATURES) -> None:
        self.counts = counts
        self.size = size
        total = [0] * size
        for row in counts.values():
            for f, c in enumerate(row):
                total[f] += c
        grand = sum(total) or 1
        self.prior = [t / grand for t in total]
        self.roles: dict[str, list[float]] = {}
        for role in {cls[0] for cls in counts}:
            pooled = [0] * size
            for cls, row in counts.items():
                if cls[0] == role:
                    for f, c in enumerate(row):
                        pooled[f] += c
            n = sum(pooled)
            self.roles[role] = [(pooled[f] + SMOOTH * self.prior[f]) / (n + SMOOTH)
                                for f in range(size)]
        self.rows: dict[str, list[float]] = {}

    def _pooled(self, cls: str) -> list[int]:
        row = [0] * self.size
        level = None
        if cls.startswith("B"):
            bid, kept = cls[1:].split("/")
            level = int(bid)
        while True:
            for f, c in enumerate(self.counts.get(cls, ())):
                row[f] += c
            if level is None or sum(row) >= MIN_COUNT or level <= 0:
                return row
            level -= 5
            cls = f"B{level}/{kept}"

    def given(self, cls: str) -> list[float]:
        """P(features | cls)."""
        if cls not in self.rows:
            row = self._pooled(cls)
            n = sum(row)
            base = self.roles.get(cls[0], self.prior)
            self.rows[cls] = [
                (1 - FLOOR) * (row[f] + SMOOTH * base[f]) / (n + SMOOTH)
                + FLOOR * self.prior[f] for f in range(self.size)]
        return self.rows[cls]


_TABLES: dict[tuple[str, bool], Table] = {}
# The counted tables, package data beside this module: features, then ``calib_features``.
COUNTS_FILES = {False: "infer_counts.json", True: "infer_calib_counts.json"}


def read_counts(calib: bool = False) -> dict[str, dict[str, list[int]]]:
    """Every preset's counts (class -> features), as ``main`` wrote them."""
    text = resources.files(__package__).joinpath(COUNTS_FILES[calib]).read_text("utf-8")
    counts: dict[str, dict[str, list[int]]] = json.loads(text)["counts"]
    return counts


def table(preset: str, calib: bool = False) -> Table | None:
    """The counted table of ``preset`` (None where it has none: no auction, no draw);
    with ``calib``, ``expert-calib``'s (``calib_features``, ``infer_calib_counts.json``)."""
    if (preset, calib) not in _TABLES:
        counts = read_counts(calib)
        if preset not in counts:
            return None
        _TABLES[preset, calib] = Table(counts[preset], CALIB_FEATURES if calib else FEATURES)
    return _TABLES[preset, calib]


class Evidence:
    """What the other seats did, read from one seat's view, ready to weigh deals."""

    def __init__(self, view: dict[str, Any], k: Knowledge, policy: bool = False,
                 types: Sequence[tuple[float, float]] | None = None,
                 partner: bool = False, calib: bool = False) -> None:
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyFivesRules)
        self.seat, self.n = view["seat"], view["players"]
        self.trump = parse_suit(view["trump"])
        self.plays = k.plays
        # ``expert-calib``: the features are counts of top trumps, trumps and off-suit kings
        self.features_of = calib_features if calib else features
        # per other seat, the sampler's odds of each of its features when the play began
        # (``fit_start``; None: read from the deals weighed)
        self.start: list[dict[int, float]] | None = None
        # with ``policy``: None, each mismatching card weighs POLICY_FLOOR; or the kinds of
        # player an opponent may be, (prior, weight of each mismatching card) each
        self.types = types
        # per other seat, P(features | what it did in the auction and the draw)
        self.given: list[list[float] | None] = [None] * self.n
        tab = table(rules.preset, calib) if view.get("bidder") is not None else None
        if tab is not None:
            auction = auction_classes(view.get("history", []), self.n, rules.min_bid)
            for s in range(self.n):
                if s != self.seat:
                    self.given[s] = tab.given(seat_class(auction.get(s), kept_class(view, s)))
        # (seat, index of the trick's first play, the card it did not beat)
        self.ducks: list[tuple[int, int, int]] = []
        sides = [set(x) for x in view["sides"]]
        # (seat, index of its play, its cards played from then on, the trick's cards
        # before it, its leader, every card played before it, whether its side bids): the
        # opponents' cards read by ``basic``
        self.reads: list[tuple[int, int, int, list[int], int, int, bool]] = []
        self.sides = view["sides"]
        self.follow = (PRIVILEGED[rules.renege][self.trump], rules.follow == "suit-or-trump",
                       rules.hearts_on_hearts)
        if not rules.call_partner and self.n > 2:
            mine = next(x for x in sides if self.seat in x)
            # with ``policy`` the opponents' cards (with ``partner`` the partner's too) are
            # read by ``basic``'s rule instead
            read = set(range(self.n)) - mine if policy else set()
            if policy and partner:
                read |= mine - {self.seat}
            self._read_ducks(sides, read | {self.seat})
            if policy:
                self._read_plays(view, read)

    def _read_ducks(self, sides: list[set[int]], skip: set[int]) -> None:
        """The tricks the last seat could have won and did not (but the seats ``skip``)."""
        n = self.n
        for i in range(0, len(self.plays) - n + 1, n):
            trick = self.plays[i:i + n]
            last = trick[-1]
            if last.seat in skip:
                continue
            cards = [a.arg.bit_length() - 1 for a in trick]
            led = cards[0]
            suit = self.trump if TRUMPS[self.trump] >> led & 1 else led // 13
            key = KEY[self.trump][suit]
            best = max(range(n - 1), key=lambda j: key[cards[j]])
            if any(trick[best].seat in x and last.seat in x for x in sides):
                continue  # its partner was winning
            if key[cards[-1]] > key[cards[best]]:
                continue  # it won
            self.ducks.append((last.seat, i, cards[best]))

    def _read_plays(self, view: dict[str, Any], read: set[int]) -> None:
        bidder = view.get("bidder")
        played = 0
        for i, a in enumerate(self.plays):
            start = i - i % self.n
            if a.seat in read:
                bids = bidder is not None and any(bidder in x and a.seat in x for x in self.sides)
                later = sum(b.arg for b in self.plays[i:] if b.seat == a.seat)
                cards = [b.arg.bit_length() - 1 for b in self.plays[start:i]]
                self.reads.append((a.seat, i, later, cards, self.plays[start].seat, played,
                                   bids))
            played |= a.arg

    def policy_weight(self, hands: Sequence[int]) -> float:
        """How likely the opponents' cards are with ``hands``, each read as ``basic``'s."""
        w = 1.0
        plays, trump, n, sides = self.plays, self.trump, self.n, self.sides
        priv, suit_or_trump, hoh = self.follow
        missed: dict[int, int] = {}  # per opponent, its cards basic would not have played
        for s, i, later, cards, leader, played, bids in self.reads:
            held = hands[s] | later
            options = held if not cards else follow_mask(held, cards[0], trump, priv,
                                                         suit_or_trump, hoh)
            card = play_card(s, held, played, cards, leader, n, trump, sides, bids,
                             cards_of(options))
            if 1 << card != plays[i].arg:
                if self.types is None:
                    w *= POLICY_FLOOR
                else:
                    missed[s] = missed.get(s, 0) + 1
        if self.types is not None:
            # each opponent is one kind of player for the whole hand: its cards' weights
            # are multiplied within each kind, then averaged over the kinds by their priors
            for m in missed.values():
                w *= sum(prior * floor ** m for prior, floor in self.types)
        return w

    def fit_start(self, k: Knowledge, draws: int, rng: random.Random) -> None:
        """Read the sampler's odds of each seat's features from ``draws`` deals of the
        start of the play, as ``k``'s seat knew it then (``sampler.start_knowledge``).
        Divided out of the weights in place of their share among the deals weighed, the
        proposal's own soft facts are taken out, but not what the play and the seat's
        own cards have taught since (``expert-calib``; the share among the deals weighed
        takes that out too, and so undoes it: a seat whose class says it held a top trump
        keeps one in the deals as often after those trumps have been played as before)."""
        if not self.plays:
            return  # the start of the play: the deals weighed are drawn so
        deals = draw_deals(start_knowledge(k), draws, rng)
        if not deals:
            return
        self.start = [{} for _ in range(self.n)]
        for d in deals:
            for s, given in enumerate(self.given):
                if given is not None:
                    f = self.features_of(d[s], self.trump)
                    self.start[s][f] = self.start[s].get(f, 0.0) + 1.0 / len(deals)

    def features(self, hands: Sequence[int]) -> list[int]:
        """Each seat's features when the play began (-1 where nothing is known of it)."""
        start = list(hands)
        for a in self.plays:
            start[a.seat] |= a.arg
        return [-1 if g is None else self.features_of(start[s], self.trump)
                for s, g in enumerate(self.given)]

    def play_weight(self, hands: Sequence[int]) -> float:
        """How likely the others' plays are with ``hands`` (each seat's cards now)."""
        w = 1.0
        for s, i, card in self.ducks:
            held = hands[s]
            for a in self.plays[i:]:
                if a.seat == s:
                    held |= a.arg
            if _beats_any(held, card, self.trump):
                w *= PLAY_FLOOR
        return w

    def weights(self, deals: Sequence[Sequence[int]]) -> list[float]:
        """Each deal's weight: for each other seat, P(its features | what it did) over
        the share of ``deals`` with those features (the sampler's own odds of them), and
        ``play_weight``."""
        feats = [self.features(d) for d in deals]
        out = [self.play_weight(d) for d in deals]
        if self.reads:
            out = [w * self.policy_weight(d) for w, d in zip(out, deals, strict=True)]
        for s, given in enumerate(self.given):
            if given is None:
                continue
            if self.start is not None:
                odds = self.start[s]
                least = 0.5 / len(deals)  # a feature no deal of the start had
                for j, fs in enumerate(feats):
                    out[j] *= given[fs[s]] / max(odds.get(fs[s], 0.0), least)
                continue
            seen: dict[int, int] = {}
            for fs in feats:
                seen[fs[s]] = seen.get(fs[s], 0) + 1
            for j, fs in enumerate(feats):
                out[j] *= given[fs[s]] * len(deals) / seen[fs[s]]
        return out


def _beats_any(held: int, card: int, trump: int) -> bool:
    """Whether ``held`` has a card that beats ``card`` (the best card of a trick)."""
    tm = TRUMPS[trump]
    if tm >> card & 1:
        key = KEY[trump][trump]
        return any(key[c] > key[card] for c in cards_of(held & tm))
    if held & tm:
        return True
    suit = card // 13
    key = KEY[trump][suit]
    return any(key[c] > key[card] for c in cards_of(held & (0x1FFF << (13 * suit))))


def draw_deals(k: Knowledge, want: int, rng: random.Random) -> list[list[int]]:
    """Up to ``want`` cheap deals (each seat's hidden cards) consistent with ``k``, in at
    most four times as many tries."""
    cands: list[list[int]] = []
    tries = 0
    while len(cands) < want and tries < want * 4:
        tries += 1
        hands = deal_world(k, rng)
        if hands is not None:
            cands.append(hands)
    return cands


def weighted_worlds(view: dict[str, Any], count: int, rng: random.Random,
                    oversample: int | None = None, soft: bool | None = None,
                    policy: bool = False,
                    types: Sequence[tuple[float, float]] | None = None,
                    partner: bool = False, calib: bool = False) -> list[tuple[GameState, float]]:
    """Up to ``count`` play positions consistent with ``view``, drawn in proportion to how
    likely each is to have produced what the other seats did, each with its share (how
    many of the ``count`` draws fell on it). With ``calib`` (``expert-calib``), the table
    of ``calib_features`` and a proposal that deals kept kings too (``sampler.knowledge``)."""
    oversample = OVERSAMPLE if oversample is None else oversample
    k = knowledge(view, soft=SOFT if soft is None else soft, kings=calib)
    ev = Evidence(view, k, policy, types, partner, calib)
    cands = draw_deals(k, count * oversample, rng)
    if not cands:
        return []
    if calib:
        ev.fit_start(k, len(cands), rng)
    weights = [w ** TEMPER for w in ev.weights(cands)]
    # systematic resampling: ``count`` evenly spaced draws through the cumulative weight
    total = sum(weights)
    step = total / count
    u = rng.random() * step
    picks: dict[int, int] = {}
    acc = 0.0
    j = 0
    for i, wt in enumerate(weights):
        acc += wt
        while j < count and u + j * step < acc:
            picks[i] = picks.get(i, 0) + 1
            j += 1
    rules = rules_from_json(view["rules"])
    out: list[tuple[GameState, float]] = []
    for i, times in picks.items():
        start = list(cands[i])
        for a in k.plays:
            start[a.seat] |= a.arg
        try:
            out.append((_position(view, rules, start, k.plays), float(times)))
        except IllegalActionError:
            continue
    return out


def _fit(preset: str, hands: int, seed: int = 1,
         calib: bool = False) -> dict[str, list[int]]:
    """Count (class, features) over ``hands`` hands of ``basic`` against itself (with
    ``calib``, ``calib_features``)."""
    from .. import new_game
    from ..rules import build_rules
    from .basic import BasicBot
    from .play import play_hand

    players = build_rules(preset).players
    bot = BasicBot()
    counts: dict[str, list[int]] = {}
    for h in range(hands):
        g = new_game(preset, seed=seed * 1_000_003 + h, first_dealer=h % players)
        play_hand(g, [bot] * g.n, to_play=True)
        if g.hand_over:
            continue
        view = g.view(None)
        rules = rules_from_json(view["rules"])
        assert isinstance(rules, FortyFivesRules)
        trump = parse_suit(view["trump"])
        auction = auction_classes(view["history"], g.n, rules.min_bid)
        for s in range(g.n):
            f = (calib_features if calib else features)(g.hands[s], trump)
            counts.setdefault(seat_class(auction.get(s), kept_class(view, s)),
                              [0] * (CALIB_FEATURES if calib else FEATURES))[f] += 1
    return counts


def write_counts(path: str, hands: int, out: dict[str, dict[str, list[int]]],
                 calib: bool = False) -> None:
    """Write the counts as JSON (``COUNTS_FILES``), a class to a line so that a count
    made again shows in a diff as the rows it changed."""
    what = "calib_features" if calib else "features"
    presets = []
    for p, counts in out.items():
        rows = ",\n".join(f"      {json.dumps(cls)}: {json.dumps(counts[cls])}"
                           for cls in sorted(counts))
        presets.append(f"    {json.dumps(p)}: {{\n{rows}\n    }}")
    about = (f"Counts for forties.bots.infer: (class, {what}) over {hands:,} hands of basic "
             "against itself per preset (python -m forties.bots.infer writes this file).")
    body = ",\n".join(presets)
    with open(path, "w", encoding="utf-8") as f:
        f.write(f'{{\n  "about": {json.dumps(about)},\n  "hands": {hands},\n'
                f'  "counts": {{\n{body}\n  }}\n}}\n')


def main(argv: list[str] | None = None) -> None:
    """Count the tables again: ``python -m forties.bots.infer [HANDS] [DIR]`` writes
    ``infer_counts.json`` and ``infer_calib_counts.json`` beside this module (or in DIR)."""
    import os
    import sys

    args = sys.argv[1:] if argv is None else argv
    hands = int(args[0]) if args else 60_000
    where = args[1] if len(args) > 1 else os.path.dirname(__file__)
    presets = ("merrimack-valley", "auction-45", "call-your-partner")
    for calib, name in COUNTS_FILES.items():
        out = {p: _fit(p, hands, calib=calib) for p in presets}
        path = os.path.join(where, name)
        write_counts(path, hands, out, calib)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
