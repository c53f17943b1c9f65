"""Durations for people: race margins, in the unit that reads best."""

from __future__ import annotations


def format_margin(ns: int) -> str:
    """A race margin: ``"1 µs"``, ``"250 µs"``, ``"12.3 ms"``, ``"1.25 s"``."""
    if ns < 0:
        raise ValueError(f"a margin cannot be negative, got {ns} ns")
    if ns < 1_000_000:
        return f"{ns / 1_000:.3g} µs"
    if ns < 1_000_000_000:
        return f"{ns / 1_000_000:.3g} ms"
    return f"{ns / 1_000_000_000:.3g} s"
