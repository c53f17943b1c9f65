"""Where a late edge of ``bench/races.py`` lost its time: each edge's way from the
presser to the referee, in four stages.

- ``sent``: the presser (the stand-in kernel) sent it this late after its ``t_ns``;
- ``to_channel``: from sent to the table's press channel receiving the datagram (the
  socket, and the wait for the channel's thread to run);
- ``handling``: from received to queued for the referee (the mock pin, gpiozero's
  change handler, the edge queue: Python on the channel's thread);
- ``to_referee``: from queued to the referee taking it in (``delivered_ns``: the wait
  for the table's loop to wake and take the queue).

:func:`edge_paths` reports the stages' percentiles over every edge the channel traced,
and for the late edges which stage was the longest, whether a long round of the table's
loop overlapped the edge's way, and the late edges themselves (at most
:data:`SHOWN`), so a late edge points at the part of the path that held it.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.units import MS

STAGES = ("sent", "to_channel", "handling", "to_referee")
SHOWN = 20
"""How many late edges the report lists one by one."""


def stages(t: int, sent_late: int, received: int, queued: int, delivered: int) -> dict[str, int]:
    """One edge's stages (ns): ``sent_late`` how late the presser sent it; the others
    clock readings (:data:`STAGES` says what each stage is)."""
    sent = t + sent_late
    return {
        "sent": sent_late,
        "to_channel": received - sent,
        "handling": queued - received,
        "to_referee": delivered - queued,
    }


def overlap_ns(start: int, end: int, steps: list[tuple[int, int]]) -> int:
    """How much of ``start``..``end`` the table loop's long rounds ``steps`` cover."""
    return sum(max(0, min(end, b) - max(start, a)) for a, b in steps)


def edge_paths(
    late: list[tuple[int, int]],
    path_ns: list[tuple[int, int, int]],
    delivered_ns: dict[int, int],
    sent_late_ns: dict[int, int],
    steps_ns: list[tuple[int, int]],
) -> dict[str, Any]:
    """The report: ``late`` the late edges (``t_ns``, delivered); ``path_ns`` the
    channel's stamps (``t_ns``, received, queued); ``delivered_ns`` every edge's delivery
    by its ``t_ns``; ``sent_late_ns`` how late the presser sent an edge, by ``t_ns``
    (those it does not list it sent on time, within its own threshold); ``steps_ns`` the
    table loop's long rounds (start, end)."""
    by_t = {t: (received, queued) for t, received, queued in path_ns}
    every: dict[str, list[int]] = {s: [] for s in STAGES}
    for t, delivered in delivered_ns.items():
        if t not in by_t:
            continue
        received, queued = by_t[t]
        for name, ns in stages(t, sent_late_ns.get(t, 0), received, queued, delivered).items():
            every[name].append(ns)
    longest: Counter[str] = Counter()
    in_long_steps = 0
    shown: list[dict[str, float]] = []
    for t, delivered in sorted(late):
        if t not in by_t:
            longest["untraced"] += 1
            continue
        received, queued = by_t[t]
        parts = stages(t, sent_late_ns.get(t, 0), received, queued, delivered)
        longest[max(parts, key=lambda s: parts[s])] += 1
        covered = overlap_ns(t, delivered, steps_ns)
        in_long_steps += covered > 0
        if len(shown) < SHOWN:
            row = {name: round(ns / MS, 3) for name, ns in parts.items()}
            shown.append({**row, "long_rounds_ms": round(covered / MS, 3)})
    from races import percentiles

    return {
        "stages_ms": {name: percentiles(values) for name, values in every.items()},
        "late_longest_stage": dict(longest),
        "late_waiting_on_a_long_round": in_long_steps,
        "long_rounds": {
            "count": len(steps_ns),
            "ms": percentiles([b - a for a, b in steps_ns]),
        },
        "late_edges": shown,
    }
