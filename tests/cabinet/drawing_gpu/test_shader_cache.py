"""The GPU driver's shader cache where the unit puts it (deploy/spit-cabinet.service,
docs/install-pi.md): Mesa keeps the first frame's compiled shaders there, and a cache a
power cut spoiled costs a compile, never a start. Real llvmpipe, through SDL's offscreen
driver, in a child process, as the unit runs the cabinet."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cabinet.drawing_gpu.test_texture_backend import cabinet_log
from tests.deploy.conftest import UNIT, environment, parse_unit

UNIT_ENV = environment(parse_unit(UNIT.read_text(encoding="utf-8")))


def cache_env(data: Path) -> dict[str, str]:
    """The unit's shader cache variables, its data directory swapped for ``data``."""
    unit_data = UNIT_ENV["SPIT_CABINET_DATA"]
    return {
        name: UNIT_ENV[name].replace(unit_data, str(data))
        for name in ("MESA_SHADER_CACHE_DIR", "MESA_SHADER_CACHE_MAX_SIZE")
    }


def frames(log: str) -> int:
    found = re.search(r"stopped after (\d+) frames", log)
    assert found, log
    return int(found.group(1))


def cached_files(cache: Path) -> list[Path]:
    return [path for path in cache.rglob("*") if path.is_file()]


def run_texture(tmp_path: Path) -> str:
    env = {"SDL_VIDEODRIVER": "offscreen", **cache_env(tmp_path / "data")}
    log = cabinet_log(tmp_path, env, "--display-backend", "texture")
    assert "display: texture: opengles2 (llvmpipe" in log
    return log


def test_the_first_frames_shaders_are_kept_in_the_data_directory(tmp_path: Path) -> None:
    cache = Path(cache_env(tmp_path / "data")["MESA_SHADER_CACHE_DIR"])
    assert frames(run_texture(tmp_path)) > 0
    written = cached_files(cache)
    assert written, f"nothing cached in {cache}"
    assert frames(run_texture(tmp_path)) > 0  # a second start keeps them
    assert set(written) <= set(cached_files(cache))


def test_a_cache_a_power_cut_spoiled_is_compiled_again(tmp_path: Path) -> None:
    cache = Path(cache_env(tmp_path / "data")["MESA_SHADER_CACHE_DIR"])
    run_texture(tmp_path)
    written = cached_files(cache)
    assert written
    for number, path in enumerate(written):
        data = path.read_bytes()
        if number % 2:  # cut short, as a write the power cut stopped
            path.write_bytes(data[: len(data) // 2])
        else:  # torn: the right length, the wrong bytes at the end
            path.write_bytes(data[: len(data) // 2] + bytes(len(data) - len(data) // 2))
    assert frames(run_texture(tmp_path)) > 0
