"""A bidding guide computed by the engine: how often a holding makes 15, 20, 25, 30.

For each common holding (the 5 alone, the 5 and J, three trumps with AH...)
the engine deals thousands of hands in which the bidder holds it, lets him
name that suit and take the kitty, plays the draw for everyone, and finishes
the hand with the evaluator (the double-dummy solver: every card seen, so both
sides play perfectly). The figures are the share of deals in which the
bidder's side took at least each bid.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .bots import simulate as sim
from .bots.expert import default_judge
from .bots.judge import Judge, expected_partner
from .cards import ACE_OF_HEARTS, SPADES
from .fortyfives import TRUMP_ORDER, TRUMPS
from .rules import FortyFivesRules, build_rules

BIDS = (15, 20, 25, 30)


@dataclass(frozen=True)
class Holding:
    name: str
    top: tuple[int, ...]  # places in the trump order that must be held (0 = the 5)
    small: int = 0  # how many more trumps, below the king
    note: str = ""


HOLDINGS = (
    Holding("5 alone", (0,)),
    Holding("J alone", (1,)),
    Holding("AH alone", (2,)),
    Holding("5 J", (0, 1)),
    Holding("5 AH", (0, 2)),
    Holding("J AH", (1, 2)),
    Holding("5 J AH", (0, 1, 2)),
    Holding("5 + 2 small", (0,), 2),
    Holding("AH + 2 small", (2,), 2),
    Holding("3 small", (), 3),
    Holding("5 J AH A", (0, 1, 2, 3)),
)


def holding_hand(h: Holding, trump: int, rng: random.Random) -> int:
    """A random five-card hand with exactly the trumps ``h`` names."""
    order = TRUMP_ORDER[trump]
    hand = 0
    for p in h.top:
        hand |= 1 << order[p]
    small = list(order[5:])
    rng.shuffle(small)
    for c in small[:h.small]:
        hand |= 1 << c
    others = [c for c in range(52) if not (TRUMPS[trump] | 1 << ACE_OF_HEARTS) >> c & 1]
    rng.shuffle(others)
    for c in others[:5 - hand.bit_count()]:
        hand |= 1 << c
    return hand


def make_chances(rules: FortyFivesRules, h: Holding, deals: int, seed: int,
                 judge: Judge | None = None, trump: int = SPADES) -> dict[int, float]:
    """Share of deals in which the bidder (seat 0, the dealer's left) takes each bid."""
    rng = random.Random(seed)
    judge = judge or default_judge()
    dealer = rules.players - 1
    made = dict.fromkeys(BIDS, 0)
    done = 0
    for _ in range(deals):
        deal = sim.random_deal_with(rules, 0, holding_hand(h, trump, rng), rng)
        st = sim.simulate_contract(rules, deal, dealer, 0, rules.min_bid, trump,
                                   [0] * len(rules.sides))
        if st is None:
            continue
        outcome = judge.outcome(st)
        st.partner = expected_partner(st)
        took = sum(outcome[x] for x in st.bidding_sides())
        done += 1
        for b in BIDS:
            if took >= b:
                made[b] += 1
    return {b: made[b] / done if done else 0.0 for b in BIDS}


Table = dict[str, dict[str, dict[int, float]]]


def odds_table(presets: tuple[str, ...], deals: int, seed: int) -> Table:
    """Chances for every holding under each preset (that has an auction)."""
    out: Table = {}
    for name in presets:
        rules = build_rules(name)
        assert isinstance(rules, FortyFivesRules)
        if rules.auction == "none":
            continue
        out[name] = {h.name: make_chances(rules, h, deals, seed) for h in HOLDINGS}
    return out


def markdown(table: Table, deals: int, seed: int) -> str:
    lines = ["# How often does a holding make its bid?", "",
             "Computed by `forties odds`: for each holding the engine dealt "
             f"{deals} hands (seed {seed}) in which the bidder, on the dealer's left, holds "
             "exactly those trumps (spades, with four other cards that are not trumps), "
             "names that suit, takes the kitty, and everyone draws. Each hand is then "
             "played double-dummy (every card seen, both sides perfect), and the table "
             "gives the share of deals in which the bidder's side took at least each bid.",
             ""]
    for preset, rows in table.items():
        lines += [f"## {preset}", "", "| holding | 15 | 20 | 25 | 30 |", "|---|---|---|---|---|"]
        for name, chances in rows.items():
            lines.append(f"| {name} | " + " | ".join(f"{chances[b]:.0%}" for b in BIDS) + " |")
        lines.append("")
    return "\n".join(lines)


def plot(table: Table, path: str) -> None:
    """Bars of the chance of making each bid, one panel per preset."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(len(table), 1, figsize=(10, 3.6 * len(table)), squeeze=False)
    for ax, (preset, rows) in zip(axes[:, 0], table.items(), strict=True):
        names = list(rows)
        width = 0.2
        for i, b in enumerate(BIDS):
            xs = [j + (i - 1.5) * width for j in range(len(names))]
            ax.bar(xs, [rows[n][b] * 100 for n in names], width, label=f"makes {b}")
        ax.set_xticks(range(len(names)), names, rotation=20)
        ax.set_ylabel("% of deals")
        ax.set_ylim(0, 100)
        ax.set_title(preset)
        ax.legend(ncol=4, fontsize=8)
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
