"""The on-screen lights strip: what colour each light shows at a given time, and the
strip's lights painted at their spots.

Used when no LED board is connected, so a newcomer sees every light the cabinet drives.
The board times blinking and pulsing itself (PROTOCOL.md); on screen the same modes are
timed from the renderer's clock: blink is on for the first half of each period, pulse is
dark at the start of each period and brightest halfway, as on the board.
"""

from __future__ import annotations

import dataclasses
from functools import partial

import pygame

from cabinet.drawing.painter import DrawItem, Look, Painter
from firmware_bridge.lights import Light, LightState, Mode
from game.units import MS

Colour = tuple[int, int, int]

#: An unlit lamp: dark grey, so the strip shows where each light is.
UNLIT: Colour = (48, 52, 50)

#: A pulse is drawn in this many brightness steps per half period (fewer repaints).
PULSE_STEPS = 12


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


def paint_lights(painter: Painter, state: LightState | None, now_ns: int) -> int | None:
    """Each light of ``state`` (all off for ``None``) at its spot on the strip, if the
    layout has one; returns when the first of them next changes (``None``: steady)."""
    spots = painter.geometry.light_spots
    if not spots:
        return None
    lights = state if state is not None else LightState.all_off()
    wake_ns: int | None = None
    for i, (spot, light) in enumerate(zip(spots, lights.lights, strict=True)):
        colour, change_ns = light_colour(light, now_ns)
        if change_ns is not None and (wake_ns is None or change_ns < wake_ns):
            wake_ns = change_ns
        painter.add(
            DrawItem("light", spot, index=i, style=colour), _light_look(painter, spot.w, colour)
        )
    return wake_ns


def _light_look(painter: Painter, size: int, colour: Colour) -> Look:
    """A light ``size`` px across in ``colour``: a white lamp in its black ring, tinted,
    so a pulsing light is one picture at every level (a GPU tints its one texture)."""
    key = ("light", size, colour)
    look = painter.looks.get(key)
    if look is None:
        lamp = painter.shape(("lamp", size), (size, size), partial(_lamp_surface, size))
        look = painter.looks.put(key, dataclasses.replace(lamp, tint=colour))
    return look


def _lamp_surface(size: int) -> pygame.Surface:
    """A white lamp in a black ring (tinted to the light's colour as it is drawn)."""
    surface = pygame.Surface((size, size), pygame.SRCALPHA)
    r = size / 2
    pygame.draw.circle(surface, (0, 0, 0), (r, r), r)
    pygame.draw.circle(surface, (255, 255, 255), (r, r), r * 0.8)
    return surface
