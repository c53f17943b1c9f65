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
