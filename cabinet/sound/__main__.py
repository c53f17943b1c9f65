"""Write every effect as a WAV file, to listen to them: ``python -m cabinet.sound DIR``."""

from __future__ import annotations

import sys
import wave
from pathlib import Path

from cabinet.sound.synth import DEFAULT_SAMPLE_RATE_HZ, EFFECTS, render


def write_wavs(folder: Path, sample_rate_hz: int = DEFAULT_SAMPLE_RATE_HZ) -> list[Path]:
    """Each effect as ``folder/NAME.wav`` (16-bit mono); returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in EFFECTS:
        path = folder / f"{name}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(sample_rate_hz)
            out.writeframes(render(name, sample_rate_hz).tobytes())
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cabinet.sound DIR  (writes one WAV per effect)", file=sys.stderr)
        return 2
    for path in write_wavs(Path(argv[0])):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
