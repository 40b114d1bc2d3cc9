"""The games the engine plays, and the one way to start one.

Importing this module registers every game's state machine in ``GAMES`` (each game class
adds itself there when its module is imported: ``GameState.__init_subclass__``).
"""

from __future__ import annotations

from . import fortyfives, fortyone  # noqa: F401  (imported to register their games)
from .rules import Rules, RulesError, build_rules
from .state import GAMES, Deal, DealKey, GameState

__all__ = ["GAMES", "game_class", "new_game"]


def game_class(rules: Rules) -> type[GameState]:
    return GAMES[rules.game]


def new_game(rules: Rules | str, seed: int | DealKey | None = None, first_dealer: int = 0,
             deal: Deal | None = None) -> GameState:
    """A new game under ``rules`` (a Rules value or a preset name), its first hand dealt.

    The same seed gives the same deals. Without a seed one is drawn at random. A DealKey
    (a web table's) deals from the key instead (``state.keyed_deck``).
    """
    if isinstance(rules, str):
        rules = build_rules(rules)
    elif not isinstance(rules, Rules) or rules.game not in GAMES:
        raise RulesError(f"rules must be a preset name or a Rules value (build_rules), not "
                         f"{type(rules).__name__}")
    if seed is None and deal is None:
        import secrets

        seed = secrets.randbits(48)
    return game_class(rules)(rules, seed=seed, first_dealer=first_dealer, deal=deal)
