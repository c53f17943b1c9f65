"""``spit-cabinet firmware flash``: copy the light board's firmware onto a Pico with mpremote.

The board needs MicroPython installed first (hold BOOTSEL, plug in, drop the MicroPython
``.uf2`` on the drive that appears). This command then copies the shared codec, the
firmware package, ``main.py`` and the configuration (``lights.json``), and resets the board.
``mpremote`` comes with the ``flash`` extra: ``pip install 'spit-cabinet[flash]'``.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

import firmware_bridge

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
    flash.set_defaults(func=run)


def stage(directory: Path, config: Path) -> None:
    """Lay out in ``directory`` exactly the files the board gets, at their board paths."""
    for source, target in BOARD_FILES:
        dest = directory / target
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PACKAGE / source, dest)
    shutil.copyfile(config, directory / "lights.json")


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
    with tempfile.TemporaryDirectory(prefix="lightboard-") as tmp:
        stage(Path(tmp), args.config)
        status = runner(mpremote_command(Path(tmp), args.port))
    if status != 0:
        print(f"mpremote failed (exit status {status}); is the Pico plugged in?", file=sys.stderr)
        return 1
    print("firmware copied; the board has been reset and runs its self test")
    return 0
