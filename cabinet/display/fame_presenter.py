"""The hall of fame's screens from the flow and the board: plain values, no pygame.

:func:`initials_view` is the initials phase (each player who set a record enters
initials, the other sees their game); :func:`board_view` the board for attract's turn;
:func:`champions_view` the route's champions (kept from the fleet) for a turn of their own.
Titles and figures are worded by :mod:`cabinet.halloffame.words`.
"""

from __future__ import annotations

from collections.abc import Sequence

from cabinet.display.flow import Flow
from cabinet.drawing.fame_views import (
    ChampionRow,
    ChampionsView,
    FameBoardView,
    FameColumn,
    FameRow,
    InitialsPanel,
    InitialsView,
)
from cabinet.halloffame.board import Category, FameBoard
from cabinet.halloffame.names import shown_initials
from cabinet.halloffame.words import category_title, figure_text
from cabinet.i18n import Translator
from firmware_bridge.lights import LightState
from fleet.wire_down import Champions


def _rank(board: FameBoard, category: Category, entry_id: int) -> int | None:
    for k, entry in enumerate(board.top(category)):
        if entry.order == entry_id:
            return k + 1
    return None


def initials_view(
    tr: Translator,
    flow: Flow,
    board: FameBoard,
    names: Sequence[str],
    now_ns: int,
    lights: LightState | None,
) -> InitialsView:
    """The initials phase: ``names`` are the seats' names (``Player 1``, ``CPU``)."""
    panels: list[InitialsPanel] = []
    for p in (0, 1):
        entry = flow.entries.get(p)
        if entry is None:
            panels.append(InitialsPanel(names[p], (tr.t("fame.well_played"),)))
            continue
        lines = []
        for new in flow.entry_places.get(p, ()):
            candidate = new.candidate
            rank = _rank(board, candidate.category, new.entry_id)
            place = f" · #{rank}" if rank is not None else ""
            lines.append(
                f"{category_title(tr, candidate.category)}: "
                f"{figure_text(tr, candidate.category, candidate.figure)}{place}"
            )
        status = (
            tr.t("fame.saved")
            if entry.done
            else tr.t("fame.seconds_left", seconds=entry.seconds_left(now_ns))
        )
        panels.append(
            InitialsPanel(
                tr.t("fame.new_record"),
                tuple(lines),
                letters=entry.showing,
                position=entry.position,
                status=status,
            )
        )
    return InitialsView((panels[0], panels[1]), tr.t("fame.help"), lights)


def board_view(
    tr: Translator, board: FameBoard, new_after: int, lights: LightState | None
) -> FameBoardView:
    """The board: each category with entries, best first; entries whose order is above
    ``new_after`` are marked new."""
    columns = []
    for category in Category:
        top = board.top(category)
        if not top:
            continue
        rows = tuple(
            FameRow(
                f"{k + 1}.",
                shown_initials(e.initials),
                figure_text(tr, category, e.figure),
                e.date,
                new=e.order > new_after,
            )
            for k, e in enumerate(top)
        )
        columns.append(FameColumn(category_title(tr, category), rows))
    return FameBoardView(tr.t("fame.title"), tuple(columns), lights)


def champions_view(tr: Translator, board: Champions, lights: LightState | None) -> ChampionsView:
    """The route's champions, in the hall of fame's category order, each figure worded
    as the local board words it, blocked initials as ``???``."""
    by_category = {c.category: c for c in board.champions}
    rows = tuple(
        ChampionRow(
            category_title(tr, category),
            shown_initials(champion.initials),
            figure_text(tr, category, champion.figure),
            champion.venue,
        )
        for category in Category
        if (champion := by_category.get(category.value)) is not None
    )
    return ChampionsView(tr.t("fame.champions"), rows, lights)
