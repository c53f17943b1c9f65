"""What the indicator lights show, derived from the flow and the game.

:func:`lights_for` is a pure function of what is on screen: the table process lights the
LED board with it, and the display's presenter (:mod:`cabinet.display.presenter`) calls
it every frame for the on-screen strip (no board connected).

- STUCK per player: on (red) while that player is stuck (R11).
- SPIT: flashing through "ready… spit!" (the start, and every countdown when both are
  stuck).
- Button lights: the selected slot's button; with hints on (the ``button_hints``
  setting, on unless the operator turns it off), the slots whose card can play; pulsing
  invitations in attract and join.
"""

from __future__ import annotations

from collections.abc import Collection

from cabinet.shared.phase import Phase
from firmware_bridge.lights import (
    AMBER,
    BLUE,
    GREEN,
    LIGHT_NAMES,
    RED,
    WHITE,
    Colour,
    Light,
    LightName,
    LightState,
)
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


def button_light(player: int, button: Button) -> LightName:
    """The light of ``player`` (0/1)'s ``button``: ``p1_slot1`` … ``p2_pile2``."""
    return _BUTTON_LIGHTS[player][button]


def light_button(name: LightName) -> tuple[int, Button] | None:
    """The (player, button) whose light ``name`` is, or ``None`` (STUCK and SPIT)."""
    return _LIGHT_BUTTONS.get(name)


def stuck_light(player: int) -> LightName:
    """``player`` (0/1)'s STUCK light."""
    return (LightName.STUCK1, LightName.STUCK2)[player]


_BUTTON_LIGHTS: tuple[dict[Button, LightName], dict[Button, LightName]] = (
    dict(zip(Button, LIGHT_NAMES[3:9], strict=True)),
    dict(zip(Button, LIGHT_NAMES[9:15], strict=True)),
)
_LIGHT_BUTTONS = {
    name: (player, button)
    for player, lights in enumerate(_BUTTON_LIGHTS)
    for button, name in lights.items()
}


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
    lights: dict[LightName, Light] = {}

    def put(name: LightName, light: Light) -> None:
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
        put(LightName.SPIT, Light.blink(SPIT_BLINK_MS, colour(GREEN)))
    if table is not None and phase in (Phase.READY, Phase.PLAY):
        for p in (0, 1):
            if table.stuck[p]:
                put(stuck_light(p), Light.on(colour(RED)))
            for player, slot in hints:
                if player == p:
                    put(button_light(p, Button.slot(slot)), Light.on(colour(BLUE)))
            selected = table.selected[p]
            if selected is not None:
                put(button_light(p, Button.slot(selected)), Light.on(colour(WHITE)))
    return LightState.all_off().replaced(lights)


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


def game_lights(
    phase: Phase,
    table: TableState,
    *,
    start_abs_ns: int,
    humans: Collection[int],
    now_abs_ns: int,
    hints_on: bool,
    joined: tuple[bool, bool] = (False, False),
    winner: int | None = None,
    brightness: int = 100,
) -> LightState:
    """:func:`lights_for` a running game, its countdown and hints worked out here, the one
    place for both processes: the table lights the board with it, the presenter the
    on-screen strip. ``start_abs_ns``: the game's start on the cabinet's clock;
    ``humans``: the seats people play (hints are for them)."""
    countdown = countdown_left_ns(start_abs_ns, table.spit_due_ns, now_abs_ns) is not None
    hints = [(p, slot) for p in humans for slot in table.playable[p]] if hints_on else []
    return lights_for(
        phase,
        table,
        countdown=countdown,
        joined=joined,
        winner=winner,
        hints=hints,
        brightness=brightness,
    )
