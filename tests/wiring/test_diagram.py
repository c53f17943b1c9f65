"""The SVG wiring diagram: valid XML, every button in place, and the committed copy current."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wiring.colours import wire_colour
from wiring.config import parse_config
from wiring.default import DEFAULT_PIN_MAP
from wiring.diagram import HEIGHT, OUTPUT_MARK, SVG_NS, WIDTH, render_svg
from wiring.pinmap import OPERATOR_CONTROLS, OUTPUTS, PLAYER_BUTTONS, Function, PinMap

ROOT = Path(__file__).resolve().parents[2]
NS = {"svg": SVG_NS}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def group(root: ET.Element, ident: str) -> ET.Element:
    found = root.find(f".//svg:g[@id='{ident}']", NS)
    assert found is not None, f"no element with id {ident}"
    return found


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{{{SVG_NS}}}text")]


def centre(root: ET.Element, ident: str) -> tuple[int, int]:
    circle = group(root, ident).find("svg:circle", NS)
    assert circle is not None
    return int(circle.get("cx", "")), int(circle.get("cy", ""))


@pytest.fixture(scope="module")
def default_svg() -> ET.Element:
    return parse(render_svg(DEFAULT_PIN_MAP))


def test_the_diagram_is_an_svg_document(default_svg: ET.Element) -> None:
    assert default_svg.tag == f"{{{SVG_NS}}}svg"
    assert default_svg.get("viewBox") == "0 0 1100 940"
    title = default_svg.find("svg:title", NS)
    assert title is not None and title.text == "Spit cabinet wiring: default pin map"


@pytest.mark.parametrize("view", ["upright", "cocktail"])
@pytest.mark.parametrize("player", [0, 1])
def test_every_player_button_is_on_both_panels(
    default_svg: ET.Element, view: str, player: int
) -> None:
    for function in PLAYER_BUTTONS:
        assignment = next(
            a
            for a in DEFAULT_PIN_MAP
            if a.control.function is function and a.control.player == player
        )
        button = group(default_svg, f"{view}-p{player + 1}-{function.value}")
        assert texts(button) == [
            function.value,
            f"GPIO{assignment.bcm}",
            f"pin {assignment.physical}",
        ]
        circle = button.find("svg:circle", NS)
        assert circle is not None and circle.get("fill") == wire_colour(function).hex


def test_the_operator_controls_are_inside_the_door(default_svg: ET.Element) -> None:
    assert texts(group(default_svg, "door-test")) == ["TEST", "GPIO19", "pin 35"]
    assert texts(group(default_svg, "door-service")) == ["SERVICE", "GPIO26", "pin 37"]
    assert texts(group(default_svg, "door-door")) == ["door switch", "GPIO20", "pin 38"]


def test_the_coin_lines_are_inside_the_door_and_outputs_say_so(default_svg: ET.Element) -> None:
    assert OUTPUT_MARK == "→ driver"
    assert texts(group(default_svg, "door-coin1")) == ["coin 1", "GPIO4", "pin 7"]
    assert texts(group(default_svg, "door-coin2")) == ["coin 2", "not fitted"]
    assert texts(group(default_svg, "door-meter")) == ["coin meter", "GPIO21", "pin 40", "→ driver"]
    assert texts(group(default_svg, "door-lockout")) == ["coin lockout", "not fitted", "→ driver"]
    for function in OPERATOR_CONTROLS:
        marked = OUTPUT_MARK in texts(group(default_svg, f"door-{function.value}"))
        assert marked == (function in OUTPUTS), function
    meter = group(default_svg, "door-meter").find("svg:circle", NS)
    assert meter is not None and meter.get("fill") == wire_colour(Function.METER).hex
    lockout = group(default_svg, "door-lockout").find("svg:circle", NS)
    assert lockout is not None and lockout.get("stroke-dasharray") == "4 3"  # not fitted


def test_the_header_marks_the_outputs_and_frees_no_pin_for_coins(default_svg: ET.Element) -> None:
    assert texts(group(default_svg, "pin-7"))[1] == "GPIO4 coin 1"
    assert texts(group(default_svg, "pin-40"))[1] == "GPIO21 coin meter → driver"
    labels = texts(group(default_svg, "header"))
    assert [label for label in labels if label.endswith(" free")] == []  # every GPIO is used
    assert not any("coin input" in label for label in labels)


def test_the_door_notes_say_how_to_wire_the_coin_lines(default_svg: ET.Element) -> None:
    notes = " ".join(texts(group(default_svg, "door")))
    for words in ("COIN signal to the GPIO", "like a button", "outputs", "transistor"):
        assert words in notes, words
    assert "never hang a coil on a GPIO" in notes


def test_coin_2_and_the_lockout_on_spi0_are_drawn_there() -> None:
    pin_map = parse_config("allow_reserved = [7, 8]\n[operator]\ncoin2 = 7\nlockout = 8\n")
    root = parse(render_svg(pin_map, "cabinet.toml"))
    assert texts(group(root, "door-coin2")) == ["coin 2", "GPIO7", "pin 26"]
    assert texts(group(root, "door-lockout")) == ["coin lockout", "GPIO8", "pin 24", "→ driver"]
    assert texts(group(root, "pin-26"))[1] == "GPIO7 coin 2"
    assert texts(group(root, "pin-24"))[1] == "GPIO8 coin lockout → driver"
    # The lockout's wire is white with a red stripe: drawn across its button, round its pin.
    colour = wire_colour(Function.LOCKOUT)
    stripe = group(root, "door-lockout").find("svg:line", NS)
    assert stripe is not None and stripe.get("stroke") == colour.stripe
    pin = group(root, "pin-24").find("svg:circle", NS)
    assert pin is not None and (pin.get("fill"), pin.get("stroke")) == (colour.hex, colour.stripe)
    assert group(root, "door-meter").find("svg:line", NS) is None  # a plain wire


def test_the_operators_lines_are_laid_out_without_overlap(default_svg: ET.Element) -> None:
    centres = [centre(default_svg, f"door-{f.value}") for f in OPERATOR_CONTROLS]
    for i, (x1, y1) in enumerate(centres):
        for x2, y2 in centres[i + 1 :]:
            assert abs(x1 - x2) >= 90 or abs(y1 - y2) >= 80, (x1, y1, x2, y2)
    for element in group(default_svg, "door").iter():
        for name in ("x", "y", "cx", "cy", "x1", "y1", "x2", "y2", "width", "height", "r"):
            value = element.get(name)
            if value is not None:
                assert value.isdigit(), (element.tag, name, value)  # integer coordinates
        if element.get("y") is not None:
            assert int(element.get("y", "")) < HEIGHT
        if element.get("x") is not None:
            assert int(element.get("x", "")) < WIDTH


def test_the_drawing_is_deterministic() -> None:
    """The same map draws the same bytes: whatever order it was given in, and in another
    interpreter with other string hashes (sets and dicts iterate differently there)."""
    text = "allow_reserved = [7, 8]\n[operator]\ncoin2 = 7\nlockout = 8\n"
    pin_map = parse_config(text)
    drawn = render_svg(pin_map)
    assert drawn == render_svg(parse_config(text))
    shuffled = PinMap(tuple(reversed(pin_map.assignments)), pin_map.allow_reserved)
    assert render_svg(shuffled) == drawn
    code = (
        "import sys\n"
        "from wiring.config import parse_config\n"
        "from wiring.diagram import render_svg\n"
        "sys.stdout.write(render_svg(parse_config(sys.argv[1])))\n"
    )
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", code, text],
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=60,
            check=True,
        )
        assert done.stdout == drawn


def test_every_used_header_pin_is_coloured_and_named(default_svg: ET.Element) -> None:
    for a in DEFAULT_PIN_MAP:
        pin = group(default_svg, f"pin-{a.physical}")
        label = texts(pin)
        assert label[0] == str(a.physical)
        assert label[1].startswith(f"GPIO{a.bcm} ")
        shape = pin.find("svg:circle", NS)
        assert shape is not None and shape.get("fill") == wire_colour(a.control.function).hex
    assert texts(group(default_svg, "pin-8"))[1] == "GPIO14 UART (keep free)"
    assert texts(group(default_svg, "pin-7"))[1] == "GPIO4 coin 1"
    assert texts(group(default_svg, "pin-25"))[1] == "GND (P1 ground)"
    assert group(default_svg, "pin-1").find("svg:rect", NS) is not None  # the square pad


def test_slots_run_left_to_right_from_each_players_own_side(default_svg: ET.Element) -> None:
    def xs(prefix: str, functions: tuple[Function, ...]) -> list[int]:
        return [centre(default_svg, f"{prefix}-{f.value}")[0] for f in functions]

    slots, piles = PLAYER_BUTTONS[:4], PLAYER_BUTTONS[4:]
    for prefix in ("upright-p1", "upright-p2", "cocktail-p1"):
        assert xs(prefix, slots) == sorted(xs(prefix, slots)), prefix
        assert xs(prefix, piles) == sorted(xs(prefix, piles)), prefix
    # Player 2 sits across the table: seen from above, their slot 1 is on the drawing's right,
    # and pile 1 stays on the drawing's left (where the pile is), so on their right.
    assert xs("cocktail-p2", slots) == sorted(xs("cocktail-p2", slots), reverse=True)
    assert xs("cocktail-p2", piles) == sorted(xs("cocktail-p2", piles))


def test_slot_buttons_are_nearer_the_player_than_pile_buttons(default_svg: ET.Element) -> None:
    def y(ident: str) -> int:
        return centre(default_svg, ident)[1]

    for prefix in ("upright-p1", "upright-p2", "cocktail-p1"):
        assert y(f"{prefix}-slot1") > y(f"{prefix}-pile1")  # the player is below
    assert y("cocktail-p2-slot1") < y("cocktail-p2-pile1")  # player 2 is above
    assert y("cocktail-p2-slot1") < y("cocktail-p1-slot1")


def test_a_map_without_a_door_switch_shows_it_not_fitted() -> None:
    pin_map = parse_config("[operator]\ndoor = false\n")
    root = parse(render_svg(pin_map, "no door"))
    assert texts(group(root, "door-door")) == ["door switch", "not fitted"]
    assert texts(group(root, "pin-38"))[1] == "GPIO20 free"


def test_an_override_is_drawn_where_it_moved_the_button() -> None:
    pin_map: PinMap = parse_config("[player2]\nslot3 = 4\n[operator]\ncoin1 = false\n")
    root = parse(render_svg(pin_map))
    assert texts(group(root, "cocktail-p2-slot3")) == ["slot3", "GPIO4", "pin 7"]
    assert texts(group(root, "pin-7"))[1] == "GPIO4 P2 slot3"
    assert texts(group(root, "door-coin1")) == ["coin 1", "not fitted"]
    assert texts(group(root, "pin-18"))[1] == "GPIO24 free"


def test_the_committed_diagram_is_what_the_code_draws_now() -> None:
    committed = (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8")
    assert committed == render_svg(DEFAULT_PIN_MAP), (
        "docs/wiring.svg is stale: regenerate it with `spit-cabinet wiring --svg docs/wiring.svg`"
    )
