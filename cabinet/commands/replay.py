"""``spit-cabinet replay``: replay a match record and print its outcome.

Exit status: :data:`EXIT_OK`, :data:`EXIT_MISMATCH` when the record's result does not
match the replay, :data:`EXIT_MALFORMED` (with one line on stderr,
``replay: FILE: FIELD: PROBLEM``) when the record cannot be read or is malformed, and
:data:`EXIT_STDOUT_CLOSED` when stdout's reader went away (``replay … | head``). The limits
a record must keep to are :mod:`game.record`'s (``MAX_RECORD_BYTES`` and the rest).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cabinet.commands.durations import format_margin
from cabinet.commands.stdout import EXIT_STDOUT_CLOSED as EXIT_STDOUT_CLOSED
from cabinet.commands.stdout import stdout_closed
from game.events import Termination
from game.record import MatchRecord, RecordError, replay
from game.summary import GameSummary

EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_MALFORMED = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a match record and print its outcome",
        description="Replay a match record through the referee and engine exactly as the "
        "cabinet played it. Exit 0, or 1 when the record's result does not match, "
        "or 2 with one line on stderr when the record cannot be read or is malformed "
        "(a record is a regular file or a pipe of at most 16 MiB), or 141 when the output's "
        "reader stops reading (e.g. piped into head).",
    )
    parser.add_argument("file", type=Path, help="the match record (JSON)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        text, status = _replay_file(args.file, as_json=args.json)
    except RecordError as exc:
        return _malformed(args.file, str(exc))
    except Exception as exc:  # the last line of defence: no traceback for a bad record
        detail = f"{type(exc).__name__}: {exc}"[:200]
        return _malformed(args.file, f"record: cannot be replayed ({detail})")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()  # here, so that a closed stdout is noticed here
    except BrokenPipeError:
        return stdout_closed()
    return status


def _replay_file(path: Path, *, as_json: bool) -> tuple[str, int]:
    """The output for the record at ``path``, and the exit status."""
    record = MatchRecord.load(path)
    done = replay(record)
    summary = done.summary()
    mismatches = record.result.mismatches(summary) if record.result else []
    lines: list[str] = []
    if as_json:
        out = done.to_json()
        if record.result is not None:
            out["result_matches"] = not mismatches
            out["mismatches"] = mismatches
        lines.append(json.dumps(out))
    else:
        lines.append(format_summary(summary))
        if record.result is not None:
            lines.append("recorded result: " + ("matches" if not mismatches else "DOES NOT MATCH"))
            lines.extend("  " + line for line in mismatches)
    return "\n".join(lines) + "\n", EXIT_MISMATCH if mismatches else EXIT_OK


def _malformed(path: Path, problem: str) -> int:
    """Say what is wrong in one line on stderr: ``replay: FILE: FIELD: PROBLEM``."""
    print(_one_line(f"replay: {path}: {problem}"), file=sys.stderr)
    return EXIT_MALFORMED


def _one_line(text: str) -> str:
    """``text`` with every unprintable character (line breaks included, e.g. from a file
    name) escaped, so that it stays one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def format_summary(s: GameSummary) -> str:
    termination = "" if s.termination is None else s.termination.value.replace("_", " ")
    if not s.finished:
        verdict = "unfinished (the edges stop before the game's end)"
    elif s.termination is Termination.ABANDONED:
        verdict = "abandoned (the cabinet stopped the game; no winner)"
    elif s.draw:
        verdict = "draw"
    elif s.winner is None:
        verdict = f"no winner ({termination})"
    else:
        verdict = f"player {s.winner + 1} wins ({termination})"
    rejected = ", ".join(
        f"{reason.value.replace('_', ' ')} {n}" for reason, n in s.rejected.by_reason().items() if n
    )
    closest = s.closest_race
    if closest is None:
        closest_text = "none"
    else:
        closest_text = (
            f"player {closest.winner + 1} by {format_margin(closest.margin_ns)}"
            if closest.margin_ns
            else f"exact tie, priority to player {closest.winner + 1}"
        )
    return "\n".join(
        [
            f"outcome       {verdict}",
            f"cards left    player 1: {s.cards_left[0]}, player 2: {s.cards_left[1]}",
            f"plays         player 1: {s.plays[0]}, player 2: {s.plays[1]}",
            f"spits         {s.spits}",
            f"rejected      {rejected or 'none'}",
            f"ties          {s.ties}",
            f"late edges    {s.late_edges}",
            f"closest race  {closest_text}",
        ]
    )
