"""What the indicator lights show, derived from the flow and the game.

:func:`lights_for` is a pure function of what is on screen: the table process lights the
LED board with it, and the display's presenter (:mod:`cabinet.presenter`) calls it every
frame for the on-screen strip (no board connected).

- STUCK per player: on (red) while that player is stuck (R11).
- SPIT: flashing through "ready… spit!" (the start, and every countdown when both are
  stuck).
- Button lights: the selected slot's button; with hints on, the slots that can play (off
  by default: it changes the game); pulsing invitations in attract and join.
"""

from __future__ import annotations

from collections.abc import Collection

from cabinet.flow import Phase
from firmware_bridge.lights import AMBER, BLUE, GREEN, RED, WHITE, Colour, Light, LightState
from game.edges import Button
from game.table_state import TableState

SPIT_BLINK_MS = 250
INVITE_PULSE_MS = 1600


def _scale(colour: Colour, brightness: int) -> Colour:
    return (
        colour[0] * brightness // 100,
        colour[1] * brightness // 100,
        colour[2] * brightness // 100,
    )


def button_light(player: int, button: Button) -> str:
    """The light of ``player`` (0/1)'s ``button``: ``p1_slot1`` … ``p2_pile2``."""
    return f"p{player + 1}_{button.value}"


def lights_for(
    phase: Phase,
    table: TableState | None,
    *,
    countdown: bool,
    joined: tuple[bool, bool] = (False, False),
    winner: int | None = None,
    hints: Collection[tuple[int, int]] = (),
    brightness: int = 100,
) -> LightState:
    """The whole light state for this moment.

    ``table``: the game's state (play and ready), or ``None``. ``countdown``: whether
    "ready… spit!" is running. ``hints``: (player, slot) pairs whose card can play, lit
    when the operator turned hints on (pass none otherwise). ``brightness``: 0–100 %.
    """
    lights: dict[str, Light] = {}

    def put(name: str, light: Light) -> None:
        lights[name] = light

    def colour(c: Colour) -> Colour:
        return _scale(c, brightness)

    if phase is Phase.ATTRACT:
        for p in (0, 1):
            for b in Button:
                put(button_light(p, b), Light.pulse(INVITE_PULSE_MS, colour(BLUE)))
    elif phase is Phase.JOIN:
        for p in (0, 1):
            for b in Button:
                light = (
                    Light.on(colour(GREEN))
                    if joined[p]
                    else Light.pulse(INVITE_PULSE_MS, colour(BLUE))
                )
                put(button_light(p, b), light)
    elif phase is Phase.GAME_OVER and winner is not None:
        for b in Button:
            put(button_light(winner, b), Light.blink(500, colour(AMBER)))
    if countdown:
        put("spit", Light.blink(SPIT_BLINK_MS, colour(GREEN)))
    if table is not None and phase in (Phase.READY, Phase.PLAY):
        for p in (0, 1):
            if table.stuck[p]:
                put(f"stuck{p + 1}", Light.on(colour(RED)))
            for player, slot in hints:
                if player == p:
                    put(button_light(p, Button.slot(slot)), Light.on(colour(BLUE)))
            selected = table.selected[p]
            if selected is not None:
                put(button_light(p, Button.slot(selected)), Light.on(colour(WHITE)))
    return LightState.all_off().with_lights(**lights)


READY_SHOWN_NS = 300_000_000
"""The last 300 ms of a countdown say "spit!" instead of "ready…"."""
SPIT_SHOWN_NS = 400_000_000
""""Spit!" stays up 400 ms after the spit."""


def countdown_left_ns(start_abs_ns: int, spit_due_ns: int | None, now_abs_ns: int) -> int | None:
    """Time left (ns, negative just after the spit) of the "ready… spit!" running at cabinet
    clock reading ``now_abs_ns``: the start's (until ``start_abs_ns``, R5) or R11's (until
    ``spit_due_ns``, match time); ``None`` when none is shown."""
    if now_abs_ns < start_abs_ns:
        return start_abs_ns - now_abs_ns
    if spit_due_ns is None:
        return None
    left = spit_due_ns - (now_abs_ns - start_abs_ns)
    return left if left >= -SPIT_SHOWN_NS else None


def countdown_ends_abs_ns(
    start_abs_ns: int, spit_due_ns: int | None, now_abs_ns: int
) -> int | None:
    """When the countdown shown at ``now_abs_ns`` changes next (its lights go off), or
    ``None``: the table wakes then to put the lights right."""
    if now_abs_ns < start_abs_ns:
        return start_abs_ns
    if spit_due_ns is None:
        return None
    return start_abs_ns + spit_due_ns + SPIT_SHOWN_NS
