"""Fairness certificates as the service menu words them, for the list of certificates
(:mod:`.fairness_page`) and the test run from the menu (:mod:`.fairness_run`): when and how
a test was taken, its verdict, and per offset how many pairs were right, how many missed a
press and how many presses came late (docs/fairness.md)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from cabinet.fairness.certificate import (
    PASS_FROM_US,
    PASS_SHARE,
    CaseResult,
    Certificate,
    Source,
)
from cabinet.service.format import when
from cabinet.service.screen import Row, Tone
from cabinet.storage import fairness
from firmware_bridge.fairness import Schedule

if TYPE_CHECKING:
    from cabinet.i18n import Translator
    from cabinet.storage.store import CabinetStore

SOURCE_KEYS: dict[Source, str] = {
    Source.JIG: "service.fairness.source.jig",
    Source.VIRTUAL: "service.fairness.source.virtual",
    Source.MOCK: "service.fairness.source.mock",
}
"""What pressed the pairs, in the menu's words."""


def certificates(store: CabinetStore, limit: int) -> list[Certificate]:
    """The newest ``limit`` certificates in the books, newest first (one the cabinet cannot
    read, from a later version, is left out)."""
    out = []
    for body in fairness.recent(store, limit):
        try:
            out.append(Certificate.from_body(body))
        except ValueError:
            continue
    return out


def taken_when(taken_at: str) -> str:
    """The certificate's time (ISO 8601 UTC) as the menu shows times (local time); as it
    was written when it reads as no time."""
    try:
        moment = datetime.fromisoformat(taken_at)
    except ValueError:
        return taken_at
    return when(moment)


def verdict(tr: Translator, certificate: Certificate) -> tuple[str, Tone]:
    """*PASSED* or *FAILED*, in its colour."""
    if certificate.passed:
        return tr.t("service.fairness.passed"), Tone.GOOD
    return tr.t("service.fairness.failed"), Tone.WARN


def taken_label(tr: Translator, certificate: Certificate) -> str:
    """``2026-12-05 10:00 · jig · race window 2.0 ms``."""
    return tr.t(
        "service.fairness.taken",
        value=taken_when(certificate.taken_at),
        name=tr.t(SOURCE_KEYS[certificate.source]),
        ms=certificate.window_ms,
    )


def case_row(tr: Translator, case: CaseResult) -> Row:
    """One offset: ``100 µs`` | ``99/100 right · 1 missed · 0 late``; in the warning colour
    when it fails the mark, dim (``50 µs · reported only``) when the mark does not apply."""
    counts = " · ".join(
        (
            tr.t("service.fairness.right", value=f"{case.right}/{case.pairs}"),
            tr.t("service.fairness.missed", count=case.missed),
            tr.t("service.fairness.late", count=case.late),
        )
    )
    if not case.held_to:
        label = f"{case.offset_us} µs · {tr.t('service.fairness.reported')}"
        return Row(label, counts, Tone.DIM)
    return Row(f"{case.offset_us} µs", counts, Tone.NORMAL if case.passed else Tone.WARN)


def certificate_rows(tr: Translator, certificate: Certificate) -> list[Row]:
    """A whole certificate: when, what pressed and under which race window, with its
    verdict; the version that judged; a row per offset."""
    shown, tone = verdict(tr, certificate)
    return [
        Row(taken_label(tr, certificate), shown, tone),
        Row(tr.t("service.fairness.version", value=certificate.version), "", Tone.DIM),
        *(case_row(tr, case) for case in certificate.cases),
    ]


def pass_mark(tr: Translator) -> str:
    """What a certificate is held to, in words."""
    return tr.t("service.fairness.mark", percent=100 * PASS_SHARE, us=PASS_FROM_US)


def schedule_rows(tr: Translator, schedule: Schedule) -> list[Row]:
    """The schedule the jig must press: its offsets, pairs per offset and the gap."""
    offsets = ", ".join(str(us) for us in schedule.offsets_us)
    return [
        Row(tr.t("service.fairness.offsets"), f"{offsets} µs", Tone.HEAD),
        Row(tr.t("service.fairness.pairs"), str(schedule.pairs), Tone.HEAD),
        Row(tr.t("service.fairness.gap"), f"{schedule.gap_ms} ms", Tone.HEAD),
    ]
