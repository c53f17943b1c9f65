"""The cabinet's stored data in one place: settings, audits and the last games.

The main loop and the service menu use one :class:`CabinetStore`, from one thread::

    store = CabinetStore.open(data_dir(args.data_dir))   # never fails on bad data
    for problem in store.problems: ...                   # show them, they are logged
    store.power_on(time.monotonic_ns())
    rules = store.settings.rules()
    ...
    store.record_game(match.record(), match.summary(), now_ns=time.monotonic_ns())
    ...
    store.settings.set(VOLUME, 60)                       # in the menu, checked at once
    store.save(now_ns=time.monotonic_ns())               # leaving the menu

Each of :meth:`record_game`, :meth:`commit_money`, :meth:`save`, :meth:`save_settings`,
:meth:`factory_reset`, :meth:`clear_audits` and :meth:`power_on` is one transaction: after
it returns, what it wrote survives a crash or a power cut, and a cut during it leaves none
of it. What the store loaded, and the steps its transactions share, are in
:mod:`cabinet.storage.store_state`; the settings' transactions in
:mod:`cabinet.storage.settings_transactions`.
"""

from __future__ import annotations

import copy
import logging
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cabinet.halloffame.board import Candidate, Category
from cabinet.halloffame.places import StoredPlace
from cabinet.inputs.missing_switch import missing
from cabinet.storage import fame, reports
from cabinet.storage.audits import AuditGroup, MoneyCounts, check_seats, flat_counts, write_audits
from cabinet.storage.database import BUSY_TIMEOUT_S, Access, WallClock, utc_now
from cabinet.storage.fallbacks import read_into_memory, set_aside
from cabinet.storage.money import write_money
from cabinet.storage.opening import open_database
from cabinet.storage.outbox import Kind, clock_synced
from cabinet.storage.paths import database_path
from cabinet.storage.problems import StorageError
from cabinet.storage.records import insert_game
from cabinet.storage.setting_table import MISSING_SWITCH_GAMES, RECORDS_KEPT
from cabinet.storage.settings_transactions import SettingsTransactions
from game.record import MatchRecord
from game.summary import GameSummary, Seat

log = logging.getLogger("cabinet.storage")


class CabinetStore(SettingsTransactions):
    """Settings, audits and match records over one open database."""

    @classmethod
    def open(
        cls,
        directory: Path,
        *,
        access: Access = Access.RUN,
        wall_clock: WallClock = utc_now,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        synced: Callable[[], bool] = clock_synced,
    ) -> CabinetStore:
        """Open the data directory's database (created if absent). For the cabinet
        (``RUN``, the default) this never fails: what it cannot use is set aside or read
        into memory and reported in :attr:`problems`. Commands that write (``WRITE``) or
        only read (``READ``) get a :class:`~cabinet.storage.problems.StorageError` instead
        (:class:`~cabinet.storage.database.Access`). ``synced`` says whether the wall clock
        is synchronised (the fleet is told with each event)."""
        path = database_path(directory)
        db, problems = open_database(
            path, access=access, wall_clock=wall_clock, busy_timeout_s=busy_timeout_s
        )
        try:
            store = cls(db, wall_clock=wall_clock, problems=problems, synced=synced)
        except (sqlite3.DatabaseError, ValueError, TypeError, RecursionError) as exc:
            # Rows it cannot read even one by one: the file is damaged past that.
            db.close()
            reason = f"holding data the cabinet cannot read ({exc})"
            if access is not Access.RUN or db.in_memory:
                raise StorageError(f"{path} is {reason}") from exc
            db, more = set_aside(path, reason, wall_clock=wall_clock, busy_timeout_s=busy_timeout_s)
            return cls(db, wall_clock=wall_clock, problems=[*problems, *more], synced=synced)
        if store.unread and not db.in_memory:
            # Rows it could not read, which its writes would replace: a copy first.
            try:
                store.problems.append(store.replace_unread())
            except StorageError as exc:
                db.close()
                why = f"{path.name} holds data the cabinet cannot read, and {exc}"
                if access is not Access.RUN:
                    raise StorageError(f"{path}: {why}: nothing was changed") from exc
                db, more = read_into_memory(path, why, busy_timeout_s=busy_timeout_s)
                return cls(db, wall_clock=wall_clock, problems=[*problems, *more], synced=synced)
        return store

    @property
    def saving(self) -> bool:
        """Whether what is written is kept (not in memory)."""
        return not self.db.in_memory

    @property
    def path(self) -> Path | None:
        """The database file, or ``None`` when running in memory (nothing is kept)."""
        return self.db.path

    # -- the main loop ---------------------------------------------------------------

    def power_on(self, now_ns: int, *, rollbacks_logged: int = 0) -> None:
        """Count a power-on, and the updater's rollbacks not counted yet (it has logged
        ``rollbacks_logged`` in all), and start the uptime meter at ``now_ns`` (monotonic
        ns)."""
        self._uptime_mark_ns = now_ns

        def count() -> None:
            self.audits.count_power_on()
            self.audits.count_rollbacks(rollbacks_logged)

        self._write_audits(count)

    def record_game(
        self,
        record: MatchRecord,
        summary: GameSummary,
        seats: Sequence[Seat | str] | None = None,
        *,
        now_ns: int | None = None,
        places: Sequence[Candidate] = (),
    ) -> int:
        """Store one ended game (finished or abandoned) and count it in the audits, in one
        transaction; prunes the games beyond the ``records_kept`` setting in it too.

        ``summary`` is the game's (``LiveMatch.summary()``); ``seats`` who sat where, each
        a :class:`~game.summary.Seat` or its value, ``human``/``cpu`` (default: the record's
        ``meta.seats``, which :class:`~game.live_match.LiveMatch` fills). ``now_ns``
        (monotonic ns), when given, also saves the uptime since the last save.
        ``places``: the hall-of-fame places it set (each a candidate's category and
        figure), stored in the same transaction with blank initials
        (:meth:`fame_entries_of` finds them, :meth:`set_initials` fills them in).
        Returns the game's id.
        """
        if seats is None:
            seats = record.meta.seats or ()
        checked = check_seats(seats)
        before = copy.deepcopy(self.audits)
        try:
            self.audits.count_game(summary, checked)
            self._count_uptime(now_ns)
            with self.db.transaction() as conn:
                game_id, silence = self._write_game(conn, record, summary, checked, places)
        except BaseException:
            self.audits = before
            raise
        self.silence = silence
        if places:
            self._reload_fame()
        return game_id

    def _write_game(
        self,
        conn: sqlite3.Connection,
        record: MatchRecord,
        summary: GameSummary,
        seats: Sequence[Seat],
        places: Sequence[Candidate],
    ) -> tuple[int, dict[str, int]]:
        """What :meth:`record_game` writes, in order, in its transaction: the game (the
        oldest beyond ``records_kept`` pruned), the audits, the hall-of-fame places, the
        missing-switch counts and, in a fleet, their reports. Returns the game's id and
        the missing-switch counts now."""
        game_id = insert_game(
            conn,
            record,
            summary,
            seats,
            self._wall_clock(),
            self.settings.get(RECORDS_KEPT),
        )
        write_audits(conn, self.audits)
        entries = []
        if places:
            entries = fame.insert_entries(conn, places, self._wall_clock(), game_id, self.fame.size)
        at, synced, report = self._wall_clock(), self._synced(), reports.joined(conn)
        silence = reports.count_silence(
            conn,
            record,
            seats,
            self.settings.get(MISSING_SWITCH_GAMES),
            at,
            synced,
            report,
        )
        if report:
            reports.game(conn, game_id, summary, seats, at, synced)
            for entry_id in entries:
                reports.fame_entry(conn, entry_id, at, synced)
            self._report_audits(conn)
        return game_id, silence

    # -- the hall of fame --------------------------------------------------------------

    def fame_entries_of(self, game_id: int) -> list[StoredPlace]:
        """The entries game ``game_id`` set that are still kept, in the order they were
        stored."""
        rows = self.db.connection.execute(
            "SELECT id, category, figure FROM hall_of_fame WHERE game = ? ORDER BY id",
            (game_id,),
        )
        return [StoredPlace(int(i), Category(c), int(f)) for i, c, f in rows]

    def set_initials(self, entry_id: int, initials: str) -> None:
        """Fill in an entry's initials, in one transaction."""
        with self.db.transaction() as conn:
            fame.set_initials(conn, entry_id, initials)
            if reports.joined(conn):
                reports.fame_entry(conn, entry_id, self._wall_clock(), self._synced())
        self._reload_fame()

    def clear_fame(self, category: Category | None = None) -> None:
        """Clear one category of the hall of fame, or all of it, in one transaction."""
        with self.db.transaction() as conn:
            fame.clear(conn, category)
            if reports.joined(conn):
                cleared = "all" if category is None else category.value
                body = {"cleared": cleared}
                reports.event(conn, Kind.FAME, body, self._wall_clock(), self._synced())
        self._reload_fame()

    def commit_money(
        self,
        counts: Mapping[str, int],
        counted: MoneyCounts | None = None,
        *,
        fault: Mapping[str, object] | None = None,
    ) -> None:
        """Make ``counts`` the money counts and count ``counted`` in the audits, in one
        transaction: when it returns, both survive a power cut; when it raises, neither
        changed (in the file or here). ``fault``: a fault it came with (a coin line held
        low), for the fleet."""
        before = copy.deepcopy(self.audits)
        try:
            if counted is not None:
                self.audits.count_money(counted)
            with self.db.transaction() as conn:
                write_money(conn, counts)
                write_audits(conn, self.audits)
                if reports.joined(conn):
                    delta = {} if counted is None else flat_counts(counted)
                    reports.money(conn, counts, delta, self._wall_clock(), self._synced())
                    if fault is not None:
                        reports.event(conn, Kind.FAULT, fault, self._wall_clock(), self._synced())
                    self._report_audits(conn)
        except BaseException:
            self.audits = before
            raise
        self.money = dict(counts)

    def save_audits(self, now_ns: int | None = None) -> None:
        """Write the counters (hardware counts, uptime since the last save) now."""
        self._write_audits(lambda: self._count_uptime(now_ns))

    # -- the service menu ------------------------------------------------------------

    def clear_audits(self, group: AuditGroup) -> None:
        """Zero a group's current counters and note when (lifetime totals stay); saved."""
        self._write_audits(lambda: self.audits.clear(group, self._wall_clock()))

    @property
    def missing_switches(self) -> list[str]:
        """The buttons reported as missing switches (``p1.slot2``…): none pressed in
        ``missing_switch_games`` games while their neighbours were."""
        return missing(self.silence, self.settings.get(MISSING_SWITCH_GAMES))

    def report(
        self,
        kind: Kind,
        body: Mapping[str, Any],
        *,
        also: Callable[[sqlite3.Connection], None] | None = None,
    ) -> bool:
        """Queue an event for the fleet (health, a fault, the door, a settings document
        refused), in one transaction with ``also``; ``False`` when the cabinet is in no
        fleet (nothing queued)."""
        with self.db.transaction() as conn:
            if also is not None:
                also(conn)
            if not reports.joined(conn):
                return False
            reports.event(conn, kind, body, self._wall_clock(), self._synced())
        return True

    def close(self, now_ns: int | None = None) -> None:
        """Save the uptime (when ``now_ns`` is given) and close the database."""
        if now_ns is not None:
            self.save_audits(now_ns)
        self.db.close()
