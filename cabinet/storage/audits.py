"""Bookkeeping: the cabinet's counters, as typed values, and their storage.

The counters are in five groups (:class:`AuditGroup`; their fields in
:mod:`cabinet.storage.audit_counts`). Each group is kept twice: the
*current* counts, which the operator may clear (the group then remembers when,
:attr:`GroupAudit.cleared_at`), and the *lifetime* totals, which nothing clears (not a
clear, not a factory reset). Every count goes to both.

A finished or abandoned game is counted by :meth:`Audits.count_game` from its summary
(:class:`game.summary.GameSummary`, from :meth:`game.live_match.LiveMatch.summary`) and
who sat where (:class:`game.summary.Seat`, re-exported here);
:meth:`cabinet.storage.store.CabinetStore.record_game` does that and stores the game's
record in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, Generic

from cabinet.inputs.controls import ALL_CONTROLS, Control
from cabinet.storage.audit_counts import COUNT_TYPES, C, Counts
from cabinet.storage.audit_counts import RACE_BUCKETS_MS as RACE_BUCKETS_MS
from cabinet.storage.audit_counts import AuditGroup as AuditGroup
from cabinet.storage.audit_counts import ButtonCounts as ButtonCounts
from cabinet.storage.audit_counts import GameCounts as GameCounts
from cabinet.storage.audit_counts import HardwareCounts as HardwareCounts
from cabinet.storage.audit_counts import MoneyCounts as MoneyCounts
from cabinet.storage.audit_counts import PlayCounts as PlayCounts
from cabinet.storage.audit_counts import PowerCounts as PowerCounts
from cabinet.storage.database import Database, WallClock
from cabinet.storage.problems import ProblemKind, StorageProblem
from game.events import Termination
from game.summary import GameSummary
from game.summary import Seat as Seat  # re-exported: cabinet.storage.Seat
from game.units import MS

log = logging.getLogger("cabinet.storage")


class GameNotOverError(ValueError):
    """A game summary was counted before the game ended (no termination)."""


class SeatsError(ValueError):
    """The seats of a game are not two of ``human``/``cpu``."""


@dataclass(slots=True)
class GroupAudit(Generic[C]):
    """One group's counters: since :attr:`cleared_at`, and for the cabinet's lifetime."""

    current: C
    lifetime: C
    cleared_at: datetime
    """When :attr:`current` last started from zero (first power-on, or the last clear)."""


class Audits:
    """All the cabinet's counters. Change them through the ``count_*`` methods, which
    count in both the current and the lifetime totals; the storage writes them in the
    next transaction (game end, menu exit, :meth:`CabinetStore.save_audits`)."""

    def __init__(self, created_at: datetime) -> None:
        self.games: GroupAudit[GameCounts] = GroupAudit(GameCounts(), GameCounts(), created_at)
        self.play: GroupAudit[PlayCounts] = GroupAudit(PlayCounts(), PlayCounts(), created_at)
        self.hardware: GroupAudit[HardwareCounts] = GroupAudit(
            HardwareCounts(), HardwareCounts(), created_at
        )
        self.power: GroupAudit[PowerCounts] = GroupAudit(PowerCounts(), PowerCounts(), created_at)
        self.money: GroupAudit[MoneyCounts] = GroupAudit(MoneyCounts(), MoneyCounts(), created_at)

    def group(self, group: AuditGroup) -> GroupAudit[Any]:
        audit: GroupAudit[Any] = getattr(self, group.value)
        return audit

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Audits):
            return NotImplemented
        return all(
            flat_counts(self.group(g).current) == flat_counts(other.group(g).current)
            and flat_counts(self.group(g).lifetime) == flat_counts(other.group(g).lifetime)
            and self.group(g).cleared_at == other.group(g).cleared_at
            for g in AuditGroup
        )

    # -- counting --------------------------------------------------------------------

    def count_game(self, summary: GameSummary, seats: Sequence[Seat]) -> None:
        """Count one ended game (won, drawn, blocked or abandoned) from its summary and
        who sat in seats 1 and 2."""
        termination = summary.termination
        if termination is None:
            raise GameNotOverError("a game is counted once it has ended; it has not")
        seats = check_seats(seats)
        games = GameCounts()
        if termination is Termination.ABANDONED:
            games.abandoned = 1
        else:
            if Seat.CPU in seats:
                games.vs_cpu = 1
            else:
                games.two_player = 1
            winner = summary.winner
            if summary.draw or winner is None:
                games.draws = 1
            elif seats[winner] is Seat.CPU:
                games.cpu_wins = 1
            elif winner == 0:
                games.p1_wins = 1
            else:
                games.p2_wins = 1
            end_ns = summary.end_t_ns or 0
            games.game_time_ms = games.longest_game_ms = end_ns // MS
        play = PlayCounts(
            plays=sum(summary.plays),
            spits=summary.spits,
            ties=summary.ties,
            late_edges=summary.late_edges,
        )
        for margin in summary.race_margins_ns:
            play.count_race(margin)
        self._add(AuditGroup.GAMES, games)
        self._add(AuditGroup.PLAY, play)

    def count_stuck(self, control: Control, n: int = 1) -> None:
        """A button was reported stuck ``n`` times."""
        for counts in (self.hardware.current, self.hardware.lifetime):
            counts.stuck.add(control, n)

    def count_chatter(self, control: Control, n: int = 1) -> None:
        """``n`` bounce edges were seen on a button."""
        for counts in (self.hardware.current, self.hardware.lifetime):
            counts.chatter.add(control, n)

    def count_link_drop(self, n: int = 1) -> None:
        """The light link was lost ``n`` times."""
        self._add(AuditGroup.HARDWARE, HardwareCounts(led_link_drops=n))

    def count_table_restart(self) -> None:
        """The table process died and was started again."""
        self._add(AuditGroup.HARDWARE, HardwareCounts(table_restarts=1))

    def count_power_on(self) -> None:
        self._add(AuditGroup.POWER, PowerCounts(power_ons=1))

    def count_rollbacks(self, logged: int) -> int:
        """The updater has logged ``logged`` rollbacks in all; count those not counted
        yet (the lifetime total is the number already counted). Returns how many."""
        new = max(0, logged - self.power.lifetime.rollbacks)
        if new:
            self._add(AuditGroup.POWER, PowerCounts(rollbacks=new))
        return new

    def count_uptime(self, elapsed_ms: int) -> None:
        """The program ran ``elapsed_ms`` more milliseconds."""
        if elapsed_ms < 0:
            raise ValueError(f"uptime only grows; got {elapsed_ms} ms")
        self._add(AuditGroup.POWER, PowerCounts(uptime_ms=elapsed_ms))

    def count_money(self, delta: MoneyCounts) -> None:
        """Count a coin, a credit, a game's price or a coin error (``delta`` holds the
        changes: ``MoneyCounts(coins1=1, coin_units=2, ...)``)."""
        self._add(AuditGroup.MONEY, delta)

    def clear(self, group: AuditGroup, at: datetime) -> None:
        """Zero a group's current counters (its lifetime totals stay); ``at`` is now."""
        audit = self.group(group)
        audit.current = COUNT_TYPES[group]()
        audit.cleared_at = at

    def _add(self, group: AuditGroup, delta: Counts) -> None:
        audit = self.group(group)
        changes = flat_counts(delta)
        for counts in (audit.current, audit.lifetime):
            values = flat_counts(counts)
            for name, n in changes.items():
                values[name] = max(values[name], n) if name in _MAXED else values[name] + n
            _assign(counts, values)


def check_seats(seats: Sequence[Seat | str]) -> tuple[Seat, Seat]:
    """Two seats as :class:`Seat` (``"human"``/``"cpu"`` accepted, as in a record's
    ``meta.players``)."""
    if isinstance(seats, str) or len(seats) != 2:
        raise SeatsError(f"a game has two seats, human or cpu; got {seats!r}")
    try:
        first, second = (Seat(s) if isinstance(s, str) else s for s in seats)
    except ValueError:
        raise SeatsError(f"each seat is 'human' or 'cpu'; got {list(seats)!r}") from None
    if not isinstance(first, Seat) or not isinstance(second, Seat):
        raise SeatsError(f"each seat is 'human' or 'cpu'; got {list(seats)!r}")
    return first, second


# -- flat names, for the database -------------------------------------------------------

_MAXED = {
    f.name for t in COUNT_TYPES.values() for f in fields(t) if f.metadata.get("merge") == "max"
}


def flat_counts(counts: Counts) -> dict[str, int]:
    """``{counter name: value}``; per-button counters as ``stuck.p1.slot1``."""
    out: dict[str, int] = {}
    for f in fields(counts):
        value = getattr(counts, f.name)
        if isinstance(value, ButtonCounts):
            for control, n in value.items():
                out[f"{f.name}.{control.name}"] = n
        else:
            out[f.name] = value
    return out


def _assign(counts: Counts, values: Mapping[str, int]) -> None:
    for f in fields(counts):
        value = getattr(counts, f.name)
        if isinstance(value, ButtonCounts):
            for control in ALL_CONTROLS:
                key = f"{f.name}.{control.name}"
                if key in values:
                    value._counts[control] = values[key]
        elif f.name in values:
            setattr(counts, f.name, values[f.name])


def load_audits(db: Database, wall_clock: WallClock) -> tuple[Audits, list[StorageProblem]]:
    """Read the counters; a database without them yet starts them now (``wall_clock``)
    and writes the groups' start times. Counters this program does not know are ignored.
    A row that cannot be read (a garbled time or count) is reported, and its group starts
    again now, or its counter at 0: every other row is kept. Such a row is not written
    here: the store keeps a copy of the database before it replaces one."""
    audits = Audits(wall_clock())
    problems: list[StorageProblem] = []
    stored: dict[str, datetime] = {}
    present: set[object] = set()
    for name, text in db.connection.execute("SELECT name, cleared_at FROM audit_groups"):
        present.add(name)
        cleared_at = _cleared_at(text)
        if cleared_at is None:
            problems.append(_unreadable(f"audit group {name!s:.40}'s last-cleared time"))
            continue
        stored[str(name)] = cleared_at
    missing = [g for g in AuditGroup if g.value not in present]
    if missing and not db.in_memory:
        with db.transaction() as conn:
            for g in missing:
                conn.execute(
                    "INSERT OR REPLACE INTO audit_groups (name, cleared_at) VALUES (?, ?)",
                    (g.value, audits.group(g).cleared_at.isoformat()),
                )
    rows: dict[str, tuple[int, int]] = {}
    for name, current, lifetime in db.connection.execute(
        "SELECT name, current, lifetime FROM audit_counters"
    ):
        if not (_counted(current) and _counted(lifetime)):
            problems.append(_unreadable(f"audit counter {name!s:.40}"))
        rows[str(name)] = (_int(current), _int(lifetime))
    for g in AuditGroup:
        audit = audits.group(g)
        if g.value in stored:
            audit.cleared_at = stored[g.value]
        prefix = g.value + "."
        current = {k[len(prefix) :]: v[0] for k, v in rows.items() if k.startswith(prefix)}
        lifetime = {k[len(prefix) :]: v[1] for k, v in rows.items() if k.startswith(prefix)}
        _assign(audit.current, current)
        _assign(audit.lifetime, lifetime)
    for problem in problems:
        log.warning("%s", problem.message)
    return audits, problems


def _cleared_at(text: object) -> datetime | None:
    """A group's stored last-cleared time, or ``None`` when it cannot be read."""
    if not isinstance(text, str):
        return None
    try:
        cleared_at = datetime.fromisoformat(text)
    except ValueError:
        return None
    return cleared_at if cleared_at.tzinfo is not None else None


def _unreadable(what: str) -> StorageProblem:
    return StorageProblem(
        ProblemKind.UNREADABLE_DATA,
        f"the database's {what} cannot be read; it starts again from now (or 0)",
        subject=what,
    )


def _counted(value: object) -> bool:
    return isinstance(value, int) and value >= 0


def _int(value: object) -> int:
    return value if isinstance(value, int) and value >= 0 else 0


def delete_unreadable(conn: Any) -> None:
    """Delete the rows :func:`load_audits` could not read (a count that is not a whole
    number from 0, a time that is not one); call inside a transaction, then
    :func:`write_audits` writes the known ones back as they were read."""
    conn.execute(
        "DELETE FROM audit_counters WHERE NOT (typeof(current) = 'integer' AND current >= 0 "
        "AND typeof(lifetime) = 'integer' AND lifetime >= 0)"
    )
    for name, text in list(conn.execute("SELECT name, cleared_at FROM audit_groups")):
        if _cleared_at(text) is None:
            conn.execute("DELETE FROM audit_groups WHERE name = ?", (name,))


def write_audits(conn: Any, audits: Audits) -> None:
    """Write every counter and group start time; call inside a transaction."""
    for g in AuditGroup:
        audit = audits.group(g)
        conn.execute(
            "INSERT INTO audit_groups (name, cleared_at) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET cleared_at = excluded.cleared_at",
            (g.value, audit.cleared_at.isoformat()),
        )
        current = flat_counts(audit.current)
        lifetime = flat_counts(audit.lifetime)
        conn.executemany(
            "INSERT INTO audit_counters (name, current, lifetime) VALUES (?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET current = excluded.current, "
            "lifetime = excluded.lifetime",
            [(f"{g.value}.{name}", current[name], lifetime[name]) for name in current],
        )
