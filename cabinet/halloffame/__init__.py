"""The hall of fame: records that suit Spit, kept per category with initials and a date.

:mod:`.board` holds the categories, the entries and the ranking rules (pure, no I/O);
:mod:`.names` the initials a player may enter and the blocklist.
"""
