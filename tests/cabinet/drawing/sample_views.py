"""A table and a game-over screen with every part drawn, shared by the memory tests of
both backends (drawing/test_memory.py, drawing_gpu/test_texture_memory.py)."""

from __future__ import annotations

from cabinet.drawing.views import GameOverView, PlayerSummary, PlayerTable, TableView
from game.cards import Card

TABLE = TableView(
    (
        PlayerTable("P1", tuple(Card.parse(c) for c in ("AS", "2H", "3D", "4C")), 10),
        PlayerTable("P2", tuple(Card.parse(c) for c in ("5S", "6H", "7D", "8C")), 9),
    ),
    (Card.parse("9S"), Card.parse("TH")),
    (3, 4),
    "STUCK",
)
OVER = GameOverView(
    "PLAYER 2 WINS!",
    (PlayerSummary("PLAYER 1", ("Cards left: 3",)), PlayerSummary("PLAYER 2", ("Plays: 44",))),
    match_line="Match: 1 – 1",
)
