"""The tests' PostgreSQL and Redis: started on 127.0.0.1 for the run (``forties.bench.services``,
which the load test uses too)."""

from forties.bench.services import Postgres, Redis, postgres, redis

__all__ = ["Postgres", "Redis", "postgres", "redis"]
