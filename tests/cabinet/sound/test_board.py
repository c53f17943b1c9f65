"""The sound board on SDL's dummy and disk audio drivers, and with no audio device."""

from __future__ import annotations

import logging
from array import array
from collections.abc import Callable
from pathlib import Path

import pygame
import pytest

from cabinet.sound import (
    EFFECTS,
    PlayedEffect,
    SoundBoard,
    UnknownEffectError,
    VolumeError,
    gain_for_volume,
    render,
)
from cabinet.sound.board import to_mixer_format
from tests.cabinet.sound.conftest import wait_for_event

UseDriver = Callable[[str], None]


def test_on_the_dummy_driver_every_effect_plays(audio_driver: UseDriver) -> None:
    audio_driver("dummy")
    board = SoundBoard.open(volume_percent=100)
    try:
        assert board.available
        assert pygame.mixer.get_init() == (22_050, -16, 1)
        for name in EFFECTS:
            assert board.play(name) is True
        assert pygame.mixer.get_busy()
        assert [p.name for p in board.played] == list(EFFECTS)
        assert all(p.audible for p in board.played)
    finally:
        board.close()
    assert not pygame.mixer.get_init()
    assert board.play("select") is False


def test_a_mixer_already_open_is_used_as_it_is(audio_driver: UseDriver) -> None:
    audio_driver("dummy")
    pygame.mixer.init(frequency=44_100, size=32, channels=2, allowedchanges=0)
    board = SoundBoard.open()
    assert board.play("win")
    board.close()
    assert pygame.mixer.get_init() == (44_100, -32, 2)  # float; not ours to close


def test_volume_scales_each_sound(audio_driver: UseDriver) -> None:
    audio_driver("dummy")
    board = SoundBoard.open(volume_percent=100)
    sounds = board._sounds
    assert sounds is not None
    for percent in (100, 50, 20, 0):
        board.volume_percent = percent
        for sound in sounds.values():
            assert isinstance(sound, pygame.mixer.Sound)
            # SDL_mixer keeps volume in 1/128 steps.
            assert sound.get_volume() == pytest.approx(gain_for_volume(percent), abs=1 / 128)
    assert board.play("play") is False  # volume 0: nothing to hear
    board.close()


EFFECT_DONE = pygame.USEREVENT + 7
"""Posted by SDL_mixer when a channel finishes playing (``Channel.set_endevent``)."""


def capture(tmp_path: Path, audio_driver: UseDriver, volume_percent: int) -> array[int]:
    """What SDL's disk driver writes while the board plays "reject" at ``volume_percent``:
    the real mixer's output, as signed 16-bit mono samples from the effect's start."""
    out = tmp_path / f"out-{volume_percent}.raw"
    audio_driver("disk")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SDL_DISKAUDIOFILE", str(out))
        patch.setenv("SDL_DISKAUDIODELAY", "0")  # write each buffer as soon as it is mixed
        patch.setenv("SDL_VIDEODRIVER", "dummy")  # pygame's event queue lives in video
        pygame.display.init()
        board = SoundBoard.open(volume_percent=volume_percent)
    for i in range(pygame.mixer.get_num_channels()):
        pygame.mixer.Channel(i).set_endevent(EFFECT_DONE)
    pygame.event.clear()
    assert board.play("reject")
    assert wait_for_event(EFFECT_DONE, timeout_s=5.0), "the mixer never finished the effect"
    board.close()  # joins SDL's audio thread: the last buffer is on disk
    pygame.display.quit()
    data = out.read_bytes()
    samples = array("h", data[: len(data) // 2 * 2])
    first = next(i for i, value in enumerate(samples) if value)
    length = len(render("reject"))
    assert len(samples) >= first + length
    return samples[first : first + length]


def test_the_mixer_output_follows_the_volume(tmp_path: Path, audio_driver: UseDriver) -> None:
    full = capture(tmp_path, audio_driver, 100)
    half = capture(tmp_path, audio_driver, 50)
    assert max(abs(v) for v in full) == max(abs(v) for v in render("reject"))
    peak_ratio = max(abs(v) for v in half) / max(abs(v) for v in full)
    assert peak_ratio == pytest.approx(gain_for_volume(50), rel=0.01)


def test_attract_sound_off_silences_only_the_attract_demo(audio_driver: UseDriver) -> None:
    audio_driver("dummy")
    board = SoundBoard.open(attract_sound=False)
    assert board.play("play", in_attract=True) is False
    assert not pygame.mixer.get_busy()
    assert board.play("play") is True
    board.attract_sound = True
    assert board.play("spit", in_attract=True) is True
    assert list(board.played) == [
        PlayedEffect("play", True, False),
        PlayedEffect("play", False, True),
        PlayedEffect("spit", True, True),
    ]
    board.close()


def test_no_audio_device_gives_a_quiet_board_and_one_warning(
    audio_driver: UseDriver, caplog: pytest.LogCaptureFixture
) -> None:
    audio_driver("no-such-driver")
    with caplog.at_level(logging.WARNING, logger="cabinet.sound.board"):
        board = SoundBoard.open(volume_percent=60, attract_sound=True)
        assert not board.available
        assert board.play("win") is False
        assert board.play("countdown", in_attract=True) is False
        board.close()
    assert [r.getMessage() for r in caplog.records] == [
        "no audio device (Audio target 'no-such-driver' not available): the cabinet will be silent"
    ]
    assert list(board.played) == [
        PlayedEffect("win", False, False),
        PlayedEffect("countdown", True, False),
    ]
    assert board.volume_percent == 60
    assert "silent" in repr(board)


def test_the_silent_board_checks_names_and_volume_all_the_same() -> None:
    board = SoundBoard.silent()
    with pytest.raises(UnknownEffectError, match="'sucess'; the effects are select, play"):
        board.play("sucess")
    assert isinstance(UnknownEffectError("x"), ValueError)
    for bad in (-1, 101, 50.5, True, "80"):
        with pytest.raises(VolumeError):
            board.volume_percent = bad  # type: ignore[assignment]
        with pytest.raises(VolumeError):
            SoundBoard.silent(volume_percent=bad)  # type: ignore[arg-type]
    assert board.volume_percent == 80


def test_history_is_bounded() -> None:
    board = SoundBoard.silent()
    for _ in range(1000):
        board.play("countdown")
    assert len(board.played) == 256


def test_gain_follows_an_audio_taper() -> None:
    assert gain_for_volume(0) == 0.0
    assert gain_for_volume(100) == 1.0
    assert gain_for_volume(50) == 0.25
    gains = [gain_for_volume(p) for p in range(101)]
    assert gains == sorted(gains)


@pytest.mark.parametrize(
    ("size", "channels", "expected"),
    [
        (-16, 1, array("h", [1000, -1000]).tobytes()),
        (-16, 2, array("h", [1000, 1000, -1000, -1000]).tobytes()),
        (16, 1, array("H", [33768, 31768]).tobytes()),
        (-8, 1, array("b", [3, -4]).tobytes()),
        (8, 1, array("B", [131, 124]).tobytes()),
        (-32, 1, array("f", [1000 / 32768, -1000 / 32768]).tobytes()),
    ],
)
def test_samples_are_converted_to_the_mixer_format(
    size: int, channels: int, expected: bytes
) -> None:
    assert to_mixer_format(array("h", [1000, -1000]), size, channels) == expected
