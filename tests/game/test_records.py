"""Match records: format, errors naming the field, golden records replaying exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from game.bots import level
from game.cpu_match import play_cpu_game
from game.events import Played, Rejected, RejectReason, Spat
from game.record import (
    MatchRecord,
    RecordError,
    event_to_json,
    replay,
    result_mismatches,
    result_of,
)

DATA = Path(__file__).resolve().parent.parent / "data"
GOLDEN = sorted(DATA.glob("*.json"))


def test_there_are_golden_records() -> None:
    names = {p.stem for p in GOLDEN}
    assert {
        "race-1us-wrong-order",
        "tie",
        "spit-one-deck-empty",
        "blocked-fewer-cards",
        "blocked-draw",
    } <= names


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_record_replays_to_its_pinned_result(path: Path) -> None:
    record = MatchRecord.load(path)
    assert record.result is not None
    done = replay(record)
    summary = done.summary()
    assert result_mismatches(record.result, summary) == []
    assert result_of(summary) == record.result
    expect: dict[str, Any] = dict((record.meta or {})["expect"])
    if "played" in expect:
        played = [[e.player, e.card.notation()] for e in done.events if isinstance(e, Played)]
        assert played == expect["played"]
    if "beaten" in expect:
        beaten = [
            [e.player, e.margin_ns]
            for e in done.events
            if isinstance(e, Rejected) and e.reason is RejectReason.BEATEN
        ]
        assert beaten == expect["beaten"]
    if "reordered_races" in expect:
        assert summary["reordered_races"] == expect["reordered_races"]
    if "ties" in expect:
        assert summary["ties"] == expect["ties"]
    if expect.get("one_sided_spit"):
        assert any(isinstance(e, Spat) and None in e.cards for e in done.events)  # R11
    if "termination" in expect:
        assert summary["termination"] == expect["termination"]
    if expect.get("draw"):
        assert summary["draw"] and summary["cards_left"][0] == summary["cards_left"][1]  # R13


def test_r13_golden_blocked_end_goes_to_fewer_cards() -> None:
    summary = replay(MatchRecord.load(DATA / "blocked-fewer-cards.json")).summary()
    left = summary["cards_left"]
    assert left[summary["winner"]] < left[1 - summary["winner"]]


def test_record_round_trips_through_json(tmp_path: Path) -> None:
    record = play_cpu_game(5, (level(3), level(4))).record
    path = tmp_path / "game.json"
    record.save(path)
    again = MatchRecord.load(path)
    assert again == record
    assert json.loads(path.read_text())["format"] == "spit-match"


def test_a_record_whose_edges_stop_early_replays_unfinished() -> None:
    record = play_cpu_game(8, (level(4), level(4))).record
    cut = MatchRecord(record.rules, record.decks, record.edges[:20], record.seed)
    summary = replay(cut).summary()
    assert summary["finished"] is False
    assert summary["winner"] is None
    assert summary["draw"] is False


def test_a_record_without_decks_deals_from_its_seed() -> None:
    record = play_cpu_game(8, (level(4), level(4))).record
    data = record.to_json()
    del data["decks"]
    assert MatchRecord.from_json(data).decks == record.decks


def test_events_have_a_json_form() -> None:
    done = replay(MatchRecord.load(DATA / "tie.json"))
    kinds = [event_to_json(e)["type"] for e in done.events]
    assert kinds[0] == "started"
    assert "tie" in kinds
    played = next(event_to_json(e) for e in done.events if isinstance(e, Played))
    assert played == {
        "type": "played",
        "t_ns": 500_000_000,
        "player": 0,
        "slot": 0,
        "pile": 0,
        "card": "5S",
    }


def swap_edges_2_and_3(data: dict[str, Any]) -> None:
    data["edges"][2], data["edges"][3] = data["edges"][3], data["edges"][2]


def base() -> dict[str, Any]:
    return json.loads((DATA / "tie.json").read_text())


@pytest.mark.parametrize(
    ("change", "field", "problem"),
    [
        (lambda d: d.update(format="chess"), "format", "must be 'spit-match'"),
        (lambda d: d.update(version=9), "version", "must be 1"),
        (lambda d: d["rules"].update(spit_delay_ms=-5), "rules", "spit_delay_ms"),
        (lambda d: d["rules"].update(tie_rule="player1"), "rules", "tie_rule"),
        (lambda d: d["rules"].update(colour="red"), "rules", "unknown"),
        (lambda d: d["decks"][0].__setitem__(3, "1S"), "decks[0][3]", "rank"),
        (lambda d: d["decks"][1].__setitem__(0, d["decks"][1][1]), "decks[1]", "duplicate"),
        (lambda d: d["decks"].pop(), "decks", "two decks"),
        (lambda d: d["edges"][2].update(player=2), "edges[2].player", "0 or 1"),
        (lambda d: d["edges"][2].update(button="slot9"), "edges[2].button", "slot1"),
        (lambda d: d["edges"][2].update(edge="hold"), "edges[2].edge", "press or release"),
        (lambda d: d["edges"][2].update(t_ns="soon"), "edges[2].t_ns", "integer"),
        (lambda d: d["edges"][2].update(delivered_ns=1), "edges[2].delivered_ns", "before"),
        (swap_edges_2_and_3, "edges[3].delivered_ns", "backwards"),
        (lambda d: d.update(end_ns=5), "end_ns", "before the last delivery"),
    ],
)
def test_malformed_records_name_the_field(change, field: str, problem: str) -> None:
    data = base()
    change(data)
    with pytest.raises(RecordError) as info:
        MatchRecord.from_json(data)
    assert info.value.field == field
    assert problem in info.value.problem


def test_delivered_ns_is_optional() -> None:
    data = base()
    for e in data["edges"]:
        e["delivered_ns"] = e["t_ns"]
    del data["edges"][0]["delivered_ns"]
    data["edges"].sort(key=lambda e: e["t_ns"])
    record = MatchRecord.from_json(data)
    assert record.edges[0].delivered_ns == record.edges[0].t_ns


def test_the_summary_gives_each_players_fastest_play() -> None:
    done = replay(MatchRecord.load(DATA / "race-1us-wrong-order.json"))
    summary = done.summary()
    # Player 1 selected slot 1 at 100 ms and played it at 500 ms; player 2 never played.
    assert summary["fastest_play_ns"] == [400_000_000, None]
