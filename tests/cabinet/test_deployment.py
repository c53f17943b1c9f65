"""What the cabinet tells systemd (READY=1 on a real datagram socket) and reads from the
updater (its rollback log)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

from cabinet.commands.deployment import (
    INSTALL_ENV_VAR,
    ROLLBACK_LOG,
    STARTED_ENV_VAR,
    mark_started,
    notify_ready,
    rollbacks_logged,
)


def test_ready_goes_to_the_notify_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        assert notify_ready({"NOTIFY_SOCKET": str(path)})
        assert server.recv(64) == b"READY=1"


def test_ready_goes_to_an_abstract_socket() -> None:
    name = f"spit-cabinet-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        assert notify_ready({"NOTIFY_SOCKET": "@" + name})
        assert server.recv(64) == b"READY=1"


def test_no_socket_or_a_dead_one_is_not_an_error(tmp_path: Path) -> None:
    assert not notify_ready({})
    assert not notify_ready({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})


def test_rollbacks_are_the_log_lines(tmp_path: Path) -> None:
    env = {INSTALL_ENV_VAR: str(tmp_path)}
    assert rollbacks_logged(env) == 0  # no log yet
    assert rollbacks_logged({}) == 0  # not installed by the installer
    line = "2026-12-01T10:00:00Z 20261201T095000Z 20261120T080000Z failed to start 3 times\n"
    (tmp_path / ROLLBACK_LOG).write_text(line + "\n" + line, encoding="utf-8")
    assert rollbacks_logged(env) == 2


def test_the_started_version_is_written_for_the_boot_check(tmp_path: Path) -> None:
    install = tmp_path / "opt"
    (install / "versions" / "20261201T101500Z").mkdir(parents=True)
    (install / "current").symlink_to("versions/20261201T101500Z")
    started = tmp_path / "run" / "started"
    started.parent.mkdir()
    env = {INSTALL_ENV_VAR: str(install), STARTED_ENV_VAR: str(started)}
    assert mark_started(env) == "20261201T101500Z"
    assert started.read_text(encoding="utf-8") == "20261201T101500Z"
    assert mark_started({INSTALL_ENV_VAR: str(install)}) is None  # not under the unit
    (install / "current").unlink()  # not installed by the installer: logged, not raised
    assert mark_started(env) is None


def test_full_screen_on_a_pi_and_on_any_kmsdrm_console() -> None:
    from cabinet.commands.screen_mode import full_screen

    assert full_screen(windowed=False, is_pi=True, video_driver="x11")
    assert full_screen(windowed=False, is_pi=False, video_driver="kmsdrm")  # the virtual Pi
    assert full_screen(windowed=False, is_pi=False, video_driver="KMSDRM")  # as SDL names it
    assert not full_screen(windowed=False, is_pi=False, video_driver="x11")  # a desktop
    assert not full_screen(windowed=False, is_pi=False, video_driver="dummy")
    assert not full_screen(windowed=True, is_pi=True, video_driver="kmsdrm")


def test_gles_is_asked_for_on_a_console_unless_the_operator_chose() -> None:
    from cabinet.commands.screen_mode import render_driver

    # SDL's first choice, desktop OpenGL, draws black on a console with no libGL.
    assert render_driver("KMSDRM", {}) == "opengles2"
    assert render_driver("kmsdrm", {"SDL_RENDER_DRIVER": ""}) == "opengles2"
    assert render_driver("KMSDRM", {"SDL_RENDER_DRIVER": "software"}) is None
    assert render_driver("x11", {}) is None  # a desktop has its GL
    assert render_driver("dummy", {}) is None
