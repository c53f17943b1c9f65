"""Input backends: the cabinet's buttons (gpio), mock pins (mock) and a keyboard.

Every backend puts raw edges, each with its own timestamp, on an
:class:`~cabinet.inputs.edge_queue.EdgeQueue`; a
:class:`~cabinet.inputs.feed.RefereeFeed` takes them off, debounces them
(:mod:`cabinet.inputs.debounce`) and feeds the referee. :mod:`cabinet.inputs.select`
chooses the backend (``--input gpio|mock|keyboard``). See ``docs/input.md``.

Backends are imported from their modules (``cabinet.inputs.gpio`` …) so that the
keyboard's pygame and the gpio backend's gpiozero load only when used.

>>> from cabinet.inputs.controls import Control
>>> from cabinet.inputs.edge_queue import EdgeQueue
>>> from cabinet.inputs.mock import MockInput
>>> from game.edges import Button
>>> edges = EdgeQueue()
>>> buttons = MockInput(edges, clock=lambda: 0)
>>> buttons.open()
>>> buttons.press(Control(0, Button.PILE1), 1_000)
>>> edges.take()[-1]
RawEdge(p1.pile1 press @1000)
>>> buttons.close()
"""

__all__ = [
    "base",
    "clock",
    "controls",
    "debounce",
    "door",
    "edge_queue",
    "feed",
    "gpio",
    "keyboard",
    "missing_switch",
    "mock",
    "press_channel",
    "select",
]
