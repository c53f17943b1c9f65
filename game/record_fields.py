"""A match record's decks and edges, read from its JSON (each problem a
:class:`~game.record_limits.RecordError` naming the field) and written to it.

>>> from game.edges import Button
>>> edge = Edge.press(0, Button.SLOT1, 5).delivered(7)
>>> edge_to_json(edge)
{'t_ns': 5, 'delivered_ns': 7, 'player': 0, 'button': 'slot1', 'edge': 'press'}
>>> read_edges([edge_to_json(edge)]) == (edge,)
True
"""

from __future__ import annotations

from typing import Any

from game.cards import Card, DeckError, NotationError, shuffled_deck, validate_deck
from game.edges import Button, Edge, EdgeKind
from game.record_limits import MAX_NS, RecordError, read_ns
from game.rules import clipped_repr
from game.values import is_int


def read_decks(value: object, seed: object) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The record's two decks, top card first; dealt from ``seed`` when ``value`` is
    absent (``None``)."""
    if value is None:
        base = seed if isinstance(seed, int) else None
        if base is None:
            raise RecordError("decks", "missing, and there is no seed to deal from")
        return (shuffled_deck(base, 0), shuffled_deck(base, 1))
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError("decks", "must be a list of two decks")
    decks: list[tuple[Card, ...]] = []
    for p, deck in enumerate(value):
        if not isinstance(deck, list):
            raise RecordError(f"decks[{p}]", "must be a list of cards")
        cards: list[Card] = []
        for i, text in enumerate(deck):
            if not isinstance(text, str) or len(text) > 20:
                raise RecordError(
                    f"decks[{p}][{i}]", f"must be a card such as 'AS', got {clipped_repr(text)}"
                )
            try:
                cards.append(Card.parse(text))
            except NotationError as exc:
                raise RecordError(f"decks[{p}][{i}]", str(exc)) from None
        try:
            decks.append(validate_deck(cards))
        except DeckError as exc:
            raise RecordError(f"decks[{p}]", str(exc)) from None
    return (decks[0], decks[1])


_BUTTONS = {b.value: b for b in Button}
_KINDS = {k.value: k for k in EdgeKind}


def read_edges(value: object) -> tuple[Edge, ...]:
    """The record's edges, in delivery order (none when ``value`` is absent, ``None``),
    each with its ``delivered_ns`` set."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise RecordError("edges", "must be a list")
    edges: list[Edge] = []
    last_delivered: int | None = None
    for i, item in enumerate(value):
        where = f"edges[{i}]"
        if not isinstance(item, dict):
            raise RecordError(where, "must be an object")
        player = item.get("player")
        if not is_int(player) or player not in (0, 1):
            raise RecordError(f"{where}.player", f"must be 0 or 1, got {clipped_repr(player)}")
        assert isinstance(player, int)
        button_name = item.get("button")
        button = _BUTTONS.get(button_name) if isinstance(button_name, str) else None
        if button is None:
            choices = " ".join(_BUTTONS)
            raise RecordError(
                f"{where}.button", f"must be one of {choices}, got {clipped_repr(button_name)}"
            )
        kind_name = item.get("edge")
        kind = _KINDS.get(kind_name) if isinstance(kind_name, str) else None
        if kind is None:
            raise RecordError(
                f"{where}.edge", f"must be press or release, got {clipped_repr(kind_name)}"
            )
        # Before the start (negative) is allowed: such an edge is counted as early.
        t_ns = read_ns(f"{where}.t_ns", item.get("t_ns"), -MAX_NS)
        if "delivered_ns" in item:
            delivered = read_ns(f"{where}.delivered_ns", item["delivered_ns"], 0)
        elif t_ns < 0:
            raise RecordError(
                f"{where}.delivered_ns",
                f"missing, and t_ns {t_ns} (delivered then, by default) is before the start",
            )
        else:
            delivered = t_ns
        if delivered < t_ns:
            raise RecordError(f"{where}.delivered_ns", f"{delivered} is before its t_ns {t_ns}")
        if last_delivered is not None and delivered < last_delivered:
            raise RecordError(
                f"{where}.delivered_ns",
                f"{delivered} runs backwards (the edge before was delivered at {last_delivered})",
            )
        last_delivered = delivered
        edges.append(Edge(player, button, kind, t_ns, delivered))
    return tuple(edges)


def edge_to_json(edge: Edge) -> dict[str, Any]:
    """An edge as a record's JSON object (``delivered_ns`` always written: ``t_ns`` when
    the edge was never delivered)."""
    data: dict[str, Any] = {
        "t_ns": edge.t_ns,
        "delivered_ns": edge.delivered_ns if edge.delivered_ns is not None else edge.t_ns,
        "player": edge.player,
        "button": edge.button.value,
        "edge": edge.edge.value,
    }
    return data
