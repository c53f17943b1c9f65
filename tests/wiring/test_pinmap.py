"""The pin map model, the default map and every validation error."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.edges import Button
from wiring.default import COIN_GPIO, DEFAULT_PIN_MAP
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
    OPERATOR_CONTROLS,
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
EVERY_CONTROL = [*REQUIRED, Control(Function.DOOR)]


# -- the model ----------------------------------------------------------------------------


def test_player_button_values_match_the_games_buttons() -> None:
    assert [f.value for f in PLAYER_BUTTONS] == [b.value for b in Button]


def test_a_control_knows_whose_it_is() -> None:
    assert P1_SLOT1.label == "player 1 slot1"
    assert Control(Function.PILE2, 1).label == "player 2 pile2"
    assert Control(Function.TEST).label == "TEST"
    assert Control(Function.DOOR).label == "door switch"
    assert repr(P2_SLOT1) == "Control(Function.SLOT1, 1)"
    assert repr(Control(Function.SERVICE)) == "Control(Function.SERVICE)"


@pytest.mark.parametrize("player", [None, 2, -1])
def test_a_player_button_needs_player_0_or_1(player: int | None) -> None:
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        Control(Function.SLOT1, player)


def test_an_operator_control_has_no_player() -> None:
    with pytest.raises(ValueError, match="operator control"):
        Control(Function.TEST, 0)


# -- the default map ----------------------------------------------------------------------


def test_default_map_wires_every_button_and_the_door() -> None:
    assert set(DEFAULT_PIN_MAP.pins()) == set(EVERY_CONTROL)
    assert len(DEFAULT_PIN_MAP) == 15


def test_default_map_avoids_reserved_pins_and_leaves_the_coin_gpio_free() -> None:
    used = {a.bcm for a in DEFAULT_PIN_MAP}
    assert not used & set(RESERVED)
    assert DEFAULT_PIN_MAP.allow_reserved == frozenset()
    assert COIN_GPIO not in used
    assert DEFAULT_PIN_MAP.free_gpios() == (4, 21)


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
    assert [a.control.function for a in shuffled][-3:] == list(OPERATOR_CONTROLS)


def test_bcm_of_an_unwired_door_is_none(default_pins: dict[Control, int]) -> None:
    del default_pins[Control(Function.DOOR)]
    pin_map = PinMap.from_pins(default_pins)
    assert pin_map.bcm(Control(Function.DOOR)) is None
    assert pin_map.bcm(Control(Function.TEST)) == 19


# -- validation errors --------------------------------------------------------------------


def test_a_pin_used_twice_names_both_functions(default_pins: dict[Control, int]) -> None:
    default_pins[P2_SLOT1] = 17  # player 1 slot1's GPIO
    with pytest.raises(PinUsedTwiceError) as caught:
        PinMap.from_pins(default_pins)
    error = caught.value
    assert (error.bcm, error.first, error.second) == (17, P1_SLOT1, P2_SLOT1)
    assert str(error) == (
        "GPIO17 is used twice: for player 1 slot1 and for player 2 slot1; "
        "each button needs a GPIO of its own (free: GPIO4, GPIO18, GPIO21)"
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


@given(st.permutations(FREE_GPIOS), st.booleans())
def test_any_map_of_distinct_free_gpios_is_valid(order: list[int], with_door: bool) -> None:
    controls = EVERY_CONTROL if with_door else list(REQUIRED)
    pins = dict(zip(controls, order, strict=False))
    pin_map = PinMap.from_pins(pins)
    assert pin_map.pins() == pins
    assert set(pin_map.free_gpios()) == set(FREE_GPIOS) - set(pins.values())


@given(st.permutations(FREE_GPIOS), st.data())
def test_any_collision_is_found_and_names_both(order: list[int], data: st.DataObject) -> None:
    pins = dict(zip(EVERY_CONTROL, order, strict=False))
    first, second = data.draw(
        st.lists(st.sampled_from(EVERY_CONTROL), min_size=2, max_size=2, unique=True)
    )
    pins[second] = pins[first]
    with pytest.raises(PinUsedTwiceError) as caught:
        PinMap.from_pins(pins)
    assert {caught.value.first, caught.value.second} == {first, second}
    assert caught.value.bcm == pins[first]
    assert first.label in str(caught.value)
    assert second.label in str(caught.value)
