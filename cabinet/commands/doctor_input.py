"""``spit-cabinet doctor``'s input check: the input backend, then each control pressed in
turn by the operator (or, on mock pins, for them), through the same switch filter the
cabinet reads its buttons with."""

from __future__ import annotations

import argparse
import time

from cabinet.commands.findings import Finding, Level
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
    from cabinet.inputs.mock import MockInput
    from cabinet.inputs.select import choose_backend, open_backend

    try:
        platform = Platform.detect()
        name = choose_backend(args.input, platform)
        if name is InputKind.KEYBOARD:
            return [
                Finding(
                    "input",
                    Level.WARN,
                    "keyboard: a desktop, not the cabinet's buttons",
                    "on the cabinet use --input gpio",
                )
            ]
        edges = EdgeQueue()
        from cabinet.display.assembly import button_pins

        backend = open_backend(name, edges, platform=platform, pins=button_pins(args.wiring))
    except (BackendUnavailableError, ValueError) as exc:
        return [Finding("input", Level.FAIL, str(exc), "see docs/input.md")]
    findings = [
        Finding(
            "input",
            Level.OK,
            f"{name} backend, hardware timestamps: "
            f"{'yes' if backend.hardware_timestamps else 'no'}",
        )
    ]
    if args.buttons == "skip":
        return findings
    switch = SwitchFilter()
    missing = []
    wired = backend.pins if isinstance(backend, GpioInput) else ALL_CONTROLS
    controls = [c for c in ALL_CONTROLS if c in wired]
    with backend:
        for raw in edges.take(0.05):
            switch.process(raw)
        held = [s.control for s in switch.status() if s.control.is_coin and s.down]
        for control in held:
            findings.append(
                Finding(
                    "coins",
                    Level.FAIL,
                    f"the {control.name} line is held low: a coin jammed, a wire to ground, "
                    "or the mechanism set to NC (normally closed)",
                    "set the mechanism to NO and check its wiring (docs/pricing.md)",
                )
            )
        controls = [c for c in controls if c not in held]  # a held line cannot pulse
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
            if not _wait_for_press(edges, switch, control, args.press_timeout):
                missing.append(label)
    if missing:
        findings.append(
            Finding(
                "buttons",
                Level.FAIL,
                f"no press from {', '.join(missing)}",
                "check those wires (spit-cabinet wiring shows where each goes)",
            )
        )
    else:
        findings.append(Finding("buttons", Level.OK, f"all {len(controls)} controls answered"))
    return findings


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
