"""Make the card's checked-hash .pyc files unchecked, in place (docs/image.md, "Boot").

    python pyc_unchecked.py ROOT        (prints what it found, as JSON)

A build with SOURCE_DATE_EPOCH set compiles every module to a *checked* hash-based .pyc
(PEP 552; Python's default then, so that the bytes do not depend on a file's time): at
each import, Python reads the module's source as well and hashes it, to see that the
.pyc is still its compiled form. On the card's read-only root a source never changes, so
that read (from the squashfs, cold at boot) and that hash buy nothing. Flipping the
header's check_source bit leaves each file the same compiled code with the same source
hash, and Python then loads it without looking at the source. An update's new version is
installed off the squashfs, by pip on the cabinet, and compiled there as usual.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HASH_BASED = 0b01
CHECK_SOURCE = 0b10


def unchecked(root: Path) -> dict[str, int]:
    """Clear check_source in every checked-hash .pyc under ``root``; the counts by kind."""
    counts = {"unchecked now": 0, "unchecked already": 0, "timestamp": 0}
    for path in sorted(root.rglob("*.pyc")):
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("r+b") as pyc:
            header = pyc.read(8)
            flags = int.from_bytes(header[4:8], "little")
            if not flags & HASH_BASED:
                counts["timestamp"] += 1
            elif flags & CHECK_SOURCE:
                pyc.seek(4)
                pyc.write((flags & ~CHECK_SOURCE).to_bytes(4, "little"))
                counts["unchecked now"] += 1
            else:
                counts["unchecked already"] += 1
    return counts


def main() -> int:
    if len(sys.argv) != 2 or not Path(sys.argv[1]).is_dir():
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    print(json.dumps(unchecked(Path(sys.argv[1]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
