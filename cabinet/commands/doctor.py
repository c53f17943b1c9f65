"""``spit-cabinet doctor``: check the cabinet's parts and say what to do about each.

Each check prints one line, ``ok``, ``warn`` or ``FAIL``, with the next step when
something is wrong. Exit 0 when all is well, 1 when something needs attention.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cabinet.commands.doctor_fleet import check_fleet, check_missing_switches, report_findings
from cabinet.commands.doctor_input import check_input
from cabinet.commands.findings import Finding, Severity
from cabinet.inputs.select import (
    add_input_argument,
)
from cabinet.storage.paths import add_data_dir_option, data_dir, database_path


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check the buttons, lights, display, sound, data and wiring",
        description="Check every part of the cabinet; exit 1 when something needs attention.",
    )
    add_input_argument(parser)
    parser.add_argument(
        "--buttons",
        choices=("ask", "skip"),
        default="ask",
        help="ask the operator to press each button in turn (ask), or skip it (ask)",
    )
    parser.add_argument(
        "--press-timeout",
        type=float,
        default=15.0,
        metavar="S",
        help="seconds to wait for each button (15)",
    )
    parser.add_argument("--lights", default="auto", help="the LED board's port, or auto")
    parser.add_argument("--wiring", type=Path, help="the installer's pin map override (TOML)")
    add_data_dir_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    checks: list[Callable[[], Finding]] = [
        lambda: check_wiring(args.wiring),
        lambda: check_data_dir(args.data_dir),
        lambda: check_money(args.data_dir),
        lambda: check_missing_switches(args.data_dir),
        lambda: check_fleet(args.data_dir),
        lambda: check_display(stored_display_backend(args.data_dir)),
        check_sound,
        lambda: check_lights(args.lights),
        check_realtime,
    ]
    findings = []
    for check in checks:
        finding = check()
        print(finding.line(), flush=True)
        findings.append(finding)
    for finding in check_input(args):
        print(finding.line(), flush=True)
        findings.append(finding)
    report_findings(args.data_dir, findings)
    bad = [f for f in findings if f.severity is not Severity.OK]
    print(
        f"\n{len(findings) - len(bad)} of {len(findings)} checks passed"
        + ("." if not bad else f"; {len(bad)} need attention.")
    )
    return 1 if bad else 0


def check_wiring(path: Path | None) -> Finding:
    from wiring.config import load_config
    from wiring.default import DEFAULT_PIN_MAP
    from wiring.errors import WiringError

    try:
        pin_map = load_config(path) if path is not None else DEFAULT_PIN_MAP
    except (WiringError, OSError) as exc:
        return Finding(
            "wiring",
            Severity.FAIL,
            str(exc),
            "fix the file (docs/wiring.md shows the format), or remove --wiring",
        )
    source = str(path) if path is not None else "the default map"
    outputs = sum(1 for a in pin_map.assignments if a.control.function.is_output)
    inputs = len(pin_map.assignments) - outputs
    return Finding(
        "wiring",
        Severity.OK,
        f"{inputs} inputs and {outputs} output{'' if outputs == 1 else 's'} mapped ({source})",
    )


def check_data_dir(path: str | Path | None) -> Finding:
    directory = data_dir(path)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-") as probe:
            probe.write(b"ok")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return Finding(
            "data directory",
            Severity.FAIL,
            f"{directory} is not writable ({exc.strerror})",
            "give the cabinet's user write access, or set SPIT_CABINET_DATA",
        )
    detail = f"{directory} is writable"
    database = database_path(directory)
    if database.exists():
        import sqlite3

        try:
            with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
                result = db.execute("PRAGMA integrity_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            result = str(exc)
        if result != "ok":
            return Finding(
                "data directory",
                Severity.FAIL,
                f"{database}: {result}",
                "the cabinet moves a damaged database aside at start and runs "
                "on defaults; restore settings with spit-cabinet settings import",
            )
        detail += ", database passes its integrity check"
    return Finding("data directory", Severity.OK, detail)


def check_money(path: str | Path | None) -> Finding:
    """The money as the books have it: the pricing, the credits, meter pulses owed and
    coin errors since the money audits were last cleared (read only)."""
    database = database_path(data_dir(path))
    if not database.exists():
        return Finding("money", Severity.OK, "no database yet: free play")
    from cabinet.money.keeper import settings_pricing, stored_ledger
    from cabinet.money.pricing import money_text
    from cabinet.storage.database import Access
    from cabinet.storage.pricing_settings import CURRENCY
    from cabinet.storage.problems import StorageError
    from cabinet.storage.store import CabinetStore

    try:
        store = CabinetStore.open(data_dir(path), access=Access.READ)
    except StorageError as exc:
        return Finding("money", Severity.FAIL, str(exc), "see docs/troubleshooting.md")
    try:
        pricing = settings_pricing(store.settings)
        ledger, disagree = stored_ledger(store.money)
        money = store.audits.money.current
        earnings = money_text(
            store.audits.money.lifetime.earnings_cents, store.settings.get(CURRENCY)
        )
    finally:
        store.close()
    price = "free play" if pricing.free_play else f"{pricing.credits_per_game} credit(s) a game"
    detail = (
        f"{price}; {ledger.credits} credit(s) on the cabinet, {ledger.meter_owed} meter "
        f"pulse(s) owed, earnings {earnings} in all"
    )
    errors = money.coin_errors1 + money.coin_errors2
    if errors:
        detail += (
            f"; {money.coin_errors1} coin 1 and {money.coin_errors2} coin 2 "
            "error(s) since the money audits were cleared"
        )
    if disagree:
        return Finding(
            "money",
            Severity.FAIL,
            f"{detail}; {disagree[0].message}",
            "the counts are kept as they are (docs/troubleshooting.md, 'money counts disagree')",
        )
    if errors:
        return Finding(
            "money",
            Severity.WARN,
            detail,
            "pulses of the wrong length or a line held low: the service menu's input test "
            "shows each pulse's length (coin_pulse_min_ms, coin_pulse_max_ms; docs/pricing.md)",
        )
    return Finding("money", Severity.OK, detail)


def stored_display_backend(path: str | Path | None) -> str:
    """The ``display_backend`` setting in the books (``auto`` without a database)."""
    from cabinet.storage.database import Access
    from cabinet.storage.problems import StorageError
    from cabinet.storage.setting_table import DISPLAY_BACKEND
    from cabinet.storage.store import CabinetStore

    if not database_path(data_dir(path)).exists():
        return str(DISPLAY_BACKEND.default)
    try:
        store = CabinetStore.open(data_dir(path), access=Access.READ)
    except StorageError:
        return str(DISPLAY_BACKEND.default)
    try:
        return str(store.settings.get(DISPLAY_BACKEND))
    finally:
        store.db.close()


def check_display(choice: str = "auto") -> Finding:
    """The video driver, the screen's size, and the backend the cabinet would draw with
    (``choice``: the display_backend setting), and why."""
    import pygame

    from cabinet.drawing.backend import BackendChoice
    from cabinet.drawing.opening import ScreenRequest, open_screen

    try:
        pygame.display.init()
        driver = pygame.display.get_driver()
        sizes = pygame.display.get_desktop_sizes()
        backend = open_screen(BackendChoice(choice), ScreenRequest((320, 240), False))
        drawn_by = backend.describe
        backend.close()
    except pygame.error as exc:
        return Finding(
            "display",
            Severity.FAIL,
            f"no display: {exc}",
            "on the Pi console use SDL_VIDEODRIVER=kmsdrm and the video/render "
            "groups (docs/install-pi.md); on a desktop run in its session",
        )
    finally:
        pygame.display.quit()
    size = f"{sizes[0][0]}x{sizes[0][1]}" if sizes else "unknown size"
    level = Severity.WARN if driver in ("dummy", "offscreen") else Severity.OK
    fix = "nothing will be seen: this driver draws nowhere" if level is Severity.WARN else None
    return Finding("display", level, f"driver {driver}, {size}; {drawn_by}", fix)


def check_sound() -> Finding:
    import pygame

    try:
        pygame.mixer.init()
        init = pygame.mixer.get_init()
        if init is None:
            raise pygame.error("the mixer did not start")
        freq, _, channels = init
        driver = os.environ.get("SDL_AUDIODRIVER", "default")
        pygame.mixer.quit()
    except pygame.error as exc:
        return Finding(
            "sound",
            Severity.WARN,
            f"no sound device: {exc}",
            "add the cabinet's user to the audio group, or check HDMI/USB audio; "
            "the cabinet runs silent meanwhile",
        )
    return Finding("sound", Severity.OK, f"{freq} Hz, {channels} channel(s), driver {driver}")


def check_lights(choice: str) -> Finding:
    from firmware_bridge.link import LightLink
    from firmware_bridge.transport import find_board

    port = None if choice == "auto" else choice
    if port is None and find_board() is None:
        return Finding(
            "LED board",
            Severity.WARN,
            "no board found by its USB id (2E8A:0005)",
            "plug the Pico in, flash it (spit-cabinet firmware flash), or give "
            "its port; the cabinet shows the lights on screen meanwhile",
        )
    link = LightLink(port).start()
    try:
        link.wait_for(lambda h: h.connected and h.rtt_ms is not None, timeout_s=3.0)
        health = link.health()
    finally:
        link.stop()
    if not health.connected:
        return Finding(
            "LED board",
            Severity.FAIL,
            f"{health.port or port}: no answer ({health.last_error or 'silent'})",
            "check the USB cable and the dialout group; re-flash the firmware",
        )
    from firmware_bridge.firmware import FIRMWARE_VERSION

    bundled = ".".join(str(n) for n in FIRMWARE_VERSION)
    version = health.firmware_version
    level = Severity.OK if version == bundled else Severity.WARN
    rtt = f"{health.rtt_ms:.2f} ms" if health.rtt_ms is not None else "unknown"
    fix = (
        None
        if level is Severity.OK
        else f"flash the bundled {bundled}: spit-cabinet firmware flash"
    )
    return Finding("LED board", level, f"{health.port}, firmware {version}, round trip {rtt}", fix)


def check_realtime() -> Finding:
    """Whether the table process would get real-time scheduling here (asked in a child
    process, as the table asks for it)."""
    import subprocess
    import sys

    code = "from cabinet.table.process import become_realtime; print(*become_realtime(), sep='|')"
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=True
        )
        granted, words = done.stdout.strip().split("|", 1)
    except (subprocess.SubprocessError, OSError, ValueError) as exc:
        return Finding("real-time", Severity.WARN, f"could not ask: {exc}")
    from cabinet.table.process import kernel_preemption

    model = kernel_preemption()
    if model in ("none", "voluntary"):
        return Finding(
            "real-time",
            Severity.WARN,
            f"the kernel's preemption is {model!r}: a process inside a system call can hold "
            "a core for a whole tick, and the table's edges wait behind it",
            "add preempt=full to the kernel command line (/boot/firmware/cmdline.txt)",
        )
    if granted == "True":
        kernel = f"; kernel preemption {model}" if model else ""
        return Finding("real-time", Severity.OK, f"the table process gets {words}{kernel}")
    return Finding(
        "real-time",
        Severity.WARN,
        f"the table process runs on {words}: races are still decided by timestamp, but a "
        "busy screen can make edges late",
        "run the cabinet from its systemd unit (LimitRTPRIO=20), or raise the race window",
    )
