"""update.sh with signed releases (docs/releases.md): the running version verifies the
update before anything is installed. A signed release of the next version installs; bare
wheels, or a release with a wheel altered, are refused with the cabinet's one line and
leave the installation as it was. Real wheels, a real key, a real install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fleet.release_repository import sign_release
from tests.cabinet.updates.releases import Cabinet, make_key, now
from tests.deploy.conftest import REPO, copy_install, run, stub_systemctl, target


@pytest.fixture(scope="module")
def next_wheelhouse(wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stick's wheels with the cabinet's own wheel one version on (.post1), built from
    a copy of this checkout, as a next release would be."""
    base = tmp_path_factory.mktemp("next")
    source = base / "source"
    files = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, files):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    project = source / "pyproject.toml"
    text = project.read_text(encoding="utf-8")
    version = text.split('version = "', 1)[1].split('"', 1)[0]
    project.write_text(text.replace(f'version = "{version}"', f'version = "{version}.post1"', 1))
    folder = base / "wheels"
    folder.mkdir()
    for wheel in wheelhouse.glob("*.whl"):
        if not wheel.name.startswith("spit_cabinet-"):
            shutil.copy2(wheel, folder)
    built = run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                 folder, source], timeout_s=300)  # fmt: skip
    assert built.returncode == 0, built.stderr
    return folder


def update(root: Path, data: Path, source: Path) -> subprocess.CompletedProcess[str]:
    """update.sh, with a systemctl that only logs what it is asked to do."""
    stub = stub_systemctl(root.parent)
    return subprocess.run(
        ["bash", str(REPO / "deploy" / "update.sh"), "--install-dir", str(root), "--data-dir",
         str(data), "--without-lgpio", "--from", str(source)],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "PATH": f"{stub}:{os.environ['PATH']}"},
    )  # fmt: skip


def kept(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "versions").iterdir())


def unchanged(root: Path, before: str, versions: list[str]) -> None:
    assert target(root, "current") == before
    assert kept(root) == versions
    assert not (root / "tmp" / "release").exists()


def test_bare_wheels_are_refused_by_default_and_nothing_is_installed(
    installed: Path, wheelhouse: Path, tmp_path: Path
) -> None:
    root = copy_install(installed, tmp_path / "opt")
    before, versions = target(root, "current"), kept(root)
    done = update(root, tmp_path / "data", wheelhouse)
    assert done.returncode == 1
    assert f"release: refused: {wheelhouse} is not a signed release" in done.stderr
    assert "nothing installed" in done.stderr
    unchanged(root, before, versions)


def test_a_signed_release_of_the_next_version_is_installed(
    installed: Path, next_wheelhouse: Path, tmp_path: Path
) -> None:
    key = make_key(tmp_path / "key")
    signed = sign_release(key, next_wheelhouse, tmp_path / "repo", now())
    data = Cabinet.joined(tmp_path / "data", key).data
    root = copy_install(installed, tmp_path / "opt")
    before = target(root, "current")
    done = update(root, data, tmp_path / "repo")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"release: {signed.manifest.release} for route" in done.stderr
    after = target(root, "current")
    assert after != before and target(root, "previous") == before
    # The root that checked it is pinned in the install directory, root's own.
    pinned = (root / "release-root.json").read_bytes()
    assert pinned == (tmp_path / "key" / "root.json").read_bytes()
    complete = (root / "versions" / after / "COMPLETE").read_text(encoding="utf-8")
    assert f"version {signed.manifest.release}\n" in complete
    assert (root.parent / "stub" / "log").read_text(encoding="utf-8") == (
        "restart spit-cabinet.service\n"
    )


def test_a_release_with_a_wheel_altered_is_refused_and_nothing_is_installed(
    installed: Path, next_wheelhouse: Path, tmp_path: Path
) -> None:
    key = make_key(tmp_path / "key")
    sign_release(key, next_wheelhouse, tmp_path / "repo", now())
    [wheel] = (tmp_path / "repo" / "targets").glob("*.spit_cabinet-*.whl")
    data = wheel.read_bytes()
    wheel.write_bytes(data[:-1] + bytes([data[-1] ^ 0xFF]))
    root = copy_install(installed, tmp_path / "opt")
    before, versions = target(root, "current"), kept(root)
    done = update(root, Cabinet.joined(tmp_path / "data", key).data, tmp_path / "repo")
    assert done.returncode == 1
    assert "release: refused: a file of the release is truncated or altered" in done.stderr
    unchanged(root, before, versions)
