"""docs/fleet.md's pictures of the operator's pages come from a script that starts the
real web application: it must keep working, and make every picture the guide shows."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

ROOT = Path(__file__).resolve().parents[2]
PHONE = (
    "login",
    "two-factor",
    "route-phone",
    "cabinet-phone",
    "collection-enter",
    "collection-estimated",
    "collection-reconciled",
    "alerts",
    "settings-venue",
    "accounts",
)
DESKTOP = ("route-desktop", "cabinet-desktop", "rollout-canary", "rollout-halted")
ROUTE_SCREENS = tuple(f"route-{name}" for name in PHONE + DESKTOP)


@pytest.mark.slow
def test_the_route_screenshot_script_shoots_every_page(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "route_screenshots.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert {p.stem for p in tmp_path.glob("*.png")} == set(ROUTE_SCREENS)
    for name in PHONE + DESKTOP:
        image = pygame.image.load(str(tmp_path / f"route-{name}.png"))
        assert image.get_width() == (375 if name in PHONE else 1280), name
        colours = {
            image.get_at((x, y))[:3]
            for x in range(0, image.get_width(), 7)
            for y in range(0, min(image.get_height(), 700), 11)
        }
        assert len(colours) > 4, name
    guide = (ROOT / "docs" / "fleet.md").read_text(encoding="utf-8")
    for name in ROUTE_SCREENS:
        assert f"screenshots/{name}.png" in guide, name
