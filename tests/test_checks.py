"""The checks CI runs besides the tests, run as tests so that the README's one test line
runs everything CI runs: the linter, the formatter's check, the type checker (strict, over
the four packages, pyproject.toml's [tool.mypy]) and the examples in docstrings."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cabinet", "game", "wiring", "firmware_bridge")


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, timeout=600
    )


def test_ruff_finds_nothing() -> None:
    done = run("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_is_formatted() -> None:
    done = run("ruff", "format", "--check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_passes_over_every_package() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def _modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            path = ROOT / Path(*info.name.split("."))
            source = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
            if source.is_file() and ">>>" in source.read_text(encoding="utf-8"):
                found.append(info.name)
    return found


def test_there_are_examples_to_run() -> None:
    assert {"cabinet.i18n", "cabinet.sound"} <= set(_modules_with_examples())


@pytest.mark.parametrize("name", _modules_with_examples())
def test_the_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
