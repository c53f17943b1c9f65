"""Checks of values read from outside (records, settings, messages), shared by every
package that may import ``game``.

>>> is_int(3), is_int(True), is_int(3.0)
(True, False, False)
"""

from __future__ import annotations

from typing import TypeGuard


def is_int(value: object) -> TypeGuard[int]:
    """An int that is not a bool: JSON's and TOML's ``true`` is no count."""
    return isinstance(value, int) and not isinstance(value, bool)
