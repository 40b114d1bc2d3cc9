"""The games the engine plays, and the one way to start one."""

from __future__ import annotations

from .fortyfives import FortyFivesState
from .fortyone import FortyOneState
from .rules import FORTY_FIVES, FORTY_ONE, Rules, RulesError, build_rules
from .state import Deal, GameState

GAMES: dict[str, type[GameState]] = {FORTY_FIVES: FortyFivesState, FORTY_ONE: FortyOneState}


def game_class(rules: Rules) -> type[GameState]:
    return GAMES[rules.game]


def new_game(rules: Rules | str, seed: int | None = None, first_dealer: int = 0,
             deal: Deal | None = None) -> GameState:
    """A new game under ``rules`` (a Rules value or a preset name), its first hand dealt.

    The same seed gives the same deals. Without a seed one is drawn at random.
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
