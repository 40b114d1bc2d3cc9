"""forties: the Forty-Fives family of card games and Forty One, as a rules engine,
game records and a referee."""

from .paths import configure_cache as _configure_cache

_configure_cache()  # before numba is imported: where the compiled search is kept

from .actions import Action, ActionSyntaxError, Verb  # noqa: E402
from .games import new_game  # noqa: E402
from .record import Record, Recorder, RecordError, referee  # noqa: E402
from .rules import PRESETS, FortyFivesRules, FortyOneRules, Rules, RulesError, build_rules  # noqa: E402
from .state import Deal, DealError, GameState, IllegalActionError, Phase, SeatError, StateError  # noqa: E402

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
    "SeatError",
    "StateError",
    "Verb",
    "__version__",
    "build_rules",
    "new_game",
    "referee",
]
