"""Hypothesis profiles: ``dev`` (the default: a few examples, fresh ones each run) and
``ci`` (what ``make test`` and CI run: a real budget, derandomized so that a run can be
repeated example for example, and no example database).

Property tests that leave ``max_examples`` to the profile get its budget; those that set
their own (the fuzzers, the rank tables) keep it and take the rest (derandomize) from
the profile. Choose one with ``pytest --hypothesis-profile=ci`` or ``HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from .helpers_loop import mark_for
from .helpers_scale import db, pairs, pg, rd  # noqa: F401  (PostgreSQL and Redis, once a session)
from .helpers_web import api, live_server  # noqa: F401  (the web tests' fixtures)

settings.register_profile(
    "dev", max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "ci", max_examples=30, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Each phase of a test starts with the event-loop mark it needs (see helpers_loop): a
# browser test's worker stays marked as running Playwright's loop between its tests.
@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    mark_for(item)
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    mark_for(item)
    return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    mark_for(item)
    return (yield)
