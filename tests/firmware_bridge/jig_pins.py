"""Reading back what the fairness jig's fake pins did (firmware_bridge/jig/fake.py), for the
jig's test modules: the pair shape every press must have, on MicroPython and on CPython."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LINE_A, LINE_B = 16, 17
"""The default GPIOs of line A (player 1's pile 1 button) and line B (player 2's)."""


def pairs_pressed(events: Sequence[Sequence[Any]]) -> list[dict[str, int]]:
    """The line pins' pad changes after they were set up, as pairs, checking the shape of
    each: first line down, second line down, first let go, second let go; never driven
    high, nothing in between."""
    on_lines = [(t, pin, state) for t, pin, state in events if pin in (LINE_A, LINE_B)]
    setup, changes = on_lines[:2], on_lines[2:]
    assert sorted((pin, state) for _, pin, state in setup) == [(16, "hi-z"), (17, "hi-z")]
    assert {state for _, _, state in changes} <= {"low", "hi-z"}, "a line was driven high"
    assert len(changes) % 4 == 0
    out = []
    for i in range(0, len(changes), 4):
        (t1, p1, s1), (t2, p2, s2), (r1, q1, u1), (r2, q2, u2) = changes[i : i + 4]
        assert (s1, s2, u1, u2) == ("low", "low", "hi-z", "hi-z"), changes[i : i + 4]
        assert p1 != p2 and (q1, q2) == (p1, p2), changes[i : i + 4]
        assert t1 <= t2 <= r1 <= r2
        out.append({"first": p1, "t1": t1, "t2": t2, "r1": r1, "r2": r2})
    return out
