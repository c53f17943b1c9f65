"""Firmware for the fairness jig (docs/fairness.md): a Raspberry Pi Pico running
MicroPython, wired across player 1's and player 2's pile 1 button lines, that presses the
schedule ``spit-cabinet fairness`` judges (:mod:`firmware_bridge.fairness`) and says how
far apart it really pressed.

Its modules: :mod:`.config` (``jig.json``, read with the light board's own checks),
:mod:`.lines` (the open-drain outputs, the start button, the LED), :mod:`.presser` (the
timing, free of hardware), :mod:`.app` (the loop and the USB serial commands), and
:mod:`.fake` (hardware and a clock for the tests). ``main.py`` is the board's entry; the
jig also needs :mod:`firmware_bridge.fairness`, :mod:`firmware_bridge.firmware.config` and
:mod:`firmware_bridge.firmware.host_input`.
Every module here but the type checker's ``interfaces`` runs on MicroPython: the subset
only. This file is copied to the board, so it imports nothing.

The presses of a small schedule, on the fake hardware and its virtual clock:

>>> from firmware_bridge.jig.config import JigConfig
>>> from firmware_bridge.jig.fake import FakeMachine, FakeTime
>>> from firmware_bridge.jig.lines import OpenDrainLine
>>> from firmware_bridge.jig.presser import press_pairs
>>> config = JigConfig({"offsets_us": [100, 1000], "pairs": 4})
>>> clock = FakeTime()
>>> machine = FakeMachine(clock)
>>> lines = (OpenDrainLine(machine, 16), OpenDrainLine(machine, 17))
>>> report = press_pairs(config.schedule(), lines, clock, machine, lead_in_ms=0)
>>> report["pairs"], report["written_apart_us"]["1000"]
(8, {'median': 1000.0, 'max': 1000})
>>> sorted({state for _, pin, state in machine.events})  # pressed or let go, never high
['hi-z', 'low']
"""

#: This firmware's version, said in the jig's ``ready`` message.
JIG_VERSION = (1, 0, 0)

__all__ = ["app", "config", "fake", "lines", "presser"]
