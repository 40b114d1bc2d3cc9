"""forties: the Forty-Fives family of card games and Forty One, as a rules engine,
game records and a referee."""

from .actions import Action, ActionSyntaxError, Verb
from .games import new_game
from .record import Record, Recorder, RecordError, referee
from .rules import PRESETS, FortyFivesRules, FortyOneRules, Rules, RulesError, build_rules
from .state import Deal, DealError, GameState, IllegalActionError, Phase, StateError

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "ActionSyntaxError",
    "Deal",
    "DealError",
    "FortyFivesRules",
    "FortyOneRules",
    "GameState",
    "IllegalActionError",
    "Phase",
    "Record",
    "RecordError",
    "Recorder",
    "Rules",
    "RulesError",
    "StateError",
    "Verb",
    "__version__",
    "build_rules",
    "new_game",
    "referee",
]
