"""The cabinet's game flow: attract, join, ready, play, game over, as a state machine.

The flow never reads a clock or touches hardware: the main loop passes ``now_ns`` (the
cabinet clock, CLOCK_MONOTONIC) and the input layer's player presses in, and reads the
phase, the running :class:`~game.live_match.LiveMatch` and the notices out. Tests drive it
with a virtual clock through every state.

- **attract**: a CPU-vs-CPU demo of the real game runs; any player button joins (when
  games cost credits: a pile button, the "start", once the credits cover the game).
- **join**: each player joins with any of their buttons (a pile button, with credit, when
  games cost credits); a player alone for ``join_wait_s`` plays the CPU at the operator's
  level, if the operator allows it. The match is paid when it starts
  (:class:`Admission`); the later games of a best-of match are part of it.
- **ready**: "ready… spit!" for the rules' spit countdown, then the game starts (R5).
- **play**: the game (R5–R13). No human press for ``idle_timeout_s`` abandons it.
- **game over**: the result for ``game_over_s``; then the next game of a best-of match,
  or back to attract.
- **initials**: after game over, when a person set a hall-of-fame record (the main loop
  says so, :meth:`Flow.enter_initials`, once the game is in the books): each such player
  enters initials with their buttons, both at once, within the time limit
  (:mod:`cabinet.halloffame.entry`); then on as after game over.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from cabinet.halloffame.board import Candidate, Streaks, candidates
from cabinet.halloffame.entry import InitialsEntry
from cabinet.halloffame.places import NewPlace
from cabinet.shared.phase import Phase
from cabinet.storage import setting_table as table
from cabinet.table.interface import Match
from game.bots import Level, level
from game.edges import Button
from game.events import Event, GameOver
from game.live_match import LiveMatch
from game.record import MatchRecord
from game.record_parts import RecordResult
from game.rules import Rules
from game.summary import GameSummary, Seat
from game.units import S


class MatchFactory(Protocol):
    """Starts a game: ``factory(rules, seed, cpu_levels, start_abs_ns)``."""

    def __call__(
        self, rules: Rules, seed: int, cpu_levels: Sequence[Level | None], start_abs_ns: int
    ) -> Match: ...


def local_match(
    rules: Rules, seed: int, cpu_levels: Sequence[Level | None], start_abs_ns: int
) -> Match:
    """A game played in this process."""
    return LiveMatch(rules, seed, cpu_levels, start_abs_ns)


class Admission(Protocol):
    """Who may play, and paying for a match: the money keeper
    (:class:`cabinet.money.keeper.MoneyKeeper`), or :class:`FreePlay`."""

    @property
    def needs_credit(self) -> bool:
        """Games cost credits: players start with a pile button."""
        ...

    def may_start(self, humans: int, cpu: bool) -> bool:
        """Whether the credits pay for a match of ``humans`` people (with the CPU)."""
        ...

    def pay(self, humans: int, cpu: bool) -> bool:
        """Pay for such a match as it starts; ``False``: the credits do not cover it."""
        ...


class FreePlay:
    """Every game free, any button joins (a cabinet with no money keeper)."""

    needs_credit = False

    def may_start(self, humans: int, cpu: bool) -> bool:
        return True

    def pay(self, humans: int, cpu: bool) -> bool:
        return True


@dataclass(frozen=True, slots=True)
class FlowSettings:
    """What the operator decides about the flow. Times in seconds."""

    rules: Rules = field(default_factory=Rules)
    cpu_allowed: bool = table.CPU_OPPONENT.default
    cpu_level: int = table.CPU_LEVEL.default
    join_wait_s: float = table.JOIN_CPU_WAIT_S.default
    """How long a player alone waits for an opponent before the CPU joins."""
    idle_timeout_s: float = table.IDLE_TIMEOUT_S.default
    """A game with no human press for this long ends and the cabinet returns to attract."""
    game_over_s: float = 8.0
    demo_levels: tuple[int, int] = (4, 5)
    howto_s: float = 6.0
    """How long each how-to-play card shows in attract."""
    hall_of_fame: bool = table.HALL_OF_FAME.default
    """Records set by people are offered to the hall of fame (initials entry)."""


@dataclass(frozen=True, slots=True)
class GameFinished:
    """A game ended (finished or abandoned): its record and summary, for the books."""

    record: MatchRecord
    summary: GameSummary
    players: tuple[Seat, Seat]
    """Who sat in each seat."""
    number: int | None = None
    """The game's number when the table process played it (to confirm it is recorded)."""
    candidates: tuple[Candidate, ...] = ()
    """The hall-of-fame figures people set in it (whether they make the board is the
    books' to say)."""


@dataclass(frozen=True, slots=True)
class InitialsEntered:
    """``player`` finished entering ``initials`` (time up, or three confirmed) for the
    hall-of-fame entries ``entry_ids``: for the books."""

    player: int
    initials: str
    entry_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    phase: Phase
    t_ns: int


Notice = GameFinished | PhaseChanged | InitialsEntered


class Flow:
    """The state machine. ``seed`` makes the demo and every game's deal reproducible."""

    def __init__(
        self,
        settings: FlowSettings,
        seed: int,
        now_ns: int,
        *,
        new_match: MatchFactory = local_match,
        admission: Admission | None = None,
    ) -> None:
        """``new_match``: how a game (not the attract demo, which always runs here)
        is started: in this process, or on the table process. ``admission``: who may
        play and paying for it (default: free play)."""
        self.settings = settings
        self._new_match = new_match
        self.admission: Admission = admission if admission is not None else FreePlay()
        self._rng = random.Random(seed)
        self.phase = Phase.ATTRACT
        self.phase_since_ns = now_ns
        self.joined: list[bool] = [False, False]
        self.cpu_seat: int | None = None
        """The seat the CPU plays in this match, if any."""
        self.match: Match | None = None
        """The game being readied, played or just over; ``None`` in attract and join."""
        self.scores = [0, 0]
        self.last_summary: GameSummary | None = None
        self._last_human_ns = now_ns
        self._notices: list[Notice] = []
        self.streaks = Streaks()
        self.entries: dict[int, InitialsEntry] = {}
        """Initials being entered, by player (the initials phase)."""
        self.entry_places: dict[int, tuple[NewPlace, ...]] = {}
        """Each entering player's new places in the hall of fame."""
        self._places_made: dict[int, tuple[NewPlace, ...]] = {}
        """New places waiting for game over to end."""
        self.demo = self._new_demo(now_ns)

    # -- inputs --------------------------------------------------------------------

    def press(
        self, player: int, now_ns: int, *, start: bool = True, button: Button | None = None
    ) -> None:
        """A player pressed one of their buttons (any phase); ``start``: a pile button,
        which is what starts a game when games cost credits; ``button``: which one (the
        initials entry needs it)."""
        self._last_human_ns = now_ns
        if self.phase is Phase.INITIALS:
            entry = self.entries.get(player)
            if entry is not None and button is not None:
                entry.press(button, now_ns)
                self._entries_done(now_ns)
            return
        admission = self.admission
        if admission.needs_credit and not start:
            return
        if self.phase is Phase.ATTRACT:
            if not admission.may_start(1, self.settings.cpu_allowed):
                return
            self.joined = [False, False]
            self.joined[player] = True
            self._enter(Phase.JOIN, now_ns)
        elif self.phase is Phase.JOIN and not self.joined[player]:
            if not admission.may_start(2, False):
                return
            self.joined[player] = True
            self.cpu_seat = None
            self._start_match(now_ns)

    def match_events(self, events: list[Event], now_ns: int) -> None:
        """Events of the running game (from whoever drives it)."""
        # Only the current game's end counts: a late batch from a game already over
        # cannot end the next one.
        match = self.match
        ended = any(isinstance(e, GameOver) for e in events)
        if ended and self.phase is Phase.PLAY and match is not None and match.over:
            self._finish(now_ns)

    def update(self, now_ns: int) -> list[Notice]:
        """Move the flow's clock to ``now_ns``: timeouts, the demo, the countdown.
        Returns what happened since the last call."""
        s = self.settings
        elapsed = now_ns - self.phase_since_ns
        if self.phase is Phase.ATTRACT:
            if self.demo.over and now_ns - self._demo_over_ns(now_ns) > 3 * S:
                self.demo = self._new_demo(now_ns)
        elif self.phase is Phase.JOIN:
            if elapsed >= s.join_wait_s * S and s.cpu_allowed:
                self.cpu_seat = 1 if self.joined[0] else 0
                self._start_match(now_ns)
            elif now_ns - self._last_human_ns >= s.idle_timeout_s * S:
                self._to_attract(now_ns)
        elif self.phase is Phase.READY:
            assert self.match is not None
            if now_ns >= self.match.start_abs_ns:
                self._enter(Phase.PLAY, now_ns)
        elif self.phase is Phase.PLAY:
            assert self.match is not None
            if self.match.over:
                self._finish(now_ns)
            elif now_ns - self._last_human_ns >= s.idle_timeout_s * S:
                self.abandon(now_ns)
        elif self.phase is Phase.GAME_OVER and elapsed >= s.game_over_s * S:
            if self._places_made:
                self._start_initials(now_ns)
            else:
                self._after_game_over(now_ns)
        elif self.phase is Phase.INITIALS:
            for entry in self.entries.values():
                entry.finish_if_late(now_ns)
            self._entries_done(now_ns)
        notices, self._notices = self._notices, []
        return notices

    def enter_initials(self, places: Mapping[int, Sequence[NewPlace]], now_ns: int) -> None:
        """The books kept these new places (by player): once game over has been shown,
        those players enter their initials."""
        if self.phase is not Phase.GAME_OVER or not self.settings.hall_of_fame:
            return
        self._places_made = {p: tuple(r) for p, r in places.items() if r}

    def _start_initials(self, now_ns: int) -> None:
        self.entries = {p: InitialsEntry(now_ns) for p in self._places_made}
        self.entry_places = self._places_made
        self._places_made = {}
        self._enter(Phase.INITIALS, now_ns)

    def abandon(self, now_ns: int) -> None:
        """Stop a game being readied or played (idle, or the service menu opened): it is
        recorded as abandoned, and the cabinet goes back to attract."""
        if self.match is not None and self.phase in (Phase.READY, Phase.PLAY):
            self.match.abandon(max(now_ns, self.match.start_abs_ns))
            self._record(self.match)
        self._to_attract(now_ns)

    # -- queries -------------------------------------------------------------------

    @property
    def seat_kinds(self) -> tuple[Seat, Seat]:
        """Who sits in each seat of the current match."""
        return (
            Seat.CPU if self.cpu_seat == 0 else Seat.HUMAN,
            Seat.CPU if self.cpu_seat == 1 else Seat.HUMAN,
        )

    @property
    def match_decided(self) -> bool:
        """Whether someone has won the best-of match (a draw wins nobody a game)."""
        needed = self.settings.rules.best_of // 2 + 1
        return max(self.scores) >= needed

    def join_cpu_in_s(self, now_ns: int) -> int | None:
        """Whole seconds until the CPU joins a lone player, or ``None``."""
        if self.phase is not Phase.JOIN or not self.settings.cpu_allowed:
            return None
        left = self.settings.join_wait_s * S - (now_ns - self.phase_since_ns)
        return max(0, -(-int(left) // S))

    def howto_index(self, now_ns: int, cards: int) -> int:
        """Which how-to-play card attract shows now."""
        return int((now_ns - self.phase_since_ns) // int(self.settings.howto_s * S)) % cards

    # -- internals -----------------------------------------------------------------

    def _enter(self, phase: Phase, now_ns: int) -> None:
        self.phase = phase
        self.phase_since_ns = now_ns
        self._notices.append(PhaseChanged(phase, now_ns))

    def _after_game_over(self, now_ns: int) -> None:
        if self.match_decided:
            self._to_attract(now_ns)
        else:
            self._start_game(now_ns)

    def _entries_done(self, now_ns: int) -> None:
        """Say each finished entry once; when all are finished, carry on."""
        for player in sorted(self.entries):
            entry = self.entries[player]
            if entry.done and player in self.entry_places:
                ids = tuple(place.entry_id for place in self.entry_places.pop(player))
                self._notices.append(InitialsEntered(player, entry.initials, ids))
        if all(e.done for e in self.entries.values()):
            self.entries = {}
            self._after_game_over(now_ns)

    def _to_attract(self, now_ns: int) -> None:
        self.streaks.player_left()
        self.entries = {}
        self.entry_places = {}
        self._places_made = {}
        self.match = None
        self.scores = [0, 0]
        self.joined = [False, False]
        self.cpu_seat = None
        self.demo = self._new_demo(now_ns)
        self._enter(Phase.ATTRACT, now_ns)

    def _start_match(self, now_ns: int) -> None:
        """The first game of a match: paid for as it starts (back to attract if the
        credits no longer cover it: cleared meanwhile)."""
        humans = 2 if self.cpu_seat is None else 1
        if not self.admission.pay(humans, self.cpu_seat is not None):
            self._to_attract(now_ns)
            return
        self._start_game(now_ns)

    def _start_game(self, now_ns: int) -> None:
        s = self.settings
        levels: list[Level | None] = [None, None]
        if self.cpu_seat is not None:
            levels[self.cpu_seat] = level(s.cpu_level)
        start = now_ns + s.rules.spit_delay_ns
        self.match = self._new_match(s.rules, self._rng.randrange(2**32), levels, start)
        self._last_human_ns = now_ns
        self._enter(Phase.READY, now_ns)

    def _finish(self, now_ns: int) -> None:
        match = self.match
        assert match is not None
        outcome = match.outcome
        if outcome is not None and outcome.winner is not None:
            self.scores[outcome.winner] += 1
        self._record(match)
        self._enter(Phase.GAME_OVER, now_ns)

    def _record(self, match: Match) -> None:
        summary = match.summary()
        self.last_summary = summary
        players = self.seat_kinds
        record = match.record().with_result(RecordResult.of(summary))
        found: list[Candidate] = []
        if summary.finished:
            streaks = self.streaks.game_ended(summary.winner, players)
            cpu = self.settings.cpu_level if self.cpu_seat is not None else None
            levels = tuple(cpu if players[p] is Seat.CPU else None for p in (0, 1))
            found = candidates(summary, players, levels, streaks)
        self._notices.append(
            GameFinished(record, summary, players, match.number, candidates=tuple(found))
        )

    def _new_demo(self, now_ns: int) -> LiveMatch:
        a, b = self.settings.demo_levels
        self._demo_end_ns: int | None = None
        seed = self._rng.randrange(2**32)
        return LiveMatch(self.settings.rules, seed, (level(a), level(b)), now_ns)

    def _demo_over_ns(self, now_ns: int) -> int:
        if self._demo_end_ns is None:
            self._demo_end_ns = now_ns
        return self._demo_end_ns
