"""What the evening's printed cards and screens say, in English and in French.

One dict of messages per language (``MESSAGES``); ``say(lang, key, **values)``
fills one in. Keys are the same in every language (a test checks it).
"""

from __future__ import annotations

from .events import HallError

LANGUAGES = ("en", "fr")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "evening": "45-Card-Games",
        "couple": "Couple {n}",
        "games_won": "Games won are punched out",
        "table": "Table {n}",
        "winners_move": "Winners move to table {n}",
        "losers_stay": "Losers stay at this table",
        "winners_deal": "Winners deal first",
        "first_game": "First game: couple {a} and couple {b}",
        "first_game_deals": "Couple {n} deals first",
        "to_table": "Couple {c} to table {t}",
        "stays": "Couple {c} stays at table {t}",
        "sits_out": "Couple {c} sits out game {g}",
        "deals_first": "deals first",
        "moves_title": "Game {g}: moves",
        "standings_title": "Standings after game {g} of {n}",
        "place": "Place",
        "names": "Names",
        "games": "Games",
        "matchpoints": "Matchpoints",
        "bye": "bye",
        "prize": "{ordinal} prize",
        "booby": "Booby prize",
        "cookie_jar": "Cookie jar",
        "draw_key": "Draw key (SHA-256): {digest}",
    },
    "fr": {
        "evening": "Parties de 45",
        "couple": "Couple {n}",
        "games_won": "Les parties gagnées sont poinçonnées",
        "table": "Table {n}",
        "winners_move": "Les gagnants passent à la table {n}",
        "losers_stay": "Les perdants restent à cette table",
        "winners_deal": "Les gagnants donnent les premiers",
        "first_game": "Première partie : couple {a} et couple {b}",
        "first_game_deals": "Le couple {n} donne le premier",
        "to_table": "Couple {c} à la table {t}",
        "stays": "Couple {c} reste à la table {t}",
        "sits_out": "Couple {c} se repose à la partie {g}",
        "deals_first": "donne le premier",
        "moves_title": "Partie {g} : les déplacements",
        "standings_title": "Classement après la partie {g} sur {n}",
        "place": "Rang",
        "names": "Noms",
        "games": "Parties",
        "matchpoints": "Points de match",
        "bye": "repos",
        "prize": "{ordinal} prix",
        "booby": "Prix de consolation",
        "cookie_jar": "Jarre à biscuits",
        "draw_key": "Clé du tirage (SHA-256) : {digest}",
    },
}


def check_language(lang: str) -> str:
    if lang not in MESSAGES:
        raise HallError(f"unknown language {lang!r}: {', '.join(LANGUAGES)}")
    return lang


def say(lang: str, key: str, **values: object) -> str:
    """The message ``key`` in ``lang``, filled in with ``values``."""
    return MESSAGES[check_language(lang)][key].format(**values)


def ordinal(lang: str, n: int) -> str:
    """1st, 2nd, 3rd, 4th ... / 1er, 2e, 3e ..."""
    if check_language(lang) == "fr":
        return "1er" if n == 1 else f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def prize_name(lang: str, prize: int) -> str:
    """"1st prize", "2e prix", or the booby prize (prize 0)."""
    if prize == 0:
        return say(lang, "booby")
    return say(lang, "prize", ordinal=ordinal(lang, prize))
