"""spit-cabinet doctor: every check, with its next step when something is wrong."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.commands.doctor import Severity, check_data_dir, check_lights, check_wiring
from firmware_bridge.sim import Config, Simulator


@pytest.fixture(autouse=True)
def headless(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def board() -> Iterator[Simulator]:
    with Simulator(Config({"selftest_step_ms": 0})) as sim:
        yield sim


def test_doctor_with_mock_input_checks_everything_and_presses_every_button(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(
        [
            "doctor",
            "--input",
            "mock",
            "--data-dir",
            str(tmp_path),
            "--lights",
            str(tmp_path / "no-board"),
        ]
    )
    out = capsys.readouterr().out
    assert "[ok  ] wiring: 16 inputs and 1 output mapped" in out
    assert f"[ok  ] data directory: {tmp_path} is writable" in out
    assert "[warn] display: driver dummy" in out  # a dummy screen shows nothing
    assert "[ok  ] buttons: all 15 controls answered" in out  # coin 1 too
    assert "] real-time: " in out  # whether the table process gets real-time priority
    assert "[FAIL] LED board" in out and "→" in out
    assert status == 1


def test_a_bad_wiring_file_fails_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "wiring.toml"
    bad.write_text("[player1]\nslot1 = 99\n")
    finding = check_wiring(bad)
    assert finding.severity is Severity.FAIL
    assert "line 2" in finding.detail and "docs/wiring.md" in (finding.fix or "")


def test_an_unwritable_data_dir_fails(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):  # root writes anywhere: use a file as the "dir"
            locked = tmp_path / "a-file"
            locked.write_text("x")
        finding = check_data_dir(locked)
    finally:
        (tmp_path / "locked").chmod(0o700)
    assert finding.severity is Severity.FAIL
    assert "SPIT_CABINET_DATA" in (finding.fix or "")


def test_a_corrupt_database_is_reported(tmp_path: Path) -> None:
    (tmp_path / "cabinet.sqlite3").write_bytes(b"this is not a database" * 100)
    finding = check_data_dir(tmp_path)
    assert finding.severity is Severity.FAIL
    assert "moves a damaged database aside" in (finding.fix or "")


def test_the_led_board_is_found_and_its_firmware_compared(board: Simulator) -> None:
    finding = check_lights(board.port)
    assert finding.severity is Severity.OK, finding.line()
    assert "firmware 1.0.0" in finding.detail and "round trip" in finding.detail


def test_doctor_reads_the_money_and_warns_of_coin_errors(tmp_path: Path) -> None:
    from cabinet.commands.doctor import check_money
    from cabinet.inputs.controls import COIN1
    from cabinet.inputs.debounce import OperatorEdge
    from cabinet.money.keeper import MoneyKeeper
    from cabinet.storage.pricing_settings import FREE_PLAY
    from cabinet.storage.store import CabinetStore

    assert check_money(tmp_path).detail == "no database yet: free play"
    store = CabinetStore.open(tmp_path)
    store.settings.set(FREE_PLAY, False)
    store.save_settings()
    keeper = MoneyKeeper(store)
    t = 10**12
    keeper.take([OperatorEdge(COIN1, True, t), OperatorEdge(COIN1, False, t + 60_000_000)])
    store.close()
    finding = check_money(tmp_path)
    assert finding.severity is Severity.OK
    assert finding.detail == (
        "1 credit(s) a game; 1 credit(s) on the cabinet, 1 meter pulse(s) owed, "
        "earnings EUR 1.00 in all"
    )
    store = CabinetStore.open(tmp_path)
    keeper = MoneyKeeper(store)
    keeper.take([OperatorEdge(COIN1, True, t), OperatorEdge(COIN1, False, t + 5_000_000)])
    store.close()
    finding = check_money(tmp_path)
    assert finding.severity is Severity.WARN
    assert "1 coin 1 and 0 coin 2 error(s)" in finding.detail
    assert "input test" in (finding.fix or "")


def test_doctor_fails_money_counts_that_disagree_and_the_keeper_reports_them(
    tmp_path: Path,
) -> None:
    """A coin's units with no credit or hold to account for them: the counts break the
    ledger's invariant, are kept as stored, and both doctor and the screen say so."""
    from cabinet.commands.doctor import check_money
    from cabinet.money.keeper import MoneyKeeper
    from cabinet.storage.store import CabinetStore

    store = CabinetStore.open(tmp_path)
    store.commit_money({"coins1": 1, "units_in": 2, "meter_owed": 2})
    store.close()
    finding = check_money(tmp_path)
    assert finding.severity is Severity.FAIL
    assert "money counts disagree (coin units in (2) != converted" in finding.detail
    store = CabinetStore.open(tmp_path)
    keeper = MoneyKeeper(store)
    assert keeper.ledger.units_in == 2  # kept as stored, never put right by guessing
    assert [p.subject for p in store.problems] == ["money counts"]
    store.close()


def test_doctor_says_a_coin_line_held_low(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from cabinet.inputs.controls import COIN1
    from cabinet.inputs.mock import MockInput

    opened = MockInput.open

    def open_with_coin_held(self: MockInput) -> None:
        self.hold_at_power_on(COIN1)  # a jammed coin, or a mechanism set to NC
        opened(self)

    monkeypatch.setattr(MockInput, "open", open_with_coin_held)
    status = main(["doctor", "--input", "mock", "--data-dir", str(tmp_path), "--lights", "none"])
    out = capsys.readouterr().out
    assert "[FAIL] coins: the coin1 line is held low" in out
    assert "set the mechanism to NO" in out
    assert "buttons: all 14 controls answered" in out  # coin 1 could not pulse
    assert status == 1
