"""The cabinet's pin map as data: which GPIO each button, coin line and output is wired
to, the default map, an installer's TOML override checked line by line, and an SVG
wiring diagram. The standard library only.

>>> from wiring import DEFAULT_PIN_MAP, Control, Function, parse_config
>>> DEFAULT_PIN_MAP.bcm(Control(Function.SLOT1, 0))
17
>>> parse_config("[player1]\\nslot1 = 4\\n")
Traceback (most recent call last):
...
wiring.errors.PinUsedTwiceError: config line 2: GPIO4 is used twice: for coin 1 ...
"""

from wiring.config import load_config, parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.diagram import render_svg
from wiring.errors import ConfigError, PinUsedTwiceError, WiringError
from wiring.pinmap import Control, Function, PinMap

__all__ = [
    "DEFAULT_PIN_MAP",
    "ConfigError",
    "Control",
    "Function",
    "PinMap",
    "PinUsedTwiceError",
    "WiringError",
    "load_config",
    "parse_config",
    "render_svg",
]
