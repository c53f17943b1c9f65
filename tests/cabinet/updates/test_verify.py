"""``spit-cabinet release verify``: a signed release checked whole before anything of it is
installed, and each way a release is refused, with one line and nothing to install
(docs/releases.md). Real keys, real TUF metadata, a real cabinet database."""

from __future__ import annotations

import datetime
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.storage.setting_table import UNSIGNED_UPDATES
from cabinet.storage.store import CabinetStore
from fleet.release_keys import ReleaseKey, make_release_key, root_bytes
from tests.cabinet.updates.releases import PASSPHRASE, ROUTE, Cabinet, make_key, now, sign, wheels


@dataclass
class Route:
    key: ReleaseKey
    cabinet: Cabinet
    repo: Path
    tmp: Path

    def sign(self, version: str, **kwargs: object) -> Path:
        sign(self.key, self.tmp, version, self.repo, **kwargs)  # type: ignore[arg-type]
        return self.repo

    def verify(self, source: Path, running: str = "0.1.0") -> tuple[int, str, Path]:
        """The command's status, its last line on stderr (update.sh shows it), and the
        folder to install from (stdout: the folder it was asked to fill, or bare wheels'
        own)."""
        out = self.tmp / f"out-{len(list(self.tmp.glob('out-*')))}"
        argv = ["release", "verify", str(source), "--out", str(out), "--data-dir",
                str(self.cabinet.data), "--running", running]  # fmt: skip
        done = subprocess.run(
            [sys.executable, "-m", "cabinet", *argv], capture_output=True, text=True, check=False
        )
        lines = done.stderr.strip().splitlines() or [""]
        given = Path(done.stdout.strip()) if done.returncode == 0 else out
        return done.returncode, lines[-1], given


@pytest.fixture
def route(tmp_path: Path) -> Route:
    key = make_key(tmp_path / "key")
    return Route(key, Cabinet.joined(tmp_path / "data", key), tmp_path / "repo", tmp_path)


def refused(result: tuple[int, str, Path], why: str) -> None:
    status, line, out = result
    assert status == 1, line
    assert line.startswith("release: refused: ") and why in line, line
    assert not out.exists(), "a refused release left files to install"


def test_a_signed_release_is_verified_and_its_wheels_given_to_install(route: Route) -> None:
    status, line, out = route.verify(route.sign("0.2.0"))
    assert status == 0, line
    assert out == route.tmp / "out-0"
    assert line == (
        f"release: 0.2.0 for route {ROUTE!r} verified: 2 wheel(s) signed by the route's key"
    )
    [given] = route.tmp.glob("wheels-0.2.0-*")
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [*(p.name for p in given.iterdir()), "release.json"]
    )
    for wheel in given.iterdir():
        assert (out / wheel.name).read_bytes() == wheel.read_bytes()


def test_a_release_signed_by_another_key_is_refused(route: Route) -> None:
    stranger = make_release_key(route.tmp / "stranger", ROUTE, PASSPHRASE, now())
    sign(stranger, route.tmp, "0.2.0", route.repo)
    refused(route.verify(route.repo), "not signed by this route's release key")


def test_a_release_for_another_route_is_refused_even_with_the_same_key(route: Route) -> None:
    # The operator's one key used for two routes: the manifest names the route.
    other = ReleaseKey(route.key.signer, route.key.root, "Southside Games")
    sign(other, route.tmp, "0.2.0", route.repo)
    refused(route.verify(route.repo), "is for route 'Southside Games', not this cabinet's")


def test_an_expired_release_is_refused(route: Route) -> None:
    route.sign("0.2.0", at=now() - datetime.timedelta(days=3), expires_days=2)
    refused(route.verify(route.repo), "the release has expired")


def test_an_older_release_replayed_after_a_newer_one_is_refused(route: Route) -> None:
    route.sign("0.2.0")
    old = route.tmp / "old-repo"
    shutil.copytree(route.repo, old)
    route.sign("0.3.0")
    status, line, _ = route.verify(route.repo)
    assert status == 0, line
    # The stick of the earlier release, still signed and unexpired: a replay.
    refused(route.verify(old), "older than one this cabinet has already seen (a replay)")


def test_a_release_not_newer_than_the_running_version_is_refused(route: Route) -> None:
    refused(route.verify(route.sign("0.2.0"), running="0.2.0"), "is not newer than")


@pytest.mark.parametrize("damage", ["truncated", "altered"])
def test_a_damaged_wheel_is_refused(route: Route, damage: str) -> None:
    route.sign("0.2.0")
    [target] = (route.repo / "targets").glob("*.spit_cabinet-0.2.0-*.whl")
    data = target.read_bytes()
    if damage == "truncated":
        target.write_bytes(data[: len(data) // 2])
    else:
        target.write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    refused(route.verify(route.repo), "a file of the release is truncated or altered")


def test_a_missing_wheel_is_refused(route: Route) -> None:
    route.sign("0.2.0")
    [target] = (route.repo / "targets").glob("*.tomli_w-*.whl")
    target.unlink()
    refused(route.verify(route.repo), "a file of the release is missing")


def test_metadata_altered_after_signing_is_refused(route: Route) -> None:
    route.sign("0.2.0")
    [targets] = (route.repo / "metadata").glob("1.targets.json")
    targets.write_text(targets.read_text().replace('"version": 1', '"version": 1 '))
    snapshot = route.repo / "metadata" / "1.snapshot.json"
    # Snapshot names the targets' hash: an edited targets file no longer matches it.
    assert snapshot.exists()
    refused(route.verify(route.repo), "truncated or altered")


def test_a_full_disk_is_refused_with_nothing_left(route: Route) -> None:
    route.sign("0.2.0")
    small = route.tmp / "small"
    small.mkdir()
    argv = [
        sys.executable,
        "-m",
        "cabinet",
        "release",
        "verify",
        str(route.repo),
        "--out",
        str(small / "out"),
        "--data-dir",
        str(route.cabinet.data),
        "--running",
        "0.1.0",
    ]
    # A disk of 4 KiB, in a mount namespace of the test's own (no root needed).
    script = f'mount -t tmpfs -o size=4k tmpfs "{small}" && exec "$@"'
    done = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, "sh", *argv],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    line = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 1, done.stderr
    assert line == "release: refused: the disk is full: the release does not fit"
    assert not (small / "out").exists()


def test_unsigned_wheels_are_refused_unless_the_cabinet_allows_them(route: Route) -> None:
    bare = wheels(route.tmp / "bare", "0.2.0")
    refused(route.verify(bare), "is not a signed release")
    store = CabinetStore.open(route.cabinet.data)
    try:
        store.settings.set(UNSIGNED_UPDATES, True)
        store.save_settings()
    finally:
        store.close()
    status, line, given = route.verify(bare)
    assert status == 0 and "not signed; installed as 'Unsigned updates' is on" in line
    assert given == bare  # bare wheels are installed from where they are
    assert not list(route.tmp.glob("out-*"))


def test_a_cabinet_in_no_fleet_has_no_root_to_check_a_release_with(tmp_path: Path) -> None:
    key = make_key(tmp_path / "key")
    sign(key, tmp_path, "0.2.0", tmp_path / "repo")
    lone = Route(key, Cabinet(tmp_path / "lone-data"), tmp_path / "repo", tmp_path)
    refused(lone.verify(lone.repo), "this cabinet has no release root")


def test_the_command_is_listed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["release", "--help"])
    assert "verify" in capsys.readouterr().out


def test_the_updater_pins_the_root_and_refuses_one_changed_in_the_database(
    route: Route, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cabinet's user can write its database (the join's root among it): the updater,
    root, checks against its own copy, made at the first signed update verified."""
    route.sign("0.2.0")
    pin, trusted = route.tmp / "opt" / "release-root.json", route.tmp / "opt" / "trusted"

    def verify(out: str) -> tuple[int, str]:
        capsys.readouterr()
        status = main(["release", "verify", str(route.repo), "--out", str(route.tmp / out),
                       "--data-dir", str(route.cabinet.data), "--running", "0.1.0",
                       "--pin", str(pin), "--trusted", str(trusted)])  # fmt: skip
        return status, capsys.readouterr().err.strip().splitlines()[-1]

    status, _ = verify("out-a")
    assert status == 0 and pin.read_bytes() == root_bytes(route.key.root)
    assert (trusted / "timestamp.json").exists()  # root's metadata, not the data folder's
    # Someone with the cabinet's user puts another route's root in its database.
    stranger = make_release_key(route.tmp / "stranger", ROUTE, PASSPHRASE, now())
    Cabinet.joined(route.cabinet.data, stranger)
    sign(stranger, route.tmp, "0.3.0", route.tmp / "stranger-repo")
    route.repo = route.tmp / "stranger-repo"
    status, line = verify("out-b")
    assert status == 1 and "is not the one pinned in" in line
    assert not (route.tmp / "out-b").exists()
    pin.unlink()  # the operator, as root, after joining the cabinet to that route
    status, _ = verify("out-c")
    assert status == 0 and pin.read_bytes() == root_bytes(stranger.root)
