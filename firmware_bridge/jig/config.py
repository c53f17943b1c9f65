"""The jig's configuration: its schedule and its pins (MicroPython subset).

On the jig the configuration is the JSON file ``jig.json`` at the root of its filesystem
(``jig.json`` beside this module is the default, which docs/fairness.md copies there).
It follows the light board's file (:mod:`firmware_bridge.firmware.config`), read and
checked by the same code: keys left out take the values in :data:`DEFAULTS`, a key not
in :data:`DEFAULTS` is an error (almost always a misspelt one), and the file may hold at
most 4096 bytes nested at most 8 deep.

The schedule's keys (``offsets_us``, ``pairs``, ``gap_ms``, ``seed``) must be the ones
``spit-cabinet fairness`` is run with: the cabinet judges by the same
:class:`~firmware_bridge.fairness.Schedule` and pairs the presses by their time. The jig
says the matching command line when it starts and on ``status``.

Unlike the light board, a jig whose file is unusable does not carry on with the built-in
defaults: a schedule the cabinet does not expect would fail its certificate for no fault
of the cabinet's, so the jig refuses to press and says why (:func:`boot_jig_config`).
"""

import os

from firmware_bridge.fairness import (
    DEFAULT_GAP_MS,
    DEFAULT_PAIRS,
    DEFAULT_SEED,
    OFFSETS_US,
    Schedule,
)
from firmware_bridge.firmware.config import (
    MAX_CONFIG_BYTES,
    ConfigError,
    _int,
    _ints,
    parse_config,
    with_defaults,
)

#: Where the jig looks for its configuration on the board.
CONFIG_PATH = "jig.json"

#: GPIOs of the Pico's own (power supply mode, VBUS sense, LED), not on its header: the
#: header's GPIOs are 0 to 22 and 26 to 28.
BOARD_ONLY_GPIOS = (23, 24, 25)

#: The most pairs per offset: the jig keeps every pair's timing until it reports.
MAX_PAIRS = 2000
#: The longest lead-in and gap, in ms: the jig's microsecond clock steps at most this far.
MAX_STEP_MS = 60000

DEFAULTS = {
    # Offsets between a pair's two presses, µs, in the order they are pressed.
    "offsets_us": list(OFFSETS_US),
    # Pairs per offset (even: half are pressed each way round).
    "pairs": DEFAULT_PAIRS,
    # From one pair's first press to the next pair's, ms.
    "gap_ms": DEFAULT_GAP_MS,
    # The seed of the order (which line goes first in each pair).
    "seed": DEFAULT_SEED,
    # From the start (button or command) to the first press, ms.
    "lead_in_ms": 3000,
    # GPIO wired to line A: player 1's pile 1 button (GP16, the Pico's pin 21).
    "line_a_pin": 16,
    # GPIO wired to line B: player 2's pile 1 button (GP17, pin 22).
    "line_b_pin": 17,
    # GPIO of the start button, wired to ground (GP15, pin 20).
    "start_pin": 15,
}


class JigConfig:
    """The validated configuration; attributes are the :data:`DEFAULTS` keys.

    Raises :class:`~firmware_bridge.firmware.config.ConfigError` with a one-line message
    naming the key."""

    def __init__(self, values: "dict[str, object] | None" = None) -> None:
        merged = with_defaults(values, DEFAULTS)
        offsets = _ints(merged["offsets_us"], "offsets_us", 1, 20000)
        for i, offset in enumerate(offsets):
            if offset in offsets[:i]:
                raise ConfigError(f"offsets_us lists {offset} twice; each offset is one case")
        self.offsets_us = tuple(offsets)
        self.pairs = _int(merged["pairs"], "pairs", 2, MAX_PAIRS)
        self.gap_ms = _int(merged["gap_ms"], "gap_ms", 1, MAX_STEP_MS)
        self.seed = _int(merged["seed"], "seed", 0, 0xFFFFFFFF)
        self.lead_in_ms = _int(merged["lead_in_ms"], "lead_in_ms", 0, MAX_STEP_MS)
        pins = []
        for key in ("line_a_pin", "line_b_pin", "start_pin"):
            pin = _int(merged[key], key, 0, 28)
            if pin in BOARD_ONLY_GPIOS:
                raise ConfigError(
                    f"{key}: GP{pin} is not on the Pico's header; use 0 to 22 or 26 to 28"
                )
            pins.append(pin)
        if pins[0] == pins[1] or pins[2] in pins[:2]:
            raise ConfigError("line_a_pin, line_b_pin and start_pin must be three different GPIOs")
        self.line_a_pin, self.line_b_pin, self.start_pin = pins
        try:
            self._schedule = Schedule(self.offsets_us, self.pairs, self.gap_ms, self.seed)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None

    def schedule(self) -> Schedule:
        """The pairs to press (the cabinet judges by the same)."""
        return self._schedule

    def cabinet_command(self) -> str:
        """The ``spit-cabinet fairness`` command line that expects this jig's schedule."""
        return (
            "spit-cabinet fairness --offsets "
            + ",".join(str(offset) for offset in self.offsets_us)
            + f" --pairs {self.pairs} --gap-ms {self.gap_ms} --seed {self.seed}"
        )


def load_jig_config(path: str = CONFIG_PATH) -> JigConfig:
    """Read and check the JSON configuration at ``path``; a missing file means all defaults.

    Raises :class:`~firmware_bridge.firmware.config.ConfigError` when the file cannot be
    used, ``OSError`` when it is there but cannot be read."""
    try:
        os.stat(path)
    except OSError:  # no file (not compared by errno: MicroPython's ports differ)
        return JigConfig()
    with open(path, "rb") as f:
        data = f.read(MAX_CONFIG_BYTES + 1)
    return JigConfig(parse_config(data, path))


def boot_jig_config(path: str = CONFIG_PATH) -> "tuple[JigConfig, str | None]":
    """The configuration the jig starts with, and why the file cannot be used (or ``None``).

    Never raises: with an unusable file the jig still comes up, on the built-in
    :data:`DEFAULTS` so that its lines are let go on the default pins, but it refuses to
    press (:class:`firmware_bridge.jig.app.Jig`) and says why."""
    try:
        return load_jig_config(path), None
    except Exception as exc:  # the jig must come up and say what is wrong
        return JigConfig(), str(exc) or type(exc).__name__
