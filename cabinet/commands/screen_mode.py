"""How ``spit-cabinet run`` opens the screen: its size, full screen or a window, and
which SDL renderer to ask for on a console."""

from __future__ import annotations

import argparse
from collections.abc import Mapping

WINDOW_SIZE = (1280, 720)
"""A window's size on a desktop, unless ``--size`` or the resolution setting says."""


def screen_size(text: str) -> tuple[int, int]:
    """``--size`` and the resolution setting: ``"1920x1080"`` as (width, height)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"give a size like 1920x1080, got {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"the screen must be at least 320x240, got {text}")
    return (w, h)


def full_screen(windowed: bool, is_pi: bool, video_driver: str) -> bool:
    """Full screen unless ``--windowed``: on a Pi, and on any console SDL draws on
    directly (``kmsdrm``, which ``pygame.display.get_driver()`` names ``KMSDRM``: no
    desktop, no window manager, so a window would be a corner of the screen), e.g. the
    virtual Pi's."""
    return not windowed and (is_pi or video_driver.lower() == "kmsdrm")


RENDER_DRIVER_VAR = "SDL_RENDER_DRIVER"


def render_driver(video_driver: str, environ: Mapping[str, str]) -> str | None:
    """The SDL renderer to ask for, or ``None`` to leave SDL's choice (or the operator's).

    On ``kmsdrm``, ``opengles2``: SDL tries its desktop OpenGL renderer first, and on a
    console with no libGL (Raspberry Pi OS Lite, plain Debian) that one is "created" anyway
    and draws nothing: a black screen. GLES is what the Pi's GPU and Mesa provide, and what
    the installer installs (found in the virtual Pi, docs/virtual-pi.md)."""
    if video_driver.lower() != "kmsdrm" or environ.get(RENDER_DRIVER_VAR):
        return None
    return "opengles2"
