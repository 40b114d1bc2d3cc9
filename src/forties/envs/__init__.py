"""Research interfaces over the engine: PettingZoo, Gymnasium and OpenSpiel.

``aec_env`` is a PettingZoo AEC environment for any preset and house rules, and
Forty One; ``VectorEnv`` (``forties.envs.vector``) a Gymnasium vector environment in
which one seat of thousands of compiled tables learns against fixed players;
``gym_env`` a single-agent Gymnasium environment, one table of it;
``forties.envs.spiel`` registers the games with OpenSpiel. They need the ``research``
extra (``pip install 'forties[research]'``). The action ids and the observation
layout are in ``forties.envs.encoding`` and docs/research.md, with the two refusals
they share: ``ActionIdError`` (an id that is not legal now, or not an id) and
``EpisodeError`` (a call before ``reset()`` or after the end), both ValueErrors.
"""

from __future__ import annotations

from .aec import FortiesAEC, aec_env
from .encoding import FF_ACTIONS, FO_ACTIONS, ActionIdError, Encoder, EpisodeError
from .single import FortiesGymEnv, gym_env

__all__ = ["FF_ACTIONS", "FO_ACTIONS", "ActionIdError", "Encoder", "EpisodeError", "FortiesAEC",
           "FortiesGymEnv", "aec_env", "gym_env"]
