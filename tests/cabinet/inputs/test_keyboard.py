"""The keyboard backend with real pygame events, posted under SDL's dummy video driver."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pygame
import pytest

from cabinet.inputs.clock import VirtualClock
from cabinet.inputs.controls import SERVICE, TEST, Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.inputs.keyboard import DEFAULT_KEYS, KeyboardInput, KeyMap, KeyMapError
from game.edges import Button

from .conftest import START_NS


@pytest.fixture
def display() -> Iterator[None]:
    pygame.init()
    pygame.display.set_mode((64, 48))
    pygame.event.clear()
    yield
    pygame.quit()


@pytest.fixture
def keyboard(display: None, clock: VirtualClock) -> Iterator[KeyboardInput]:
    backend = KeyboardInput(EdgeQueue(), clock=clock)
    backend.open()
    backend.edges.take()
    yield backend
    backend.close()


def post(kind: int, key: int) -> None:
    pygame.event.post(pygame.event.Event(kind, key=key, mod=0, unicode="", scancode=0))


def test_key_events_become_edges_stamped_at_the_pump_in_queue_order(
    keyboard: KeyboardInput, clock: VirtualClock
) -> None:
    post(pygame.KEYDOWN, pygame.K_j)  # player 2, slot 1: SDL saw it first
    post(pygame.KEYDOWN, pygame.K_w)  # player 1, pile 1
    post(pygame.KEYDOWN, pygame.K_F2)  # TEST
    clock.set(START_NS + 5_000_000)
    keyboard.pump()
    assert keyboard.edges.take() == [
        RawEdge(Control(1, Button.SLOT1), True, START_NS + 5_000_000 - 2),
        RawEdge(Control(0, Button.PILE1), True, START_NS + 5_000_000 - 1),
        RawEdge(TEST, True, START_NS + 5_000_000),
    ]
    post(pygame.KEYUP, pygame.K_j)
    clock.advance(1_000_000)
    keyboard.pump()
    assert keyboard.edges.take() == [RawEdge(Control(1, Button.SLOT1), False, START_NS + 6_000_000)]


def test_repeats_and_unmapped_keys_are_ignored_and_other_events_stay_queued(
    keyboard: KeyboardInput,
) -> None:
    post(pygame.KEYDOWN, pygame.K_a)
    post(pygame.KEYDOWN, pygame.K_a)  # key repeat
    post(pygame.KEYDOWN, pygame.K_z)  # not mapped
    post(pygame.KEYUP, pygame.K_s)  # released, never pressed
    pygame.event.post(pygame.event.Event(pygame.USEREVENT, what="frame"))
    keyboard.pump()
    edges = keyboard.edges.take()
    assert [(e.control, e.pressed) for e in edges] == [(Control(0, Button.SLOT1), True)]
    left = pygame.event.get()
    assert [e.type for e in left] == [pygame.USEREVENT]


def test_the_default_key_map_covers_all_sixteen_controls(display: None) -> None:
    names = KeyMap.from_names(DEFAULT_KEYS).names()
    assert names == DEFAULT_KEYS
    assert len(set(names.values())) == 16  # with MAME's coin keys, 5 and 6


def test_remapping_moves_a_control_and_keeps_the_rest(display: None) -> None:
    keymap = KeyMap.from_names({"p1.pile1": "left shift", "service": "f3"})
    assert keymap.control(pygame.K_LSHIFT) == Control(0, Button.PILE1)
    assert keymap.control(pygame.K_w) is None
    assert keymap.control(pygame.K_F3) == SERVICE
    assert keymap.control(pygame.K_a) == Control(0, Button.SLOT1)


def test_remapping_onto_another_controls_key_hands_that_control_no_key(display: None) -> None:
    with pytest.raises(KeyMapError, match=re.escape("no key for p1.slot2")):
        KeyMap.from_names({"p1.slot1": "s"})  # s was player 1's slot 2


def test_key_map_errors_say_what_is_wrong(display: None) -> None:
    with pytest.raises(KeyMapError, match="'nokey' is not a key name"):
        KeyMap.from_names({"p1.slot1": "nokey"})
    with pytest.raises(KeyMapError, match=re.escape("unknown control 'p3.slot1'")):
        KeyMap.from_names({"p3.slot1": "x"})
    with pytest.raises(
        KeyMapError, match=re.escape("key 'x' is given to both p1.slot1 and p1.slot2")
    ):
        KeyMap.from_names({"p1.slot1": "x", "p1.slot2": "x"})
