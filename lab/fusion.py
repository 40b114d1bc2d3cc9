"""Where the 45s expert's card play loses, judged on the real cards (issue 15's card play).

``python -m lab.fusion losses HANDS [PRESET]`` plays HANDS hands of experts at
every seat and, at each card with a choice, asks the double-dummy solver on the *real*
deal what the card played is worth against the best card there (both sides perfect from
then on): the expert's losses by trick, leader or follower, bidding side or defence. A
seat that cannot see the cards loses some of this whatever it does; the figure says where
the oracle's edge comes from.

``python -m lab.fusion differ HANDS [PRESET] [CARDS] [TURNS]`` plays the same
hands and, at each card of a seat holding 2 to CARDS cards, also asks the search that
keeps one card for all the deals the seat cannot tell apart (``bots.alphamu``, TURNS of
the seat's turns) which card it would play: how often it differs from the expert's
average, and what the difference is worth on the real deal.

``python -m lab.fusion worlds HANDS [PRESET] [COUNT]`` plays the same hands and,
at each card with a choice, also asks the expert which card it would play on COUNT
imagined deals, and on as many deals as it plays on but drawn afresh (the control: how
often, and for how much, a mere redraw changes the card); what each other card is worth
on the real deal, a hand, with a 95% interval over the hands. ``--reference DEALS``
judges the cards by the expert's values on DEALS deals instead: what the noise of a
smaller draw costs, without the real deal's luck.

``python -m lab.fusion bids HANDS [PRESET] [COUNT] --reference DEALS`` does the
same for the choices made before the first card (bids, holds, raises, trump, discards),
each valued on COUNT imagined deals instead of the expert's 120, and judged by its values
on DEALS deals (the real deal's value of a bid would ask for the rest of the auction).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from forties import build_rules, new_game
from forties.actions import Action
from forties.bots import alphamu
from forties.bots.expert import ExpertBot
from forties.bots.judge import utility
from forties.fortyfives import FortyFivesState


def _hands(preset: str, hands: int, seed: int
           ) -> Iterator[tuple[FortyFivesState, int, ExpertBot, Sequence[Action], int]]:
    """Each position of HANDS expert hands: the game, the seat, its bot, the legal
    actions; the caller's yield is followed by the bot's own choice being played."""
    for h in range(hands):
        g = new_game(preset, seed=seed + h)
        if not isinstance(g, FortyFivesState):
            raise ValueError(f"{preset} is not a Forty-Fives game")
        bots = [ExpertBot(random.Random(h * 10 + s)) for s in range(g.n)]
        while not g.hand_over:
            s = g.turn
            assert s is not None
            yield g, s, bots[s], g.legal_actions(), h


def losses(preset: str, hands: int, seed: int = 30_000) -> dict[tuple[int, str, str], list[float]]:
    """(trick, lead|follow, bidding side|defence) -> [cards, cards that lose, points lost]."""
    out: dict[tuple[int, str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for g, s, bot, legal, _ in _hands(preset, hands, seed):
        a = bot.choose(g.view(s), legal)
        if g.phase.value == "play" and len(legal) > 1:
            true = bot.judge.play_outcomes(g)
            u = {b: utility(g, s, true[b], bot.win_bonus) for b in legal}
            side = "bidding side" if g.bidder >= 0 and g.side_of[s] == g.side_of[g.bidder] \
                else "defence"
            row = out[(g.trick_no + 1, "follow" if g.trick_cards else "lead", side)]
            d = max(u.values()) - u[a]
            row[0] += 1
            row[1] += d > 0
            row[2] += d
        g.apply(a)
    return dict(out)


def differ(preset: str, hands: int, cards: int = 5, turns: int = 2,
           seed: int = 20_000) -> dict[str, float]:
    """How often the search keeping one card per group of deals plays another card than
    the expert's average, and what that is worth on the real deal, in all."""
    n = changed = 0
    gain = t_avg = t_one = 0.0
    for g, s, bot, legal, _ in _hands(preset, hands, seed):
        view = g.view(s)
        if g.phase.value == "play" and len(legal) > 1 and alphamu.applies(g, s) and \
                2 <= g.hands[s].bit_count() <= cards:
            ws = bot._weighted_play_worlds(view)
            t = time.process_time()
            avg, _ = alphamu.card_values(ws, s, bot.judge, 1, bot.win_bonus, random.Random(1))
            t_avg += time.process_time() - t
            t = time.process_time()
            one, _ = alphamu.card_values(ws, s, bot.judge, turns, bot.win_bonus,
                                         random.Random(1))
            t_one += time.process_time() - t
            n += 1
            a = max(legal, key=lambda x: (avg[x], -legal.index(x)))
            b = max(legal, key=lambda x: (one[x], -legal.index(x)))
            if a != b:
                changed += 1
                true = bot.judge.play_outcomes(g)
                gain += (utility(g, s, true[b], bot.win_bonus)
                         - utility(g, s, true[a], bot.win_bonus))
        g.apply(bot.choose(view, legal))
    return {"decisions": n, "differ": changed, "gain": gain,
            "seconds_average": t_avg / max(1, n), "seconds_search": t_one / max(1, n)}


@dataclass
class OtherCards:
    """``more_worlds``'s answer: cards with a choice; per way ("more", "redraw"), how many
    times it chose another card, and what that gained a hand, judged on the real deals or
    by the reference draw (mean and 95% interval over the hands)."""

    decisions: int
    differ: dict[str, int]
    gain: dict[str, tuple[float, float, float]]


BEFORE_PLAY = ("auction", "raise", "trump", "draw")


def more_worlds(preset: str, hands: int, count: int, seed: int = 40_000,
                reference: int = 0, bids: bool = False) -> OtherCards:
    """At each card with a choice: the expert's card, the card on ``count`` deals and the
    card on a fresh draw of its own number; per hand, what each other card gained on the
    real deal (the solver's value, both sides perfect after), or, with ``reference``, by
    the expert's own values on that many deals (what the draw's noise costs, judged by a
    far larger draw: the real deal's luck left out). With ``bids``, the choices before
    the first card instead, on ``count`` deals each (``reference`` needed)."""
    if bids and not reference:
        raise ValueError("the choices before the play are judged by a reference draw only")

    def expert(rng: random.Random, n: int | None) -> ExpertBot:
        if bids:
            assert n is not None
            return ExpertBot(rng, deals=n)
        return ExpertBot(rng, worlds=n)

    phases = BEFORE_PLAY if bids else ("play",)
    decisions = 0
    differ = {"more": 0, "redraw": 0}
    gain: dict[str, list[float]] = {"more": [0.0] * hands, "redraw": [0.0] * hands}
    for g, s, bot, legal, h in _hands(preset, hands, seed):
        view = g.view(s)
        a = bot.choose(view, legal)
        if g.phase.value in phases and len(legal) > 1:
            decisions += 1
            other = {
                "more": expert(random.Random(7_000_003 * decisions), count),
                "redraw": expert(random.Random(9_000_011 * decisions),
                                 bot.deals if bids else bot.worlds),
            }
            cards = {k: b.decide(view, legal).action for k, b in other.items()}
            if any(c != a for c in cards.values()):
                if reference:
                    u = expert(random.Random(5_000_011 * decisions),
                               reference).decide(view, legal).values
                else:
                    true = bot.judge.play_outcomes(g)
                    u = {b: utility(g, s, true[b], bot.win_bonus) for b in legal}
                for k, c in cards.items():
                    differ[k] += c != a
                    gain[k][h] += u[c] - u[a]
        g.apply(a)
    out = OtherCards(decisions, differ, {})
    for k, per in gain.items():
        mean = sum(per) / hands
        sd = math.sqrt(sum((x - mean) ** 2 for x in per) / (hands - 1)) if hands > 1 else 0.0
        half = 1.96 * sd / math.sqrt(hands)
        out.gain[k] = (mean, mean - half, mean + half)
    return out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m lab.fusion",
                                description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="what", required=True)
    lo = sub.add_parser("losses")
    lo.add_argument("hands", type=int)
    lo.add_argument("preset", nargs="?", default="merrimack-valley")
    di = sub.add_parser("differ")
    di.add_argument("hands", type=int)
    di.add_argument("preset", nargs="?", default="merrimack-valley")
    di.add_argument("cards", nargs="?", type=int, default=5)
    di.add_argument("turns", nargs="?", type=int, default=2)
    wo = sub.add_parser("worlds")
    wo.add_argument("hands", type=int)
    wo.add_argument("preset", nargs="?", default="merrimack-valley")
    wo.add_argument("count", nargs="?", type=int, default=256)
    wo.add_argument("--reference", type=int, default=0, metavar="DEALS",
                    help="judge the cards by the expert's values on DEALS imagined deals "
                         "rather than on the real deal")
    bi = sub.add_parser("bids")
    bi.add_argument("hands", type=int)
    bi.add_argument("preset", nargs="?", default="merrimack-valley")
    bi.add_argument("count", nargs="?", type=int, default=480)
    bi.add_argument("--reference", type=int, required=True, metavar="DEALS",
                    help="judge the choices by the expert's values on DEALS imagined deals")
    args = p.parse_args(argv)
    if args.hands < 1:
        p.error("HANDS is at least 1")
    if args.what == "worlds" and (args.count < 1 or args.reference < 0):
        p.error("COUNT is at least 1, and DEALS at least 0")
    if args.what == "bids" and (args.count < 2 or args.reference < 2):
        p.error("COUNT and DEALS are at least 2")
    try:
        game = build_rules(args.preset).game
    except ValueError as e:
        p.error(str(e))
    if game != "forty-fives":
        p.error(f"{args.preset} is not one of the Forty-Fives presets")
    if args.what == "losses":
        rows = losses(args.preset, args.hands)
        print(f"{args.preset}, {args.hands} hands of experts: points lost a hand against the "
              "best card on the real deal (the solver's value, both sides perfect after)")
        for (trick, role, side), (n, bad, lost) in sorted(rows.items()):
            print(f"  trick {trick} {role:<6} {side:<12} {int(n):>5} cards, {int(bad):>4} "
                  f"lose, {lost / args.hands:6.2f} a hand")
        total = sum(r[2] for r in rows.values()) / args.hands
        print(f"  in all {total:.2f} a hand (both sides' cards)")
        return
    if args.what in ("worlds", "bids"):
        bids = args.what == "bids"
        w = more_worlds(args.preset, args.hands, args.count, reference=args.reference,
                        bids=bids)
        judged = f"by {args.reference} imagined deals" if args.reference else \
            "on the real deals"
        what = "choices before the play" if bids else "cards"
        print(f"{args.preset}, {args.hands} hands of experts, {w.decisions} {what} with a "
              f"choice; what another choice gained {judged}, a hand (95%):")
        for k, words in (("more", f"on {args.count} deals"),
                         ("redraw", "on a fresh draw of its own count (the control)")):
            mean, low, high = w.gain[k]
            print(f"  {words}: another choice in {w.differ[k]}, {mean:+.3f} ({low:+.3f} .. "
                  f"{high:+.3f})")
        return
    r = differ(args.preset, args.hands, args.cards, args.turns)
    print(f"{args.preset}, {args.hands} hands of experts, seats holding 2 to {args.cards} cards, "
          f"{args.turns} turns kept to one card: {int(r['decisions'])} cards with a choice, "
          f"another card played in {int(r['differ'])}, worth {r['gain']:+.1f} on the real "
          f"deals ({r['gain'] / args.hands:+.3f} a hand); CPU seconds a decision: average "
          f"{r['seconds_average']:.3f}, search {r['seconds_search']:.3f}")


if __name__ == "__main__":
    main()
