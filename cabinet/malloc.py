"""The C allocator's settings for the cabinet's long-running processes (glibc only).

By default glibc's malloc raises its mmap threshold each time a large block is freed (up
to 32 MB), so the screen's transient pictures (a card face drawn at three times its size
is 2.4 MB at 1080p, and is dropped once scaled) come to live in the heap, which is only
given back to the system from its top: the display process kept 114 MB resident where it
needed 77 (docs/display.md, "Memory"). :func:`tune_malloc` fixes both thresholds: blocks
of :data:`MMAP_THRESHOLD` bytes or more are mapped on their own and unmapped when freed,
and free memory at the heap's top past :data:`TRIM_THRESHOLD` is returned.
"""

from __future__ import annotations

import ctypes

#: Blocks at least this large are mapped on their own (glibc's default starts at 128 kB
#: and grows; fixing it stops the growth).
MMAP_THRESHOLD = 64 * 1024
#: Free memory at the heap's top past this is returned to the system (default 128 kB,
#: grown with the mmap threshold).
TRIM_THRESHOLD = 128 * 1024

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def tune_malloc() -> bool:
    """Fix glibc's thresholds (see the module's docstring); ``False`` where the C library
    is not glibc (nothing changed)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
