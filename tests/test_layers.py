"""The import layers of DESIGN.md: game/ and wiring/ use only the standard library and
themselves; nothing outside cabinet/ imports cabinet/."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "wiring", "firmware_bridge", "cabinet")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module imported by ``path`` (absolute imports only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", ["game", "wiring"])
def test_pure_packages_import_only_the_standard_library(package: str) -> None:
    allowed = set(sys.stdlib_module_names) | {package, "__future__"}
    found = sources(package)
    assert found, f"{package}/ has no sources"
    for path in found:
        bad = imported_modules(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("package", ["game", "wiring", "firmware_bridge"])
def test_nothing_imports_cabinet(package: str) -> None:
    for path in sources(package):
        assert "cabinet" not in imported_modules(path), f"{path.relative_to(ROOT)} imports cabinet"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import pygame\nfrom cabinet.cli import main\nfrom . import x\n")
    assert imported_modules(sample) == {"pygame", "cabinet"}


def test_firmware_bridge_imports_only_pyserial_and_the_standard_library() -> None:
    """The host side may use pyserial; the board's firmware only MicroPython's own
    hardware modules (``machine``, ``neopixel``, ``micropython``), and only inside
    ``firmware_bridge/firmware`` or the simulator's stand-ins for them."""
    board_modules = {"machine", "neopixel", "micropython"}
    allowed = set(sys.stdlib_module_names) | {"firmware_bridge", "__future__", "serial"}
    for path in sources("firmware_bridge"):
        bad = imported_modules(path) - allowed
        on_board = path.relative_to(ROOT).parts[1] in ("firmware", "sim")
        if on_board:
            bad -= board_modules
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"
