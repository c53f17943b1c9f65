"""The store's transactions that write the settings: leaving the service menu, saving
them, importing a settings file (or the fleet's settings document) and the factory reset.
Each prunes the stored games beyond the ``records_kept`` setting in the same transaction.

Use them on :class:`~cabinet.storage.store.CabinetStore`.
"""

from __future__ import annotations

import copy
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any

from cabinet.storage import reports
from cabinet.storage.audits import write_audits
from cabinet.storage.outbox import Kind
from cabinet.storage.records import prune_games
from cabinet.storage.setting_table import RECORDS_KEPT
from cabinet.storage.settings import write_settings
from cabinet.storage.settings_file import read_text
from cabinet.storage.store_state import StoreState


class SettingsTransactions(StoreState):
    """The settings' transactions over the store's database."""

    def save(self, now_ns: int | None = None) -> None:
        """Leaving the menu: settings and audits (and uptime) in one transaction."""
        before = copy.deepcopy(self.audits)
        try:
            self._count_uptime(now_ns)
            with self.db.transaction() as conn:
                write_settings(conn, self.settings)
                prune_games(conn, self.settings.get(RECORDS_KEPT))
                write_audits(conn, self.audits)
                self._report_audits(conn)
        except BaseException:
            self.audits = before
            raise
        self._reload_fame()  # its size may have changed

    def save_settings(self) -> None:
        """Write the settings in one transaction (and prune games beyond ``records_kept``)."""
        with self.db.transaction() as conn:
            write_settings(conn, self.settings)
            prune_games(conn, self.settings.get(RECORDS_KEPT))

    def import_settings(
        self,
        text: str,
        *,
        vet: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        also: Callable[[sqlite3.Connection], None] | None = None,
        report: Mapping[str, Any] | None = None,
    ) -> tuple[dict[str, Any], list[str]]:
        """Import a settings file's ``text`` (``settings import``, and the fleet's settings
        documents): checked whole (:func:`~cabinet.storage.settings_file.read_text`), then
        ``vet`` (it may drop values, or refuse with a
        :class:`~cabinet.storage.settings_file.SettingsFileError`), then saved in one
        transaction with ``also`` and the ``settings`` event ``report`` (when in a fleet).
        Returns the values imported and the names of the settings it changed. Raises
        ``SettingsFileError`` or :class:`~cabinet.storage.problems.StorageError`, and then
        changes nothing."""
        values = read_text(text)
        if vet is not None:
            values = vet(values)
        saved = self.settings.copy()
        before = saved.as_plain()
        self.settings.update(values)
        try:
            with self.db.transaction() as conn:
                write_settings(conn, self.settings)
                prune_games(conn, self.settings.get(RECORDS_KEPT))
                if also is not None:
                    also(conn)
                if report is not None and reports.joined(conn):
                    reports.event(conn, Kind.SETTINGS, report, self._wall_clock(), self._synced())
        except BaseException:
            self.settings = saved
            raise
        after = self.settings.as_plain()
        return values, [name for name in after if after[name] != before[name]]

    def factory_reset(self) -> None:
        """Every setting back to its default, saved. Audits, lifetime totals and the
        stored games are not touched."""
        self.settings.reset()
        self.save_settings()
