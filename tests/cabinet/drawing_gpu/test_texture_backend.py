"""The texture backend's own promises: steady play uploads nothing, a frame like the last
is not drawn, the text cache stays bounded, and a failure hands over to software."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from cabinet.display.app import CabinetApp
from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import FlowSettings
from cabinet.display.parts import CabinetParts
from cabinet.drawing.backend import BackendKind
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.replayer import MatchPlayer
from cabinet.drawing.texture import TEXT_TEXTURES
from cabinet.drawing.views import table_view
from cabinet.i18n import font_path
from cabinet.inputs.controls import Control
from cabinet.inputs.edge_queue import EdgeQueue, RawEdge
from cabinet.shared.phase import Phase
from cabinet.storage.store import CabinetStore
from firmware_bridge.lights import Light, LightState
from game.bots import level
from game.cpu_match import play_cpu_game
from game.edges import Button
from game.table_state import TableState
from game.units import MS
from tests.cabinet.drawing_gpu.conftest import MakeTexture
from tests.cabinet.drawing_gpu.test_parity import LABELS, beaten, difference

FRAME_NS = 16_666_667
LASTING = ("face", "back", "empty", "felt", "lamp")
#: The lights strip as a game shows it, one light pulsing (a new level every 42 ms).
PULSING = LightState.all_off().with_lights(
    p1_slot1=Light.pulse(1000, (40, 200, 255)), spit=Light.on((255, 214, 0))
)


@pytest.mark.parametrize("orientation", list(Orientation), ids=lambda o: o.value)
def test_steady_play_uploads_almost_nothing(
    make_texture: MakeTexture, orientation: Orientation
) -> None:
    """A whole CPU-against-CPU game (Expert both: dense play) at 60 frames a second: after
    the first second, the median frame uploads nothing and no frame uploads a card, the
    felt or a light (a pulsing light is one texture, tinted); the text cache stays within
    its bound all game."""
    backend = make_texture((1920, 1080))
    renderer = Renderer(backend, orientation, font_path(), lights_strip=True, beaten_text=beaten)
    record = play_cpu_game(5, (level(5), level(5))).record
    player = MatchPlayer(record)
    t = 0
    uploads: list[int] = []
    lasting: list[tuple[object, ...]] = []
    drawn = 0
    while not player.finished:
        renderer.feed(player.advance(t))
        view = table_view(TableState.of(player.referee), LABELS, lights=PULSING)
        drawn += bool(renderer.draw(view, t))
        if t >= 1_000 * MS:
            uploads.append(backend.last_counts.uploaded_bytes)
            lasting += [k for k in backend.last_uploaded if k[0] in LASTING]
        assert backend.text_textures <= TEXT_TEXTURES
        t += FRAME_NS
    assert len(uploads) >= 600
    assert statistics.median(uploads) == 0
    assert lasting == []
    assert 0 < drawn < len(uploads)  # frames like the last were not drawn


def test_a_frame_like_the_last_is_not_drawn(make_texture: MakeTexture) -> None:
    backend = make_texture((800, 480))
    renderer = Renderer(backend, Orientation.UPRIGHT, font_path(), warm=False)
    record = play_cpu_game(3, (level(4), level(4))).record
    view = table_view(TableState.of(MatchPlayer(record).referee), LABELS)
    assert renderer.draw(view, 0) == [pygame.Rect(0, 0, 800, 480)]
    assert backend.last_counts.draw_calls > 10
    assert renderer.draw(view, MS) == []
    assert backend.last_counts.draw_calls == 0
    renderer.invalidate()
    assert renderer.draw(view, 2 * MS) and backend.last_counts.uploads == 0


def app_on(backend: object) -> tuple[CabinetApp, EdgeQueue, list[int]]:
    now = [10**12]
    edges = EdgeQueue()
    settings = AppSettings(flow=FlowSettings(join_wait_s=1))
    app = CabinetApp(
        backend,  # type: ignore[arg-type]
        edges,
        settings,
        CabinetParts(
            fallback=None,
        ),
        clock=lambda: now[0],
        threaded=False,
        seed=4,
    )
    return app, edges, now


def run(app: CabinetApp, now: list[int], seconds: float) -> int:
    drawn = 0
    for _ in range(int(seconds * 60)):
        now[0] += FRAME_NS
        rects = app.step(now[0])
        app.present(rects)
        drawn += bool(rects)
    return drawn


def test_a_texture_backend_that_fails_mid_game_hands_over_to_software(
    make_texture: MakeTexture, caplog: pytest.LogCaptureFixture
) -> None:
    """The GPU's window goes away mid-game (its renderer and every texture with it, as a
    lost context does): one log line, the software backend takes over, the game goes on."""
    backend = make_texture((800, 480))
    app, edges, now = app_on(backend)
    run(app, now, 1.0)
    edges.put(RawEdge(Control(0, Button.PILE1), True, now[0]))
    edges.put(RawEdge(Control(0, Button.PILE1), False, now[0] + 40 * MS))
    run(app, now, 3.0)
    assert app.flow.phase is Phase.PLAY
    assert app.output.kind is BackendKind.TEXTURE
    backend.gpu.window.destroy()
    with caplog.at_level("INFO"):
        run(app, now, 0.5)
    failed = [r for r in caplog.records if "backend failed" in r.getMessage()]
    assert len(failed) == 1, caplog.text
    assert app.output.kind is BackendKind.SOFTWARE and app.fallbacks == 1
    assert app.flow.phase is Phase.PLAY
    plays = len(app.flow.match.state().pile_tops) if app.flow.match else 0  # type: ignore[attr-defined]
    assert plays == 2
    assert run(app, now, 2.0) > 0  # frames go on being drawn, in software
    assert pygame.display.get_surface() is not None


def test_a_backend_that_fails_while_warming_hands_over_to_software(
    make_texture: MakeTexture, caplog: pytest.LogCaptureFixture
) -> None:
    """The faces are drawn in the first frame's spare time: the GPU's window gone by then
    is a failed backend like any other (one log line, software takes over, warmed), not a
    crash of the frame loop."""
    backend = make_texture((800, 480))
    app, _, now = app_on(backend)
    run(app, now, 0.1)
    assert not app.renderer.warmed  # drawn, not yet warmed: that is the loop's wait
    backend.gpu.window.destroy()
    with caplog.at_level("INFO"):
        app.wait(now[0] + FRAME_NS, now[0])
    assert [r for r in caplog.records if "backend failed" in r.getMessage()]
    assert app.output.kind is BackendKind.SOFTWARE and app.fallbacks == 1
    assert app.renderer.warmed
    assert run(app, now, 0.5) > 0


def cabinet_log(tmp_path: Path, env: dict[str, str], *args: str) -> str:
    """``spit-cabinet run`` for a second in a child process; its log."""
    done = subprocess.run(
        [sys.executable, "-m", "cabinet", "run", "--input", "mock", "--seconds", "1",
         "--data-dir", str(tmp_path / "data"), "--size", "640x360", *args],
        env={**os.environ, "SDL_AUDIODRIVER": "dummy", **env},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_auto_without_gles_runs_in_software_and_says_why(tmp_path: Path) -> None:
    """A real environment without GLES: EGL finds no vendor library (as on a machine
    without Mesa's EGL), so SDL has no GL renderer."""
    log = cabinet_log(
        tmp_path,
        {"SDL_VIDEODRIVER": "offscreen", "__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"},
        "--display-backend", "texture",
    )  # fmt: skip
    assert "the texture backend cannot start" in log
    assert "display: software on offscreen (no GPU renderer:" in log
    log = cabinet_log(  # auto (the default), the same machine: software, and why
        tmp_path,
        {"SDL_VIDEODRIVER": "offscreen", "__EGL_VENDOR_LIBRARY_FILENAMES": "/nonexistent.json"},
    )
    assert "the texture backend cannot start" not in log  # nothing was asked that failed
    assert "display: software on offscreen (no GPU renderer:" in log
    log = cabinet_log(tmp_path, {"SDL_VIDEODRIVER": "dummy"})
    assert "display: software on dummy (SDL's dummy driver has no GL)" in log


def test_texture_asked_for_draws_with_textures_and_says_so(tmp_path: Path) -> None:
    log = cabinet_log(tmp_path, {"SDL_VIDEODRIVER": "offscreen"}, "--display-backend", "texture")
    assert "display: texture: opengles2 (llvmpipe" in log
    log = cabinet_log(tmp_path, {"SDL_VIDEODRIVER": "offscreen"})
    assert "display: software on offscreen (only a software rasterizer: llvmpipe" in log


def test_the_service_menu_through_the_texture_backend(
    make_texture: MakeTexture, store: CabinetStore
) -> None:
    """A whole cabinet on the texture backend: TEST opens the menu, whose pages (and the
    monitor test's pattern) reach the screen as the menu painted them; leaving it draws
    the table again and lets the menu's canvas go."""
    from tests.cabinet.service.conftest import Cabinet
    from tests.cabinet.service.test_hardware_tests import open_test

    backend = make_texture((960, 540))
    cab = Cabinet(backend, store, backend="mock")  # type: ignore[arg-type]
    cab.frames(0.2)
    assert cab.app.output is backend
    open_test(cab, "Monitor test")
    assert cab.shown.pattern == "bars"
    canvas = cab.app.menu_renderer.surface
    found = difference(canvas, backend.read(), [])
    assert found.worst == 0
    assert pygame.image.tobytes(canvas, "RGB") != bytes(960 * 540 * 3)  # bars, not black
    bars = pygame.image.tobytes(canvas, "RGB")
    for _ in range(6):  # back out of the test, out of Tests, out of the menu
        cab.p1(Button.PILE2)
        if not cab.app.in_service:
            break
    cab.frames(0.3)
    assert not cab.app.in_service
    assert not cab.app.menu_renderer.has_surface  # the canvas went with the menu
    shown = backend.read()
    assert pygame.image.tobytes(shown, "RGB") != bars  # the table is drawn again
    r, g, b, _ = shown.get_at((2, 2))
    assert g > r + 40 and g > b  # green felt (under a mat), where the bars were white
    cab.close()


def test_stopping_the_cabinet_lets_go_of_every_texture_before_sdl_quits(
    make_texture: MakeTexture, store: CabinetStore
) -> None:
    """``spit-cabinet run`` quits SDL after the app stops: a texture still alive then is
    destroyed by the last garbage collection after its renderer (a crash at exit, seen
    once in CI). Stopping the app closes its screen: no texture is left, and closing again
    is no error."""
    from tests.cabinet.service.conftest import Cabinet

    backend = make_texture((640, 360))
    cab = Cabinet(backend, store, backend="mock")  # type: ignore[arg-type]
    cab.frames(0.2)
    assert backend.textures > 0  # the felt and the cards, at least
    assert backend.gpu.is_open
    cab.app.stop()
    assert backend.textures == 0
    assert not backend.gpu.is_open
    cab.app.stop()  # twice: no error
    cab.close()
