"""What :class:`~cabinet.storage.store.CabinetStore` holds over its open database: the
settings, audits, hall of fame, money counts and missing-switch counts it loaded, and the
steps its transactions share (the uptime meter, the audits written whole or not at all,
the audits reported to the fleet).

A store's transactions are in :mod:`cabinet.storage.store` and, for the settings,
:mod:`cabinet.storage.settings_transactions`; use :class:`~cabinet.storage.store.CabinetStore`.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
from collections.abc import Callable, Sequence

from cabinet.halloffame.board import FameBoard
from cabinet.storage import audits as audit_rows
from cabinet.storage import fame, outbox, reports
from cabinet.storage import money as money_rows
from cabinet.storage.audits import Audits, load_audits, write_audits
from cabinet.storage.database import Database, WallClock, utc_now
from cabinet.storage.files import copy_aside
from cabinet.storage.money import load_money
from cabinet.storage.outbox import clock_synced
from cabinet.storage.problems import ProblemKind, StorageError, StorageProblem
from cabinet.storage.records import RecordStore
from cabinet.storage.setting_table import HALL_OF_FAME_SIZE
from cabinet.storage.settings import Settings, load_settings, write_settings
from game.units import MS

log = logging.getLogger("cabinet.storage")


class StoreState:
    """Settings, audits and match records loaded from one open database."""

    def __init__(
        self,
        db: Database,
        *,
        wall_clock: WallClock = utc_now,
        problems: Sequence[StorageProblem] = (),
        synced: Callable[[], bool] = clock_synced,
    ) -> None:
        self.db = db
        self._wall_clock = wall_clock
        self._synced = synced
        settings, setting_problems = load_settings(db)
        self.settings: Settings = settings
        """The current settings; change them here, then :meth:`save` or
        :meth:`save_settings`."""
        audits, audit_problems = load_audits(db, wall_clock)
        self.audits: Audits = audits
        """The counters, as last saved plus what was counted since."""
        self.records = RecordStore(db)
        """The last games (read only; :meth:`record_game` adds)."""
        board, fame_problems = fame.load_board(db, settings.get(HALL_OF_FAME_SIZE))
        self.fame: FameBoard = board
        """The hall of fame as last committed."""
        money, money_problems = load_money(db)
        self.money: dict[str, int] = money
        """The money counts as last committed, by name (:meth:`commit_money` replaces
        them; :class:`cabinet.money.ledger.Ledger` says what they mean)."""
        self.problems: list[StorageProblem] = [
            *problems,
            *setting_problems,
            *audit_problems,
            *money_problems,
            *fame_problems,
        ]
        """What went wrong opening the data, for the screen; already logged."""
        self.unread = bool(audit_problems or money_problems) or any(
            p.kind is ProblemKind.SETTING_REPLACED for p in setting_problems
        )
        """Whether the database holds rows that could not be read and that the store's
        writes would replace (settings, audits, money counts): :meth:`replace_unread`
        does, keeping a copy first."""
        self.silence: dict[str, int] = reports.silence(db.connection)
        """Each button's count of games silent while its neighbours were pressed
        (:mod:`cabinet.inputs.missing_switch`), as last committed."""
        self._uptime_mark_ns: int | None = None

    def replace_unread(self) -> StorageProblem:
        """Keep a copy of the database file, then replace in it what could not be read with
        what the store uses (a setting's default, a count of 0, a group started now), in
        one transaction, so that nothing is changed in place without a copy kept. Returns
        the problem that says where the copy is; raises
        :class:`~cabinet.storage.problems.StorageError` (nothing changed) when no copy can
        be kept or nothing written."""
        path = self.db.path
        if path is None:
            raise StorageError("the database is in memory: nothing to replace")
        try:
            copy = copy_aside(self.db.connection, path, self._wall_clock())
        except OSError as exc:
            raise StorageError(f"no copy of it can be kept ({exc.strerror or exc})") from exc
        try:
            with self.db.transaction() as conn:
                write_settings(conn, self.settings)
                audit_rows.delete_unreadable(conn)
                write_audits(conn, self.audits)
                money_rows.delete_unreadable(conn)
        except StorageError as exc:
            raise StorageError(f"{exc} (a copy of it is kept at {copy.name})") from exc
        self.unread = False
        problem = StorageProblem(
            ProblemKind.DATABASE_COPIED,
            f"what the database {path.name} held that could not be read was replaced, as "
            f"said; a copy of it as it was is kept at {copy.name}",
            subject=path.name,
            copy=copy,
        )
        log.warning("%s", problem.message)
        return problem

    # -- what the transactions share ---------------------------------------------------

    def _count_uptime(self, now_ns: int | None) -> None:
        if now_ns is None or self._uptime_mark_ns is None:
            return
        elapsed_ms = max(0, now_ns - self._uptime_mark_ns) // MS
        self._uptime_mark_ns += elapsed_ms * MS
        if elapsed_ms:
            self.audits.count_uptime(elapsed_ms)

    def _write_audits(self, change: Callable[[], object]) -> None:
        before = copy.deepcopy(self.audits)
        try:
            change()
            with self.db.transaction() as conn:
                write_audits(conn, self.audits)
                self._report_audits(conn)
        except BaseException:
            self.audits = before
            raise

    def _report_audits(self, conn: sqlite3.Connection) -> None:
        if reports.joined(conn):
            outbox.add_audits(conn, self._wall_clock(), self._synced())

    def _reload_fame(self) -> None:
        self.fame, _ = fame.load_board(self.db, self.settings.get(HALL_OF_FAME_SIZE))
