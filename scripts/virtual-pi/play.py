"""Play a game on the virtual Pi's cabinet from outside it, through the GPIO simulator.

Runs in the guest as root, with the installed cabinet's Python (for its rules engine):

    python play.py start OUT [--pause-after N]   join, deal, play N plays, save, stop
    python play.py render OUT --size WxH          the saved moment drawn headless: a grid
    python play.py finish OUT                     play to the end, check, print the report

and on the host, with any Python:

    python play.py grid SCREEN.ppm                a screendump as the same grid
    python play.py settings                       the cabinet's settings for the run (TOML)

Each press is a simulated line pulled down (the button's pull-up overcome) for HOLD_S
(the presser and its timings are guest_presser.py, copied beside this file), so
the cabinet reads it the way it reads a Pi's pins: lgpio, kernel edge timestamps, gpiozero.
The presser deals itself the same game (the cabinet logs each game's seed and start) and
plays legal moves for both players, slot then pile (R8). Once, when both players can play
onto the same pile, it races: player 2's pile press RACE_GAP_S before player 1's (R10).

``finish`` waits for the cabinet to record the game and checks, printing one JSON object
(exit 1 if a check fails): the record's result is the one the presser's own game reached,
``spit-cabinet replay`` gives the stored result, and the race went to the earlier press by
the kernel's timestamps. ``render`` and ``grid`` let the host compare the guest's screen
with a frame drawn headless from the same state (docs/virtual-pi.md).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

GRID = (32, 20)
"""The screenshot comparison's cells (columns, rows)."""
INSTALL = Path("/opt/spit-cabinet/current/venv/bin")
DATABASE = Path("/var/lib/spit-cabinet/cabinet.sqlite3")
SEED_LINE = re.compile(r"game: seed (\d+), play starts at (\d+) ns")


# -- the screenshot grid (host and guest) ----------------------------------------------------


def grid(rgb: bytes, width: int, height: int) -> list[list[int]]:
    """Mean colour of each cell of a GRID over packed RGB pixels, row by row."""
    cols, rows = GRID
    cells = []
    for r in range(rows):
        for c in range(cols):
            x0, x1 = c * width // cols, (c + 1) * width // cols
            y0, y1 = r * height // rows, (r + 1) * height // rows
            total = [0, 0, 0]
            n = 0
            for y in range(y0, y1, 2):
                row = rgb[(y * width + x0) * 3 : (y * width + x1) * 3]
                for i in range(0, len(row), 6):
                    total[0] += row[i]
                    total[1] += row[i + 1]
                    total[2] += row[i + 2]
                    n += 1
            cells.append([t // max(n, 1) for t in total])
    return cells


def read_ppm(path: Path) -> tuple[bytes, int, int]:
    """A binary PPM (QEMU's screendump): its RGB bytes, width and height."""
    data = path.read_bytes()
    magic, width, height, maxval, pixels = data.split(maxsplit=4)
    if magic != b"P6" or maxval != b"255":
        raise ValueError(f"{path}: not an 8-bit binary PPM")
    return pixels, int(width), int(height)


# -- the buttons -----------------------------------------------------------------------------


# -- the commands ----------------------------------------------------------------------------


def journal_since(epoch_s: float) -> str:
    return subprocess.run(
        [
            "journalctl",
            "-u",
            "spit-cabinet",
            "-o",
            "cat",
            "--no-pager",
            "--since",
            f"@{epoch_s:.0f}",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def last_game_id() -> int:
    with sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True) as db:
        row = db.execute("SELECT max(id) FROM games").fetchone()
    return int(row[0] or 0)


def start(out: Path, pause_after: int) -> int:
    from guest_presser import HOLD_S, Buttons

    from game.edges import Button

    out.mkdir(parents=True, exist_ok=True)
    since = time.time() - 1
    before = last_game_id()
    buttons = Buttons()
    for player in (0, 1):  # attract, then both join
        buttons.set(player, Button.PILE1, True)
        time.sleep(HOLD_S)
        buttons.set(player, Button.PILE1, False)
        time.sleep(0.4)
    deadline = time.monotonic() + 60
    found = None
    while found is None and time.monotonic() < deadline:
        found = SEED_LINE.search(journal_since(since))
        time.sleep(0.2)
    if found is None:
        print("the cabinet did not start a game (no 'game: seed' line in its journal)")
        return 1
    state = {
        "seed": int(found[1]),
        "start_ns": int(found[2]),
        "before_id": before,
        "edges": [],
        "plays": 0,
        "race": None,
    }
    from guest_presser import Presser

    presser = Presser(out, state)
    presser.play_until(pause_after)
    presser.save()
    print(json.dumps({"seed": state["seed"], "plays": state["plays"]}))
    return 0


def render(out: Path, size: tuple[int, int]) -> int:
    """Print the grids of the saved moment and of the deal, drawn headless (JSON)."""
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    import pygame

    from cabinet.drawing.geometry import Orientation
    from cabinet.drawing.renderer import Renderer
    from cabinet.drawing.views import TableLabels, table_view
    from cabinet.i18n import Translator, font_path

    state = json.loads((out / "state.json").read_text(encoding="utf-8"))
    from guest_presser import Presser

    now = Presser(out, dict(state, edges=list(state["edges"])))
    dealt = Presser(out, dict(state, edges=[]))
    dealt.match.advance(state["start_ns"] + 1)
    pygame.display.init()
    pygame.font.init()
    tr = Translator("en")
    labels = TableLabels(
        (tr.t("play.player", player=1), tr.t("play.player", player=2)), tr.t("play.stuck")
    )
    grids = {}
    for name, presser in (("now", now), ("dealt", dealt)):
        surface = pygame.Surface(size)
        view = table_view(presser.match.state(), labels)
        Renderer(surface, Orientation.UPRIGHT, font_path()).draw(view, time.monotonic_ns())
        grids[name] = grid(pygame.image.tobytes(surface, "RGB"), *size)
    print(json.dumps(grids))
    return 0


def parted(mine: list[Any], cabinets: list[Any], state: dict[str, Any], record: Any) -> Any:
    """Where the presser's copy and the cabinet's game part: the first play or refusal
    that differs (each side's, with its time), and the presser's and the kernel's times of
    the presses around it (match ns)."""
    from game.events import Played, Rejected, Spat

    def moves(events: list[Any]) -> list[Any]:
        return [e for e in events if isinstance(e, Played | Rejected | Spat)]

    def said(e: Any) -> Any:
        if e is None:
            return None
        fields = {k: getattr(e, k) for k in ("player", "slot", "pile") if hasattr(e, k)}
        reason = getattr(e, "reason", None)
        return {"kind": type(e).__name__, "t_ns": e.t_ns, **fields, "reason": str(reason)}

    a, b = moves(mine), moves(cabinets)
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if said(x) != said(y)), None)
    if at is None:
        at = min(len(a), len(b))
    first = a[at] if at < len(a) else b[at] if at < len(b) else None
    near = first.t_ns if first is not None else 0
    start = state["start_ns"]
    presses = [
        [player, name, pressed, t - start]
        for player, name, pressed, t in state["edges"]
        if abs(t - start - near) < 1_000_000_000
    ]
    kernel = [
        [e.player, e.button.value, e.is_press, e.t_ns]
        for e in record.edges
        if abs(e.t_ns - near) < 1_000_000_000
    ]
    return {
        "index": at,
        "presser": said(a[at] if at < len(a) else None),
        "cabinet": said(b[at] if at < len(b) else None),
        "presses_near": presses,
        "kernel_near": kernel,
    }


def _recorded_game(before_id: int) -> tuple[Any, ...] | None:
    """The first game stored after game ``before_id``, waited for up to 60 s."""
    deadline = time.monotonic() + 60
    row = None
    while row is None and time.monotonic() < deadline:
        with sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True) as db:
            row = db.execute(
                "SELECT id, termination, winner, record FROM games WHERE id > ? ORDER BY id",
                (before_id,),
            ).fetchone()
        time.sleep(0.5)
    return row


def _replayed(out: Path, text: str) -> dict[str, Any]:
    """``spit-cabinet replay --json`` of the stored record (or the error it gave)."""
    (out / "game.json").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [str(INSTALL / "spit-cabinet"), "replay", "--json", str(out / "game.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr}


def _race_checks(
    race: dict[str, Any], state: dict[str, Any], record: Any, events: list[Any]
) -> tuple[dict[str, Any] | None, dict[str, bool]]:
    """The race by the kernel's timestamps in the record (match time: ns since the
    start): its figures for the report (``None`` without both presses) and its checks."""
    from game.events import LateEdge, Played, Rejected

    def pile_presses(player: int, near_ns: int) -> list[Any]:
        """The player's pile presses in the record within 50 ms of ``near_ns``."""
        return [
            e
            for e in record.edges
            if e.player == player
            and e.is_press
            and e.button.is_pile
            and abs(e.t_ns + state["start_ns"] - near_ns) < 50_000_000
        ]

    p2, p1 = pile_presses(1, race["p2_ns"]), pile_presses(0, race["p1_ns"])
    if not (p1 and p2):
        return None, {"the race's presses are in the record, player 2's first": False}
    gap = p1[0].t_ns - p2[0].t_ns
    first = next(
        (
            e
            for e in events
            if isinstance(e, Played) and e.pile == race["pile"] and e.t_ns >= p2[0].t_ns
        ),
        None,
    )
    beaten = next(
        (e for e in events if isinstance(e, Rejected) and e.player == 0 and e.t_ns >= p1[0].t_ns),
        None,
    )
    late = [e for e in events if isinstance(e, LateEdge) and p2[0].t_ns <= e.t_ns <= p1[0].t_ns]
    checks = {
        "the race was decided on the kernel's timestamps (no press late)": not late,
        "the race's presses are in the record, player 2's first": gap > 0,
        "the race went to the earlier press": first is not None and first.player == 1,
    }
    figures = {
        "gap_ns": gap,
        "won_by": None if first is None else first.player + 1,
        "beaten_margin_ns": None if beaten is None else beaten.margin_ns,
    }
    return figures, checks


def finish(out: Path) -> int:
    from guest_presser import Presser

    from game.events import LateEdge
    from game.record import MatchRecord, replay

    state = json.loads((out / "state.json").read_text(encoding="utf-8"))
    presser = Presser(out, state)
    presser.play_until(None)
    presser.save()
    outcome = presser.match.outcome
    assert outcome is not None
    row = _recorded_game(state["before_id"])
    report: dict[str, Any] = {
        "seed": state["seed"],
        "plays": state["plays"],
        "presser": {"termination": outcome.termination.value, "winner": outcome.winner},
        "longest_pause_s": state.get("longest_pause_s"),
    }
    checks: dict[str, bool] = {
        "the game was played to its end, never left idle for the cabinet's idle timeout": (
            "idle_abandoned_after_s" not in state
        )
    }
    if row is None:
        report["error"] = "no game recorded within 60 s of the end"
        print(json.dumps(report))
        return 1
    game_id, termination, winner, text = row
    report["recorded"] = {"id": game_id, "termination": termination, "winner": winner}
    checks["recorded as the presser's game ended"] = (termination, winner) == (
        outcome.termination.value,
        outcome.winner,
    )
    replayed = _replayed(out, text)
    report["replayed"] = {k: replayed.get(k) for k in ("termination", "winner", "error")}
    checks["replays to its stored result"] = (
        replayed.get("termination"),
        replayed.get("winner"),
    ) == (termination, winner)
    record = MatchRecord.loads(text)
    events = replay(record).events
    if not checks["recorded as the presser's game ended"]:
        report["parted"] = parted(presser.match.events, events, state, record)
    race = state["race"]
    checks["a race was run"] = race is not None
    if race is not None:
        figures, race_checks = _race_checks(race, state, record, events)
        checks.update(race_checks)
        if figures is not None:
            report["race"] = figures
    report["late_edges"] = sum(1 for e in events if isinstance(e, LateEdge))
    report["checks"] = checks
    print(json.dumps(report))
    return 0 if all(checks.values()) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("start")
    p.add_argument("out", type=Path)
    p.add_argument("--pause-after", type=int, default=12)
    p = sub.add_parser("render")
    p.add_argument("out", type=Path)
    p.add_argument("--size", required=True)
    p = sub.add_parser("finish")
    p.add_argument("out", type=Path)
    p = sub.add_parser("grid")
    p.add_argument("ppm", type=Path)
    sub.add_parser("settings")
    args = parser.parse_args()
    if args.command == "settings":
        # The light board on QEMU's USB serial adapter (an FTDI one, not found by the
        # Pico's USB id), the race window for an emulated machine, and unsigned updates:
        # the run's update is the stick's bare wheels (signed releases: tests/deploy).
        from guest_presser import IDLE_TIMEOUT_S, RACE_WINDOW_MS

        print(
            f"[game]\nrace_window_ms = {RACE_WINDOW_MS}\nidle_timeout_s = {IDLE_TIMEOUT_S}\n\n"
            '[cabinet]\nled_port = "/dev/ttyUSB0"\n\n[operator]\nunsigned_updates = true'
        )
        return 0
    if args.command == "start":
        return start(args.out, args.pause_after)
    if args.command == "render":
        w, h = (int(v) for v in args.size.split("x"))
        return render(args.out, (w, h))
    if args.command == "finish":
        return finish(args.out)
    rgb, width, height = read_ppm(args.ppm)
    print(json.dumps({"size": f"{width}x{height}", "grid": grid(rgb, width, height)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
