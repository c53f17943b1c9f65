"""Input backends: the cabinet's buttons (gpio), mock pins (mock) and a keyboard.

Every backend puts raw edges, each with its own timestamp, on an
:class:`~cabinet.inputs.edge_queue.EdgeQueue`; a
:class:`~cabinet.inputs.feed.RefereeFeed` takes them off, debounces them
(:mod:`cabinet.inputs.debounce`) and feeds the referee. :mod:`cabinet.inputs.select`
chooses the backend (``--input gpio|mock|keyboard``). See ``docs/input.md``.

Backends are imported from their modules (``cabinet.inputs.gpio`` …) so that the
keyboard's pygame and the gpio backend's gpiozero load only when used.
"""
