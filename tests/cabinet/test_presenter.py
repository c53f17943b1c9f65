"""The presenter: each screen's view, lights and sounds from the flow, with no screen.

The first test runs in a fresh process, so it sees what importing and using the presenter
loads: never pygame. The others build views from a flow on a virtual clock.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import Flow, FlowSettings
from cabinet.display.presenter import Presenter
from cabinet.display.sounds import phase_sound, sound_cues, sound_for
from cabinet.drawing.views import AttractView, GameOverView, JoinView, RaceMoment, TableView
from cabinet.i18n import Translator
from cabinet.shared.phase import Phase
from game.cards import Card
from game.edges import Button, Edge, EdgeKind
from game.events import LateEdge, Played, Rejected, RejectReason, Selected, SpitDue
from game.rules import Rules
from game.summary import ClosestRace, Seat
from game.units import MS, S

ROOT = Path(__file__).resolve().parents[2]
T0 = 10**12

CHILD = """
import json, sys
from cabinet.display.app_settings import AppSettings
from cabinet.display.flow import Flow, FlowSettings
from cabinet.i18n import Translator
from cabinet.display.presenter import Presenter
from cabinet.display.sounds import sound_for
from game.events import Selected

t0 = 10**12
flow = Flow(FlowSettings(join_wait_s=5), 3, t0)
flow.press(0, t0)
shown = Presenter(flow, AppSettings(), Translator("en")).show(t0 + 10**9, None)
view = shown.view
print(json.dumps({
    "pygame": sorted(m for m in sys.modules if m == "pygame" or m.startswith("pygame.")),
    "view": type(view).__name__,
    "statuses": [player.status for player in view.players],
    "footer": view.footer,
    "lights": shown.lights == view.lights,
    "table_joined": shown.table_lights.joined,
    "sound": sound_for(Selected(t0, 0, 1)),
}))
"""


def test_a_view_and_its_sound_need_no_pygame() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen["pygame"] == []
    assert seen["view"] == "JoinView"
    assert seen["statuses"] == ["Player 1 ready!", "Player 2: press any button to join"]
    assert seen["footer"] == "The CPU joins in 4 seconds"
    assert seen["lights"] is True
    assert seen["table_joined"] == [True, False]
    assert seen["sound"] == "select"


def presenter(flow: Flow, **settings: bool) -> Presenter:
    return Presenter(flow, AppSettings(flow=flow.settings, **settings), Translator("en"))


def test_attract_takes_turns_with_the_operator_notice() -> None:
    tr = Translator("en")
    flow = Flow(FlowSettings(demo_levels=(2, 5)), 1, T0)
    shows = presenter(flow)
    notices = ["the database was moved aside"]
    first = shows.show(T0, flow.demo.state(), notices=notices)
    assert isinstance(first.view, AttractView)
    assert first.view.prompt == "Press any button"
    assert first.view.howto == "Operator: the database was moved aside"
    labels = [p.label for p in first.view.table.players]
    assert labels == [tr.t("cpu.level.2"), tr.t("cpu.level.5")]
    second = shows.show(T0 + 6 * S, flow.demo.state(), notices=notices)  # the next card
    assert isinstance(second.view, AttractView)
    assert second.view.howto == tr.t("attract.howto.2")
    assert first.table_lights is not None and first.table_lights.phase is Phase.ATTRACT


def test_a_game_being_readied_hides_the_piles_and_shows_a_stuck_button() -> None:
    flow = Flow(FlowSettings(), 2, T0)
    flow.press(0, T0)
    flow.press(1, T0)
    assert flow.phase is Phase.READY and flow.match is not None
    shown = presenter(flow).show(T0, flow.match.state(), stuck={1: Button.PILE2})
    view = shown.view
    assert isinstance(view, TableView)
    assert view.pile_tops == (None, None) and view.pile_sizes == (0, 0)
    assert view.countdown == "Ready…"
    assert [p.label for p in view.players] == ["Player 1", "Player 2"]
    assert [p.warning for p in view.players] == [None, "Button stuck: Pile 2"]
    assert shown.lights == view.lights
    assert shown.table_lights is not None and shown.table_lights.joined == (True, True)


def test_hints_light_the_playable_slots_only_when_asked() -> None:
    flow = Flow(FlowSettings(), 2, T0)
    flow.press(0, T0)
    flow.press(1, T0)
    assert flow.match is not None
    flow.update(flow.match.start_abs_ns)
    assert flow.phase is Phase.PLAY
    state = flow.match.state()
    plain = presenter(flow, hints=False).show(flow.match.start_abs_ns, state)
    hinted = presenter(flow, hints=True).show(flow.match.start_abs_ns, state)
    assert hinted.table_lights is not None and hinted.table_lights.hints
    assert plain.table_lights is not None and not plain.table_lights.hints
    assert state.playable == ((3,), (0, 1))  # this seed's deal
    assert hinted.lights != plain.lights


def test_a_lone_player_meets_the_cpu_by_name() -> None:
    flow = Flow(FlowSettings(join_wait_s=1), 4, T0)
    flow.press(0, T0)
    flow.update(T0 + S)
    assert flow.phase is Phase.READY and flow.match is not None
    assert flow.seat_kinds == (Seat.HUMAN, Seat.CPU)
    view = presenter(flow).show(T0 + S, flow.match.state()).view
    assert isinstance(view, TableView)
    assert [p.label for p in view.players] == ["Player 1", "CPU"]


def test_out_of_order_tells_the_table_nothing() -> None:
    shown = presenter(Flow(FlowSettings(), 1, T0)).out_of_order()
    assert isinstance(shown.view, GameOverView)
    assert shown.table_lights is None
    assert shown.lights == shown.lights.all_off()


def test_which_event_makes_which_sound() -> None:
    beaten = Rejected(T0, 0, 1, 0, RejectReason.BEATEN, margin_ns=3_000_000)
    assert sound_for(beaten) == "beaten"
    assert sound_for(SpitDue(T0, T0 + S)) == "countdown"
    assert sound_cues([Selected(T0, 0, 1), beaten]) == ["select", "beaten"]
    assert phase_sound(Phase.READY) == "countdown"
    assert phase_sound(Phase.JOIN) is None


def test_a_join_view_counts_down_to_the_cpu() -> None:
    flow = Flow(FlowSettings(join_wait_s=3), 1, T0)
    flow.press(1, T0)
    view = presenter(flow).show(T0 + S // 2, None).view
    assert isinstance(view, JoinView)
    assert view.footer == "The CPU joins in 3 seconds"


def playing(best_of: int = 1, seed: int = 2) -> Flow:
    """Two people playing the first game of a best-of-``best_of`` match."""
    flow = Flow(FlowSettings(rules=Rules(best_of=best_of)), seed, T0)
    flow.press(0, T0)
    flow.press(1, T0)
    assert flow.match is not None
    flow.update(flow.match.start_abs_ns)
    assert flow.phase is Phase.PLAY
    return flow


def table_at(flow: Flow, match_ns: int, language: str = "en") -> TableView:
    assert flow.match is not None
    shows = Presenter(flow, AppSettings(flow=flow.settings), Translator(language))
    view = shows.show(flow.match.start_abs_ns + match_ns, flow.match.state()).view
    assert isinstance(view, TableView)
    return view


def test_the_table_shows_the_cards_left_all_game_and_the_score_in_a_match() -> None:
    single = table_at(playing(1), 5 * S)
    assert [p.cards_left for p in single.players] == ["51 cards left", "51 cards left"]
    assert single.score is None  # a single game has no match score
    match = playing(3)
    match.scores = [1, 0]
    view = table_at(match, 5 * S)
    assert view.score == "Match 1 – 0"
    assert table_at(match, 5 * S, "fi").score == "Ottelu 1 – 0"
    assert [p.cards_left for p in table_at(match, 5 * S, "fi").players] == [
        "51 korttia jäljellä"
    ] * 2


def test_a_race_won_by_a_hair_shows_on_its_pile_for_a_moment() -> None:
    """Player 2's play onto pile 2 beat player 1's by 3.2 ms at 20 s: for 1.5 s of match
    time the pile says who was first and by how much; races of 10 ms or more do not."""
    flow = playing()
    assert flow.match is not None
    t = 20 * S
    flow.match.events.extend(
        [
            Played(t - 3_200_000, 1, 2, 1, Card.parse("5S")),
            Rejected(t, 0, 1, 1, RejectReason.BEATEN, 3_200_000),
            LateEdge(t - 5 * S, 0, t, t),  # stamped with its press: not the end of the scan
        ]
    )
    assert table_at(flow, t - MS).races == ()
    moment = (RaceMoment(1, "Player 2 first by 3.2 ms"),)
    assert table_at(flow, t).races == moment
    assert table_at(flow, t + 1499 * MS).races == moment
    assert table_at(flow, t + 1500 * MS).races == ()
    assert table_at(flow, t + 700 * MS, "it").races == (
        RaceMoment(1, "Giocatore 2 più veloce di 3,2 ms"),
    )
    # A race on the other pile shows beside it too; a wider margin is no moment.
    flow.match.events.append(Rejected(t + 100 * MS, 1, 0, 0, RejectReason.BEATEN, 400_000))
    flow.match.events.append(Rejected(t + 200 * MS, 0, 3, 1, RejectReason.BEATEN, 10 * MS))
    assert table_at(flow, t + 300 * MS).races == (
        RaceMoment(0, "Player 1 first by 0.4 ms"),
        RaceMoment(1, "Player 2 first by 3.2 ms"),
    )
    # An exact tie (the tie rule gave the pile to one of them) says so.
    flow.match.events.append(Rejected(t + 400 * MS, 1, 2, 1, RejectReason.BEATEN, 0))
    assert table_at(flow, t + 500 * MS).races[1] == RaceMoment(1, "Tie!")


def test_a_race_against_the_cpu_names_the_cpu() -> None:
    flow = Flow(FlowSettings(join_wait_s=1), 4, T0)
    flow.press(0, T0)
    flow.update(T0 + S)
    assert flow.match is not None and flow.seat_kinds == (Seat.HUMAN, Seat.CPU)
    flow.update(flow.match.start_abs_ns)
    flow.match.events.append(Rejected(3 * S, 0, 0, 0, RejectReason.BEATEN, 1_250_000))
    assert table_at(flow, 3 * S + 100 * MS).races == (RaceMoment(0, "CPU first by 1.2 ms"),)


def game_over_with(race: ClosestRace | None, language: str = "en") -> GameOverView:
    flow = playing()
    assert flow.match is not None
    summary = dataclasses.replace(flow.match.summary(), winner=1, closest_race=race)
    flow.last_summary = summary
    flow.phase = Phase.GAME_OVER
    view = presenter(flow).show(T0 + 60 * S, None).view
    if language != "en":
        shows = Presenter(flow, AppSettings(flow=flow.settings), Translator(language))
        view = shows.show(T0 + 60 * S, None).view
    assert isinstance(view, GameOverView)
    return view


def test_game_over_shows_the_closest_race_with_both_press_times() -> None:
    """Player 2 pressed first at 41.2031 s into the game, player 1 0.8 ms later: each
    panel says how their closest race went and when they pressed."""
    view = game_over_with(ClosestRace(margin_ns=800_000, winner=1, t_ns=41_203_100_000, pile=0))
    p1, p2 = (list(p.lines) for p in view.players)
    assert p1[-2:] == ["Closest race lost by 0.8 ms", "Pressed at 41.2039 s"]
    assert p2[-2:] == ["Closest race won by 0.8 ms", "Pressed at 41.2031 s"]
    nl = game_over_with(ClosestRace(800_000, 1, 41_203_100_000, 0), "nl")
    assert list(nl.players[0].lines[-2:]) == [
        "Spannendste race verloren met 0,8 ms",
        "Gedrukt op 41,2039 s",
    ]
    tie = game_over_with(ClosestRace(margin_ns=0, winner=0, t_ns=7_000_000_000, pile=None))
    for panel in tie.players:
        assert list(panel.lines[-2:]) == ["Closest race: an exact tie", "Pressed at 7.0000 s"]
    none = game_over_with(None)
    assert not any("race" in line or "Pressed" in line for p in none.players for line in p.lines)


def test_the_strip_and_the_led_board_show_the_same_lights_all_game() -> None:
    """The one rule, applied in each process: the table's LED state for the context the
    presenter sends it equals the on-screen strip's, frame by frame, from join to the
    end (countdown, "spit!", hints, stuck players, the winner)."""
    from cabinet.table.lights import lights_state

    flow = Flow(FlowSettings(join_wait_s=1), 9, T0)
    shows = presenter(flow, hints=True)
    flow.press(0, T0)
    now, compared, seen = T0, 0, set()
    while flow.phase is not Phase.ATTRACT or now < T0 + 2 * S:
        now += 50 * MS
        flow.update(now)
        match = flow.match
        if match is None or flow.phase not in (Phase.READY, Phase.PLAY, Phase.GAME_OVER):
            continue
        if flow.phase is Phase.PLAY and now % (300 * MS) < 50 * MS:  # player 1 plays too
            moves = match.game.legal_plays(0)
            if moves:
                for k, button in enumerate((Button.slot(moves[0][0]), Button.pile(moves[0][1]))):
                    for kind, at in (
                        (EdgeKind.PRESS, now + k * MS),
                        (EdgeKind.RELEASE, now + 20 * MS),
                    ):
                        match.take(Edge(0, button, kind, at), at)
        state = match.state()
        shown = shows.show(now, state)
        assert shown.table_lights is not None
        assert lights_state(shown.table_lights, match, now, state) == shown.lights, now
        compared += 1
        seen.add(shown.lights)
        if now > T0 + 600 * S:
            break
    assert compared > 100 and len(seen) > 5
