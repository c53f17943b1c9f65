"""The operator's service menu: settings, tests, bookkeeping, last games, factory reset.

TEST opens it from anywhere (:meth:`cabinet.app.CabinetApp.open_service`); the menu is a
stack of pages (:mod:`.pages`, :mod:`.tests_pages`, …) driven by :class:`.keys.MenuKey`
presses, each page describing what is on screen as a :class:`.screen.MenuScreen` that
:class:`.draw.MenuRenderer` paints. See ``docs/service-menu.md``.
"""
