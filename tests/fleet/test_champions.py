"""The route's champions, worked out of fame events stored as ingest stores them: against
a plain reference over random events (hypothesis), and by hand for clears, ties,
revoked cabinets and versions."""

from __future__ import annotations

from typing import Any

import psycopg
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleet import champions, store
from fleet.wire_down import CHAMPION_CATEGORIES, CHAMPIONS_TOPIC, Champion, parse_champions
from tests.fleet.events import empty, put

CATEGORIES = list(CHAMPION_CATEGORIES)
CABINETS = {"bar-1": "The Anchor", "bar-2": "Cinema Nova", "bar-3": "The Anchor"}


def _entry(entry: int, category: str, figure: int, initials: str = "ABC") -> dict[str, Any]:
    return {
        "entry": entry,
        "category": category,
        "initials": initials,
        "figure": figure,
        "date": "2026-12-01",
    }


def _cabinets(db: psycopg.Connection[Any]) -> None:
    empty(db)
    for name, location in CABINETS.items():
        store.add_cabinet(db, name, location)


def reference(stored: list[tuple[str, dict[str, Any]]]) -> tuple[Champion, ...]:
    """The rules of fleet.champions, plainly: each cabinet's entries as they come, a
    clear dropping what came before it, the best of each category, ties to the first
    stored."""
    live: dict[tuple[str, int], tuple[dict[str, Any], int]] = {}
    for index, (cabinet, body) in enumerate(stored):
        if "cleared" in body:
            for key in [k for k, (b, _) in live.items() if k[0] == cabinet]:
                if body["cleared"] in ("all", live[key][0]["category"]):
                    del live[key]
        else:
            key = (cabinet, body["entry"])
            first = live[key][1] if key in live else index
            live[key] = (body, first)
    best: dict[str, tuple[tuple[int, int], Champion]] = {}
    for (cabinet, _), (body, first) in live.items():
        category = body["category"]
        figure = body["figure"] if CHAMPION_CATEGORIES[category] else -body["figure"]
        rank = (figure, first)
        if category not in best or rank < best[category][0]:
            champion = Champion(
                category, body["initials"], body["figure"], CABINETS[cabinet], cabinet, body["date"]
            )
            best[category] = (rank, champion)
    return tuple(best[c][1] for c in CATEGORIES if c in best)


@st.composite
def fame_events(draw: st.DrawFn) -> list[tuple[str, dict[str, Any]]]:
    """Entries (some reported again with their initials), and clears, on three cabinets."""
    events: list[tuple[str, dict[str, Any]]] = []
    made: dict[str, list[dict[str, Any]]] = {name: [] for name in CABINETS}
    for _ in range(draw(st.integers(0, 14))):
        cabinet = draw(st.sampled_from(list(CABINETS)))
        action = draw(st.sampled_from(["entry", "entry", "entry", "initials", "clear"]))
        if action == "initials" and made[cabinet]:
            again = dict(draw(st.sampled_from(made[cabinet])))
            again["initials"] = draw(st.sampled_from(["XYZ", "MOM", "   "]))
            events.append((cabinet, again))
        elif action == "clear":
            events.append((cabinet, {"cleared": draw(st.sampled_from([*CATEGORIES[:3], "all"]))}))
        else:
            category = draw(st.sampled_from(CATEGORIES[:3] + CATEGORIES[-2:]))
            body = _entry(len(made[cabinet]) + 1, category, draw(st.integers(1, 4)), "   ")
            made[cabinet].append(body)
            events.append((cabinet, body))
    return events


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events=fame_events())
def test_the_board_is_the_reference_s(db: psycopg.Connection[Any], events: Any) -> None:
    _cabinets(db)
    for cabinet, body in events:
        put(db, cabinet, "fame", body)
    assert champions.board(db) == reference(events)


def test_a_clear_drops_only_that_cabinet_s_earlier_entries(db: psycopg.Connection[Any]) -> None:
    _cabinets(db)
    fast, streak = CATEGORIES[0], "longest_streak"
    put(db, "bar-1", "fame", _entry(1, fast, 5000))
    put(db, "bar-2", "fame", _entry(1, fast, 6000, "BOB"))
    put(db, "bar-1", "fame", _entry(2, streak, 7))
    put(db, "bar-1", "fame", {"cleared": fast})
    board = {c.category: c for c in champions.board(db)}
    assert board[fast] == Champion(fast, "BOB", 6000, "Cinema Nova", "bar-2", "2026-12-01")
    assert board[streak].figure == 7  # another category stays
    put(db, "bar-1", "fame", _entry(3, fast, 5500))  # an entry after the clear counts
    assert {c.category: c.figure for c in champions.board(db)}[fast] == 5500
    put(db, "bar-1", "fame", {"cleared": "all"})
    assert [c.cabinet for c in champions.board(db)] == ["bar-2"]


def test_higher_or_lower_is_better_and_a_tie_goes_to_the_first(
    db: psycopg.Connection[Any],
) -> None:
    _cabinets(db)
    put(db, "bar-2", "fame", _entry(1, "most_plays", 30, "TWO"))
    put(db, "bar-1", "fame", _entry(1, "most_plays", 30, "ONE"))
    put(db, "bar-3", "fame", _entry(1, "most_plays", 12))
    put(db, "bar-3", "fame", _entry(2, "closest_race_won", 900))
    put(db, "bar-1", "fame", _entry(2, "closest_race_won", 300))
    put(db, "bar-2", "fame", _entry(1, "most_plays", 30, "TWO"))  # initials again: still first
    board = champions.board(db)
    assert [(c.category, c.initials, c.figure) for c in board] == [
        ("closest_race_won", "ABC", 300),
        ("most_plays", "TWO", 30),
    ]


def test_a_revoked_cabinet_takes_no_part(db: psycopg.Connection[Any]) -> None:
    _cabinets(db)
    put(db, "bar-1", "fame", _entry(1, "most_plays", 90))
    put(db, "bar-2", "fame", _entry(1, "most_plays", 10))
    store.revoke(db, "bar-1")
    assert [c.cabinet for c in champions.board(db)] == ["bar-2"]


def test_a_new_board_is_made_and_published_only_when_it_changes(
    db: psycopg.Connection[Any],
) -> None:
    _cabinets(db)
    sent: list[tuple[str, bytes]] = []

    def publish(topic: str, payload: bytes) -> None:
        sent.append((topic, payload))

    assert champions.publish_if_changed(db, lambda t, p: sent.append((t, p))) is None
    assert champions.republish(db, publish) is None and sent == []
    put(db, "bar-1", "fame", _entry(1, "most_plays", 9))
    first = champions.publish_if_changed(db, publish)
    assert first is not None and first.version == 1
    assert champions.publish_if_changed(db, publish) is None
    put(db, "bar-2", "fame", _entry(1, "most_plays", 11))
    second = champions.publish_if_changed(db, publish)
    assert second is not None and second.version == 2
    assert champions.republish(db, publish) == second
    assert [t for t, _ in sent] == [CHAMPIONS_TOPIC] * 3
    assert parse_champions(sent[-1][1]) == second
    assert champions.newest(db) == second
