"""One live run of ``bench/races.py``: the table, in a process of its own (the cabinet's
design) or on a thread of this, the display, process (the design before); a presser
process firing presses into the mock pins' press channel; a busy process on the other
core; the LED board's simulator; and this process drawing the real play screen at 60 fps
as the cabinet's frame loop paces it. :func:`measure` runs one and returns what it
measured (:class:`RunFigures`)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from board_sim import simulated_board
from edge_path import edge_paths
from live_parts import (
    note_decisions,
    start_busy,
    start_presser,
    start_table_process,
    start_thread_table,
)
from race_display import open_renderers
from stalls import in_stalls, start_stall_monitor, stop_stall_monitor

# Run from a checkout: import this repository's packages, not an installed copy.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # after race_display (above) has chosen the video driver

from cabinet.drawing.views import TableLabels, table_view
from cabinet.shared.light_show import lights_for
from cabinet.shared.phase import Phase
from cabinet.table.messages import Measurements
from game.events import Event, LateEdge, Played, Rejected, Selected
from game.rules import Rules
from game.units import MS

if TYPE_CHECKING:
    from cabinet.drawing.renderer import Renderer
    from cabinet.table.interface import Table
    from cabinet.table.remote import RemoteTable
    from firmware_bridge.link import LightLink


@dataclass(frozen=True, slots=True)
class RunFigures:
    """What a live run measured (times in ns)."""

    display: str
    """How the display backend describes itself."""
    table: Measurements
    """The table's delays (decision, LED snapshot, delivery) and its edge counts."""
    late_in_stalls: int
    """The late edges a stall explains: their press-to-delivery span meets a stall widened
    by the race window on both sides."""
    late_sent_late: int
    """The late edges the presser itself sent more than a race window late."""
    late_unexplained: int
    """The late edges neither a stall nor the presser's own lateness explains."""
    stalls: list[tuple[int, int]]
    """The stall monitor's stalls, each ``(due, woke)`` on CLOCK_MONOTONIC."""
    games: int
    frames: int
    photon_ns: list[int]
    """Press ``t_ns`` → the end of the present of the first frame showing its decision."""
    photon_parts_ns: dict[str, list[int]]
    """The same, per press, in three parts: ``decision`` (press → the table decided),
    ``to_display`` (→ the display took the decision in: the report's way, and the wait for
    the display's loop, drawing a frame or keeping the frames' least gap) and ``drawing``
    (→ the end of the present)."""
    draw_ns: list[int]
    """How long each frame's drawing and present took."""
    presser_lateness: dict[str, Any]
    """How late the presser sent its edges: its percentiles (ms) and ``beyond_window``."""
    edge_path: dict[str, Any]
    """Where the edges' delay arose, stage by stage (:func:`edge_path.edge_paths`)."""


def measure(
    design: str, backend: str, k: int, edges: int, rules: Rules, seed: int, stall_ns: int
) -> RunFigures:
    """One run: ``design`` is ``process`` (the table process) or ``thread`` (the old
    design: the referee on a thread of this, the display, process); the display draws
    through ``backend`` (``software`` or ``texture``) ``k`` times a frame; the presser
    sends ``edges`` edges; wake-ups ``stall_ns`` late are stalls."""
    with contextlib.ExitStack() as cleanup:  # every process it starts ends with it
        sock = os.path.join(tempfile.mkdtemp(prefix="spit-bench-"), "presses.sock")
        port = cleanup.enter_context(simulated_board())
        start_busy(cleanup)
        decided_at: dict[int, int] = {}
        trace: list[tuple[int, int, int]] = []
        table: Table
        link: LightLink | None = None
        if design == "process":
            table = start_table_process(sock, port, cleanup)
            note_decisions(table, decided_at)
        else:
            table, link = start_thread_table(sock, port, decided_at, trace, cleanup)
        renderers = open_renderers(backend, k, cleanup)
        run = LiveRun(design, table, link, decided_at, renderers, rules, seed)
        run.trace = trace
        gc.collect()
        gc.freeze()  # as the cabinet does once it has started: start-up objects never scanned
        run.new_game()
        # Where the table runs, at its priority: the table process's, or (the thread design)
        # this process's, whose thread the referee is.
        monitor = start_stall_monitor(stall_ns, design == "process", cleanup)
        presser = start_presser(sock, edges, seed, rules.race_window_ms)
        run.play(presser)
        figures = run.figures(stop_stall_monitor(monitor), presser)
        cleanup.close()
        pygame.display.quit()
        return figures


class LiveRun:
    """The display's side of a run: takes the table's batches, draws the play screen
    through every renderer and notes the delays; a new game once one is over. In the
    thread design it also notes each decision's delay and shows the lights itself."""

    def __init__(
        self,
        design: str,
        table: Table,
        link: LightLink | None,
        decided_at: dict[int, int],
        renderers: list[Renderer],
        rules: Rules,
        seed: int,
    ) -> None:
        self.design = design
        self.table = table
        self.link = link
        self.decided_at = decided_at
        self.renderers = renderers
        self.screen = renderers[0].backend
        self.rules = rules
        self.seed = seed
        self.labels = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")
        self.matches: list[Any] = []
        self.match: Any = None
        self.shown: Any = None
        """The lights last sent to the board (the thread design)."""
        self.waiting: list[tuple[int, int, int]] = []
        """Presses decided, not yet on screen: when each happened, was decided and was
        taken in by the display."""
        self.frames = 0
        self.decision_ns: list[int] = []
        self.led_ns: list[int] = []
        self.photon_ns: list[int] = []
        self.photon_parts_ns: dict[str, list[int]] = {
            "decision": [],
            "to_display": [],
            "drawing": [],
        }
        self.draw_ns: list[int] = []
        self.trace: list[tuple[int, int, int]] = []
        """The thread design's press channel's stamps (the table process keeps its own)."""

    def new_game(self) -> None:
        """The next game (seeded by its number), on the table; in the thread design the
        referee's thread plays it."""
        self.table.play_onto(None)
        match = self.table.new_match(
            self.rules, self.seed + len(self.matches), (None, None), time.monotonic_ns()
        )
        if self.design == "thread":
            self.table.play_onto(match)
        self.matches.append(match)
        self.match = match

    def play(self, presser: subprocess.Popen[str]) -> None:
        """Frames until 200 ms after the presser is done, paced as the cabinet's frame
        loop (:mod:`cabinet.display.frame_loop`) paces them: the next 60 Hz frame, or at
        once when something is decided, but at most every ``MIN_FRAME_GAP_NS``."""
        from cabinet.display.frame_loop import FRAME_NS, MIN_FRAME_GAP_NS

        next_frame = time.monotonic_ns()
        quiet_since: int | None = None
        while True:
            frame_start = time.monotonic_ns()
            self.take_batches()
            shown_at = self.draw_frame()
            if presser.poll() is not None:
                quiet_since = quiet_since or shown_at
                if shown_at - quiet_since > 200 * MS:
                    break
            if frame_start >= next_frame:
                next_frame += FRAME_NS
                if next_frame <= frame_start:
                    next_frame = frame_start + FRAME_NS
            if self.table.wait((next_frame - time.monotonic_ns()) / 1e9):
                time.sleep(max(0.0, (frame_start + MIN_FRAME_GAP_NS - time.monotonic_ns()) / 1e9))

    def take_batches(self) -> None:
        """Feed the table's decided batches to the renderers and keep each decided press's
        time for its photon delay; in the thread design, note each decision's delay and
        show the lights."""
        for batch in self.table.batches():
            now = time.monotonic_ns()
            decided = self.decided_at.pop(id(batch), now)
            start = self.match.start_abs_ns
            game_events = [e for e in batch if isinstance(e, Event)]
            for renderer in self.renderers:
                renderer.feed(game_events)
            for e in batch:
                if isinstance(e, Selected | Played | Rejected):
                    self.waiting.append((start + e.t_ns, decided, now))
                    if self.design == "thread":
                        self.decision_ns.append(decided - (start + e.t_ns))
            if self.design == "thread" and any(isinstance(e, Event) for e in batch) and self.link:
                self.show_lights(self.link, decided)

    def show_lights(self, link: LightLink, decided: int) -> None:
        """The thread design: send the table's lights to the board where they changed,
        noting the time from the decision (``decided``) to the snapshot written."""
        with self.table.hold():
            state = self.match.state()
        lights = lights_for(Phase.PLAY, state, countdown=False)
        if lights != self.shown:
            self.shown = lights
            link.show(lights)
            self.led_ns.append(time.monotonic_ns() - decided)

    def draw_frame(self) -> int:
        """Draw the table as it stands through every renderer (a new game first where this
        one is over) and present the first; note the frame's drawing and every waiting
        press's photon delay. Returns when the frame was shown."""
        with self.table.hold():
            state = self.match.state()
        if state.over:
            self.new_game()
            for renderer in self.renderers:
                renderer.reset_animations()
        view = table_view(state, self.labels)
        drawing = time.monotonic_ns()
        drawn = [r.draw(view, self.match.to_match(time.monotonic_ns())) for r in self.renderers]
        self.screen.present(drawn[0])
        self.frames += 1
        shown_at = time.monotonic_ns()
        self.draw_ns.append(shown_at - drawing)
        parts = self.photon_parts_ns
        for t, decided, taken in self.waiting:
            self.photon_ns.append(shown_at - t)
            parts["decision"].append(decided - t)
            parts["to_display"].append(taken - decided)
            parts["drawing"].append(shown_at - taken)
        self.waiting.clear()
        return shown_at

    def figures(self, stalls: list[tuple[int, int]], presser: subprocess.Popen[str]) -> RunFigures:
        """What the run measured, once the frames are done: ``stalls`` the stall
        monitor's; the presser's lateness read from its report."""
        table = self.table_measurements()
        # Each late edge's press and delivery (the referee's LateEdge notices), on the clock.
        late_spans = [
            (x.start_abs_ns + e.t_ns, x.start_abs_ns + e.delivered_ns)
            for x in self.matches
            for e in x.events
            if isinstance(e, LateEdge)
        ]
        explained = in_stalls(late_spans, stalls, self.rules.race_window_ns)
        display = self.screen.describe
        _, said = presser.communicate()
        lateness = json.loads(said.strip().splitlines()[-1])
        # The edges the presser itself sent more than a race window late: late whatever
        # the table does (a kernel stamps an edge when it happens and is never late).
        sent_late = set(lateness.pop("beyond_window_due_ns"))
        path = edge_paths(
            late_spans,
            table.path_ns or self.trace,
            dict(table.deliveries_ns),
            dict(lateness.pop("sent_late_ns")),
            table.steps_ns,
        )
        return RunFigures(
            display=display,
            table=table,
            late_in_stalls=min(table.late_edges, explained),
            late_sent_late=sum(t in sent_late for t, _ in late_spans),
            late_unexplained=sum(
                t not in sent_late and not in_stalls([(t, d)], stalls, self.rules.race_window_ns)
                for t, d in late_spans
            ),
            stalls=stalls,
            games=len(self.matches),
            frames=self.frames,
            photon_ns=self.photon_ns,
            photon_parts_ns=self.photon_parts_ns,
            draw_ns=self.draw_ns,
            presser_lateness=lateness,
            edge_path=path,
        )

    def table_measurements(self) -> Measurements:
        """The table's delays and edge counts: the table process's own (asked for), or,
        in the thread design, those noted here and its referees' statistics."""
        if self.design == "process":
            remote = cast("RemoteTable", self.table)
            remote.request_measurements()
            while not remote.status.measurements:
                remote.wait(0.5)
                remote.batches()
            return remote.status.measurements[-1]
        stats = [x.referee.stats for x in self.matches]
        return Measurements(
            decision_ns=self.decision_ns,
            led_ns=self.led_ns,
            deliveries_ns=[
                (x.start_abs_ns + e.t_ns, x.start_abs_ns + e.delivered_ns)
                for x in self.matches
                for e in x.referee.stats.edge_log
            ],
            edges=sum(len(s.edge_log) for s in stats),
            late_edges=sum(s.late_edges for s in stats),
        )
