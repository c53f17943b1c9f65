"""The route's releases served to its cabinets over HTTPS (``spit-fleet release serve``;
docs/releases.md).

The published repository (``spit-fleet release publish``) is served read-only from the
fleet's folder, ``releases/metadata`` and ``releases/targets``, at
``https://HOST:8443/releases/`` (the path tells a release from a git URL), with the broker's own
certificate (the fleet's CA signed it; a cabinet trusts that CA only). Cabinets connect
out to it, as to the broker: nothing listens on a cabinet.

A download that was cut resumes where it stopped: ``Range: bytes=N-`` is answered with
``206 Partial Content``. Every file is signed metadata or a file whose hash that metadata
gives, so the server needs no trust of its own: a cabinet checks everything it gets.
"""

from __future__ import annotations

import http.server
import re
import shutil
import ssl
import threading
from pathlib import Path
from typing import ClassVar

from fleet.broker import FleetError

SERVED = ("metadata", "targets")
"""The repository's folders under ``releases/``: nothing else is served."""
NAME = re.compile(r"[A-Za-z0-9_.+-]+")
RANGE = re.compile(r"bytes=(\d+)-$")
CHUNK = 256 * 1024
UNVERSIONED = ("timestamp.json", "root.json")
"""The repository's files that change in place; every other is named for its version or
its hash."""


class ReleaseHandler(http.server.BaseHTTPRequestHandler):
    """GET and HEAD of a repository's file, whole or from an offset."""

    root: ClassVar[Path]
    protocol_version = "HTTP/1.1"
    server_version = "spit-fleet-releases"

    def _file(self) -> Path | None:
        parts = self.path.split("?", 1)[0].strip("/").split("/")
        if len(parts) != 3 or parts[0] != "releases" or parts[1] not in SERVED:
            return None
        if not NAME.fullmatch(parts[2]):
            return None
        path = self.root / parts[1] / parts[2]
        return path if path.is_file() else None

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def do_GET(self) -> None:
        self._serve(body=True)

    def _serve(self, *, body: bool) -> None:
        path = self._file()
        if path is None:
            self.send_error(404, "not in the route's releases")
            return
        size = path.stat().st_size
        start = 0
        wanted = RANGE.match(self.headers.get("Range", ""))
        if wanted is not None:
            start = int(wanted.group(1))
            if start >= size:
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(size - start))
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if not body:
            return
        with path.open("rb") as handle:
            handle.seek(start)
            shutil.copyfileobj(handle, self.wfile, CHUNK)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: a route's cabinets fetch often; errors still go to stderr."""


class ReleaseHTTPServer(http.server.ThreadingHTTPServer):
    """A thread per connection, and room for a route's cabinets connecting at once (the
    standard library's backlog of 5 reset connections when hundreds came together)."""

    request_queue_size = 1024
    daemon_threads = True


def release_server(
    folder: Path, bind: str, port: int, handler: type[ReleaseHandler] = ReleaseHandler
) -> http.server.ThreadingHTTPServer:
    """An HTTPS server of the fleet in ``folder``'s published releases (not started)."""
    root = folder / "releases"
    if not (root / "metadata" / "timestamp.json").is_file():
        raise FleetError(f"{root} holds no published release (spit-fleet release publish)")
    rooted = type("Handler", (handler,), {"root": root})
    server = ReleaseHTTPServer((bind, port), rooted)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(folder / "server.pem", folder / "server.key")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    return server


def serve_in_thread(server: http.server.ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, name="releases", daemon=True)
    thread.start()
    return thread


def publish(repo: Path, folder: Path) -> int:
    """Copy the signed repository ``repo`` to ``folder``'s served releases: the targets
    first, then the metadata, the timestamp last, each file whole, so a cabinet reading
    while it is copied sees the old release or the new. Returns the files copied."""
    if not (repo / "metadata" / "timestamp.json").is_file():
        raise FleetError(f"{repo} is not a release repository (spit-fleet release sign)")
    copied = 0
    served = folder / "releases"
    metadata = sorted((repo / "metadata").iterdir(), key=lambda p: p.name == "timestamp.json")
    for source in [*sorted((repo / "targets").iterdir()), *metadata]:
        target = served / source.parent.name / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and source.name not in UNVERSIONED:
            continue  # a versioned file never changes
        tmp = target.with_name(f".{target.name}.tmp")
        shutil.copyfile(source, tmp)
        tmp.replace(target)
        copied += 1
    return copied
