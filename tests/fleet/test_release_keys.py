"""``spit-fleet release-key``, ``release sign`` and ``release trust`` (docs/releases.md):
the key encrypted with its passphrase, the route's root signed by it, releases signed in
order into the repository, and the root handed to cabinets in their join files, from
which a joined cabinet verifies a release."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from tuf.api.metadata import Metadata, Root

from cabinet.commands.cli import main as cabinet_main
from fleet import cli
from fleet.join_file import JoinError, read_join
from fleet.release_keys import KEY_FILE, ROOT_FILE
from tests.cabinet.updates.releases import PASSPHRASE, ROUTE, wheels
from tests.fleet.conftest import Route


@pytest.fixture
def passphrase(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("SPIT_RELEASE_PASSPHRASE", PASSPHRASE)
    return PASSPHRASE


def fleet(*argv: str | Path) -> int:
    return cli.main([str(a) for a in argv])


def test_the_key_is_encrypted_and_the_root_signed_by_it(tmp_path: Path, passphrase: str) -> None:
    assert fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key") == 0
    pem = (tmp_path / "key" / KEY_FILE).read_bytes()
    assert b"ENCRYPTED PRIVATE KEY" in pem
    assert stat.S_IMODE((tmp_path / "key" / KEY_FILE).stat().st_mode) == 0o600
    root = Metadata[Root].from_file(str(tmp_path / "key" / ROOT_FILE))
    root.verify_delegate(Root.type, root)  # signed by the key it names
    assert {r: len(role.keyids) for r, role in root.signed.roles.items()} == {
        "root": 1, "targets": 1, "snapshot": 1, "timestamp": 1,
    }  # fmt: skip
    assert root.signed.consistent_snapshot
    # A second key in the same folder would orphan every cabinet trusting the first.
    assert fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key") == 1


def test_a_wrong_passphrase_signs_nothing(
    tmp_path: Path,
    passphrase: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key")
    monkeypatch.setenv("SPIT_RELEASE_PASSPHRASE", "not the passphrase")
    status = fleet("release", "sign", wheels(tmp_path / "w", "0.2.0"), "--key", tmp_path / "key",
                   "--repo", tmp_path / "repo")  # fmt: skip
    assert status == 1
    assert "wrong passphrase" in capsys.readouterr().err
    assert not (tmp_path / "repo").exists()


def test_releases_are_signed_in_order_and_an_older_one_refused(
    tmp_path: Path, passphrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key")
    repo = tmp_path / "repo"
    for n, version in enumerate(["0.2.0", "0.10.0"], start=1):
        assert fleet("release", "sign", wheels(tmp_path / version, version), "--key",
                     tmp_path / "key", "--repo", repo) == 0  # fmt: skip
        assert f"release {version} for route {ROUTE!r} signed: 2 wheel(s), metadata version {n}" \
            in capsys.readouterr().out  # fmt: skip
    timestamp = json.loads((repo / "metadata" / "timestamp.json").read_text())
    assert timestamp["signed"]["version"] == 2
    status = fleet("release", "sign", wheels(tmp_path / "old", "0.9.0"), "--key",
                   tmp_path / "key", "--repo", repo)  # fmt: skip
    assert status == 1
    assert "0.9.0 is older than the release" in capsys.readouterr().err
    assert json.loads((repo / "metadata" / "timestamp.json").read_text()) == timestamp


def test_a_folder_without_the_cabinet_s_wheel_is_not_a_release(
    tmp_path: Path, passphrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key")
    folder = wheels(tmp_path / "w", "0.2.0")
    next(folder.glob("spit_cabinet-*")).unlink()
    assert (
        fleet("release", "sign", folder, "--key", tmp_path / "key", "--repo", tmp_path / "r") == 1
    )
    assert "exactly one spit_cabinet wheel" in capsys.readouterr().err


def test_join_files_carry_the_trusted_root_and_the_cabinet_verifies_with_it(
    route: Route, passphrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    key = route.root / "key"
    fleet("release-key", "--route", "Test Route", "--out", key)
    before = read_join(route.add_cabinet("bar-0"))
    assert before.release_root == ""
    assert fleet("release", "trust", key / ROOT_FILE, "--dir", route.folder) == 0
    join_path = route.add_cabinet("bar-1")
    joined = read_join(join_path)
    assert joined.fleet == "Test Route"
    assert joined.release_root == (key / ROOT_FILE).read_text()
    data = route.root / "cabinet-data"
    assert cabinet_main(["fleet", "join", str(join_path), "--data-dir", str(data)]) == 0
    repo = route.root / "repo"
    fleet("release", "sign", wheels(route.root / "w", "0.2.0"), "--key", key, "--repo", repo)
    capsys.readouterr()
    out = route.root / "out"
    status = cabinet_main(["release", "verify", str(repo), "--out", str(out), "--data-dir",
                           str(data), "--running", "0.1.0"])  # fmt: skip
    assert status == 0, capsys.readouterr().err
    assert capsys.readouterr().out.strip() == str(out)


def test_trust_refuses_a_root_that_is_not_signed(
    tmp_path: Path, passphrase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fleet("release-key", "--route", ROUTE, "--out", tmp_path / "key")
    data = json.loads((tmp_path / "key" / ROOT_FILE).read_text())
    data["signed"]["expires"] = "2099-01-01T00:00:00Z"  # a longer life, not signed
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    assert fleet("release", "trust", forged, "--dir", tmp_path) == 1
    assert "is not a route's signed root" in capsys.readouterr().err
    assert not (tmp_path / "release-root.json").exists()


def test_a_join_file_with_a_release_root_that_is_not_one_is_refused(tmp_path: Path) -> None:
    from fleet.join_file import Join, join_file_text

    for bad, why in [("{", "not JSON"), ('{"signed": {"_type": "targets"}}', "not a TUF root")]:
        join = Join("Route", "bar-1", "The Anchor", "localhost", 8883, "pw", "ca", bad)
        path = tmp_path / "join.json"
        path.write_text(join_file_text(join))
        with pytest.raises(JoinError, match=why):
            read_join(path)
