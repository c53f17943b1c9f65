"""The presser of ``bench/races.py``: a process that fires presses of both players' slot
and pile buttons at random (on average an edge every 0.5 ms, so many close races), each
stamped with the moment it was due, as the kernel stamps an edge, into the mock pins'
press channel. Prints how late it sent them (JSON, on stderr) when done.

``python bench/presser.py SOCKET --edges N --seed S --window-ms W``
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import heapq
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from races import percentiles

from cabinet.inputs.controls import Control
from game.edges import Button
from game.rules import Rules
from game.units import MS

CONTROLS = {
    piles: [Control(p, b) for p in (0, 1) for b in Button if b.is_pile == piles]
    for piles in (False, True)
}
"""The twelve player buttons: each player's slots (``False``) and piles (``True``)."""

LISTED_NS = MS // 10
"""An edge sent later than this is listed with its lateness (``sent_late_ns``)."""
HOLD_NS = (15 * MS, 40 * MS)
"""How long a press is held: a quick tap (a finger cannot do much under 15 ms)."""
REPRESS_NS = 20 * MS
"""The least time between letting a button up and pressing it again: well above the
debounce time (an edge within it is chatter, and a tap shorter than it is reported once
it has passed, by design). Twelve buttons so used give an edge about every 2 ms."""


def presser(sock: str, edges: int, seed: int, window_ns: int) -> None:
    """The presser process: ``edges`` edges (presses and their releases), on average one
    every 0.5 ms, each stamped with the moment it was due."""
    from cabinet.inputs.press_channel import PressSender

    # The presser stands in for the kernel, which stamps an edge in its interrupt handler,
    # never late: real-time priority above the table's, where granted.
    with contextlib.suppress(PermissionError, OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(20))
    gc.disable()  # nor does a kernel stop to collect garbage
    rng = random.Random(seed)
    sender = PressSender(Path(sock))
    releases: list[tuple[int, int, Any]] = []
    held: set[Any] = set()
    last_up: dict[Any, int] = {}
    sent = 0
    due = time.monotonic_ns() + 50 * MS
    seq = 0
    while sent < edges:
        due += int(rng.expovariate(1.0) * MS)  # a press a ms: with releases, an edge a 0.5 ms
        while releases and releases[0][0] <= due and sent < edges:
            t, _, control = heapq.heappop(releases)
            _send_at(sender, control, False, t)
            held.discard(control)
            last_up[control] = t
            sent += 1
        # Half the presses on piles. A finger needs more than the debounce time to press
        # a button again.
        piles = rng.random() < 0.5
        free = [
            c for c in CONTROLS[piles] if c not in held and due - last_up.get(c, 0) >= REPRESS_NS
        ]
        if not free or sent >= edges:
            continue
        control = rng.choice(free)
        _send_at(sender, control, True, due)
        held.add(control)
        sent += 1
        seq += 1
        heapq.heappush(releases, (due + rng.randint(HOLD_NS[0], HOLD_NS[1]), seq, control))
    sender.close()
    # Tearing Python down takes milliseconds of CPU: not at a priority above the table's.
    with contextlib.suppress(PermissionError, OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    # An edge sent more than a race window late is late whatever the table does.
    beyond = [due for due, late in zip(DUE, LATENESS, strict=True) if late > window_ns]
    # Where a late edge lost its time starts with how late it was sent.
    listed = [[due, late] for due, late in zip(DUE, LATENESS, strict=True) if late > LISTED_NS]
    said = {
        **percentiles(LATENESS),
        "beyond_window": len(beyond),
        "beyond_window_due_ns": beyond,
        "sent_late_ns": listed,
    }
    print(json.dumps(said), file=sys.stderr)


def _send_at(sender: Any, control: Any, pressed: bool, due: int) -> None:
    left = due - time.monotonic_ns()
    if left > 0:
        time.sleep(left / 1e9)  # a real-time thread's timer has no slack: no spinning
    sender.send(control, pressed, due)
    LATENESS.append(time.monotonic_ns() - due)
    DUE.append(due)


LATENESS: list[int] = []
"""How late the presser sent each edge (ns): the part of the delivery delay that is the
stand-in kernel's, not the table's."""
DUE: list[int] = []
"""When each edge was due (its ``t_ns``), in the order of :data:`LATENESS`."""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("socket")
    parser.add_argument("--edges", type=int, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--window-ms", type=float, help="race window (default: the rules')")
    args = parser.parse_args(argv)
    rules = Rules() if args.window_ms is None else Rules(race_window_ms=args.window_ms)
    presser(args.socket, args.edges, args.seed, rules.race_window_ns)


if __name__ == "__main__":
    main()
