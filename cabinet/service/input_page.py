"""The input test (every control live) and the race tester.

Both read the input layer as the game does: presses come debounced, each with the
timestamp of its first edge (the kernel's, on GPIO), the same ``t_ns`` the referee orders
races by. The players' buttons are under test here, so they do not move the menu: TEST
goes back and SERVICE clears.
"""

from __future__ import annotations

from dataclasses import dataclass

from cabinet.inputs.controls import ALL_CONTROLS, Control
from cabinet.inputs.debounce import OperatorEdge, SwitchStuck
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.money.coins import COIN_CONTROLS
from cabinet.service.format import control_label
from cabinet.service.keys import MenuKey
from cabinet.service.kit import Menu, Page
from cabinet.service.screen import MenuScreen, Row, Tone
from cabinet.shared.light_show import button_light, stuck_light
from cabinet.storage.setting_table import RACE_WINDOW_MS, TIE_RULE
from firmware_bridge.lights import GREEN, WHITE, Light, LightState
from game.rules import TieRule
from game.units import MS, S


class InputTestPage(Page):
    """Every control: down or up, presses, chatter (bounce edges), stuck, and how long ago
    it was last pressed. A button lights while it is down."""

    captures_players = True

    def __init__(self) -> None:
        self.last_press: dict[Control, int] = {}
        self.stuck_events: dict[Control, int] = {}
        self.base: dict[Control, tuple[int, int]] = {}

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        if isinstance(item, PlayerPress):
            self.last_press[Control(item.player, item.edge.button)] = item.edge.t_ns
        elif isinstance(item, OperatorEdge) and item.pressed:
            self.last_press[item.control] = item.t_ns
        elif isinstance(item, SwitchStuck):
            self.stuck_events[item.control] = self.stuck_events.get(item.control, 0) + 1

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.SELECT:  # TEST
            menu.pop(now_ns)
        elif key is MenuKey.NEXT:  # SERVICE: start the counts again
            self.last_press.clear()
            self.base = {s.control: (s.presses, s.chatter) for s in menu.context.switches()}

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        rows = [Row(tr.t("service.input.header"), "", Tone.HEAD)]
        by_control = {s.control: s for s in menu.context.switches()}
        for control in ALL_CONTROLS:
            s = by_control.get(control)
            if s is None:
                continue
            presses0, chatter0 = self.base.get(control, (0, 0))
            if control.is_coin:
                rows.append(self._coin_row(menu, control, s.down))
                continue
            last = self.last_press.get(control)
            parts = [
                tr.t("service.input.presses", count=s.presses - presses0),
                tr.t("service.input.chatter", count=s.chatter - chatter0),
                tr.t("service.input.last", value=tr.decimal((now_ns - last) / S, 1))
                if last is not None
                else tr.t("service.input.never"),
            ]
            tone = Tone.NORMAL
            if s.stuck:
                parts.insert(0, tr.t("service.input.stuck"))
                tone = Tone.WARN
            elif s.down:
                parts.insert(0, tr.t("service.input.down"))
                tone = Tone.GOOD
            rows.append(Row(control_label(tr, control), " · ".join(parts), tone))
        source = (
            "service.input.timestamps_hw"
            if menu.context.hardware_timestamps
            else "service.input.timestamps_sw"
        )
        return MenuScreen(
            tr.t("service.tests.input"),
            tuple(rows),
            None,
            tr.t("service.help.capture"),
            tr.t(source),
        )

    def _coin_row(self, menu: Menu, control: Control, down: bool) -> Row:
        """A coin line: its last pulse's length, coins and errors (a line held low
        warns)."""
        tr = menu.tr
        money = menu.context.money
        if money is None:
            return Row(control_label(tr, control), tr.t("service.money.none"), Tone.NORMAL)
        line = money.detector.lines[COIN_CONTROLS[control]]
        last = line.last_pulse_ns
        parts = [
            tr.t("service.input.pulse", ms=last / MS)
            if last is not None
            else tr.t("service.input.no_pulse"),
            tr.t("service.input.coins", count=line.coins),
            tr.t("service.input.coin_errors", count=line.errors),
        ]
        tone = Tone.NORMAL
        if line.held_low:
            parts.insert(0, tr.t("service.input.held_low"))
            tone = Tone.WARN
        elif down:
            parts.insert(0, tr.t("service.input.down"))
            tone = Tone.GOOD
        return Row(control_label(tr, control), " · ".join(parts), tone)

    def lights(self, menu: Menu, now_ns: int) -> LightState | None:
        lit = {}
        for s in menu.context.switches():
            player, button = s.control.player, s.control.button
            if s.down and player is not None and button is not None:
                lit[button_light(player, button)] = Light.on(WHITE)
        return LightState.all_off().replaced(lit)


@dataclass(frozen=True, slots=True)
class RaceResult:
    """Two presses, one per player: who was first by the timestamps and by how much, and
    the order software saw them in."""

    t_ns: tuple[int, int]
    """Each player's press time (ns, CLOCK_MONOTONIC)."""
    arrived_first: int
    """The player whose press reached the software first."""
    tie_winner: int | None = None
    """For an exact tie: the player the tie rule gave it to."""

    @property
    def first(self) -> int | None:
        """The player whose press has the earlier timestamp; ``None`` for an exact tie."""
        a, b = self.t_ns
        if a == b:
            return None
        return 0 if a < b else 1

    @property
    def margin_ns(self) -> int:
        return abs(self.t_ns[0] - self.t_ns[1])

    @property
    def reordered(self) -> bool:
        """Software saw the later press first: the race window put them right."""
        return self.first is not None and self.first != self.arrived_first


class RaceTestPage(Page):
    """Press one button of each player together: who was first, and by how much.

    The result is decided as the referee decides a race: by the presses' timestamps,
    not by the order they arrived in; an exact tie goes by the tie rule setting (the
    alternate rule's first tie goes to player 1)."""

    captures_players = True

    def __init__(self) -> None:
        self.presses: dict[int, int] = {}
        self.order: list[int] = []
        self.result: RaceResult | None = None
        self.history: list[RaceResult] = []

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        if not isinstance(item, PlayerPress):
            return
        if self.result is not None:  # a new race starts with the next press
            self.result = None
            self.presses.clear()
            self.order.clear()
        if item.player in self.presses:
            return
        self.presses[item.player] = item.edge.t_ns
        self.order.append(item.player)
        if len(self.presses) == 2:
            result = RaceResult((self.presses[0], self.presses[1]), self.order[0])
            if result.first is None:
                result = RaceResult(result.t_ns, result.arrived_first, self._tie(menu))
            self.result = result
            self.history.append(result)

    def _tie(self, menu: Menu) -> int:
        if TieRule(menu.store.settings.get(TIE_RULE)) is TieRule.ALTERNATE:
            ties = sum(1 for r in self.history if r.first is None)
            return ties % 2
        import random

        return random.Random(len(self.history)).randrange(2)

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.SELECT:
            menu.pop(now_ns)
        elif key is MenuKey.NEXT:
            self.presses.clear()
            self.order.clear()
            self.result = None

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        rows: list[Row] = [Row(tr.t("service.race.prompt"), "", Tone.HEAD)]
        for p in (0, 1):
            t = self.presses.get(p)
            value = (
                tr.t("service.race.waiting")
                if t is None
                else tr.t("service.race.pressed_at", value=tr.decimal(t / MS, 3))
            )
            rows.append(Row(tr.t("play.player", player=p + 1), value))
        r = self.result
        if r is not None:
            if r.first is None:
                assert r.tie_winner is not None
                rows.append(Row(tr.t("service.race.tie", player=r.tie_winner + 1), "", Tone.GOOD))
            else:
                margin = tr.decimal(r.margin_ns / MS, 3)
                rows.append(
                    Row(tr.t("service.race.first", player=r.first + 1, ms=margin), "", Tone.GOOD)
                )
                if r.reordered:
                    rows.append(Row(tr.t("service.race.reordered"), "", Tone.DIM))
        window = menu.store.settings.get(RACE_WINDOW_MS)
        notice = tr.t("service.race.window", ms=float(window))
        return MenuScreen(
            tr.t("service.tests.race"), tuple(rows), None, tr.t("service.help.capture"), notice
        )

    def lights(self, menu: Menu, now_ns: int) -> LightState | None:
        r = self.result
        if r is None:
            return LightState.all_off()
        winner = r.first if r.first is not None else r.tie_winner
        return LightState.all_off().replaced({stuck_light(winner or 0): Light.on(GREEN)})
