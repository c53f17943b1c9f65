"""The fairness test's schedule, shared by the jig that presses and the cabinet that judges.

A jig (docs/fairness.md: a Raspberry Pi Pico wired across two button lines, or the
virtual Pi's injector on the kernel's GPIO simulator) presses line A (player 1's left
pile button) and line B (player 2's left pile button) in *pairs*: the first line, then
the second ``offset_us`` later, both held for ``HOLD_MS`` and let go. Pair ``k`` starts
``k * gap_ms`` after pair 0; which line goes first is drawn from a small generator both
sides run from the same seed, so a cabinet that always favoured one line would be found
(half of every offset's pairs go each way). The cabinet, knowing the same schedule, says
for each pair whether its referee gave the race to the line that really pressed first.

Offsets are cases: ``pairs`` pairs of each offset, in offset order, shortest first.

This module is written in the subset of Python that MicroPython runs (no ``__future__``
imports, no ``typing`` at run time, no dataclasses): the jig's firmware imports it.
"""

#: The offsets between the two presses of a pair, in microseconds (shortest first).
OFFSETS_US = (50, 100, 250, 1000, 5000)
#: Pairs per offset (half each way round) in a test an operator runs.
DEFAULT_PAIRS = 100
#: From one pair's first press to the next pair's.
DEFAULT_GAP_MS = 150
#: How long each press of a pair is held.
HOLD_MS = 40
#: The seed of the order generator (a jig and a cabinet must agree on it).
DEFAULT_SEED = 31
#: Line A (player 1's left pile button) goes first.
A_FIRST = 0
#: Line B (player 2's left pile button) goes first.
B_FIRST = 1


class Schedule:
    """``pairs`` pairs of each offset in ``offsets_us``, ``gap_ms`` apart, in an order
    drawn from ``seed``: an even number of pairs per offset, half each way round."""

    def __init__(
        self,
        offsets_us: tuple[int, ...] = OFFSETS_US,
        pairs: int = DEFAULT_PAIRS,
        gap_ms: int = DEFAULT_GAP_MS,
        seed: int = DEFAULT_SEED,
    ) -> None:
        if not offsets_us:
            raise ValueError("a fairness test needs at least one offset")
        for offset in offsets_us:
            if not 1 <= offset <= 20000:
                raise ValueError("an offset is 1 to 20000 microseconds, not " + str(offset))
        if pairs < 2 or pairs % 2:
            raise ValueError("pairs per offset must be even and at least 2, not " + str(pairs))
        if gap_ms < 2 * HOLD_MS + 20:
            raise ValueError("pairs need at least " + str(2 * HOLD_MS + 20) + " ms between them")
        self.offsets_us: tuple[int, ...] = tuple(offsets_us)
        self.pairs: int = pairs
        self.gap_ms: int = gap_ms
        self.seed = seed
        self._firsts: list[int] = _orders(len(self.offsets_us), pairs, seed)

    def __len__(self) -> int:
        return len(self.offsets_us) * self.pairs

    def offset_us(self, k: int) -> int:
        """Pair ``k``'s offset between its first and second press."""
        return self.offsets_us[k // self.pairs]

    def first(self, k: int) -> int:
        """Which line pair ``k`` presses first: :data:`A_FIRST` or :data:`B_FIRST`."""
        return self._firsts[k]

    def start_ms(self, k: int) -> int:
        """When pair ``k``'s first press comes, from pair 0's."""
        return k * self.gap_ms

    def seconds(self) -> float:
        """How long the whole test takes to press, from pair 0 to the last release."""
        return (self.start_ms(len(self) - 1) + HOLD_MS) / 1000 + max(self.offsets_us) / 1e6


def _orders(cases: int, pairs: int, seed: int) -> list[int]:
    """For each case, ``pairs // 2`` of each order, shuffled (Fisher-Yates over a 32-bit
    xorshift, the same on MicroPython and CPython)."""
    state = (seed & 0xFFFFFFFF) or 1
    out = []
    for _ in range(cases):
        case = [A_FIRST] * (pairs // 2) + [B_FIRST] * (pairs // 2)
        for i in range(len(case) - 1, 0, -1):
            state ^= (state << 13) & 0xFFFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0xFFFFFFFF
            j = state % (i + 1)
            case[i], case[j] = case[j], case[i]
        out.extend(case)
    return out
