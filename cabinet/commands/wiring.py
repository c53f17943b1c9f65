"""``spit-cabinet wiring``: the installer's wiring table, and the wiring diagram as SVG.

Prints which GPIO and header pin each button goes to, with a suggested wire colour, for the
default pin map or for the default map as an override file changes it (``--config``).
``--svg FILE`` also writes the diagram: the header and both players' control panels. A bad
override file exits with status 2 and one line saying which line of it is wrong and why.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wiring.config import load_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.diagram import render_svg
from wiring.errors import WiringError
from wiring.table import format_table

PROG = "spit-cabinet wiring"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "wiring",
        help="print the button wiring table; write the wiring diagram",
        description=(
            "Print which GPIO and header pin each button goes to, with a suggested wire colour: "
            "for the default pin map, or as an override file changes it. Optionally write the "
            "wiring diagram (SVG): the header and both players' control panels."
        ),
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        type=Path,
        help="pin map override (TOML): only the buttons it names move; see docs/wiring.md",
    )
    parser.add_argument("--svg", metavar="FILE", type=Path, help="write the wiring diagram (SVG)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the table (and write the diagram); 0 on success, 2 on a bad config or file."""
    config: Path | None = args.config
    try:
        pin_map = DEFAULT_PIN_MAP if config is None else load_config(config)
    except WiringError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    title = "default pin map" if config is None else f"default pin map changed by {config.name}"
    sys.stdout.write(format_table(pin_map, title))
    svg_path: Path | None = args.svg
    if svg_path is not None:
        try:
            svg_path.write_text(render_svg(pin_map, title), encoding="utf-8")
        except OSError as e:
            print(f"{PROG}: error: cannot write {svg_path}: {e.strerror or e}", file=sys.stderr)
            return 2
        print(f"Wrote the wiring diagram to {svg_path}")
    return 0
