"""Where the cabinet keeps its data: one directory holding one SQLite database.

The directory is, first found wins:

1. the ``--data-dir`` option of a command (:func:`add_data_dir_option`);
2. the ``SPIT_CABINET_DATA`` environment variable (set it in the Pi's service unit);
3. ``$XDG_DATA_HOME/spit-cabinet`` when ``XDG_DATA_HOME`` is an absolute path (the XDG
   Base Directory specification ignores a relative one);
4. ``~/.local/share/spit-cabinet``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

ENV_VAR = "SPIT_CABINET_DATA"
"""The environment variable naming the data directory."""

APP_DIR = "spit-cabinet"
"""The data directory's name under the XDG data home."""

DATABASE_NAME = "cabinet.sqlite3"
"""The database's file name inside the data directory."""


def data_dir(
    explicit: str | os.PathLike[str] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    home: Path | None = None,
) -> Path:
    """The data directory, chosen as the module docstring says (not created here).

    ``explicit`` is the ``--data-dir`` value; ``environ`` and ``home`` default to the
    process's environment and home directory (tests pass their own).
    """
    if explicit is not None and str(explicit) != "":
        return Path(explicit).expanduser()
    env = os.environ if environ is None else environ
    chosen = env.get(ENV_VAR, "").strip()
    if chosen:
        return Path(chosen).expanduser()
    xdg = env.get("XDG_DATA_HOME", "").strip()
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / APP_DIR
    base = home if home is not None else Path.home()
    return base / ".local" / "share" / APP_DIR


def database_path(directory: Path) -> Path:
    """The database file inside data directory ``directory``."""
    return directory / DATABASE_NAME


def add_data_dir_option(parser: argparse.ArgumentParser, *, sub: bool = False) -> None:
    """Add ``--data-dir DIR`` to a command's parser; read it back with
    ``data_dir(args.data_dir)``. Pass ``sub=True`` for a sub-command's parser when the
    command's own parser has the option too, so either place may give it."""
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=argparse.SUPPRESS if sub else None,
        help=f"the cabinet's data directory (default: ${ENV_VAR}, else "
        f"$XDG_DATA_HOME/{APP_DIR}, else ~/.local/share/{APP_DIR})",
    )
