"""Settings files and ``spit-cabinet settings``: export, import (all or nothing, naming
the bad key and line), show."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cabinet.commands.cli import main
from cabinet.storage.paths import database_path
from cabinet.storage.setting_table import SETTINGS
from cabinet.storage.settings import Settings
from cabinet.storage.settings_file import SettingsFileError, export_text, read_text
from cabinet.storage.store import CabinetStore


def _some_settings() -> st.SearchStrategy[Settings]:
    """Settings with every steppable setting moved a random number of steps."""

    @st.composite
    def build(draw: st.DrawFn) -> Settings:
        out = Settings()
        for s in SETTINGS:
            value = s.default
            for _ in range(draw(st.integers(0, 6))):
                value = s.step(value, draw(st.sampled_from([-1, 1])))
            out.set(s, value)
        if draw(st.booleans()):
            out.update({"keyboard_map": {"p1.slot1": "q", "test": "f5"}, "operator_pin": "6543"})
        return out

    return build()


@given(_some_settings())
def test_export_then_read_gives_the_same_settings(original: Settings) -> None:
    values = read_text(export_text(original))
    assert Settings(values) == original
    assert set(values) == {s.name for s in SETTINGS}


BAD_FILES = [
    ("[game]\nrace_window_ms = 250\n", 2, "game.race_window_ms", "from 0 to 100"),
    ("[cabinet]\nvolume = 50\nvolum = 3\n", 3, "cabinet.volum", "did you mean 'volume'"),
    ("[game]\n\n# the volume\nvolume = 3\n", 4, "game.volume", "belongs in [cabinet]"),
    ("volume = 3\n", 1, "volume", "not outside any table"),
    ("[gmae]\nx = 1\n", 1, "gmae", "unknown table [gmae]"),
    ("[game]\nace_wraps = 1\n", 2, "game.ace_wraps", "true or false; got 1"),
    ('[game]\ntie_rule = "coin"\n', 2, "game.tie_rule", '"alternate", "random"'),
    ('[cabinet.keyboard_map]\n"p1.slot1" = "nokey"\n', 1, "cabinet.keyboard_map", "nokey"),
    ("[game]\nbest_of = 3\n[game\n", 3, None, "not valid TOML"),
    ('[operator]\noperator_pin = "1239"\n', 2, "operator.operator_pin", "from 1 to 6"),
]


@pytest.mark.parametrize(("text", "line", "key", "words"), BAD_FILES)
def test_a_bad_file_names_the_key_and_line(
    text: str, line: int, key: str | None, words: str
) -> None:
    with pytest.raises(SettingsFileError) as caught:
        read_text(text)
    assert caught.value.line == line
    assert caught.value.key == key
    assert words in str(caught.value)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize(("text", "line", "key", "words"), BAD_FILES)
def test_importing_a_bad_file_changes_nothing(
    text: str,
    line: int,
    key: str | None,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = tmp_path / "data"
    store = CabinetStore.open(data)
    store.settings.update({"volume": 40, "best_of": 5})
    store.save_settings()
    store.close()
    before = _digest(database_path(data))
    # Good values too, which must not be applied either (the lines stay the same).
    if "[operator]" not in text:
        text += "\n[operator]\nrecords_kept = 20\n"
    else:
        text = text.replace("[operator]\n", "[operator]\nrecords_kept = 20\n")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    assert main(["settings", "import", str(bad), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err and "nothing was changed" in err
    if key is not None:
        assert key in err
    assert _digest(database_path(data)) == before
    again = CabinetStore.open(data)
    assert again.settings == Settings({"volume": 40, "best_of": 5})
    again.close()


def test_export_and_import_between_two_cabinets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    store = CabinetStore.open(first)
    store.settings.update({"language": "nl", "orientation": "cocktail", "light_brightness": 35})
    store.save_settings()
    store.close()
    exported = tmp_path / "cabinets.toml"
    assert main(["settings", "export", str(exported), "--data-dir", str(first)]) == 0
    assert main(["settings", "--data-dir", str(second), "import", str(exported)]) == 0
    out = capsys.readouterr().out
    assert "changed: language, orientation, light_brightness" in out
    assert main(["settings", "show", "--json", "--data-dir", str(second)]) == 0
    shown: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert shown["language"] == "nl" and shown["light_brightness"] == 35
    assert (
        shown
        == Settings(
            {"language": "nl", "orientation": "cocktail", "light_brightness": 35}
        ).as_plain()
    )


def test_a_partial_file_changes_only_what_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    partial = tmp_path / "volume.toml"
    partial.write_text("[cabinet]\nvolume = 15\n")
    assert main(["settings", "import", str(partial), "--data-dir", str(data)]) == 0
    partial.write_text("[game]\nlanguage = 'pt'\n")
    assert main(["settings", "import", str(partial), "--data-dir", str(data)]) == 0
    capsys.readouterr()
    assert main(["settings", "show", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    # The columns are as wide as the longest setting's name.
    assert re.search(r"^  volume +15 +\(default 80\)$", out, re.MULTILINE)
    assert re.search(r"^  language +pt +\(default en\)$", out, re.MULTILINE)
    assert re.search(r"^  cpu_level +3$", out, re.MULTILINE)


def test_export_to_standard_output_and_missing_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = str(tmp_path / "data")
    assert main(["settings", "export", "-", "--data-dir", data]) == 0
    out = capsys.readouterr().out
    assert read_text(out) == Settings().as_plain()
    missing = tmp_path / "none.toml"
    assert main(["settings", "import", str(missing), "--data-dir", data]) == 2
    err = capsys.readouterr().err
    assert err.startswith("settings import: cannot read") and err.count("\n") == 1


def test_a_corrupt_database_is_reported_by_the_command_and_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    damaged = b"not a database at all" * 100
    database_path(data).write_bytes(damaged)
    settings_file = tmp_path / "volume.toml"
    settings_file.write_text("[cabinet]\nvolume = 80\n", encoding="utf-8")
    for action in (["show"], ["export", "-"], ["import", str(settings_file)]):
        assert main(["settings", *action, "--data-dir", str(data)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"settings {action[0]}: ") and err.count("\n") == 1
        assert "corrupt" in err
    # A command that cannot do its work sets nothing aside: only the cabinet does that.
    assert database_path(data).read_bytes() == damaged
    assert [p.name for p in data.iterdir()] == ["cabinet.sqlite3"]


def test_show_lists_every_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settings", "show", "--data-dir", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    for s in SETTINGS:
        assert f"  {s.name} " in out


@pytest.mark.parametrize("kind", ["device", "huge"])
def test_a_file_too_big_or_a_device_is_refused_unread(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``settings import /dev/zero`` would never end, and a huge file would be read whole
    before it is parsed: both are refused in one line, and nothing changes."""
    from cabinet.commands.settings import MAX_SETTINGS_FILE_BYTES

    data = tmp_path / "data"
    CabinetStore.open(data).close()
    before = _digest(database_path(data))
    if kind == "device":
        source = Path("/dev/zero")
        words = "is a character device"
    else:
        source = tmp_path / "huge.toml"
        source.write_bytes(b"#" * (MAX_SETTINGS_FILE_BYTES + 1))
        words = f"larger than the limit of {MAX_SETTINGS_FILE_BYTES} bytes"
    assert main(["settings", "import", str(source), "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert words in err
    assert _digest(database_path(data)) == before
