"""Bookkeeping from real simulated games; clearing a group; factory reset keeps audits."""

from __future__ import annotations

from cabinet.storage.audits import AuditGroup
from cabinet.storage.setting_table import VOLUME
from cabinet.storage.store import CabinetStore
from game.bots import level
from game.cpu_match import CpuGame, play_cpu_game
from game.edges import Button
from game.summary import GameSummary
from tests.cabinet.service.conftest import Cabinet

_GAMES: dict[int, CpuGame] = {}


def record_cpu_games(store: CabinetStore, n: int) -> list[GameSummary]:
    """``n`` real CPU-vs-CPU games (levels 3 and 4) stored as a person in seat 1 against
    the CPU; returns their summaries."""
    summaries = []
    for seed in range(n):
        game = _GAMES.get(seed)
        if game is None:
            game = _GAMES[seed] = play_cpu_game(seed, (level(3), level(4)))
        store.record_game(game.record, game.summary, ("human", "cpu"))
        summaries.append(game.summary)
    return summaries


def rows(cab: Cabinet) -> dict[str, str]:
    return {row.label: row.value for row in cab.shown.rows}


def test_bookkeeping_shows_what_real_games_counted(cabinet: Cabinet) -> None:
    cab = cabinet
    summaries = record_cpu_games(cab.store, 3)
    p1 = sum(1 for s in summaries if s.winner == 0)
    cpu = sum(1 for s in summaries if s.winner == 1)
    plays = sum(sum(s.plays) for s in summaries)
    races = sum(len(s.race_margins_ns) for s in summaries)
    assert plays > 0 and races > 0
    cab.test()
    cab.choose("Bookkeeping")
    assert cab.labels()[:4] == ["Games", "Play", "Hardware", "Power"]
    assert rows(cab)["Games"].startswith("Last cleared 2025-03-01")
    cab.choose("Games")
    shown = rows(cab)
    assert shown["Games against the CPU"] == "3 · 3"
    assert shown["Two-player games"] == "0 · 0"
    assert shown["Player 1 wins"] == f"{p1} · {p1}"
    assert shown["CPU wins"] == f"{cpu} · {cpu}"
    cab.p1(Button.PILE2)
    cab.choose("Play")
    shown = rows(cab)
    assert shown["Cards played"] == f"{plays} · {plays}"
    buckets = [
        shown[f"Races won by {b}"].split(" · ")[0]
        for b in ("under 1 ms", "1–10 ms", "10–100 ms", "100 ms or more")
    ]
    assert sum(int(b) for b in buckets) == races
    cab.p1(Button.PILE2)
    cab.choose("Power")
    assert rows(cab)["Power-ons"] == "0 · 0"  # the test's store was never powered on


def test_clearing_a_group_keeps_lifetime_totals_and_asks_first(cabinet: Cabinet) -> None:
    cab = cabinet
    record_cpu_games(cab.store, 2)
    cab.test()
    cab.choose("Bookkeeping")
    cab.choose("Games")
    cab.choose("Clear these counters")
    assert cab.at_cursor() == "No"
    cab.p1(Button.SLOT2)
    cab.p1(Button.PILE1)  # Yes
    assert rows(cab)["Games against the CPU"] == "0 · 2"
    assert cab.store.audits.games.current.vs_cpu == 0
    assert cab.store.audits.play.current.plays > 0  # other groups untouched


def test_every_hardware_counter_is_on_screen(cabinet: Cabinet) -> None:
    """The counters are headings the cursor passes over; with the cursor on *Clear* the
    whole page (cleared date, link drops, every button) must still be drawn."""
    cab = cabinet
    cab.test()
    cab.choose("Bookkeeping")
    cab.choose("Hardware")
    cab.frames(0.05)
    labels = cab.labels()
    assert labels[0].startswith("Last cleared")
    assert "Player 1 · Slot 1" in labels and "SERVICE" in labels
    for _ in range(3):  # round the selectable rows, Clear and Back
        assert cab.app.menu_renderer.shown == range(len(labels)), cab.at_cursor()
        cab.p1(Button.SLOT2)


def test_factory_reset_restores_settings_and_keeps_the_books(
    cabinet: Cabinet,
) -> None:
    cab = cabinet
    record_cpu_games(cab.store, 2)
    cab.store.settings.set(VOLUME, 20)
    cab.store.save_settings()
    before = cab.store.audits.group(AuditGroup.GAMES).lifetime.vs_cpu
    cab.test()
    cab.choose("Factory reset")
    cab.p1(Button.SLOT2)
    cab.p1(Button.PILE1)  # Yes
    assert cab.shown.notice == "Every setting is back to its factory value"
    assert cab.store.settings.get(VOLUME) == 80
    assert cab.store.audits.games.current.vs_cpu == before == 2
    assert cab.store.records.count() == 2
    cab.choose("Save and exit")
    assert cab.sounds.volume_percent == 80
