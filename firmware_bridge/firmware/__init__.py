"""Firmware for the light board (a Raspberry Pi Pico running MicroPython).

Every module here runs both on the board and, through :mod:`firmware_bridge.sim`, under
CPython with stub hardware: the MicroPython subset only (no ``__future__``, no ``typing`` at
run time, no dataclasses). ``spit-cabinet firmware flash`` copies this package, the shared
codec and ``main.py`` onto the board.

>>> from firmware_bridge.firmware import FIRMWARE_VERSION
>>> FIRMWARE_VERSION >= (1, 0, 0)
True
"""

#: This firmware's version, reported in HELLO_REPLY.
FIRMWARE_VERSION = (1, 0, 0)

__all__ = ["FIRMWARE_VERSION", "app", "board", "config", "host_input", "outputs"]
