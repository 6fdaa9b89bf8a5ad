"""``python -m rnnrepro scaffold-claim KEY NAME``: a draft row added to a chapter, with its module and its test.

Writes three things, each a working example to replace (CONTRIBUTING, *Adding one claim*):

* ``rnnrepro/<key>/draft_<name>.py``: the helper that computes the row's number (here: the largest one-step
  distance factor of a linear map ``W = norm·Q``, ``Q`` orthogonal), with its shapes in the docstring;
* ``tests/test_<key>_draft_<name>.py``: its unit test against an independent reference (for ``W = norm·Q`` every
  distance is multiplied by exactly ``norm``);
* a code cell tagged ``draft`` in ``book/chapters/<key>.md``, just before ``## Behind this page``: it opens the
  section ``draft_<name>`` and records the row with :meth:`rnnrepro.book.ledger.Ledger.draft` (a finding the page
  shows marked draft, which never stops the run and leaves the shipped full result current).

Run it alone with ``python -m rnnrepro run KEY --explore --only draft_<name>``.
"""

from __future__ import annotations

import re
from pathlib import Path

from rnnrepro.book.chapters import get_chapter
from rnnrepro.book.paths import REPO
from rnnrepro.errors import ConfigError

ANCHOR = "\n## Behind this page"

MODULE = '''"""Draft helper of the row ``{key}.draft.{name}`` (written by ``python -m rnnrepro scaffold-claim``):
replace this example computation by the one your claim needs, and keep the docstring's shapes."""

from __future__ import annotations

import torch


def contraction_factor(n: int, norm: float, seed: int, n_pairs: int = 100) -> float:
    """Largest ``||W x - W y|| / ||x - y||`` over ``n_pairs`` random pairs of states (n,) for ``W = norm * Q``, ``Q``
    a random orthogonal (n, n) matrix (float64): a linear map's one-step distance factor."""
    gen = torch.Generator().manual_seed(seed)
    Q, _ = torch.linalg.qr(torch.randn(n, n, generator=gen, dtype=torch.float64))
    W = norm * Q
    x, y = torch.randn(2, n_pairs, n, generator=gen, dtype=torch.float64)
    return float(((x - y) @ W.T).norm(dim=-1).div((x - y).norm(dim=-1)).max())
'''

TEST = '''"""The draft helper of ``{key}.draft.{name}`` against an independent reference (written by
``python -m rnnrepro scaffold-claim``; replace it with your helper's test)."""

import pytest

from rnnrepro.{key}.draft_{name} import contraction_factor


@pytest.mark.parametrize("norm", [0.5, 0.9, 1.1])
def test_an_orthogonal_map_scaled_by_norm_multiplies_every_distance_by_norm(norm):
    assert contraction_factor(n=8, norm=norm, seed=0) == pytest.approx(norm, rel=1e-12)
'''

CELL = '''```{{code-cell}} ipython3
:tags: [draft, hide-input]

# A draft row (python -m rnnrepro scaffold-claim {key} {name}):
# replace the measurement, the criterion, the control and the quote;
# CONTRIBUTING, "Adding one claim", says how it becomes a claim or a finding.
from rnnrepro.book.criteria import AtMost
from rnnrepro.{key}.draft_{name} import contraction_factor

with ledger.section("draft_{name}"):
    draft_measured = contraction_factor(n=8, norm=0.9, seed=p.seed)   # the system with the hypothesis, ||W|| < 1
    draft_control = contraction_factor(n=8, norm=1.1, seed=p.seed)    # the same system without it
ledger.draft(
    "{key}.draft.{name}",
    r"A linear map with $\\|W\\|_2 < 1$ shrinks every distance (largest one-step factor over random pairs).",
    ref="(draft: name the paper's item)", measured=draft_measured, criterion=AtMost(1.0),
    control=draft_control, control_note=r"the same map with $\\|W\\|_2 = 1.1$", fmt=".4f",
    quote="")   # the paper's sentence this row tests, copied verbatim (checked against the paper once given)
```

'''


def scaffold_claim(key: str, name: str, root: Path = REPO) -> list[Path]:
    """Add the draft row ``<key>.draft.<name>`` to chapter ``key`` under ``root`` (the module, its test and the
    draft cell: see the module's docstring); return the files written or changed. Raises ConfigError (one line)
    for a bad name, a chapter page without ``## Behind this page``, or a draft of that name already there."""
    chapter = get_chapter(key)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ConfigError(f"draft name {name!r}: use lowercase letters, digits and _ (e.g. one_step_bound)")
    page = Path(root) / chapter.notebook
    text = page.read_text()
    module = Path(root) / "rnnrepro" / chapter.key / f"draft_{name}.py"
    test = Path(root) / "tests" / f"test_{chapter.key}_draft_{name}.py"
    if f'ledger.section("draft_{name}")' in text or module.exists() or test.exists():
        raise ConfigError(f"{chapter.key} already has a draft {name!r} ({module.relative_to(root)}): "
                          f"choose another name")
    if ANCHOR not in text:
        raise ConfigError(f"{chapter.notebook} has no '## Behind this page' section to put the draft cell before")
    at = text.index(ANCHOR) + 1
    module.write_text(MODULE.format(key=chapter.key, name=name))
    test.write_text(TEST.format(key=chapter.key, name=name))
    page.write_text(text[:at] + CELL.format(key=chapter.key, name=name) + text[at:])
    return [module, test, page]
