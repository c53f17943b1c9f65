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

# boot-figures.sh's files are read as bench/card_boot.sh's reader reads them.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from card_boot_figures import units

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


Checks = dict[str, bool]
"""Checks by name, each passed or failed, in the order they are printed."""


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
    report = verdict(run, args.versions)
    checks: Checks = report["checks"]
    (run / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    for name, ok in checks.items():
        print(f"{'ok  ' if ok else 'FAIL'} {name}")
    print(json.dumps({k: v for k, v in report.items() if k != "checks"}))
    # Last, after the figures: what failed, where a log cut to its tail still shows it.
    failed = [name for name, ok in checks.items() if not ok]
    print(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
    for name in failed:
        print(f"FAIL {name}")
    return 0 if not failed else 1


def verdict(run: Path, versions: list[str]) -> dict[str, Any]:
    """The report on ``run``: the figures of each part, then every check (``checks``).
    ``versions``: the version installed first, the next one, and the versions running
    after the update and after the rollback."""
    timings = dict(
        line.split() for line in (run / "timings.txt").read_text(encoding="utf-8").splitlines()
    )
    report: dict[str, Any] = {"seconds": {k: float(v) for k, v in timings.items()}}
    checks: Checks = {}
    parts: tuple[tuple[str, tuple[Any, Checks]], ...] = (
        ("play", check_play(run)),
        ("screen", check_screen(run)),
        ("display", check_display(run)),
        ("table", check_table(run)),
        ("lights", check_lights(run)),
        ("fairness", check_fairness(run)),
        ("reboot", check_reboot(run, timings)),
        ("update", check_update(versions)),
    )
    if (run / "card.img").exists():  # the flashed card (run.sh with VIRTUAL_PI_CARD)
        parts += (
            ("route", check_route(run)),
            ("pulls", check_pulls(run)),
            ("boot", check_boot(run)),
        )
    for name, (figures, found) in parts:
        report[name] = figures
        checks.update(found)
    report["checks"] = checks
    return report


def check_play(run: Path) -> tuple[dict[str, Any], Checks]:
    """The presser's report (play.json) and its checks, or a failure where it left none."""
    try:
        play = json.loads((run / "play.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        play = {"error": f"no report from the presser: {exc}"}
    checks = play.get("checks", {"the presser finished the game": False})
    return play, {f"game: {name}": ok for name, ok in checks.items()}


def check_screen(run: Path) -> tuple[dict[str, Any], Checks]:
    """The screenshot's grid against the frame drawn headless from the same moment and
    from the deal, and whether it is lit."""
    screen = json.loads((run / "screen-grid.json").read_text(encoding="utf-8"))["grid"]
    drawn = json.loads((run / "render-grid.json").read_text(encoding="utf-8"))
    now, dealt = matching(screen, drawn["now"]), matching(screen, drawn["dealt"])
    figures = {
        "cells_as_drawn": round(now, 3),
        "cells_as_the_deal": round(dealt, 3),
        "lit": round(lit(screen), 3),
    }
    return figures, {
        "screen: the play screen, as drawn headless from the same moment": now >= MATCH_SHARE,
        "screen: not the deal (the plays show)": dealt < now,
        "screen: not black": lit(screen) > 0.5,
    }


def check_display(run: Path) -> tuple[str, Checks]:
    """The cabinet's display line (display.txt): drawn by the texture backend."""
    display = (run / "display.txt").read_text(encoding="utf-8").strip()
    return display, {
        "display: drawn by the texture backend": display.startswith("display: texture")
    }


def check_table(run: Path) -> tuple[str, Checks]:
    """How the table is scheduled (table.txt): real-time, on a core of its own (the
    guest's last; the display keeps off it)."""
    try:
        table = (run / "table.txt").read_text(encoding="utf-8").strip()
    except OSError:
        table = ""
    return table, {
        "table: real-time, on a core of its own": "SCHED_FIFO" in table and ", on core " in table
    }


def _last_json(path: Path) -> dict[str, Any] | None:
    """The JSON object on the file's last line, if there is one."""
    try:
        body = json.loads(path.read_text(encoding="utf-8").strip().splitlines()[-1])
    except (OSError, ValueError, IndexError):
        return None
    return body if isinstance(body, dict) else None


def _certificate(path: Path) -> dict[str, Any] | None:
    body = _last_json(path)
    return body if body is not None and "cases" in body else None


def check_fairness(run: Path) -> tuple[dict[str, Any], Checks]:
    """The fairness test's certificates (fairness-mark.json: 1,000 pairs at 100 us;
    fairness-sweep.json: every offset): the share decided right, per offset."""
    skipped = run / "fairness-skipped.txt"
    if skipped.exists():  # left out on purpose (run.sh's VIRTUAL_PI_FAIRNESS=0): said, not passed
        return {"not_run": skipped.read_text(encoding="utf-8").strip()}, {}
    figures: dict[str, Any] = {}
    certificates = {name: _certificate(run / f"fairness-{name}.json") for name in ("mark", "sweep")}
    for name, body in certificates.items():
        if body is not None:
            figures[name] = {
                f"{c['offset_us']} us": f"{c['right']}/{c['pairs']} right, {c['missed']} missed, "
                f"{c['late']} late"
                for c in body["cases"]
            }
        jig = _last_json(run / f"jig-{name}.json")
        if jig is not None:  # how far apart the emulated jig's writes really were
            figures[f"{name}_written_apart_us"] = jig.get("written_apart_us")
    mark = certificates["mark"]
    at_100 = [c for c in (mark or {}).get("cases", []) if c["offset_us"] == 100]
    sweep = certificates["sweep"]
    return figures, {
        "fairness: at 100 us, 99.9 % of 1,000 pairs or more decided right": bool(at_100)
        and at_100[0]["pairs"] >= 1000
        and at_100[0]["right"] >= 0.999 * at_100[0]["pairs"],
        "fairness: the sweep's certificate passed (every offset from 100 us on)": sweep is not None
        and sweep.get("passed") is True,
    }


def check_lights(run: Path) -> tuple[dict[str, Any], Checks]:
    """The light board's changes (lights.jsonl): STUCK and SPIT among them."""
    lights = [
        json.loads(line)["lit"]
        for line in (run / "lights.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    return {"changes": len(lights)}, {
        "lights: STUCK shown on the board": any({"stuck1", "stuck2"} & set(s) for s in lights),
        "lights: SPIT shown on the board": any("spit" in s for s in lights),
    }


def check_reboot(run: Path, timings: dict[str, str]) -> tuple[dict[str, Any], Checks]:
    """After the reboot: the cabinet's first frame drawn by itself, on a lit screen."""
    after = json.loads((run / "after-reboot-grid.json").read_text(encoding="utf-8"))["grid"]
    first_frame = float(timings.get("kernel_to_first_frame", "0"))
    return {"lit": round(lit(after), 3)}, {
        "reboot: the cabinet drew its first frame by itself": first_frame > 0,
        "reboot: the screen is not black": lit(after) > 0.5,
    }


def check_update(versions: list[str]) -> tuple[dict[str, Any], Checks]:
    """The update ran the next version, and the rollback the first again."""
    version, next_version, updated, rolled_back = versions
    return {"updated": updated, "rolled_back": rolled_back}, {
        f"update: {next_version} runs": updated == next_version,
        f"rollback: {version} runs again": rolled_back == version,
    }


def check_route(run: Path) -> tuple[dict[str, Any], Checks]:
    """The signed release the route on the host rolled out (route.py's rollout line): the
    card installed it, reported its version to the fleet, and runs it."""
    try:
        rollout = json.loads((run / "route-rollout.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        rollout = {"error": f"no rollout's end from route.py: {exc}"}
    runs_path = run / "route-runs.txt"
    runs = runs_path.read_text(encoding="utf-8").strip() if runs_path.exists() else ""
    release = rollout.get("release")
    rollout["runs"] = runs
    return rollout, {
        "route: the release rolled out over the fleet was installed": rollout.get("state")
        == "installed",
        "route: the card reported the release's version to the fleet": release is not None
        and rollout.get("reported_version") == release,
        "route: the card runs the release": release is not None and runs == release,
    }


def check_pulls(run: Path) -> tuple[dict[str, Any], Checks]:
    """The power pulls (pulls.py's pulls.jsonl): every boot after one reached attract
    with nothing committed lost; and the pulls did cut coins in flight."""
    path = run / "pulls.jsonl"
    pulls = (
        [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        if path.exists()
        else []
    )
    checks: Checks = {"pulls: the power was pulled": bool(pulls)}
    for pull in pulls:
        for name, ok in pull["checks"].items():
            checks[f"pull {pull['n']} ({pull['kind']}): {name}"] = ok
    expected_path = run / "pulls-expected.json"
    if expected_path.exists():  # every pull asked for was made (and recorded)
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        made = {
            "first boot": sum(p["kind"] == "first boot" for p in pulls),
            "attract": sum(p["kind"] in ("attract, coins going in", "booting") for p in pulls),
            "release": sum(p["kind"].startswith("release ") for p in pulls),
        }
        checks[f"pulls: as many as asked for ({expected})"] = made == expected
    kinds = {p["kind"] for p in pulls}
    checks["pulls: during first boots, in attract and during a release"] = {
        "first boot",
        "attract, coins going in",
    } <= kinds and any(kind.startswith("release ") for kind in kinds)
    if sum(kind.startswith("release ") for kind in (p["kind"] for p in pulls)) >= 2:
        checks["pulls: during a release's download and during its install"] = {
            "release download",
            "release install",
        } <= kinds
    coins = [p["books_before"].get("coins1", 0) for p in pulls if p["kind"].startswith("attract")]
    checks["pulls: coins were committed before pulls"] = any(c > 0 for c in coins)
    figures = {
        "count": len(pulls),
        "attract_s": [p["attract_s"] for p in pulls],
        "moments": [[p["kind"], p["at_s"], p["during"]] for p in pulls],
        # What went wrong with a failed pull (a boot that never reached attract: QEMU's
        # state and the console after the pull), in the report CI's log shows.
        "errors": {str(p["n"]): p["error"] for p in pulls if p.get("error")},
    }
    return figures, checks


#: The network's units, which start once the cabinet has drawn its first frame.
NETWORK_UNITS = (
    "systemd-networkd.service",
    "systemd-resolved.service",
    "systemd-timesyncd.service",
)


def check_boot(run: Path) -> tuple[dict[str, Any], Checks]:
    """systemd's figures for the card's boot after the clean reboot: its cabinet's chain,
    no ordering cycle systemd had to break (it would drop a unit to break one), and the
    network started only once the cabinet was ready (docs/image.md, "Boot")."""
    time_line = (run / "boot-time.txt").read_text(encoding="utf-8").strip()
    chain = (run / "critical-chain.txt").read_text(encoding="utf-8")
    journal = (run / "journal.txt").read_text(encoding="utf-8", errors="replace")
    listed = units((run / "units.txt").read_text(encoding="utf-8"))
    cabinet_ready = listed.get("spit-cabinet.service", {}).get("ready_s", 0.0)
    network_start = min(listed.get(unit, {}).get("started_s", 0.0) for unit in NETWORK_UNITS)
    return {"systemd_analyze": time_line, "critical_chain": chain.splitlines()}, {
        "boot: systemd's figures": time_line.startswith("Startup finished"),
        "boot: the cabinet's unit in the critical chain": "spit-cabinet.service" in chain,
        "boot: no ordering cycle": "ordering cycle" not in journal,
        "boot: the network starts after the cabinet's first frame": (
            0 < cabinet_ready <= network_start
        ),
    }


if __name__ == "__main__":
    sys.exit(main())
