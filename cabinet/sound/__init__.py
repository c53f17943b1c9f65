"""The cabinet's sound effects: synthesized at start-up, played by a :class:`SoundBoard`.

>>> import os
>>> _ = os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # SDL's silent device, for this
>>> from cabinet.sound import SoundBoard
>>> board = SoundBoard.open(volume_percent=70, attract_sound=False)
>>> board.play("select")  # in a game: heard, when there is an audio device
True
>>> board.play("play", in_attract=True)  # in the attract demo: only if attract sound is on
False
>>> board.close()

See docs/sound.md.
"""

from __future__ import annotations

from cabinet.sound.board import (
    PlayedEffect,
    SoundBoard,
    SoundError,
    UnknownEffectError,
    VolumeError,
    gain_for_volume,
)
from cabinet.sound.synth import EFFECTS, effect_duration_s, render, rms

__all__ = [
    "EFFECTS",
    "PlayedEffect",
    "SoundBoard",
    "SoundError",
    "UnknownEffectError",
    "VolumeError",
    "effect_duration_s",
    "gain_for_volume",
    "render",
    "rms",
]
