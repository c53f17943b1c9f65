"""``spit-cabinet firmware flash``: copy the light board's firmware onto a Pico with mpremote.

The board needs MicroPython installed first (hold BOOTSEL, plug in, drop the MicroPython
``.uf2`` on the drive that appears). This command then copies the shared codec, the
firmware package, ``main.py`` and the configuration (``lights.json``), and resets the board.
``mpremote`` comes with the ``flash`` extra: ``pip install 'spit-cabinet[flash]'``.
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
from cabinet.storage.paths import add_data_dir_option, data_dir, database_path
from cabinet.storage.setting_table import LED_TYPE
from cabinet.storage.store import CabinetStore

PACKAGE = Path(firmware_bridge.__file__).resolve().parent

#: (file in this repository, path on the board). Host-only modules stay on the host.
BOARD_FILES: tuple[tuple[str, str], ...] = (
    ("__init__.py", "firmware_bridge/__init__.py"),
    ("codec.py", "firmware_bridge/codec.py"),
    ("firmware/__init__.py", "firmware_bridge/firmware/__init__.py"),
    ("firmware/app.py", "firmware_bridge/firmware/app.py"),
    ("firmware/board.py", "firmware_bridge/firmware/board.py"),
    ("firmware/config.py", "firmware_bridge/firmware/config.py"),
    ("firmware/outputs.py", "firmware_bridge/firmware/outputs.py"),
    ("firmware/main.py", "main.py"),
)
DEFAULT_CONFIG = PACKAGE / "firmware" / "config.json"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("firmware", help="the light board's firmware")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    flash = actions.add_parser("flash", help="copy the firmware onto a connected Pico (mpremote)")
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
    """The operator's LED type setting, or ``None`` when there is no database yet."""
    path = data_dir(directory)
    if not database_path(path).exists():
        return None
    store = CabinetStore.open(path)
    try:
        return store.settings.get(LED_TYPE)
    finally:
        store.close()


def stage(directory: Path, config: Path, driver: str | None = None) -> None:
    """Lay out in ``directory`` exactly the files the board gets, at their board paths;
    ``driver`` (plain, pwm or ws2812), when given, replaces the configuration's."""
    for source, target in BOARD_FILES:
        dest = directory / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / source, dest)
    settings = json.loads(config.read_text(encoding="utf-8"))
    if driver is not None:
        settings["driver"] = driver
    (directory / "lights.json").write_text(json.dumps(settings, indent=2) + "\n")


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


def run(args: argparse.Namespace, runner: Callable[[Sequence[str]], int] = subprocess.call) -> int:
    if importlib.util.find_spec("mpremote") is None:
        print(
            "mpremote is not installed; install the flash extra: pip install 'spit-cabinet[flash]'",
            file=sys.stderr,
        )
        return 2
    if not args.config.is_file():
        print(f"no configuration file at {args.config}", file=sys.stderr)
        return 2
    driver = getattr(args, "driver", None)
    if driver is None and args.config == DEFAULT_CONFIG:
        driver = stored_led_type(getattr(args, "data_dir", None))
    try:
        with tempfile.TemporaryDirectory(prefix="lightboard-") as tmp:
            stage(Path(tmp), args.config, driver)
            status = runner(mpremote_command(Path(tmp), args.port))
    except ValueError as exc:  # JSONDecodeError included
        print(f"the configuration {args.config} is not valid JSON: {exc}", file=sys.stderr)
        return 2
    if status != 0:
        print(f"mpremote failed (exit status {status}); is the Pico plugged in?", file=sys.stderr)
        return 1
    print("firmware copied; the board has been reset and runs its self test")
    return 0
