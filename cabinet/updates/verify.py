"""A release checked whole before anything of it is installed (docs/releases.md).

TUF's client (python-tuf's ``ngclient``) does the checks the field trusts: every role
signed by the route's key, chained from the root the join file gave; nothing expired
(a freeze); nothing older than what this cabinet has already seen (a replay: the
metadata it last trusted is kept in ``trusted``); every file the length and hash the
signed metadata gives. Then the release's own rules: its manifest is for this cabinet's
route, and its version is newer than the one running.

Everything is downloaded into ``out``; a refusal leaves nothing there to install.
"""

from __future__ import annotations

import errno
import shutil
import ssl
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tuf.api import exceptions
from tuf.api.metadata import TargetFile
from tuf.ngclient import Updater
from tuf.ngclient.fetcher import FetcherInterface

from fleet.release_manifest import NAME, Manifest, ManifestError, read_manifest, version_key


class Refused(Exception):
    """A release this cabinet will not install; its text is one line saying why.
    ``transient``: not the release's fault but the line's (a connection reset, a
    timeout): the next try may get it."""

    def __init__(self, why: str, *, transient: bool = False) -> None:
        super().__init__(why)
        self.transient = transient


def transient(exc: Exception) -> bool:
    """Whether ``exc`` is the line's (try again), not a check that failed."""
    if not isinstance(exc, exceptions.DownloadError):
        return False
    if isinstance(exc, exceptions.DownloadHTTPError) and exc.status_code == 404:
        return False  # the server has no such file: the release is not whole
    if isinstance(exc, exceptions.DownloadLengthMismatchError):
        return False
    return not isinstance(exc.__cause__, ssl.SSLCertVerificationError)


@dataclass(frozen=True, slots=True)
class Verified:
    """A release whose every file was checked: its manifest, and the folder of its wheels."""

    manifest: Manifest
    wheels: Path


@dataclass(frozen=True, slots=True)
class Trust:
    """What a cabinet checks a release against."""

    root: bytes
    """The route's TUF root metadata, from the join file."""
    route: str
    """The route's name (the join file's fleet): a release must be made for it."""
    running: str
    """The version running now: a release must be newer."""
    trusted: Path
    """The metadata last trusted, kept between updates (TUF's replay protection)."""


def why(exc: Exception) -> str:
    """One line for an operator: what was wrong with the release."""
    if isinstance(exc, exceptions.ExpiredMetadataError):
        return "the release has expired (the operator signs it again to renew it)"
    if isinstance(exc, exceptions.UnsignedMetadataError):
        return "the release is not signed by this route's release key"
    if isinstance(exc, exceptions.BadVersionNumberError):
        return "the release is older than one this cabinet has already seen (a replay)"
    if isinstance(
        exc, exceptions.LengthOrHashMismatchError | exceptions.DownloadLengthMismatchError
    ):
        return "a file of the release is truncated or altered"
    if isinstance(exc, exceptions.DownloadHTTPError) and exc.status_code == 404:
        return "a file of the release is missing"
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        return "the disk is full: the release does not fit"
    if isinstance(exc, exceptions.DownloadError):
        cause = exc.__cause__
        if isinstance(cause, ssl.SSLCertVerificationError):
            return (
                "the release could not be downloaded: the server's certificate is not signed "
                f"by the fleet's CA ({cause.verify_message})"
            )
        return f"the release could not be downloaded ({exc}{f': {cause}' if cause else ''})"
    return f"the release's metadata is not valid ({type(exc).__name__}: {exc})"


Download = Callable[[TargetFile, str, Path], None]
"""Gets a release's file (its signed info, its URL) into a path, checked whole, or
raises; the default is TUF's own (the whole file, each time)."""


def verify_release(
    trust: Trust,
    fetcher: FetcherInterface,
    metadata_url: str,
    targets_url: str,
    out: Path,
    download: Download | None = None,
) -> Verified:
    """The release at ``metadata_url``/``targets_url``, checked, its wheels in ``out`` (a
    new folder); else :class:`Refused`, with ``out`` removed. ``download`` gets each
    wheel (:func:`cabinet.updates.https.resumable` resumes a cut download)."""
    trust.trusted.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True)
    try:
        return _verify(trust, fetcher, metadata_url, targets_url, out, download)
    except Refused:
        shutil.rmtree(out, ignore_errors=True)
        raise
    except (exceptions.RepositoryError, exceptions.DownloadError, OSError) as exc:
        shutil.rmtree(out, ignore_errors=True)
        raise Refused(why(exc), transient=transient(exc)) from exc


def _verify(
    trust: Trust,
    fetcher: FetcherInterface,
    metadata_url: str,
    targets_url: str,
    out: Path,
    download: Download | None,
) -> Verified:
    updater = Updater(
        metadata_dir=str(trust.trusted),
        metadata_base_url=metadata_url,
        target_base_url=targets_url,
        target_dir=str(out),
        fetcher=fetcher,
        bootstrap=trust.root,
    )
    updater.refresh()
    info = updater.get_targetinfo(NAME)
    if info is None:
        raise Refused("the release has no manifest (spit-fleet release sign writes one)")
    manifest_path = Path(updater.download_target(info, str(out / NAME)))
    try:
        manifest = read_manifest(manifest_path.read_bytes())
    except ManifestError as exc:
        raise Refused(f"the release's {exc}") from None
    # Kept beside the wheels (the install takes *.whl): a staged copy needs it.
    if manifest.route != trust.route:
        raise Refused(
            f"the release is for route {manifest.route!r}, not this cabinet's ({trust.route!r})"
        )
    if version_key(manifest.release) <= version_key(trust.running):
        raise Refused(
            f"the release ({manifest.release}) is not newer than the version running "
            f"({trust.running})"
        )
    for wheel in manifest.wheels:
        wheel_info = updater.get_targetinfo(wheel)
        if wheel_info is None:
            raise Refused(f"{wheel} is in the manifest but not signed")
        if download is None:
            updater.download_target(wheel_info, str(out / wheel))
        else:  # consistent snapshots: each file under its hash
            download(wheel_info, f"{targets_url}{wheel_info.hashes['sha256']}.{wheel}", out / wheel)
    return Verified(manifest=manifest, wheels=out)
