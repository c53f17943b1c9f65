"""The operator PIN gate: digits keyed on player 1's buttons, and a lockout.

Three wrong PINs in a row lock the gate for a minute (:data:`LOCKOUT_AFTER`,
:data:`LOCKOUT_S`); the count starts again after the lockout or a right PIN. The gate
reads no clock: each call carries ``now_ns`` (CLOCK_MONOTONIC ns). Its state is kept in
memory for as long as the cabinet runs (a restart clears a lockout: the PIN guards
against a curious player, the door lock against a determined one).
"""

from __future__ import annotations

import enum

from game.units import S

LOCKOUT_AFTER = 3
"""Wrong PINs in a row that lock the gate."""
LOCKOUT_S = 60
"""How long a lockout lasts (s)."""


class PinResult(enum.Enum):
    MORE = "more"
    """A digit was taken; the PIN is not complete yet."""
    RIGHT = "right"
    WRONG = "wrong"
    LOCKED = "locked"
    """Locked out: the digit was ignored."""


class PinGate:
    """Checks keyed PINs against the current PIN and locks out after wrong ones."""

    def __init__(self, *, lockout_after: int = LOCKOUT_AFTER, lockout_s: float = LOCKOUT_S):
        self.lockout_after = lockout_after
        self.lockout_ns = int(lockout_s * S)
        self.entered = ""
        self.wrong = 0
        """Wrong PINs in a row."""
        self.locked_until_ns: int | None = None

    def locked_s(self, now_ns: int) -> int:
        """Whole seconds of lockout left (0: not locked)."""
        until = self.locked_until_ns
        if until is None or now_ns >= until:
            return 0
        return -(-(until - now_ns) // S)

    @property
    def tries_left(self) -> int:
        return self.lockout_after - self.wrong

    def clear(self) -> None:
        """Forget the digits keyed so far."""
        self.entered = ""

    def key(self, digit: str, pin: str, now_ns: int) -> PinResult:
        """Take one digit (``"1"``–``"6"``) towards ``pin``. The PIN is checked when as
        many digits as it has were keyed."""
        if self.locked_s(now_ns):
            return PinResult.LOCKED
        if self.locked_until_ns is not None:
            self.locked_until_ns = None
            self.wrong = 0
        self.entered += digit
        if len(self.entered) < len(pin):
            return PinResult.MORE
        right = self.entered == pin
        self.entered = ""
        if right:
            self.wrong = 0
            return PinResult.RIGHT
        self.wrong += 1
        if self.wrong >= self.lockout_after:
            self.locked_until_ns = now_ns + self.lockout_ns
        return PinResult.WRONG
