"""The operator's service menu: settings, tests, bookkeeping, last games, factory reset.

TEST opens it from anywhere (:meth:`cabinet.display.app.CabinetApp.open_service`; its host in the
display process is :class:`cabinet.display.service_host.ServiceHost`); the menu is a stack of pages
driven by :class:`.keys.MenuKey` presses, each page describing what is on screen as a
:class:`.screen.MenuScreen` that :class:`.draw.MenuRenderer` paints. See
``docs/service-menu.md``.

Imports go one way, with no circle (``tests/test_layers.py`` checks): :mod:`.kit` (the
page kinds, imports no page) ← the pages (:mod:`.setting_pages`, :mod:`.input_page`, …)
← :mod:`.main_page` (the pages that list pages) ← :mod:`.menu`.

>>> from cabinet.service.keys import MenuKey
>>> [key.value for key in MenuKey][:4]
['up', 'down', 'left', 'right']
"""

__all__ = [
    "bookkeeping",
    "context",
    "draw",
    "effects",
    "fairness_page",
    "fairness_rows",
    "fairness_run",
    "fame_page",
    "fleet_page",
    "format",
    "input_page",
    "keys",
    "kit",
    "last_games",
    "main_page",
    "menu",
    "money_pages",
    "monitor_page",
    "output_page",
    "pin",
    "pin_page",
    "screen",
    "setting_pages",
    "sound_page",
]
