"""The SVG elements the wiring diagram is drawn with: text, rectangles, circles and lines,
each added to its parent with its attributes always in the same order and its coordinates
written as integers, so the same drawing is the same bytes; and the ink that reads on a
fill. The standard library only.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

#: The default ink of text, and the dark one :func:`ink` picks.
DARK_INK = "#111111"


def text(
    parent: ET.Element,
    x: int,
    y: int,
    content: str,
    size: int = 12,
    *,
    anchor: str = "start",
    bold: bool = False,
    fill: str = DARK_INK,
) -> ET.Element:
    """``content`` written at (x, y), ``size`` px, anchored at its ``anchor`` (``start``,
    ``middle`` or ``end``)."""
    attrs = {"x": str(x), "y": str(y), "font-size": str(size), "fill": fill}
    if anchor != "start":
        attrs["text-anchor"] = anchor
    if bold:
        attrs["font-weight"] = "bold"
    element = ET.SubElement(parent, "text", attrs)
    element.text = content
    return element


def rect(
    parent: ET.Element,
    x: int,
    y: int,
    w: int,
    h: int,
    *,
    fill: str,
    stroke: str = "#555555",
    rx: int = 0,
) -> ET.Element:
    """A ``w`` × ``h`` rectangle from (x, y), its corners rounded by ``rx``."""
    attrs = {
        "x": str(x),
        "y": str(y),
        "width": str(w),
        "height": str(h),
        "fill": fill,
        "stroke": stroke,
    }
    if rx:
        attrs["rx"] = str(rx)
    return ET.SubElement(parent, "rect", attrs)


def circle(
    parent: ET.Element, x: int, y: int, r: int, fill: str, *, dashed: bool = False
) -> ET.Element:
    """A circle of radius ``r`` round (x, y), ringed thinly (``dashed``: in dashes)."""
    attrs = {
        "cx": str(x),
        "cy": str(y),
        "r": str(r),
        "fill": fill,
        "stroke": "#333333",
        "stroke-width": "1.5",
    }
    if dashed:
        attrs["stroke-dasharray"] = "4 3"
    return ET.SubElement(parent, "circle", attrs)


def line(
    parent: ET.Element, x1: int, y1: int, x2: int, y2: int, *, stroke: str, width: int
) -> ET.Element:
    """A straight line from (x1, y1) to (x2, y2), ``width`` px wide."""
    attrs = {
        "x1": str(x1),
        "y1": str(y1),
        "x2": str(x2),
        "y2": str(y2),
        "stroke": stroke,
        "stroke-width": str(width),
    }
    return ET.SubElement(parent, "line", attrs)


def ink(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb``)."""
    r, g, b = (int(fill[i : i + 2], 16) for i in (1, 3, 5))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return DARK_INK if luminance > 140 else "#ffffff"
