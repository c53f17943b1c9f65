"""``spit-cabinet audits``: the books as the service menu shows them, read from the
cabinet's database without changing it: as text (each group's counters, *since cleared ·
lifetime*, in the cabinet's language), as one JSON object (``--json``: every counter by
name, current and lifetime, and when each group was cleared) or as CSV (``--csv``: one
row per counter, for a spreadsheet)."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from typing import Any

from cabinet.commands.stdout import stdout_closed
from cabinet.i18n import Translator
from cabinet.service.bookkeeping import audit_rows
from cabinet.service.format import when
from cabinet.storage.audits import AuditGroup, Audits, flat_counts
from cabinet.storage.database import Access
from cabinet.storage.paths import add_data_dir_option, data_dir
from cabinet.storage.pricing_settings import CURRENCY
from cabinet.storage.problems import StorageError
from cabinet.storage.setting_table import LANGUAGE
from cabinet.storage.store import CabinetStore


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "audits",
        help="print the books (the audits), as the service menu shows them",
        description="Print the cabinet's audits: each counter since its group was last "
        "cleared and for the cabinet's lifetime. Reads the database and changes nothing.",
    )
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print one JSON object")
    form.add_argument(
        "--csv", action="store_true", help="print CSV: group,counter,current,lifetime"
    )
    add_data_dir_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        store = CabinetStore.open(data_dir(args.data_dir), access=Access.READ)
    except StorageError as exc:
        print(f"audits: {exc}", file=sys.stderr)
        return 1
    try:
        for problem in store.problems:
            print(f"audits: warning: {problem.message}", file=sys.stderr)
        if args.json:
            print(json.dumps(audits_json(store.audits), indent=2))
        elif args.csv:
            write_csv(store.audits)
        else:
            tr = Translator(store.settings.get(LANGUAGE))
            print(audits_text(store.audits, tr, store.settings.get(CURRENCY)))
        sys.stdout.flush()  # here, so that a closed stdout is noticed here
    except BrokenPipeError:
        return stdout_closed()
    finally:
        store.close()
    return 0


def audits_json(audits: Audits) -> dict[str, Any]:
    """Every group: when it was cleared, and each counter's current and lifetime value."""
    return {
        group.value: {
            "cleared_at": audit.cleared_at.isoformat(),
            "current": flat_counts(audit.current),
            "lifetime": flat_counts(audit.lifetime),
        }
        for group in AuditGroup
        for audit in (audits.group(group),)
    }


def write_csv(audits: Audits) -> None:
    """One row per counter: ``group,counter,current,lifetime``."""
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(("group", "counter", "current", "lifetime"))
    for group in AuditGroup:
        audit = audits.group(group)
        lifetime = flat_counts(audit.lifetime)
        for name, current in flat_counts(audit.current).items():
            out.writerow((group.value, name, current, lifetime[name]))


def audits_text(audits: Audits, tr: Translator, currency: str) -> str:
    """Each group as the service menu's page shows it."""
    lines: list[str] = []
    for group in AuditGroup:
        audit = audits.group(group)
        rows = [
            (
                tr.t("service.audit.cleared", value=when(audit.cleared_at)),
                tr.t("service.audit.columns"),
            ),
            *audit_rows(tr, currency, group, audit),
        ]
        width = max(len(label) for label, _ in rows)
        lines.append(tr.t(f"service.audit.group.{group.value}"))
        lines.extend(f"  {label.ljust(width)}  {value}" for label, value in rows)
        lines.append("")
    return "\n".join(lines).rstrip()
