"""How the pages write money, times and durations."""

from __future__ import annotations

import datetime

from fleet.wire_down import CHAMPION_CATEGORIES

CATEGORY_TITLES: dict[str, str] = {
    **{f"fastest_win_cpu_{n}": f"Fastest win against CPU level {n}" for n in range(1, 6)},
    "fastest_two_player_win": "Fastest two-player win",
    "longest_streak": "Longest winning streak",
    "closest_race_won": "Closest race won",
    "most_plays": "Most plays in a game",
}
"""The hall of fame's categories as the pages name them (the cabinet's own words are
translated on the cabinet; the operator's pages are in English)."""


def money(cents: int | None) -> str:
    """Cents as the pages show them.

    >>> money(123456), money(-5), money(0), money(None)
    ('1,234.56', '-0.05', '0.00', '')
    """
    if cents is None:
        return ""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d}"


def ago(when: datetime.datetime | None, now: datetime.datetime) -> str:
    """How long ago ``when`` was, briefly.

    >>> now = datetime.datetime(2025, 1, 2, 12, 0, tzinfo=datetime.UTC)
    >>> [ago(now - datetime.timedelta(seconds=s), now) for s in (5, 300, 7200, 200000)]
    ['just now', '5 min ago', '2 h ago', '2 d ago']
    >>> ago(None, now)
    'never'
    """
    if when is None:
        return "never"
    seconds = max(0, int((now - when).total_seconds()))
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{seconds // 60} min ago"
    if seconds < 86400:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} d ago"


def stamp(when: datetime.datetime | None) -> str:
    """A time as the pages print it (UTC, to the minute).

    >>> stamp(datetime.datetime(2025, 1, 2, 12, 30, 59, tzinfo=datetime.UTC))
    '2025-01-02 12:30'
    """
    if when is None:
        return ""
    return when.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M")


def margin(ns: int | None) -> str:
    """A race's margin, in milliseconds.

    >>> margin(12_345_678), margin(None)
    ('12.3 ms', '')
    """
    return "" if ns is None else f"{ns / 1e6:.1f} ms"


def category(name: str) -> str:
    """A hall-of-fame category's title (an unknown one as it came).

    >>> category("closest_race_won"), category("fastest_win_cpu_3"), category("new_one")
    ('Closest race won', 'Fastest win against CPU level 3', 'new_one')
    """
    return CATEGORY_TITLES.get(name, name)


def figure(name: str, value: int) -> str:
    """A hall-of-fame figure in its category's unit, as the cabinet words it: a game's
    time in minutes and seconds, a race's margin in milliseconds, a count as it is.

    >>> figure("fastest_two_player_win", 83_456), figure("closest_race_won", 1_234_567)
    ('1:23.46', '1.235 ms')
    >>> figure("longest_streak", 7), figure("most_plays", 41)
    ('7', '41')
    """
    if name == "closest_race_won":
        return f"{value / 1e6:.3f} ms"
    if not CHAMPION_CATEGORIES.get(name, False):
        return str(value)
    minutes, ms = divmod(value, 60_000)
    return f"{minutes}:{ms / 1000:05.2f}"
