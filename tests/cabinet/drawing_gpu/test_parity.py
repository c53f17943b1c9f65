"""The texture backend draws what the software backend draws.

Every screen, drawn through both from the same view at the same moment, in both
orientations and at three resolutions, read back from the GPU's target texture: each
pixel within :data:`LEVELS` levels per channel of the software frame. A card in flight at
a size between the slot's and the pile's is the one exception, and only inside its own
rectangle: software smooth-scales it (averaging areas), the GPU filters it bilinearly, so
the edges of its ink differ; there the mean difference must stay within
:data:`IN_FLIGHT_MEAN` (docs/display.md, "Parity").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy
import pygame
import pytest

from cabinet.drawing.box import Box
from cabinet.drawing.fame_views import (
    FameBoardView,
    FameColumn,
    FameRow,
    InitialsPanel,
    InitialsView,
)
from cabinet.drawing.geometry import Orientation
from cabinet.drawing.renderer import Renderer
from cabinet.drawing.replayer import MatchPlayer
from cabinet.drawing.views import (
    AttractView,
    GameOverView,
    JoinPlayer,
    JoinView,
    PlayerSummary,
    RaceMoment,
    TableLabels,
    TableView,
    View,
    table_view,
)
from cabinet.i18n import Translator, font_path
from cabinet.service.draw import MenuRenderer
from cabinet.service.screen import MenuScreen, Row, Tone
from firmware_bridge.lights import Light, LightState
from game.bots import level
from game.cpu_match import play_cpu_game
from game.record import MatchRecord
from game.table_state import TableState
from game.units import MS
from tests.cabinet.drawing_gpu.conftest import MakeTexture

#: The most a channel may differ between the two backends' frames.
LEVELS = 3
#: The most the mean difference inside a card in flight at an in-between size may be:
#: pygame's smooth-scaling darkens a downscaled face by 2-3 levels (and its alpha), and
#: the ink's edges are filtered differently; bilinear filtering on the GPU does neither.
IN_FLIGHT_MEAN = 8
RESOLUTIONS = ((1920, 1080), (1024, 768), (800, 480))
LABELS = TableLabels(("PLAYER 1", "PLAYER 2"), "STUCK")


def beaten(margin_ns: int) -> str:
    return f"beaten by {margin_ns / 1e6:.1f} ms"


@pytest.fixture(scope="module")
def record() -> MatchRecord:
    return play_cpu_game(3, (level(4), level(4))).record


@dataclasses.dataclass
class Twins:
    """A software renderer on a surface and a texture renderer, set up alike."""

    soft: Renderer
    tex: Renderer

    def feed(self, events: list[object]) -> None:
        for renderer in (self.soft, self.tex):
            renderer.feed(events)  # type: ignore[arg-type]

    def draw(self, view: View, t: int) -> tuple[pygame.Surface, pygame.Surface]:
        for renderer in (self.soft, self.tex):
            renderer.invalidate()
            renderer.draw(view, t)
        return self.soft.backend.surface, self.tex.backend.read()  # type: ignore[attr-defined]

    def in_between_sprites(self) -> list[Box]:
        """Cards in flight drawn at neither of the two sizes faces are drawn at."""
        g = self.soft.geometry
        drawn = {(g.card_w, g.card_h), (g.pile_w, g.pile_h)}
        return [
            i.rect
            for i in self.soft.display_list
            if i.kind == "sprite" and (i.rect.w, i.rect.h) not in drawn
        ]


def twins(make_texture: MakeTexture, size: tuple[int, int], orientation: Orientation) -> Twins:
    kwargs = {"lights_strip": True, "warm": False, "beaten_text": beaten}
    soft = Renderer(pygame.Surface(size), orientation, font_path(), **kwargs)  # type: ignore[arg-type]
    tex = Renderer(make_texture(size), orientation, font_path(), **kwargs)  # type: ignore[arg-type]
    return Twins(soft, tex)


@dataclasses.dataclass(frozen=True)
class Difference:
    worst: int
    """The largest difference of any channel outside the in-between sprites."""
    where: tuple[int, int]
    sprite_mean: float
    """The mean difference inside them (0 without any)."""


def difference(a: pygame.Surface, b: pygame.Surface, loose: list[Box]) -> Difference:
    assert a.get_size() == b.get_size()
    diff = numpy.abs(
        pygame.surfarray.array3d(a).astype(numpy.int16)
        - pygame.surfarray.array3d(b).astype(numpy.int16)
    ).max(axis=2)
    inside = numpy.zeros(diff.shape, dtype=bool)
    for box in loose:
        inside[max(0, box.x) : box.right, max(0, box.y) : box.bottom] = True
    outside = numpy.where(inside, 0, diff)
    x, y = numpy.unravel_index(int(outside.argmax()), outside.shape)
    mean = float(diff[inside].mean()) if inside.any() else 0.0
    return Difference(int(outside.max()), (int(x), int(y)), mean)


def assert_alike(pair: Twins, view: View, t: int, what: str) -> None:
    soft, tex = pair.draw(view, t)
    found = difference(soft, tex, pair.in_between_sprites())
    assert found.worst <= LEVELS, f"{what}: {found.worst} levels apart at {found.where}"
    assert found.sprite_mean <= IN_FLIGHT_MEAN, (
        f"{what}: cards in flight {found.sprite_mean:.1f} apart"
    )


# -- the screens ------------------------------------------------------------------------


def lights(on: bool) -> LightState:
    """The SPIT light blinking (seen on and off), player 1's STUCK light on and a slot's
    light pulsing (seen part way up: a tinted level)."""
    spit = Light.on((255, 214, 0)) if on else Light.off()
    return LightState.all_off().with_lights(
        spit=spit, stuck1=Light.on((255, 0, 0)), p1_slot2=Light.pulse(1000, (40, 200, 255))
    )


def table_at(record: MatchRecord, at_ns: int) -> Iterator[tuple[TableView, int, list[object]]]:
    """The table of ``record``'s game every 47 ms up to ``at_ns``, with the events."""
    player = MatchPlayer(record)
    t = 0
    while t <= at_ns and not player.finished:
        events = player.advance(t)
        yield table_view(TableState.of(player.referee), LABELS), t, events  # type: ignore[misc]
        t += 47 * MS


def still_screens(record: MatchRecord) -> list[tuple[str, View]]:
    """Every screen but the service menu's, as the presenter would make them."""
    tr = Translator("hu")  # long words and accents
    *_, (table, _, _) = table_at(record, 9_000 * MS)
    return [
        *table_screens(table),
        *between_games_screens(),
        ("hall of fame", fame_board()),
        ("out of order", out_of_order(tr)),
    ]


def table_screens(table: TableView) -> list[tuple[str, View]]:
    """Attract and the table in play, plain and with everything a table can show."""
    raced = dataclasses.replace(
        table,
        races=(RaceMoment(0, "PLAYER 1 first by 3.2 ms"), RaceMoment(1, "Tie!")),
        score="1 – 0",
        countdown="3",
        lights=lights(True),
    )
    stuck = dataclasses.replace(
        table,
        players=(dataclasses.replace(table.players[0], stuck=True, selected=2), table.players[1]),
    )
    attract = AttractView(table, "PRESS ANY BUTTON", "Play a card one above or below.\nGo!")
    return [
        ("attract", attract),
        ("play", table),
        ("race moments, score, countdown, lights", raced),
        ("selected slot and STUCK", stuck),
    ]


def between_games_screens() -> list[tuple[str, View]]:
    """Joining, the game over and the initials' entry."""
    join = JoinView(
        (JoinPlayer("PLAYER 1", "Ready!", True), JoinPlayer("PLAYER 2", "Press a pile", False)),
        footer="CPU joins in 4 s",
        credits="CREDITS 1 1/2",
        lights=lights(False),
    )
    over = GameOverView(
        "PLAYER 1 WINS",
        (
            PlayerSummary("PLAYER 1", ("Plays: 31", "Closest race won by 0.8 ms"), True),
            PlayerSummary("PLAYER 2", ("Plays: 24", "Pressed at 41.2031 s"), False),
        ),
        "Match 2 – 1",
    )
    initials = InitialsView(
        (
            InitialsPanel("PLAYER 1", ("Most plays in a game: 31 · 1st",), "AB ", 2, "12 s"),
            InitialsPanel("PLAYER 2", ("No record this time",)),
        ),
        "Slots: letter · piles: next",
    )
    return [("join", join), ("game over", over), ("initials", initials)]


def fame_board() -> FameBoardView:
    """A full hall of fame: three categories of five, the first of each new."""
    return FameBoardView(
        "HALL OF FAME",
        tuple(
            FameColumn(
                f"Category {c}",
                tuple(
                    FameRow(str(k + 1), "ABC", f"{40 + k}.2 s", "2026-12-01", new=k == 0)
                    for k in range(5)
                ),
            )
            for c in range(3)
        ),
    )


def out_of_order(tr: Translator) -> GameOverView:
    """The screen shown while no table is ready."""
    return GameOverView(
        tr.t("table.out_of_order"), (PlayerSummary("", (tr.t("table.restarting"),)),) * 2, None
    )


@pytest.mark.parametrize("size", RESOLUTIONS, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("orientation", list(Orientation), ids=lambda o: o.value)
def test_every_screen_matches_the_software_frame(
    make_texture: MakeTexture,
    record: MatchRecord,
    size: tuple[int, int],
    orientation: Orientation,
) -> None:
    pair = twins(make_texture, size, orientation)
    for what, view in still_screens(record):
        assert_alike(pair, view, 10_200 * MS, what)
    # The blinking light off as well as on: another texture, the same pixels.
    assert_alike(pair, JoinView(still_screens(record)[4][1].players, lights=lights(False)), 0,
                 "a light off")  # type: ignore[attr-defined]  # fmt: skip


@pytest.mark.parametrize("orientation", list(Orientation), ids=lambda o: o.value)
def test_cards_in_flight_match_frame_by_frame(
    make_texture: MakeTexture, record: MatchRecord, orientation: Orientation
) -> None:
    """Six seconds of a game (the deal, plays, refills, rejections, cards turned for the
    far player in cocktail) at 1280x720, every 47 ms of match time."""
    pair = twins(make_texture, (1280, 720), orientation)
    flying = 0
    for view, t, events in table_at(record, 6_000 * MS):
        pair.feed(events)
        assert_alike(pair, view, t, f"the table at {t // MS} ms")
        flying += bool([i for i in pair.soft.display_list if i.kind == "sprite"])
    assert flying > 10  # the comparison saw cards in flight


def test_a_card_drawn_one_slot_off_is_caught(
    make_texture: MakeTexture, record: MatchRecord
) -> None:
    """The comparison fails on a real fault: player 1's second slot shown in the first."""
    pair = twins(make_texture, (1024, 768), Orientation.UPRIGHT)
    *_, (view, t, _) = table_at(record, 9_000 * MS)
    layout = view.players[0].layout
    assert layout[0] != layout[1]
    off = dataclasses.replace(
        view, players=(dataclasses.replace(view.players[0], layout=(layout[1], *layout[1:])),
                       view.players[1]),
    )  # fmt: skip
    pair.soft.invalidate()
    pair.soft.draw(view, t)
    pair.tex.invalidate()
    pair.tex.draw(off, t)
    found = difference(pair.soft.backend.surface, pair.tex.backend.read(), [])  # type: ignore[attr-defined]
    assert found.worst > LEVELS
    slot = pair.soft.geometry.players[0].slots[0]
    assert slot.x <= found.where[0] < slot.right and slot.y <= found.where[1] < slot.bottom


@pytest.mark.parametrize("size", RESOLUTIONS[:2], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_service_menu_and_its_monitor_test_reach_the_screen_whole(
    make_texture: MakeTexture, size: tuple[int, int]
) -> None:
    """The menu paints the texture backend's canvas; what reaches the screen is that
    canvas, pixel for pixel, page after page (and the canvas goes when the table is
    drawn again)."""
    backend = make_texture(size)
    menu = MenuRenderer(backend.canvas(), font_path())
    rows = tuple(Row(f"Setting {k}", f"value {k}", Tone.NORMAL) for k in range(14))
    pages = [
        MenuScreen("SERVICE MENU", rows, cursor=3, help="SLOT 1/2: move · PILE 1: choose"),
        MenuScreen("SERVICE MENU", rows, cursor=12, notice="Saved."),
        MenuScreen("Colour bars", pattern="bars"),
        MenuScreen("Crosshatch · Cocktail table", pattern="crosshatch", turned=True),
        MenuScreen("Safe area", pattern="safe"),
    ]
    for page in pages:
        drawn = backend.canvas_drawn(menu.draw(page))
        assert drawn == [pygame.Rect((0, 0), size)]
        shown = backend.read()
        found = difference(backend.canvas(), shown, [])
        assert found.worst == 0, f"{page.title}: {found.worst} levels at {found.where}"
    assert backend.canvas_drawn(menu.draw(pages[-1])) == []  # the same page: nothing
