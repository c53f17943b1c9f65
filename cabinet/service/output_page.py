"""The output test: each light in turn, each pattern, and the light board link's health."""

from __future__ import annotations

from cabinet.service.format import button_label
from cabinet.service.kit import Item, ListPage, Menu
from cabinet.service.screen import Tone
from cabinet.shared.light_show import light_button
from firmware_bridge.lights import (
    BLUE,
    GREEN,
    LIGHT_NAMES,
    RED,
    WHITE,
    Light,
    LightName,
    LightState,
)
from game.units import S

PATTERNS: tuple[str, ...] = ("each", "white", "red", "green", "blue", "blink", "pulse", "off")
"""What the output test shows: ``each`` light in turn, all lit in one colour, all
blinking, all pulsing (timed by the board), all off."""

STEP_S = 1


def pattern_lights(pattern: str, index: int) -> LightState:
    """The light state of ``pattern``; ``index`` is the light lit in ``each``."""
    off = LightState.all_off()
    if pattern == "each":
        return off.replaced({LIGHT_NAMES[index % len(LIGHT_NAMES)]: Light.on(WHITE)})
    everything = {
        "white": Light.on(WHITE),
        "red": Light.on(RED),
        "green": Light.on(GREEN),
        "blue": Light.on(BLUE),
        "blink": Light.blink(500, WHITE),
        "pulse": Light.pulse(2000, WHITE),
        "off": Light.off(),
    }[pattern]
    return off.replaced(dict.fromkeys(LIGHT_NAMES, everything))


def light_label(menu: Menu, name: LightName) -> str:
    """``Player 1 · Slot 1``, ``Stuck · player 2``, ``Spit``."""
    tr = menu.tr
    if name is LightName.SPIT:
        return tr.t("play.spit")
    if name in (LightName.STUCK1, LightName.STUCK2):
        player = 1 if name is LightName.STUCK1 else 2
        return f"{tr.t('play.stuck')} · {tr.t('play.player', player=player)}"
    owner = light_button(name)
    assert owner is not None  # every other light is a button's
    player, button = owner
    return f"{tr.t('play.player', player=player + 1)} · {button_label(tr, button)}"


class OutputTestPage(ListPage):
    title_key = "service.tests.output"

    def __init__(self) -> None:
        super().__init__()
        self.pattern = 0
        self.light = 0
        self.auto = True
        self.started_ns: int | None = None

    def _index(self, now_ns: int) -> int:
        if not self.auto or self.started_ns is None:
            return self.light
        return self.light + int((now_ns - self.started_ns) // (STEP_S * S))

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        if self.started_ns is None:
            self.started_ns = now_ns
        tr = menu.tr
        pattern = PATTERNS[self.pattern]

        def step_pattern(direction: int) -> None:
            self.pattern = (self.pattern + direction) % len(PATTERNS)

        def step_light(direction: int) -> None:
            self.light = (self._index(now_ns) + direction) % len(LIGHT_NAMES)
            self.auto = False

        items = [
            Item(
                tr.t("service.output.pattern"),
                tr.t(f"service.output.pattern.{pattern}"),
                step=step_pattern,
            )
        ]
        if pattern == "each":
            name = LIGHT_NAMES[self._index(now_ns) % len(LIGHT_NAMES)]
            items.append(
                Item(tr.t("service.output.light"), light_label(menu, name), step=step_light)
            )
        items.extend(self._health(menu))
        return items

    def _health(self, menu: Menu) -> list[Item]:
        tr = menu.tr
        health = menu.context.link_health()
        head = tr.t("service.output.board")
        if health is None:
            return [Item(head, tr.t("service.output.on_screen"), tone=Tone.HEAD)]
        firmware = health.board.firmware if health.board is not None else "–"
        rtt = "–" if health.rtt_ms is None else f"{tr.decimal(health.rtt_ms, 1)} ms"
        state = "service.output.connected" if health.connected else "service.output.disconnected"
        return [
            Item(head, tr.t(state), tone=Tone.HEAD if health.connected else Tone.WARN),
            Item(tr.t("service.output.port"), health.port or "–", tone=Tone.HEAD),
            Item(tr.t("service.output.firmware"), firmware, tone=Tone.HEAD),
            Item(tr.t("service.output.rtt"), rtt, tone=Tone.HEAD),
            Item(tr.t("service.output.errors"), str(health.errors), tone=Tone.HEAD),
            Item(tr.t("service.output.reconnects"), str(health.reconnects), tone=Tone.HEAD),
        ]

    def lights(self, menu: Menu, now_ns: int) -> LightState | None:
        return pattern_lights(PATTERNS[self.pattern], self._index(now_ns))
