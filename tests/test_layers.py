"""The import layers of docs/decisions.md: game/ and wiring/ use only the standard library and
themselves; nothing outside cabinet/ imports cabinet/; inside cabinet/service/ no import
goes round in a circle."""

from __future__ import annotations

import ast
import sys
from collections.abc import Mapping, Set
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "wiring", "firmware_bridge", "cabinet")


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module imported by ``path`` (absolute imports only)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", ["game", "wiring"])
def test_pure_packages_import_only_the_standard_library(package: str) -> None:
    allowed = set(sys.stdlib_module_names) | {package, "__future__"}
    found = sources(package)
    assert found, f"{package}/ has no sources"
    for path in found:
        bad = imported_modules(path) - allowed
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


@pytest.mark.parametrize("package", ["game", "wiring", "firmware_bridge", "fleet"])
def test_nothing_imports_cabinet(package: str) -> None:
    for path in sources(package):
        assert "cabinet" not in imported_modules(path), f"{path.relative_to(ROOT)} imports cabinet"


#: The fleet's modules a cabinet imports: the standard library only (it installs none of the
#: fleet's service, whose extra brings psycopg and cryptography).
FLEET_SHARED = ("wire", "wire_common", "wire_down", "join_file", "release_manifest")


@pytest.mark.parametrize("module", FLEET_SHARED)
def test_the_fleet_s_wire_format_is_the_standard_library_only(module: str) -> None:
    bad = (
        imported_modules(ROOT / "fleet" / f"{module}.py")
        - set(sys.stdlib_module_names)
        - {
            "fleet",
            "__future__",
        }
    )
    assert not bad, f"fleet/{module}.py imports {sorted(bad)}"
    # Of the fleet, only the other shared modules: the rest brings the service's packages.
    fleet = {
        name.split(".")[1]
        for name in imported_names(ROOT / "fleet" / f"{module}.py")
        if name.startswith("fleet.") and name.count(".") == 1
    }
    assert fleet <= set(FLEET_SHARED), f"fleet/{module}.py imports fleet.{sorted(fleet)}"


def test_the_shared_check_sees_the_fleet_s_own_imports() -> None:
    assert "fleet.wire_common" in imported_names(ROOT / "fleet" / "wire_down.py")


def test_the_cabinet_imports_only_the_fleet_s_wire_format() -> None:
    for path in sources("cabinet"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("fleet"):
                module = (node.module or "").removeprefix("fleet").lstrip(".")
                assert module in FLEET_SHARED, f"{path.relative_to(ROOT)} imports fleet.{module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("fleet"), f"{path} imports {alias.name}"


def test_the_checker_sees_imports(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import pygame\nfrom cabinet.commands.cli import main\nfrom . import x\n")
    assert imported_modules(sample) == {"pygame", "cabinet"}


def test_firmware_bridge_imports_only_pyserial_and_the_standard_library() -> None:
    """The host side may use pyserial; the boards' firmware only MicroPython's own
    hardware modules (``machine``, ``neopixel``, ``micropython``), and only inside
    ``firmware_bridge/firmware`` (the light board), ``firmware_bridge/jig`` (the fairness
    jig) or the simulator's stand-ins for them."""
    board_modules = {"machine", "neopixel", "micropython"}
    allowed = set(sys.stdlib_module_names) | {"firmware_bridge", "__future__", "serial"}
    for path in sources("firmware_bridge"):
        bad = imported_modules(path) - allowed
        on_board = path.relative_to(ROOT).parts[1] in ("firmware", "jig", "sim")
        if on_board:
            bad -= board_modules
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def module_name(path: Path, root: Path = ROOT) -> str:
    """``cabinet/service/kit.py`` → ``cabinet.service.kit`` (a package: its folder's name)."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported_names(path: Path, root: Path = ROOT) -> set[str]:
    """The full dotted name of every module ``path`` may import, wherever the import is
    (in a function, under ``if TYPE_CHECKING:``): relative imports resolved, and for
    ``from m import n`` both ``m`` and ``m.n`` (``n`` may be a module)."""
    module = module_name(path, root)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            names.add(stem)
            names.update(f"{stem}.{alias.name}" for alias in node.names)
    return names


def import_graph(folder: Path, root: Path = ROOT) -> dict[str, set[str]]:
    """Each module under ``folder`` → the modules under ``folder`` it imports."""
    modules = {module_name(path, root): path for path in sorted(folder.rglob("*.py"))}
    return {
        name: {m for m in imported_names(path, root) if m in modules and m != name}
        for name, path in modules.items()
    }


def find_cycle(graph: Mapping[str, Set[str]]) -> list[str] | None:
    """A circle of ``graph``, as the path round it (its first node again at the end), or
    ``None`` when there is none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        for target in sorted(graph.get(node, ())):
            cycle = visit(target)
            if cycle is not None:
                return cycle
        path.pop()
        done.add(node)
        return None

    for start in sorted(graph):
        cycle = visit(start)
        if cycle is not None:
            return cycle
    return None


def test_the_service_menu_imports_go_round_no_circle() -> None:
    """The page kit imports no page, pages import the kit, and only the pages that list
    pages import pages: every import counts, the lazy ones in functions and the ones for
    the type checker alike."""
    graph = import_graph(ROOT / "cabinet" / "service")
    assert "cabinet.service.kit" in graph["cabinet.service.main_page"], "the checker sees no import"
    cycle = find_cycle(graph)
    assert cycle is None, "cabinet/service/ imports go round: " + " -> ".join(cycle or ())


def test_the_cycle_checker_sees_circles(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from pkg.b import g\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n"
    )
    (package / "c.py").write_text("import pkg.d\n")
    (package / "d.py").write_text("from .a import f\n")
    graph = import_graph(package, tmp_path)
    assert graph == {
        "pkg": set(),
        "pkg.a": {"pkg.b"},
        "pkg.b": {"pkg", "pkg.c"},
        "pkg.c": {"pkg.d"},
        "pkg.d": {"pkg.a"},
    }
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.d", "pkg.a"]
    (package / "d.py").write_text("")
    assert find_cycle(import_graph(package, tmp_path)) is None


#: The display process's own packages: the table process reaches none of them.
DISPLAY_PROCESS = ("cabinet.display", "cabinet.drawing", "cabinet.service", "cabinet.sound")


def reached(graph: Mapping[str, Set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others (itself included)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(graph.get(module, ()))
    return seen


def in_packages(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_table_process_reaches_nothing_of_the_display_process() -> None:
    """``python -m cabinet.table`` and what it imports, however deep (the lazy imports
    too), stay out of the display's packages: what both need lives in cabinet/shared/."""
    graph = import_graph(ROOT / "cabinet")
    table = reached(graph, "cabinet.table.process")
    assert {"cabinet.table.server", "cabinet.shared.phase"} <= table, "the walk sees no import"
    bad = sorted(m for m in table if in_packages(m, DISPLAY_PROCESS))
    assert not bad, f"the table process imports {bad}"


def test_shared_modules_import_neither_process() -> None:
    graph = import_graph(ROOT / "cabinet")
    for module in (m for m in graph if m.startswith("cabinet.shared")):
        bad = sorted(
            m for m in graph[module] if in_packages(m, (*DISPLAY_PROCESS, "cabinet.table"))
        )
        assert not bad, f"{module} imports {bad}"


def test_the_reach_walk_follows_imports_through_other_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a"}}
    assert reached(graph, "a") == {"a", "b", "c"}
    assert in_packages("cabinet.display.app", DISPLAY_PROCESS)
    assert not in_packages("cabinet.displayed", DISPLAY_PROCESS)


def test_nothing_is_loose_at_the_top_of_cabinet() -> None:
    """Each module belongs to a package named for what it serves."""
    loose = sorted(p.name for p in (ROOT / "cabinet").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py"]


def package_graph(graph: Mapping[str, Set[str]]) -> dict[str, set[str]]:
    """``graph`` with each module folded into its package under cabinet/
    (``cabinet.money.keeper`` → ``cabinet.money``)."""

    def package(module: str) -> str:
        return ".".join(module.split(".")[:2])

    folded: dict[str, set[str]] = {}
    for module, targets in graph.items():
        folded.setdefault(package(module), set()).update(
            package(t) for t in targets if package(t) != package(module)
        )
    return folded


def test_storage_reaches_nothing_of_money() -> None:
    """Storage keeps rows, money gives them meaning: the keeper imports the store, never
    the other way round (the money table's counts reach storage as plain names and
    numbers)."""
    graph = import_graph(ROOT / "cabinet")
    storage = set().union(*(reached(graph, m) for m in graph if m.startswith("cabinet.storage")))
    assert "cabinet.storage.database" in storage, "the walk sees no import"
    bad = sorted(m for m in storage if in_packages(m, ("cabinet.money",)))
    assert not bad, f"cabinet/storage/ imports {bad}"
    assert "cabinet.storage" in package_graph(graph)["cabinet.money"]


def test_the_packages_of_cabinet_import_go_round_no_circle() -> None:
    """Folded into packages, cabinet/'s imports run one way: the service menu's pages
    take the hall of fame's words from halloffame/, not from the display process that
    hosts them, and storage takes nothing from money."""
    graph = package_graph(import_graph(ROOT / "cabinet"))
    assert "cabinet.display" in graph["cabinet.commands"], "the fold sees no import"
    cycle = find_cycle(graph)
    assert cycle is None, "cabinet/'s packages import in a circle: " + " -> ".join(cycle or ())
