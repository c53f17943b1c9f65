"""The table's side of the lights: where their states go (:class:`LightWriter`, the LED
board's link) and which state the display's context and the running game call for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from cabinet.shared.light_show import game_lights, lights_for
from cabinet.table.messages import LightsContext
from firmware_bridge.lights import LightState
from game.live_match import LiveMatch
from game.table_state import TableState

if TYPE_CHECKING:  # the link (and pyserial) loads only with a board: --lights PORT
    from firmware_bridge.link import LinkHealth


class LightWriter(Protocol):
    """Where the table's light states go: the LED board's link."""

    def show(self, state: LightState) -> None: ...

    def health(self) -> LinkHealth: ...


def lights_state(
    ctx: LightsContext, match: LiveMatch | None, now_abs_ns: int, table: TableState | None
) -> LightState:
    """The LED snapshot for ``ctx`` at ``now_abs_ns``: its override, else the lights of
    the screen with no game on it, else ``match``'s (``table``: its state, when the
    caller has just taken it)."""
    if ctx.override is not None:
        return ctx.override
    if match is None:
        return lights_for(
            ctx.phase,
            None,
            countdown=False,
            joined=ctx.joined,
            winner=ctx.winner,
            brightness=ctx.brightness,
        )
    return game_lights(
        ctx.phase,
        table if table is not None else match.state(),
        start_abs_ns=match.start_abs_ns,
        humans=match.humans,
        now_abs_ns=now_abs_ns,
        hints_on=ctx.hints,
        joined=ctx.joined,
        winner=ctx.winner,
        brightness=ctx.brightness,
    )
