"""Hypothesis profiles: ``dev`` (the default: a few examples, fresh ones each run) and
``ci`` (what ``make test`` and CI run: a real budget, derandomized so that a run can be
repeated example for example, and no example database).

Property tests that leave ``max_examples`` to the profile get its budget; those that set
their own (the fuzzers, the rank tables) keep it and take the rest (derandomize) from
the profile. Choose one with ``pytest --hypothesis-profile=ci`` or ``HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from .helpers_scale import db, pairs, pg, rd  # noqa: F401  (PostgreSQL and Redis, once a session)
from .helpers_web import api, live_server  # noqa: F401  (the web tests' fixtures)

settings.register_profile(
    "dev", max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
