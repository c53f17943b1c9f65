"""Everything that touches the world: input, display, lights, sound, storage, menus and the CLI.

Two processes: the table (:mod:`cabinet.table`: buttons, referee, lights, in real time)
and the display (:mod:`cabinet.display`: the frame loop, the flow, the service menu, the
books), with what both use in :mod:`cabinet.shared`. Around them: :mod:`cabinet.inputs`,
:mod:`cabinet.drawing`, :mod:`cabinet.sound`, :mod:`cabinet.i18n`, :mod:`cabinet.storage`,
:mod:`cabinet.money`, :mod:`cabinet.halloffame`, :mod:`cabinet.service`, the fairness
test (:mod:`cabinet.fairness`), the fleet link
(:mod:`cabinet.link`), the updates it verifies (:mod:`cabinet.updates`) and the command
line, :mod:`cabinet.commands` (``spit-cabinet``, or ``python -m cabinet``).

>>> from cabinet.i18n import translate
>>> translate("play.spit", "nl")
'Spuug!'
"""

import os as _os

# pygame prints a banner on import unless told not to; the cabinet logs instead.
_os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

__all__ = [
    "commands",
    "display",
    "drawing",
    "fairness",
    "halloffame",
    "i18n",
    "inputs",
    "link",
    "money",
    "service",
    "shared",
    "sound",
    "storage",
    "table",
    "updates",
]
