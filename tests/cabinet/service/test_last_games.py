"""Last games: the list, and a replay that settles "I pressed first!" with both presses'
timestamps and the margin (the golden record of a race won by 1 µs whose presses reached
the software in the wrong order)."""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from pathlib import Path

from cabinet.service.last_games import ReplayPage
from cabinet.storage.audits import Seat
from cabinet.storage.records import insert_game
from game.edges import Button
from game.events import Termination
from game.record import MatchRecord, replay
from tests.cabinet.service.conftest import Cabinet
from tests.cabinet.service.test_books import record_cpu_games

ENDED = datetime(2025, 3, 1, 13, 0, tzinfo=UTC)
GOLDEN = Path(__file__).resolve().parents[2] / "data" / "race-1us-wrong-order.json"


def store_golden(cab: Cabinet) -> int:
    record = MatchRecord.load(GOLDEN)
    summary = dataclasses.replace(
        replay(record).summary(), termination=Termination.ABANDONED, end_t_ns=600_000_000
    )
    with cab.store.db.transaction() as conn:
        return insert_game(conn, record, summary, (Seat.HUMAN, Seat.HUMAN), ENDED, 200)


def test_the_list_shows_the_newest_game_first(cabinet: Cabinet) -> None:
    cab = cabinet
    record_cpu_games(cab.store, 2)
    golden = store_golden(cab)
    cab.test()
    cab.choose("Last games")
    labels = cab.labels()
    assert labels[0].startswith(f"#{golden} ")
    assert "Player 1 – Player 2" in labels[0]
    assert "Player 1 – CPU" in labels[1]
    assert cab.shown.rows[0].value.startswith("Game abandoned")
    assert labels[-1] == "Back"


def test_the_replay_shows_a_race_with_both_timestamps_and_the_margin(cabinet: Cabinet) -> None:
    cab = cabinet
    store_golden(cab)
    cab.test()
    cab.choose("Last games")
    cab.p1(Button.PILE1)
    assert cab.shown.title.startswith("Replay of game #")
    assert cab.shown.rows[0].label.startswith("Event 1 of ")
    assert cab.shown.rows[0].value == "1 race"
    assert cab.shown.notice == "The replay reaches the recorded result"
    cab.p1(Button.SLOT2)  # the next race
    rows = cab.shown.rows
    labels = [r.label for r in rows]
    assert "Player 1 pressed first, by 0.001 ms" in labels
    assert rows[labels.index("Player 1 pressed first, by 0.001 ms")].value == "Pile 1"
    winner = next(r for r in rows if r.label.startswith("Player 1 pressed at"))
    loser = next(r for r in rows if r.label.startswith("Player 2 pressed at"))
    assert winner.label == "Player 1 pressed at 500.000 ms"
    assert winner.value == "seen at 501.500 ms"  # delivered 1.5 ms late…
    assert loser.label == "Player 2 pressed at 500.001 ms"
    assert loser.value.startswith("seen at 500.00")  # …after the loser's press arrived
    assert "The software saw them in the other order; the race window put them right" in labels
    cab.p1(Button.SLOT3)  # one event back: not the race any more
    assert "Player 1 pressed first, by 0.001 ms" not in cab.labels()
    cab.p1(Button.PILE2)
    assert cab.shown.title == "Last games"


def test_no_games_yet(cabinet: Cabinet) -> None:
    cab = cabinet
    cab.test()
    cab.choose("Last games")
    assert cab.labels() == ["No games stored yet", "Back"]
    assert cab.at_cursor() == "Back"


def test_the_replay_credits_a_cpu_win_to_the_cpu(cabinet: Cabinet) -> None:
    cab = cabinet
    summaries = record_cpu_games(cab.store, 3)  # a person in seat 1, the CPU in seat 2
    cpu_won = [i for i, s in enumerate(summaries) if s.winner == 1]
    assert cpu_won, "none of the stored games was won by the CPU"
    cab.test()
    cab.choose("Last games")
    newest_first = len(summaries) - 1 - cpu_won[0]
    row = cab.shown.rows[newest_first]
    assert row.value.startswith("The CPU wins!")
    cab.go_to(row.label)
    cab.p1(Button.PILE1)
    page = cab.app.service.page  # type: ignore[union-attr]
    assert isinstance(page, ReplayPage)
    page.index = len(page.events) - 1  # the last event: the game is over
    assert cab.labels()[-1] == "The CPU wins!"
    assert "Player 2 wins" not in cab.labels()


def test_a_record_that_cannot_be_read_is_reported_not_raised(cabinet: Cabinet) -> None:
    cab = cabinet
    record_cpu_games(cab.store, 1)
    broken = store_golden(cab)
    data = json.loads(MatchRecord.load(GOLDEN).dumps())
    data["format"] = 99  # a record this software cannot read (damaged, or from a newer one)
    with cab.store.db.transaction() as conn:
        conn.execute("UPDATE games SET record = ? WHERE id = ?", (json.dumps(data), broken))
    cab.test()
    cab.choose("Last games")
    assert cab.labels()[0].startswith(f"#{broken} ")
    cab.p1(Button.PILE1)  # open it: the frames run through app.step
    assert cab.shown.title == "Last games"
    assert cab.shown.notice == f"The record of game #{broken} cannot be read"
    cab.p1(Button.SLOT2)
    assert cab.shown.notice == ""
    cab.p1(Button.PILE1)  # the readable game still opens
    assert cab.shown.title.startswith("Replay of game #")


def test_every_kept_game_is_listed_not_only_the_newest_fifty(cabinet: Cabinet) -> None:
    cab = cabinet
    ids = [store_golden(cab) for _ in range(60)]
    cab.test()
    cab.choose("Last games")
    games = [label for label in cab.labels() if label.startswith("#")]
    assert len(games) == 60
    assert games[-1].startswith(f"#{ids[0]} ")  # the oldest kept game is reachable
