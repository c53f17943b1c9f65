"""The pricing settings (the service menu's Pricing page; docs/pricing.md): what a game
costs, what the coin mechanisms are worth, the lockout and the meter. Part of the one
declarative table, :mod:`cabinet.storage.setting_table`, which lists them in menu order
and re-exports them.
"""

from __future__ import annotations

from cabinet.storage.setting_types import Choice, SettingGroup, Switch, WholeNumber

PRICING = SettingGroup.PRICING

FREE_PLAY = Switch(
    name="free_play",
    group=PRICING,
    default=True,
    description="Every game is free (the coin mechanisms are locked out); off: games cost credits.",
)
UNITS_PER_CREDIT = WholeNumber(
    name="units_per_credit",
    group=PRICING,
    default=1,
    low=1,
    high=20,
    unit="units",
    description="Coin units that make one credit (a part credit shows as 1/2, 1/3…).",
)
CREDITS_PER_GAME = WholeNumber(
    name="credits_per_game",
    group=PRICING,
    default=1,
    low=1,
    high=10,
    unit="credits",
    description="What a game costs, per player or per match (price_per).",
)
PRICE_PER = Choice(
    name="price_per",
    group=PRICING,
    default="player",
    choices=("player", "match"),
    description="player: each player pays credits_per_game; match: one price for the "
    "match, one player or two.",
)
CPU_GAME_COSTS = Switch(
    name="cpu_game_costs",
    group=PRICING,
    default=True,
    description="A game against the CPU costs the same; off: it is free.",
)
BONUS_UNITS = WholeNumber(
    name="bonus_units",
    group=PRICING,
    default=0,
    low=0,
    high=50,
    unit="units",
    description="Every this many coin units inserted before a game earn bonus_credits "
    "more; 0: no bonus.",
)
BONUS_CREDITS = WholeNumber(
    name="bonus_credits",
    group=PRICING,
    default=1,
    low=0,
    high=20,
    unit="credits",
    description="The bonus: extra credits for every bonus_units units (4 units and 1 "
    "bonus: 4 coins buy 5 credits).",
)
MAX_CREDITS = WholeNumber(
    name="max_credits",
    group=PRICING,
    default=30,
    low=1,
    high=99,
    unit="credits",
    description="At this many credits the lockout blocks the coin mechanisms.",
)
COIN1_UNITS = WholeNumber(
    name="coin1_units",
    group=PRICING,
    default=1,
    low=1,
    high=50,
    unit="units",
    description="Coin units a coin in mechanism 1 is worth (one meter pulse each).",
)
COIN2_UNITS = WholeNumber(
    name="coin2_units",
    group=PRICING,
    default=2,
    low=1,
    high=50,
    unit="units",
    description="Coin units a coin in mechanism 2 is worth.",
)
CURRENCY = Choice(
    name="currency",
    group=PRICING,
    default="EUR",
    choices=(
        "EUR",
        "USD",
        "GBP",
        "CHF",
        "SEK",
        "NOK",
        "DKK",
        "PLN",
        "CZK",
        "HUF",
        "BRL",
        "CAD",
        "AUD",
        "JPY",
    ),
    description="The currency the earnings are counted in.",
)
COIN1_CENTS = WholeNumber(
    name="coin1_cents",
    group=PRICING,
    default=100,
    low=0,
    high=100_000,
    step_by=5,
    unit="hundredths",
    description="What a coin in mechanism 1 is worth, in hundredths of the currency (100: 1.00).",
)
COIN2_CENTS = WholeNumber(
    name="coin2_cents",
    group=PRICING,
    default=200,
    low=0,
    high=100_000,
    step_by=5,
    unit="hundredths",
    description="What a coin in mechanism 2 is worth, in hundredths of the currency.",
)
COIN_PULSE_MIN_MS = WholeNumber(
    name="coin_pulse_min_ms",
    group=PRICING,
    default=20,
    low=5,
    high=95,
    step_by=5,
    unit="ms",
    description="The shortest low pulse on a coin line that is a coin.",
)
COIN_PULSE_MAX_MS = WholeNumber(
    name="coin_pulse_max_ms",
    group=PRICING,
    default=150,
    low=100,
    high=900,
    step_by=10,
    unit="ms",
    description="The longest low pulse on a coin line that is a coin.",
)
METER_ON_MS = WholeNumber(
    name="meter_on_ms",
    group=PRICING,
    default=50,
    low=20,
    high=500,
    step_by=10,
    unit="ms",
    description="How long each coin meter pulse energises the meter.",
)
METER_OFF_MS = WholeNumber(
    name="meter_off_ms",
    group=PRICING,
    default=50,
    low=20,
    high=500,
    step_by=10,
    unit="ms",
    description="The rest between two coin meter pulses.",
)
