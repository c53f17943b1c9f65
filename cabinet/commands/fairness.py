"""``spit-cabinet fairness``: prove that the first press wins (docs/fairness.md).

A jig presses pairs of presses across player 1's and player 2's left pile buttons at
known offsets (a Pico jig on a real cabinet, the virtual Pi's injector on the kernel's
GPIO simulator, or, with ``--input mock``, a simulated jig on gpiozero's mock pins); the
cabinet judges every pair with its own referee and prints a certificate: per offset,
how many were decided right. The certificate is kept in the books (the service menu
shows the newest) and sent to the fleet when the cabinet is in one.

Run it with the cabinet stopped (``sudo systemctl stop spit-cabinet``): the cabinet
holds the button lines while it runs. Exit statuses: 0 the certificate passed (and is
kept); 1 it failed, or it could not be kept in the books (a full disk: said why); 2 no
test could be run (no input, no press from the jig, bad options).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from cabinet.inputs.select import add_input_argument
from cabinet.storage.paths import add_data_dir_option, data_dir
from firmware_bridge.fairness import DEFAULT_GAP_MS, DEFAULT_PAIRS, DEFAULT_SEED, OFFSETS_US

LEAD_IN_S = 0.5
"""With ``--input mock``: the simulated jig's first press comes this long after the start."""


def _offsets(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a list of whole microseconds (e.g. 50,100,1000): {text!r}"
        ) from None
    return values


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fairness",
        help="prove that the first press wins: judge a jig's pairs of presses",
        description="Judge a jig's pairs of presses on player 1's and player 2's left pile "
        "buttons at known offsets, print the certificate and keep it in the books. Stop "
        "the cabinet first. Exit 0 passed, 1 failed, 2 no test run.",
    )
    add_input_argument(parser)
    parser.add_argument("--wiring", type=Path, help="the installer's pin map override (TOML)")
    parser.add_argument(
        "--source",
        choices=("jig", "virtual"),
        default="jig",
        help="what presses: the Pico jig (jig) or the virtual Pi's injector (virtual); "
        "--input mock presses with a simulated jig",
    )
    parser.add_argument(
        "--offsets",
        type=_offsets,
        default=OFFSETS_US,
        metavar="US,US,...",
        help=f"offsets between a pair's presses, µs ({','.join(map(str, OFFSETS_US))}); "
        "the jig's jig.json must give the same",
    )
    parser.add_argument(
        "--pairs", type=int, default=DEFAULT_PAIRS, help=f"pairs per offset ({DEFAULT_PAIRS})"
    )
    parser.add_argument(
        "--gap-ms",
        type=int,
        default=DEFAULT_GAP_MS,
        help=f"from one pair to the next ({DEFAULT_GAP_MS})",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help=f"the order's seed ({DEFAULT_SEED})"
    )
    parser.add_argument(
        "--wait",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds to wait for the jig's first press (120)",
    )
    parser.add_argument("--json", action="store_true", help="print the certificate as JSON")
    add_data_dir_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cabinet.fairness.certificate import Source
    from cabinet.fairness.session import certify, judge_for
    from cabinet.storage.fairness import record
    from cabinet.storage.problems import StorageError
    from firmware_bridge.fairness import Schedule

    try:
        schedule = Schedule(tuple(args.offsets), args.pairs, args.gap_ms, args.seed)
    except ValueError as exc:
        print(f"spit-cabinet fairness: {exc}", file=sys.stderr)
        return 2
    opened = _open_input(args)
    if isinstance(opened, str):
        print(f"spit-cabinet fairness: {opened}", file=sys.stderr)
        return 2
    kind, backend, edges = opened
    store = _open_store(args.data_dir)
    if isinstance(store, str):
        backend.close()
        print(f"spit-cabinet fairness: {store}", file=sys.stderr)
        return 2
    for problem in store.problems:
        print(f"spit-cabinet fairness: warning: {problem.message}", file=sys.stderr)
    try:
        source = Source.MOCK if kind == "mock" else Source(args.source)
        judge = judge_for(schedule, store.settings)
        if not _judge(backend, edges, judge, args.wait):
            return 2
        certificate = certify(judge, source)
        try:
            queued: bool | None = record(store, certificate.body())
        except StorageError as exc:
            print(f"spit-cabinet fairness: not kept in the books: {exc}", file=sys.stderr)
            queued = None
    finally:
        backend.close()
        store.close()
    if args.json:
        print(json.dumps(certificate.body(), sort_keys=True))
    else:
        print("\n".join(certificate.lines()))
        if queued is not None:
            print("kept in the books" + (", and queued for the fleet" if queued else ""))
    return 0 if certificate.passed and queued is not None else 1


def _open_input(args: argparse.Namespace) -> tuple[str, Any, Any] | str:
    """The backend ``--input`` names, open, with its edge queue; or why not, in words."""
    from cabinet.display.assembly import button_pins
    from cabinet.inputs.edge_queue import EdgeQueue
    from cabinet.inputs.select import (
        BackendUnavailableError,
        InputKind,
        Platform,
        choose_backend,
        open_backend,
    )
    from wiring.errors import WiringError

    platform = Platform.detect()
    if "LG_WD" not in os.environ and not os.access(os.getcwd(), os.W_OK):
        # lgpio keeps its notification pipes in LG_WD, else the working directory.
        os.environ["LG_WD"] = tempfile.mkdtemp(prefix="spit-fairness-")
    try:
        kind = choose_backend(args.input, platform)
        if kind is InputKind.KEYBOARD:
            return "a keyboard cannot take the jig's presses: use --input gpio (or mock)"
        edges = EdgeQueue()
        backend = open_backend(kind, edges, platform=platform, pins=button_pins(args.wiring))
        backend.open()
    except (BackendUnavailableError, WiringError, ValueError) as exc:
        return str(exc)
    except OSError as exc:  # the lines are claimed: most likely the cabinet runs
        return (
            f"cannot claim the button lines ({exc}): stop the cabinet first "
            "(sudo systemctl stop spit-cabinet)"
        )
    return kind.value, backend, edges


def _open_store(path: str | None) -> Any:
    from cabinet.storage.database import Access
    from cabinet.storage.problems import StorageError
    from cabinet.storage.store import CabinetStore

    try:
        return CabinetStore.open(data_dir(path), access=Access.WRITE)
    except StorageError as exc:
        return f"cannot open the books: {exc}"


def _judge(backend: Any, edges: Any, judge: Any, wait_s: float) -> bool:
    """Run the test, the jig's presses to ``judge``; ``False`` (said why) when no press
    came."""
    from cabinet.commands.progress import Progress
    from cabinet.fairness.runner import MockJig, NoPressError, run_test
    from cabinet.inputs.clock import monotonic_clock
    from cabinet.inputs.feed import RefereeFeed
    from cabinet.inputs.mock import MockInput
    from cabinet.table.process import become_realtime
    from game.units import MS, S

    # As the table judges a game: real-time where allowed (the unit's LimitRTPRIO).
    _, scheduling = become_realtime()
    print(f"judging with {scheduling}", file=sys.stderr, flush=True)
    schedule = judge.schedule
    feed = RefereeFeed(None, edges, clock=monotonic_clock)
    step = None
    if isinstance(backend, MockInput):
        jig = MockJig(backend, schedule, monotonic_clock(), int(LEAD_IN_S * S))

        def step(now_ns: int) -> None:  # asleep until the next edge is due, then on time
            due = jig.next_due_ns()
            wait_ns = 5 * MS if due is None else min(5 * MS, due - now_ns)
            time.sleep(max(0, wait_ns) / S)
            jig.step(monotonic_clock())

    else:
        print(
            f"waiting for the jig: {len(schedule)} pairs on player 1's and player 2's left "
            f"pile buttons, {schedule.seconds():.0f} s once it starts",
            file=sys.stderr,
            flush=True,
        )
    bar = Progress(len(schedule), "pairs")
    done = [0]

    def progress(p: Any) -> None:
        bar.advance(p.seen - done[0])
        done[0] = p.seen

    try:
        run_test(feed, judge, monotonic_clock, wait_first_s=wait_s, step=step, progress=progress)
    except NoPressError as exc:
        bar.close()
        print(f"spit-cabinet fairness: {exc}", file=sys.stderr)
        return False
    bar.close()
    apart = ", ".join(f"{us} us: {median:.0f}" for us, median in judge.stamped_apart_us().items())
    print(f"stamped apart, median µs per offset: {apart or 'no pair'}", file=sys.stderr)
    if judge.strays:
        print(
            f"{judge.strays} presses belonged to no pair (another button, a press outside "
            "the schedule or far from its pair's time)",
            file=sys.stderr,
        )
    return True
