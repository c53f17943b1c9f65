"""Where a release is read from: TUF's client asks for URLs; a stick's release is a folder,
read through ``file:`` URLs by :class:`FolderFetcher`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlparse

from tuf.api import exceptions
from tuf.ngclient.fetcher import FetcherInterface

CHUNK = 64 * 1024


def is_release(folder: Path) -> bool:
    """Whether ``folder`` holds a signed release (its TUF metadata), not bare wheels."""
    return (folder / "metadata" / "timestamp.json").is_file()


def is_release_url(source: str) -> bool:
    """Whether ``source`` is a fleet server's releases (``https://HOST:PORT/releases/``,
    ``spit-fleet release serve``), not a git URL."""
    return source.startswith("https://") and urlparse(source).path.rstrip("/").endswith("/releases")


class FolderFetcher(FetcherInterface):
    """A release on a stick: ``file:`` URLs read in chunks (TUF's client stops reading past
    the length the metadata allows, so a file swapped for a huge one costs nothing)."""

    def _fetch(self, url: str) -> Iterator[bytes]:
        parsed = urlparse(url)
        if parsed.scheme != "file":
            raise exceptions.DownloadError(f"not a file URL: {url}")
        path = Path(unquote(parsed.path))
        try:
            handle = path.open("rb")
        except FileNotFoundError:
            raise exceptions.DownloadHTTPError(f"{path.name} is not in the release", 404) from None
        return self._chunks(handle)

    @staticmethod
    def _chunks(handle: BinaryIO) -> Iterator[bytes]:
        with handle:
            while chunk := handle.read(CHUNK):
                yield chunk
