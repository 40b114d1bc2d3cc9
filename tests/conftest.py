"""Hypothesis profiles: ``dev`` (the default: a few examples, fresh ones each run) and
``ci`` (what ``make test`` and CI run: a real budget, derandomized so that a run can be
repeated example for example, and no example database).

Property tests that leave ``max_examples`` to the profile get its budget; those that set
their own (the fuzzers, the rank tables) keep it and take the rest (derandomize) from
the profile. Choose one with ``pytest --hypothesis-profile=ci`` or ``HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from .helpers_scale import db, pairs, pg, rd  # noqa: F401  (PostgreSQL and Redis, once a session)
from .helpers_web import api, live_server  # noqa: F401  (the web tests' fixtures)

settings.register_profile(
    "dev", max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


@pytest.fixture(autouse=True)
def _no_event_loop_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test must not leave the main thread marked as running an event loop: the next
    async test of the same worker would fail to start ("Runner.run() cannot be called from
    a running event loop", seen twice at the end of a full run). The marker is cleared and
    the test that left it is named on stderr, so that the leak can be found."""
    yield
    if asyncio.events._get_running_loop() is not None:
        asyncio.events._set_running_loop(None)
        print(f"\nevent loop left marked running by {request.node.nodeid}", file=sys.stderr)
