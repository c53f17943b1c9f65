"""The typed game summary: its JSON form, read back, and its parts."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from game.bots import level
from game.cpu_match import play_cpu_game
from game.events import RejectReason, Termination
from game.record import RESULT_KEYS, MatchRecord, replay
from game.record_parts import RecordResult
from game.summary import ClosestRace, GameSummary, Rejections, Seat, SummaryError
from game.tally import SimulationReport, Tally

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = sorted(DATA.glob("*.json"))

KEYS = [
    "finished",
    "winner",
    "draw",
    "termination",
    "cards_left",
    "plays",
    "spits",
    "beaten",
    "rejected",
    "ties",
    "late_edges",
    "early_edges",
    "pile_without_selection",
    "reordered_races",
    "closest_race",
    "race_margins_ns",
    "fastest_play_ns",
    "end_t_ns",
]
"""The replay summary's keys, in order (docs/match-record.md)."""


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_the_json_reads_back_to_the_same_summary(path: Path) -> None:
    summary = replay(MatchRecord.load(path)).summary()
    data = summary.to_json()
    assert list(data) == KEYS
    assert GameSummary.from_json(json.loads(json.dumps(data))) == summary
    assert RecordResult.of(summary).to_json() == {k: data[k] for k in RESULT_KEYS}


def test_replay_json_is_the_summary_with_its_events_and_reads_back() -> None:
    done = replay(MatchRecord.load(DATA / "tie.json"))
    data = done.to_json()
    assert list(data) == [*KEYS, "events"]
    assert len(data["events"]) == len(done.events)
    assert GameSummary.from_json(data) == done.summary()  # other keys are ignored


def test_the_parts_are_typed() -> None:
    summary = replay(MatchRecord.load(DATA / "race-1us-wrong-order.json")).summary()
    assert summary.termination is None and not summary.abandoned
    assert summary.closest_race == ClosestRace(margin_ns=1_000, winner=0, t_ns=500_000_000, pile=0)
    assert summary.rejected == Rejections(beaten=1)
    assert summary.rejected.by_reason()[RejectReason.BEATEN] == 1
    tie = replay(MatchRecord.load(DATA / "tie.json")).summary()
    assert tie.closest_race is not None and tie.closest_race.pile is None


def test_rejections_have_a_field_for_each_reason_in_order() -> None:
    names = [f.name for f in dataclasses.fields(Rejections)]
    assert names == [reason.value for reason in RejectReason]
    counts = {reason: i + 1 for i, reason in enumerate(RejectReason)}
    assert Rejections.of(counts).by_reason() == counts


def test_an_abandoned_game_says_so() -> None:
    record = MatchRecord.loads(
        json.dumps({"format": "spit-match", "version": 1, "seed": 1, "abandoned_ns": 5 * 10**9})
    )
    summary = replay(record).summary()
    assert summary.abandoned and summary.termination is Termination.ABANDONED
    assert summary.winner is None and summary.draw is False


def _golden_json() -> dict[str, Any]:
    return replay(MatchRecord.load(DATA / "blocked-fewer-cards.json")).summary().to_json()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"winner": 2}, "winner"),
        ({"termination": "resigned"}, "termination"),
        ({"finished": 1}, "finished"),
        ({"spits": True}, "spits"),
        ({"plays": [1]}, "plays"),
        ({"fastest_play_ns": [1, "x"]}, "fastest_play_ns"),
        ({"race_margins_ns": [1.5]}, "race_margins_ns"),
        ({"rejected": {"illegal": 0}}, "rejected.beaten"),
        ({"closest_race": {"margin_ns": 1, "winner": 0, "t_ns": 1}}, "closest_race.pile"),
        ({"end_t_ns": "soon"}, "end_t_ns"),
    ],
)
def test_malformed_json_names_the_key(change: dict[str, Any], field: str) -> None:
    with pytest.raises(SummaryError) as caught:
        GameSummary.from_json({**_golden_json(), **change})
    assert caught.value.field == field


def test_a_missing_key_is_named() -> None:
    data = _golden_json()
    del data["ties"]
    with pytest.raises(SummaryError, match=r"^ties: missing$"):
        GameSummary.from_json(data)
    with pytest.raises(SummaryError, match=r"^summary: must be an object$"):
        GameSummary.from_json([])


def test_seats_keep_their_stored_values() -> None:
    assert [s.value for s in Seat] == ["human", "cpu"]
    assert Seat.of(None) is Seat.HUMAN and Seat.of(level(3)) is Seat.CPU


def test_a_cpu_game_carries_its_events() -> None:
    game = play_cpu_game(3, (level(3), level(4)))
    assert game.events and game.summary == replay(game.record).summary()
    assert game.record.meta.to_json()["players"] == ["cpu", "cpu"]


def test_the_simulation_report_adds_the_levels_last() -> None:
    tally = Tally()
    game = play_cpu_game(3, (level(3), level(4)))
    tally.add(game.summary, game.duration_ns)
    data = SimulationReport(tally, ("steady", "quick")).to_json()
    assert list(data)[-1] == "levels" and data["levels"] == ["steady", "quick"]
    assert data["mean_plays"] == tally.mean_plays == sum(game.summary.plays)
