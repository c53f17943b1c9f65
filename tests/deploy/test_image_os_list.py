"""The flashable image's entry for Raspberry Pi Imager (scripts/image/os_list.py): what
Imager checks before it writes a card is the image's own size and hash, the download's
size and hash are the file's, the board is the Pi 4, and bad input is refused in one
line (docs/image.md)."""

from __future__ import annotations

import hashlib
import json
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from tests.deploy.conftest import REPO

OS_LIST = REPO / "scripts" / "image" / "os_list.py"
REQUIRED = {
    "name",
    "description",
    "icon",
    "url",
    "extract_size",
    "extract_sha256",
    "image_download_size",
    "release_date",
    "devices",
}
"""The fields Imager's schema requires of an OS entry."""


def os_list(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(OS_LIST), *args], capture_output=True, text=True, env=env, check=False
    )


@pytest.fixture
def image(tmp_path: Path) -> tuple[Path, bytes]:
    raw = bytes(range(256)) * 8 * 512  # a 1 MiB "card"
    xz = tmp_path / "card.img.xz"
    xz.write_bytes(zlib.compress(raw))  # any bytes: Imager hashes the file as it is
    return xz, raw


def test_the_entry_carries_the_images_and_the_downloads_sizes_and_hashes(
    image: tuple[Path, bytes], tmp_path: Path
) -> None:
    xz, raw = image
    done = os_list(
        "--image", str(xz), "--extract-size", str(len(raw)),
        "--extract-sha256", hashlib.sha256(raw).hexdigest(), "--version", "1.2.3",
        "--url", "https://cabinets.example/spit/card.img.xz",
        "--icon", str(tmp_path / "spit-cabinet.png"),
        env={"SOURCE_DATE_EPOCH": "1764979200", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    (entry,) = listing["os_list"]
    assert entry.keys() >= REQUIRED
    assert entry["extract_size"] == len(raw)
    assert entry["extract_sha256"] == hashlib.sha256(raw).hexdigest()
    assert entry["image_download_size"] == xz.stat().st_size
    assert entry["image_download_sha256"] == hashlib.sha256(xz.read_bytes()).hexdigest()
    assert entry["release_date"] == "2025-12-06"  # SOURCE_DATE_EPOCH's day, not today
    assert entry["devices"] == ["pi4-64bit"] and entry["init_format"] == "none"
    assert entry["icon"] == "https://cabinets.example/spit/spit-cabinet.png"
    # A custom repository replaces Imager's devices: the list names the board it offers.
    assert [d["tags"] for d in listing["imager"]["devices"]] == [["pi4-64bit"]]


def test_the_icon_is_a_40_by_40_png(image: tuple[Path, bytes], tmp_path: Path) -> None:
    xz, raw = image
    icon = tmp_path / "spit-cabinet.png"
    sha = hashlib.sha256(raw).hexdigest()
    args = ["--image", str(xz), "--extract-size", str(len(raw)), "--extract-sha256", sha]
    assert os_list(*args, "--version", "1", "--icon", str(icon)).returncode == 0
    data = icon.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert (width, height, depth, colour) == (40, 40, 8, 2)
    size = struct.unpack(">I", data[33:37])[0]
    assert data[37:41] == b"IDAT"
    pixels = zlib.decompress(data[41 : 41 + size])
    assert len(pixels) == 40 * (1 + 40 * 3)  # every row there


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--extract-sha256", "abc", "not a SHA-256"),
        ("--extract-size", "1000", "whole number of sectors"),
        ("--release-date", "06/12/2026", "YYYY-MM-DD"),
    ],
)
def test_bad_input_is_refused_in_one_line(
    image: tuple[Path, bytes], option: str, value: str, said: str
) -> None:
    xz, raw = image
    args = {
        "--image": str(xz),
        "--extract-size": str(len(raw)),
        "--extract-sha256": hashlib.sha256(raw).hexdigest(),
        "--version": "1",
        option: value,
    }
    done = os_list(*[x for pair in args.items() for x in pair])
    assert done.returncode == 2 and done.stdout == ""
    assert said in done.stderr.strip().splitlines()[-1]


def test_a_missing_image_is_named(tmp_path: Path) -> None:
    done = os_list(
        "--image", str(tmp_path / "none.img.xz"), "--extract-size", "512",
        "--extract-sha256", "0" * 64, "--version", "1",
    )  # fmt: skip
    assert done.returncode == 2 and "no such file" in done.stderr
