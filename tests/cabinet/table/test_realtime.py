"""What the table asks of the system: real-time scheduling, a core, and what the kernel's
preemption model means for it."""

from __future__ import annotations

import pytest

from cabinet.table.process import become_realtime, preemption_model


def test_not_asking_for_real_time_says_so() -> None:
    assert become_realtime(0) == (False, "normal scheduling (real-time not asked for)")


def test_a_refused_priority_is_reported_not_raised() -> None:
    granted, words = become_realtime(1000)  # above SCHED_FIFO's range: always refused
    assert granted is False
    assert words.startswith("normal scheduling (real-time refused: ")


@pytest.mark.parametrize(
    ("debugfs", "cmdline", "config", "model"),
    [
        ("none voluntary (full) lazy\n", "preempt=none", None, "full"),  # debugfs wins
        (None, "console=tty1 preempt=voluntary quiet", None, "voluntary"),
        (None, "", "CONFIG_PREEMPT_DYNAMIC=y\nCONFIG_PREEMPT_NONE=y\n", "none"),
        (None, "", "CONFIG_PREEMPT=y\n# CONFIG_PREEMPT_NONE is not set\n", "full"),
        (None, "", "CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPT=y\n", "rt"),
        (None, "", None, None),
    ],
)
def test_the_kernels_preemption_model_is_read_from_what_the_system_shows(
    debugfs: str | None, cmdline: str, config: str | None, model: str | None
) -> None:
    assert preemption_model(debugfs, cmdline, config) == model
