"""``cabinet.storage`` re-exports its main names lazily: each resolves to its submodule's
object on first use, and importing a light submodule brings in no database."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import cabinet.storage as storage

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", storage.__all__)
def test_every_name_is_its_submodules(name: str) -> None:
    submodule = importlib.import_module(f"cabinet.storage.{storage._EXPORTS[name]}")
    assert getattr(storage, name) is getattr(submodule, name)
    assert name in dir(storage)


def test_the_names_are_the_exports() -> None:
    assert sorted(storage.__all__) == sorted(storage._EXPORTS)


def test_star_import_and_submodule_imports_still_work() -> None:
    names: dict[str, object] = {}
    exec("from cabinet.storage import *", names)
    assert names["CabinetStore"] is importlib.import_module("cabinet.storage.store").CabinetStore
    from cabinet.storage import setting_table

    assert setting_table.__name__ == "cabinet.storage.setting_table"


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nothing'"):
        _ = storage.Nothing


def test_a_light_submodule_brings_in_no_database() -> None:
    code = "import sys, cabinet.storage.paths; print('sqlite3' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "False"
