"""What is copied to the fairness jig's board (docs/fairness.md): exactly the files
firmware_bridge/jig/main.py imports there, and the docs' copy loop copies just those."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.firmware_bridge.conftest import ROOT

#: The files the jig runs from, under firmware_bridge/ (docs/fairness.md copies these).
BOARD_FILES = {
    "__init__.py",
    "fairness.py",
    "firmware/__init__.py",
    "firmware/config.py",
    "jig/__init__.py",
    "jig/app.py",
    "jig/config.py",
    "jig/lines.py",
    "jig/presser.py",
}


def board_imports(path: Path) -> set[str]:
    """The firmware_bridge modules ``path`` imports on the board (not those under
    ``if TYPE_CHECKING:``), as module names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {name for name in found if name.startswith("firmware_bridge")}


def module_file(name: str) -> str | None:
    """``firmware_bridge.jig.app`` → ``jig/app.py`` (a package: its ``__init__.py``), or
    ``None`` when ``name`` is no module (a name imported from one)."""
    parts = name.split(".")[1:]
    folder = ROOT.joinpath("firmware_bridge", *parts)
    if (folder / "__init__.py").is_file():
        return "/".join([*parts, "__init__.py"])
    if folder.with_suffix(".py").is_file():
        return "/".join(parts) + ".py"
    return None


def test_the_board_files_are_what_the_jig_imports_and_what_the_docs_copy() -> None:
    needed = {"__init__.py"}
    todo = [ROOT / "firmware_bridge" / "jig" / "main.py"]
    while todo:
        for name in board_imports(todo.pop()):
            found = module_file(name)
            if found is None or found in needed:
                continue
            folders = found.split("/")[:-1]  # the packages it is in: their __init__ too
            for i in range(1, len(folders) + 1):
                package = "/".join([*folders[:i], "__init__.py"])
                if package not in needed:
                    needed.add(package)
                    todo.append(ROOT / "firmware_bridge" / package)
            needed.add(found)
            todo.append(ROOT / "firmware_bridge" / found)
    assert needed == BOARD_FILES
    docs = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
    loop = re.search(r"for f in (.*?); do", docs, re.DOTALL)
    assert loop is not None, "docs/fairness.md has no copy loop"
    assert set(loop.group(1).replace("\\", " ").split()) == BOARD_FILES
