"""The table: everything that decides a game, in a process of its own.

The display process (pygame, the flow's screens, sound, the service menu, the books)
and the table process (the buttons, debounce, the referee's race window, the game, the
CPU seats, the lights) talk over one socket pair (:mod:`cabinet.table.messages`).
Nothing the table needs waits on drawing: see ``docs/input.md``.

- :mod:`cabinet.table.server`: the table's loop (runs in the table process), with its
  parts: :mod:`cabinet.table.display_link` (its threads on the socket),
  :mod:`cabinet.table.games` (the games it holds, and their way into the books),
  :mod:`cabinet.table.lights` (the lights' states), :mod:`cabinet.table.samples` (the
  benchmarks' latency samples); :mod:`cabinet.table.sample_reports` (a played game's
  reports, for the tests and the benchmark of their pickling);
- :mod:`cabinet.table.process`: its entry point, ``python -m cabinet.table``;
- :mod:`cabinet.table.remote`: the display's side, :class:`RemoteTable`, and
  :mod:`cabinet.table.remote_match`, its games (:class:`RemoteMatch`);
- :mod:`cabinet.table.local`: the same calls with the table in the display's own process
  (tests on a virtual clock; the old design, for the benchmark);
- :mod:`cabinet.table.interface`: what the main loop needs of either.

- :mod:`cabinet.table.autoplay`, :mod:`cabinet.table.hardware`: simulated players for
  ``run --autoplay``, and the table's own buttons and lights.

The table's side is started as its own process (``python -m cabinet.table``, by
``spit-cabinet run``); in one process, for a test on a virtual clock:

>>> from cabinet.inputs.edge_queue import EdgeQueue
>>> from cabinet.table.local import LocalTable
>>> table = LocalTable(EdgeQueue(), clock=lambda: 0, threaded=False)
>>> table.switches == ()
False
"""

__all__ = [
    "autoplay",
    "display_link",
    "games",
    "hardware",
    "interface",
    "lights",
    "local",
    "messages",
    "process",
    "remote",
    "remote_match",
    "sample_reports",
    "samples",
    "server",
]
