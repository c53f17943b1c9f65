"""The cabinet's stored data: settings, audits (bookkeeping) and the last games' records,
in one SQLite database. See ``docs/storage.md``.

Start with :class:`~cabinet.storage.store.CabinetStore`; the setting declarations are in
:mod:`cabinet.storage.setting_table`.
"""

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
