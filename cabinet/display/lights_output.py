"""Where the display process's light states go: :class:`LightsOutput` keeps them for the
on-screen strip (no LED board); :class:`TableLights` stands for the LED board, which the
table process drives. :func:`cabinet.display.assembly.lights_output` chooses between them."""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge.lights import LightState
from firmware_bridge.link import LinkHealth


class LightsOutput:
    """Where the light states go. This one keeps them for the on-screen strip (no board);
    :class:`TableLights` stands for the LED board, which the table process drives."""

    on_screen = True

    def __init__(self) -> None:
        self.state = LightState.all_off()

    def show(self, state: LightState) -> None:
        self.state = state

    def health(self) -> LinkHealth | None:
        """The LED board link's health, when there is a board."""
        return None


class TableLights(LightsOutput):
    """The LED board is driven by the table process (which writes each decision's lights
    at once); its health comes with the table's reports."""

    on_screen = False

    def __init__(self, health: Callable[[], LinkHealth | None]) -> None:
        super().__init__()
        self._health = health

    def health(self) -> LinkHealth | None:
        return self._health()
