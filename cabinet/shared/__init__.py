"""What both processes use: the cabinet's phase (:mod:`cabinet.shared.phase`) and what
the indicator lights show for it (:mod:`cabinet.shared.light_show`). Nothing here imports
either process's modules.

>>> from cabinet.shared.phase import Phase
>>> [phase.value for phase in Phase]
['attract', 'join', 'ready', 'play', 'game_over', 'initials']
"""

__all__ = [
    "light_show",
    "phase",
]
