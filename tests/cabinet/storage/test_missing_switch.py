"""The missing-switch audit on a simulated run of games with one dead button: the fault
is raised after the setting's number of games, once, reported to the fleet in the game's
transaction, and cleared when the button is pressed again."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cabinet.inputs.controls import Control
from cabinet.inputs.missing_switch import missing, neighbours, silence_after
from cabinet.link import membership
from cabinet.storage.outbox import pending
from cabinet.storage.setting_table import MISSING_SWITCH_GAMES
from cabinet.storage.store import CabinetStore
from fleet.join_file import Join
from game.edges import Button
from game.record import MatchRecord
from game.summary import Seat
from tests.fleet.cabinets import without_presses

from .conftest import cpu_game

DEAD = (0, Button.SLOT2)
JOIN = Join("Route", "bar-1", "The Anchor", "localhost", 8883, "secret", "not checked here")


def _with_dead_button(record: MatchRecord) -> MatchRecord:
    """The record as the cabinet would have it with player 1's slot 2 switch dead."""
    return without_presses(record, *DEAD)


def _faults(store: CabinetStore) -> list[dict[str, object]]:
    rows = pending(store.db.connection, 0, 10_000)
    return [r.body for r in rows if r.kind == "fault"]


def test_a_dead_button_is_reported_after_the_setting_s_games_and_cleared_when_pressed(
    tmp_path: Path,
) -> None:
    store = CabinetStore.open(tmp_path)
    with store.db.transaction() as conn:
        membership.join(conn, JOIN)
    games = store.settings.get(MISSING_SWITCH_GAMES)
    assert games == 10
    humans = (Seat.HUMAN, Seat.HUMAN)
    for seed in range(games - 1):
        game = cpu_game(seed)
        store.record_game(_with_dead_button(game.record), game.summary, humans)
    assert store.missing_switches == [] and _faults(store) == []
    game = cpu_game(games - 1)
    store.record_game(_with_dead_button(game.record), game.summary, humans)
    assert store.missing_switches == ["p1.slot2"]
    assert _faults(store) == [
        {"fault": "missing_switch", "state": "raised", "button": "p1.slot2", "games": games}
    ]
    store.record_game(_with_dead_button(game.record), game.summary, humans)
    assert len(_faults(store)) == 1  # said once
    store.close()
    again = CabinetStore.open(tmp_path)  # kept across a restart
    assert again.missing_switches == ["p1.slot2"]
    again.record_game(game.record, game.summary, humans)  # fixed: pressed again
    assert again.missing_switches == []
    assert _faults(again)[-1]["state"] == "cleared"
    again.close()


def test_the_cpu_s_seat_says_nothing_about_the_buttons(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    for seed in range(12):
        game = cpu_game(seed)
        store.record_game(_with_dead_button(game.record), game.summary, (Seat.CPU, Seat.CPU))
    assert store.missing_switches == [] and store.silence == {}
    store.close()


def test_a_cabinet_in_no_fleet_queues_nothing_yet_still_judges(tmp_path: Path) -> None:
    store = CabinetStore.open(tmp_path)
    for seed in range(10):
        game = cpu_game(seed)
        store.record_game(_with_dead_button(game.record), game.summary, (Seat.HUMAN, Seat.CPU))
    assert store.missing_switches == ["p1.slot2"]
    assert pending(store.db.connection, 0, 100) == []
    assert json.loads(json.dumps(store.silence))["p1.slot2"] == 10
    store.close()


presses = st.sets(st.tuples(st.sampled_from([0, 1]), st.sampled_from(list(Button))))


@given(st.lists(presses, max_size=30))
def test_a_count_grows_only_beside_pressed_neighbours_and_resets_when_pressed(
    games: list[set[tuple[int, Button]]],
) -> None:
    counts: dict[str, int] = {}
    for pressed in games:
        after = silence_after(pressed, (0, 1), counts)
        for player in (0, 1):
            for button in Button:
                name = Control(player, button).name
                was, now = counts.get(name, 0), after.get(name, 0)
                if (player, button) in pressed:
                    assert now == 0
                elif any((player, b) in pressed for b in neighbours(button)):
                    assert now == was + 1
                else:
                    assert now == was
        counts = after
    assert missing(counts, 1) == sorted(n for n, c in counts.items() if c >= 1)
