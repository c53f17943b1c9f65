"""What ``spit-cabinet firmware flash`` copies to the light board: exactly the files
firmware_bridge/firmware/main.py imports there, each at its own path, and ``main.py`` at the
board's root."""

from __future__ import annotations

from cabinet.commands import firmware
from tests.firmware_bridge.board_files import PACKAGE, board_files

#: The files the light board runs from, under firmware_bridge/, besides its main.py.
BOARD_FILES = {
    "__init__.py",
    "codec.py",
    "firmware/__init__.py",
    "firmware/app.py",
    "firmware/board.py",
    "firmware/config.py",
    "firmware/host_input.py",
    "firmware/outputs.py",
}


def test_the_flash_copies_what_the_light_board_imports() -> None:
    assert board_files(PACKAGE / "firmware" / "main.py") == BOARD_FILES
    copied = dict(firmware.BOARD_FILES)
    assert copied.pop("firmware/main.py") == "main.py"
    assert copied == {name: f"firmware_bridge/{name}" for name in BOARD_FILES}
