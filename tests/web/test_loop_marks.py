"""A worker that ran a browser test can run asyncio tests next, and the reverse (see
tests/helpers_loop.py): the probe's five tests, in one process, all pass and the browser
closes without complaint."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_browser_and_asyncio_tests_take_turns_on_one_worker() -> None:
    env = {**os.environ, "PYTHONWARNINGS": "error::RuntimeWarning"}
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-W", "error::pytest.PytestUnraisableExceptionWarning", "tests/web/probe_loop.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert "5 passed" in out and "error" not in out.lower(), out[-4000:]
