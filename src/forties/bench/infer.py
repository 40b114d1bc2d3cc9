"""How well the imagined deals place the cards that matter, with and without inference.

``python -m forties.bench.infer [POSITIONS] [PRESET]`` stops hands of ``basic``
against itself at a random card of the play, and for the seat to play asks where
each of the top four trumps it cannot see lies: the share of its imagined deals
(96, as the expert draws) that give each card to each other seat, plain
(``sampler.worlds``, as ``expert`` draws them) and weighed (``infer``, as
``expert-infer`` draws them). It prints the mean log-loss of the true holder (in
bits, lower is better; a share of 0 is counted as 1/200) and the mean share given
to the true holder, over the same positions. The deals are played by ``basic``,
the model ``infer`` was counted on, so this measures the inference where its
model holds; the duplicate match measures it against the expert.
"""

from __future__ import annotations

import math
import random
import sys

from forties import new_game
from forties.bots.basic import BasicBot
from forties.bots.infer import weighted_worlds
from forties.bots.sampler import worlds
from forties.fortyfives import TRUMP_ORDER, FortyFivesState
from forties.state import GameState, Phase


def _positions(preset: str, count: int, seed: int) -> list[FortyFivesState]:
    rng = random.Random(seed)
    bot = BasicBot()
    out: list[FortyFivesState] = []
    h = 0
    while len(out) < count:
        g = new_game(preset, seed=seed * 1_000_003 + h)
        h += 1
        stop = rng.randrange(3 * g.n)  # a card among the first three tricks
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
    for i, g in enumerate(_positions(preset, positions, seed)):
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        rng = random.Random(i)
        for acc, ws in ((plain, [(w, 1.0) for w in worlds(view, 96, rng)]),
                        (weighed, weighted_worlds(view, 96, rng))):
            loss, share, cards = _score(g, ws)
            acc[0] += loss
            acc[1] += share
            acc[2] += cards
    for name, acc in (("plain (expert)", plain), ("weighed (expert-infer)", weighed)):
        n = max(1, int(acc[2]))
        print(f"{preset}, {positions} positions, {n} hidden top trumps: {name}: log-loss "
              f"{acc[0] / n:.3f} bits, share on the true holder {acc[1] / n:.3f}")


if __name__ == "__main__":
    report(positions=int(sys.argv[1]) if len(sys.argv) > 1 else 300,
           preset=sys.argv[2] if len(sys.argv) > 2 else "merrimack-valley")
