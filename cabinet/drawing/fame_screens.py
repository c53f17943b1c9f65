"""Painting the hall of fame's screens: the initials entry (each player's panel, turned
to its player in cocktail) and the board (a grid of categories over the whole screen,
twice in cocktail: one for each side), and the route's champions (one row per category,
laid out the same way)."""

from __future__ import annotations

from cabinet.drawing.box import Box
from cabinet.drawing.fame_views import ChampionsView, FameBoardView, InitialsView
from cabinet.drawing.painter import GREEN, GREY, WHITE, YELLOW, Painter, local


def paint_initials(painter: Painter, view: InitialsView) -> None:
    """Each player's panel: title, record lines, the three letters (the one being chosen
    in yellow), the time left; then the help line in the banner."""
    for p, (pg, panel) in enumerate(zip(painter.geometry.players, view.players, strict=True)):
        box, rot = pg.panel, pg.rotation
        entering = panel.letters is not None and panel.position < 3
        painter.add_panel("panel", p, box, (0, 0, 0, 160), YELLOW if entering else GREY)
        title = local(box, 0, box.h // 16, box.w, box.h * 16 // 100, rot)
        painter.add_text("title", panel.title, title, rot, YELLOW, player=p)
        top = box.h * 24 // 100
        line_h = box.h // 11
        for k, line in enumerate(panel.lines[:3]):
            lb = local(box, box.w // 12, top + k * line_h, box.w * 10 // 12, line_h, rot)
            painter.add_text("line", line, lb, rot, WHITE, player=p)
        if panel.letters is not None:
            cell_w = box.w // 5
            cell_y = box.h * 58 // 100
            for i, letter in enumerate(panel.letters):
                cell = local(box, cell_w + i * cell_w, cell_y, cell_w, box.h * 22 // 100, rot)
                colour = YELLOW if i == panel.position else (GREEN if i < panel.position else GREY)
                painter.add_text("letter", letter if letter != " " else "_", cell, rot, colour,
                                 player=p, index=i, fill=0.9)  # fmt: skip
        status = local(box, 0, box.h * 84 // 100, box.w, box.h * 12 // 100, rot)
        painter.add_text("status", panel.status, status, rot, WHITE, player=p)
    for i, placed in enumerate(painter.geometry.banners):
        painter.add_text("footer", view.help, placed.box, placed.rotation, WHITE, index=i, fill=0.4)


def _halves(painter: Painter) -> list[tuple[Box, int]]:
    """The table area, or in cocktail its two halves, one facing each side."""
    geometry = painter.geometry
    screen = geometry.table
    halves: list[tuple[Box, int]] = [(screen, 0)]
    if geometry.pile_rotations[1] == 180:
        half = screen.h // 2
        halves = [(Box(screen.x, screen.y + half, screen.w, screen.h - half), 0)]
        halves.append((Box(screen.x, screen.y, screen.w, half), 180))
    return halves


def paint_fame_board(painter: Painter, view: FameBoardView) -> None:
    """The board over the table area: the title, then the categories in a grid, each a
    title and its rows (rank, initials, figure, date; new ones in yellow)."""
    for index, (area, rot) in enumerate(_halves(painter)):
        painter.add_panel("banner", None, area, (0, 0, 0, 215), None, index=index)
        title = local(area, 0, area.h // 40, area.w, area.h // 9, rot)
        painter.add_text("headline", view.title, title, rot, YELLOW, index=index, fill=0.8)
        columns = view.columns
        if not columns:
            continue
        per_row = 3 if len(columns) > 4 else 2
        rows_of = -(-len(columns) // per_row)
        grid_y = area.h * 16 // 100
        cell_w = area.w // per_row
        cell_h = (area.h - grid_y - area.h // 40) // rows_of
        for k, column in enumerate(columns):
            cx, cy = (k % per_row) * cell_w, grid_y + (k // per_row) * cell_h
            head = local(area, cx + cell_w // 20, cy, cell_w * 9 // 10, cell_h // 6, rot)
            painter.add_text("fame_title", column.title, head, rot, GREEN, index=index)
            line_h = cell_h * 5 // 6 // max(5, len(column.rows))
            for r, row in enumerate(column.rows):
                text = f"{row.rank}  {row.initials}  {row.figure}  {row.date}"
                y = cy + cell_h // 6 + r * line_h
                lb = local(area, cx + cell_w // 20, y, cell_w * 9 // 10, line_h, rot)
                colour = YELLOW if row.new else WHITE
                painter.add_text("fame_row", text, lb, rot, colour, index=index, align="left")


def paint_champions(painter: Painter, view: ChampionsView) -> None:
    """The route's champions over the table area: the title, then a row per category
    (its title in green; initials, figure and venue in white)."""
    for index, (area, rot) in enumerate(_halves(painter)):
        painter.add_panel("banner", None, area, (0, 0, 0, 215), None, index=index)
        title = local(area, 0, area.h // 40, area.w, area.h // 9, rot)
        painter.add_text("headline", view.title, title, rot, YELLOW, index=index, fill=0.8)
        top = area.h * 16 // 100
        line_h = (area.h - top - area.h // 40) // max(6, len(view.rows))
        for r, row in enumerate(view.rows):
            y = top + r * line_h
            head = local(area, area.w // 20, y, area.w * 9 // 20, line_h, rot)
            painter.add_text("champion_title", row.category, head, rot, GREEN, index=index,
                             align="left")  # fmt: skip
            text = f"{row.initials}  {row.figure}  {row.venue}"
            body = local(area, area.w // 2, y, area.w * 9 // 20, line_h, rot)
            painter.add_text("champion_row", text, body, rot, WHITE, index=index, align="left")
