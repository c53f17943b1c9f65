"""The installer on each OS release it supports, 64-bit: Raspberry Pi OS on Debian 13
("trixie", Python 3.13) and on Debian 12 ("bookworm", Python 3.11), and plain Debian 13
(no Raspberry Pi archive). Its dry-run plan takes lgpio from Raspberry Pi OS's archive, or
builds it where there is none; and every other runtime dependency has a wheel for the Pi's
Python on aarch64 in the package index (checked against the index itself)."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.deploy.conftest import INSTALL, project_requirements, run

# What a Pi's pip accepts: manylinux wheels for aarch64 up to glibc 2.36 (bookworm's; trixie
# has 2.41). pip given --platform takes only the tags it is given, so all are named.
PI_PLATFORMS = ["manylinux2014_aarch64", *(f"manylinux_2_{v}_aarch64" for v in range(17, 37))]


@dataclass(frozen=True)
class Release:
    name: str
    codename: str
    python: str
    pi_archive: bool
    """Whether Raspberry Pi OS's archive is there (it has python3-lgpio)."""


RASPBERRY_PI_OS = [
    Release("Raspberry Pi OS (trixie)", "trixie", "3.13", True),
    Release("Raspberry Pi OS (bookworm)", "bookworm", "3.11", True),
]
PLAIN_DEBIAN = Release("Debian 13", "trixie", "3.13", False)


def plan(tmp_path: Path, release: Release) -> str:
    """install.sh --dry-run on ``release``: its os-release file, and an apt-cache that
    offers python3-lgpio only with the Raspberry Pi archive."""
    os_release = tmp_path / "os-release"
    os_release.write_text(
        f'PRETTY_NAME="{release.name}"\nVERSION_CODENAME={release.codename}\n', encoding="utf-8"
    )
    stub = tmp_path / "bin"
    stub.mkdir()
    candidate = "2.2-1~rpt1" if release.pi_archive else "(none)"
    apt_cache = stub / "apt-cache"
    apt_cache.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = policy ] && [ "$2" = python3-lgpio ]; then\n'
        f'  printf "python3-lgpio:\\n  Installed: (none)\\n  Candidate: {candidate}\\n"\n'
        "fi\n",
        encoding="utf-8",
    )
    apt_cache.chmod(0o755)
    code = (
        f'export PATH="{stub}:$PATH" OS_RELEASE="{os_release}"; '
        f"bash {INSTALL} --dry-run --install-dir {tmp_path}/opt --data-dir {tmp_path}/data"
        " --user spittest"
    )
    done = run(["bash", "-c", code])
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"OS release: {release.codename}" in done.stdout
    assert "package names may differ" not in done.stderr
    return done.stdout


def commands(out: str) -> list[str]:
    return [line[2:] for line in out.splitlines() if line.startswith("+ ")]


@pytest.mark.parametrize("release", RASPBERRY_PI_OS, ids=lambda r: r.codename)
def test_on_raspberry_pi_os_lgpio_comes_from_its_archive(tmp_path: Path, release: Release) -> None:
    cmds = commands(plan(tmp_path, release))
    [apt] = [c for c in cmds if "apt-get install" in c]
    assert "python3-lgpio" in apt.split()
    assert "swig" not in apt.split()
    assert any(c.startswith("python3 -m venv --system-site-packages ") for c in cmds)
    assert "use lgpio from python3-lgpio (the system site packages)" in cmds
    assert not [c for c in cmds if "PYPI=1" in c]


def test_on_plain_debian_lgpio_is_built_from_its_source(tmp_path: Path) -> None:
    cmds = commands(plan(tmp_path, PLAIN_DEBIAN))
    [apt] = [c for c in cmds if "apt-get install" in c]
    assert {"swig", "build-essential", "python3-dev"} <= set(apt.split())
    assert "python3-lgpio" not in apt.split()
    build = [c for c in cmds if c.startswith("env PYPI=1 ")]
    assert len(build) == 1 and "--no-binary lgpio" in build[0]


def resolves_on_the_pi(python: str, requirements: list[str], tmp_path: Path) -> tuple[int, str]:
    """Ask the package index for wheels of ``requirements`` and all they need, for the Pi:
    aarch64, CPython ``python``, binary wheels only (nothing compiled on the cabinet)."""
    report = tmp_path / f"report-{python}.json"
    done = run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--dry-run",
         "--quiet", "--ignore-installed", "--only-binary=:all:",
         *(f"--platform={p}" for p in PI_PLATFORMS), "--python-version", python,
         "--target", tmp_path / "target", "--report", report, *requirements],
        timeout_s=300,
    )  # fmt: skip
    if done.returncode != 0:
        return done.returncode, done.stderr
    names = sorted(item["metadata"]["name"] for item in json.loads(report.read_text())["install"])
    return 0, " ".join(names)


@pytest.mark.parametrize("release", RASPBERRY_PI_OS, ids=lambda r: r.codename)
def test_every_runtime_dependency_reaches_the_pi_the_way_the_installer_gets_it(
    tmp_path: Path, release: Release
) -> None:
    """pip gets everything but lgpio as wheels for the Pi's Python; lgpio, where PyPI has
    no wheel for that Python, comes the way the plan says (the archive's python3-lgpio)."""
    pip_gets = project_requirements("flash")
    status, found = resolves_on_the_pi(release.python, pip_gets, tmp_path)
    assert status == 0, f"no aarch64 wheels for Python {release.python}:\n{found}"
    assert {"pygame-ce", "gpiozero", "pyserial", "mpremote"} <= set(found.split())
    lgpio = [r for r in project_requirements("pi") if r.startswith("lgpio")]
    has_wheel, _ = resolves_on_the_pi(release.python, lgpio, tmp_path)
    cmds = commands(plan(tmp_path, release))
    if has_wheel != 0:  # no wheel: the installer's other way must be in its plan
        [apt] = [c for c in cmds if "apt-get install" in c]
        assert "python3-lgpio" in apt.split(), f"lgpio cannot reach Python {release.python}"
        assert any(c.startswith("python3 -m venv --system-site-packages ") for c in cmds)


def test_the_supported_releases_are_the_documented_ones() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "install-pi.md").read_text("utf-8")
    for release in [*RASPBERRY_PI_OS, PLAIN_DEBIAN]:
        assert release.codename in guide
        assert f"Python {release.python}" in guide
    assert os.path.basename(INSTALL) == "install.sh"
