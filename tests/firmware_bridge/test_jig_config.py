"""The fairness jig's jig.json (firmware_bridge/jig/config.py, docs/fairness.md) on CPython:
the shipped file is the defaults, every bad entry is named, and a file is read, checked and
never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.fairness import Schedule
from firmware_bridge.firmware.config import ConfigError
from firmware_bridge.jig.config import DEFAULTS, JigConfig, boot_jig_config, load_jig_config
from tests.firmware_bridge.conftest import ROOT


def test_the_shipped_jig_json_is_the_defaults() -> None:
    shipped = ROOT / "firmware_bridge" / "jig" / "jig.json"
    assert json.loads(shipped.read_text(encoding="utf-8")) == DEFAULTS
    config = JigConfig()
    schedule = config.schedule()
    assert (schedule.offsets_us, schedule.pairs, schedule.gap_ms, schedule.seed) == (
        Schedule().offsets_us,
        Schedule().pairs,
        Schedule().gap_ms,
        Schedule().seed,
    )
    assert (config.line_a_pin, config.line_b_pin, config.start_pin) == (16, 17, 15)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"offsets_us": [50, 0]}, "offsets_us[1] must be a whole number from 1 to 20000, got 0"),
        ({"offsets_us": [100, 100]}, "offsets_us lists 100 twice; each offset is one case"),
        ({"offsets_us": []}, "a fairness test needs at least one offset"),
        ({"offsets_us": 100}, "offsets_us must be a list of whole numbers, got 100"),
        ({"pairs": 2001}, "pairs must be a whole number from 2 to 2000, got 2001"),
        ({"pairs": 5}, "pairs per offset must be even and at least 2, not 5"),
        ({"gap_ms": 99}, "pairs need at least 100 ms between them"),
        ({"gap_ms": 60001}, "gap_ms must be a whole number from 1 to 60000, got 60001"),
        ({"lead_in_ms": -1}, "lead_in_ms must be a whole number from 0 to 60000, got -1"),
        ({"seed": 2**32}, "seed must be a whole number from 0 to 4294967295"),
        ({"line_a_pin": "GP16"}, "line_a_pin must be a whole number from 0 to 28, got 'GP16'"),
        ({"line_b_pin": 24}, "line_b_pin: GP24 is not on the Pico's header"),
        ({"start_pin": 16}, "line_a_pin, line_b_pin and start_pin must be three different"),
        ({"line_b_pin": 16}, "line_a_pin, line_b_pin and start_pin must be three different"),
        ({"hold_ms": 40}, "unknown configuration key 'hold_ms'; the keys are gap_ms, "),
    ],
)
def test_a_bad_entry_is_named(values: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        JigConfig(values)
    assert message in str(caught.value)


def test_a_file_is_read_checked_and_never_fatal(tmp_path: Path) -> None:
    path = tmp_path / "jig.json"
    assert load_jig_config(str(path)).pairs == 100  # no file: the defaults
    path.write_text('{"offsets_us": [100], "pairs": 1000, "seed": 7}', encoding="utf-8")
    config = load_jig_config(str(path))
    assert config.cabinet_command() == (
        "spit-cabinet fairness --offsets 100 --pairs 1000 --gap-ms 150 --seed 7"
    )
    assert boot_jig_config(str(path))[1] is None
    path.write_text('{"pairs": 3}', encoding="utf-8")
    config, error = boot_jig_config(str(path))
    assert error == "pairs per offset must be even and at least 2, not 3"
    assert config.pairs == 100
