"""How well the imagined deals place the cards that matter, with and without inference.

``python -m lab.infer [POSITIONS] [PRESET]`` stops hands of ``basic``
against itself at a random card of the play, and for the seat to play asks where
each of the top four trumps it cannot see lies: the share of its imagined deals
(96, as the expert draws) that give each card to each other seat, plain
(``sampler.worlds``, as ``expert-plain`` draws them), weighed (``infer``, as
``expert-infer`` draws them) and weighed reading the opponents' cards as ``basic``'s
too (as ``expert-policy`` draws them). It prints the mean log-loss of the true holder (in
bits, lower is better; a share of 0 is counted as 1/200) and the mean share given
to the true holder, over the same positions. The deals are played by ``basic``,
the model ``infer`` was counted on, so this measures the inference where its
model holds; the duplicate match measures it against the expert.

``python -m lab.infer ducks [HANDS]`` plays HANDS Merrimack Valley hands of
``expert`` against itself and counts how often a seat last to a trick that the other
side is winning, holding a card that would take it, does not: what ``infer`` reads
from such a trick (``PLAY_FLOOR``) should be above that rate.

``python -m lab.infer agree [HANDS] [PRESET]`` plays HANDS hands of ``expert``
against itself and counts how often its card, where it had a choice, is the one
``basic`` would have played: how far ``expert-policy``'s reading of the opponents'
cards (``POLICY_FLOOR``) holds against players other than ``basic``.

``python -m lab.infer spread [POSITIONS] [PRESET]`` stops hands of ``basic``
against itself at a card of the first four tricks and, for each number of tricks played,
says how many of the deals the expert draws to choose its solved ones from the reading of
the opponents' cards leaves the weight on (their effective number, the median): why
``expert-pool`` draws more.

``python -m lab.infer calibration [HANDS] [PRESET]`` plays HANDS hands of
``basic`` against itself and, from the leader's seat at the first card of each of the
first four tricks, asks for each kind of card it cannot see (off-suit king, other
off-suit card, top-4 trump, other trump) how often it is in another seat's hand (and not
in the stock, the discards or the kitty): in truth, in the plain sampler's deals, in the
deals weighed as the preset's default ``expert`` weighs them (reading the opponents' cards
where it does), and weighed as ``expert-calib`` does (``infer.calib_features``).
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Iterator

from forties import new_game
from forties.actions import Action
from forties.bots import play_hand
from forties.bots.basic import BasicBot
from forties.bots.expert import INFER_PRESETS, PLAY_WORLDS, POLICY_PRESETS, ExpertBot
from forties.bots.infer import OVERSAMPLE, Evidence, _beats_any, draw_deals, weighted_worlds
from forties.bots.sampler import knowledge, worlds
from forties.cards import cards_of
from forties.fortyfives import KEY, TRUMP_ORDER, TRUMPS, FortyFivesState
from forties.state import GameState, Phase


def _positions(preset: str, count: int, seed: int, tricks: int = 3) -> list[FortyFivesState]:
    rng = random.Random(seed)
    bot = BasicBot()
    out: list[FortyFivesState] = []
    h = 0
    while len(out) < count:
        g = new_game(preset, seed=seed * 1_000_003 + h)
        h += 1
        stop = rng.randrange(tricks * g.n)  # a card among the first ``tricks`` tricks
        while not g.hand_over:
            if g.phase is Phase.PLAY:
                if stop == 0:
                    break
                stop -= 1
            s = g.turn
            assert s is not None
            g.apply(bot.choose(g.view(s), g.legal_actions()))
        if not g.hand_over and isinstance(g, FortyFivesState) and g.bidder >= 0:
            out.append(g)
    return out


def _score(g: FortyFivesState, ws: list[tuple[GameState, float]]) -> tuple[float, float, int]:
    seat = g.turn
    assert seat is not None
    total = sum(w for _, w in ws)
    loss = share = 0.0
    cards = 0
    for c in TRUMP_ORDER[g.trump][:4]:
        holder = next((s for s in range(g.n) if g.hands[s] >> c & 1), None)
        if holder is None or holder == seat:
            continue  # played, discarded, in the stock, or its own
        p = sum(w for st, w in ws if st.hands[holder] >> c & 1) / total
        loss += -math.log2(max(p, 1 / 200))
        share += p
        cards += 1
    return loss, share, cards


def report(positions: int = 300, preset: str = "merrimack-valley", seed: int = 1) -> None:
    plain = [0.0, 0.0, 0]
    weighed = [0.0, 0.0, 0]
    reading = [0.0, 0.0, 0]
    for i, g in enumerate(_positions(preset, positions, seed)):
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        rng = random.Random(i)
        for acc, ws in ((plain, [(w, 1.0) for w in worlds(view, 96, rng)]),
                        (weighed, weighted_worlds(view, 96, rng)),
                        (reading, weighted_worlds(view, 96, rng, policy=True))):
            loss, share, cards = _score(g, ws)
            acc[0] += loss
            acc[1] += share
            acc[2] += cards
    for name, acc in (("plain (expert-plain)", plain), ("weighed (expert-infer)", weighed),
                      ("weighed, the opponents' cards read (expert-policy)", reading)):
        n = max(1, int(acc[2]))
        print(f"{preset}, {positions} positions, {n} hidden top trumps: {name}: log-loss "
              f"{acc[0] / n:.3f} bits, share on the true holder {acc[1] / n:.3f}")


def _expert_turns(hands: int, preset: str, first_seed: int,
                  stride: int) -> Iterator[tuple[GameState, list[Action], Action]]:
    """Every turn of ``hands`` hands of ``expert`` against itself, before its action is
    applied: the game, the legal actions and the action chosen (hand ``h`` dealt by seed
    ``first_seed + h``, its seat ``s`` played by an expert of seed ``h * stride + s``)."""
    for h in range(hands):
        g = new_game(preset, seed=first_seed + h)
        bots = [ExpertBot(random.Random(h * stride + s)) for s in range(g.n)]
        while not g.hand_over:
            s = g.turn
            assert s is not None
            legal = list(g.legal_actions())
            a = bots[s].choose(g.view(s), legal)
            yield g, legal, a
            g.apply(a)


def duck_rate(hands: int = 25) -> tuple[int, int]:
    """(tricks where the last seat could have taken the other side's trick, times it
    did not) over ``hands`` hands of ``expert`` against itself."""
    could = ducked = 0
    for g, _, a in _expert_turns(hands, "merrimack-valley", 70_000, 4):
        assert isinstance(g, FortyFivesState)
        if g.phase is Phase.PLAY and len(g.trick_cards) == 3:
            s = a.seat
            cards = list(g.trick_cards)
            suit = g.trump if TRUMPS[g.trump] >> cards[0] & 1 else cards[0] // 13
            key = KEY[g.trump][suit]
            best = max(range(3), key=lambda j: key[cards[j]])
            leader = (s + 1) % 4
            if (leader + best) % 2 != s % 2 and _beats_any(g.hands[s], cards[best], g.trump):
                could += 1
                ducked += key[a.arg.bit_length() - 1] <= key[cards[best]]
    return could, ducked


def agreement(hands: int = 25, preset: str = "merrimack-valley") -> dict[int, list[int]]:
    """For each number of legal cards, [times ``expert``'s card was ``basic``'s, choices],
    over ``hands`` hands of ``expert`` against itself."""
    basic = BasicBot()
    out: dict[int, list[int]] = {}
    for g, legal, a in _expert_turns(hands, preset, 90_000, 7):
        if g.phase is Phase.PLAY and len(legal) > 1:
            row = out.setdefault(len(legal), [0, 0])
            row[0] += basic.choose(g.view(a.seat), legal) == a
            row[1] += 1
    return out


def spread(positions: int = 100, preset: str = "merrimack-valley",
           seed: int = 2) -> dict[int, list[float]]:
    """For each number of tricks played, the effective share of the cheap deals drawn
    (PLAY_WORLDS * OVERSAMPLE, as the expert draws them) that the weighing, with the
    opponents' cards read, leaves the weight on, (sum of weights)^2 / sum of squares over the
    number drawn, at ``positions`` positions of ``basic`` against itself."""
    rng = random.Random(seed)
    out: dict[int, list[float]] = {}
    for g in _positions(preset, positions, seed, tricks=4):
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        k = knowledge(view)
        ev = Evidence(view, k, policy=True)
        if not ev.reads:
            continue
        ws = ev.weights(draw_deals(k, PLAY_WORLDS * OVERSAMPLE, rng))
        if sum(ws) > 0:
            played = sum(len(t["cards"]) for t in view["tricks"]) // g.n
            out.setdefault(played, []).append(sum(ws) ** 2 / sum(w * w for w in ws) / len(ws))
    return out


def print_spread(positions: int, preset: str) -> None:
    print(f"{preset}, {positions} positions of basic against itself, the opponents' cards "
          f"read: the {PLAY_WORLDS * OVERSAMPLE} deals drawn hold as much as this many "
          f"evenly weighed ones (median)")
    for t, xs in sorted(spread(positions, preset).items()):
        xs.sort()
        print(f"  {t} tricks played: {len(xs)} positions, "
              f"{xs[len(xs) // 2] * PLAY_WORLDS * OVERSAMPLE:.0f}")


KINDS = ("off-suit king", "other off-suit", "top-4 trump", "other trump")
WEIGHINGS = ("truth", "plain", "today", "calib")


def _kind(card: int, trump: int) -> str:
    if card in TRUMP_ORDER[trump][:4]:
        return "top-4 trump"
    if TRUMPS[trump] >> card & 1:
        return "other trump"
    return "off-suit king" if card % 13 == 11 else "other off-suit"


def calibration(hands: int = 100, preset: str = "merrimack-valley", seed: int = 70_000,
                draws: int = PLAY_WORLDS * OVERSAMPLE,
                ) -> dict[tuple[int, str], list[float]]:
    """For each (tricks played 0 to 3, kind of card), [hidden cards, then for each of
    WEIGHINGS the share of them in another seat's hand]: ``hands`` hands of ``basic``
    against itself (dealt by seeds ``seed`` on), seen by the leader at each trick's first
    card; ``draws`` cheap deals each, as the expert draws them. ``today``: weighed as the
    preset's default ``expert`` weighs (``INFER_PRESETS``, ``POLICY_PRESETS``; with
    neither, as ``expert-infer``); ``calib``: as ``expert-calib``."""
    bot = BasicBot()
    rng = random.Random(seed)
    out: dict[tuple[int, str], list[float]] = {}
    policy = preset in POLICY_PRESETS

    def at_a_lead(g: GameState) -> None:
        """Weigh the leader's view at the first card of each of the first four tricks
        (``play_hand`` calls it after every action; the hand's start is in its auction)."""
        if g.phase is Phase.PLAY and isinstance(g, FortyFivesState) \
                and not g.trick_cards and len(g.tricks) < 4 and g.bidder >= 0:
            _calibrate(g, out, draws, rng, policy)

    for h in range(hands):
        g = new_game(preset, seed=seed + h)
        play_hand(g, [bot] * g.n, on_action=at_a_lead)
    return out


def _calibrate(g: FortyFivesState, out: dict[tuple[int, str], list[float]], draws: int,
               rng: random.Random, policy: bool) -> None:
    seat = g.turn
    assert seat is not None
    view = g.view(seat)
    others = [s for s in range(g.n) if s != seat]
    held = 0
    for s in others:
        held |= g.hands[s]
    k = knowledge(view)
    kc = knowledge(view, kings=True)
    plain = draw_deals(k, draws, rng)
    calib = draw_deals(kc, draws, rng)
    ev = Evidence(view, kc, policy, calib=True)
    ev.fit_start(kc, len(calib), rng)  # as ``infer.weighted_worlds`` does
    sets = ((plain, [1.0] * len(plain)), (plain, Evidence(view, k, policy).weights(plain)),
            (calib, ev.weights(calib)))
    # per deal, the cards in the others' hands
    unions = [[sum(d[s] for s in others) for d in deals] for deals, _ in sets]
    totals = [sum(ws) for _, ws in sets]
    for c in cards_of(k.unknown):
        row = out.setdefault((len(g.tricks), _kind(c, g.trump)), [0.0] * 5)
        row[0] += 1
        row[1] += held >> c & 1
        for i, (_, ws) in enumerate(sets):
            if totals[i] > 0:
                row[2 + i] += sum(w for w, u in zip(ws, unions[i], strict=True)
                                  if u >> c & 1) / totals[i]


def print_calibration(hands: int, preset: str) -> None:
    today = ("the reading of the opponents' cards" if preset in POLICY_PRESETS
             else "the auction and the draw" if preset in INFER_PRESETS
             else "the auction and the draw (expert-infer; the default does not weigh)")
    print(f"{preset}, {hands} hands of basic against itself, the leader at each trick's first "
          f"card: the share of each kind of hidden card in another seat's hand (today: "
          f"weighed by {today}; calib: expert-calib; |error| summed over the four kinds)")
    rows = calibration(hands, preset)
    for t in range(4):
        err = [0.0] * 3
        for kind in KINDS:
            row = rows.get((t, kind))
            if not row:
                continue
            n = row[0]
            shares = [x / n for x in row[1:]]
            for i in range(3):
                err[i] += abs(shares[1 + i] - shares[0])
            print(f"  trick {t + 1}, {kind:14} {int(n):5d} cards: " + "  ".join(
                f"{w} {x:.3f}" for w, x in zip(WEIGHINGS, shares, strict=True)))
        print(f"  trick {t + 1}, |error|: " + "  ".join(
            f"{w} {e:.3f}" for w, e in zip(WEIGHINGS[1:], err, strict=True)))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "calibration":
        print_calibration(int(sys.argv[2]) if len(sys.argv) > 2 else 100,
                          sys.argv[3] if len(sys.argv) > 3 else "merrimack-valley")
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "spread":
        print_spread(int(sys.argv[2]) if len(sys.argv) > 2 else 100,
                     sys.argv[3] if len(sys.argv) > 3 else "merrimack-valley")
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "agree":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
        p = sys.argv[3] if len(sys.argv) > 3 else "merrimack-valley"
        rows = agreement(n, p)
        same = sum(r[0] for r in rows.values())
        total = sum(r[1] for r in rows.values())
        by = ", ".join(f"{k} cards {r[0]} of {r[1]}" for k, r in sorted(rows.items()))
        print(f"{p}, {n} hands of expert against itself: basic's card {same} times of "
              f"{total} with a choice ({same / max(1, total):.1%}); by legal cards: {by}")
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "ducks":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 25
        could, ducked = duck_rate(n)
        print(f"{n} hands of expert against itself: last to a trick the other side was "
              f"winning, holding a card that would take it: {could} times; did not take "
              f"it {ducked} ({ducked / max(1, could):.1%})")
        sys.exit(0)
    report(positions=int(sys.argv[1]) if len(sys.argv) > 1 else 300,
           preset=sys.argv[2] if len(sys.argv) > 2 else "merrimack-valley")
