"""The synthesized effects: all there, short, audible, unclipped and unlike each other."""

from __future__ import annotations

import itertools
import wave
from pathlib import Path

import pytest

from cabinet.sound import EFFECTS, effect_duration_s, render, rms
from cabinet.sound.__main__ import write_wavs
from cabinet.sound.synth import PEAK

RATE_HZ = 22_050


def zero_crossing_rate(samples: list[int]) -> float:
    """Sign changes per sample: a rough measure of pitch and noisiness."""
    crossings = sum(1 for a, b in itertools.pairwise(samples) if (a < 0) != (b < 0))
    return crossings / len(samples)


def test_the_seven_effects() -> None:
    assert EFFECTS == ("select", "play", "reject", "beaten", "spit", "win", "countdown")


@pytest.mark.parametrize("name", EFFECTS)
def test_each_effect_is_short_audible_and_unclipped(name: str) -> None:
    samples = render(name, RATE_HZ)
    duration_s = len(samples) / RATE_HZ
    assert abs(duration_s - effect_duration_s(name)) < 2 / RATE_HZ
    if name == "win":
        assert 0.5 <= duration_s <= 1.5
    else:
        assert duration_s <= 0.35
    assert rms(samples) > 0.05
    assert abs(max(abs(value) for value in samples) - PEAK * 32767) <= 1
    # Starts and ends at (near) silence: no click.
    assert abs(samples[0]) < 300 and abs(samples[-1]) < 300


def test_the_countdown_tick_is_the_shortest() -> None:
    durations = {name: effect_duration_s(name) for name in EFFECTS}
    assert min(durations, key=durations.__getitem__) == "countdown"
    assert max(durations, key=durations.__getitem__) == "win"


def test_effects_sound_different_from_each_other() -> None:
    signatures = {}
    for name in EFFECTS:
        samples = list(render(name, RATE_HZ))
        signatures[name] = (len(samples) / RATE_HZ, zero_crossing_rate(samples))
    for a in EFFECTS:
        for b in EFFECTS:
            if a < b:
                (len_a, zcr_a), (len_b, zcr_b) = signatures[a], signatures[b]
                differ_in_length = abs(len_a - len_b) > 0.02
                differ_in_pitch = abs(zcr_a - zcr_b) > 0.15 * max(zcr_a, zcr_b)
                assert differ_in_length or differ_in_pitch, (a, b)


def test_render_is_reproducible_and_follows_the_rate() -> None:
    assert render("spit", RATE_HZ, seed=1) == render("spit", RATE_HZ, seed=1)
    assert render("spit", RATE_HZ, seed=1) != render("spit", RATE_HZ, seed=2)
    assert abs(len(render("win", 44_100)) - 2 * len(render("win", RATE_HZ))) <= 2


def test_rms() -> None:
    from array import array

    assert rms(array("h")) == 0.0
    assert rms(array("h", [0] * 100)) == 0.0
    assert rms(array("h", [16384, -16384] * 50)) == pytest.approx(0.5)


def test_effects_can_be_written_as_wav_files_to_listen_to(tmp_path: Path) -> None:
    written = write_wavs(tmp_path, RATE_HZ)
    assert [path.stem for path in written] == list(EFFECTS)
    with wave.open(str(tmp_path / "spit.wav"), "rb") as spit:
        assert (spit.getnchannels(), spit.getsampwidth(), spit.getframerate()) == (1, 2, RATE_HZ)
        assert spit.readframes(spit.getnframes()) == render("spit", RATE_HZ).tobytes()
