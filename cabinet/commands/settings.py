"""``spit-cabinet settings show|export|import``: the operator's settings from a shell.

``export FILE.toml`` writes every setting (``-`` for standard output); ``import
FILE.toml`` checks the whole file, before it opens the database, and then changes the
settings it holds, in one transaction, or changes nothing and names the bad key and line.
``show`` and ``export`` read the database without changing it (not even a damaged one).
Exit 0; 2 when a file cannot be read or is not valid; 1 when the database cannot be read
(show, export) or written (import: locked, read-only, damaged or another program's).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cabinet.storage.database import Access
from cabinet.storage.paths import add_data_dir_option, data_dir
from cabinet.storage.problems import StorageError
from cabinet.storage.setting_table import SETTINGS
from cabinet.storage.settings_file import (
    MAX_FILE_CHARS,
    SettingsFileError,
    export_text,
    read_text,
)
from cabinet.storage.store import CabinetStore
from game.values import UnreadableFileError, read_bounded


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "settings",
        help="show, export or import the operator's settings",
        description="Show the cabinet's settings, export them to a TOML file, or import "
        "them from one (for operators who run several cabinets). Import checks the whole "
        "file first: a bad file changes nothing and names the bad key.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="print every setting and its value")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    export = actions.add_parser("export", help="write every setting to a TOML file")
    export.add_argument("file", help="the TOML file to write, or - for standard output")
    imp = actions.add_parser("import", help="read settings from a TOML file")
    imp.add_argument("file", type=Path, help="the TOML file to read")
    add_data_dir_option(parser)
    for sub in (show, export, imp):
        add_data_dir_option(sub, sub=True)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # show and export read the database and change nothing; import changes it or says why
    # it cannot (never a fallback in memory that would keep nothing). Its file is read and
    # checked first: opening the database to write may change it (an older schema
    # migrated, a copy kept first), which a file that cannot be imported must not do.
    access = Access.WRITE if args.action == "import" else Access.READ
    text = None
    if args.action == "import":
        text = _read_file(args.file)
        if text is None:
            return 2
    try:
        store = CabinetStore.open(data_dir(args.data_dir), access=access)
    except StorageError as exc:
        done = " (nothing was changed)" if access is Access.WRITE else ""
        print(f"settings {args.action}: {exc}{done}", file=sys.stderr)
        return 1
    try:
        for problem in store.problems:
            print(f"settings: warning: {problem.message}", file=sys.stderr)
        if args.action == "show":
            return _show(store, as_json=args.json)
        if args.action == "export":
            return _export(store, args.file)
        assert text is not None
        return _import(store, args.file, text)
    finally:
        store.close()


def _show(store: CabinetStore, *, as_json: bool) -> int:
    plain = store.settings.as_plain()
    if as_json:
        print(json.dumps(plain))
        return 0
    changed = set(store.settings.changed())
    width = max(len(s.name) for s in SETTINGS)
    group = None
    for s in SETTINGS:
        if s.group is not group:
            group = s.group
            print(f"[{group.value}]")
        mark = "" if s.name not in changed else f"   (default {s.text(s.default)})"
        print(f"  {s.name:<{width}}  {s.text(store.settings.get(s))}{mark}")
    where = store.path or store.db.read_from or "none yet (the defaults)"
    print(f"database: {where}")
    return 0


def _export(store: CabinetStore, file: str) -> int:
    text = export_text(store.settings)
    if file == "-":
        sys.stdout.write(text)
        return 0
    path = Path(file)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        print(f"settings export: cannot write {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"exported {len(SETTINGS)} settings to {path}")
    return 0


MAX_SETTINGS_FILE_BYTES = 4 * MAX_FILE_CHARS
"""The most bytes read of a settings file (a few kilobytes): as many as the character
limit can take in UTF-8, so a file is refused unread only when it is over that anyway."""


def _read_file(path: Path) -> str | None:
    """The settings file's text, read and checked whole (:func:`read_text`); ``None``,
    having said why on stderr, when it cannot be imported."""
    try:
        text = read_bounded(path, MAX_SETTINGS_FILE_BYTES).decode("utf-8")
    except OSError as exc:
        print(f"settings import: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return None
    except UnreadableFileError as exc:
        print(f"settings import: {exc}", file=sys.stderr)
        return None
    except UnicodeDecodeError:
        print(f"settings import: {path} is not UTF-8 text", file=sys.stderr)
        return None
    try:
        read_text(text)
    except SettingsFileError as exc:
        print(f"settings import: {path}: {exc} (nothing was changed)", file=sys.stderr)
        return None
    return text


def _import(store: CabinetStore, path: Path, text: str) -> int:
    try:
        values, changed = store.import_settings(text)
    except SettingsFileError as exc:
        print(f"settings import: {path}: {exc} (nothing was changed)", file=sys.stderr)
        return 2
    except StorageError as exc:
        print(f"settings import: {exc} (nothing was changed)", file=sys.stderr)
        return 1
    print(
        f"imported {len(values)} settings from {path}; changed: "
        + (", ".join(changed) if changed else "none")
    )
    return 0
