"""Which sound effect each of the game's events makes, and which screen starts with one
(docs/sound.md): plain values, for the frame loop to play."""

from __future__ import annotations

from collections.abc import Iterable

from cabinet.shared.phase import Phase
from cabinet.sound.synth import Effect
from game.events import Event, GameOver, Played, Rejected, RejectReason, Selected, Spat, SpitDue
from game.events import Started as GameStarted


def sound_for(event: Event) -> Effect | None:
    """The sound effect an event of the game (the attract demo's, or a game's) makes, or
    ``None``."""
    if isinstance(event, Selected):
        return Effect.SELECT
    if isinstance(event, Played):
        return Effect.PLAY
    if isinstance(event, Rejected):
        if event.reason is RejectReason.BEATEN:
            return Effect.BEATEN
        if event.reason is RejectReason.ILLEGAL:
            return Effect.REJECT
        return None
    if isinstance(event, Spat | GameStarted):
        return Effect.SPIT
    if isinstance(event, SpitDue):
        return Effect.COUNTDOWN
    if isinstance(event, GameOver):
        return Effect.WIN
    return None


def sound_cues(events: Iterable[Event]) -> list[Effect]:
    """The sound effects ``events`` make, in order."""
    return [name for name in map(sound_for, events) if name is not None]


def phase_sound(phase: Phase) -> Effect | None:
    """The sound effect a screen starts with: "ready… spit!" counts down."""
    return Effect.COUNTDOWN if phase is Phase.READY else None
