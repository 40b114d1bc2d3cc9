"""Printable cards for the hall: each couple's punch card and a card for each table,
as whole HTML pages (print them from a browser), in English or French.

Pure functions of an evening: they return text and touch nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from .draw import commitment
from .evening import Hall, Move
from .words import check_language, say

# (the web server lets exactly this inline stylesheet through its CSP: web.guard)
STYLE = """
body { font-family: sans-serif; margin: 0; }
.sheet { display: flex; flex-wrap: wrap; gap: 6mm; padding: 6mm; }
.punch { width: 88mm; border: 1px dashed #555; padding: 3mm; box-sizing: border-box;
         break-inside: avoid; }
.punch h2 { margin: 0; font-size: 14pt; } .punch p { margin: 1mm 0; font-size: 9pt; }
.holes { display: grid; grid-template-columns: repeat(10, 7mm); gap: 1mm; margin-top: 2mm; }
.n { display: inline-block; width: 7mm; height: 7mm; line-height: 7mm; text-align: center;
     border: 1px solid #000; border-radius: 50%; font-size: 8pt; }
.n.won { background: #000; color: #fff; } .n.bye { border-style: double; }
.n.absent { color: #aaa; border-color: #aaa; text-decoration: line-through; }
.table { height: 180mm; display: flex; flex-direction: column; justify-content: center;
         align-items: center; break-after: page; text-align: center; }
.table .big { font-size: 160pt; font-weight: bold; line-height: 1; }
.table p { font-size: 18pt; margin: 2mm; }
.key { font-size: 7pt; color: #555; word-break: break-all; }
"""


def _page(lang: str, title: str, body: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{lang}">\n<head><meta charset="utf-8">'
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n"
            f"<body>\n{body}</body>\n</html>\n")


def _title(hall: Hall, lang: str) -> str:
    return hall.settings.title or say(lang, "evening")


def punch_cards_html(hall: Hall, lang: str = "en", couples: Iterable[int] | None = None) -> str:
    """A punch card for each couple (or those named): numbers 1 to the evening's games,
    those won punched out, games sat out ringed twice, games it was not there struck."""
    check_language(lang)
    title = _title(hall, lang)
    wanted = None if couples is None else set(couples)
    rows = {s.couple: s for s in hall.standings()}
    cards = []
    for c in sorted(hall.couples.values(), key=lambda c: c.number):
        if c.withdrawn or (wanted is not None and c.number not in wanted):
            continue
        st = rows[c.number]
        won, byes, absent = set(st.won), set(st.byes), set(st.absent)
        holes = []
        for g in range(1, hall.games + 1):
            cls = ["n"] + (["won"] if g in won else []) + (["bye"] if g in byes else []) + \
                (["absent"] if g in absent else [])
            label = say(lang, "bye") if g in byes else ""
            holes.append(f'<span class="{" ".join(cls)}" title="{escape(label)}">{g}</span>')
        cards.append(
            f'<div class="punch"><h2>{escape(say(lang, "couple", n=c.number))}</h2>'
            f"<p>{escape(c.names[0])} &amp; {escape(c.names[1])}</p>"
            f"<p>{escape(title)} · {escape(say(lang, 'games_won'))}</p>"
            f'<div class="holes">{"".join(holes)}</div></div>')
    return _page(lang, title, '<div class="sheet">\n' + "\n".join(cards) + "\n</div>\n")


def table_cards_html(hall: Hall, lang: str = "en", game: int = 1) -> str:
    """A page for each table of ``game`` (default: the first, whose couples it names):
    its number, where the winners go, and that they deal first."""
    check_language(lang)
    seat = hall.seating(game)
    pages = []
    if seat is not None:
        n = len(seat.tables)
        for t, (a, b) in enumerate(seat.tables, 1):
            who = say(lang, "first_game", a=a, b=b) if seat.game == 1 else ""
            deals = say(lang, "first_game_deals", n=a) if seat.game == 1 else ""
            lines = [say(lang, "winners_move", n=t % n + 1), say(lang, "losers_stay"),
                     say(lang, "winners_deal"), who, deals]
            pages.append(f'<div class="table"><div class="big">{t}</div>'
                         f"<p>{escape(say(lang, 'table', n=t))}</p>"
                         + "".join(f"<p>{escape(x)}</p>" for x in lines if x) + "</div>")
    key = say(lang, "draw_key", digest=commitment(hall.settings.seed))
    pages.append(f'<p class="key">{escape(key)}</p>')
    return _page(lang, _title(hall, lang), "\n".join(pages) + "\n")


def move_lines(moves: Iterable[Move], game: int, lang: str = "en") -> list[str]:
    """The moves to announce: "Couple 14 to table 8" (deals first), "Couple 3 sits out
    game 9"; couples that stay are listed after those that move."""
    check_language(lang)
    go, stay, out = [], [], []
    for m in moves:
        if m.to_table is None:
            out.append(say(lang, "sits_out", c=m.couple, g=game))
        elif m.stays:
            stay.append(say(lang, "stays", c=m.couple, t=m.to_table))
        else:
            line = say(lang, "to_table", c=m.couple, t=m.to_table)
            go.append(line + (f" ({say(lang, 'deals_first')})" if m.deals_first else ""))
    return go + out + stay
