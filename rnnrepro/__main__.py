"""``python -m rnnrepro``: see :mod:`rnnrepro.book.cli`."""

import sys

from rnnrepro.book.cli import main

sys.exit(main())
