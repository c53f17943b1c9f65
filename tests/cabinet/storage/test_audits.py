"""Audits counted from real simulated games, last-cleared and lifetime semantics."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cabinet.inputs.controls import TEST, Control
from cabinet.storage.audits import AuditGroup, GameNotOverError, Seat, SeatsError
from cabinet.storage.store import CabinetStore
from game.bots import level
from game.edges import Button
from game.events import Termination
from game.live_match import LiveMatch
from game.rules import Rules
from game.units import MS
from tests.cabinet.clocks import WallClock

from .conftest import cpu_game

SEEDS = range(12)
SEATINGS = [("human", "human"), ("human", "cpu"), ("cpu", "human"), ("cpu", "cpu")]


def _expected(seatings: list[tuple[str, str]]) -> dict[str, int]:
    """The audits worked out directly from the games' summaries."""
    out = dict.fromkeys(
        ["two_player", "vs_cpu", "p1", "p2", "cpu", "draws", "time", "longest", "plays"], 0
    )
    out.update(dict.fromkeys(["spits", "ties", "late", "r1", "r10", "r100", "rmore"], 0))
    for seed, seats in zip(SEEDS, seatings, strict=True):
        s = cpu_game(seed).summary
        out["two_player" if "cpu" not in seats else "vs_cpu"] += 1
        assert s.end_t_ns is not None
        if s.draw:
            out["draws"] += 1
        elif s.winner is not None and seats[s.winner] == "cpu":
            out["cpu"] += 1
        else:
            out["p1" if s.winner == 0 else "p2"] += 1
        out["time"] += s.end_t_ns // MS
        out["longest"] = max(out["longest"], s.end_t_ns // MS)
        out["plays"] += sum(s.plays)
        out["spits"] += s.spits
        out["ties"] += s.ties
        out["late"] += s.late_edges
        for m in s.race_margins_ns:
            key = "r1" if m < MS else "r10" if m < 10 * MS else "r100" if m < 100 * MS else "rmore"
            out[key] += 1
    return out


def test_audits_count_real_games(open_store: Callable[[], CabinetStore]) -> None:
    store = open_store()
    seatings = [SEATINGS[i % 4] for i in SEEDS]
    for seed, seats in zip(SEEDS, seatings, strict=True):
        game = cpu_game(seed)
        store.record_game(game.record, game.summary, seats)
    want = _expected(seatings)
    # The games did have races in several buckets, or this test would prove little.
    assert want["r10"] + want["r100"] > 0 and want["rmore"] > 0
    for audits in (store.audits, open_store().audits):  # in memory and after a reboot
        for counts in (audits.games.current, audits.games.lifetime):
            assert counts.two_player == want["two_player"]
            assert counts.vs_cpu == want["vs_cpu"]
            assert counts.abandoned == 0
            assert (counts.p1_wins, counts.p2_wins, counts.cpu_wins) == (
                want["p1"],
                want["p2"],
                want["cpu"],
            )
            assert counts.draws == want["draws"]
            assert counts.game_time_ms == want["time"]
            assert counts.longest_game_ms == want["longest"]
            assert counts.average_game_ms == want["time"] / len(SEEDS)
        for play in (audits.play.current, audits.play.lifetime):
            assert play.plays == want["plays"]
            assert play.spits == want["spits"]
            assert (play.ties, play.late_edges) == (want["ties"], want["late"])
            assert (
                play.races_under_1ms,
                play.races_under_10ms,
                play.races_under_100ms,
                play.races_100ms_or_more,
            ) == (want["r1"], want["r10"], want["r100"], want["rmore"])


def test_an_abandoned_live_game_is_counted_as_abandoned(store: CabinetStore) -> None:
    start = 10**12
    match = LiveMatch(Rules(), 7, (None, level(2)), start)
    match.advance(start + 20_000 * MS)  # twenty seconds of the CPU playing alone
    match.abandon(start + 20_000 * MS)
    summary = match.summary()
    assert summary.termination is Termination.ABANDONED
    game_id = store.record_game(match.record(), summary)  # seats from the record
    games = store.audits.games.current
    assert (games.abandoned, games.vs_cpu, games.two_player, games.cpu_wins) == (1, 0, 0, 0)
    assert games.game_time_ms == 0 and games.average_game_ms is None
    assert store.audits.play.current.plays == sum(summary.plays) > 0
    listing = store.records.listing(game_id)
    assert listing is not None and listing.seats == (Seat.HUMAN, Seat.CPU)
    assert listing.termination is Termination.ABANDONED and listing.winner is None


def test_a_running_game_is_refused(store: CabinetStore) -> None:
    match = LiveMatch(Rules(), 1, (None, None), 0)
    with pytest.raises(GameNotOverError):
        store.record_game(match.record(), match.summary())
    with pytest.raises(SeatsError):
        store.record_game(cpu_game(0).record, cpu_game(0).summary, ["human", "robot"])
    assert store.records.count() == 0 and store.audits.play.lifetime.plays == 0


def test_clearing_a_group_keeps_lifetime_totals_and_notes_when(
    open_store: Callable[[], CabinetStore], wall_clock: WallClock
) -> None:
    store = open_store()
    created = wall_clock.now
    for seed in (0, 1):
        store.record_game(cpu_game(seed).record, cpu_game(seed).summary)
    store.audits.count_chatter(Control(0, Button.SLOT1), 3)
    store.save_audits()
    cleared = wall_clock.advance(days=2)
    store.clear_audits(AuditGroup.GAMES)

    again = open_store()
    games = again.audits.games
    assert games.current.vs_cpu == 0 and games.current.longest_game_ms == 0
    assert games.lifetime.vs_cpu == 2 and games.lifetime.longest_game_ms > 0
    assert games.cleared_at == cleared
    # The other groups were not cleared.
    assert again.audits.play.cleared_at == created
    assert again.audits.play.current.plays == again.audits.play.lifetime.plays > 0
    assert again.audits.hardware.current.chatter[Control(0, Button.SLOT1)] == 3

    # Counting resumes in both; the factory reset clears neither.
    again.record_game(cpu_game(2).record, cpu_game(2).summary)
    again.factory_reset()
    third = open_store()
    assert third.audits.games.current.vs_cpu == 1
    assert third.audits.games.lifetime.vs_cpu == 3


def test_hardware_power_and_uptime_counters(
    open_store: Callable[[], CabinetStore], wall_clock: WallClock
) -> None:
    store = open_store()
    store.power_on(5_000 * MS)
    store.audits.count_stuck(Control(1, Button.PILE2))
    store.audits.count_chatter(TEST, 2)
    store.audits.count_link_drop()
    store.save_audits(now_ns=65_000 * MS + 400_000)  # a minute and 0.4 ms later
    store.record_game(cpu_game(0).record, cpu_game(0).summary, now_ns=125_000 * MS)
    store.close(now_ns=126_500 * MS)
    again = open_store()
    hw = again.audits.hardware.lifetime
    assert hw.stuck[Control(1, Button.PILE2)] == 1 and hw.stuck.total == 1
    assert hw.chatter[TEST] == 2 and hw.led_link_drops == 1
    assert again.audits.power.lifetime.uptime_ms == 121_500
    again.power_on(0)
    assert open_store().audits.power.lifetime.power_ons == 2
    again.clear_audits(AuditGroup.POWER)
    power = open_store().audits.power
    assert (power.current.power_ons, power.lifetime.power_ons) == (0, 2)


def test_rollbacks_the_updater_logged_are_counted_once(
    open_store: Callable[[], CabinetStore],
) -> None:
    """The updater appends a line per rollback; each power-on counts the lines not yet
    counted (the lifetime total says how many were), so restarts never count one twice."""
    store = open_store()
    store.power_on(0, rollbacks_logged=1)
    store.close(now_ns=MS)
    again = open_store()
    assert again.audits.power.lifetime.rollbacks == 1
    again.power_on(0, rollbacks_logged=1)  # the same log: nothing new
    again.close(now_ns=MS)
    third = open_store()
    third.clear_audits(AuditGroup.POWER)
    third.power_on(0, rollbacks_logged=3)  # two more since
    third.close(now_ns=MS)
    power = open_store().audits.power
    assert (power.current.rollbacks, power.lifetime.rollbacks) == (2, 3)
    # A log deleted by hand counts nothing, and takes nothing back.
    last = open_store()
    last.power_on(0, rollbacks_logged=0)
    assert last.audits.power.lifetime.rollbacks == 3
