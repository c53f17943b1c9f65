"""The on-screen lights strip: what colour each light shows at a given time.

Used when no LED board is connected, so a newcomer sees every light the cabinet drives.
The board times blinking and pulsing itself (PROTOCOL.md); on screen the same modes are
timed from the renderer's clock: blink is on for the first half of each period, pulse is
dark at the start of each period and brightest halfway, as on the board.
"""

from __future__ import annotations

from firmware_bridge.lights import Light, Mode

Colour = tuple[int, int, int]

#: An unlit lamp: dark grey, so the strip shows where each light is.
UNLIT: Colour = (48, 52, 50)

#: A pulse is drawn in this many brightness steps per half period (fewer repaints).
PULSE_STEPS = 12

MS = 1_000_000


def light_colour(light: Light, now_ns: int) -> tuple[Colour, int | None]:
    """The colour ``light`` shows at ``now_ns``, and when that next changes (ns), or
    ``None`` for a steady light."""
    if light.mode is Mode.OFF:
        return UNLIT, None
    if light.mode is Mode.ON:
        return _mix(light.colour, 1.0), None
    period_ns = light.period_ms * MS
    start = now_ns - now_ns % period_ns
    phase_ns = now_ns - start
    if light.mode is Mode.BLINK:
        half = period_ns // 2
        if phase_ns < half:
            return _mix(light.colour, 1.0), start + half
        return UNLIT, start + period_ns
    # PULSE: a triangle from dark (phase 0) to full (half period) and back.
    step_ns = max(1, period_ns // (2 * PULSE_STEPS))
    step = phase_ns // step_ns
    level = step if step <= PULSE_STEPS else 2 * PULSE_STEPS - step
    return _mix(light.colour, max(0, level) / PULSE_STEPS), start + (step + 1) * step_ns


def _mix(colour: Colour, level: float) -> Colour:
    """``colour`` at ``level`` (0..1) over the unlit grey."""
    r, g, b = (round(u + (c - u) * level) for c, u in zip(colour, UNLIT, strict=True))
    return (r, g, b)
