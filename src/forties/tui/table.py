"""Drawing the table from a view: the seats round it, the trick in the middle, trump
and the bid, the kitty, the scores. Shared by the game and the replay screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.text import Text
from textual.dom import DOMNode
from textual.widgets import Static

from ..actions import parse_bid
from ..cards import SUITS, parse_card
from ..fortyfives import bid_need, trick_winner_index
from ..fortyone import KEY
from .words import bid_words, card_text, is_red, partners, pretty, side_names, suit_text

# Where each seat sits in the 3 x 3 table, by its distance round from the bottom seat.
PLACES = {
    2: [(2, 1), (0, 1)],
    3: [(2, 1), (1, 0), (1, 2)],
    4: [(2, 1), (1, 0), (0, 1), (1, 2)],
    5: [(2, 1), (1, 0), (0, 0), (0, 2), (1, 2)],
    6: [(2, 1), (1, 0), (0, 0), (0, 1), (0, 2), (1, 2)],
}


def places(n: int, bottom: int) -> dict[tuple[int, int], int]:
    """Grid cell -> seat, with ``bottom`` at the bottom and play going clockwise."""
    return {pos: (bottom + k) % n for k, pos in enumerate(PLACES[n])}


def cards_line(names: Sequence[str]) -> Text:
    out = Text()
    for i, n in enumerate(names):
        if i:
            out.append(" ")
        out.append(card_text(n), style="red" if is_red(n) else "")
    return out


def draw_table(root: DOMNode, v: dict[str, Any], names: Sequence[str], bottom: int,
               human: int | None, hands: Callable[[int], list[str]] | None = None,
               kitty: Sequence[str] | None = None) -> None:
    """Fill the nine cells ``#cell-R-C`` under ``root`` from the view ``v``.

    ``hands`` (replays) gives each seat's cards to show in its place.
    """
    n = v["players"]
    where = places(n, bottom)
    trick = v.get("trick") or {"leader": None, "cards": []}
    shown, faded = trick, False
    if not trick["cards"] and v["tricks"]:
        shown, faded = v["tricks"][-1], True
    for r in range(3):
        for c in range(3):
            cell = root.query_one(f"#cell-{r}-{c}", Static)
            seat = where.get((r, c))
            if seat is not None:
                cls = "cell seat" + (" me" if seat == human else "") + (
                    " to-act" if v["to_act"] == seat else "")
                cell.set_classes(cls)
                cell.border_title = ("▶ " if v["to_act"] == seat else "") + names[seat]
                cell.border_subtitle = "dealer" if seat == v["dealer"] else None
                cell.update(seat_text(v, seat, shown, faded,
                                      hands(seat) if hands is not None else None))
                continue
            cell.set_classes("cell info")
            cell.border_title = cell.border_subtitle = None
            if (r, c) == (1, 1):
                cell.update(center_text(v, names))
            elif (r, c) == (2, 0):
                cell.update(bid_info(v, names))
            elif (r, c) == (2, 2):
                cell.update(kitty_info(v, names, kitty))
            else:
                cell.update(Text())


def seat_text(v: dict[str, Any], seat: int, trick: dict[str, Any], faded: bool,
              hand: list[str] | None) -> Text:
    text = Text()
    if hand is not None:
        text.append_text(cards_line(hand))
        text.append("\n")
    status = seat_status(v, seat)
    text.append("\n".join(status + [""] * (2 - len(status))) + "\n")
    played = None
    if trick["cards"] and trick["leader"] is not None:
        k = (seat - trick["leader"]) % v["players"]
        if k < len(trick["cards"]):
            played = trick["cards"][k]
    if played:
        won = faded and trick.get("winner") == seat
        style = "bold" if not faded or won else "dim"
        text.append(card_text(played), style=style + (" red" if is_red(played) else ""))
        if won:
            text.append(" won")
    return text


def seat_status(v: dict[str, Any], seat: int) -> list[str]:
    """One or two short lines under a seat's name: its bid, its draw, its tricks."""
    if v["game"] == "forty-one":
        bid = v["bids"][seat]
        return [] if bid is None else [f"bid {bid}", f"took {v['taken'][seat]}"]
    parts = []
    if v.get("bidder") == seat:
        parts.append(f"bid {bid_words(v, v['bid'])}")
    elif not v["tricks"] and v["phase"] != "play":
        said = [h.split() for h in v["history"] if h.split()[0] == str(seat)
                and h.split()[1] in ("pass", "bid", "hold")]
        if said:
            last = said[-1]
            parts.append(f"bid {bid_words(v, last[2])}" if last[1] == "bid" else
                         "holds" if last[1] == "hold" else "passed")
    if v.get("partner") == seat:
        parts.append("partner")
    if not v["tricks"] and any(h.split()[:2] == [str(seat), "discard"] for h in v["history"]):
        parts.append(draw_status(v, seat))
    taken = sum(1 for t in v["tricks"] if t["winner"] == seat)
    if taken:
        parts.append(f"{taken} trick{'s' if taken > 1 else ''}")
    return parts[:2]


def draw_status(v: dict[str, Any], seat: int) -> str:
    """"discarded 3" until the dealer deals the replacements, then "drew 3": what came
    from the stock (the bidder's discards count the kitty he took, which he did not draw)."""
    thrown = v["discard_counts"][seat]
    if v["phase"] == "draw":
        return f"discarded {thrown}"
    took_kitty = v.get("bidder") == seat and v.get("kitty_size")
    return f"drew {max(thrown - (v['kitty_size'] if took_kitty else 0), 0)}"


def winning_seat(v: dict[str, Any]) -> int | None:
    """Who is winning the trick in progress."""
    trick = v.get("trick")
    if not trick or not trick["cards"]:
        return None
    cards = [parse_card(c) for c in trick["cards"]]
    if v["game"] == "forty-one":
        keys = [KEY[cards[0] // 13][c] for c in cards]
        best = keys.index(max(keys))
    else:
        best = trick_winner_index(cards, SUITS.index(v["trump"]))
    return int((trick["leader"] + best) % v["players"])


def center_text(v: dict[str, Any], names: Sequence[str]) -> Text:
    phase = v["phase"]
    text = Text()
    if phase == "auction":
        text.append("Bidding\n", style="bold")
        if v["game"] == "forty-fives" and v.get("high_bid"):
            text.append(f"high: {names[v['high_bidder']]} {bid_words(v, v['high_bid'])}")
    elif phase == "play":
        text.append(f"Trick {len(v['tricks']) + 1}\n", style="bold")
        best = winning_seat(v)
        if best is not None:
            who = names[best]
            text.append(f"{who} {'are' if who == 'You' else 'is'} winning")
        elif v["tricks"]:
            text.append(f"{names[v['tricks'][-1]['winner']]} won the last")
    elif phase in ("hand-over", "game-over"):
        text.append("Hand over" if phase == "hand-over" else "Game over", style="bold")
    else:
        text.append({"raise": "Raise?", "trump": "Naming trump", "draw": "The draw",
                     "rob": "Robbing", "rob-pack": "Robbing the pack",
                     "call": "Calling a partner", "booked": "Booked?",
                     "answer": "Booked?", "fold": "Fold or stay?"}.get(phase, phase),
                    style="bold")
    return text


def bid_info(v: dict[str, Any], names: Sequence[str]) -> Text:
    """Trump, the bid, and how far the bidding side is from making it."""
    text = Text()
    trump = "H" if v["game"] == "forty-one" else v.get("trump")
    if trump:
        text.append("Trump ", style="bold")
        text.append(suit_text(trump).split()[0], style="bold red" if trump in "DH" else "bold")
        text.append("\n")
    if v["game"] == "forty-fives" and v.get("bid"):
        b = v["bidder"]
        need = bid_need(parse_bid(v["bid"]))
        text.append(f"{names[b]} bid {bid_words(v, v['bid'])}\n")
        side = {b, *partners(v, b)}
        if v.get("partner") is not None:
            side.add(v["partner"])
        took = 5 * sum(1 for t in v["tricks"] if t["winner"] in side)
        text.append(f"has {took} of {need}")
    return text


def kitty_info(v: dict[str, Any], names: Sequence[str],
               kitty: Sequence[str] | None = None) -> Text:
    """The kitty (or the turned-up card) and who took it; the called card."""
    text = Text()
    if v["game"] != "forty-fives":
        return text
    if v.get("up_card"):
        text.append("Turned up ")
        text.append(card_text(v["up_card"]), style="bold red" if is_red(v["up_card"])
                    else "bold")
        if v.get("robber") is not None:
            text.append(f"\nrobbed by {names[v['robber']]}")
        return text
    k = v["kitty_size"]
    if k:
        text.append(f"Kitty: {k} cards\n")
        shown = v.get("kitty") or kitty
        if shown:
            text.append_text(cards_line(list(shown)))
            text.append("\n")
        if v.get("bidder") is not None and v["phase"] not in ("auction", "raise"):
            text.append(f"to {names[v['bidder']]}")
    if v.get("called"):
        text.append(f"\ncalled {pretty(v['called'])}")
    return text


def scores_text(v: dict[str, Any], names: Sequence[str], human: int | None,
                target: int) -> Text:
    text = Text()
    if v["game"] == "forty-one":
        for a, b in ((0, 2), (1, 3)):
            mark = " ◀" if human in (a, b) else ""
            text.append(f"{names[a]} {v['scores'][a]} · {names[b]} {v['scores'][b]}{mark}\n")
    else:
        for i, label in enumerate(side_names(v, names)):
            mark = " ◀" if human is not None and human in v["sides"][i] else ""
            text.append(f"{label[:17]:<17} {v['scores'][i]:>4}{mark}\n")
    text.append(f"Game to {target}", style="dim")
    return text
