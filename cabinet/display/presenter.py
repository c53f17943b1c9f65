"""What the cabinet shows, lights and plays, from the flow: plain values, no pygame.

:class:`Presenter` maps the flow, the settings and the table state it is given to the
frame's view (:mod:`cabinet.drawing.views`, with the
:class:`~firmware_bridge.lights.LightState` the on-screen strip shows in it) and to the
:class:`~cabinet.table.messages.LightsContext` the table process lights the LED board
from; the game-over screen is :mod:`cabinet.display.game_over`'s, the sounds
:mod:`cabinet.display.sounds`'.

Nothing here reads a clock, the buttons or the table: the main loop (:mod:`cabinet.display.app`)
reads the table's state (holding the table's lock when the game is played in its own
process), hands it over with ``now``, and draws and plays what comes back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cabinet.display.app_settings import AppSettings
from cabinet.display.fame_presenter import board_view, champions_view, initials_view
from cabinet.display.flow import Flow
from cabinet.display.game_over import game_over_view, seat_names
from cabinet.drawing.views import (
    AttractView,
    GameOverView,
    JoinPlayer,
    JoinView,
    PlayerSummary,
    RaceMoment,
    TableLabels,
    TableView,
    View,
    table_view,
)
from cabinet.halloffame.board import FameBoard
from cabinet.i18n import Translator
from cabinet.money.shown import CreditsShown
from cabinet.service.format import button_label
from cabinet.shared.light_show import (
    READY_SHOWN_NS,
    countdown_left_ns,
    game_lights,
    lights_for,
)
from cabinet.shared.phase import Phase
from cabinet.table.interface import Match
from cabinet.table.messages import LightsContext
from firmware_bridge.lights import LightState
from fleet.wire_down import Champions
from game.edges import Button
from game.events import (
    LateEdge,
    Rejected,
    RejectReason,
)
from game.table_state import TableState
from game.units import MS

CLOSE_RACE_NS = 10 * MS
"""A race won by less than this is shown on its pile, for both players, as it happens."""
RACE_MOMENT_NS = 1500 * MS
"""How long (match time) a close race stays on its pile."""

HOWTO_CARDS = 4
"""How many how-to-play cards attract takes turns with."""

FAME_TURN = HOWTO_CARDS
"""Attract's turns: the how-to cards, then the hall of fame (when it has entries), then
the route's champions (when the fleet has sent a board with any)."""


@dataclass(frozen=True, slots=True)
class FameShown:
    """The hall of fame for the screens: the board, and the last entry already known
    when the cabinet started (later ones are shown as new)."""

    board: FameBoard
    new_after: int = 0


@dataclass(frozen=True, slots=True)
class Shown:
    """One frame: the view, and the context the table process lights the LED board from
    (``None``: the table is told nothing)."""

    view: View
    table_lights: LightsContext | None

    @property
    def lights(self) -> LightState:
        """The lights this frame shows (all off when the view has none)."""
        lights = self.view.lights
        return lights if lights is not None else LightState.all_off()


@dataclass(frozen=True, slots=True)
class Presenter:
    """The screens of ``flow``, in ``tr``'s language, with ``settings``' hints and light
    brightness."""

    flow: Flow
    settings: AppSettings
    tr: Translator

    def show(
        self,
        now: int,
        state: TableState | None,
        *,
        stuck: Mapping[int, Button] | None = None,
        notices: Sequence[str] = (),
        credits: CreditsShown | None = None,
        fame: FameShown | None = None,
        champions: Champions | None = None,
    ) -> Shown:
        """The frame at ``now`` (the cabinet clock). ``state``: the table on screen, the
        attract demo's or the game's being readied or played (``None`` while players join
        and at game over); ``stuck``: the button each player has stuck, if any;
        ``notices``: what the operator must see, taking turns with attract's how-to cards;
        ``credits``: the money line of attract and join (``None``: no money kept);
        ``fame``: the hall of fame (``None``: off), for attract's turn and the initials;
        ``champions``: the route's champions, for a turn of their own (``None``: none)."""
        flow = self.flow
        context = self.lights_context()
        if flow.phase is Phase.ATTRACT:
            assert state is not None
            fame_turn = fame is not None and bool(fame.board.entries)
            route_turn = champions is not None and bool(champions.champions)
            turns = HOWTO_CARDS + fame_turn + route_turn
            turn = flow.howto_index(now, turns)
            if fame is not None and fame_turn and turn == FAME_TURN:
                lights = self._lights()
                return Shown(board_view(self.tr, fame.board, fame.new_after, lights), context)
            if champions is not None and route_turn and turn == FAME_TURN + fame_turn:
                return Shown(champions_view(self.tr, champions, self._lights()), context)
            return Shown(self._attract(now, state, notices, credits, turns), context)
        if flow.phase is Phase.INITIALS:
            board = fame.board if fame is not None else FameBoard()
            lights = self._lights()
            view = initials_view(self.tr, flow, board, self._names(), now, lights)
            return Shown(view, context)
        if flow.phase is Phase.JOIN:
            return Shown(self._join(now, credits), context)
        match = flow.match
        assert match is not None
        if flow.phase is Phase.GAME_OVER:
            return Shown(self._game_over(), context)
        assert state is not None
        return Shown(self._table(match, now, state, stuck or {}), context)

    def out_of_order(self, reason: str | None = None) -> Shown:
        """The table process is being restarted, or (``reason``) cannot run as the
        cabinet is set up: the cabinet says so, and why."""
        tr = self.tr
        side = PlayerSummary("", (reason or tr.t("table.restarting"),))
        return Shown(GameOverView(tr.t("table.out_of_order"), (side, side), None, None), None)

    def lights_context(self) -> LightsContext:
        """What the table process needs to light the LED board as this screen does."""
        flow = self.flow
        return LightsContext(
            flow.phase,
            joined=(flow.joined[0], flow.joined[1]),
            winner=self._winner(),
            hints=self.settings.hints,
            brightness=self.settings.brightness_percent,
        )

    def screen_clock(self, now: int) -> int:
        """The clock the screen's animations run on: the shown game's match clock."""
        flow = self.flow
        if flow.phase is Phase.ATTRACT:
            return flow.demo.to_match(now)
        if flow.match is not None:
            return flow.match.to_match(now)
        return 0

    def race_text(self, winner: int, margin_ns: int) -> str:
        """A close race's moment on its pile: "Player 1 first by 3.2 ms" ("Tie!" for an
        exact tie, which the tie rule decided)."""
        if margin_ns <= 0:
            return self.tr.t("play.tie")
        return self.tr.t("play.race_first", name=self._names()[winner], ms=margin_ns / MS)

    def beaten_text(self, margin_ns: int) -> str:
        """The "beaten by 12.3 ms" label under a play that lost its race."""
        return self.tr.t("play.beaten_by", ms=margin_ns / MS)

    # -- the screens -------------------------------------------------------------------

    def credits_line(self, credits: CreditsShown | None) -> str | None:
        """ "FREE PLAY", or "CREDITS 1 1/2 · 1 credit per player"."""
        if credits is None:
            return None
        tr = self.tr
        if credits.free_play:
            return tr.t("money.free_play")
        price_key = "money.price_match" if credits.per_match else "money.price_player"
        return (
            tr.t("money.credits", value=credits.credits)
            + " · "
            + tr.t(price_key, count=credits.price)
        )

    def _attract_prompt(self, credits: CreditsShown | None) -> str:
        if credits is None or credits.free_play:
            return self.tr.t("attract.press_any_button")
        if credits.one_may_start:
            return self.tr.t("attract.press_start")
        return self.tr.t("money.insert_coin")

    def _attract(
        self,
        now: int,
        state: TableState,
        notices: Sequence[str],
        credits: CreditsShown | None = None,
        turns: int = HOWTO_CARDS,
    ) -> AttractView:
        flow = self.flow
        tr = self.tr
        labels = TableLabels(
            (
                tr.t(f"cpu.level.{flow.settings.demo_levels[0]}"),
                tr.t(f"cpu.level.{flow.settings.demo_levels[1]}"),
            ),
            tr.t("play.stuck"),
        )
        table = table_view(state, labels, countdown=self._countdown(flow.demo, now, state))
        card = flow.howto_index(now, turns) % HOWTO_CARDS + 1
        howto = tr.t(f"attract.howto.{card}")
        if notices and card % 2:  # every other card, until the operator has looked
            howto = tr.t("attract.operator_notice", name=notices[0])
        lights = self._lights()
        return AttractView(
            table=_with_lights(table, lights),
            prompt=self._attract_prompt(credits),
            howto=howto,
            credits=self.credits_line(credits),
        )

    def _join_status(self, player: int, credits: CreditsShown | None) -> str:
        tr = self.tr
        if self.flow.joined[player]:
            return tr.t("join.ready", player=player + 1)
        if credits is None or credits.free_play:
            return tr.t("join.press_to_join", player=player + 1)
        if credits.two_may_start:
            return tr.t("join.press_start", player=player + 1)
        return tr.t("money.insert_coin")

    def _join(self, now: int, credits: CreditsShown | None = None) -> JoinView:
        flow = self.flow
        tr = self.tr
        players = tuple(
            JoinPlayer(
                tr.t("play.player", player=p + 1),
                self._join_status(p, credits),
                flow.joined[p],
            )
            for p in (0, 1)
        )
        seconds = flow.join_cpu_in_s(now)
        footer = (
            tr.t("join.cpu_in", seconds=seconds)
            if seconds is not None
            else tr.t("join.waiting_for_opponent")
        )
        return JoinView(
            (players[0], players[1]),
            footer,
            self._lights(),
            credits=self.credits_line(credits),
        )

    def _table(
        self, match: Match, now: int, state: TableState, stuck: Mapping[int, Button]
    ) -> TableView:
        """The game being readied or played."""
        tr = self.tr
        countdown = self._countdown(match, now, state)
        labels = TableLabels(self._names(), tr.t("play.stuck"))
        warnings = (self._stuck_warning(stuck.get(0)), self._stuck_warning(stuck.get(1)))
        cards_left = tuple(tr.t("gameover.cards_left", count=state.cards_left(p)) for p in (0, 1))
        score = None
        if self.flow.settings.rules.best_of > 1:
            scores = self.flow.scores
            score = tr.t("gameover.match_score", score0=scores[0], score1=scores[1])
        table = table_view(
            state,
            labels,
            countdown=countdown,
            warnings=warnings,
            cards_left=(cards_left[0], cards_left[1]),
            score=score,
            races=self._races(match, now),
        )
        if self.flow.phase is Phase.READY:  # the piles get their cards at "spit!" (R5)
            table = dataclasses.replace(table, pile_tops=(None, None), pile_sizes=(0, 0))
        flow = self.flow
        lights = game_lights(
            flow.phase,
            state,
            start_abs_ns=match.start_abs_ns,
            humans=match.humans,
            now_abs_ns=now,
            hints_on=self.settings.hints,
            joined=(flow.joined[0], flow.joined[1]),
            winner=self._winner(),
            brightness=self.settings.brightness_percent,
        )
        return _with_lights(table, lights)

    def _game_over(self) -> GameOverView:
        return game_over_view(self.tr, self.flow, self._lights())

    # -- pieces ------------------------------------------------------------------------

    def _races(self, match: Match, now: int) -> tuple[RaceMoment, ...]:
        """The close races of the last :data:`RACE_MOMENT_NS` of match time, the latest
        one per pile: each beaten play by less than :data:`CLOSE_RACE_NS` (the referee's
        events carry the margin)."""
        clock = match.to_match(now)
        since = clock - RACE_MOMENT_NS
        shown: dict[int, RaceMoment] = {}
        for event in reversed(match.events):
            if type(event) is LateEdge:
                continue  # stamped with its press, not when it was decided
            if event.t_ns <= since:
                break
            if (
                type(event) is Rejected
                and event.reason is RejectReason.BEATEN
                and event.margin_ns is not None
                and event.margin_ns < CLOSE_RACE_NS
                and event.t_ns <= clock
                and event.pile not in shown
            ):
                text = self.race_text(1 - event.player, event.margin_ns)
                shown[event.pile] = RaceMoment(event.pile, text)
        return tuple(shown[pile] for pile in sorted(shown))

    def _names(self) -> tuple[str, str]:
        return seat_names(self.tr, self.flow)

    def _stuck_warning(self, button: Button | None) -> str | None:
        """E.g. "Slot 2 is stuck": a player's button held down too long."""
        if button is None:
            return None
        return self.tr.t("play.button_stuck", button=button_label(self.tr, button))

    def _countdown(self, match: Match, now: int, state: TableState) -> str | None:
        """ "Ready…" then "Spit!" while a countdown runs (the start's or R11's)."""
        left = countdown_left_ns(match.start_abs_ns, state.spit_due_ns, now)
        if left is None:
            return None
        return self.tr.t("play.ready") if left > READY_SHOWN_NS else self.tr.t("play.spit")

    def _winner(self) -> int | None:
        summary = self.flow.last_summary
        return summary.winner if summary is not None else None

    def _lights(self) -> LightState:
        """The lights of a screen with no game on it (the game's: :func:`game_lights`)."""
        flow = self.flow
        return lights_for(
            flow.phase,
            None,
            countdown=False,
            joined=(flow.joined[0], flow.joined[1]),
            winner=self._winner(),
            brightness=self.settings.brightness_percent,
        )


def _with_lights(table: TableView, lights: LightState) -> TableView:
    return dataclasses.replace(table, lights=lights)
