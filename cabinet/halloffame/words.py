"""The hall of fame in the players' words: each category's title and each figure as
players read it (a game time as ``1:02.35``, a race margin in milliseconds, streaks and
plays as counts), in the cabinet's language. The attract board, the initials screen and
the service menu's hall-of-fame page all write them through here.
"""

from __future__ import annotations

from cabinet.halloffame.board import Category
from cabinet.i18n import Translator
from game.units import MS


def category_title(tr: Translator, category: Category) -> str:
    """E.g. "Fastest win against Skilled", "Closest race won"."""
    level = category.cpu_level
    if level is not None:
        cpu = tr.t(f"cpu.level.{level}")
        return tr.t("fame.category.fastest_win_cpu", name=cpu)
    return tr.t(f"fame.category.{category.value}")


def figure_text(tr: Translator, category: Category, figure: int) -> str:
    """A figure as players read it."""
    if category is Category.CLOSEST_RACE_WON:
        return f"{tr.decimal(figure / MS, 3)} ms"
    if category is Category.LONGEST_STREAK:
        return tr.t("fame.figure.wins", count=figure)
    if category is Category.MOST_PLAYS:
        return tr.t("gameover.plays", count=figure)
    minutes, ms = divmod(figure, 60_000)
    seconds = tr.decimal(ms / 1000, 2).rjust(5, "0")
    return f"{minutes}:{seconds}"
