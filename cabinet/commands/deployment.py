"""What the cabinet tells the system that runs it, and learns from its updater.

* :func:`notify_ready`: systemd's ``READY=1`` (the unit is ``Type=notify``), sent once the
  first frame is on the screen. Only then does a new version count as started; one that
  never gets there three times in a row is rolled back by the updater (deploy/update.sh).
* :func:`mark_started`: at the same moment, the version that started (``current`` in the
  install directory) written to ``SPIT_CABINET_STARTED_FILE``, where the updater's boot
  check sees that a new version did start.
* :func:`rollbacks_logged`: how many rollbacks the updater has logged in the install
  directory (``SPIT_CABINET_INSTALL``), which the cabinet counts in its audits.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping
from pathlib import Path

from cabinet.updates.watch import ROLLBACK_LOG

log = logging.getLogger(__name__)

INSTALL_ENV_VAR = "SPIT_CABINET_INSTALL"
"""The environment variable naming the install directory (set by the unit)."""

STARTED_ENV_VAR = "SPIT_CABINET_STARTED_FILE"
"""The environment variable naming the file :func:`mark_started` writes (set by the unit)."""


def notify_ready(environ: Mapping[str, str] | None = None) -> bool:
    """Send ``READY=1`` to systemd's notification socket, if the service has one
    (``NOTIFY_SOCKET``); returns whether it was sent. Never raises: a cabinet started
    by hand has no socket, and a failure to notify must not stop the game."""
    env = os.environ if environ is None else environ
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket: a NUL byte instead of the '@'
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(b"READY=1")
    except OSError as exc:
        log.warning("could not tell systemd the cabinet is ready (%s): %s", address, exc)
        return False
    return True


def mark_started(environ: Mapping[str, str] | None = None) -> str | None:
    """Write the version this cabinet runs (the name of the version ``current`` points to)
    to ``SPIT_CABINET_STARTED_FILE``, whole or not at all; returns it, or ``None`` when
    either variable is unset. Never raises: a failure is logged."""
    env = os.environ if environ is None else environ
    install, started = env.get(INSTALL_ENV_VAR, ""), env.get(STARTED_ENV_VAR, "")
    if not install or not started:
        return None
    try:
        version = (Path(install) / "current").resolve(strict=True).name
        target = Path(started)
        partial = target.with_name(target.name + ".partial")
        partial.write_text(version, encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:
        log.warning("could not note the started version in %s: %s", started, exc)
        return None
    return version


def install_dir(environ: Mapping[str, str] | None = None) -> Path | None:
    """The install directory the unit names (``None``: not run by the unit)."""
    env = os.environ if environ is None else environ
    install = env.get(INSTALL_ENV_VAR, "")
    return Path(install) if install else None


def rollbacks_logged(environ: Mapping[str, str] | None = None) -> int:
    """How many rollbacks the updater logged (lines of ``rollbacks.log`` in the install
    directory); 0 with no install directory or no log."""
    env = os.environ if environ is None else environ
    install = env.get(INSTALL_ENV_VAR, "")
    if not install:
        return 0
    path = Path(install) / ROLLBACK_LOG
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return 0
    except OSError as exc:
        log.warning("cannot read the updater's rollback log %s: %s", path, exc)
        return 0
    logged = [line for line in lines if line.strip()]
    if logged:
        log.info("the updater's last rollback: %s", logged[-1])
    return len(logged)
