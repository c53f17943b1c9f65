"""``spit-cabinet doctor``'s input check: the input backend, then each control pressed in
turn by the operator (or, on mock pins, for them), through the same switch filter the
cabinet reads its buttons with."""

from __future__ import annotations

import argparse
import time

from cabinet.commands.findings import Finding, Severity
from cabinet.inputs.base import InputBackend
from cabinet.inputs.controls import ALL_CONTROLS, Control
from cabinet.inputs.debounce import OperatorEdge, SwitchFilter
from cabinet.inputs.edge_queue import EdgeQueue
from cabinet.inputs.gpio import GpioInput
from cabinet.inputs.select import (
    BackendUnavailableError,
    InputKind,
    Platform,
)
from game.edges import Edge


def check_input(args: argparse.Namespace) -> list[Finding]:
    """The input backend, then each control pressed in turn (or pressed for the operator
    on mock pins, which proves the path from pin to edge)."""
    opened = _open_input(args)
    if isinstance(opened, Finding):
        return [opened]
    name, edges, backend = opened
    findings = [
        Finding(
            "input",
            Severity.OK,
            f"{name} backend, hardware timestamps: "
            f"{'yes' if backend.hardware_timestamps else 'no'}",
        )
    ]
    if args.buttons == "skip":
        return findings
    switch = SwitchFilter()
    wired = backend.pins if isinstance(backend, GpioInput) else ALL_CONTROLS
    controls = [c for c in ALL_CONTROLS if c in wired]
    with backend:
        held = _held_coins(edges, switch)
        findings.extend(_held_coin_finding(control) for control in held)
        controls = [c for c in controls if c not in held]  # a held line cannot pulse
        missing = _press_each(backend, edges, switch, controls, args.press_timeout)
    findings.append(_buttons_finding(missing, len(controls)))
    return findings


def _open_input(args: argparse.Namespace) -> tuple[InputKind, EdgeQueue, InputBackend] | Finding:
    """The input backend ``--input`` names (or this platform's), built onto a queue of its
    own; or, where it is the keyboard or cannot be had, the finding that says so."""
    from cabinet.inputs.select import choose_backend, open_backend

    try:
        platform = Platform.detect()
        name = choose_backend(args.input, platform)
        if name is InputKind.KEYBOARD:
            return Finding(
                "input",
                Severity.WARN,
                "keyboard: a desktop, not the cabinet's buttons",
                "on the cabinet use --input gpio",
            )
        edges = EdgeQueue()
        from cabinet.display.assembly import button_pins

        backend = open_backend(name, edges, platform=platform, pins=button_pins(args.wiring))
    except (BackendUnavailableError, ValueError) as exc:
        return Finding("input", Severity.FAIL, str(exc), "see docs/input.md")
    return name, edges, backend


def _held_coins(edges: EdgeQueue, switch: SwitchFilter) -> list[Control]:
    """The coin lines already down once the backend has just opened (their first levels
    through ``switch``)."""
    for raw in edges.take(0.05):
        switch.process(raw)
    return [s.control for s in switch.status() if s.control.is_coin and s.down]


def _held_coin_finding(control: Control) -> Finding:
    """The failure of a coin line held low."""
    return Finding(
        "coins",
        Severity.FAIL,
        f"the {control.name} line is held low: a coin jammed, a wire to ground, "
        "or the mechanism set to NC (normally closed)",
        "set the mechanism to NO and check its wiring (docs/pricing.md)",
    )


def _press_each(
    backend: InputBackend,
    edges: EdgeQueue,
    switch: SwitchFilter,
    controls: list[Control],
    timeout_s: float,
) -> list[str]:
    """Ask for a press of each of ``controls`` in turn (on mock pins, press it), and wait
    up to ``timeout_s`` for it; the names of those that gave none."""
    from cabinet.inputs.mock import MockInput

    missing: list[str] = []
    for control in controls:
        label = control.name
        if isinstance(backend, MockInput):  # no one to press: drive the mock pin
            t = time.monotonic_ns()
            backend.press(control, t)
            backend.release(control, t + 50_000_000)
        elif control.is_coin:
            print(f"       insert a coin in {label} …", flush=True)
        else:
            print(f"       press {label} …", flush=True)
        if not _wait_for_press(edges, switch, control, timeout_s):
            missing.append(label)
    return missing


def _buttons_finding(missing: list[str], asked: int) -> Finding:
    """How the presses went: the controls that gave none, or that all ``asked`` answered."""
    if missing:
        return Finding(
            "buttons",
            Severity.FAIL,
            f"no press from {', '.join(missing)}",
            "check those wires (spit-cabinet wiring shows where each goes)",
        )
    return Finding("buttons", Severity.OK, f"all {asked} controls answered")


def _wait_for_press(
    edges: EdgeQueue, switch: SwitchFilter, control: Control, timeout_s: float
) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        for raw in edges.take(0.1):
            for item in switch.process(raw):
                if (
                    isinstance(item, Edge)
                    and item.is_press
                    and item.player == control.player
                    and item.button is control.button
                ):
                    return True
                if isinstance(item, OperatorEdge) and item.pressed and item.control == control:
                    return True
    return False
