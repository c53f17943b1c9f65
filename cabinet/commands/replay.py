"""``spit-cabinet replay``: replay a match record and print its outcome."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cabinet.durations import format_margin
from game.record import MatchRecord, RecordError, event_to_json, replay, result_mismatches


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a match record and print its outcome",
        description="Replay a match record through the referee and engine exactly as the "
        "cabinet played it. Exit 0, or 1 when the record's result does not match, "
        "or 2 when the record is malformed.",
    )
    parser.add_argument("file", type=Path, help="the match record (JSON)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = MatchRecord.load(args.file)
    except RecordError as exc:
        print(f"replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    done = replay(record)
    summary = done.summary()
    mismatches = result_mismatches(record.result, summary) if record.result else []
    if args.json:
        out: dict[str, Any] = dict(summary)
        out["events"] = [event_to_json(e) for e in done.events]
        if record.result is not None:
            out["result_matches"] = not mismatches
            out["mismatches"] = mismatches
        print(json.dumps(out))
    else:
        print(format_summary(summary))
        if record.result is not None:
            print("recorded result: " + ("matches" if not mismatches else "DOES NOT MATCH"))
            for line in mismatches:
                print("  " + line)
    return 1 if mismatches else 0


def format_summary(s: dict[str, Any]) -> str:
    if not s["finished"]:
        verdict = "unfinished (the edges stop before the game's end)"
    elif s["draw"]:
        verdict = "draw"
    else:
        verdict = f"player {s['winner'] + 1} wins ({s['termination'].replace('_', ' ')})"
    rejected = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["rejected"].items() if v)
    closest = s["closest_race"]
    if closest is None:
        closest_text = "none"
    else:
        closest_text = (
            f"player {closest['winner'] + 1} by {format_margin(closest['margin_ns'])}"
            if closest["margin_ns"]
            else f"exact tie, priority to player {closest['winner'] + 1}"
        )
    return "\n".join(
        [
            f"outcome       {verdict}",
            f"cards left    player 1: {s['cards_left'][0]}, player 2: {s['cards_left'][1]}",
            f"plays         player 1: {s['plays'][0]}, player 2: {s['plays'][1]}",
            f"spits         {s['spits']}",
            f"rejected      {rejected or 'none'}",
            f"ties          {s['ties']}",
            f"late edges    {s['late_edges']}",
            f"closest race  {closest_text}",
        ]
    )
