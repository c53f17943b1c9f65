"""Shared fixtures for the wiring tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from wiring.default import DEFAULT_PINS
from wiring.pinmap import Control


@pytest.fixture
def default_pins() -> dict[Control, int]:
    """A fresh, mutable copy of the default ``{control: bcm}``."""
    return dict(DEFAULT_PINS)


@pytest.fixture
def write_config(tmp_path: Path) -> Callable[[str | bytes], Path]:
    """Write an override file (text or raw bytes) under ``tmp_path``; return its path."""

    def write(content: str | bytes) -> Path:
        path = tmp_path / "cabinet.toml"
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return write
