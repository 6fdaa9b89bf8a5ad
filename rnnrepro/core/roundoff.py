"""The float64 round-off floor every chapter reads bounds against (CONTRIBUTING, *Rules for numbers*).

A difference below :data:`ROUNDOFF_FLOOR` (times the size of the quantities compared) is round-off, not
a result: a bound such as ``L^t d_0`` or ``λ^k B_x/(1-λ)`` that falls below it cannot be checked there, so
a chapter floors it (``max(bound, ROUNDOFF_FLOOR * scale)``) or leaves those points out.
"""

from __future__ import annotations

#: Distances below this are float64 round-off for quantities of size about one: about 4,500 ulps of 1
#: (``2**-52`` each), above what a few thousand rounded operations accumulate, far below any distance a
#: chapter resolves. Scale it by the size of the quantities compared (``ROUNDOFF_FLOOR * max|v|``).
ROUNDOFF_FLOOR = 1e-12
