"""A release downloaded from the fleet server over HTTPS (docs/releases.md).

TLS trusts the fleet's CA only (the join file's, as the link to the broker does), so a
server with any other certificate, a man in the middle among them, is refused before a
byte is read. A file the cabinet already has (in its install's wheelhouse) is not downloaded again;
a file that was cut off part way is kept (``.part``) and resumed with a ``Range``
request; a server that ignores the range sends it whole again. Only a file with the
length and hash the signed metadata gives is kept; a resumed file that has neither is
thrown away and tried once more whole (the part, not the release, may be what a power cut
damaged).
"""

from __future__ import annotations

import http.client
import shutil
import ssl
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlparse

from tuf.api import exceptions
from tuf.api.metadata import TargetFile
from tuf.ngclient.fetcher import FetcherInterface

CHUNK = 64 * 1024


class HttpsFetcher(FetcherInterface):
    """GETs over HTTPS with ``context`` (the fleet's CA), each on a connection of its own."""

    def __init__(self, context: ssl.SSLContext, timeout_s: float = 30.0) -> None:
        self.context = context
        self.timeout_s = timeout_s

    def _open(self, url: str, start: int = 0) -> http.client.HTTPResponse:
        parsed = urlparse(url)
        if parsed.scheme != "https" or parsed.hostname is None:
            raise exceptions.DownloadError(f"not an https URL: {url}")
        conn = http.client.HTTPSConnection(
            parsed.hostname, parsed.port or 443, timeout=self.timeout_s, context=self.context
        )
        headers = {"Range": f"bytes={start}-"} if start else {}
        conn.request("GET", parsed.path or "/", headers=headers)
        response = conn.getresponse()
        if response.status not in (200, 206):
            response.close()
            conn.close()
            raise exceptions.DownloadHTTPError(f"{url}: HTTP {response.status}", response.status)
        return response

    def _fetch(self, url: str) -> Iterator[bytes]:
        return _chunks(self._open(url))

    def resume(self, url: str, part: Path, length: int, pace: Callable[[int], None]) -> None:
        """Download ``url`` into ``part`` from where it stopped, at most ``length`` bytes;
        ``pace(n)`` is told of each chunk (it may wait: the download's share of the CPU)."""
        have = part.stat().st_size if part.exists() else 0
        if have >= length:
            return
        response = self._open(url, have)
        mode = "ab" if response.status == 206 else "wb"  # the whole file again: restart
        with response, part.open(mode) as out:
            got = have if mode == "ab" else 0
            while got < length and (chunk := response.read(min(CHUNK, length - got))):
                out.write(chunk)
                got += len(chunk)
                pace(len(chunk))
            out.flush()
        if got < length:  # the server's end closed first: what came is kept for the next try
            raise http.client.IncompleteRead(b"", length - got)


def _chunks(response: http.client.HTTPResponse) -> Iterator[bytes]:
    with response:
        while chunk := response.read(CHUNK):
            yield chunk


def reuse(have: Path | None, info: TargetFile, dest: Path) -> bool:
    """Copy the file ``info`` signs from the wheels the cabinet already has (``have``:
    the install's wheelhouse), if one there has its length and hash; whether it did."""
    local = None if have is None else have / Path(info.path).name
    if local is None or not local.is_file() or local.stat().st_size != info.length:
        return False
    with local.open("rb") as handle:
        try:
            info.verify_length_and_hashes(handle)
        except exceptions.LengthOrHashMismatchError:
            return False
    shutil.copyfile(local, dest)
    return True


def resumable(
    fetcher: HttpsFetcher,
    parts: Path,
    pace: Callable[[int], None] = lambda n: None,
    have: Path | None = None,
) -> Callable[[TargetFile, str, Path], None]:
    """A target downloader for :func:`cabinet.updates.verify.verify_release` that takes a
    file the cabinet already has from ``have`` (most of a release's wheels are the last
    one's), keeps what it got in ``parts`` between attempts, and checks a file whole
    before it is used."""

    def download(info: TargetFile, url: str, dest: Path) -> None:
        if reuse(have, info, dest):
            return
        parts.mkdir(parents=True, exist_ok=True)
        part = parts / f"{info.hashes['sha256']}.part"
        resumed = part.exists() and part.stat().st_size > 0
        try:
            fetcher.resume(url, part, info.length, pace)
        except (OSError, http.client.HTTPException) as exc:
            if isinstance(exc, ssl.SSLCertVerificationError):
                raise exceptions.DownloadError(f"the server's certificate: {exc}") from exc
            raise exceptions.DownloadError(
                f"cut off at {part.stat().st_size if part.exists() else 0} of "
                f"{info.length} bytes ({exc}); the next try resumes"
            ) from exc
        with part.open("rb") as handle:
            try:
                info.verify_length_and_hashes(handle)
            except exceptions.LengthOrHashMismatchError:
                part.unlink()  # a bad part is never resumed
                if not resumed:
                    raise
                # What an earlier try kept was damaged (a power cut), not the release:
                # the next try downloads it whole, and only then is a mismatch a refusal.
                raise exceptions.DownloadError(
                    "the part kept from an earlier try was damaged; the next try downloads it whole"
                ) from None
        shutil.move(part, dest)  # the parts may be on another file system

    return download
