"""The sound board: plays the effects through pygame's mixer, or stays quiet without one."""

from __future__ import annotations

import logging
from array import array
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from cabinet.sound.synth import DEFAULT_SAMPLE_RATE_HZ, EFFECTS, render

log = logging.getLogger(__name__)

HISTORY_LENGTH = 256
"""How many of the latest :meth:`SoundBoard.play` calls :attr:`SoundBoard.played` keeps."""

MIXER_BUFFER_SAMPLES = 512
"""Mixer buffer: 512 samples is 23 ms at 22.05 kHz, short enough that a sound follows its press."""


class SoundError(ValueError):
    """Base of the sound board's errors for bad input."""


class UnknownEffectError(SoundError):
    """An effect name the board does not have (``"sucess"``); lists the ones it has."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"no sound effect {name!r}; the effects are {', '.join(EFFECTS)}")


class VolumeError(SoundError):
    """A master volume outside 0–100 %, or not a whole number."""

    def __init__(self, value: object) -> None:
        self.value = value
        super().__init__(f"master volume must be a whole percentage 0–100; got {value!r}")


class Playable(Protocol):
    """What the board needs of a sound: ``pygame.mixer.Sound`` has these."""

    def play(self) -> object: ...

    def set_volume(self, value: float) -> None: ...


@dataclass(frozen=True)
class PlayedEffect:
    """One call to :meth:`SoundBoard.play`: which effect, whether the flow was in attract,
    and whether it was heard (``False`` when muted by volume 0, attract sound off, or no
    audio device)."""

    name: str
    in_attract: bool
    audible: bool


def gain_for_volume(volume_percent: int) -> float:
    """The amplitude factor (0.0–1.0) for a master volume in percent: the square of the
    fraction, an "audio taper" so each step of the service menu's volume sounds about as
    big as the last (50 % is -12 dB, 10 % is -40 dB)."""
    return (volume_percent / 100) ** 2


def _check_volume(volume_percent: object) -> int:
    if (
        not isinstance(volume_percent, int)
        or isinstance(volume_percent, bool)
        or not 0 <= volume_percent <= 100
    ):
        raise VolumeError(volume_percent)
    return volume_percent


class SoundBoard:
    """Plays the cabinet's effects by name: ``board.play("spit")``.

    Build one with :meth:`open` (the real mixer, or quiet if there is no audio device) or
    :meth:`silent` (never opens the mixer: for tests of the flow and for an operator who
    turned sound off). Either way every call is recorded in :attr:`played`, so a test can
    check what the cabinet would have played.

    The flow passes ``in_attract=True`` while the attract demo runs; those sounds are heard
    only when :attr:`attract_sound` is on (the operator's setting)."""

    def __init__(
        self,
        sounds: Mapping[str, Playable] | None,
        *,
        volume_percent: int = 80,
        attract_sound: bool = False,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        if sounds is not None:
            missing = set(EFFECTS) - sounds.keys()
            if missing:
                raise UnknownEffectError(sorted(missing)[0])
        self._sounds = dict(sounds) if sounds is not None else None
        self._volume_percent = _check_volume(volume_percent)
        self.attract_sound = attract_sound
        self._on_close = on_close
        self.played: deque[PlayedEffect] = deque(maxlen=HISTORY_LENGTH)
        self._apply_volume()

    @classmethod
    def open(
        cls,
        *,
        volume_percent: int = 80,
        attract_sound: bool = False,
        sample_rate_hz: int = DEFAULT_SAMPLE_RATE_HZ,
    ) -> SoundBoard:
        """A board on pygame's mixer, the effects rendered for it. If the mixer is already
        open (``pygame.init()`` opens it), its format is used as it is; otherwise it is opened
        at ``sample_rate_hz``, mono, 16-bit. With no audio device, logs one warning and
        returns a board that records but plays nothing (:attr:`available` is ``False``)."""
        import pygame

        opened_here = False
        if not pygame.mixer.get_init():
            try:
                pygame.mixer.init(
                    frequency=sample_rate_hz,
                    size=-16,
                    channels=1,
                    buffer=MIXER_BUFFER_SAMPLES,
                    allowedchanges=0,
                )
            except pygame.error as error:
                log.warning("no audio device (%s): the cabinet will be silent", error)
                return cls(None, volume_percent=volume_percent, attract_sound=attract_sound)
            opened_here = True
        mixer_format = pygame.mixer.get_init()
        if mixer_format is None:  # typed Optional; open at this point
            return cls(None, volume_percent=volume_percent, attract_sound=attract_sound)
        frequency_hz, size, channels = mixer_format
        sounds: dict[str, Playable] = {
            name: pygame.mixer.Sound(
                buffer=to_mixer_format(render(name, frequency_hz), size, channels)
            )
            for name in EFFECTS
        }
        return cls(
            sounds,
            volume_percent=volume_percent,
            attract_sound=attract_sound,
            on_close=pygame.mixer.quit if opened_here else None,
        )

    @classmethod
    def silent(cls, *, volume_percent: int = 80, attract_sound: bool = False) -> SoundBoard:
        """A board that plays nothing and records every call, without touching the mixer."""
        return cls(None, volume_percent=volume_percent, attract_sound=attract_sound)

    @property
    def available(self) -> bool:
        """Whether sounds reach an audio device."""
        return self._sounds is not None

    @property
    def volume_percent(self) -> int:
        """Master volume, 0–100 %. Setting it raises :class:`VolumeError` outside that."""
        return self._volume_percent

    @volume_percent.setter
    def volume_percent(self, value: int) -> None:
        self._volume_percent = _check_volume(value)
        self._apply_volume()

    def _apply_volume(self) -> None:
        if self._sounds is not None:
            gain = gain_for_volume(self._volume_percent)
            for sound in self._sounds.values():
                sound.set_volume(gain)

    def play(self, name: str, *, in_attract: bool = False) -> bool:
        """Start the effect ``name`` (one of :data:`~cabinet.sound.synth.EFFECTS`) and return
        at once; returns whether it is heard. Raises :class:`UnknownEffectError` for a name
        that is not an effect, with or without an audio device."""
        if name not in EFFECTS:
            raise UnknownEffectError(name)
        audible = (
            self._sounds is not None
            and self._volume_percent > 0
            and (self.attract_sound or not in_attract)
        )
        if audible and self._sounds is not None:
            self._sounds[name].play()
        self.played.append(PlayedEffect(name, in_attract, audible))
        return audible

    def close(self) -> None:
        """Stop using the mixer (closing it if this board opened it). Further calls to
        :meth:`play` are recorded but silent."""
        self._sounds = None
        if self._on_close is not None:
            self._on_close()
            self._on_close = None

    def __repr__(self) -> str:
        return (
            f"<SoundBoard {'on the mixer' if self.available else 'silent'}, "
            f"volume {self._volume_percent} %, attract sound "
            f"{'on' if self.attract_sound else 'off'}>"
        )


# pygame reports its 32-bit float format as -32 (signed); it opens no 32-bit integer format.
_ARRAY_TYPES = {-8: "b", 8: "B", -16: "h", 16: "H", -32: "f", 32: "f"}


def to_mixer_format(samples: array[int], size: int, channels: int) -> bytes:
    """Signed 16-bit mono ``samples`` as the bytes a mixer opened with ``size`` (pygame's
    format code: -16 signed 16-bit, 16 unsigned, -8/8, -32 or 32 float) and ``channels`` plays.
    Raises :class:`SoundError` for a format pygame does not open."""
    typecode = _ARRAY_TYPES.get(size)
    if typecode is None:
        raise SoundError(f"cannot write sound for a mixer of format {size}")
    values: list[int] | list[float]
    if size == -16:
        values = list(samples)
    elif size == 16:
        values = [value + 32768 for value in samples]
    elif size == -8:
        values = [value >> 8 for value in samples]
    elif size == 8:
        values = [(value >> 8) + 128 for value in samples]
    else:
        values = [value / 32768 for value in samples]
    if channels > 1:
        values = [value for value in values for _ in range(channels)]
    return array(typecode, values).tobytes()
