"""The file of cabinets ``spit-fleet add-cabinets`` reads: CSV, as a spreadsheet saves it,
one row per cabinet under a header row naming the columns (docs/fleet.md, "Adding many
cabinets at once")::

    name,location
    bar-1,The Anchor
    bar-2,"Cinema Nova, upstairs"

- ``name``: the cabinet's id, as ``spit-fleet add-cabinet NAME`` takes it;
- ``location``: where it stands, as ``--location`` takes it.

Commas, semicolons or tabs between the fields (whichever the header row uses), UTF-8 with
or without a byte-order mark, blank lines skipped, spaces around a field dropped. Every
row is checked before anything is added: :func:`read_cabinet_file` returns the rows, or
raises :class:`CabinetFileError` with every bad row's problem, each naming its line.

>>> for row in read_cabinet_text("name;location\\nbar-1; The Anchor\\n\\nbar-2;Cinema Nova\\n"):
...     print(row.line, row.name, row.location)
2 bar-1 The Anchor
4 bar-2 Cinema Nova
>>> try:
...     read_cabinet_text("name,location\\nbar 1,Anchor\\nbar-2,\\nbar-3,Nova\\nbar-3,Nova\\n")
... except CabinetFileError as exc:
...     print("\\n".join(p[:40] for p in exc.problems))
line 2: 'bar 1' is not a cabinet id (low
line 3: bar-2: the location is empty
line 5: bar-3 is on line 4 already
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from fleet.broker import INGEST_USER
from fleet.wire_common import WireError, check_name

COLUMNS = ("name", "location")
"""The columns, each named once in the header row (in any order)."""

MAX_LOCATION_CHARS = 200
"""The longest location: a join file's longest text (:mod:`fleet.join_file`)."""

MAX_FILE_BYTES = 16 * 1024 * 1024
"""The largest file read (some hundred thousand rows)."""


class CabinetFileError(ValueError):
    """A file of cabinets that cannot be added: each of ``problems`` names its line."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class CabinetRow:
    """One cabinet to add, and the line of the file it is on (1 is the header's)."""

    line: int
    name: str
    location: str


def check_location(location: str) -> str:
    """``location`` without the spaces around it, if it is one a join file can hold;
    else :class:`ValueError` saying why (``add-cabinet --location`` is checked so too)."""
    location = location.strip()
    if not location:
        raise ValueError("the location is empty")
    if len(location) > MAX_LOCATION_CHARS:
        raise ValueError(f"the location is longer than {MAX_LOCATION_CHARS} characters")
    if not location.isprintable():
        raise ValueError("the location holds a line break or another control character")
    return location


def check_cabinet(name: str) -> str:
    """``name`` if a cabinet may take it; else :class:`ValueError` saying why."""
    try:
        check_name(name)
    except WireError as exc:
        raise ValueError(str(exc)) from None
    if name == INGEST_USER:
        raise ValueError(f"{INGEST_USER!r} is ingest's own name; choose another")
    return name


def read_cabinet_file(path: Path) -> list[CabinetRow]:
    """The cabinets in the file at ``path``, every row checked (the names unique in it);
    else :class:`CabinetFileError`. Whether the fleet has any of them already is the
    caller's to check."""
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CabinetFileError([f"cannot read {path}: {exc.strerror or exc}"]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise CabinetFileError([f"{path} is larger than {MAX_FILE_BYTES // 2**20} MiB"])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CabinetFileError([f"{path} is not UTF-8 text ({exc.reason})"]) from None
    return read_cabinet_text(text)


def read_cabinet_text(text: str) -> list[CabinetRow]:
    """:func:`read_cabinet_file` of a file's ``text``."""
    header = text.split("\n", 1)[0]
    delimiter = next((d for d in ",;\t" if d in header), ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    problems: list[str] = []
    rows: list[CabinetRow] = []
    try:
        columns = _columns(next(reader, []))
        seen: dict[str, int] = {}
        while True:
            line = reader.line_num + 1
            fields = next(reader, None)
            if fields is None:
                break
            if any(field.strip() for field in fields):
                row = _row(line, fields, columns, seen, problems)
                if row is not None:
                    rows.append(row)
    except csv.Error as exc:
        problems.append(f"line {reader.line_num}: not CSV ({exc})")
    if not rows and not problems:
        problems.append("no cabinets in it: a header row, then a row per cabinet")
    if problems:
        raise CabinetFileError(problems)
    return rows


def _columns(header: list[str]) -> dict[str, int]:
    """Each column's place, from the header row; else :class:`CabinetFileError`."""
    names = [field.strip().lower() for field in header]
    wrong = [n for n in names if n not in COLUMNS]
    missing = [c for c in COLUMNS if c not in names]
    if wrong or missing or len(set(names)) != len(names):
        raise CabinetFileError(
            [
                f"line 1: the header row names the columns {', '.join(COLUMNS)} once each "
                f"(it has {', '.join(repr(n) for n in names) or 'nothing'})"
            ]
        )
    return {name: names.index(name) for name in COLUMNS}


def _row(
    line: int, fields: list[str], columns: dict[str, int], seen: dict[str, int], problems: list[str]
) -> CabinetRow | None:
    """The row on ``line``, checked; ``None`` with its problem added to ``problems``."""
    if len(fields) != len(columns):
        problems.append(f"line {line}: {len(fields)} fields, not {len(columns)} as the header's")
        return None
    name = fields[columns["name"]].strip()
    try:
        check_cabinet(name)
    except ValueError as exc:
        problems.append(f"line {line}: {exc}")
        return None
    try:
        location = check_location(fields[columns["location"]])
    except ValueError as exc:
        problems.append(f"line {line}: {name}: {exc}")
        return None
    if name in seen:
        problems.append(f"line {line}: {name} is on line {seen[name]} already")
        return None
    seen[name] = line
    return CabinetRow(line, name, location)
