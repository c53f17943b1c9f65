"""The board's configuration: which driver, which pins, which timings (MicroPython subset).

On the board the configuration is the JSON file ``lights.json`` at the root of its
filesystem (``config.json`` beside this module is the default that ``spit-cabinet firmware
flash`` copies there). Keys left out take the values in :data:`DEFAULTS`; a key not in
:data:`DEFAULTS` is an error (it is almost always a misspelt one, whose setting would
silently not apply). The file may hold at most :data:`MAX_CONFIG_BYTES` bytes nested at most
:data:`MAX_CONFIG_DEPTH` deep.

The board reads it with :func:`boot_config`, which never fails: an unusable file means the
built-in defaults, and the firmware shows its configuration-error pattern instead of the
link-lost one. ``spit-cabinet firmware flash`` checks a file with this same module
(:func:`parse_config`, then :class:`Config`) before it copies anything.
"""

import json
import os

#: Where the firmware looks for its configuration on the board.
CONFIG_PATH = "lights.json"

#: The largest configuration file, in bytes. The shipped one is about 330 bytes; the limit
#: bounds what the board reads into its RAM (about 200 KiB) at boot.
MAX_CONFIG_BYTES = 4096
#: The deepest nesting of ``[`` and ``{`` in the file, the top object counting as 1 (a valid
#: configuration needs 2). Checked before the JSON is parsed, so no parser recurses deeper.
MAX_CONFIG_DEPTH = 8

#: Drivers: plain on/off pins, PWM pins (brightness and pulse), or one WS2812 chain.
DRIVERS = ("plain", "pwm", "ws2812")

DEFAULTS = {
    # "plain", "pwm" or "ws2812".
    "driver": "pwm",
    # GPIO numbers of the lights for "plain" and "pwm", in light-index order (PROTOCOL.md).
    "pins": [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
    # True when a pin sinks the LED's current (LED between 3V3 and the pin).
    "active_low": False,
    # PWM frequency in Hz for "pwm".
    "pwm_freq_hz": 1000,
    # Data pin and number of pixels for "ws2812".
    "pixel_pin": 22,
    "pixel_count": 15,
    # Watchdog timeout in ms (the RP2040 allows up to 8388); 0 disables it.
    "watchdog_ms": 2000,
    # No SNAPSHOT applied for this long (ms) shows the link-lost pattern.
    "link_lost_ms": 1000,
    # Link-lost pattern: every light breathing in this colour with this period (ms).
    "link_lost_rgb": [96, 48, 0],
    "link_lost_period_ms": 2400,
    # Power-on self test: each light fully on in turn for this long (ms); 0 skips it.
    "selftest_step_ms": 120,
}


class ConfigError(ValueError):
    """A configuration file entry that the firmware cannot use."""


class Config:
    """The validated configuration; attributes are the :data:`DEFAULTS` keys."""

    def __init__(self, values: dict[str, object] | None = None) -> None:
        merged = with_defaults(values, DEFAULTS)
        driver = merged["driver"]
        if driver not in DRIVERS:
            raise ConfigError(f"driver must be one of {', '.join(DRIVERS)}; got {driver!r}")
        self.driver = str(driver)
        self.pins = _ints(merged["pins"], "pins", 0, 29)
        self.active_low = _bool(merged["active_low"], "active_low")
        self.pwm_freq_hz = _int(merged["pwm_freq_hz"], "pwm_freq_hz", 100, 100000)
        self.pixel_pin = _int(merged["pixel_pin"], "pixel_pin", 0, 29)
        self.pixel_count = _int(merged["pixel_count"], "pixel_count", 1, 15)
        self.watchdog_ms = _int(merged["watchdog_ms"], "watchdog_ms", 0, 8388)
        self.link_lost_ms = _int(merged["link_lost_ms"], "link_lost_ms", 100, 60000)
        rgb = _ints(merged["link_lost_rgb"], "link_lost_rgb", 0, 255)
        if len(rgb) != 3:
            raise ConfigError("link_lost_rgb must be three numbers (red, green, blue)")
        self.link_lost_rgb = (rgb[0], rgb[1], rgb[2])
        self.link_lost_period_ms = _int(
            merged["link_lost_period_ms"], "link_lost_period_ms", 20, 60000
        )
        self.selftest_step_ms = _int(merged["selftest_step_ms"], "selftest_step_ms", 0, 5000)
        if self.driver != "ws2812":
            if not 1 <= len(self.pins) <= 15:
                raise ConfigError(f"pins must list 1 to 15 GPIO numbers, got {len(self.pins)}")
            for i, pin in enumerate(self.pins):
                if pin in self.pins[:i]:
                    raise ConfigError(
                        f"pins lists GPIO {pin} twice (lights {self.pins.index(pin)} and {i});"
                        " every light needs its own pin"
                    )

    @property
    def light_count(self) -> int:
        """How many lights this board drives."""
        return self.pixel_count if self.driver == "ws2812" else len(self.pins)


def with_defaults(
    values: dict[str, object] | None, defaults: dict[str, object]
) -> dict[str, object]:
    """A new dict: ``defaults`` with ``values`` (a file's settings, or ``None``) over them.

    Raises :class:`ConfigError` naming a key of ``values`` that is not in ``defaults`` (a
    misspelt key's setting would silently not apply), with all the keys there are."""
    merged = dict(defaults)
    if values:
        for key in values:
            if key not in defaults:
                # Sorted: MicroPython's dicts keep no order, and the message is the same.
                raise ConfigError(
                    f"unknown configuration key {key!r}; the keys are {', '.join(sorted(defaults))}"
                )
        merged.update(values)
    return merged


def _bool(value: object, key: str) -> bool:
    if value is not True and value is not False:
        raise ConfigError(f"{key} must be true or false, got {value!r}")
    return value is True


def _ints(value: object, key: str, low: int, high: int) -> list[int]:
    if not isinstance(value, list):
        raise ConfigError(f"{key} must be a list of whole numbers, got {value!r}")
    return [_int(item, key + "[" + str(i) + "]", low, high) for i, item in enumerate(value)]


def _int(value: object, key: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(f"{key} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _too_deep(text: str) -> bool:
    """True when brackets outside JSON strings nest deeper than :data:`MAX_CONFIG_DEPTH`."""
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "[" or ch == "{":
            depth += 1
            if depth > MAX_CONFIG_DEPTH:
                return True
        elif ch == "]" or ch == "}":
            depth -= 1
    return False


def parse_config(text: str | bytes, source: str = CONFIG_PATH) -> dict[str, object]:
    """The JSON object in ``text`` (the file's bytes, or its text), read from ``source``
    (named in errors). Raises :class:`ConfigError` with a one-line message."""
    try:
        data = text.encode("utf-8") if isinstance(text, str) else text
    except ValueError:  # a str that is no Unicode text (lone surrogates, CPython only)
        raise ConfigError(f"{source} is not UTF-8 text") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{source} is larger than {MAX_CONFIG_BYTES} bytes")
    try:
        decoded = data.decode("utf-8")
    except ValueError:  # UnicodeError on MicroPython, UnicodeDecodeError on CPython
        raise ConfigError(f"{source} is not UTF-8 text") from None
    if _too_deep(decoded):
        raise ConfigError(f"{source} nests deeper than {MAX_CONFIG_DEPTH} levels")
    try:
        values = json.loads(decoded)
    except ValueError as exc:
        raise ConfigError(f"{source} is not valid JSON ({exc})") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{source} must hold a JSON object, not {_kind(values)}")
    return values


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    return "a number"


def load_config(path: str = CONFIG_PATH) -> Config:
    """Read and check the JSON configuration at ``path``; a missing file means all defaults.

    Reads at most one byte more than :data:`MAX_CONFIG_BYTES`. Raises :class:`ConfigError`
    when the file cannot be used, ``OSError`` when it is there but cannot be read."""
    try:
        os.stat(path)
    except OSError:  # no file (not compared by errno: MicroPython's WebAssembly port differs)
        return Config()
    with open(path, "rb") as f:
        data = f.read(MAX_CONFIG_BYTES + 1)
    return Config(parse_config(data, path))


def boot_config(path: str = CONFIG_PATH) -> "tuple[Config, str | None]":
    """The configuration the board boots with, and why the file was not used (or ``None``).

    Never raises: whatever is wrong with the file (not JSON, wrong types, an unknown driver
    or key, too large, too deep, out of memory), the board must still come up, drive its
    lights and answer the host, so it takes the built-in :data:`DEFAULTS`."""
    try:
        return load_config(path), None
    except Exception as exc:  # the board must boot whatever the file holds
        return Config(), str(exc) or type(exc).__name__
