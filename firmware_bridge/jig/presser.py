"""Pressing a fairness schedule's pairs on two lines, timed by a microsecond clock: pure
logic, no hardware (MicroPython subset).

:func:`press_pairs` takes the two lines (anything with ``press()`` and ``release()``:
:class:`~firmware_bridge.jig.lines.OpenDrainLine` on the board), the clock (MicroPython's
``time`` module on the board) and what holds interrupts off (the ``machine`` module), so
the tests run it on the fake hardware of :mod:`firmware_bridge.jig.fake` with a virtual
clock that never sleeps for real.

The timing, as the virtual Pi's software jig does it (scripts/virtual-pi/guest_jig.py):

- Pair ``k``'s first press is due ``lead_in_ms + k * gap_ms`` after the start, on the
  Pico's own microsecond timer (``time.ticks_us``; ticks wrap, so every comparison goes
  through ``ticks_diff`` and every due time is stepped on by at most one gap with
  ``ticks_add``). A pair that starts late does not move the ones after it: the cabinet
  finds pair ``k`` by its time.
- The jig sleeps until a little before a due time (:data:`SPIN_US`), then busy-waits on
  the timer: ``time.sleep_ms`` is far coarser than 50 µs.
- From :data:`QUIET_US` before the first press to the second, interrupts are held off
  (at most 20.1 ms: the longest offset a schedule allows is 20 ms), so a USB interrupt
  cannot fall between the two presses, nor just before the first.
- The second press is written once the timer has reached the offset after the reading
  taken just before the first was written: the line written first is the line pressed
  first, and the two are at least the offset apart, measured between the readings taken
  just before each write (the timer counts whole microseconds, and each write follows its
  reading by the same few instructions).
- Each press is held :data:`~firmware_bridge.fairness.HOLD_MS` from its own press, then
  let go.

The report says how far apart each pair's two writes really were (per offset: the
median and the largest, in µs) and how late the latest pair started, as guest_jig.py's
does.
"""

from firmware_bridge.fairness import A_FIRST, HOLD_MS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from firmware_bridge.fairness import Schedule
    from firmware_bridge.jig.interfaces import ClockLike, IrqLike, LineLike

#: The jig sleeps until less than this long (µs) is left before a due time, then busy-waits.
SPIN_US = 2000
#: Interrupts are held off from this long (µs) before a pair's first press to its second.
QUIET_US = 100


def sleep_until(clock: "ClockLike", due: int) -> None:
    """Sleep (``clock.sleep_ms``) until at most :data:`SPIN_US` is left before the tick
    ``due``; return at once when less is left (or ``due`` has passed)."""
    while True:
        left = clock.ticks_diff(due, clock.ticks_us())
        if left <= SPIN_US:
            return
        clock.sleep_ms(left // 1000 - 1)


def spin_until(
    ticks_us: "Callable[[], int]", ticks_diff: "Callable[[int, int], int]", due: int
) -> int:
    """Busy-wait until the timer reads ``due`` or later; return that reading."""
    while True:
        now = ticks_us()
        if ticks_diff(now, due) >= 0:
            return now


def press_pairs(
    schedule: "Schedule",
    lines: "tuple[LineLike, LineLike]",
    clock: "ClockLike",
    irqs: "IrqLike",
    lead_in_ms: int,
) -> "dict[str, object]":
    """Press every pair of ``schedule`` on ``lines`` (line A, line B), the first
    ``lead_in_ms`` from now; return the report (:func:`report`).

    Both lines are let go however this ends (a Ctrl-C from the USB host included)."""
    n = len(schedule)
    apart = [0] * n
    late = [0] * n
    gap_us = schedule.gap_ms * 1000
    hold_us = HOLD_MS * 1000
    ticks_us = clock.ticks_us
    ticks_diff = clock.ticks_diff
    ticks_add = clock.ticks_add
    line_a, line_b = lines
    try:
        due = ticks_add(ticks_us(), lead_in_ms * 1000)
        for k in range(n):
            if schedule.first(k) == A_FIRST:
                first, second = line_a, line_b
            else:
                first, second = line_b, line_a
            offset = schedule.offset_us(k)
            sleep_until(clock, due)
            spin_until(ticks_us, ticks_diff, ticks_add(due, -QUIET_US))
            state = irqs.disable_irq()
            try:
                t1 = spin_until(ticks_us, ticks_diff, due)
                first.press()
                t2 = spin_until(ticks_us, ticks_diff, ticks_add(t1, offset))
                second.press()
            finally:
                irqs.enable_irq(state)
            apart[k] = ticks_diff(t2, t1)
            late[k] = ticks_diff(t1, due)
            let_go = ticks_add(t1, hold_us)
            sleep_until(clock, let_go)
            spin_until(ticks_us, ticks_diff, let_go)
            first.release()
            let_go = ticks_add(t2, hold_us)
            sleep_until(clock, let_go)
            spin_until(ticks_us, ticks_diff, let_go)
            second.release()
            due = ticks_add(due, gap_us)
    finally:
        line_a.release()
        line_b.release()
    return report(schedule, apart, late)


def report(schedule: "Schedule", apart: "list[int]", late: "list[int]") -> "dict[str, object]":
    """What the jig did: ``pairs`` pressed; ``written_apart_us``, per offset (its decimal
    text), the ``median`` and ``max`` of how far apart the pairs' two writes were (µs);
    ``start_late_us_max``, how late the latest pair's first press was (µs)."""
    per_offset = {}
    pairs = schedule.pairs
    for c, offset in enumerate(schedule.offsets_us):
        taken = sorted(apart[c * pairs : (c + 1) * pairs])
        middle = len(taken) // 2  # pairs is even
        per_offset[str(offset)] = {
            "median": (taken[middle - 1] + taken[middle]) / 2,
            "max": taken[-1],
        }
    return {
        "pairs": len(schedule),
        "written_apart_us": per_offset,
        "start_late_us_max": max(late) if late else 0,
    }
