"""The package and the tests pass ruff (pyflakes, pycodestyle, bugbear; settings in pyproject.toml)."""

import subprocess
import sys

from rnnrepro.book.paths import REPO


def test_ruff_clean():
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise", "rnnrepro", "tests"],
                         cwd=REPO, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
