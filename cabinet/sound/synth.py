"""The cabinet's sound effects, synthesized from a few tones each, with the standard library.

Each effect is a list of :class:`Tone`; :func:`render` mixes them into signed 16-bit mono
samples. No file ships and nothing needs numpy: the whole set renders in well under a second
at start-up (``bench/sound.py`` measures it).
"""

from __future__ import annotations

import enum
import math
import random
from array import array
from dataclasses import dataclass
from typing import Literal

Wave = Literal["sine", "triangle", "square", "noise"]


class Effect(enum.StrEnum):
    """A sound effect the cabinet makes (docs/sound.md says when)."""

    SELECT = "select"
    PLAY = "play"
    REJECT = "reject"
    BEATEN = "beaten"
    SPIT = "spit"
    WIN = "win"
    COUNTDOWN = "countdown"


EFFECTS: tuple[Effect, ...] = tuple(Effect)
"""Every effect's name: what the flow passes to :meth:`cabinet.sound.SoundBoard.play`."""

PEAK = 0.5
"""Peak level of every rendered effect, as a fraction of full scale: leaves headroom for the
mixer to add two or three effects that overlap without clipping."""

DEFAULT_SAMPLE_RATE_HZ = 22_050
"""Rate effects are rendered at when the mixer lets us choose: plenty for bleeps (they have
nothing above 8 kHz) and half the start-up work of 44.1 kHz."""


@dataclass(frozen=True)
class Tone:
    """One note of an effect. Times in seconds from the start of the effect, pitch in Hz.

    The pitch glides linearly from ``freq_hz`` to ``end_freq_hz`` (if given). The level rises
    linearly over ``attack_s``, then decays exponentially with time constant ``decay_s``
    (``None``: holds), and fades linearly to zero over the last ``release_s``, so no tone
    starts or stops with a click. ``level`` weighs it against the effect's other tones."""

    start_s: float
    duration_s: float
    freq_hz: float
    end_freq_hz: float | None = None
    wave: Wave = "square"
    level: float = 1.0
    attack_s: float = 0.002
    decay_s: float | None = None
    release_s: float = 0.01


# Note pitches (equal temperament, A4 = 440 Hz) the effects use.
C5, E5, G5, C6, E6, G6 = 523.25, 659.26, 783.99, 1046.50, 1318.51, 1567.98
D6, A5, EB5, BB4 = 1174.66, 880.00, 622.25, 466.16

DESIGNS: dict[str, tuple[Tone, ...]] = {
    # A short bright blip: a slot was picked.
    "select": (Tone(0.0, 0.045, D6, wave="square", decay_s=0.02, release_s=0.008),),
    # Two quick rising notes, a fifth apart: the card landed.
    "play": (
        Tone(0.0, 0.045, G5, wave="triangle", level=0.9, release_s=0.006),
        Tone(0.04, 0.075, D6, wave="triangle", decay_s=0.05, release_s=0.015),
        Tone(0.04, 0.075, D6 * 2, wave="sine", level=0.2, decay_s=0.03, release_s=0.015),
    ),
    # A low falling buzz, two detuned squares: not a play.
    "reject": (
        Tone(0.0, 0.17, 196.0, 140.0, wave="square", level=0.8, release_s=0.03),
        Tone(0.0, 0.17, 201.0, 144.0, wave="square", level=0.6, release_s=0.03),
    ),
    # Two falling notes, "too late": the other player got there first.
    "beaten": (
        Tone(0.0, 0.11, A5, wave="triangle", level=0.9, release_s=0.02),
        Tone(0.11, 0.22, EB5, BB4, wave="triangle", decay_s=0.18, release_s=0.05),
        Tone(0.11, 0.22, EB5 / 2, BB4 / 2, wave="square", level=0.25, decay_s=0.1),
    ),
    # A burst of breath and a rising whoosh: new cards fly onto the piles.
    "spit": (
        Tone(0.0, 0.09, 0.0, wave="noise", level=0.7, decay_s=0.04, release_s=0.02),
        Tone(0.02, 0.24, 300.0, 1400.0, wave="sine", decay_s=0.12, release_s=0.04),
        Tone(0.02, 0.24, 600.0, 2800.0, wave="triangle", level=0.3, decay_s=0.08, release_s=0.04),
    ),
    # A rising arpeggio into a held major chord.
    "win": (
        Tone(0.00, 0.10, C5, wave="square", level=0.6, release_s=0.02),
        Tone(0.09, 0.10, E5, wave="square", level=0.6, release_s=0.02),
        Tone(0.18, 0.10, G5, wave="square", level=0.6, release_s=0.02),
        Tone(0.27, 0.70, C6, wave="triangle", decay_s=0.5, release_s=0.2),
        Tone(0.27, 0.70, E6, wave="triangle", level=0.8, decay_s=0.5, release_s=0.2),
        Tone(0.27, 0.70, G6, wave="triangle", level=0.7, decay_s=0.5, release_s=0.2),
        Tone(0.27, 0.70, C5, wave="square", level=0.3, decay_s=0.35, release_s=0.2),
    ),
    # A wooden tick for each step of the spit countdown.
    "countdown": (
        Tone(0.0, 0.03, 1760.0, wave="sine", decay_s=0.008, release_s=0.005),
        Tone(0.0, 0.006, 0.0, wave="noise", level=0.4, release_s=0.003),
    ),
}


def effect_duration_s(name: str) -> float:
    """How long the effect ``name`` lasts, in seconds."""
    return max(tone.start_s + tone.duration_s for tone in DESIGNS[name])


def _add_tone(out: list[float], tone: Tone, rate_hz: int, noise: random.Random) -> None:
    first = round(tone.start_s * rate_hz)
    count = round(tone.duration_s * rate_hz)
    attack = max(1, round(tone.attack_s * rate_hz))
    release = max(1, round(tone.release_s * rate_hz))
    decay_per_sample = math.exp(-1.0 / (tone.decay_s * rate_hz)) if tone.decay_s else 1.0
    start_step = tone.freq_hz / rate_hz
    end_step = (tone.end_freq_hz if tone.end_freq_hz is not None else tone.freq_hz) / rate_hz
    step_change = (end_step - start_step) / count
    phase, step, decay = 0.0, start_step, tone.level
    wave = tone.wave
    two_pi = 2.0 * math.pi
    for i in range(count):
        if wave == "sine":
            value = math.sin(two_pi * phase)
        elif wave == "square":
            value = 1.0 if phase < 0.5 else -1.0
        elif wave == "triangle":
            value = 4.0 * phase - 1.0 if phase < 0.5 else 3.0 - 4.0 * phase
        else:
            value = noise.uniform(-1.0, 1.0)
        level = decay
        if i < attack:
            level *= i / attack
        remaining = count - i
        if remaining < release:
            level *= remaining / release
        out[first + i] += value * level
        phase += step
        if phase >= 1.0:
            phase -= 1.0
        step += step_change
        decay *= decay_per_sample


def render(name: str, sample_rate_hz: int = DEFAULT_SAMPLE_RATE_HZ, seed: int = 0) -> array[int]:
    """The effect ``name`` as signed 16-bit mono samples at ``sample_rate_hz``, its peak at
    :data:`PEAK` of full scale. ``seed`` drives the noise, so a render is reproducible.
    Raises ``KeyError`` for an unknown name (:class:`~cabinet.sound.SoundBoard` checks first)."""
    tones = DESIGNS[name]
    total = round(effect_duration_s(name) * sample_rate_hz) + 1
    mixed = [0.0] * total
    noise = random.Random(seed)
    for tone in tones:
        _add_tone(mixed, tone, sample_rate_hz, noise)
    peak = max(abs(value) for value in mixed) or 1.0
    scale = PEAK * 32767 / peak
    return array("h", [round(value * scale) for value in mixed])


def rms(samples: array[int]) -> float:
    """Root mean square of 16-bit samples, as a fraction of full scale (0 is silence)."""
    if not samples:
        return 0.0
    return math.sqrt(sum(value * value for value in samples) / len(samples)) / 32768
