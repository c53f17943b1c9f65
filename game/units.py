"""The units of every time in the cabinet: an int of nanoseconds on a monotonic clock.

>>> 250 * MS
250000000
>>> 3 * S // MS
3000
"""

from __future__ import annotations

US = 1_000
"""Nanoseconds in a microsecond."""
MS = 1_000_000
"""Nanoseconds in a millisecond."""
S = 1_000_000_000
"""Nanoseconds in a second."""
