"""Cards in motion, as a pure function of the game's events and the time.

Feed the :class:`Animator` the events the referee decided (each carries its ``t_ns`` on the
match clock); ask it for the :class:`AnimationFrame` at any ``now_ns`` on that clock, in
non-decreasing order. Nothing here reads a clock or sleeps, so tests drive it with
explicit times.

What moves (durations in :class:`Timings`, in nanoseconds):

* a played card flies from its slot to the pile (eased out), growing from the slot's size
  to the pile's (its box is interpolated, size included), and the pile keeps showing the
  card under it until it lands;
* the refill slides from the deck into the slot, which stays empty until it lands;
* a rejected play (illegal or beaten) bounces toward the pile and back; a beaten one also
  shows the flow's "beaten by 12.3 ms" label on that player's message line. A slot's card
  bounces once at a time: another rejection or a play from that slot ends its bounce;
* at the start and at each spit, the spat cards fly from the decks to the piles, growing
  the same way.

A close race's moment by its pile is not an animation: the presenter puts it in the view
(:attr:`cabinet.drawing.views.TableView.races`) for as long as it shows.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from cabinet.drawing.box import Box
from cabinet.drawing.geometry import TableGeometry
from game.cards import Card
from game.events import Event, Played, Refilled, Rejected, RejectReason, Spat, Started
from game.units import MS


class AnimationClockError(ValueError):
    """A frame was asked for at a time before the previous frame's."""


@dataclass(frozen=True, slots=True)
class Timings:
    """Animation durations in nanoseconds."""

    play_ns: int = 150 * MS
    refill_delay_ns: int = 60 * MS
    """A refill leaves the deck this long after the play, so the eye follows the play."""
    refill_ns: int = 160 * MS
    bounce_ns: int = 220 * MS
    bounce_reach: float = 0.3
    """How far toward the pile a rejected card goes before coming back (0..1)."""
    spit_ns: int = 250 * MS
    label_ns: int = 1500 * MS
    """How long a beaten label stays up."""


class MotionKind(enum.Enum):
    PLAY = "play"
    REFILL = "refill"
    BOUNCE = "bounce"
    SPIT = "spit"


Target = tuple[str, int, int]
"""What a motion hides while it runs: ("pile", pile, 0) or ("slot", player, slot)."""


@dataclass(frozen=True, slots=True)
class Motion:
    """One card moving from ``start`` to ``end`` over [``start_ns``, ``end_ns``)."""

    kind: MotionKind
    player: int
    card: Card | None
    """``None`` for a bounce: the card is whatever the slot holds (the view knows)."""
    start: Box
    end: Box
    start_ns: int
    end_ns: int
    rotation: int
    target: Target
    hide_from_ns: int
    """From here until ``end_ns`` the target shows ``under`` instead of its own card."""
    under: Card | None
    known_under: bool = True
    """False when the animator did not see what the target held before (fed mid-game):
    then the target is not hidden."""
    reach: float = 1.0
    """For a bounce: the fraction of the way to ``end`` it turns back at."""

    def box_at(self, now_ns: int) -> Box:
        """Where the card is at ``now_ns`` (clamped to the motion's span)."""
        span = self.end_ns - self.start_ns
        u = 1.0 if span <= 0 else min(1.0, max(0.0, (now_ns - self.start_ns) / span))
        if self.kind is MotionKind.BOUNCE:
            return self.start.lerp(self.end, math.sin(math.pi * u) * self.reach)
        return self.start.lerp(self.end, ease_out(u))


def ease_out(u: float) -> float:
    """Cubic ease-out: fast start, gentle landing; 0 → 0, 1 → 1."""
    return 1.0 - (1.0 - u) ** 3


@dataclass(frozen=True, slots=True)
class Sprite:
    """A moving card to draw on top of the table."""

    kind: MotionKind
    player: int
    card: Card
    box: Box
    rotation: int


@dataclass(frozen=True, slots=True)
class AnimationFrame:
    """What animation changes at one instant."""

    sprites: tuple[Sprite, ...] = ()
    slots: dict[tuple[int, int], Card | None] = field(default_factory=dict)
    """(player, slot) → what that slot shows instead of the view's card."""
    piles: dict[int, Card | None] = field(default_factory=dict)
    """pile → what it shows instead of the view's top."""
    labels: tuple[tuple[int, str], ...] = ()
    """(player, text) of labels up now."""
    next_change_ns: int | None = None
    """When this frame next changes by itself: ``now`` while something moves, a later
    start or expiry otherwise, ``None`` when nothing is pending."""


@dataclass(frozen=True, slots=True)
class _Label:
    player: int
    text: str
    start_ns: int
    end_ns: int


class Animator:
    """Turns game events into motions for one table geometry.

    ``beaten_text(margin_ns)`` gives the translated label for a play beaten by
    ``margin_ns`` nanoseconds (e.g. ``"beaten by 12.3 ms"``); without it, beaten plays
    bounce but show no label.
    """

    def __init__(
        self,
        geometry: TableGeometry,
        *,
        beaten_text: Callable[[int], str] | None = None,
        timings: Timings | None = None,
    ) -> None:
        self.geometry = geometry
        self.beaten_text = beaten_text
        self.timings = timings if timings is not None else Timings()
        self._motions: list[Motion] = []
        self._labels: list[_Label] = []
        self._pile_top: list[Card | None] = [None, None]
        self._pile_known = [False, False]
        self._last_now: int | None = None

    def clear(self) -> None:
        """Forget every motion and what the piles held (a new game or a new screen)."""
        self._motions.clear()
        self._labels.clear()
        self._pile_top = [None, None]
        self._pile_known = [False, False]
        self._last_now = None

    @property
    def pending(self) -> int:
        """Motions not yet pruned (running or about to)."""
        return len(self._motions)

    def feed(self, events: Iterable[Event]) -> None:
        """Take decided events, in order; events that do not move cards are ignored."""
        for event in events:
            kind = type(event)
            if kind is Played:
                assert isinstance(event, Played)
                self._played(event)
            elif kind is Refilled:
                assert isinstance(event, Refilled)
                self._refilled(event)
            elif kind is Rejected:
                assert isinstance(event, Rejected)
                self._rejected(event)
            elif kind is Started or kind is Spat:
                assert isinstance(event, Started | Spat)
                self._spat(event.t_ns, event.cards)

    def _stop_bounce(self, player: int, slot: int) -> None:
        """A slot's card is in one place at a time: a new motion from the slot ends the
        bounce it is in (a player hammering a pile button restarts the bounce, rather
        than stacking a copy of the card per press)."""
        target = ("slot", player, slot)
        self._motions = [
            m for m in self._motions if not (m.kind is MotionKind.BOUNCE and m.target == target)
        ]

    def _played(self, e: Played) -> None:
        self._stop_bounce(e.player, e.slot)
        p = self.geometry.players[e.player]
        under, known = self._pile_top[e.pile], self._pile_known[e.pile]
        self._pile_top[e.pile] = e.card
        self._pile_known[e.pile] = True
        self._motions.append(
            Motion(
                MotionKind.PLAY,
                e.player,
                e.card,
                p.slots[e.slot],
                self.geometry.piles[e.pile],
                e.t_ns,
                e.t_ns + self.timings.play_ns,
                p.rotation,
                ("pile", e.pile, 0),
                e.t_ns,
                under,
                known,
            )
        )

    def _refilled(self, e: Refilled) -> None:
        p = self.geometry.players[e.player]
        start = e.t_ns + self.timings.refill_delay_ns
        self._motions.append(
            Motion(
                MotionKind.REFILL,
                e.player,
                e.card,
                p.deck,
                p.slots[e.slot],
                start,
                start + self.timings.refill_ns,
                p.rotation,
                ("slot", e.player, e.slot),
                e.t_ns,
                None,
            )
        )

    def _rejected(self, e: Rejected) -> None:
        if e.reason not in (RejectReason.BEATEN, RejectReason.ILLEGAL):
            return
        self._stop_bounce(e.player, e.slot)
        p = self.geometry.players[e.player]
        self._motions.append(
            Motion(
                MotionKind.BOUNCE,
                e.player,
                None,
                p.slots[e.slot],
                self.geometry.piles[e.pile],
                e.t_ns,
                e.t_ns + self.timings.bounce_ns,
                p.rotation,
                ("slot", e.player, e.slot),
                e.t_ns,
                None,
                reach=self.timings.bounce_reach,
            )
        )
        if e.reason is RejectReason.BEATEN and self.beaten_text is not None:
            margin = e.margin_ns if e.margin_ns is not None else 0
            self._labels = [lb for lb in self._labels if lb.player != e.player]
            self._labels.append(
                _Label(e.player, self.beaten_text(margin), e.t_ns, e.t_ns + self.timings.label_ns)
            )

    def _spat(self, t_ns: int, cards: tuple[Card | None, Card | None]) -> None:
        for player, card in enumerate(cards):
            if card is None:
                continue
            p = self.geometry.players[player]
            under, known = self._pile_top[player], self._pile_known[player]
            self._pile_top[player] = card
            self._pile_known[player] = True
            self._motions.append(
                Motion(
                    MotionKind.SPIT,
                    player,
                    card,
                    p.deck,
                    self.geometry.piles[player],
                    t_ns,
                    t_ns + self.timings.spit_ns,
                    p.rotation,
                    ("pile", player, 0),
                    t_ns,
                    under,
                    known,
                )
            )

    def frame(
        self, now_ns: int, layouts: tuple[tuple[Card | None, ...], ...] | None = None
    ) -> AnimationFrame:
        """Everything animation shows at ``now_ns``. Times must not go backwards.

        ``layouts`` (each player's four slots, as the view shows them) names the card a
        rejected play bounces; without it, bounces are not shown."""
        if self._last_now is not None and now_ns < self._last_now:
            raise AnimationClockError(
                f"animation frame asked for {now_ns} ns after one at {self._last_now} ns"
            )
        self._last_now = now_ns
        if not self._motions and not self._labels:
            return _EMPTY
        self._motions = [m for m in self._motions if m.end_ns > now_ns]
        self._labels = [lb for lb in self._labels if lb.end_ns > now_ns]
        sprites: list[Sprite] = []
        slots: dict[tuple[int, int], Card | None] = {}
        piles: dict[int, Card | None] = {}
        # The earliest-landing motion onto a target decides what it shows underneath.
        landing: dict[Target, int] = {}
        next_change: int | None = None
        for m in self._motions:
            card = m.card
            if card is None:  # a bounce: the card still in the slot
                if layouts is None:
                    continue
                card = layouts[m.player][m.target[2]]
                if card is None:
                    continue
            if m.start_ns <= now_ns:
                sprites.append(Sprite(m.kind, m.player, card, m.box_at(now_ns), m.rotation))
                next_change = now_ns
            elif next_change is None or m.start_ns < next_change:
                next_change = m.start_ns
            if m.hide_from_ns <= now_ns and m.known_under:
                previous = landing.get(m.target)
                if previous is None or m.end_ns < previous:
                    landing[m.target] = m.end_ns
                    kind, a, b = m.target
                    if kind == "pile":
                        piles[a] = m.under
                    else:
                        slots[(a, b)] = m.under
            elif m.known_under and (next_change is None or m.hide_from_ns < next_change):
                next_change = m.hide_from_ns
        labels: list[tuple[int, str]] = []
        for lb in self._labels:
            if lb.start_ns <= now_ns:
                labels.append((lb.player, lb.text))
                change = lb.end_ns
            else:
                change = lb.start_ns
            if next_change is None or change < next_change:
                next_change = change
        return AnimationFrame(tuple(sprites), slots, piles, tuple(labels), next_change)


_EMPTY = AnimationFrame()
