"""The cabinet's stored data: settings, audits (bookkeeping) and the last games' records,
in one SQLite database. See ``docs/storage.md``.

Start with :class:`~cabinet.storage.store.CabinetStore`; the setting declarations are in
:mod:`cabinet.storage.setting_table`.

>>> import tempfile
>>> from pathlib import Path
>>> from cabinet.storage import CabinetStore
>>> from cabinet.storage.setting_table import VOLUME
>>> with tempfile.TemporaryDirectory() as folder:
...     store = CabinetStore.open(Path(folder))
...     volume = store.settings.get(VOLUME)
...     store.close()
>>> volume == VOLUME.default
True

The names below are re-exported lazily: each is imported from its submodule the first
time it is asked for, so that importing one light submodule (``cabinet.storage.paths``,
say) does not bring in the database and ``sqlite3`` with it (``spit-cabinet replay`` and
``simulate`` start without them; ``bench/cli_start.py``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cabinet.storage.audits import (
        AuditGroup,
        Audits,
        ButtonCounts,
        GameCounts,
        GroupAudit,
        HardwareCounts,
        PlayCounts,
        PowerCounts,
        Seat,
    )
    from cabinet.storage.paths import add_data_dir_option, data_dir, database_path
    from cabinet.storage.problems import (
        DatabaseBusyError,
        ProblemKind,
        StorageError,
        StorageProblem,
    )
    from cabinet.storage.records import GameListing, RecordStore
    from cabinet.storage.setting_types import (
        Setting,
        SettingError,
        SettingGroup,
        SettingValueError,
        UnknownSettingError,
    )
    from cabinet.storage.settings import Settings
    from cabinet.storage.store import CabinetStore

#: Each re-exported name, and the submodule it comes from.
_EXPORTS: dict[str, str] = {
    "AuditGroup": "audits",
    "Audits": "audits",
    "ButtonCounts": "audits",
    "CabinetStore": "store",
    "DatabaseBusyError": "problems",
    "GameCounts": "audits",
    "GameListing": "records",
    "GroupAudit": "audits",
    "HardwareCounts": "audits",
    "PlayCounts": "audits",
    "PowerCounts": "audits",
    "ProblemKind": "problems",
    "RecordStore": "records",
    "Seat": "audits",
    "Setting": "setting_types",
    "SettingError": "setting_types",
    "SettingGroup": "setting_types",
    "SettingValueError": "setting_types",
    "Settings": "settings",
    "StorageError": "problems",
    "StorageProblem": "problems",
    "UnknownSettingError": "setting_types",
    "add_data_dir_option": "paths",
    "data_dir": "paths",
    "database_path": "paths",
}

__all__ = [
    "AuditGroup",
    "Audits",
    "ButtonCounts",
    "CabinetStore",
    "DatabaseBusyError",
    "GameCounts",
    "GameListing",
    "GroupAudit",
    "HardwareCounts",
    "PlayCounts",
    "PowerCounts",
    "ProblemKind",
    "RecordStore",
    "Seat",
    "Setting",
    "SettingError",
    "SettingGroup",
    "SettingValueError",
    "Settings",
    "StorageError",
    "StorageProblem",
    "UnknownSettingError",
    "add_data_dir_option",
    "data_dir",
    "database_path",
]


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its submodule on first use (then kept here)."""
    submodule = _EXPORTS.get(name)
    if submodule is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{submodule}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
