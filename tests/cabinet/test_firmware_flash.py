"""``spit-cabinet firmware flash`` checks the light configuration with the firmware's own code
before it copies anything: a bad file gets one line naming it (and the key), exit status 2,
and nothing reaches the board.

Every test goes through ``cabinet.commands.cli.main`` with mpremote replaced (as in
``test_light_commands.py``, the staged ``lights.json`` is read back from its ``-r`` argument):
no board is needed, and a test sees exactly what would have been copied.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cabinet.commands import cli, firmware
from firmware_bridge.firmware.config import (
    DEFAULTS,
    DRIVERS,
    MAX_CONFIG_BYTES,
    MAX_CONFIG_DEPTH,
    boot_config,
)

ROOT = Path(__file__).resolve().parents[2]
PROG = "spit-cabinet firmware flash"
NOT_COPIED = "; nothing was copied to the board\n"
KEYS = ", ".join(sorted(DEFAULTS))


@dataclass
class Flash:
    """What one ``spit-cabinet firmware flash`` did."""

    status: int
    out: str
    err: str
    calls: list[list[str]] = field(default_factory=list)
    staged: list[str] = field(default_factory=list)  # each call's lights.json


def flash(config: Path | None, *extra: str) -> Flash:
    """Run ``spit-cabinet firmware flash --config CONFIG EXTRA...`` through the real entry
    point, with mpremote replaced by a recorder."""
    calls: list[list[str]] = []
    staged: list[str] = []

    def fake_mpremote(argv: Sequence[str]) -> int:
        calls.append(list(argv))
        root = Path(argv[argv.index("-r") + 1]).parent
        staged.append((root / "lights.json").read_text(encoding="utf-8"))
        return 0

    argv = ["firmware", "flash", "--port", "/dev/ttyACM0"]
    if config is not None:
        argv += ["--config", str(config)]
    out, err = io.StringIO(), io.StringIO()
    with (
        patch.object(firmware, "call_mpremote", fake_mpremote),
        redirect_stdout(out),
        redirect_stderr(err),
    ):
        status = cli.main([*argv, *extra])
    return Flash(status, out.getvalue(), err.getvalue(), calls, staged)


def assert_refused(result: Flash, message: str) -> None:
    """Exit status 2, nothing copied, and exactly one line on stderr: ``message``'s."""
    assert result.status == firmware.EXIT_NOT_COPIED == 2
    assert result.calls == [], "nothing may be copied"
    assert result.out == ""
    assert result.err == f"{PROG}: error: {message}{NOT_COPIED}"
    assert result.err.count("\n") == 1
    assert "Traceback" not in result.err


def test_the_shipped_config_is_checked_and_copied(tmp_path: Path) -> None:
    result = flash(None, "--data-dir", str(tmp_path))
    assert (result.status, result.err) == (0, "")
    assert len(result.calls) == 1 and result.calls[0][-1] == "reset"
    (staged,) = result.staged
    assert json.loads(staged) == DEFAULTS
    board_file = tmp_path / "lights.json"
    board_file.write_text(staged, encoding="utf-8")
    assert boot_config(str(board_file))[1] is None


def test_the_driver_option_replaces_the_files_driver(tmp_path: Path) -> None:
    config = tmp_path / "mine.json"
    config.write_text('{"driver": "laser", "pins": [10, 11]}', encoding="utf-8")
    result = flash(config, "--driver", "plain")
    assert result.status == 0
    assert json.loads(result.staged[0]) == {"driver": "plain", "pins": [10, 11]}


@pytest.mark.parametrize(
    ("data", "extra", "message"),
    [
        # The tester's three files.
        (b"[1, 2]", ["--driver", "pwm"], "{path} must hold a JSON object, not a list"),
        (b"[" * 100_000, ["--driver", "pwm"], "{path} is larger than 4096 bytes"),
        (
            b'{"driver": "laser", "colour": 3}',
            [],
            "{path}: unknown configuration key 'colour'; the keys are " + KEYS,
        ),
        # More of the same kind.
        (b"[" * 1000 + b"]" * 1000, ["--driver", "pwm"], "{path} nests deeper than 8 levels"),
        (b'{"pins": [[[[[[[[[2]]]]]]]]]}', [], "{path} nests deeper than 8 levels"),
        (
            b'{"driver": "laser"}',
            [],
            "{path}: driver must be one of plain, pwm, ws2812; got 'laser'",
        ),
        (b'{"pins": [2, 40]}', [], "{path}: pins[1] must be a whole number from 0 to 29, got 40"),
        (b'{"active_low": "yes"}', [], "{path}: active_low must be true or false, got 'yes'"),
        (
            b'{"pins": "2,3"}',
            ["--driver", "plain"],
            "{path}: pins must be a list of whole numbers, got '2,3'",
        ),
        (b'"pwm"', ["--driver", "pwm"], "{path} must hold a JSON object, not a string"),
        (b"null", [], "{path} must hold a JSON object, not null"),
        (b"\xff{}", [], "{path} is not UTF-8 text"),
        (b"", [], "{path} is not valid JSON (Expecting value: line 1 column 1 (char 0))"),
        (
            b'{"driver": "pwm",}',
            [],
            "{path} is not valid JSON (Expecting property name enclosed in double quotes: "
            "line 1 column 18 (char 17))",
        ),
        (b"{}" + b" " * MAX_CONFIG_BYTES, [], "{path} is larger than 4096 bytes"),
    ],
)
def test_a_bad_config_gets_one_line_and_nothing_is_copied(
    tmp_path: Path, data: bytes, extra: list[str], message: str
) -> None:
    config = tmp_path / "my-lights.json"
    config.write_bytes(data)
    assert_refused(flash(config, *extra), message.format(path=config))


def test_what_is_copied_stays_within_the_limit(tmp_path: Path) -> None:
    """The copy is rewritten (indented, the driver replaced): it is checked again as written.
    Indented, a long list outgrows the limit, so it goes compact; over the limit even then,
    it is refused."""
    config = tmp_path / "my-lights.json"
    pins = [0] * ((MAX_CONFIG_BYTES - 40) // 2)  # ws2812 takes (and ignores) any pin list
    config.write_text(json.dumps({"driver": "ws2812", "pins": pins}, separators=(",", ":")))
    assert config.stat().st_size <= MAX_CONFIG_BYTES
    result = flash(config)
    assert result.status == 0
    (staged,) = result.staged
    assert len(staged.encode()) <= MAX_CONFIG_BYTES < len(json.dumps(json.loads(staged), indent=2))
    (tmp_path / "lights.json").write_text(staged, encoding="utf-8")
    assert boot_config(str(tmp_path / "lights.json"))[1] is None
    # Just under the limit, without a driver: --driver adds one, over the limit.
    config.write_text(json.dumps({"pins": [0] * 2040}, separators=(",", ":")))
    assert MAX_CONFIG_BYTES - 10 < config.stat().st_size <= MAX_CONFIG_BYTES
    assert_refused(
        flash(config, "--driver", "ws2812"),
        f"{config}, as written for the board, is larger than {MAX_CONFIG_BYTES} bytes",
    )


def test_a_missing_config_file(tmp_path: Path) -> None:
    config = tmp_path / "nowhere.json"
    assert_refused(flash(config), f"no configuration file at {config}")
    assert_refused(flash(tmp_path), f"no configuration file at {tmp_path}")


def test_the_real_command_prints_no_traceback(tmp_path: Path) -> None:
    """The tester's first file through a real process (it stops before mpremote; the port
    does not exist, so even if it did not, no board would be touched)."""
    config = tmp_path / "list.json"
    config.write_text("[1, 2]\n", encoding="utf-8")
    argv = ["firmware", "flash", "--port", str(tmp_path / "no-port"), "--config", str(config)]
    done = subprocess.run(
        [sys.executable, "-m", "cabinet.commands.cli", *argv, "--driver", "pwm"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        f"{PROG}: error: {config} must hold a JSON object, not a list{NOT_COPIED}"
    )


def test_the_exit_statuses_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["firmware", "flash", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 copied; 1 mpremote failed; 2 nothing copied" in help_text


# ---- malformed configurations, generated -----------------------------------------------------

leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
containers = st.lists(leaves, max_size=4) | st.dictionaries(st.text(max_size=6), leaves, max_size=3)
json_values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
text = st.text(max_size=12)
not_int = st.none() | st.booleans() | st.floats(allow_nan=False) | text | containers
not_bool = st.none() | st.integers() | st.floats(allow_nan=False) | text | containers
not_list = (
    st.none()
    | st.booleans()
    | st.integers()
    | text
    | containers.filter(lambda v: not isinstance(v, list))
)


@st.composite
def list_with_a_non_int(draw: st.DrawFn) -> list[object]:
    items: list[object] = list(draw(st.lists(st.integers(0, 29), max_size=4)))
    items.insert(draw(st.integers(0, len(items))), draw(not_int))
    return items


not_a_driver = (
    st.none() | st.booleans() | st.integers() | containers | text.filter(lambda t: t not in DRIVERS)
)
WRONG = {
    "driver": not_a_driver,
    "pins": not_list | list_with_a_non_int(),
    "link_lost_rgb": not_list | list_with_a_non_int(),
    "active_low": not_bool,
}


@st.composite
def wrong_type(draw: st.DrawFn) -> tuple[str, object]:
    """A key of the configuration, and a value of a type it does not take."""
    key = draw(st.sampled_from(sorted(DEFAULTS)))
    return key, draw(WRONG.get(key, not_int))


@pytest.fixture(scope="module")
def config_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file the generated tests rewrite for each example (a session-scoped directory,
    since hypothesis runs many examples in one test)."""
    return tmp_path_factory.mktemp("flash") / "my-lights.json"


@settings(deadline=None)
@given(case=wrong_type(), driver=st.sampled_from([None, *DRIVERS]))
def test_a_wrong_type_is_named_with_its_key(
    config_file: Path, case: tuple[str, object], driver: str | None
) -> None:
    key, value = case
    if key == "driver" and driver is not None:
        key, driver = "pins", None  # --driver would replace the wrong one; try another key
        value = "GP2"
    config_file.write_text(json.dumps({key: value}), encoding="utf-8")
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    assert result.status == 2 and result.calls == [] and result.out == ""
    assert result.err.startswith(f"{PROG}: error: {config_file}: {key}")
    assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1
    assert "Traceback" not in result.err


@settings(deadline=None)
@given(
    key=st.text(max_size=20).filter(lambda k: k not in DEFAULTS),
    value=json_values,
    driver=st.sampled_from(DRIVERS),
)
def test_an_unknown_key_is_an_error(
    config_file: Path, key: str, value: object, driver: str
) -> None:
    config_file.write_text(json.dumps({"driver": driver, key: value}), encoding="utf-8")
    message = f"{config_file}: unknown configuration key {key!r}; the keys are {KEYS}"
    assert_refused(flash(config_file), message)


@settings(deadline=None)
@given(driver=not_a_driver)
def test_a_bad_driver_is_an_error(config_file: Path, driver: object) -> None:
    config_file.write_text(json.dumps({"driver": driver}), encoding="utf-8")
    message = f"{config_file}: driver must be one of plain, pwm, ws2812; got {driver!r}"
    assert_refused(flash(config_file), message)


@settings(deadline=None)
@given(
    document=st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40)
    | st.lists(json_values, max_size=5),
    driver=st.sampled_from([None, *DRIVERS]),
)
def test_a_document_that_is_no_object_is_an_error(
    config_file: Path, document: object, driver: str | None
) -> None:
    config_file.write_text(json.dumps(document), encoding="utf-8")
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    assert result.status == 2 and result.calls == []
    assert result.err.startswith(f"{PROG}: error: {config_file} must hold a JSON object, not ")
    assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1


@settings(deadline=None)
@given(
    depth=st.integers(MAX_CONFIG_DEPTH + 1, 6000),
    opener=st.sampled_from(["[", "{", '{"a": ', '{"pins": [']),
    under_a_key=st.booleans(),
    closed=st.booleans(),
    driver=st.sampled_from([None, *DRIVERS]),
)
def test_deep_nesting_is_an_error(
    config_file: Path,
    depth: int,
    opener: str,
    under_a_key: bool,
    closed: bool,
    driver: str | None,
) -> None:
    closer = {"[": "]", "{": "}", '{"a": ': "}", '{"pins": [': "]}"}[opener]
    # Each opener adds one level, except '{"pins": [' (two).
    count = depth if opener != '{"pins": [' else (depth + 1) // 2
    inner = opener * count + (closer * count if closed else "")
    text = '{"pins": ' + inner + "}" if under_a_key else inner
    data = text.encode()
    config_file.write_bytes(data)
    result = flash(config_file, *([] if driver is None else ["--driver", driver]))
    if len(data) > MAX_CONFIG_BYTES:
        assert_refused(result, f"{config_file} is larger than {MAX_CONFIG_BYTES} bytes")
    else:
        assert_refused(result, f"{config_file} nests deeper than {MAX_CONFIG_DEPTH} levels")


def value_for(key: str) -> st.SearchStrategy[object]:
    """Mostly the default, sometimes near it, sometimes anything."""
    default = DEFAULTS[key]
    near: st.SearchStrategy[object]
    if key == "driver":
        near = st.sampled_from([*DRIVERS, "rgb", "PWM"])
    elif isinstance(default, bool):
        near = st.booleans()
    elif isinstance(default, int):
        near = st.integers(-10, 100_000)
    else:
        near = st.lists(st.integers(-1, 300), max_size=17)
    return st.just(default) | near | json_values


configs = st.dictionaries(
    st.sampled_from(sorted(DEFAULTS)) | st.text(max_size=8), st.none(), max_size=5
).flatmap(
    lambda keys: st.fixed_dictionaries(
        {k: (value_for(k) if k in DEFAULTS else json_values) for k in keys}
    )
)


@settings(deadline=None, max_examples=300)
@given(document=configs | json_values, indent=st.sampled_from([None, 2]))
def test_the_command_copies_exactly_what_the_board_would_use(
    config_file: Path, tmp_path_factory: pytest.TempPathFactory, document: object, indent: int
) -> None:
    """Whatever the file holds, flash copies it if and only if the board, booting from that
    file, would use it (not fall back); and what it copies boots to the same settings."""
    config_file.write_text(json.dumps(document, indent=indent), encoding="utf-8")
    on_board, board_error = boot_config(str(config_file))
    result = flash(config_file)
    assert "Traceback" not in result.err
    if board_error is not None:
        assert result.status == 2 and result.calls == []
        assert result.err.startswith(f"{PROG}: error: {config_file}")
        assert result.err.endswith(NOT_COPIED) and result.err.count("\n") == 1
        return
    assert (result.status, result.err, len(result.calls)) == (0, "", 1)
    copied = config_file.with_name("copied-lights.json")
    copied.write_text(result.staged[0], encoding="utf-8")
    after, error = boot_config(str(copied))
    assert error is None
    assert vars(after) == vars(on_board)
