"""A signed release served by the fleet over HTTPS (``spit-fleet release publish`` and
``serve``) and downloaded by a joined cabinet (``spit-cabinet release verify https://…``):
verified whole; a download cut off resumes where it stopped; a part that was altered is
thrown away, never installed, and the file downloaded whole once more; a file altered
whole is refused; a server with another CA's certificate (a man in the middle) is refused
before anything is read. Real TLS, the fleet's real CA, a real cabinet database
(docs/releases.md)."""

from __future__ import annotations

import contextlib
import datetime
import http.server
import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from cabinet.commands.cli import main as cabinet_main
from fleet import authority, cli
from fleet.release_keys import ROOT_FILE
from fleet.release_server import ReleaseHandler, release_server, serve_in_thread
from tests.cabinet.updates.releases import PASSPHRASE, wheels
from tests.fleet.conftest import Route
from tests.fleet.services import free_port

WHEEL_BYTES = 600_000


class Recording(ReleaseHandler):
    """Records each target's request (its Range); while ``cut_at`` is set, cuts the
    connection after that many bytes of a wheel; while ``hold_at`` is set, stops sending
    the cabinet's wheel at that byte, says so (``held``) and waits (``go``): the moment a
    test pulls the downloader's power."""

    asked: ClassVar[list[tuple[str, str]]] = []
    cut_at: ClassVar[int | None] = None
    alter: ClassVar[bool] = False
    hold_at: ClassVar[int | None] = None
    held = threading.Event()
    go = threading.Event()

    def do_GET(self) -> None:
        name = self.path.rsplit("/", 1)[-1]
        if name.endswith(".whl"):
            Recording.asked.append((name.split(".", 1)[1], self.headers.get("Range", "")))
            if Recording.hold_at is not None and "spit_cabinet" in name:
                self._hold(Recording.hold_at)
                return
            if Recording.alter:  # the whole wheel, its first byte not what was signed
                path = self._file()
                assert path is not None
                data = bytearray(path.read_bytes())
                data[0] ^= 0xFF
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(bytes(data))
                return
            if Recording.cut_at is not None:
                path = self._file()
                assert path is not None
                self.send_response(200)
                self.send_header("Content-Length", str(path.stat().st_size))
                self.end_headers()
                self.wfile.write(path.read_bytes()[: Recording.cut_at])
                self.wfile.flush()
                self.close_connection = True
                return
        super().do_GET()

    @staticmethod
    @contextlib.contextmanager
    def altering() -> Iterator[None]:
        """While inside: every wheel is sent altered."""
        Recording.alter = True
        try:
            yield
        finally:
            Recording.alter = False

    def _hold(self, at: int) -> None:
        path = self._file()
        assert path is not None
        data = path.read_bytes()
        wanted = self.headers.get("Range", "")
        start = int(wanted[6:-1]) if wanted.startswith("bytes=") else 0
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        self.wfile.write(data[start : max(start, at)])
        self.wfile.flush()
        Recording.held.set()
        Recording.go.wait(30)
        self.close_connection = True


@pytest.fixture
def served(route: Route, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Route, Path, str]]:
    """The route's key, a release 0.2.0 signed and published, served on a free port; a
    cabinet joined with the route's root. Yields the route, the cabinet's data, the URL."""
    monkeypatch.setenv("SPIT_RELEASE_PASSPHRASE", PASSPHRASE)
    key, repo = route.root / "key", route.root / "repo"
    assert cli.main(["release-key", "--route", "Test Route", "--out", str(key)]) == 0
    assert cli.main(["release", "trust", str(key / ROOT_FILE), "--dir", str(route.folder)]) == 0
    folder = wheels(route.root / "w", "0.2.0", size=WHEEL_BYTES)
    assert cli.main(["release", "sign", str(folder), "--key", str(key), "--repo", str(repo)]) == 0
    assert cli.main(["release", "publish", str(repo), "--dir", str(route.folder)]) == 0
    data = route.root / "cabinet-data"
    assert cabinet_main(["fleet", "join", str(route.add_cabinet("bar-1")), "--data-dir",
                         str(data)]) == 0  # fmt: skip
    port = free_port()
    Recording.asked, Recording.cut_at, Recording.hold_at = [], None, None
    server = release_server(route.folder, "127.0.0.1", port, Recording)
    serve_in_thread(server)
    try:
        yield route, data, f"https://localhost:{port}/releases/"
    finally:
        server.shutdown()
        server.server_close()


def verify(data: Path, url: str, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    status = cabinet_main(["release", "verify", url, "--out", str(out), "--data-dir", str(data),
                           "--running", "0.1.0"])  # fmt: skip
    return status, capsys.readouterr().err.strip().splitlines()[-1]


def test_a_published_release_is_downloaded_over_https_and_verified(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    route, data, url = served
    out = route.root / "out"
    status, line = verify(data, url, out, capsys)
    assert status == 0, line
    assert (
        line
        == "release: 0.2.0 for route 'Test Route' verified: 2 wheel(s) signed by the route's key"
    )
    for wheel in (route.root / "w").iterdir():
        assert (out / wheel.name).read_bytes() == wheel.read_bytes()
    assert sorted(r for _, r in Recording.asked) == ["", ""]  # each wheel whole, once
    assert not list((data / "releases" / "downloads").iterdir())  # no part left


def test_a_download_cut_off_resumes_where_it_stopped(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    route, data, url = served
    Recording.cut_at = 250_000
    status, line = verify(data, url, route.root / "out-1", capsys)
    assert status == 1 and "the release could not be downloaded" in line, line
    assert "cut off at 250000 of" in line and "the next try resumes" in line
    assert not (route.root / "out-1").exists()
    [part] = (data / "releases" / "downloads").iterdir()
    assert part.stat().st_size == 250_000
    # As the cabinet's watch runs it: the line's fault, not the release's: try again.
    capsys.readouterr()
    status = cabinet_main(["release", "fetch", url, "--data-dir", str(data), "--running",
                           "0.1.0"])  # fmt: skip
    assert status == 3, capsys.readouterr().err
    assert part.stat().st_size == 250_000  # what came is kept (the cut came at the same byte)
    Recording.cut_at, Recording.asked = None, []
    status, line = verify(data, url, route.root / "out-2", capsys)
    assert status == 0, line
    cabinet_wheel = next(n for n, _ in Recording.asked if n.startswith("spit_cabinet"))
    assert (cabinet_wheel, "bytes=250000-") in Recording.asked  # only the rest was sent
    for wheel in (route.root / "w").iterdir():
        assert (route.root / "out-2" / wheel.name).read_bytes() == wheel.read_bytes()


def test_an_altered_part_is_thrown_away_and_the_next_try_starts_again(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    route, data, url = served
    Recording.cut_at = 100_000
    verify(data, url, route.root / "out-1", capsys)
    [part] = (data / "releases" / "downloads").iterdir()
    part.write_bytes(os.urandom(100_000))  # what the card holds is not what was sent
    Recording.cut_at = None
    status, line = verify(data, url, route.root / "out-2", capsys)
    # The part's fault, not the release's: the line's kind of failure, tried again.
    assert status == 1 and "the part kept from an earlier try was damaged" in line, line
    assert not part.exists() and not (route.root / "out-2").exists()
    Recording.asked = []
    status, line = verify(data, url, route.root / "out-3", capsys)
    assert status == 0, line
    assert all(wanted == "" for _, wanted in Recording.asked)  # whole, from the start
    # Altered whole, with no part before it: that is the release's, and refused.
    with Recording.altering():
        status, line = verify(data, url, route.root / "out-4", capsys)
    assert status == 1 and line.endswith("a file of the release is truncated or altered"), line


def test_a_server_with_another_ca_s_certificate_is_refused(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    route, data, _ = served
    now = datetime.datetime.now(datetime.UTC)
    ca = authority.make_ca("Someone Else", now)
    cert = authority.make_server(ca, ["localhost", "127.0.0.1"], now)
    middle = tmp_path / "middle"
    (middle / "releases").mkdir(parents=True)
    with contextlib.suppress(FileExistsError):
        (middle / "releases" / "metadata").symlink_to(route.folder / "releases" / "metadata")
    (middle / "releases" / "targets").symlink_to(route.folder / "releases" / "targets")
    (middle / "server.pem").write_bytes(cert.cert)
    (middle / "server.key").write_bytes(cert.key)
    port = free_port()
    server: http.server.ThreadingHTTPServer = release_server(middle, "127.0.0.1", port)
    serve_in_thread(server)
    try:
        url = f"https://localhost:{port}/releases"
        status, line = verify(data, url, route.root / "out", capsys)
    finally:
        server.shutdown()
        server.server_close()
    assert status == 1
    assert line.startswith(
        "release: refused: the release could not be downloaded: the server's certificate is "
        "not signed by the fleet's CA ("
    ), line
    assert not (route.root / "out").exists()


def test_a_fetched_release_is_staged_as_a_release_the_install_verifies_again(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    route, data, url = served
    capsys.readouterr()
    status = cabinet_main(["release", "fetch", url, "--data-dir", str(data), "--running",
                           "0.1.0", "--rate-kbps", "100000"])  # fmt: skip
    said = capsys.readouterr()
    assert status == 0, said.err
    staged = data / "releases" / "staged"
    assert said.out.strip() == str(staged)
    assert not (data / "releases" / "fetching").exists()
    # What root runs before installing: the staged copy verified as a release of its own.
    status, line = verify(data, str(staged), route.root / "out", capsys)
    assert status == 0, line
    for wheel in (route.root / "w").iterdir():
        assert (route.root / "out" / wheel.name).read_bytes() == wheel.read_bytes()
    # A wheel swapped in the staged copy (by the cabinet's own user) is refused there.
    [target] = (staged / "targets").glob("*.spit_cabinet-*.whl")
    target.write_bytes(b"not what was signed")
    status, line = verify(data, str(staged), route.root / "out-2", capsys)
    assert status == 1 and line.endswith("a file of the release is truncated or altered")


def test_wheels_the_cabinet_has_are_not_downloaded_again(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    route, data, url = served
    given = route.root / "w"
    have = route.root / "have"
    have.mkdir()
    [dependency] = given.glob("tomli_w-*.whl")
    (have / dependency.name).write_bytes(dependency.read_bytes())  # the last release's
    [cabinet_wheel] = given.glob("spit_cabinet-*.whl")
    (have / cabinet_wheel.name).write_bytes(b"an older build under the same name")
    status = cabinet_main(["release", "fetch", url, "--data-dir", str(data), "--running",
                           "0.1.0", "--have", str(have)])  # fmt: skip
    assert status == 0, capsys.readouterr().err
    assert [name for name, _ in Recording.asked] == [cabinet_wheel.name]  # only what changed
    staged = data / "releases" / "staged" / "targets"
    for wheel in given.iterdir():
        [copy] = staged.glob(f"*.{wheel.name}")
        assert copy.read_bytes() == wheel.read_bytes()


def test_power_cuts_during_a_download_resume_and_never_stage_a_part(
    served: tuple[Route, Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The downloader's process killed (SIGKILL: the power pulled) at seeded bytes of the
    cabinet's wheel: nothing is staged, the part is kept, and the next try resumes from
    it; after the last cut the release is staged whole."""
    route, data, url = served
    fetch = [sys.executable, "-m", "cabinet", "release", "fetch", url, "--data-dir", str(data),
             "--running", "0.1.0"]  # fmt: skip
    parts = data / "releases" / "downloads"
    rng = random.Random(34)
    kept = 0
    for cut in sorted(rng.sample(range(WHEEL_BYTES // 10, WHEEL_BYTES), 3)):
        Recording.hold_at, Recording.asked = cut, []
        Recording.held.clear()
        Recording.go.clear()
        process = subprocess.Popen(fetch, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert Recording.held.wait(60), "the download never reached the cut"
            process.kill()  # the power goes
            process.wait(30)
        finally:
            Recording.go.set()
        asked = dict(Recording.asked)
        wheel = next(n for n in asked if n.startswith("spit_cabinet"))
        assert asked[wheel] == (f"bytes={kept}-" if kept else "")  # resumed where it was
        assert not (data / "releases" / "staged").exists()
        # At most one part, what was written before the cut. None at all when the power
        # went before the downloader had read the answer's head (the server has sent up
        # to the cut, but the downloader may not have read a byte of it yet): then
        # nothing was kept before either, as a part once written is never lost.
        held = sorted(parts.iterdir()) if parts.exists() else []
        assert len(held) <= 1, held
        size = held[0].stat().st_size if held else 0
        assert kept <= size <= cut
        kept = size
    Recording.hold_at, Recording.asked = None, []
    capsys.readouterr()
    status = cabinet_main(fetch[3:])
    assert status == 0, capsys.readouterr().err
    assert (wheel, f"bytes={kept}-" if kept else "") in Recording.asked
    [staged] = (data / "releases" / "staged" / "targets").glob("*.spit_cabinet-*.whl")
    [given] = (route.root / "w").glob("spit_cabinet-*.whl")
    assert staged.read_bytes() == given.read_bytes()
