"""The table process's entry point: ``python -m cabinet.table --fd N ...``.

The display process starts it (:class:`~cabinet.table.remote.RemoteTable`) with its end
of a socket pair as ``--fd``. It asks for real-time scheduling first, so every thread it
then starts (lgpio's callback thread, the command reader, the report sender) inherits
it; then opens the buttons (gpio or mock pins; with the keyboard, edges come from the
display), the door switch, the LED board's link and, for mock pins, the press channel
and simulated people; and serves until told to stop or until the display goes away.

It never imports pygame: nothing the table does waits on drawing.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.select import BackendUnavailableError, InputKind
from cabinet.table.messages import TableRefused, pack_reports, pickle_report
from cabinet.table.samples import Samples
from cabinet.table.server import TableIdentity, TableServer
from wiring.errors import WiringError

log = logging.getLogger("spit-cabinet.table")

LOG_LEVELS = ("info", "debug")
"""``debug`` logs every decision the table makes (what it saw, in order)."""

RT_PRIORITY = 10
"""SCHED_FIFO priority the table asks for: above every ordinary process, below the
kernel's interrupt threads (50)."""


def become_realtime(priority: int = RT_PRIORITY) -> tuple[bool, str]:
    """Ask for SCHED_FIFO at ``priority`` for the calling thread (and the threads it
    starts later). Returns whether it was granted and what the table runs with, in
    words. The systemd unit grants it (``LimitRTPRIO``); elsewhere it may be refused,
    and the table runs on, on normal scheduling."""
    if priority <= 0:
        return False, "normal scheduling (real-time not asked for)"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(priority))
    except (PermissionError, OSError, AttributeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return False, f"normal scheduling (real-time refused: {why})"
    return True, f"SCHED_FIFO priority {priority}"


def preemption_model(debugfs: str | None, cmdline: str, config: str | None) -> str | None:
    """The kernel's preemption model (``none``, ``voluntary``, ``full``, ``lazy``, ``rt``)
    from what the system shows: the scheduler's debugfs file (``none voluntary (full)``,
    the current one in brackets), a ``preempt=`` boot option, or the kernel's config;
    ``None`` when none of them tells."""
    if debugfs:
        for word in debugfs.split():
            if word.startswith("(") and word.endswith(")"):
                return word[1:-1]
    for option in cmdline.split():
        if option.startswith("preempt="):
            return option.split("=", 1)[1]
    if config:
        settings = set(config.splitlines())
        for name, model in (
            ("CONFIG_PREEMPT_RT=y", "rt"),
            ("CONFIG_PREEMPT=y", "full"),
            ("CONFIG_PREEMPT_VOLUNTARY=y", "voluntary"),
            ("CONFIG_PREEMPT_NONE=y", "none"),
        ):
            if name in settings:
                return model
    return None


def kernel_preemption() -> str | None:
    """:func:`preemption_model` of this machine's kernel."""
    import gzip

    def read(path: str, opener: Any = open) -> str | None:
        try:
            with opener(path, "rt") as f:
                text: str = f.read()
                return text
        except OSError:
            return None

    return preemption_model(
        read("/sys/kernel/debug/sched/preempt"),
        read("/proc/cmdline") or "",
        read("/proc/config.gz", gzip.open),
    )


def table_core() -> int | None:
    """The core the table keeps for itself: the last one, when there are at least two
    (the display process keeps off it, :func:`leave_table_core`); ``None`` otherwise."""
    try:
        cores = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return None
    return cores[-1] if len(cores) >= 2 else None


def take_core(core: int | None = None) -> int | None:
    """Run the table on ``core`` (the one the display left it, :func:`leave_table_core`),
    or on :func:`table_core` when none is named; its threads started later follow. A
    kernel without full preemption lets a process inside a system call hold its core until
    the next tick (4 ms at 250 Hz); with a core of its own the table never waits behind the
    display's drawing. Returns the core taken, ``None`` when there is none to take."""
    if core is None:
        core = table_core()
    if core is None:
        return None
    try:
        os.sched_setaffinity(0, {core})
    except OSError:
        return None
    return core


def leave_table_core() -> int | None:
    """For the display process, before it starts the table: keep off the table's core (a
    Pi 4 or 5 has four cores: the display keeps three). Returns that core, for the table's
    ``--core``: a process started after this inherits the display's narrower affinity, so
    the table cannot find its core from its own."""
    core = table_core()
    if core is not None:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, set(os.sched_getaffinity(0)) - {core})
    return core


def _input_kind(text: str) -> InputKind | None:
    """``--input``: a backend's name, or ``none``."""
    return None if text == "none" else InputKind(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m cabinet.table",
        description="The cabinet's table process (started by spit-cabinet run).",
    )
    parser.add_argument("--fd", type=int, required=True, help="the display's socket")
    parser.add_argument(
        "--input",
        type=_input_kind,
        choices=(InputKind.GPIO, InputKind.MOCK, None),
        metavar="{gpio,mock,none}",
        default=InputKind.MOCK,
        help="gpio, mock, or none (the keyboard's edges come from the display)",
    )
    parser.add_argument("--wiring", type=Path, help="the installer's pin map override")
    parser.add_argument("--lights", help="the LED board's serial port (default: none)")
    parser.add_argument("--data-dir", type=Path, help="the books, for games it must record")
    parser.add_argument("--press-socket", type=Path, help="mock pins: timed presses socket")
    parser.add_argument("--autoplay", action="store_true", help="simulated people (mock)")
    parser.add_argument("--autoplay-after", type=float, default=0.0, metavar="S")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--measure", action="store_true", help="keep latency samples")
    parser.add_argument("--core", type=int, metavar="N", help="the core the display left the table")
    parser.add_argument("--rt-priority", type=int, default=RT_PRIORITY, metavar="N")
    parser.add_argument(
        "--log-level", choices=LOG_LEVELS, default="info", help="debug logs every decision"
    )
    return parser


REFUSED_STATUS = 3
"""The table's exit status when it refused to run (:class:`TableRefused` sent first)."""


def refuse(conn: Connection, reason: str) -> int:
    """Tell the display why the table cannot run, in one line (no traceback), and give
    the status to exit with."""
    log.debug("the table cannot run: %s", reason)  # the display says it, once
    with contextlib.suppress(OSError):
        conn.send_bytes(pack_reports([pickle_report(TableRefused(reason))]))
    return REFUSED_STATUS


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(0)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s table: %(message)s")
    # Ctrl+C in a terminal reaches the whole process group: the display stops the table.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM stops it at once, but cleanly: its games recorded, the press socket removed.
    signal.signal(signal.SIGTERM, _exit)
    realtime, scheduling = become_realtime(args.rt_priority)
    core = take_core(args.core)
    if core is not None:
        scheduling += f", on core {core}"
    (log.info if realtime else log.warning)("the table runs with %s", scheduling)
    conn = Connection(args.fd)
    with contextlib.ExitStack() as cleanup:
        edges = EdgeQueue()
        samples = Samples() if args.measure else None
        try:
            backend = _open_backend(args, edges, cleanup, samples)
        except (BackendUnavailableError, WiringError) as exc:
            return refuse(conn, str(exc))
        identity = TableIdentity(
            backend=args.input.value if backend is not None else InputKind.KEYBOARD.value,
            hardware_timestamps=bool(backend is not None and backend.hardware_timestamps),
            realtime=realtime,
            scheduling=scheduling,
        )
        door = _open_door(args, backend, cleanup)
        lights = _open_lights(args.lights, cleanup)
        autoplay = None
        if args.autoplay and backend is not None and args.input is InputKind.MOCK:
            from cabinet.table.autoplay import AutoPlayers

            autoplay = AutoPlayers(
                backend.change, seed=args.seed, join_after_ns=int(args.autoplay_after * 1e9)
            )
        server = TableServer(
            conn,
            edges,
            identity=identity,
            lights=lights,
            door_open=door,
            data_dir=args.data_dir,
            autoplay=autoplay,
            samples=samples,
        )
        return server.run()


def _open_backend(
    args: argparse.Namespace,
    edges: EdgeQueue,
    cleanup: contextlib.ExitStack,
    samples: Samples | None,
) -> Any:
    if args.input is None:
        return None
    from cabinet.inputs.select import open_backend
    from cabinet.table.hardware import load_pins

    backend = open_backend(args.input, edges, pins=load_pins(args.wiring))
    cleanup.enter_context(backend)
    if args.press_socket is not None and args.input is InputKind.MOCK:
        from cabinet.inputs.mock import MockInput
        from cabinet.inputs.press_channel import PressChannel

        assert isinstance(backend, MockInput)
        trace = samples.path_ns if samples is not None else None
        channel = PressChannel(args.press_socket, backend, trace).start()
        cleanup.callback(channel.close)
    return backend


def _open_door(args: argparse.Namespace, backend: Any, cleanup: contextlib.ExitStack) -> Any:
    if backend is None:
        return None
    from cabinet.table.hardware import open_door, pin_map

    door = open_door(backend, pin_map(args.wiring))
    if door is None:
        return None
    cleanup.callback(door.close)
    return door.is_open


def _open_lights(port: str | None, cleanup: contextlib.ExitStack) -> Any:
    if port is None or port == "none":
        return None
    from firmware_bridge.link import LightLink

    link = LightLink(port).start()
    cleanup.callback(link.stop)
    return link
