"""The chart library the pages serve is npm's uPlot, byte for byte (package.json and its
lock say which version): the wheel carries the copy in fleet/web/static/web/."""

from __future__ import annotations

import json

import pytest

from tests.fleet.services import ROOT

STATIC = ROOT / "fleet" / "web" / "static" / "web"
NPM = ROOT / "node_modules" / "uplot"


@pytest.mark.parametrize(
    ("copy", "original"),
    [
        ("uPlot.iife.min.js", "dist/uPlot.iife.min.js"),
        ("uPlot.min.css", "dist/uPlot.min.css"),
        ("LICENSE.uplot.txt", "LICENSE"),
    ],
)
def test_the_copy_is_the_npm_package_s(copy: str, original: str) -> None:
    if not NPM.exists():
        pytest.fail("node_modules/uplot is missing: npm ci (README, Prerequisites)")
    assert (STATIC / copy).read_bytes() == (NPM / original).read_bytes()


def test_the_lock_names_the_installed_version() -> None:
    lock = json.loads((ROOT / "package-lock.json").read_text())
    installed = json.loads((NPM / "package.json").read_text())["version"]
    assert lock["packages"]["node_modules/uplot"]["version"] == installed
    assert "uplot" in json.loads((ROOT / "package.json").read_text())["dependencies"]


def test_the_wheel_carries_the_templates_and_static_files() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    for pattern in ("templates/web/*.html", "static/web/*.css", "static/web/*.js"):
        assert pattern in text
