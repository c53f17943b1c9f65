"""Last games: the stored match records, newest first, and a step-by-step replay.

The replay feeds the record's edges through the same referee and engine the game used
(:func:`game.record.replay`), so it decides every race exactly as it was decided live.
For each race it shows both presses' timestamps, when software saw each, and the margin:
how an operator settles "I pressed first!".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cabinet.service.format import button_label, duration, stamp_ms, when
from cabinet.service.keys import MenuKey
from cabinet.service.kit import Item, ListPage, Menu, Page
from cabinet.service.screen import MenuScreen, Row, Tone
from cabinet.storage.records import GameListing
from game.edges import Button, Edge
from game.events import (
    Event,
    GameOver,
    LateEdge,
    Played,
    Rejected,
    RejectReason,
    Selected,
    Spat,
    Started,
    StuckChanged,
    Termination,
    Tie,
)
from game.record import MatchRecord, RecordError, replay
from game.summary import Seat

if TYPE_CHECKING:
    from cabinet.i18n import Translator


SHOWN_EVENTS = (Started, Selected, Played, Rejected, Tie, StuckChanged, Spat, GameOver, LateEdge)
"""The events a replay steps through (refills and countdowns follow from these)."""


def seat_names(tr: Translator, listing: GameListing) -> str:
    names = [
        tr.t("play.cpu") if seat is Seat.CPU else tr.t("play.player", player=i + 1)
        for i, seat in enumerate(listing.seats)
    ]
    return " – ".join(names)


def result_text(tr: Translator, listing: GameListing) -> str:
    return outcome_text(tr, listing.termination, listing.winner, listing.seats, "gameover.wins")


def outcome_text(
    tr: Translator,
    termination: Termination,
    winner: int | None,
    seats: Sequence[Seat],
    wins_key: str,
) -> str:
    """How a game ended: abandoned, a draw, the CPU's win, or a person's win in the words
    of message ``wins_key`` (given ``player``, 1 or 2)."""
    if termination is Termination.ABANDONED:
        return tr.t("gameover.abandoned")
    if winner is None:
        return tr.t("gameover.draw")
    if seats[winner] is Seat.CPU:
        return tr.t("gameover.cpu_wins")
    return tr.t(wins_key, player=winner + 1)


class LastGamesPage(ListPage):
    """Every game kept (the ``records_kept`` setting), newest first. The listing is read
    once when the page opens: no game is played while the menu is open."""

    title_key = "service.main.last_games"

    def __init__(self) -> None:
        super().__init__()
        self._games: list[GameListing] | None = None

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        if self._games is None:
            self._games = menu.store.records.recent()
        games = self._games
        if not games:
            return [Item(tr.t("service.games.none"), tone=Tone.HEAD)]
        return [
            Item(
                f"#{g.id}  {when(g.ended_at)}  {seat_names(tr, g)}",
                f"{result_text(tr, g)} · {duration(g.duration_ms)}",
                select=self._open(menu, g),
            )
            for g in games
        ]

    def _open(self, menu: Menu, game: GameListing) -> Callable[[int], None]:
        def open_game(now_ns: int) -> None:
            try:
                record = menu.store.records.record(game.id)
                page = None if record is None else ReplayPage(game.id, record, game.seats)
            except (RecordError, ValueError):  # a damaged or newer record: say so, go on
                self.notice = menu.tr.t("service.games.unreadable", n=game.id)
                return
            if page is not None:
                menu.push(page)

        return open_game


@dataclass(frozen=True, slots=True)
class RaceDetail:
    """One race of a replay: the winner's and the loser's press onto the same pile."""

    pile: int
    winner: int
    margin_ns: int
    winner_t_ns: int
    loser_t_ns: int
    winner_seen_ns: int | None
    """When software saw the winner's press (its ``delivered_ns``)."""
    loser_seen_ns: int | None


def _pile_edge(edges: Sequence[Edge], player: int, pile: int, t_ns: int) -> Edge | None:
    button = Button.pile(pile)
    for edge in edges:
        if edge.player == player and edge.button is button and edge.is_press and edge.t_ns == t_ns:
            return edge
    return None


def race_detail(record: MatchRecord, event: Rejected) -> RaceDetail:
    """The race a *beaten* rejection lost, with both presses' times (match ns)."""
    assert event.margin_ns is not None
    winner = 1 - event.player
    winner_t = event.t_ns - event.margin_ns
    won = _pile_edge(record.edges, winner, event.pile, winner_t)
    lost = _pile_edge(record.edges, event.player, event.pile, event.t_ns)
    return RaceDetail(
        event.pile,
        winner,
        event.margin_ns,
        winner_t,
        event.t_ns,
        won.delivered_ns if won is not None else None,
        lost.delivered_ns if lost is not None else None,
    )


class ReplayPage(Page):
    """The replay, one event at a time. Slot 3/4 (left/right) step back and on, slot 1/2
    jump to the previous/next race, pile 1 or TEST steps on, pile 2 or SERVICE goes
    back. ``seats`` says who sat where (a person or the CPU), as the list shows it."""

    def __init__(self, game_id: int, record: MatchRecord, seats: tuple[Seat, Seat]) -> None:
        self.game_id = game_id
        self.record = record
        self.seats = seats
        result = replay(record)
        self.events: tuple[Event, ...] = tuple(
            e for e in result.events if isinstance(e, SHOWN_EVENTS)
        )
        self.mismatches = record.result.mismatches(result.summary()) if record.result else []
        self.index = 0
        self.races = [
            i
            for i, e in enumerate(self.events)
            if isinstance(e, Tie) or (isinstance(e, Rejected) and e.reason is RejectReason.BEATEN)
        ]

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        last = max(0, len(self.events) - 1)
        if key in (MenuKey.RIGHT, MenuKey.SELECT):
            self.index = min(last, self.index + 1)
        elif key is MenuKey.LEFT:
            self.index = max(0, self.index - 1)
        elif key is MenuKey.DOWN:
            later = [i for i in self.races if i > self.index]
            if later:
                self.index = later[0]
        elif key is MenuKey.UP:
            earlier = [i for i in self.races if i < self.index]
            if earlier:
                self.index = earlier[-1]
        elif key in (MenuKey.BACK, MenuKey.NEXT):
            menu.pop(now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        title = tr.t("service.replay.title", n=self.game_id)
        if not self.events:
            return MenuScreen(title, (Row(tr.t("service.replay.empty"), "", Tone.HEAD),))
        event = self.events[self.index]
        rows = [
            Row(
                tr.t("service.replay.step", n=self.index + 1, count=len(self.events)),
                tr.t("service.replay.races", count=len(self.races)),
                Tone.HEAD,
            ),
            Row(tr.t("service.replay.at"), f"{stamp_ms(tr, event.t_ns)} ms", Tone.HEAD),
            *self.describe(tr, event),
        ]
        notice = (
            tr.t("service.replay.matches")
            if not self.mismatches
            else tr.t("service.replay.differs")
        )
        return MenuScreen(title, tuple(rows), None, tr.t("service.help.replay"), notice)

    def describe(self, tr: Translator, event: Event) -> list[Row]:
        """What happened, in rows; a race in full."""
        player = getattr(event, "player", 0) + 1
        if isinstance(event, Started):
            return [Row(tr.t("service.replay.started"))]
        if isinstance(event, Selected):
            return [
                Row(
                    tr.t(
                        "service.replay.selected",
                        player=player,
                        button=button_label(tr, Button.slot(event.slot)),
                    )
                )
            ]
        if isinstance(event, Played):
            return [
                Row(
                    tr.t("service.replay.played", player=player, n=event.pile + 1),
                    event.card.notation(),
                )
            ]
        if isinstance(event, Rejected) and event.reason is RejectReason.BEATEN:
            return self._race_rows(tr, race_detail(self.record, event))
        if isinstance(event, Rejected):
            return [Row(tr.t("service.replay.refused", player=player))]
        if isinstance(event, Tie):
            return [Row(tr.t("service.replay.tie", player=event.first + 1), "", Tone.GOOD)]
        if isinstance(event, StuckChanged):
            key = "service.replay.stuck" if event.stuck else "service.replay.unstuck"
            return [Row(tr.t(key, player=player))]
        if isinstance(event, Spat):
            return [Row(tr.t("play.spit"))]
        if isinstance(event, LateEdge):
            return [Row(tr.t("service.replay.late", player=player))]
        if isinstance(event, GameOver):
            outcome = event.outcome
            ending = outcome_text(
                tr, outcome.termination, outcome.winner, self.seats, "service.replay.winner"
            )
            return [Row(ending)]
        return [Row(type(event).__name__)]

    def _race_rows(self, tr: Translator, race: RaceDetail) -> list[Row]:
        """A race in full: who won and by how much, both presses, and a note where
        software saw the loser's press first."""
        loser = 1 - race.winner
        rows = [
            Row(
                tr.t(
                    "service.replay.race",
                    player=race.winner + 1,
                    ms=tr.decimal(race.margin_ns / 1_000_000, 3),
                ),
                tr.t("button.pile", n=race.pile + 1),
                Tone.GOOD,
            ),
            self._press_row(tr, race.winner, race.winner_t_ns, race.winner_seen_ns),
            self._press_row(tr, loser, race.loser_t_ns, race.loser_seen_ns),
        ]
        if (
            race.winner_seen_ns is not None
            and race.loser_seen_ns is not None
            and race.loser_seen_ns < race.winner_seen_ns
        ):
            rows.append(Row(tr.t("service.race.reordered"), "", Tone.DIM))
        return rows

    @staticmethod
    def _press_row(tr: Translator, player: int, t_ns: int, seen_ns: int | None) -> Row:
        seen = "–" if seen_ns is None else f"{stamp_ms(tr, seen_ns)} ms"
        return Row(
            tr.t("service.replay.pressed", player=player + 1, value=f"{stamp_ms(tr, t_ns)} ms"),
            tr.t("service.replay.seen", value=seen),
        )
