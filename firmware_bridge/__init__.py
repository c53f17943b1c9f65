"""The link to the light board (a Raspberry Pi Pico running MicroPython): the lights as
values (:mod:`firmware_bridge.lights`), the protocol's codec (:mod:`firmware_bridge.codec`,
PROTOCOL.md), the host's link that keeps the board showing the latest state through
unplugs and resets (:mod:`firmware_bridge.link`), the board's firmware
(:mod:`firmware_bridge.firmware`) and a simulator on a pseudo-terminal
(:mod:`firmware_bridge.sim`); and the fairness test's schedule
(:mod:`firmware_bridge.fairness`) with the firmware of the jig that presses it
(:mod:`firmware_bridge.jig`). The host side needs pyserial; the firmware only
MicroPython's own modules.

This file is copied to the board with the firmware, so it imports nothing: use the
modules themselves.

>>> from firmware_bridge.lights import RED, Light, LightName, LightState
>>> state = LightState.all_off().with_lights(stuck1=Light.on(RED))
>>> state[LightName.STUCK1].colour
(255, 0, 0)
>>> len(state.lit())
1

:class:`firmware_bridge.link.LightLink` keeps the board showing such a state
(``LightLink("/dev/ttyACM0").show(state)``).
"""

#: The modules it offers (a star import loads them; this file itself imports nothing).
__all__ = ["codec", "fairness", "firmware", "jig", "lights", "link", "session", "sim", "transport"]
