"""Every setting the operator can change: the one declarative table.

The service menu lists these (by :class:`SettingGroup`, in this order), the database and
TOML files store them by name, and ``docs/storage.md``'s reference table is generated
from them (:func:`reference_table`; a test keeps the doc in step). To add a setting, add
a declaration here (a pricing setting: in :mod:`cabinet.storage.pricing_settings`) and use
it where it takes effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cabinet.i18n.catalog import LANGUAGES
from cabinet.inputs.select import BACKENDS, InputKind
from cabinet.storage.pricing_settings import (
    BONUS_CREDITS,
    BONUS_UNITS,
    COIN1_CENTS,
    COIN1_UNITS,
    COIN2_CENTS,
    COIN2_UNITS,
    COIN_PULSE_MAX_MS,
    COIN_PULSE_MIN_MS,
    CPU_GAME_COSTS,
    CREDITS_PER_GAME,
    CURRENCY,
    FREE_PLAY,
    MAX_CREDITS,
    METER_OFF_MS,
    METER_ON_MS,
    PRICE_PER,
    UNITS_PER_CREDIT,
)
from cabinet.storage.setting_types import (
    AUTO,
    Choice,
    Decimal,
    KeyMapOverrides,
    Pin,
    Resolution,
    SerialPort,
    Setting,
    SettingGroup,
    Switch,
    WholeNumber,
)
from game.bots import LEVELS
from game.rules import Rules, TieRule

_RULES = Rules()
GAME = SettingGroup.GAME
CABINET = SettingGroup.CABINET
OPERATOR = SettingGroup.OPERATOR
PRICING = SettingGroup.PRICING

# -- game ---------------------------------------------------------------------------------

SPIT_DELAY_MS = WholeNumber(
    name="spit_delay_ms",
    group=GAME,
    default=_RULES.spit_delay_ms,
    low=0,
    high=10_000,
    step_by=100,
    unit="ms",
    description='Spit countdown: the "ready… spit!" delay when both players are stuck (R11).',
)
RACE_WINDOW_MS = Decimal(
    name="race_window_ms",
    group=GAME,
    default=_RULES.race_window_ms,
    low=0,
    high=100,
    step_by=0.5,
    unit="ms",
    description="Race window: how long the referee holds a press before deciding races (R10).",
)
BEATEN_WINDOW_MS = WholeNumber(
    name="beaten_window_ms",
    group=GAME,
    default=_RULES.beaten_window_ms,
    low=0,
    high=5_000,
    step_by=50,
    unit="ms",
    description="A refused play counts as beaten when the opponent's play landed this "
    "recently (R10).",
)
TIE_RULE = Choice(
    name="tie_rule",
    group=GAME,
    default=_RULES.tie_rule.value,
    choices=tuple(t.value for t in TieRule),
    description="Who wins an exact tie: alternate between players, or random (R10).",
)
ACE_WRAPS = Switch(
    name="ace_wraps",
    group=GAME,
    default=_RULES.ace_wraps,
    description="The ace is next to both king and two; off: the ace is low only (R2).",
)
BEST_OF = Choice(
    name="best_of",
    group=GAME,
    default=_RULES.best_of,
    choices=(1, 3, 5),
    description="Match length: best of 1, 3 or 5 games.",
)
BUTTON_HINTS = Switch(
    name="button_hints",
    group=GAME,
    default=True,
    description="Light the buttons whose card can play, on the board and on screen.",
)
CPU_OPPONENT = Switch(
    name="cpu_opponent",
    group=GAME,
    default=True,
    description="A lone player gets a CPU opponent after the join wait.",
)
CPU_LEVEL = WholeNumber(
    name="cpu_level",
    group=GAME,
    default=3,
    low=1,
    high=len(LEVELS),
    description="The CPU opponent's skill: 1 beginner to 5 champion.",
)
JOIN_CPU_WAIT_S = WholeNumber(
    name="join_cpu_wait_s",
    group=GAME,
    default=10,
    low=3,
    high=60,
    unit="s",
    description="How long a lone player waits for a second player before the CPU joins.",
)
IDLE_TIMEOUT_S = WholeNumber(
    name="idle_timeout_s",
    group=GAME,
    default=60,
    low=15,
    high=600,
    step_by=15,
    unit="s",
    description="A game with no press for this long is abandoned and attract mode returns.",
)
ATTRACT_SOUND = Switch(
    name="attract_sound",
    group=GAME,
    default=False,
    description="Play sounds during the attract demo.",
)
LANGUAGE = Choice(
    name="language",
    group=GAME,
    default="en",
    choices=LANGUAGES,
    description="The language of everything on screen.",
)

# -- cabinet ------------------------------------------------------------------------------

ORIENTATION = Choice(
    name="orientation",
    group=CABINET,
    default="upright",
    choices=("upright", "cocktail"),
    description="Upright: players side by side; cocktail: face to face across a table.",
)
RESOLUTION = Resolution(
    name="resolution",
    group=CABINET,
    default=AUTO,
    description="The screen mode; auto uses the screen's own.",
)
VOLUME = WholeNumber(
    name="volume",
    group=CABINET,
    default=80,
    low=0,
    high=100,
    step_by=5,
    unit="%",
    description="Master volume; 0 is silent.",
)
LIGHT_BRIGHTNESS = WholeNumber(
    name="light_brightness",
    group=CABINET,
    default=100,
    low=0,
    high=100,
    step_by=5,
    unit="%",
    description="Brightness of the indicator lights.",
)
LED_PORT = SerialPort(
    name="led_port",
    group=CABINET,
    default=AUTO,
    description="The light board's serial port; auto finds it by its USB identity.",
)
LED_TYPE = Choice(
    name="led_type",
    group=CABINET,
    default="plain",
    choices=("plain", "pwm", "ws2812"),
    description=(
        "The lights fitted (plain on/off, dimmable PWM, or WS2812): "
        "firmware flash installs its driver."
    ),
)
INPUT_BACKEND = Choice(
    name="input_backend",
    group=CABINET,
    default=AUTO,
    # Not "mock": chosen from the menu it would leave the cabinet with no buttons at all,
    # TEST included (``--input mock`` stays for tests and demos).
    choices=(AUTO, *(b.value for b in BACKENDS if b is not InputKind.MOCK)),
    description="Where button presses come from; auto: GPIO on a Pi, else the keyboard.",
)
DISPLAY_BACKEND = Choice(
    name="display_backend",
    group=CABINET,
    default=AUTO,
    choices=(AUTO, "texture", "software"),
    description=(
        "What draws the screen: texture (the GPU) or software; auto: the GPU on the "
        "Pi's console (docs/display.md)."
    ),
)
KEYBOARD_MAP = KeyMapOverrides(
    name="keyboard_map",
    group=CABINET,
    description='Keys replacing the keyboard\'s defaults, by control (e.g. p1.slot1 = "q").',
)

# -- operator -----------------------------------------------------------------------------

OPERATOR_PIN = Pin(
    name="operator_pin",
    group=OPERATOR,
    default="",
    description="The PIN that opens the service menu, keyed on player 1's buttons; empty: none.",
)
RECORDS_KEPT = WholeNumber(
    name="records_kept",
    group=OPERATOR,
    default=200,
    low=10,
    high=2_000,
    step_by=10,
    unit="games",
    description="How many of the last games are kept for replay (older ones are deleted).",
)

MISSING_SWITCH_GAMES = WholeNumber(
    name="missing_switch_games",
    group=OPERATOR,
    default=10,
    low=3,
    high=100,
    unit="games",
    description="A button nobody pressed in this many games, while the buttons beside it "
    "were, is reported as a missing switch.",
)

REMOTE_SETTINGS = Switch(
    name="remote_settings",
    group=OPERATOR,
    default=False,
    description="Take the pricing settings and the operator PIN from the fleet's settings "
    "documents; off: a document that holds any is refused (set only at the cabinet).",
)
UNSIGNED_UPDATES = Switch(
    name="unsigned_updates",
    group=OPERATOR,
    default=False,
    description="Install an update that is not a signed release (a stick of bare wheels, a "
    "checkout); off: only releases signed by the route's key (set only at the cabinet).",
)

HALL_OF_FAME = Switch(
    name="hall_of_fame",
    group=OPERATOR,
    default=True,
    description="Players who set a record enter their initials; the hall of fame shows in attract.",
)
HALL_OF_FAME_SIZE = WholeNumber(
    name="hall_of_fame_size",
    group=OPERATOR,
    default=5,
    low=1,
    high=10,
    unit="entries",
    description="How many entries each hall-of-fame category keeps.",
)

SETTINGS: tuple[Setting[Any], ...] = (
    SPIT_DELAY_MS,
    RACE_WINDOW_MS,
    BEATEN_WINDOW_MS,
    TIE_RULE,
    ACE_WRAPS,
    BEST_OF,
    BUTTON_HINTS,
    CPU_OPPONENT,
    CPU_LEVEL,
    JOIN_CPU_WAIT_S,
    IDLE_TIMEOUT_S,
    ATTRACT_SOUND,
    LANGUAGE,
    ORIENTATION,
    RESOLUTION,
    VOLUME,
    LIGHT_BRIGHTNESS,
    LED_PORT,
    LED_TYPE,
    INPUT_BACKEND,
    DISPLAY_BACKEND,
    KEYBOARD_MAP,
    OPERATOR_PIN,
    RECORDS_KEPT,
    MISSING_SWITCH_GAMES,
    REMOTE_SETTINGS,
    UNSIGNED_UPDATES,
    HALL_OF_FAME,
    HALL_OF_FAME_SIZE,
    FREE_PLAY,
    UNITS_PER_CREDIT,
    CREDITS_PER_GAME,
    PRICE_PER,
    CPU_GAME_COSTS,
    BONUS_UNITS,
    BONUS_CREDITS,
    MAX_CREDITS,
    COIN1_UNITS,
    COIN2_UNITS,
    CURRENCY,
    COIN1_CENTS,
    COIN2_CENTS,
    COIN_PULSE_MIN_MS,
    COIN_PULSE_MAX_MS,
    METER_ON_MS,
    METER_OFF_MS,
)
"""Every setting, in menu order within each group."""

BY_NAME: Mapping[str, Setting[Any]] = {s.name: s for s in SETTINGS}
"""The settings by name."""


def in_group(group: SettingGroup) -> tuple[Setting[Any], ...]:
    """The settings of ``group``, in menu order."""
    return tuple(s for s in SETTINGS if s.group is group)


def reference_table() -> str:
    """The Markdown reference table of every setting (``docs/storage.md`` holds a copy)."""
    lines = [
        "| group | setting | default | allowed | what it does |",
        "|---|---|---|---|---|",
    ]
    for s in SETTINGS:
        allowed = s.allowed().replace("|", "\\|")
        lines.append(
            f"| {s.group.value} | `{s.name}` | {s.text(s.default)} | {allowed} | {s.description} |"
        )
    return "\n".join(lines) + "\n"
