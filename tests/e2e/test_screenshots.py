"""The README's screenshots come from a script: it must keep working."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from tests.e2e.test_route_screenshots import ROUTE_SCREENS

ROOT = Path(__file__).resolve().parents[2]
SCREENS = (
    "attract",
    "join",
    "play-upright",
    "game-over",
    "play-cocktail",
    "service-menu",
    "attract-paid",
    "service-pricing",
    "service-money",
    "initials",
    "attract-fame",
)


@pytest.mark.slow
def test_the_screenshot_script_draws_every_screen(tmp_path: Path) -> None:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "screenshots.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    for name in SCREENS:
        image = pygame.image.load(str(tmp_path / f"{name}.png"))
        assert image.get_size() == (1280, 720)
        # a real screen, not a blank one: many distinct colours
        colours = {image.get_at((x, y))[:3] for x in range(0, 1280, 37) for y in range(0, 720, 23)}
        assert len(colours) > 8, name
    shown = {p.stem for p in (ROOT / "docs" / "screenshots").glob("*.png")}
    assert shown == set(SCREENS) | set(ROUTE_SCREENS)  # the operator's pages: their own script
