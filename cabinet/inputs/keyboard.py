"""The keyboard backend: desktop play, both players on one keyboard.

Default key map (:data:`DEFAULT_KEYS`), as the players sit, player 1 on the left::

    player 1   slots  A S D F    piles  W E
    player 2   slots  J K L ;    piles  I O
    operator   TEST   F2         SERVICE  9     (MAME's keys for the same switches)
    coins      coin 1  5         coin 2   6     (MAME's coin keys)

A coin key stands for a coin mechanism: each press of it is one low pulse of
:data:`COIN_KEY_PULSE_NS` on the coin line, however long the key is held, as a mechanism
gives one fixed pulse per coin.

Remap with :meth:`KeyMap.from_names`, from ``{control name: key name}`` (the names
``pygame.key.key_code`` accepts, e.g. ``"left shift"``, ``"f5"``, ``"[1]"``).

Timestamps: pygame-ce's key events carry no timestamp (SDL's own event time, in ms on
another origin, is dropped), so each edge is stamped with ``time.monotonic_ns()`` read
just after pygame's event queue is pumped: the latest time the key can have changed. The
events of one pump keep their order, one nanosecond apart, so the key SDL saw first
wins a race; the frame-long resolution is acceptable for desktop play only.

pygame's event queue belongs to the main thread, so the main loop calls :meth:`pump`
once a frame, or :meth:`handle` with events it has already taken.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import pygame

from cabinet.inputs.base import InputBackend
from cabinet.inputs.clock import Clock, monotonic_clock
from cabinet.inputs.controls import ALL_CONTROLS, Control, ControlError
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge

DEFAULT_KEYS: dict[str, str] = {
    "p1.slot1": "a",
    "p1.slot2": "s",
    "p1.slot3": "d",
    "p1.slot4": "f",
    "p1.pile1": "w",
    "p1.pile2": "e",
    "p2.slot1": "j",
    "p2.slot2": "k",
    "p2.slot3": "l",
    "p2.slot4": ";",
    "p2.pile1": "i",
    "p2.pile2": "o",
    "test": "f2",
    "service": "9",
    "coin1": "5",
    "coin2": "6",
}
"""The default key map, ``{control name: pygame key name}``."""


COIN_KEY_PULSE_NS = 60_000_000
"""The low pulse a coin key gives its coin line: 60 ms, a coin mechanism's middle speed."""


class KeyMapError(ValueError):
    """A key map names an unknown control or key, gives one key two controls, or leaves
    a control without a key."""


class KeyMap:
    """Which key is which control: ``{pygame key code: control}``, one key per control."""

    def __init__(self, keys: Mapping[int, Control]) -> None:
        missing = [c.name for c in ALL_CONTROLS if c not in keys.values()]
        if missing:
            raise KeyMapError(f"the key map has no key for {', '.join(missing)}")
        seen: dict[Control, int] = {}
        for key, control in keys.items():
            if control in seen:
                raise KeyMapError(
                    f"{control.name} has two keys: {_key_name(seen[control])!r} "
                    f"and {_key_name(key)!r}"
                )
            seen[control] = key
        self._by_key = dict(keys)

    @classmethod
    def from_names(cls, names: Mapping[str, str]) -> KeyMap:
        """A key map from ``{control name: key name}``, e.g. ``{"p1.slot1": "a", …}``.
        Controls left out keep their :data:`DEFAULT_KEYS` key unless another control
        took it."""
        chosen: dict[str, str] = {}
        for control_text, key_name in names.items():
            try:
                control = Control.parse(control_text)
            except ControlError as exc:
                raise KeyMapError(str(exc)) from None
            chosen[control.name] = key_name
        taken = {_key_code(k, c) for c, k in chosen.items()}
        merged = dict(chosen)
        for control_text, key_name in DEFAULT_KEYS.items():
            if control_text not in merged and _key_code(key_name, control_text) not in taken:
                merged[control_text] = key_name
        keys: dict[int, Control] = {}
        for control_text, key_name in merged.items():
            code = _key_code(key_name, control_text)
            if code in keys:
                raise KeyMapError(
                    f"key {key_name!r} is given to both {keys[code].name} and {control_text}"
                )
            keys[code] = Control.parse(control_text)
        return cls(keys)

    def control(self, key: int) -> Control | None:
        """The control on pygame key code ``key``, or ``None``."""
        return self._by_key.get(key)

    def names(self) -> dict[str, str]:
        """``{control name: key name}`` in :data:`ALL_CONTROLS` order (for the docs and
        the service menu)."""
        by_control = {c: k for k, c in self._by_key.items()}
        return {c.name: _key_name(by_control[c]) for c in ALL_CONTROLS}


def _key_code(key_name: str, control_text: str) -> int:
    try:
        with _quiet():
            return int(pygame.key.key_code(key_name))
    except (ValueError, TypeError):
        raise KeyMapError(f"{control_text}: {key_name!r} is not a key name pygame knows") from None


def _key_name(code: int) -> str:
    with _quiet():
        return str(pygame.key.name(code))


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence pygame's "pygame.init() has not been called" warning: key names and codes
    come from SDL's fixed tables, the same before and after init, and key maps are read
    before the window opens."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="pygame.init", category=Warning)
        yield


def default_keymap() -> KeyMap:
    return KeyMap.from_names(DEFAULT_KEYS)


class KeyboardInput(InputBackend):
    """Controls on keys, read from pygame's event queue on the main thread."""

    name = "keyboard"
    hardware_timestamps = False

    def __init__(
        self,
        edges: EdgeQueue,
        *,
        keymap: KeyMap | None = None,
        clock: Clock = monotonic_clock,
    ) -> None:
        super().__init__(edges, clock=clock)
        self.keymap = keymap if keymap is not None else default_keymap()
        self._down: set[Control] = set()

    def open(self) -> None:
        """Start reporting; every key counts as up (pygame cannot tell which keys were
        already held before its window had focus)."""
        self._down.clear()
        for control in ALL_CONTROLS:
            self._put_initial(control, False)
        self.is_open = True

    def close(self) -> None:
        self.is_open = False

    def pump(self) -> None:
        """Take the key events from pygame's queue (other events stay for the main
        loop) and report them."""
        events = pygame.event.get((pygame.KEYDOWN, pygame.KEYUP))
        self.handle(events, self.clock())

    def handle(self, events: Iterable[Any], pumped_ns: int) -> None:
        """Report the key events among ``events``, taken from pygame's queue at clock
        reading ``pumped_ns`` (ns): the k-th of n mapped events is stamped
        ``pumped_ns - (n - 1 - k)``. Key repeats and unmapped keys are ignored."""
        if not self.is_open:
            return
        mapped: list[tuple[Control, bool]] = []
        down = self._down
        for event in events:
            if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
                continue
            control = self.keymap.control(event.key)
            if control is None:
                continue
            pressed = event.type == pygame.KEYDOWN
            if pressed == (control in down):
                continue  # a key repeat, or a release of a key pressed before open()
            if pressed:
                down.add(control)
            else:
                down.discard(control)
            mapped.append((control, pressed))
        last = len(mapped) - 1
        put = self.edges.put
        for k, (control, pressed) in enumerate(mapped):
            t_ns = pumped_ns - (last - k)
            if control.is_coin:
                if pressed:  # one whole pulse, as a coin mechanism gives
                    put(RawEdge(control, True, t_ns))
                    put(RawEdge(control, False, t_ns + COIN_KEY_PULSE_NS))
                continue
            put(RawEdge(control, pressed, t_ns))
