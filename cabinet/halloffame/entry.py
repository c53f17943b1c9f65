"""Entering initials with a player's own buttons: three characters, a time limit.

Slot 1 moves the current character up the alphabet (A, B, … Z, 0 … 9, space, and round),
slot 2 down, slot 3 goes back one character (deleting it), and either pile button
confirms the character and moves on; the third confirm finishes. After
:data:`TIME_LIMIT_NS` the entry finishes by itself with what was confirmed (characters not
confirmed are spaces; nothing confirmed gives blank initials, shown ``---``).

>>> entry = InitialsEntry(started_ns=0)
>>> for button in (Button.SLOT1, Button.PILE1, Button.PILE2, Button.SLOT2, Button.PILE1):
...     entry.press(button, 1)
>>> entry.done, entry.initials
(True, 'BA ')
"""

from __future__ import annotations

from typing import Final

from cabinet.halloffame.names import ALPHABET
from game.edges import Button

TIME_LIMIT_NS: Final = 30_000_000_000
"""How long a player has to enter initials (30 s)."""

LENGTH: Final = 3


class InitialsEntry:
    """One player's entry, started at ``started_ns`` (cabinet clock)."""

    def __init__(self, started_ns: int, limit_ns: int = TIME_LIMIT_NS) -> None:
        self.started_ns = started_ns
        self.deadline_ns = started_ns + limit_ns
        self.chosen: list[str] = []
        """The confirmed characters."""
        self.current = 0
        """The index in :data:`ALPHABET` of the character being chosen."""
        self.done = False

    @property
    def initials(self) -> str:
        """The confirmed characters, padded with spaces to three."""
        return "".join(self.chosen).ljust(LENGTH)

    @property
    def showing(self) -> str:
        """The three characters as shown while entering: confirmed, the one being chosen,
        then blanks."""
        if self.done:
            return self.initials
        return ("".join(self.chosen) + ALPHABET[self.current]).ljust(LENGTH)

    @property
    def position(self) -> int:
        """Which of the three characters is being chosen (0-2; 3 once done)."""
        return LENGTH if self.done else len(self.chosen)

    def press(self, button: Button, now_ns: int) -> None:
        """A press of one of this player's buttons at ``now_ns``."""
        if self.finish_if_late(now_ns):
            return
        if button is Button.SLOT1:
            self.current = (self.current + 1) % len(ALPHABET)
        elif button is Button.SLOT2:
            self.current = (self.current - 1) % len(ALPHABET)
        elif button is Button.SLOT3:
            if self.chosen:
                self.current = ALPHABET.index(self.chosen.pop())
        elif button in (Button.PILE1, Button.PILE2):
            self.chosen.append(ALPHABET[self.current])
            self.current = 0
            if len(self.chosen) == LENGTH:
                self.done = True

    def finish_if_late(self, now_ns: int) -> bool:
        """Past the time limit: finish with what was confirmed. Returns ``done``."""
        if not self.done and now_ns >= self.deadline_ns:
            self.done = True
        return self.done

    def seconds_left(self, now_ns: int) -> int:
        """Whole seconds left (rounded up), 0 once done."""
        if self.done:
            return 0
        return max(0, -(-(self.deadline_ns - now_ns) // 1_000_000_000))
