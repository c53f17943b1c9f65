"""The pin map model, the default map and every validation error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.edges import Button
from wiring.default import DEFAULT_PIN_MAP, DEFAULT_PINS
from wiring.errors import (
    DuplicateControlError,
    MissingButtonError,
    NotAHeaderGpioError,
    NotAReservedPinError,
    PinUsedTwiceError,
    ReservedPinError,
    WiringError,
)
from wiring.header import RESERVED
from wiring.pinmap import (
    COIN_INPUTS,
    OPERATOR_CONTROLS,
    OPTIONAL,
    OUTPUTS,
    PLAYER_BUTTONS,
    REQUIRED,
    Assignment,
    Control,
    Function,
    PinMap,
)

P1_SLOT1 = Control(Function.SLOT1, 0)
P2_SLOT1 = Control(Function.SLOT1, 1)
FREE_GPIOS = [b for b in range(28) if b not in RESERVED]
OPTIONAL_CONTROLS = [Control(f) for f in OPERATOR_CONTROLS if f in OPTIONAL]
EVERY_CONTROL = [*REQUIRED, *OPTIONAL_CONTROLS]
COIN1, COIN2 = Control(Function.COIN1), Control(Function.COIN2)
METER, LOCKOUT = Control(Function.METER), Control(Function.LOCKOUT)


# -- the model ----------------------------------------------------------------------------


def test_player_button_values_match_the_games_buttons() -> None:
    assert [f.value for f in PLAYER_BUTTONS] == [b.value for b in Button]


def test_a_control_knows_whose_it_is() -> None:
    assert P1_SLOT1.label == "player 1 slot1"
    assert Control(Function.PILE2, 1).label == "player 2 pile2"
    assert Control(Function.TEST).label == "TEST"
    assert Control(Function.DOOR).label == "door switch"
    assert [c.label for c in (COIN1, COIN2, METER, LOCKOUT)] == [
        "coin 1",
        "coin 2",
        "coin meter",
        "coin lockout",
    ]
    assert repr(METER) == "Control(Function.METER)"
    assert repr(P2_SLOT1) == "Control(Function.SLOT1, 1)"
    assert repr(Control(Function.SERVICE)) == "Control(Function.SERVICE)"


@pytest.mark.parametrize("player", [None, 2, -1])
def test_a_player_button_needs_player_0_or_1(player: int | None) -> None:
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        Control(Function.SLOT1, player)


@pytest.mark.parametrize("function", [Function.TEST, *COIN_INPUTS, *sorted(OUTPUTS, key=str)])
def test_an_operator_control_has_no_player(function: Function) -> None:
    with pytest.raises(ValueError, match="operator control"):
        Control(function, 0)


def test_the_coin_lines_values_and_kinds() -> None:
    assert [f.value for f in (Function.COIN1, Function.COIN2)] == ["coin1", "coin2"]
    assert [f.value for f in (Function.METER, Function.LOCKOUT)] == ["meter", "lockout"]
    assert COIN_INPUTS == (Function.COIN1, Function.COIN2)
    assert frozenset({Function.METER, Function.LOCKOUT}) == OUTPUTS
    assert [f for f in Function if f.is_output] == [Function.METER, Function.LOCKOUT]
    assert not any(f.is_player_button for f in (*COIN_INPUTS, *OUTPUTS))


def test_the_operators_lines_come_in_table_order_and_the_coin_lines_are_optional() -> None:
    assert OPERATOR_CONTROLS == (
        Function.TEST,
        Function.SERVICE,
        Function.DOOR,
        Function.COIN1,
        Function.COIN2,
        Function.METER,
        Function.LOCKOUT,
    )
    assert (
        frozenset({Function.DOOR, Function.COIN1, Function.COIN2, Function.METER, Function.LOCKOUT})
        == OPTIONAL
    )
    assert [c.order for c in (Control(Function.TEST), COIN1, COIN2, METER, LOCKOUT)] == [
        (2, 0),
        (2, 3),
        (2, 4),
        (2, 5),
        (2, 6),
    ]
    # Still every player's button, then TEST and SERVICE: nothing optional is required.
    assert len(REQUIRED) == 14
    assert REQUIRED[-2:] == (Control(Function.TEST), Control(Function.SERVICE))
    assert not any(c.function in OPTIONAL for c in REQUIRED)


# -- the default map ----------------------------------------------------------------------


def test_default_map_wires_every_button_the_door_coin_1_and_the_meter() -> None:
    assert set(DEFAULT_PIN_MAP.pins()) == {*REQUIRED, Control(Function.DOOR), COIN1, METER}
    assert len(DEFAULT_PIN_MAP) == 17
    assert DEFAULT_PIN_MAP.bcm(COIN1) == 4
    assert DEFAULT_PIN_MAP.bcm(METER) == 21
    assert [a.physical for a in DEFAULT_PIN_MAP if a.control in (COIN1, METER)] == [7, 40]
    assert DEFAULT_PIN_MAP.bcm(COIN2) is None
    assert DEFAULT_PIN_MAP.bcm(LOCKOUT) is None


def test_default_map_avoids_reserved_pins_and_uses_every_other_gpio() -> None:
    used = {a.bcm for a in DEFAULT_PIN_MAP}
    assert not used & set(RESERVED)
    assert DEFAULT_PIN_MAP.allow_reserved == frozenset()
    assert used == set(FREE_GPIOS)
    assert DEFAULT_PIN_MAP.free_gpios() == ()


def test_the_documented_coin_2_and_lockout_example_validates() -> None:
    """wiring.default's docstring (and docs/wiring.md) put coin 2 and the lockout on SPI0's
    CE1 and CE0 with allow_reserved: that map is valid, and without allowing it is not."""
    pins = DEFAULT_PINS | {COIN2: 7, LOCKOUT: 8}
    pin_map = PinMap.from_pins(pins, allow_reserved=[7, 8])
    assert (pin_map.bcm(COIN2), pin_map.bcm(LOCKOUT)) == (7, 8)
    assert [a.physical for a in pin_map if a.control in (COIN2, LOCKOUT)] == [26, 24]
    assert pin_map.free_gpios() == ()
    with pytest.raises(ReservedPinError, match="GPIO7 for coin 2 is reserved for SPI0 CE1"):
        PinMap.from_pins(pins)


def test_default_map_puts_each_player_on_one_side_of_the_header() -> None:
    for player, parity in ((0, 1), (1, 0)):
        physicals = [a.physical for a in DEFAULT_PIN_MAP if a.control.player == player]
        assert len(physicals) == 6
        assert all(p % 2 == parity for p in physicals), physicals


def test_player_pins_are_keyed_by_button_value() -> None:
    assert DEFAULT_PIN_MAP.player_pins(0) == {
        "slot1": 17,
        "slot2": 27,
        "slot3": 22,
        "slot4": 5,
        "pile1": 6,
        "pile2": 13,
    }
    assert set(DEFAULT_PIN_MAP.player_pins(1)) == {b.value for b in Button}
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        DEFAULT_PIN_MAP.player_pins(2)


def test_assignments_come_in_table_order_whatever_order_they_are_given() -> None:
    shuffled = PinMap(tuple(reversed(DEFAULT_PIN_MAP.assignments)))
    assert shuffled.assignments == DEFAULT_PIN_MAP.assignments
    assert [a.control for a in shuffled][:2] == [P1_SLOT1, Control(Function.SLOT2, 0)]
    assert [a.control.function for a in shuffled][-5:] == [
        Function.TEST,
        Function.SERVICE,
        Function.DOOR,
        Function.COIN1,
        Function.METER,
    ]


def test_bcm_of_an_unwired_door_is_none(default_pins: dict[Control, int]) -> None:
    del default_pins[Control(Function.DOOR)]
    pin_map = PinMap.from_pins(default_pins)
    assert pin_map.bcm(Control(Function.DOOR)) is None
    assert pin_map.bcm(Control(Function.TEST)) == 19


def test_a_map_with_only_the_required_buttons_is_valid(default_pins: dict[Control, int]) -> None:
    for control in OPTIONAL_CONTROLS:
        default_pins.pop(control, None)
    pin_map = PinMap.from_pins(default_pins)
    assert len(pin_map) == len(REQUIRED)
    assert all(pin_map.bcm(c) is None for c in OPTIONAL_CONTROLS)
    assert pin_map.free_gpios() == (4, 20, 21)


# -- validation errors --------------------------------------------------------------------


def test_a_pin_used_twice_names_both_functions(default_pins: dict[Control, int]) -> None:
    default_pins[P2_SLOT1] = 17  # player 1 slot1's GPIO
    with pytest.raises(PinUsedTwiceError) as caught:
        PinMap.from_pins(default_pins)
    error = caught.value
    assert (error.bcm, error.first, error.second) == (17, P1_SLOT1, P2_SLOT1)
    assert str(error) == (
        "GPIO17 is used twice: for player 1 slot1 and for player 2 slot1; "
        "each needs a GPIO of its own (free: GPIO18)"
    )


@pytest.mark.parametrize("bad", [28, 41, -1, 100])
def test_a_number_off_the_header_is_refused(default_pins: dict[Control, int], bad: int) -> None:
    default_pins[P1_SLOT1] = bad
    with pytest.raises(NotAHeaderGpioError) as caught:
        PinMap.from_pins(default_pins)
    assert caught.value.value == bad
    assert f"{bad} for player 1 slot1 is not a GPIO of the 40-pin header" in str(caught.value)
    assert "0 to 27" in str(caught.value)


def test_a_physical_pin_number_gets_a_hint(default_pins: dict[Control, int]) -> None:
    default_pins[P1_SLOT1] = 40
    with pytest.raises(NotAHeaderGpioError, match="if you meant physical pin 40, that is GPIO21"):
        PinMap.from_pins(default_pins)
    default_pins[P1_SLOT1] = 39
    with pytest.raises(NotAHeaderGpioError, match="physical pin 39 is not a GPIO"):
        PinMap.from_pins(default_pins)


@pytest.mark.parametrize("bad", [True, 17.0, "17", None])
def test_a_pin_that_is_not_an_int_is_refused(default_pins: dict[Control, int], bad: object) -> None:
    pin_map = PinMap.from_pins(default_pins)
    broken = (Assignment(P1_SLOT1, bad), *pin_map.assignments[1:])  # type: ignore[arg-type]
    with pytest.raises(NotAHeaderGpioError, match="is not a GPIO of the 40-pin header"):
        PinMap(broken)


@pytest.mark.parametrize("bcm", sorted(RESERVED))
def test_a_reserved_pin_needs_allowing(default_pins: dict[Control, int], bcm: int) -> None:
    default_pins[P1_SLOT1] = bcm
    with pytest.raises(ReservedPinError) as caught:
        PinMap.from_pins(default_pins)
    assert caught.value.bcm == bcm
    assert str(caught.value).startswith(f"GPIO{bcm} for player 1 slot1 is reserved for ")
    assert RESERVED[bcm].bus.value in str(caught.value)
    assert f"list {bcm} in allow_reserved" in str(caught.value)
    allowed = PinMap.from_pins(default_pins, allow_reserved=[bcm])
    assert allowed.bcm(P1_SLOT1) == bcm


def test_allow_reserved_lists_only_reserved_pins(default_pins: dict[Control, int]) -> None:
    with pytest.raises(NotAReservedPinError, match="allow_reserved lists 17, which is not"):
        PinMap.from_pins(default_pins, allow_reserved=[17])
    with pytest.raises(NotAHeaderGpioError):
        PinMap.from_pins(default_pins, allow_reserved=[30])


@pytest.mark.parametrize("control", REQUIRED, ids=lambda c: c.label)
def test_a_missing_button_is_named(default_pins: dict[Control, int], control: Control) -> None:
    del default_pins[control]
    with pytest.raises(MissingButtonError) as caught:
        PinMap.from_pins(default_pins)
    assert caught.value.missing == (control,)
    assert str(caught.value) == f"no GPIO given for {control.label}; every button needs one"


def test_every_missing_button_is_named_at_once() -> None:
    with pytest.raises(MissingButtonError) as caught:
        PinMap.from_pins({P1_SLOT1: 17})
    assert len(caught.value.missing) == len(REQUIRED) - 1
    assert "player 2 pile2" in str(caught.value)
    assert "SERVICE" in str(caught.value)


def test_a_control_given_twice_is_refused() -> None:
    pin_map = DEFAULT_PIN_MAP
    twice = (*pin_map.assignments, Assignment(P1_SLOT1, 4))
    with pytest.raises(DuplicateControlError, match=r"player 1 slot1 is given two GPIOs \(GPIO17"):
        PinMap(twice)


def test_every_error_is_a_value_error() -> None:
    for cls in (
        PinUsedTwiceError,
        NotAHeaderGpioError,
        ReservedPinError,
        NotAReservedPinError,
        MissingButtonError,
        DuplicateControlError,
    ):
        assert issubclass(cls, WiringError)
        assert issubclass(cls, ValueError)


# -- properties over many maps ------------------------------------------------------------


@given(
    st.permutations(FREE_GPIOS),
    st.lists(st.sampled_from(OPTIONAL_CONTROLS), unique=True, max_size=3),
)
def test_any_map_of_distinct_free_gpios_is_valid(order: list[int], optional: list[Control]) -> None:
    # 17 free GPIOs: the 14 required buttons and up to 3 optional lines.
    pins = dict(zip([*REQUIRED, *optional], order, strict=False))
    pin_map = PinMap.from_pins(pins)
    assert pin_map.pins() == pins
    assert set(pin_map.free_gpios()) == set(FREE_GPIOS) - set(pins.values())


@given(st.permutations(range(28)), st.data())
def test_any_collision_is_found_and_names_both(order: list[int], data: st.DataObject) -> None:
    # Every line, so reserved GPIOs too: 19 lines on 28 GPIOs.
    pins = dict(zip(EVERY_CONTROL, order, strict=False))
    first, second = data.draw(
        st.lists(st.sampled_from(EVERY_CONTROL), min_size=2, max_size=2, unique=True)
    )
    pins[second] = pins[first]
    with pytest.raises(PinUsedTwiceError) as caught:
        PinMap.from_pins(pins, allow_reserved=RESERVED)
    assert {caught.value.first, caught.value.second} == {first, second}
    assert caught.value.bcm == pins[first]
    assert first.label in str(caught.value)
    assert second.label in str(caught.value)
