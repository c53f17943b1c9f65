"""The command sweep's judgement (``command_sweep.py``): a snapshot of every file under a
case's folder before and after the command (:func:`snapshot`), what each file holds
(:func:`units`: a database by its content, not its bytes), and the verdict
(:func:`judge`, the kinds in ``command_sweep``'s docstring)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sqlite3
import tempfile
from pathlib import Path

Entry = tuple[str, int, bytes | str]
"""One path's kind (``file``, ``dir``, ``link``), permission bits and content (a file's
bytes, a link's target, nothing for a directory)."""


def snapshot(root: Path) -> dict[str, Entry]:
    """Every path under ``root`` (relative), with what it holds."""
    out: dict[str, Entry] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath, name)
            rel = str(path.relative_to(root))
            st = path.lstat()
            if path.is_symlink():
                out[rel] = ("link", 0, os.readlink(path))
            elif path.is_dir():
                out[rel] = ("dir", st.st_mode & 0o7777, b"")
            else:
                out[rel] = ("file", st.st_mode & 0o7777, path.read_bytes())
    return out


def _not_data(rel: str) -> bool:
    """SQLite's shared-memory index (rebuilt by every opener) and the full disk's
    fillers are not data."""
    return rel.endswith("-shm") or Path(rel).name.startswith("filler")


_SIDE_FILES = ("-wal", "-journal")


def units(snap: dict[str, Entry]) -> dict[str, tuple[object, ...]]:
    """What each file holds, a database's ``-wal`` and ``-journal`` files with it: for a
    SQLite database that opens, its content (schema version, mark, journal mode and every
    row: a checkpoint changes bytes, not data), else its bytes. Empty files hold nothing
    and are left out, as are directories (their files are there)."""
    out: dict[str, tuple[object, ...]] = {}
    for rel, (kind, mode, content) in snap.items():
        if _not_data(rel) or kind == "dir":
            continue
        if kind == "link":
            out[rel] = ("link", content)
            continue
        base = next((rel[: -len(x)] for x in _SIDE_FILES if rel.endswith(x)), None)
        if base is not None and snap.get(base, ("",))[0] == "file":
            continue  # with its database
        assert isinstance(content, bytes)
        sides = {x: snap.get(rel + x, ("", 0, b""))[2] for x in _SIDE_FILES}
        if not content and not any(sides.values()):
            continue
        out[rel] = (mode, *_content(content, sides))
    return out


def held(db: Path) -> tuple[object, ...]:
    """What the database file ``db`` holds, with its WAL (:func:`units`): its schema
    version, mark, journal mode and every row; its bytes when it is not a database."""
    sides = {x: db.with_name(db.name + x) for x in _SIDE_FILES}
    return _content(
        db.read_bytes(), {x: p.read_bytes() if p.exists() else b"" for x, p in sides.items()}
    )


def _content(raw: bytes, sides: dict[str, bytes | str]) -> tuple[object, ...]:
    if not raw.startswith(b"SQLite format 3\0"):
        return (raw, *sides.values())
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "db")
        path.write_bytes(raw)
        for suffix, side in sides.items():
            if isinstance(side, bytes) and side:
                Path(tmp, "db" + suffix).write_bytes(side)
        try:
            with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
                header = tuple(
                    conn.execute(f"PRAGMA {name}").fetchone()[0]
                    for name in ("user_version", "application_id", "journal_mode")
                )
                return ("sqlite", *header, tuple(conn.iterdump()))
        except sqlite3.Error:
            return (raw, *sides.values())


@dataclasses.dataclass
class Result:
    command: str
    damage: str
    status: int | None
    out: str
    err: str
    verdict: str
    detail: str
    seconds: float

    @property
    def bad(self) -> bool:
        return self.verdict == "CHANGED"


def judge(
    before: dict[str, Entry], after: dict[str, Entry], said: str, written: bool
) -> tuple[str, str]:
    """The case's verdict and what changed (the module docstring), from the snapshots
    before and after and what the command ``said``. ``written``: the command did the
    writing it is for, on books that were sound (:data:`SOUND`)."""
    was, now = units(before), units(after)
    changed = [rel for rel in was if now.get(rel) != was[rel]]
    created = [rel for rel in now if rel not in was]
    new_dirs = [rel for rel, entry in after.items() if entry[0] == "dir" and rel not in before]
    changed += [
        f"{rel} (a directory)"
        for rel, entry in before.items()
        if entry[0] == "dir"
        and after.get(rel, ("",))[:2] != entry[:2]
        and not any(_named(d, before, said) for d in new_dirs)
    ]
    if not changed and not created:
        return "unchanged", ""
    if not changed:
        return "created", "new: " + ", ".join(created)
    unkept = []
    for rel in changed:
        copies = [r for r in created if rel in was and now[r] == was[rel]]
        named = [r for r in copies if _named(r, before, said)]
        if not named:
            gone = "" if rel in now else " (gone)"
            unkept.append(rel + gone + (f", its copy {copies[0]} not named" if copies else ""))
    if not unkept:
        return "set aside", "kept: " + ", ".join(created)
    what = "changed: " + "; ".join(unkept)
    if written:
        return "written", what
    return "CHANGED", what


def _named(rel: str, before: dict[str, Entry], said: str) -> bool:
    """Whether the command's output names the copy ``rel``, or a new folder holding it."""
    path = Path(rel)
    return any(
        p.name in said for p in (path, *path.parents) if str(p) != "." and str(p) not in before
    )
