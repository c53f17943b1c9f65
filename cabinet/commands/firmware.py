"""``spit-cabinet firmware flash``: copy the light board's firmware onto a Pico with mpremote.

The board needs MicroPython installed first (hold BOOTSEL, plug in, drop the MicroPython
``.uf2`` on the drive that appears). This command then copies the shared codec, the
firmware package, ``main.py`` and the configuration (``lights.json``), and resets the board.
``mpremote`` comes with the ``flash`` extra: ``pip install 'spit-cabinet[flash]'``.

The configuration is checked first, by the firmware's own code
(:func:`firmware_bridge.firmware.config.parse_config`, then its ``Config``): the board would
refuse the same file at boot. A file that fails (not JSON, not an object, a wrong type or
range, an unknown key or driver, over 4096 bytes or nested over 8 deep) gets one line
naming the file and the key, exit status 2, and nothing is copied. Exit statuses: 0 copied;
1 mpremote failed (no board, or it did not take the files); 2 nothing was copied (the
configuration cannot be used, or mpremote is not installed).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import firmware_bridge
from cabinet.storage.database import Access
from cabinet.storage.paths import add_data_dir_option, data_dir, database_path
from cabinet.storage.problems import StorageError
from cabinet.storage.setting_table import LED_TYPE
from cabinet.storage.store import CabinetStore
from firmware_bridge.firmware.config import (
    DRIVERS,
    MAX_CONFIG_BYTES,
    Config,
    ConfigError,
    parse_config,
)

PACKAGE = Path(firmware_bridge.__file__).resolve().parent

#: (file in this repository, path on the board). Host-only modules stay on the host.
BOARD_FILES: tuple[tuple[str, str], ...] = (
    ("__init__.py", "firmware_bridge/__init__.py"),
    ("codec.py", "firmware_bridge/codec.py"),
    ("firmware/__init__.py", "firmware_bridge/firmware/__init__.py"),
    ("firmware/app.py", "firmware_bridge/firmware/app.py"),
    ("firmware/board.py", "firmware_bridge/firmware/board.py"),
    ("firmware/config.py", "firmware_bridge/firmware/config.py"),
    ("firmware/host_input.py", "firmware_bridge/firmware/host_input.py"),
    ("firmware/outputs.py", "firmware_bridge/firmware/outputs.py"),
    ("firmware/main.py", "main.py"),
)
DEFAULT_CONFIG = PACKAGE / "firmware" / "config.json"
PROG = "spit-cabinet firmware flash"

#: Exit statuses: copied; mpremote failed; nothing copied (bad configuration, no mpremote).
EXIT_OK = 0
EXIT_MPREMOTE_FAILED = 1
EXIT_NOT_COPIED = 2


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("firmware", help="the light board's firmware")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    flash = actions.add_parser(
        "flash",
        help="copy the firmware onto a connected Pico (mpremote)",
        description="Check the light configuration, then copy it and the firmware onto a "
        "connected Pico with mpremote, and reset the board.",
        epilog="exit status: 0 copied; 1 mpremote failed; 2 nothing copied (the configuration "
        "cannot be used, or mpremote is not installed)",
    )
    flash.add_argument("--port", help="serial port of the Pico (default: mpremote finds it)")
    flash.add_argument(
        "--config", type=Path, default=DEFAULT_CONFIG, help="board configuration JSON to install"
    )
    flash.add_argument(
        "--driver",
        choices=("plain", "pwm", "ws2812"),
        help="the lights fitted (default: the LED type setting, else the configuration's)",
    )
    add_data_dir_option(flash)
    flash.set_defaults(func=run)


def stored_led_type(directory: str | None) -> str | None:
    """The operator's LED type setting, or ``None`` when there is no database yet, or one
    that cannot be read (it is only read: a damaged one is the cabinet's to set aside)."""
    path = data_dir(directory)
    if not database_path(path).exists():
        return None
    try:
        store = CabinetStore.open(path, access=Access.READ)
    except StorageError:
        return None
    try:
        return store.settings.get(LED_TYPE)
    finally:
        store.close()


def board_config(config: Path, driver: str | None = None) -> str:
    """The text of ``lights.json`` for the board: the file ``config`` with ``driver`` (when
    given) replacing its driver, checked by the firmware's own code exactly as the board
    checks it at boot. Raises :class:`ConfigError` with one line naming the file (and the
    key, where there is one)."""
    source = str(config)
    if not config.is_file():
        raise ConfigError(f"no configuration file at {source}")
    try:
        with config.open("rb") as f:
            data = f.read(MAX_CONFIG_BYTES + 1)  # the board reads no more either
    except OSError as exc:
        raise ConfigError(f"cannot read {source}: {exc.strerror or exc}") from None
    settings = parse_config(data, source)
    if driver is not None:
        if driver not in DRIVERS:
            # --driver's choices are DRIVERS; only a damaged led_type setting gets here.
            raise ConfigError(f"the led_type setting {driver!r} is not one of {', '.join(DRIVERS)}")
        settings["driver"] = driver
    try:
        Config(settings)
    except ConfigError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    text = json.dumps(settings, indent=2) + "\n"
    if len(text) > MAX_CONFIG_BYTES:  # indenting a long list can outgrow the limit
        text = json.dumps(settings, separators=(",", ":")) + "\n"
    # The very bytes the board will read, through the same checks (with --driver, even the
    # compact form can outgrow a file that was just under the limit).
    Config(parse_config(text, f"{source}, as written for the board,"))
    return text


def stage(directory: Path, lights_json: str) -> None:
    """Lay out in ``directory`` exactly the files the board gets, at their board paths,
    with ``lights_json`` (from :func:`board_config`) as the configuration."""
    for source, target in BOARD_FILES:
        dest = directory / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / source, dest)
    (directory / "lights.json").write_text(lights_json, encoding="utf-8")


def mpremote_command(directory: Path, port: str | None) -> list[str]:
    """The one mpremote invocation that copies the staged files and resets the board."""
    return [
        sys.executable, "-m", "mpremote",
        "connect", port or "auto",
        "fs", "cp", "-r", str(directory / "firmware_bridge"), ":",
        "+", "fs", "cp", str(directory / "main.py"), ":main.py",
        "+", "fs", "cp", str(directory / "lights.json"), ":lights.json",
        "+", "reset",
    ]  # fmt: skip


def call_mpremote(argv: Sequence[str]) -> int:
    """Run mpremote and return its exit status (tests replace this: no board there)."""
    return subprocess.call(list(argv))


def run(args: argparse.Namespace, runner: Callable[[Sequence[str]], int] | None = None) -> int:
    """Check the configuration, then copy everything with one mpremote call (``runner``,
    default :func:`call_mpremote`). Returns the exit status (module docstring)."""
    driver = getattr(args, "driver", None)
    if driver is None and args.config == DEFAULT_CONFIG:
        driver = stored_led_type(getattr(args, "data_dir", None))
    try:
        lights_json = board_config(args.config, driver)
    except ConfigError as exc:
        print(f"{PROG}: error: {exc}; nothing was copied to the board", file=sys.stderr)
        return EXIT_NOT_COPIED
    if importlib.util.find_spec("mpremote") is None:
        print(
            "mpremote is not installed; install the flash extra: pip install 'spit-cabinet[flash]'",
            file=sys.stderr,
        )
        return EXIT_NOT_COPIED
    with tempfile.TemporaryDirectory(prefix="lightboard-") as tmp:
        stage(Path(tmp), lights_json)
        status = (runner or call_mpremote)(mpremote_command(Path(tmp), args.port))
    if status != 0:
        print(f"mpremote failed (exit status {status}); is the Pico plugged in?", file=sys.stderr)
        return EXIT_MPREMOTE_FAILED
    print("firmware copied; the board has been reset and runs its self test")
    return EXIT_OK
