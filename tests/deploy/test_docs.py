"""docs/install-pi.md names what install.sh really installs, so the two cannot drift apart."""

from __future__ import annotations

import pytest

from tests.deploy.conftest import CABINET_GROUPS, INSTALL, REPO, bash

GUIDE = (REPO / "docs" / "install-pi.md").read_text(encoding="utf-8")


def script_list(name: str) -> list[str]:
    done = bash(INSTALL, f'printf "%s\\n" "${{{name}[@]}}"')
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_the_groups_are_the_ones_the_tests_expect() -> None:
    assert tuple(script_list("CABINET_GROUPS")) == CABINET_GROUPS


@pytest.mark.parametrize("name", ["APT_PACKAGES", "CABINET_GROUPS", "QUIET_BOOT_OPTIONS"])
def test_the_guide_names_every_item(name: str) -> None:
    items = script_list(name)
    assert items
    missing = [item for item in items if item not in GUIDE]
    assert missing == []


def test_the_guide_and_the_readme_link_each_other() -> None:
    assert "docs/install-pi.md" in (REPO / "README.md").read_text(encoding="utf-8")
    for page in ("wiring.md", "lights.md"):
        assert f"]({page})" in GUIDE
