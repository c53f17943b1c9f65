"""Ingest as a process that SIGKILLs itself right after its Nth database commit, before
it publishes that acknowledgement: the moment the fleet has a batch and the cabinet does
not know it.

    python -m tests.fleet.ingest_process FLEET_DIR N
"""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

from fleet.ingest import Ingest, IngestStep


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    commits = 0
    limit = int(sys.argv[2])

    def checkpoint(step: IngestStep) -> None:
        nonlocal commits
        if step is IngestStep.COMMITTED:
            commits += 1
            if commits >= limit:
                print("killed between commit and ack", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)

    ingest = Ingest(Path(sys.argv[1]), checkpoint=checkpoint)
    ingest.run()


if __name__ == "__main__":
    main()
