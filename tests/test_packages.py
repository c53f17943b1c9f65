"""Each package says what it offers: ``__all__`` and a docstring with an example that
runs. A package that offers its modules (its ``__init__`` imports nothing) lists every one
of them, so a new module cannot be left out of the list."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = sorted(
    ".".join(path.parent.relative_to(ROOT).parts)
    for top in ("game", "wiring", "firmware_bridge", "cabinet", "fleet")
    for path in (ROOT / top).rglob("__init__.py")
)
#: Modules a package leaves out of its list on purpose: the light board's and the fairness
#: jig's entry points run the board when they are imported, and their interfaces are the
#: host's type checking only.
NOT_LISTED = {
    "firmware_bridge.firmware": {"interfaces", "main"},
    "firmware_bridge.jig": {"interfaces", "main"},
}


def modules_of(package: str) -> set[str]:
    folder = ROOT.joinpath(*package.split("."))
    files = {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
    return files | {p.parent.name for p in folder.glob("*/__init__.py")}


def test_every_package_is_seen() -> None:
    assert {"game", "cabinet.display", "cabinet.table", "firmware_bridge.sim"} <= set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_says_what_it_offers_with_an_example_that_runs(package: str) -> None:
    module = importlib.import_module(package)
    names = getattr(module, "__all__", None)
    assert names, f"{package} has no __all__"
    assert ">>>" in (module.__doc__ or ""), f"{package}'s docstring has no example"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
    modules = modules_of(package)
    if set(names) <= modules | {"FIRMWARE_VERSION"}:  # it offers its modules
        missing = modules - set(names) - NOT_LISTED.get(package, set())
        assert not missing, f"{package}.__all__ lacks {sorted(missing)}"
    else:  # it offers names: each one is there
        assert all(hasattr(module, name) for name in names)
