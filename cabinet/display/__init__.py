"""The display process: what the players see and hear, and what the operator runs.

It holds the cabinet's frame loop (:mod:`cabinet.display.app`), the flow from attract to
initials (:mod:`cabinet.display.flow`), what each frame shows and sounds
(:mod:`cabinet.display.presenter`, :mod:`cabinet.display.fame_presenter`), the service
menu's host (:mod:`cabinet.display.service_host`), the books it keeps
(:mod:`cabinet.display.games`) and how a cabinet is put together from its settings
(:mod:`cabinet.display.assembly`, :mod:`cabinet.display.app_settings`). It draws through
:mod:`cabinet.drawing` and talks to the table process (:mod:`cabinet.table`) over one
socket pair; the table imports nothing from here (``tests/test_layers.py``).

The cabinet's settings as the display process takes them:

>>> from cabinet.display.app_settings import AppSettings
>>> from cabinet.storage.settings import Settings
>>> settings = AppSettings.from_stored(Settings())
>>> settings.language, settings.orientation.value
('en', 'upright')
"""

__all__ = [
    "app",
    "app_settings",
    "assembly",
    "books",
    "fame_book",
    "fame_presenter",
    "fleet_watch",
    "flow",
    "flow_feed",
    "frame_loop",
    "game_over",
    "games",
    "lights_output",
    "parts",
    "presenter",
    "screen_output",
    "service_host",
    "sounds",
    "table_supervision",
]
