"""``python -m rnnrepro``: see :mod:`rnnrepro.cli`."""

import sys

from .cli import main

sys.exit(main())
