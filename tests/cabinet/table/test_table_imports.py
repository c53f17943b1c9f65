"""What ``python -m cabinet.table`` loads to start: nothing of the display (pygame), no
pyserial without an LED board, and not OpenSSL's hashlib (the deck's sha256 is Python's
own, the same digest). Read from ``sys.modules`` at the exit of a fresh process that ran
the table's entry point as the display starts it, up to its argument parsing (``--help``:
every import of its start is done by then)."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

DRIVER = """
import atexit, json, runpy, sys
out = sys.argv[1]
atexit.register(lambda: open(out, "w").write(json.dumps({
    "loaded": sorted(name for name, module in sys.modules.items() if module is not None),
    "sha256": sys.modules["hashlib"].sha256(b"spit:7:0").hexdigest(),
})))
sys.argv = ["cabinet.table", *sys.argv[2:]]
runpy.run_module("cabinet.table", run_name="__main__", alter_sys=True)
"""


def test_the_table_starts_without_pygame_pyserial_or_openssl(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, str(out), "--help"],
        capture_output=True, text=True, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(out.read_text(encoding="utf-8"))
    loaded = set(seen["loaded"])
    assert {"cabinet.table.server", "game.cards", "hashlib"} <= loaded, "the start ran"
    unwanted = ("pygame", "serial", "_hashlib", "firmware_bridge.link")
    assert sorted(m for m in loaded if m.split(".")[0] in unwanted or m in unwanted) == []
    assert seen["sha256"] == hashlib.sha256(b"spit:7:0").hexdigest()
