"""The catalogs, the font and its licence are installed with the package, not only present
in a checkout: pyproject.toml's package-data patterns must cover each of them."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import setuptools

ROOT = Path(__file__).resolve().parents[3]
DATA_DIRS = ("cabinet/i18n/catalog", "cabinet/assets/fonts")


def test_language_data_files_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools_config = config["tool"]["setuptools"]
    patterns = setuptools_config["package-data"]["*"]
    packages = set(
        setuptools.find_namespace_packages(
            where=str(ROOT), include=setuptools_config["packages"]["find"]["include"]
        )
    )
    files = [path for folder in DATA_DIRS for path in sorted((ROOT / folder).iterdir())]
    assert {path.name for path in files} >= {
        *(f"{language}.po" for language in ("en", "it", "nl", "fi", "pt", "hu")),
        "DejaVuSans-Bold.ttf",
        "LICENSE-DejaVu.md",
    }
    for path in files:
        package = ".".join(path.parent.relative_to(ROOT).parts)
        assert package in packages, f"{package} is not found as a package"
        assert any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns), path.name
