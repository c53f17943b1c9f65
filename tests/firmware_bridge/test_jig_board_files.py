"""What is copied to the fairness jig's board (docs/fairness.md): exactly the files
firmware_bridge/jig/main.py imports there, and the docs' copy loop copies just those."""

from __future__ import annotations

import re

from tests.firmware_bridge.board_files import PACKAGE, board_files
from tests.firmware_bridge.conftest import ROOT

#: The files the jig runs from, under firmware_bridge/ (docs/fairness.md copies these).
BOARD_FILES = {
    "__init__.py",
    "fairness.py",
    "firmware/__init__.py",
    "firmware/config.py",
    "firmware/host_input.py",
    "jig/__init__.py",
    "jig/app.py",
    "jig/config.py",
    "jig/lines.py",
    "jig/presser.py",
}


def test_the_board_files_are_what_the_jig_imports_and_what_the_docs_copy() -> None:
    assert board_files(PACKAGE / "jig" / "main.py") == BOARD_FILES
    docs = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    loop = re.search(r"for f in (.*?); do", docs, re.DOTALL)
    assert loop is not None, "docs/fairness.md has no copy loop"
    assert set(loop.group(1).replace("\\", " ").split()) == BOARD_FILES
