"""The hall of fame: records that suit Spit, kept per category with initials and a date.

:mod:`.board` holds the categories, the entries and the ranking rules (pure, no I/O);
:mod:`.names` the initials a player may enter and the blocklist.

>>> from cabinet.halloffame.board import Category
>>> Category.CLOSEST_RACE_WON.lower_is_better, Category.LONGEST_STREAK.lower_is_better
(True, False)

:mod:`.places` holds a game's places as typed values, :mod:`.words` each category's
title and figure in the players' language, :mod:`.entry` the initials entry itself.
"""

__all__ = [
    "board",
    "entry",
    "names",
    "places",
    "words",
]
