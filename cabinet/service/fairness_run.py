"""The fairness test, run from the service menu with the jig wired to the cabinet.

The jig presses player 1's and player 2's left pile buttons in pairs at known offsets
(docs/fairness.md). Those buttons are read where a game's are, in the table process: its
feed debounces each press and reports it (:class:`~cabinet.inputs.feed.PlayerPress`) with
the kernel's stamp (``t_ns``) and the moment the feed took it in (``delivered_ns``), the
two times the referee decides a race by. This page hands each to the judge
(:class:`~cabinet.fairness.judging.FairnessJudge`) as the command's own feed would: the
verdicts are the same as if the table judged them itself, since a verdict depends on those
two times alone, never on when the display got the report. The table keeps deciding on its
own core and priority, and the display's frames only show the progress.

At the end the certificate is kept in the books and queued for the fleet in one
transaction (:func:`cabinet.storage.fairness.record`, as the command keeps it). The
players' buttons are under test, so they do not move the menu: TEST goes back (a test under
way is dropped, nothing kept), SERVICE runs the test again once it has ended.
"""

from __future__ import annotations

import math

from cabinet.fairness.certificate import Certificate, Source
from cabinet.fairness.session import FairnessRun, NoPressError, certify, judge_for
from cabinet.inputs.feed import FeedEvent, PlayerPress
from cabinet.service.fairness_rows import certificate_rows, pass_mark, schedule_rows
from cabinet.service.keys import MenuKey
from cabinet.service.kit import Menu, Page
from cabinet.service.screen import MenuScreen, Row, Tone
from cabinet.storage import fairness
from cabinet.storage.problems import StorageError
from firmware_bridge.fairness import Schedule
from game.units import S


class FairnessRunPage(Page):
    """A test of ``schedule`` begun at ``now_ns``; ``source`` is what presses (the jig, or
    gpiozero's mock pins on a desktop)."""

    captures_players = True

    def __init__(self, menu: Menu, schedule: Schedule, source: Source, now_ns: int) -> None:
        self.schedule = schedule
        self.source = source
        self.run: FairnessRun | None = None
        self.certificate: Certificate | None = None
        self.outcome = ""
        """The message key of how the test ended (kept, queued, not kept, no press)."""
        self._start(menu, now_ns)

    def _start(self, menu: Menu, now_ns: int) -> None:
        self.run = FairnessRun(judge_for(self.schedule, menu.store.settings), now_ns)
        self.certificate = None
        self.outcome = ""

    def feed(self, menu: Menu, item: FeedEvent, now_ns: int) -> None:
        run = self.run
        if run is None or not isinstance(item, PlayerPress):
            return
        edge = item.edge
        run.judge.take(edge, edge.delivered_ns if edge.delivered_ns is not None else now_ns)

    def tick(self, menu: Menu, now_ns: int) -> None:
        run = self.run
        if run is None:
            return
        try:
            over = run.over(now_ns)
        except NoPressError:
            self.run = None
            self.outcome = "service.fairness.no_press"
            return
        if over:
            self.run = None
            self._keep(menu, certify(run.judge, self.source))

    def _keep(self, menu: Menu, certificate: Certificate) -> None:
        self.certificate = certificate
        try:
            queued = fairness.record(menu.store, certificate.body())
        except StorageError:
            self.outcome = "service.fairness.not_kept"
            return
        self.outcome = "service.fairness.queued" if queued else "service.fairness.kept"

    def key(self, menu: Menu, key: MenuKey, now_ns: int) -> None:
        if key is MenuKey.SELECT:  # TEST
            menu.pop(now_ns)
        elif key is MenuKey.NEXT and self.run is None:  # SERVICE, once the test has ended
            self._start(menu, now_ns)

    def screen(self, menu: Menu, now_ns: int) -> MenuScreen:
        tr = menu.tr
        rows = schedule_rows(tr, self.schedule)
        run, notice = self.run, ""
        if run is not None:
            seen = run.progress()
            rows.append(Row(tr.t("service.fairness.seen"), f"{seen.seen} / {seen.total}"))
            left = run.wait_left_ns(now_ns)
            if left is None:
                notice = tr.t("service.fairness.running")
            else:
                seconds = math.ceil(left / S)
                notice = tr.t("service.fairness.waiting", seconds=seconds)
        else:
            if self.certificate is not None:
                rows += certificate_rows(tr, self.certificate)
                notice = pass_mark(tr)
            elif self.outcome == "service.fairness.no_press":
                notice = tr.t("service.fairness.check_jig")
            good = self.outcome in ("service.fairness.kept", "service.fairness.queued")
            rows.append(Row(tr.t(self.outcome), "", Tone.GOOD if good else Tone.WARN))
        return MenuScreen(
            tr.t("service.tests.fairness"), tuple(rows), None, tr.t("service.help.fairness"), notice
        )
