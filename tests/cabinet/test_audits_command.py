"""``spit-cabinet audits``: the books as the service menu shows them, as text, JSON and
CSV, read without changing the database."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cabinet.commands.cli import main
from cabinet.inputs.controls import COIN1
from cabinet.inputs.debounce import OperatorEdge
from cabinet.money.keeper import MoneyKeeper
from cabinet.storage.paths import database_path
from cabinet.storage.pricing_settings import FREE_PLAY
from cabinet.storage.setting_table import LANGUAGE
from cabinet.storage.store import CabinetStore
from tests.cabinet.storage.conftest import cpu_game

T = 10**12


@pytest.fixture
def books(tmp_path: Path) -> Path:
    """A cabinet's data: two CPU games recorded and one coin taken."""
    store = CabinetStore.open(tmp_path)
    store.settings.set(FREE_PLAY, False)
    store.save_settings()
    for seed in (1, 2):
        game = cpu_game(seed)
        store.record_game(game.record, game.summary)
    MoneyKeeper(store).take(
        [OperatorEdge(COIN1, True, T), OperatorEdge(COIN1, False, T + 60_000_000)]
    )
    store.close()
    return tmp_path


def audits(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["audits", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_the_text_is_the_service_menus_pages(
    books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = database_path(books).read_bytes()
    status, out, err = audits(capsys, "--data-dir", str(books))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Games" and "Money" in lines
    row = next(line for line in lines if line.strip().startswith("Games against the CPU"))
    assert row.split()[-3:] == ["2", "·", "2"]
    coin = next(line for line in lines if line.strip().startswith("Coin 1"))
    assert coin.split()[-3:] == ["1", "·", "1"]
    assert database_path(books).read_bytes() == before  # read, nothing changed


def test_the_text_speaks_the_cabinets_language(
    books: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = CabinetStore.open(books)
    store.settings.set(LANGUAGE, "it")
    store.save_settings()
    store.close()
    status, out, _ = audits(capsys, "--data-dir", str(books))
    assert status == 0 and out.splitlines()[0] == "Partite"


def test_json_and_csv_give_every_counter(books: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = audits(capsys, "--data-dir", str(books), "--json")
    data = json.loads(out)
    assert status == 0 and list(data) == ["games", "play", "hardware", "power", "money"]
    assert data["games"]["current"]["vs_cpu"] == data["games"]["lifetime"]["vs_cpu"] == 2
    assert data["money"]["current"]["coins1"] == 1
    assert data["hardware"]["lifetime"]["stuck.p1.slot1"] == 0
    store = CabinetStore.open(books)
    assert data["play"]["lifetime"]["plays"] == store.audits.play.lifetime.plays > 0
    store.close()
    status, out, _ = audits(capsys, "--data-dir", str(books), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and rows[0].keys() == {"group", "counter", "current", "lifetime"}
    for row in rows:
        group = data[row["group"]]
        assert int(row["current"]) == group["current"][row["counter"]]
        assert int(row["lifetime"]) == group["lifetime"][row["counter"]]
    assert len(rows) == sum(len(g["current"]) for g in data.values())


def test_a_cabinet_with_no_database_yet_has_empty_books(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = audits(capsys, "--data-dir", str(tmp_path), "--json")
    assert status == 0 and json.loads(out)["games"]["current"]["vs_cpu"] == 0
    assert not database_path(tmp_path).exists()  # reading made none


def test_an_unreadable_database_is_one_line(tmp_path: Path) -> None:
    database_path(tmp_path).write_bytes(b"not a database" * 100)
    done = subprocess.run(
        [sys.executable, "-m", "cabinet", "audits", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("audits: ") and done.stderr.count("\n") == 1, done.stderr
