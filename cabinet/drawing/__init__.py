"""Drawing the screen: where everything goes (:mod:`.geometry`, :mod:`.arrangement`; pure
arithmetic), what each frame shows as a display list (:mod:`.views`, :mod:`.painter`,
:mod:`.renderer`), and the two backends that draw it (:mod:`.software`; :mod:`.texture`
through the GPU adapter :mod:`.gpu`; chosen by :mod:`.opening`). See docs/display.md.

>>> from cabinet.drawing.geometry import Orientation, table_geometry
>>> screen = table_geometry(1920, 1080, Orientation.UPRIGHT)
>>> (screen.card_w, screen.card_h), screen.pile_w > screen.card_w
((164, 230), True)
"""

__all__ = [
    "animation",
    "arrangement",
    "backend",
    "box",
    "card_size",
    "cards",
    "fame_screens",
    "fame_views",
    "geometry",
    "gpu",
    "lights_strip",
    "opening",
    "painter",
    "renderer",
    "replayer",
    "screens",
    "software",
    "table_screen",
    "text",
    "texture",
    "views",
]
