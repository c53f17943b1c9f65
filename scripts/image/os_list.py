"""An entry for Raspberry Pi Imager's OS list: the cabinet's image, as a repository of
its own (``rpi-imager --repo os_list.json``, or Imager's *Use custom file*). Prints the
JSON (docs/image.md).

Imager checks ``extract_sha256`` (the uncompressed image's) before it writes the card, and
``extract_size`` against the card; ``devices`` names the boards it is offered for. A
custom repository replaces Imager's own list, its devices too, so the list brings its own.

``python scripts/image/os_list.py --image FILE.img.xz --extract-size N --extract-sha256 HEX
--version V [--url URL] [--release-date YYYY-MM-DD]``
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import re
import struct
import sys
import zlib
from pathlib import Path
from typing import Any

DEVICES = [
    {
        "name": "Raspberry Pi 4",
        "description": "Raspberry Pi 4 Model B, Raspberry Pi 400, Compute Module 4",
        "tags": ["pi4-64bit"],
        "matching_type": "exclusive",
    }
]
"""The boards the image boots: the Pi 4 family (docs/image.md says why not the Pi 5)."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


ICON_PX = 40
"""Imager shows a 40×40 icon beside each entry."""


def icon_png() -> bytes:
    """The entry's icon: a card on the felt (PNG, drawn here: no image file to keep)."""
    felt, card, edge = b"\x1f\x6b\x3a", b"\xf8\xf4\xe8", b"\x20\x20\x20"
    rows = []
    for y in range(ICON_PX):
        row = b""
        for x in range(ICON_PX):
            inside = 10 <= x < 30 and 5 <= y < 35
            border = inside and (x in (10, 29) or y in (5, 34))
            row += edge if border else card if inside else felt
        rows.append(b"\x00" + row)  # filter type 0 per row

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", ICON_PX, ICON_PX, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def release_date(epoch: str | None) -> str:
    """``SOURCE_DATE_EPOCH``'s day (the image's own time), or today's."""
    moment = (
        datetime.datetime.fromtimestamp(int(epoch), datetime.UTC)
        if epoch
        else datetime.datetime.now(datetime.UTC)
    )
    return moment.date().isoformat()


def os_list(
    image: Path, extract_size: int, extract_sha256: str, version: str, url: str, date: str
) -> dict[str, Any]:
    """The repository: Imager's devices and the one OS entry."""
    if not re.fullmatch(r"[0-9a-f]{64}", extract_sha256):
        raise ValueError(f"--extract-sha256: not a SHA-256 in hex: {extract_sha256!r}")
    if extract_size <= 0 or extract_size % 512:
        raise ValueError(f"--extract-size: not a whole number of sectors: {extract_size}")
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise ValueError(f"--release-date: not YYYY-MM-DD: {date!r}")
    return {
        "imager": {"devices": DEVICES},
        "os_list": [
            {
                "name": f"Spit cabinet {version}",
                "description": (
                    "The Spit arcade cabinet: boots straight into attract mode, read-only root"
                ),
                "icon": url.rsplit("/", 1)[0] + "/spit-cabinet.png",
                "url": url,
                "extract_size": extract_size,
                "extract_sha256": extract_sha256,
                "image_download_size": image.stat().st_size,
                "image_download_sha256": sha256(image),
                "release_date": date,
                "devices": ["pi4-64bit"],
                "architecture": "armv8",
                "init_format": "none",
            }
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", type=Path, required=True, help="the .img.xz")
    parser.add_argument("--extract-size", type=int, required=True, help="the .img's bytes")
    parser.add_argument("--extract-sha256", required=True, help="the .img's SHA-256")
    parser.add_argument("--version", required=True)
    parser.add_argument("--url", help="where Imager downloads it (default: the file itself)")
    parser.add_argument("--release-date", help="YYYY-MM-DD (default: SOURCE_DATE_EPOCH's day)")
    parser.add_argument("--icon", type=Path, help="write the entry's icon here (PNG)")
    args = parser.parse_args(argv)
    if not args.image.is_file():
        parser.error(f"--image: no such file: {args.image}")
    url = args.url or args.image.resolve().as_uri()
    date = args.release_date or release_date(os.environ.get("SOURCE_DATE_EPOCH"))
    try:
        entry = os_list(args.image, args.extract_size, args.extract_sha256, args.version, url, date)
    except ValueError as exc:
        parser.error(str(exc))
    if args.icon is not None:
        args.icon.write_bytes(icon_png())
    json.dump(entry, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
