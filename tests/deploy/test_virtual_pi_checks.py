"""The virtual Pi's checks themselves (scripts/virtual-pi/play.py's grid, report.py's
verdict): a check that cannot fail proves nothing, so each is shown failing here too."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "virtual-pi"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"virtual_pi_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


play = load("play")
guest_presser = load("guest_presser")

GREEN, CARD, BLACK = (14, 95, 61), (246, 244, 236), (0, 0, 0)


def image(width: int, height: int, card: tuple[int, int, int, int] | None) -> bytes:
    """Green felt with one card-coloured rectangle (x0, y0, x1, y1), as packed RGB."""
    out = bytearray()
    for y in range(height):
        for x in range(width):
            inside = card is not None and card[0] <= x < card[2] and card[1] <= y < card[3]
            out += bytes(CARD if inside else GREEN)
    return bytes(out)


def test_the_grid_is_the_mean_colour_of_each_cell() -> None:
    cols, rows = play.GRID
    width, height = cols * 4, rows * 4
    cells = play.grid(image(width, height, (0, 0, 4, 4)), width, height)
    assert len(cells) == cols * rows
    assert cells[0] == list(CARD)  # the top-left cell is all card
    assert cells[1:] == [list(GREEN)] * (cols * rows - 1)


def test_a_screendump_reads_as_its_pixels(tmp_path: Path) -> None:
    width, height = 64, 40
    rgb = image(width, height, (10, 10, 30, 30))
    ppm = tmp_path / "screen.ppm"
    ppm.write_bytes(b"P6\n%d %d\n255\n" % (width, height) + rgb)
    assert play.read_ppm(ppm) == (rgb, width, height)
    done = subprocess.run(
        [sys.executable, SCRIPTS / "play.py", "grid", ppm], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["size"] == "64x40"
    assert out["grid"] == play.grid(rgb, width, height)
    ppm.write_bytes(b"P5\n2 2\n255\n\0\0\0\0")
    with pytest.raises(ValueError, match="not an 8-bit binary PPM"):
        play.read_ppm(ppm)


def certificate(cases: dict[int, tuple[int, int]]) -> dict[str, Any]:
    """A certificate's body: for each offset, (pairs, right)."""
    rows = [
        {"offset_us": o, "pairs": p, "right": r, "wrong": p - r, "missed": 0, "late": 0}
        for o, (p, r) in cases.items()
    ]
    passed = all(r >= 0.999 * p for o, (p, r) in cases.items() if o >= 100)
    return {"source": "virtual", "cases": rows, "passed": passed}


def a_run(tmp_path: Path, **change: Any) -> Path:
    """A run folder as run.sh leaves it after a good run, with ``change`` applied."""
    width, height = 64, 40
    now = play.grid(image(width, height, (10, 10, 30, 30)), width, height)
    dealt = play.grid(image(width, height, (40, 10, 60, 30)), width, height)
    screen = change.get("screen", now)
    checks = {
        "recorded as the presser's game ended": True,
        "the race went to the earlier press": True,
    }
    checks.update(change.get("play_checks", {}))
    files = {
        "play.json": json.dumps({"plays": 70, "checks": checks}),
        "screen-grid.json": json.dumps({"size": "64x40", "grid": screen}),
        "render-grid.json": json.dumps({"now": now, "dealt": dealt}),
        "after-reboot-grid.json": json.dumps({"size": "64x40", "grid": change.get("after", now)}),
        "lights.jsonl": "".join(
            json.dumps({"t_ms": i, "lit": lit}) + "\n"
            for i, lit in enumerate(change.get("lights", [[], ["spit"], ["stuck2"], []]))
        ),
        "display.txt": change.get(
            "display",
            "display: texture: opengles2 (llvmpipe (LLVM 19.1.7, 128 bits)) on KMSDRM, vsync "
            "(the console, with a GLES renderer)",
        ),
        "table.txt": change.get("table", "the table runs with SCHED_FIFO priority 10, on core 1"),
        "fairness-mark.json": json.dumps(change.get("mark", certificate({100: (1000, 999)}))),
        "fairness-sweep.json": json.dumps(
            change.get("sweep", certificate({50: (100, 90), 100: (100, 100), 5000: (100, 100)}))
        ),
        "timings.txt": "boot 30\ninstall 100\nkernel_to_first_frame "
        + change.get("first_frame", "21.5")
        + "\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def verdict(run: Path) -> dict[str, bool]:
    """report.py's checks on ``run``, where the update and the rollback went right."""
    done = subprocess.run(
        [sys.executable, SCRIPTS / "report.py", run, "--versions", "0.1.0", "0.1.0.post1",
         "0.1.0.post1", "0.1.0"],
        capture_output=True, text=True,
    )  # fmt: skip
    report = json.loads((run / "report.json").read_text(encoding="utf-8"))
    assert done.returncode == (0 if all(report["checks"].values()) else 1), done.stdout
    return dict(report["checks"])


def failed(checks: dict[str, bool]) -> list[str]:
    return [name for name, ok in checks.items() if not ok]


def test_a_good_run_passes_every_check(tmp_path: Path) -> None:
    checks = verdict(a_run(tmp_path))
    assert failed(checks) == []
    assert "screen: the play screen, as drawn headless from the same moment" in checks
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["seconds"]["kernel_to_first_frame"] == 21.5


BLACK_GRID = [list(BLACK)] * (play.GRID[0] * play.GRID[1])
AS_DRAWN = "screen: the play screen, as drawn headless from the same moment"
NOT_THE_DEAL = "screen: not the deal (the plays show)"
RACE = "the race went to the earlier press"


@pytest.mark.parametrize(
    ("change", "failing"),
    [
        ({"screen": BLACK_GRID}, [AS_DRAWN, NOT_THE_DEAL, "screen: not black"]),
        ({"play_checks": {RACE: False}}, [f"game: {RACE}"]),
        ({"lights": [[], ["spit"]]}, ["lights: STUCK shown on the board"]),
        ({"lights": [["stuck1"]]}, ["lights: SPIT shown on the board"]),
        ({"after": BLACK_GRID}, ["reboot: the screen is not black"]),
        ({"first_frame": "0"}, ["reboot: the cabinet drew its first frame by itself"]),
        ({"display": "display: software on KMSDRM (no GPU renderer: opengles2: …)"},
         ["display: drawn by the texture backend"]),
        ({"table": "the table runs with normal scheduling (real-time refused), on core 1"},
         ["table: real-time, on a core of its own"]),
        ({"mark": certificate({100: (1000, 998)})},
         ["fairness: at 100 us, 99.9 % of 1,000 pairs or more decided right"]),
        ({"mark": certificate({100: (100, 100)})},
         ["fairness: at 100 us, 99.9 % of 1,000 pairs or more decided right"]),
        ({"sweep": certificate({250: (100, 99)})},
         ["fairness: the sweep's certificate passed (every offset from 100 us on)"]),
        ({"table": "the table runs with SCHED_FIFO priority 10"},
         ["table: real-time, on a core of its own"]),
    ],
)  # fmt: skip
def test_each_check_fails_on_its_own_fault(
    tmp_path: Path, change: dict[str, Any], failing: list[str]
) -> None:
    assert failed(verdict(a_run(tmp_path, **change))) == failing


def test_the_screen_of_the_deal_is_not_this_moment(tmp_path: Path) -> None:
    width, height = 64, 40
    dealt = play.grid(image(width, height, (40, 10, 60, 30)), width, height)
    assert failed(verdict(a_run(tmp_path, screen=dealt))) == [AS_DRAWN, NOT_THE_DEAL]


def test_an_update_that_does_not_run_the_next_version_fails(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    done = subprocess.run(
        [sys.executable, SCRIPTS / "report.py", run, "--versions", "0.1.0", "0.1.0.post1",
         "none started", "0.1.0"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 1
    assert "FAIL update: 0.1.0.post1 runs" in done.stdout
    # Said again last, after the figures' long line: a log cut to its tail still shows it.
    total = len(json.loads((run / "report.json").read_text(encoding="utf-8"))["checks"])
    assert done.stdout.splitlines()[-2:] == [
        f"{total - 1} of {total} checks passed",
        "FAIL update: 0.1.0.post1 runs",
    ]


def test_no_report_from_the_presser_fails(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    (run / "play.json").write_text("", encoding="utf-8")
    assert failed(verdict(run)) == ["game: the presser finished the game"]


def test_screen_matches_says_whether_the_screen_has_caught_up(tmp_path: Path) -> None:
    run = a_run(tmp_path)
    matches = [sys.executable, SCRIPTS / "report.py", "--screen-matches"]
    grids = [run / "screen-grid.json", run / "render-grid.json"]
    assert subprocess.run([*matches, *grids]).returncode == 0
    a_run(tmp_path, screen=BLACK_GRID)
    assert subprocess.run([*matches, *grids]).returncode == 1


def test_the_presser_rebuilds_the_moment_it_stopped_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen is compared with a frame drawn from the presser's saved game: rebuilt,
    it must be the table the cabinet shows, its last press decided (the race window holds
    a press for 100 ms on the virtual Pi; a rebuilt game once lacked its last play)."""
    clock = [10**12]
    monkeypatch.setattr(guest_presser.time, "monotonic_ns", lambda: clock[0])

    def sleep(seconds: float) -> None:
        clock[0] += int(seconds * 1e9)

    monkeypatch.setattr(guest_presser.time, "sleep", sleep)
    lines = tmp_path / "lines"
    for bcm in range(28):
        (lines / f"sim_gpio{bcm}").mkdir(parents=True)
    monkeypatch.setattr(guest_presser, "LINES", tmp_path / "lines.txt")
    guest_presser.LINES.write_text(str(lines), encoding="utf-8")
    state = {"seed": 5, "start_ns": clock[0] + 1_500_000_000, "before_id": 0,
             "edges": [], "plays": 0, "race": None}  # fmt: skip
    presser = guest_presser.Presser(tmp_path, state)
    presser.play_until(12)
    presser.save()
    saved = json.loads((tmp_path / "state.json").read_text(encoding="utf-8"))
    assert saved["plays"] == 12
    assert guest_presser.Presser(tmp_path, saved).match.state() == presser.match.state()
    # It stopped at a still table: no "ready… spit!" that would change the screen alone.
    assert presser.match.game.spit_due_ns is None
    # Each press went out on its own line, pulled down and up again.
    assert (lines / "sim_gpio6" / "pull").read_text(encoding="ascii") == "pull-up"


def a_boot(tmp_path: Path, network_start_us: int, journal: str = "") -> Path:
    """boot-figures.sh's files for a card's boot: the cabinet ready at 30.5 s."""
    (tmp_path / "boot-time.txt").write_text(
        "Startup finished in 12.2s (kernel) + 31.1s (userspace) = 43.3s\n", encoding="utf-8"
    )
    (tmp_path / "critical-chain.txt").write_text(
        "spit-cabinet.service +13.0s\n└─basic.target @17.3s\n", encoding="utf-8"
    )
    (tmp_path / "units.txt").write_text(
        "sysinit.target 17300000 17300000\n"
        "dev-disk-by\\x2dpartuuid-53504954\\x2d03.device 11400000 11400000\n"
        "spit-cabinet.service 18300000 30500000\n"
        f"systemd-networkd.service {network_start_us} {network_start_us + 900000}\n"
        "systemd-resolved.service 31000000 31800000\n"
        "systemd-timesyncd.service 31100000 31900000\n",
        encoding="utf-8",
    )
    (tmp_path / "journal.txt").write_text(journal, encoding="utf-8")
    return tmp_path


def test_the_boot_checks_want_the_network_after_the_first_frame(tmp_path: Path) -> None:
    report = load("report")
    _, checks = report.check_boot(a_boot(tmp_path, 30_600_000))
    assert failed(checks) == []
    _, checks = report.check_boot(a_boot(tmp_path, 20_000_000))
    assert failed(checks) == ["boot: the network starts after the cabinet's first frame"]
    _, checks = report.check_boot(a_boot(tmp_path, 0))  # never started: not after anything
    assert failed(checks) == ["boot: the network starts after the cabinet's first frame"]


def test_the_names_and_the_time_count_as_the_network(tmp_path: Path) -> None:
    """resolved and timesyncd start after the first frame too: one started early fails."""
    run = a_boot(tmp_path, 30_600_000)
    units = run / "units.txt"
    units.write_text(
        units.read_text(encoding="utf-8").replace("systemd-timesyncd.service 31100000",
                                                  "systemd-timesyncd.service 19000000"),
        encoding="utf-8",
    )  # fmt: skip
    _, checks = load("report").check_boot(run)
    assert failed(checks) == ["boot: the network starts after the cabinet's first frame"]


def test_an_ordering_cycle_fails_the_boot(tmp_path: Path) -> None:
    cycle = (
        "[   15.1] spit-cabinet systemd[1]: systemd-networkd.service: Found ordering cycle "
        "on spit-cabinet.service/start\n"
    )
    _, checks = load("report").check_boot(a_boot(tmp_path, 30_600_000, cycle))
    assert failed(checks) == ["boot: no ordering cycle"]
