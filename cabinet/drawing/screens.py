"""The screens around play: the attract banner (a blinking prompt and the how-to card) over
the demo table, and the join and game-over screens' panels and banner text.

Each text goes in its reader's frame: a player's panel turned with that player's half, the
shared banner text once per banner (twice in cocktail, one for each side).
"""

from __future__ import annotations

from cabinet.drawing.painter import GREEN, GREY, WHITE, YELLOW, Painter, local
from cabinet.drawing.views import AttractView, GameOverView, JoinView
from game.units import MS

#: The attract prompt blinks: on for this long of every second (ns).
PROMPT_ON_NS = 600 * MS
PROMPT_PERIOD_NS = 1000 * MS


def paint_attract(painter: Painter, view: AttractView, now_ns: int) -> int:
    """The banner over the demo table (drawn first); returns when the prompt next blinks."""
    phase = now_ns % PROMPT_PERIOD_NS
    show_prompt = phase < PROMPT_ON_NS
    for i, placed in enumerate(painter.geometry.banners):
        box, rot = placed.box, placed.rotation
        painter.add_panel("banner", None, box, (0, 0, 0, 150), None, index=i)
        prompt_h = box.h * (24 if view.credits else 36) // 100
        prompt_box = local(box, 0, 0, box.w, prompt_h, rot)
        if show_prompt:
            painter.add_text("prompt", view.prompt, prompt_box, rot, YELLOW, index=i)
        if view.credits:
            credits_box = local(box, 0, prompt_h, box.w, box.h * 36 // 100 - prompt_h, rot)
            painter.add_text("credits", view.credits, credits_box, rot, WHITE, index=i)
        inner = local(box, box.w // 20, box.h * 38 // 100, box.w * 9 // 10, box.h * 58 // 100, rot)
        painter.add_block("howto", view.howto, inner, rot, WHITE, index=i)
    return now_ns - phase + (PROMPT_ON_NS if show_prompt else PROMPT_PERIOD_NS)


def paint_join(painter: Painter, view: JoinView) -> None:
    """Each player's panel (title, and status: green once joined), then the footer."""
    for p, (pg, jp) in enumerate(zip(painter.geometry.players, view.players, strict=True)):
        box, rot = pg.panel, pg.rotation
        border = GREEN if jp.joined else GREY
        painter.add_panel("panel", p, box, (0, 0, 0, 140), border)
        title = local(box, 0, box.h // 10, box.w, box.h * 3 // 10, rot)
        status = local(box, box.w // 20, box.h * 5 // 10, box.w * 9 // 10, box.h * 2 // 10, rot)
        painter.add_text("title", jp.title, title, rot, WHITE, player=p)
        colour = GREEN if jp.joined else YELLOW
        painter.add_text("status", jp.status, status, rot, colour, player=p)
    for i, placed in enumerate(painter.geometry.banners):
        box, rot = placed.box, placed.rotation
        footer_h = box.h * 6 // 10 if view.credits else box.h
        if view.footer:
            footer = local(box, 0, 0, box.w, footer_h, rot)
            painter.add_text("footer", view.footer, footer, rot, WHITE, index=i, fill=0.4)
        if view.credits:
            credits = local(box, 0, footer_h, box.w, box.h - footer_h, rot)
            painter.add_text("credits", view.credits, credits, rot, YELLOW, index=i, fill=0.6)


def paint_game_over(painter: Painter, view: GameOverView) -> None:
    """Each player's summary panel (the winner's in yellow), then the headline and the
    match line."""
    for p, (pg, ps) in enumerate(zip(painter.geometry.players, view.players, strict=True)):
        box, rot = pg.panel, pg.rotation
        border = YELLOW if ps.winner else GREY
        painter.add_panel("panel", p, box, (0, 0, 0, 150), border)
        title = local(box, 0, box.h // 16, box.w, box.h * 2 // 10, rot)
        painter.add_text("title", ps.title, title, rot, YELLOW if ps.winner else WHITE, player=p)
        n = max(1, len(ps.lines))
        top = box.h * 3 // 10
        line_h = min(box.h // 8, (box.h - top - box.h // 16) // n)
        for k, line in enumerate(ps.lines):
            lb = local(box, box.w // 12, top + k * line_h, box.w * 10 // 12, line_h, rot)
            painter.add_text("line", line, lb, rot, WHITE, player=p, align="left")
    for i, placed in enumerate(painter.geometry.banners):
        box, rot = placed.box, placed.rotation
        head_h = box.h * 6 // 10 if view.match_line else box.h
        head = local(box, 0, 0, box.w, head_h, rot)
        painter.add_text("headline", view.headline, head, rot, YELLOW, index=i, fill=0.7)
        if view.match_line:
            match = local(box, 0, head_h, box.w, box.h - head_h, rot)
            painter.add_text("match", view.match_line, match, rot, WHITE, index=i, fill=0.6)
