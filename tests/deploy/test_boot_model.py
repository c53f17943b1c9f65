"""bench/boot_model.py's reading of a card run (the Pi 4 boot model): systemd-analyze's
critical chain as the virtual Pi printed it, and the model's arithmetic on figures of a
run, each checked against numbers worked out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.deploy.conftest import bench_module

boot_model = bench_module("boot_model")

# A card run's chain, as `systemd-analyze critical-chain spit-cabinet.service` printed it.
CHAIN = """graphical.target reached after 51.643s in userspace.
The time when unit became active or started is printed after the "@" character.
The time the unit took to start is printed after the "+" character.

spit-cabinet.service +22.535s
\u2514\u2500gpio-sim.service @16.284s +12.366s
  \u2514\u2500dev-disk-by\\x2dlabel-VPIKIT.device @16.220s
    \u2514\u2500var-lib-spit\\x2dcabinet.mount @1min 2.5s +870ms
"""


def test_the_chain_reads_each_units_start_and_time() -> None:
    units = boot_model.chain(CHAIN)
    assert units["gpio-sim.service"] == (16.284, 12.366)
    assert units["dev-disk-by\\x2dlabel-VPIKIT.device"] == (16.220, 0.0)
    # The cabinet's own line has no "@": it is the unit asked about, not a step to it.
    assert "spit-cabinet.service" not in units


def test_a_chain_over_a_minute_reads_its_minutes() -> None:
    units = boot_model.chain(CHAIN)
    assert units["var-lib-spit\\x2dcabinet.mount"] == pytest.approx((62.5, 0.87))


def test_the_model_scales_the_boot_by_each_factor(tmp_path: Path) -> None:
    (tmp_path / "timings.txt").write_text("boot 402\nkernel_to_first_frame 81.4\n")
    (tmp_path / "guest-loop.json").write_text(json.dumps({"loop_s": 2.0, "nbody_s": 12.66}))
    (tmp_path / "critical-chain.txt").write_text(CHAIN)
    # 439,500 sectors read: 225.0 MB.
    (tmp_path / "vda-stat.txt").write_text("9000 0 439453 5000 0 0 0 0 0 0 0\n")
    (tmp_path / "boot-time.txt").write_text(
        "Startup finished in 29.814s (kernel) + 51.648s (userspace) = 1min 21.463s"
    )
    host_loop_s, host_mips = 0.1, 2 * boot_model.PI4_7ZIP_MIPS
    out = boot_model.model(tmp_path, host_loop_s, host_mips)
    # S = 2.0 / 0.1 = 20, R = 2: the guest is 10 times slower than a Pi 4.
    by_7zip = out["pi4_model_s"]["by_7zip"]
    assert by_7zip["F_guest_slower_than_pi4"] == pytest.approx(10.0)
    # (81.4 - 12.366 s of test kit) / 10 = 6.90 s of CPU; 225.0 MB at 43.9 MB/s = 5.13 s.
    assert by_7zip["cpu"] == pytest.approx(6.90, abs=0.01)
    assert out["card_reads_s"]["sequential"] == pytest.approx(5.13, abs=0.01)
    assert by_7zip["kernel_to_first_frame"] == pytest.approx(12.03, abs=0.02)
    assert by_7zip["kernel_alone"] == pytest.approx(2.98, abs=0.01)
    # n-body: 12.66 s for 50,000 steps, where a Pi 4 takes 158.3 / 100 = 1.583 s: F = 8.
    by_nbody = out["pi4_model_s"]["by_nbody"]
    assert by_nbody["F_guest_slower_than_pi4"] == pytest.approx(8.0, abs=0.01)
    assert out["tcg"]["test_kit_on_the_chain_s"] == 12.366


MOUNTS = """The time when unit became active or started is printed after the "@" character.
The time the unit took to start is printed after the "+" character.

opt-spit\\x2dcabinet.mount +1.849s
\u2514\u2500spit-cabinet-seed.service @35.804s +1.318s
  \u2514\u2500data.mount @34.708s +1.015s
var-lib-spit\\x2dcabinet.mount +1.764s
\u2514\u2500spit-cabinet-seed.service @35.804s +1.318s
  \u2514\u2500data.mount @34.708s +1.015s
"""


def test_the_mounts_are_ready_when_their_step_and_they_are_done() -> None:
    assert boot_model.ready(MOUNTS) == {
        "opt-spit\\x2dcabinet.mount": pytest.approx(35.804 + 1.318 + 1.849),
        "var-lib-spit\\x2dcabinet.mount": pytest.approx(35.804 + 1.318 + 1.764),
    }


@pytest.mark.parametrize(
    ("kit_line", "kit_s"),
    [
        # The kit ends at 46.046 s, the mounts are ready at 38.971 s: 7.075 s of waiting.
        ("gpio-sim.service @27.825s +18.221s", 46.046 - 38.971),
        # The kit done before the mounts: the cabinet waited for them, not for it.
        ("gpio-sim.service @20.0s +5.0s", 0.0),
    ],
)
def test_the_kit_counts_only_past_the_cabinets_own_mounts(
    tmp_path: Path, kit_line: str, kit_s: float
) -> None:
    (tmp_path / "critical-chain.txt").write_text(
        f"spit-cabinet.service +36.878s\n\u2514\u2500{kit_line}\n"
    )
    # Without the mounts' chain, the kit's whole time.
    took = float(kit_line.rsplit("+", 1)[1].rstrip("s"))
    assert boot_model.kit_on_the_chain_s(tmp_path) == pytest.approx(took)
    (tmp_path / "critical-chain-mounts.txt").write_text(MOUNTS)
    assert boot_model.kit_on_the_chain_s(tmp_path) == pytest.approx(kit_s, abs=1e-6)


def test_the_host_turn_taken_is_the_median_of_its_product() -> None:
    # Products 30, 20, 45, 24, 40: the median is 30, the first turn's.
    timed = [(0.05, 600.0), (0.04, 500.0), (0.05, 900.0), (0.04, 600.0), (0.05, 800.0)]
    assert boot_model.median_round(timed) == (0.05, 600.0)
    assert boot_model.median_round(timed[:2]) == (0.04, 500.0)  # even: the lower


def a_model(f: float, to_frame: float, kit: float, reads: float) -> dict[str, object]:
    return {
        "tcg": {"kernel_to_first_frame_s": to_frame, "test_kit_on_the_chain_s": kit},
        "card_reads_s": {"sequential": reads},
        "pi4_model_s": {"by_7zip": {"F_guest_slower_than_pi4": f}},
    }


def test_cards_compared_are_scaled_by_one_factor() -> None:
    out = boot_model.common({"a": a_model(6.0, 46.0, 0.0, 2.0), "b": a_model(10.0, 34.0, 2.0, 1.9)})
    # One F, the mean of 6 and 10: a is 46 / 8, b (34 - 2 of test kit) / 8.
    assert out["F_guest_slower_than_pi4"] == 8.0
    assert out["cards"]["a"] == {"cpu": 5.75, "kernel_to_first_frame": 7.75}
    assert out["cards"]["b"] == {"cpu": 4.0, "kernel_to_first_frame": 5.9}
