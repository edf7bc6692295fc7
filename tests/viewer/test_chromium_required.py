"""Without Chromium the browser tests must fail, saying how to install it, never skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_missing_chromium_fails_the_browser_tests_with_the_fix():
    # no plugins loaded by entry point (hypothesis, schemathesis: seconds of imports), none needed
    env = {**os.environ, "HERALD_CHROMIUM": "/nonexistent/chromium", "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/viewer/test_pages.py::test_the_generic_renderer_draws_any_view_as_a_tree"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    out = run.stdout + run.stderr
    assert run.returncode != 0, out
    assert "skipped" not in out.splitlines()[-1], out
    assert "/nonexistent/chromium" in out and "apt-get install -y chromium" in out, out
