"""The virtual Pi's verdict: reads what run.sh gathered in RUN and checks it.

    python report.py RUN --versions VERSION NEXT_VERSION UPDATED ROLLED_BACK
    python report.py --screen-matches SCREEN_GRID RENDER_GRID      (exit 0 if it does)
    python report.py --lit SCREEN_GRID                              (exit 0 if not black)

Writes RUN/report.json and prints one line per check; exits 1 if any failed. The checks:
the presser's (play.json: the game recorded as it ended, the replay, the race); the
screen matches a frame drawn headless from the same moment (a 32×20 grid of mean colours,
most cells within MATCH_LEVELS), not the deal's, and is far from black; the light board
showed STUCK and SPIT; the screen was drawn by the texture backend (the guest's Mesa GLES 2
on kmsdrm, as a Pi's GPU draws it); after the reboot the cabinet drew attract by itself;
the update ran the next version and the rollback the first.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

MATCH_LEVELS = 4
"""A cell matches when no channel of its mean colour is further than this (of 255). The
guest's GLES draws the cabinet's frame unscaled: the same pixels as a headless draw."""
MATCH_SHARE = 0.98
"""The share of cells that must match."""
LIT_LEVEL = 24
"""A cell is lit (not black) when a channel's mean is above this."""


def matching(a: list[list[int]], b: list[list[int]]) -> float:
    same = sum(
        1
        for x, y in zip(a, b, strict=True)
        if max(abs(p - q) for p, q in zip(x, y, strict=True)) <= MATCH_LEVELS
    )
    return same / len(a)


def lit(cells: list[list[int]]) -> float:
    return sum(1 for c in cells if max(c) > LIT_LEVEL) / len(cells)


def screen_matches(screen_grid: Path, render_grid: Path) -> bool:
    """Whether a screenshot's grid shows the moment drawn headless."""
    screen = json.loads(screen_grid.read_text(encoding="utf-8"))["grid"]
    drawn = json.loads(render_grid.read_text(encoding="utf-8"))["now"]
    return matching(screen, drawn) >= MATCH_SHARE


def main() -> int:
    if sys.argv[1:2] == ["--screen-matches"]:  # run.sh, while the screen catches up
        return 0 if screen_matches(Path(sys.argv[2]), Path(sys.argv[3])) else 1
    if sys.argv[1:2] == ["--lit"]:  # run.sh, while the screen after the reboot comes up
        cells = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))["grid"]
        return 0 if lit(cells) > 0.5 else 1
    parser = argparse.ArgumentParser()
    parser.add_argument("run", type=Path)
    parser.add_argument("--versions", nargs=4, required=True)
    args = parser.parse_args()
    run: Path = args.run
    checks: dict[str, bool] = {}
    timings = dict(
        line.split() for line in (run / "timings.txt").read_text(encoding="utf-8").splitlines()
    )
    report: dict[str, Any] = {"seconds": {k: float(v) for k, v in timings.items()}}

    try:
        play = json.loads((run / "play.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        play = {"error": f"no report from the presser: {exc}"}
    report["play"] = play
    for name, ok in play.get("checks", {"the presser finished the game": False}).items():
        checks[f"game: {name}"] = ok

    screen = json.loads((run / "screen-grid.json").read_text(encoding="utf-8"))["grid"]
    drawn = json.loads((run / "render-grid.json").read_text(encoding="utf-8"))
    now, dealt = matching(screen, drawn["now"]), matching(screen, drawn["dealt"])
    report["screen"] = {
        "cells_as_drawn": round(now, 3),
        "cells_as_the_deal": round(dealt, 3),
        "lit": round(lit(screen), 3),
    }
    checks["screen: the play screen, as drawn headless from the same moment"] = now >= MATCH_SHARE
    checks["screen: not the deal (the plays show)"] = dealt < now
    checks["screen: not black"] = lit(screen) > 0.5

    display = (run / "display.txt").read_text(encoding="utf-8").strip()
    report["display"] = display
    checks["display: drawn by the texture backend"] = display.startswith("display: texture")

    lights = [
        json.loads(line)["lit"]
        for line in (run / "lights.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    report["lights"] = {"changes": len(lights)}
    checks["lights: STUCK shown on the board"] = any({"stuck1", "stuck2"} & set(s) for s in lights)
    checks["lights: SPIT shown on the board"] = any("spit" in s for s in lights)

    after = json.loads((run / "after-reboot-grid.json").read_text(encoding="utf-8"))["grid"]
    report["reboot"] = {"lit": round(lit(after), 3)}
    first_frame = float(timings.get("kernel_to_first_frame", "0"))
    checks["reboot: the cabinet drew its first frame by itself"] = first_frame > 0
    checks["reboot: the screen is not black"] = lit(after) > 0.5

    version, next_version, updated, rolled_back = args.versions
    report["update"] = {"updated": updated, "rolled_back": rolled_back}
    checks[f"update: {next_version} runs"] = updated == next_version
    checks[f"rollback: {version} runs again"] = rolled_back == version

    report["checks"] = checks
    (run / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for name, ok in checks.items():
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
    print(json.dumps({k: v for k, v in report.items() if k != "checks"}))
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
