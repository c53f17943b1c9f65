"""Writes the golden match records in this folder. Run it only to add a new record:
the committed files are the truth the tests hold the code to.

    python tests/data/make_golden.py
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from game.bots import level
from game.cards import ALL_CARDS, Card, parse_cards
from game.cpu_match import play_cpu_game
from game.edges import Button, Edge, EdgeKind
from game.events import Spat, Termination
from game.record import MatchRecord, replay
from game.record_parts import RecordResult
from game.rules import Rules
from game.units import MS, US

HERE = Path(__file__).resolve().parent


def deck(top: str) -> tuple[Card, ...]:
    first = parse_cards(top.split())
    return tuple(first + [c for c in ALL_CARDS if c not in first])


def edge(player: int, button: str, t_ns: int, delivered_ns: int, kind: str = "press") -> Edge:
    return Edge(player, Button(button), EdgeKind(kind), t_ns, delivered_ns)


def race_record(p0_pile_ns: int, p1_pile_ns: int, p0_seen: int, p1_seen: int) -> MatchRecord:
    """Player 1's 5S and player 2's 3D both fit pile 1's 4H; both go for it."""
    decks = (deck("5S KH KD KC 4H"), deck("3D 9H 9D 9C JD"))
    edges = [
        edge(0, "slot1", 100 * MS, 100 * MS + 200 * US),
        edge(0, "slot1", 180 * MS, 180 * MS + 150 * US, "release"),
        edge(1, "slot1", 120 * MS, 120 * MS + 300 * US),
        edge(1, "slot1", 210 * MS, 210 * MS + 90 * US, "release"),
    ]
    edges += [edge(0, "pile1", p0_pile_ns, p0_seen), edge(1, "pile1", p1_pile_ns, p1_seen)]
    edges.sort(key=lambda e: e.delivered_ns or 0)  # records list edges in delivery order
    return MatchRecord(Rules(), decks, tuple(edges), seed=0, end_ns=1_000 * MS)


def save(name: str, record: MatchRecord, expect: dict[str, object]) -> None:
    summary = replay(record).summary()
    meta = dataclasses.replace(record.meta, other={**record.meta.other, "expect": expect})
    record = MatchRecord(
        record.rules,
        record.decks,
        record.edges,
        record.seed,
        record.end_ns,
        RecordResult.of(summary),
        meta,
    )
    record.save(HERE / f"{name}.json")
    print(name, RecordResult.of(summary))


def find_cpu_game(test, levels=(4, 4), rules: Rules | None = None) -> MatchRecord:
    for seed in range(10_000):
        game = play_cpu_game(seed, (level(levels[0]), level(levels[1])), rules)
        if test(game):
            return game.record
    raise SystemExit("no game found")


def main() -> None:
    t = 500 * MS
    # Player 1 pressed 1 µs first, but player 2's press reached software first.
    save(
        "race-1us-wrong-order",
        race_record(t, t + 1 * US, t + 1_500 * US, t + 1 * US + 500),
        {"played": [[0, "5S"]], "beaten": [[1, 1_000]], "reordered_races": 1},
    )
    save("tie", race_record(t, t, t + 800 * US, t + 300 * US), {"ties": 1})

    def one_sided_spit(game) -> bool:
        done = replay(game.record)
        return any(isinstance(e, Spat) and None in e.cards for e in done.events)

    save("spit-one-deck-empty", find_cpu_game(one_sided_spit), {"one_sided_spit": True})
    save(
        "blocked-fewer-cards",
        find_cpu_game(
            lambda g: g.summary.termination is Termination.BLOCKED and g.summary.winner is not None
        ),
        {"termination": "blocked"},
    )
    save("blocked-draw", find_cpu_game(lambda g: g.summary.draw), {"draw": True})
    save(
        "went-out-ace-low",
        find_cpu_game(
            lambda g: g.summary.termination is Termination.WENT_OUT,
            (2, 5),
            Rules(ace_wraps=False, tie_rule=Rules().tie_rule),
        ),
        {"termination": "went_out"},
    )


if __name__ == "__main__":
    main()
