# Minimal type stubs for the parts of gpiozero the cabinet uses (gpiozero ships none).
# Anything not declared here is Any, through __getattr__.
from typing import Any

class Device:
    pin_factory: Any
    @classmethod
    def ensure_pin_factory(cls) -> Any: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    def __getattr__(self, name: str) -> Any: ...

class GPIODevice(Device):
    @property
    def pin(self) -> Any: ...

class InputDevice(GPIODevice):
    @property
    def value(self) -> int: ...
    @property
    def is_active(self) -> bool: ...

class DigitalInputDevice(InputDevice):
    def __init__(
        self,
        pin: int | str | None = None,
        *,
        pull_up: bool | None = False,
        active_state: bool | None = None,
        bounce_time: float | None = None,
        pin_factory: Any = None,
    ) -> None: ...
    def _pin_changed(self, ticks: float, state: int | bool) -> None: ...
    def _state_to_value(self, state: int | bool) -> int: ...

class OutputDevice(GPIODevice):
    value: Any
    def on(self) -> None: ...
    def off(self) -> None: ...
    @property
    def is_active(self) -> bool: ...

class DigitalOutputDevice(OutputDevice):
    def __init__(
        self,
        pin: int | str | None = None,
        *,
        active_high: bool = True,
        initial_value: bool | None = False,
        pin_factory: Any = None,
    ) -> None: ...
