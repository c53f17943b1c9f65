"""The game-over screen and what it says of each player: the headline, cards left, plays,
the fastest play and each side of the game's closest race (plain values, no pygame)."""

from __future__ import annotations

from cabinet.display.flow import Flow
from cabinet.drawing.views import GameOverView, PlayerSummary
from cabinet.i18n import Translator
from firmware_bridge.lights import LightState
from game.summary import ClosestRace, Seat
from game.units import MS, S


def seat_names(tr: Translator, flow: Flow) -> tuple[str, str]:
    """Each seat as the screens name it: "Player 1", "CPU"."""
    kinds = flow.seat_kinds
    return (
        tr.t("play.cpu") if kinds[0] is Seat.CPU else tr.t("play.player", player=1),
        tr.t("play.cpu") if kinds[1] is Seat.CPU else tr.t("play.player", player=2),
    )


def game_over_view(tr: Translator, flow: Flow, lights: LightState) -> GameOverView:
    """Game over for the flow's last game."""
    summary = flow.last_summary
    winner = summary.winner if summary is not None else None
    kinds = flow.seat_kinds
    if summary is not None and summary.abandoned:
        headline = tr.t("gameover.abandoned")
    elif winner is None:
        headline = tr.t("gameover.draw")
    elif kinds[winner] is Seat.CPU:
        headline = tr.t("gameover.cpu_wins")
    else:
        headline = tr.t("gameover.wins", player=winner + 1)
    cards_left, plays, fastest_ns = (
        (summary.cards_left, summary.plays, summary.fastest_play_ns)
        if summary is not None
        else ((0, 0), (0, 0), (None, None))
    )
    closest = summary.closest_race if summary is not None else None
    names = seat_names(tr, flow)
    players = []
    for p in (0, 1):
        lines = [
            tr.t("gameover.cards_left", count=cards_left[p]),
            tr.t("gameover.plays", count=plays[p]),
        ]
        fastest = fastest_ns[p]
        if fastest is not None:
            lines.append(tr.t("gameover.fastest_play", ms=fastest / MS))
        if closest is not None:
            lines.extend(closest_race_lines(tr, closest, p))
        players.append(PlayerSummary(names[p], tuple(lines), winner == p))
    match_line = None
    if flow.settings.rules.best_of > 1:
        match_line = tr.t("gameover.match_score", score0=flow.scores[0], score1=flow.scores[1])
    return GameOverView(headline, (players[0], players[1]), match_line, lights)


def closest_race_lines(tr: Translator, race: ClosestRace, player: int) -> list[str]:
    """A player's lines of the game's closest race: won or lost by how much (or an exact
    tie), and when they pressed, from the start of the game: the winner's press is the
    race's time, the loser's came the margin later."""
    if race.margin_ns <= 0:
        head = tr.t("gameover.closest_race_tie")
    elif race.winner == player:
        head = tr.t("gameover.closest_race", ms=race.margin_ns / MS)
    else:
        head = tr.t("gameover.closest_race_lost", ms=race.margin_ns / MS)
    pressed_ns = race.t_ns + (0 if race.winner == player else race.margin_ns)
    pressed = f"{tr.decimal(pressed_ns / S, 4)} s"
    return [head, tr.t("gameover.pressed_at", value=pressed)]
