"""Play a game on the virtual Pi's cabinet from outside it, through the GPIO simulator.

Runs in the guest as root, with the installed cabinet's Python (for its rules engine):

    python play.py start OUT [--pause-after N]   join, deal, play N plays, save, stop
    python play.py render OUT --size WxH          the saved moment drawn headless: a grid
    python play.py finish OUT                     play to the end, check, print the report

and on the host, with any Python:

    python play.py grid SCREEN.ppm                a screendump as the same grid
    python play.py settings                       the cabinet's settings for the run (TOML)

Each press is a simulated line pulled down (the button's pull-up overcome) for HOLD_S, so
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

HOLD_S = 0.08
"""How long a finger holds a button."""
GAP_S = 0.12
"""Between one release and the next press."""
RACE_GAP_S = 0.02
"""Player 2's pile press comes this long before player 1's, in the race."""
SETTLE_S = 0.5
"""Waited after a spit falls due, so that the cabinet and the presser have both made it."""
RACE_WINDOW_MS = 100.0
"""The race window the virtual Pi's cabinet is set to (R10; the setting's highest): under
emulation an edge reaches the referee 10-40 ms after the kernel stamped it, where a Pi
takes well under a millisecond. With the default 2 ms every press would arrive late and
be applied as it came; with 100 ms the races are decided by the kernel's timestamps, as
on a Pi."""
GRID = (32, 20)
"""The screenshot comparison's cells (columns, rows)."""
INSTALL = Path("/opt/spit-cabinet/current/venv/bin")
DATABASE = Path("/var/lib/spit-cabinet/cabinet.sqlite3")
LINES = Path("/run/virtual-pi.lines")
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


class Buttons:
    """The cabinet's twelve player buttons on the simulated chip (BCM number = line)."""

    def __init__(self) -> None:
        from game.edges import Button
        from wiring.default import DEFAULT_PINS

        self.folder = Path(LINES.read_text(encoding="utf-8").strip())
        self.pins = {
            (c.player, Button(c.function.value)): bcm
            for c, bcm in DEFAULT_PINS.items()
            if c.function.is_player_button
        }

    def set(self, player: int, button: Any, down: bool) -> int:
        """Pull the line down (pressed) or up; returns CLOCK_MONOTONIC just before."""
        t = time.monotonic_ns()
        pull = self.folder / f"sim_gpio{self.pins[(player, button)]}" / "pull"
        pull.write_text("pull-down" if down else "pull-up", encoding="ascii")
        return t


class Presser:
    """Presses buttons and keeps the presser's own copy of the game in step."""

    def __init__(self, out: Path, state: dict[str, Any]) -> None:
        from game.edges import Button, Edge, EdgeKind
        from game.live_match import LiveMatch
        from game.rules import Rules

        self.out = out
        self.state = state
        self.buttons = Buttons()
        self.Button, self.Edge, self.EdgeKind = Button, Edge, EdgeKind
        rules = Rules(race_window_ms=RACE_WINDOW_MS)
        self.match = LiveMatch(rules, state["seed"], (None, None), state["start_ns"])
        for player, name, pressed, t in state["edges"]:
            self._feed(player, Button(name), pressed, t)
        if "saved_ns" in state:  # the moment it stopped: its last press decided by then
            self.match.advance(state["saved_ns"])

    def _feed(self, player: int, button: Any, pressed: bool, t: int) -> None:
        kind = self.EdgeKind.PRESS if pressed else self.EdgeKind.RELEASE
        self.match.take(self.Edge(player, button, kind, t), t)

    def set(self, player: int, button: Any, down: bool) -> int:
        t = self.buttons.set(player, button, down)
        self.state["edges"].append([player, button.value, down, t])
        self._feed(player, button, down, t)
        return t

    def tap(self, player: int, button: Any) -> None:
        self.set(player, button, True)
        time.sleep(HOLD_S)
        self.set(player, button, False)
        time.sleep(GAP_S)

    def play(self, player: int, slot: int, pile: int) -> None:
        self.tap(player, self.Button.slot(slot))
        self.tap(player, self.Button.pile(pile))
        self.state["plays"] += 1

    def race(self, slots: tuple[int, int], pile: int) -> None:
        """Both players onto ``pile``: player 2's press first, player 1's RACE_GAP_S later."""
        self.tap(0, self.Button.slot(slots[0]))
        self.tap(1, self.Button.slot(slots[1]))
        first = self.set(1, self.Button.pile(pile), True)
        time.sleep(RACE_GAP_S)
        second = self.set(0, self.Button.pile(pile), True)
        time.sleep(HOLD_S)
        self.set(1, self.Button.pile(pile), False)
        self.set(0, self.Button.pile(pile), False)
        time.sleep(GAP_S)
        self.state["race"] = {"pile": pile, "p2_ns": first, "p1_ns": second}
        self.state["plays"] += 1

    def play_until(self, plays: int | None) -> None:
        """Play legal moves for both players until the game is over, or ``plays`` are made
        and the table is still: no "ready… spit!" running, so the screen shows what the
        presser's copy holds until the next press."""
        match = self.match
        turn = 0
        while True:
            now = time.monotonic_ns()
            match.advance(now)
            if match.over:
                return
            game = match.game
            if now < match.start_abs_ns:  # "ready… spit!" at the start
                time.sleep((match.start_abs_ns - now) / 1e9 + SETTLE_S)
                continue
            due = game.spit_due_ns
            if due is not None:  # both stuck: wait for the spit
                time.sleep(max(0.0, (match.to_abs(due) - now) / 1e9) + SETTLE_S)
                continue
            if plays is not None and self.state["plays"] >= plays:
                return
            moves = [game.legal_plays(0), game.legal_plays(1)]
            if self.state.get("race") is None:
                race = _race(game, moves)
                if race is not None:
                    self.race(*race)
                    continue
            player = turn if moves[turn] else 1 - turn
            if not moves[player]:
                time.sleep(0.05)  # the spit is about to fall due
                continue
            slot, pile = moves[player][0]
            self.play(player, slot, pile)
            turn = 1 - turn

    def save(self) -> None:
        self.state["saved_ns"] = time.monotonic_ns()
        self.match.advance(self.state["saved_ns"])
        path = self.out / "state.json"
        path.write_text(json.dumps(self.state), encoding="utf-8")


def _race(game: Any, moves: list[list[tuple[int, int]]]) -> tuple[tuple[int, int], int] | None:
    """Slots for both players onto the same pile, where player 2's card would beat player
    1's (player 1's no longer fits once player 2's is down), if there are any."""
    for slot2, pile in moves[1]:
        card2 = game.layout(1)[slot2]
        for slot1, pile1 in moves[0]:
            card1 = game.layout(0)[slot1]
            if pile1 == pile and not _fits(game, card1, card2):
                return (slot1, slot2), pile
    return None


def _fits(game: Any, card: Any, top: Any) -> bool:
    from game.engine import fitting_ranks

    return card.rank in fitting_ranks(game.rules.ace_wraps)[top.rank]


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


def finish(out: Path) -> int:
    from game.events import LateEdge, Played, Rejected
    from game.record import MatchRecord, replay

    state = json.loads((out / "state.json").read_text(encoding="utf-8"))
    presser = Presser(out, state)
    presser.play_until(None)
    presser.save()
    outcome = presser.match.outcome
    assert outcome is not None
    deadline = time.monotonic() + 60
    row = None
    while row is None and time.monotonic() < deadline:
        with sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True) as db:
            row = db.execute(
                "SELECT id, termination, winner, record FROM games WHERE id > ? ORDER BY id",
                (state["before_id"],),
            ).fetchone()
        time.sleep(0.5)
    report: dict[str, Any] = {
        "seed": state["seed"],
        "plays": state["plays"],
        "presser": {"termination": outcome.termination.value, "winner": outcome.winner},
    }
    checks: dict[str, bool] = {}
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
    (out / "game.json").write_text(text, encoding="utf-8")
    done = subprocess.run(
        [str(INSTALL / "spit-cabinet"), "replay", "--json", str(out / "game.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    replayed = json.loads(done.stdout) if done.returncode == 0 else {"error": done.stderr}
    report["replayed"] = {k: replayed.get(k) for k in ("termination", "winner", "error")}
    checks["replays to its stored result"] = (
        replayed.get("termination"),
        replayed.get("winner"),
    ) == (termination, winner)
    # The race, by the kernel's timestamps in the record (match time: ns since the start).
    record = MatchRecord.loads(text)
    events = replay(record).events
    if not checks["recorded as the presser's game ended"]:
        report["parted"] = parted(presser.match.events, events, state, record)
    race = state["race"]
    checks["a race was run"] = race is not None
    if race is not None:

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
        if p1 and p2:
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
                (
                    e
                    for e in events
                    if isinstance(e, Rejected) and e.player == 0 and e.t_ns >= p1[0].t_ns
                ),
                None,
            )
            late = [
                e for e in events if isinstance(e, LateEdge) and p2[0].t_ns <= e.t_ns <= p1[0].t_ns
            ]
            checks["the race was decided on the kernel's timestamps (no press late)"] = not late
            report["race"] = {
                "gap_ns": gap,
                "won_by": None if first is None else first.player + 1,
                "beaten_margin_ns": None if beaten is None else beaten.margin_ns,
            }
            checks["the race's presses are in the record, player 2's first"] = gap > 0
            checks["the race went to the earlier press"] = first is not None and first.player == 1
        else:
            checks["the race's presses are in the record, player 2's first"] = False
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
        # Pico's USB id), and the race window for an emulated machine.
        print(f'[game]\nrace_window_ms = {RACE_WINDOW_MS}\n\n[cabinet]\nled_port = "/dev/ttyUSB0"')
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
