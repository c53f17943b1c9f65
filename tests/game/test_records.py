"""Match records: format, errors naming the field, golden records replaying exactly."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from game.bots import level
from game.cpu_match import play_cpu_game
from game.events import Played, Rejected, RejectReason, Spat, Termination
from game.record import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    MAX_NS,
    MatchRecord,
    RecordError,
    event_to_json,
    replay,
)
from game.record_parts import RecordResult
from game.rules import Rules, RulesError

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
    assert record.result.mismatches(summary) == []
    assert RecordResult.of(summary) == record.result
    expect: dict[str, Any] = dict(record.meta.other["expect"])
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
        assert summary.reordered_races == expect["reordered_races"]
    if "ties" in expect:
        assert summary.ties == expect["ties"]
    if expect.get("one_sided_spit"):
        assert any(isinstance(e, Spat) and None in e.cards for e in done.events)  # R11
    if "termination" in expect:
        assert summary.termination is Termination(expect["termination"])
    if expect.get("draw"):
        assert summary.draw and summary.cards_left[0] == summary.cards_left[1]  # R13


def test_r13_golden_blocked_end_goes_to_fewer_cards() -> None:
    summary = replay(MatchRecord.load(DATA / "blocked-fewer-cards.json")).summary()
    left = summary.cards_left
    assert summary.winner is not None
    assert left[summary.winner] < left[1 - summary.winner]


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
    assert summary.finished is False
    assert summary.winner is None
    assert summary.draw is False


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
        (lambda d: d.update(version=True), "version", "must be 1, got True"),
        (lambda d: d.update(version=1.0), "version", "must be 1, got 1.0"),
        (lambda d: d["rules"].update(best_of=True), "rules", "best_of must be a whole number"),
        (lambda d: d["rules"].update(best_of=5.0), "rules", "best_of must be a whole number"),
        (lambda d: d["rules"].update(tie_rule=[1]), "rules", "tie_rule must be one of"),
        (lambda d: d.update(seed=True), "seed", "must be an integer, got True"),
        (lambda d: d["decks"][0].__setitem__(3, ["AS"]), "decks[0][3]", "a card such as 'AS'"),
        (lambda d: d["decks"][0].__setitem__(3, "A" * 10**4), "decks[0][3]", "'AAAAA"),
        (lambda d: d["edges"][2].update(player=0.0), "edges[2].player", "got 0.0"),
        (lambda d: d["edges"][2].update(player=False), "edges[2].player", "got False"),
        (lambda d: d["edges"][2].update(button=["slot1"]), "edges[2].button", "got ['slot1']"),
        (lambda d: d["edges"][2].update(button={}), "edges[2].button", "got {}"),
        (lambda d: d["edges"][2].update(edge=["press"]), "edges[2].edge", "got ['press']"),
        (lambda d: d["edges"][2].update(edge={"a": 1}), "edges[2].edge", "got {'a': 1}"),
        (lambda d: d["edges"][2].update(t_ns=True), "edges[2].t_ns", "integer, got True"),
        (lambda d: d["edges"][0].update(delivered_ns=-1), "edges[0].delivered_ns", "0 or more"),
        (lambda d: d["edges"][0].update(t_ns=-(2**63)), "edges[0].t_ns", "at least"),
        (lambda d: d["edges"][-1].update(delivered_ns=2**63), "edges[-1]", "at most"),
        (lambda d: d.update(end_ns=MAX_NS + 1), "end_ns", f"at most {MAX_NS}"),
        (lambda d: d.update(abandoned_ns=-1), "abandoned_ns", "must be 0 or more, got -1"),
        (lambda d: d.update(abandoned_ns=False), "abandoned_ns", "integer, got False"),
        (lambda d: d.update(seed=10**MAX_INT_DIGITS), "seed", "more than 100 digits"),
        (lambda d: d.update(meta={"a": [[-(10**200)]]}), "meta.a[0][0]", "more than 100"),
        (lambda d: d.update(meta={"x y": 10**100}), "meta['x y']", "more than 100 digits"),
        (lambda d: d.update(result=nested(MAX_DEPTH)), "result", f"deeper than {MAX_DEPTH}"),
        (lambda d: d.update(result=[]), "result", "must be an object"),
        (lambda d: d["result"].pop("late_edges"), "result.late_edges", "missing"),
        (lambda d: d["result"].update(winner=2), "result.winner", "must be 0 or 1, got 2"),
        (lambda d: d["result"].update(draw="no"), "result.draw", "true or false, got 'no'"),
        (lambda d: d["result"].update(draw="n" * 10**5), "result.draw", "got 'nnnn"),
        (lambda d: d["result"].update(spits="9" * 10**5), "result.spits", "integer, got '99"),
        (lambda d: d["result"].update(termination="won"), "result.termination", "went_out"),
        (lambda d: d["result"].update(plays=[1]), "result.plays", "two integers"),
        (lambda d: d["result"].update(colour=1), "result.colour", "not a key a result pins"),
        (lambda d: d.update(meta=[]), "meta", "must be an object"),
        (lambda d: d.update(meta={"players": ["human"]}), "meta.players", "two of human, cpu"),
        (lambda d: d.update(meta={"players": ["cpu", "robot"]}), "meta.players", "'robot'"),
        (lambda d: d.update(meta={"levels": [0, None]}), "meta.levels", "two CPU levels"),
        (lambda d: d.update(edges=nested(5000)), "edges", f"deeper than {MAX_DEPTH}"),
    ],
)
def test_malformed_records_name_the_field(change, field: str, problem: str) -> None:
    data = base()
    change(data)
    if field == "edges[-1]":
        field = f"edges[{len(data['edges']) - 1}].delivered_ns"
    with pytest.raises(RecordError) as info:
        MatchRecord.from_json(data)
    assert info.value.field == field
    assert problem in info.value.problem
    assert len(info.value.problem) < 160  # the value is quoted cut short


def nested(depth: int) -> list[Any]:
    """A list ``depth`` deep: ``[[[…]]]``."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_nesting_may_reach_the_limit_but_not_pass_it() -> None:
    data = base()
    data["meta"] = {"deep": nested(MAX_DEPTH - 2)}  # the record 1, meta 2, then the list
    assert MatchRecord.from_json(data).meta.to_json() == data["meta"]
    data["meta"] = {"deep": nested(MAX_DEPTH - 1)}
    with pytest.raises(RecordError, match=f"meta: nested deeper than {MAX_DEPTH} levels"):
        MatchRecord.from_json(data)


def test_json_text_nested_past_the_parser_is_one_record_error() -> None:
    text = '{"format": "spit-match", "version": 1, "meta": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(RecordError) as info:
        MatchRecord.loads(text)
    assert (info.value.field, info.value.problem) == ("record", "nested deeper than 64 levels")


@pytest.mark.parametrize("digits", [MAX_INT_DIGITS + 1, 4300, 4301, 100_000])
def test_json_text_with_a_huge_integer_names_its_field(digits: int) -> None:
    text = json.dumps(base()).replace('"seed": 0', '"seed": -' + "7" * digits)
    with pytest.raises(RecordError) as info:
        MatchRecord.loads(text)
    assert (info.value.field, info.value.problem) == ("seed", "an integer of more than 100 digits")


def test_an_integer_of_the_most_digits_is_read() -> None:
    text = json.dumps(base()).replace('"seed": 0', '"seed": ' + "7" * MAX_INT_DIGITS)
    assert MatchRecord.loads(text).seed == int("7" * MAX_INT_DIGITS)


def test_an_edge_from_before_the_start_is_read_when_its_delivery_is_given() -> None:
    data = base()
    data["edges"][0].update(t_ns=-5, delivered_ns=0)
    assert MatchRecord.from_json(data).edges[0].t_ns == -5
    del data["edges"][0]["delivered_ns"]
    with pytest.raises(RecordError, match=re.escape("edges[0].delivered_ns: missing, and t_ns -5")):
        MatchRecord.from_json(data)


@pytest.mark.parametrize(
    ("setting", "value"),
    [("best_of", True), ("best_of", 3.0), ("spit_delay_ms", True), ("beaten_window_ms", False)],
)
def test_rules_refuse_a_boolean_or_a_float_for_a_whole_number(setting: str, value: object) -> None:
    with pytest.raises(
        RulesError, match=re.escape(f"{setting} must be a whole number, got {value!r}")
    ):
        Rules.from_dict({setting: value})
    assert Rules.from_dict({"best_of": 3}).best_of == 3


def test_rules_quote_a_long_value_cut_short() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict({"tie_rule": "x" * 10_000})
    assert len(str(info.value)) < 120


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
    assert summary.fastest_play_ns == (400_000_000, None)


def test_a_null_result_or_meta_reads_as_absent() -> None:
    """``null`` for an optional part says nothing, as the format always allowed."""
    data = base()
    data["result"] = None
    data["meta"] = None
    record = MatchRecord.from_json(data)
    assert record.result is None and record.meta.empty


def test_a_record_and_a_game_holding_one_can_be_pickled_and_copied() -> None:
    import copy
    import pickle

    record = MatchRecord.load(DATA / "tie.json")
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.deepcopy(record) == record
    assert record.meta.other["expect"] == {"ties": 1}


def test_a_live_match_takes_more_context_for_its_record() -> None:
    from game.live_match import LiveMatch
    from game.rules import Rules
    from game.summary import Seat

    match = LiveMatch(Rules(), 3, (None, None), 0, meta={"cabinet": "bar-7"})
    meta = match.record().meta
    assert meta.seats == (Seat.HUMAN, Seat.HUMAN) and meta.other == {"cabinet": "bar-7"}
    assert meta.to_json() == {
        "players": ["human", "human"],
        "levels": [None, None],
        "cabinet": "bar-7",
    }
