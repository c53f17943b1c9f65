"""The fairness test's page (under Tests): the certificates the books keep, the newest in
full and the earlier ones a row each (select one to read it whole), and the test run from
the menu with the jig (:mod:`.fairness_run`).

The jig must press the schedule the cabinet judges: the page runs the one the jig ships
with (:mod:`firmware_bridge.fairness`), with the pairs per offset the operator chooses
here; another schedule (other offsets, gap or seed) is the command's
(``spit-cabinet fairness``, with the cabinet stopped), as the page's note says.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from cabinet.fairness.certificate import Certificate, Source
from cabinet.service.fairness_rows import (
    certificate_rows,
    certificates,
    pass_mark,
    taken_label,
    verdict,
)
from cabinet.service.fairness_run import FairnessRunPage
from cabinet.service.kit import Item, ListPage, Menu
from cabinet.service.screen import Row, Tone
from firmware_bridge.fairness import DEFAULT_PAIRS, Schedule

PAIR_CHOICES: tuple[int, ...] = (10, 20, 50, 100, 200, 500, 1000)
"""Pairs per offset the page offers: a quick check to a thorough one (the jig's own
setting must say the same)."""
SHOWN = 9
"""Certificates listed: the newest in full and eight before it, so the page fits one
screen (the books keep more; the fleet has them all)."""


def _items(rows: list[Row]) -> list[Item]:
    return [Item(r.label, r.value, tone=r.tone, shown_only=True) for r in rows]


class FairnessPage(ListPage):
    """*Pairs per offset* (slot 3/4), *Run the test with the jig*, then the certificates.
    The certificates are read when the page opens and again after a test run from it."""

    title_key = "service.tests.fairness"

    def __init__(self) -> None:
        super().__init__()
        self.pairs = DEFAULT_PAIRS
        self._certificates: list[Certificate] | None = None

    def schedule(self) -> Schedule:
        return Schedule(pairs=self.pairs)

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        tr = menu.tr
        if self._certificates is None:
            self._certificates = certificates(menu.store, SHOWN)
        seconds = math.ceil(self.schedule().seconds())
        items = [
            Item(tr.t("service.fairness.pairs"), str(self.pairs), step=self._step),
            Item(
                tr.t("service.fairness.run"),
                tr.t("service.fairness.takes", value=str(seconds)),
                select=self._run(menu),
            ),
        ]
        if not self._certificates:
            return [*items, Item(tr.t("service.fairness.none"), tone=Tone.HEAD)]
        newest, *earlier = self._certificates
        items.append(Item(tr.t("service.fairness.newest"), tone=Tone.HEAD))
        items += _items(certificate_rows(tr, newest))
        if earlier:
            items.append(Item(tr.t("service.fairness.earlier"), tone=Tone.HEAD))
        for certificate in earlier:
            shown, tone = verdict(tr, certificate)
            items.append(
                Item(
                    taken_label(tr, certificate),
                    shown,
                    select=self._open(menu, certificate),
                    tone=tone,
                )
            )
        return items

    def _step(self, direction: int) -> None:
        at = PAIR_CHOICES.index(self.pairs) if self.pairs in PAIR_CHOICES else 3
        self.pairs = PAIR_CHOICES[max(0, min(len(PAIR_CHOICES) - 1, at + direction))]

    def _run(self, menu: Menu) -> Callable[[int], None]:
        def run(now_ns: int) -> None:
            context = menu.context
            if not context.hardware_timestamps:  # a keyboard: no kernel stamps to judge
                self.notice = menu.tr.t("service.fairness.no_timestamps")
                return
            source = Source.MOCK if context.input_backend == "mock" else Source.JIG
            self._certificates = None  # read again on the way back: the new one is there
            menu.push(FairnessRunPage(menu, self.schedule(), source, now_ns))

        return run

    @staticmethod
    def _open(menu: Menu, certificate: Certificate) -> Callable[[int], None]:
        return lambda now_ns: menu.push(CertificatePage(certificate))

    def hint(self, menu: Menu, item: Item | None) -> str:
        return self.notice or menu.tr.t("service.fairness.hint")


class CertificatePage(ListPage):
    """One certificate in full, read only; the note under it says what passes."""

    title_key = "service.fairness.certificate"

    def __init__(self, certificate: Certificate) -> None:
        super().__init__()
        self.certificate = certificate

    def items(self, menu: Menu, now_ns: int) -> list[Item]:
        return _items(certificate_rows(menu.tr, self.certificate))

    def hint(self, menu: Menu, item: Item | None) -> str:
        return pass_mark(menu.tr)
