"""docs/api.md against the libraries: every public name of ``game`` and ``wiring`` is on
the page, and the page's examples run."""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"


@pytest.mark.parametrize("package", ["game", "wiring"])
def test_every_public_name_is_on_the_page(package: str) -> None:
    module = importlib.import_module(package)
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"## `{package}`", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`(\w+)`", section.split("Public names:", 1)[1]))
    assert set(module.__all__) <= listed, sorted(set(module.__all__) - listed)
    for name in module.__all__:
        assert hasattr(module, name), name


def test_the_page_examples_run() -> None:
    text = PAGE.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "docs/api.md", str(PAGE), 0)
    assert len(test.examples) >= 6
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
