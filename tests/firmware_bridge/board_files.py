"""Which of firmware_bridge's files a board runs from: those its ``main.py`` imports there,
followed through every module they import in turn, with the packages they are in. For the
tests that hold the boards' copy lists to it (the light board's ``spit-cabinet firmware
flash``, the fairness jig's docs/fairness.md)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.firmware_bridge.conftest import ROOT

PACKAGE = ROOT / "firmware_bridge"


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
    folder = PACKAGE.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return "/".join([*parts, "__init__.py"])
    if folder.with_suffix(".py").is_file():
        return "/".join(parts) + ".py"
    return None


def board_files(main: Path) -> set[str]:
    """The files under firmware_bridge/ that the board whose entry is ``main`` runs from
    (``main`` itself not among them), as paths relative to firmware_bridge/."""
    needed = {"__init__.py"}
    todo = [main]
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
                    todo.append(PACKAGE / package)
            needed.add(found)
            todo.append(PACKAGE / found)
    return needed
