"""Every chapter's `fast` profile, with torch's CPU kernels forced one instruction set lower.

Claims must hold on any x86-64 CPU (AVX2 or AVX-512, Intel or AMD); float32 results differ in their
last bits between instruction sets. This test re-runs each chapter with ATen, MKL and oneDNN forced
below the machine's own level (AVX-512 → AVX2, AVX2 → SSE4), so a claim that depends on the last bit
fails here rather than on a reader's machine. It does not prove portability, but it catches that.
"""

import json
import os
import subprocess
import sys

import pytest

from rnnrepro.book import machine
from rnnrepro.book.chapters import all_chapters
from rnnrepro.book.paths import REPO


@pytest.mark.chapter
@pytest.mark.portability
@pytest.mark.parametrize("key", list(all_chapters()))
def test_chapter_holds_on_a_lower_instruction_set(key, tmp_path):
    try:
        forced = machine.lower_isa_env()
    except ValueError as exc:
        pytest.skip(str(exc))
    res = subprocess.run([sys.executable, "-m", "rnnrepro", "run", key, "--out", str(tmp_path)],
                         env=dict(os.environ, **forced), capture_output=True, text=True, cwd=REPO)
    assert res.returncode == 0, f"{key} under {forced}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    ledger = json.loads((tmp_path / f"{key}.ledger.json").read_text())
    assert ledger["environment"]["cpu"]["capability"] == forced["ATEN_CPU_CAPABILITY"].upper()
