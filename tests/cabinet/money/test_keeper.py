"""The money keeper over a real database: each coin committed before it is credited, the
meter owed across restarts, the lockout, the menu's pending coins, and the invariants
and audits under any sequence of coins, games, menu visits and restarts."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cabinet.inputs.controls import COIN1, COIN2, SERVICE, TEST
from cabinet.inputs.debounce import OperatorEdge
from cabinet.money.keeper import MoneyKeeper, MoneyStep
from cabinet.money.ledger import Ledger
from cabinet.money.outputs import NoLines
from cabinet.storage.audits import MoneyCounts
from cabinet.storage.database import Database
from cabinet.storage.paths import database_path
from cabinet.storage.pricing_settings import (
    BONUS_CREDITS,
    BONUS_UNITS,
    COIN2_UNITS,
    FREE_PLAY,
    MAX_CREDITS,
    UNITS_PER_CREDIT,
)
from cabinet.storage.problems import StorageError
from cabinet.storage.store import CabinetStore
from game.units import MS

T = 10**12


class Lines(NoLines):
    """The meter and lockout lines, remembering every change."""

    def __init__(self) -> None:
        super().__init__()
        self.meter_changes: list[bool] = []

    def meter(self, on: bool) -> None:
        super().meter(on)
        self.meter_changes.append(on)


def paid(store: CabinetStore, **values: object) -> CabinetStore:
    store.settings.set(FREE_PLAY, False)
    for name, value in values.items():
        store.settings.set(name, value)
    store.save_settings()
    return store


def coin(keeper: MoneyKeeper, t: int, *, mech: int = 1, length_ms: int = 60) -> int:
    """A coin pulse through the keeper's batch path; returns the time after it."""
    line = COIN1 if mech == 1 else COIN2
    rest = keeper.take([OperatorEdge(line, True, t), OperatorEdge(line, False, t + length_ms * MS)])
    assert rest == []
    return t + (length_ms + 10) * MS


def stored_ledger(data: Path) -> Ledger:
    """The ledger as another reader of the file finds it (the committed state)."""
    with sqlite3.connect(f"file:{database_path(data)}?mode=ro", uri=True) as conn:
        return Ledger.from_rows(dict(conn.execute("SELECT name, value FROM money").fetchall()))


def committed(store: CabinetStore) -> Ledger:
    """The ledger ``store`` last committed (what a restart reads back)."""
    return Ledger.from_rows(store.money)


def audits_agree(store: CabinetStore) -> None:
    """The lifetime money audits agree with the ledger."""
    ledger, life = committed(store), store.audits.money.lifetime
    assert (life.coins1, life.coins2) == (ledger.coins1, ledger.coins2)
    assert life.coin_units == ledger.units_in
    assert life.paid_credits == ledger.credits_paid
    assert life.bonus_credits == ledger.credits_bonus
    assert life.service_credits == ledger.credits_service
    assert life.credits_spent == ledger.credits_spent
    assert life.credits_cleared == ledger.credits_cleared
    assert life.coin_errors1 + life.coin_errors2 == ledger.coin_errors


def test_a_coin_is_committed_before_it_is_credited(
    open_store: Callable[[], CabinetStore], data_dir: Path
) -> None:
    store = paid(open_store())
    seen: dict[str, tuple[int, int]] = {}

    def checkpoint(step: MoneyStep) -> None:
        seen[step.value] = (stored_ledger(data_dir).credits, keeper.credits)

    keeper = MoneyKeeper(store, lines=Lines(), checkpoint=checkpoint)
    coin(keeper, T)
    assert seen["coin-seen"] == (0, 0)  # nothing in the file, nothing shown
    assert seen["coin-committed"] == (1, 1)  # in the file first, then shown
    assert keeper.credits_text() == "1"
    assert store.audits.money.current.earnings_cents == 100


def test_meter_pulses_owed_at_a_restart_are_given_after_it(
    open_store: Callable[[], CabinetStore],
) -> None:
    store = paid(open_store(), **{COIN2_UNITS.name: 3})
    keeper = MoneyKeeper(store, lines=Lines())
    coin(keeper, T, mech=2)
    assert committed(store).meter_owed == 3
    keeper.tick(T + 100 * MS)  # the first pulse starts... and the power goes
    store.close()

    again = open_store()
    lines = Lines()
    keeper = MoneyKeeper(again, lines=lines)
    assert keeper.meter.waiting == 3  # the interrupted pulse is given again, whole
    t = T
    while keeper.ledger.meter_owed:
        t += 10 * MS
        keeper.tick(t)
    assert lines.meter_changes == [True, False] * 3
    assert committed(again).meter_done == 3
    assert stored_ledger_of(again).meter_owed == 0


def stored_ledger_of(store: CabinetStore) -> Ledger:
    assert store.path is not None
    return stored_ledger(store.path.parent)


def test_the_lockout_lets_coins_in_only_when_they_can_be_kept(
    open_store: Callable[[], CabinetStore],
) -> None:
    store = open_store()
    lines = Lines()
    keeper = MoneyKeeper(store, lines=lines)
    assert not lines.accepting  # free play: the mechanisms are locked out
    paid(store, **{MAX_CREDITS.name: 2})
    keeper.menu_closed(store.settings)
    assert lines.accepting
    t = coin(keeper, T)
    t = coin(keeper, t)
    assert (keeper.credits, lines.accepting) == (2, False)  # at the maximum
    t = coin(keeper, t)  # one more slips through: it is credited all the same
    assert keeper.credits == 3
    assert keeper.pay(1, False)
    assert keeper.pay(1, False)
    assert lines.accepting  # below the maximum again


def test_coins_in_a_database_that_cannot_be_saved_are_locked_out(tmp_path: Path) -> None:
    import sqlite3 as sql

    from cabinet.storage.database import migrate

    conn = sql.connect(":memory:", isolation_level=None)
    migrate(conn)
    store = paid(CabinetStore(Database(conn, None)))
    lines = Lines()
    MoneyKeeper(store, lines=lines)
    assert not store.saving and not lines.accepting


def test_a_failed_commit_still_credits_the_coin_and_locks_out(
    open_store: Callable[[], CabinetStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = paid(open_store())
    lines = Lines()
    keeper = MoneyKeeper(store, lines=lines)
    assert lines.accepting

    def full(
        counts: Mapping[str, int],
        counted: MoneyCounts | None = None,
        fault: Mapping[str, object] | None = None,
    ) -> None:
        raise StorageError("database or disk is full")

    monkeypatch.setattr(store, "commit_money", full)
    coin(keeper, T)
    assert keeper.credits == 1 and keeper.failed
    assert not lines.accepting


def test_coins_during_the_menu_are_credited_when_it_closes_at_its_prices(
    open_store: Callable[[], CabinetStore],
) -> None:
    store = paid(open_store())
    keeper = MoneyKeeper(store, lines=Lines())
    keeper.menu_opened()
    t = coin(keeper, T)
    t = coin(keeper, t)
    # SERVICE in the menu moves the menu: it gives no credit, and is passed on
    assert keeper.take([OperatorEdge(SERVICE, True, t)]) == [OperatorEdge(SERVICE, True, t)]
    assert (keeper.credits, committed(store).units_pending) == (0, 2)
    assert stored_ledger_of(store).units_pending == 2  # counted at once
    store.settings.set(UNITS_PER_CREDIT, 2)
    keeper.menu_closed(store.settings)
    assert (keeper.credits, committed(store).units_pending) == (1, 0)
    assert keeper.take([OperatorEdge(SERVICE, True, t)]) == []  # a service credit now
    assert keeper.credits == 2 and committed(store).credits_service == 1
    audits_agree(store)


def test_other_edges_pass_through_in_order(open_store: Callable[[], CabinetStore]) -> None:
    keeper = MoneyKeeper(paid(open_store()), lines=Lines())
    batch = [OperatorEdge(TEST, True, T), OperatorEdge(COIN1, True, T + 1)]
    assert keeper.take(batch) == [OperatorEdge(TEST, True, T)]


def test_a_game_is_paid_when_it_starts(open_store: Callable[[], CabinetStore]) -> None:
    store = paid(open_store())
    keeper = MoneyKeeper(store, lines=Lines())
    assert not keeper.may_start(1, True)
    assert not keeper.pay(1, True)
    coin(keeper, T)
    assert keeper.may_start(1, True) and not keeper.may_start(2, False)
    assert keeper.pay(1, True)
    assert keeper.credits == 0
    assert (store.audits.money.current.paid_games, store.audits.money.current.free_play_games) == (
        1,
        0,
    )
    store.settings.set(FREE_PLAY, True)
    keeper.menu_closed(store.settings)
    assert keeper.pay(2, False)
    assert store.audits.money.current.free_play_games == 1


EVENTS = st.lists(
    st.one_of(
        st.tuples(st.just("coin"), st.sampled_from((1, 2)), st.integers(5, 400)),
        st.tuples(st.just("service")),
        st.tuples(st.just("pay"), st.integers(1, 2), st.booleans()),
        st.tuples(st.just("menu"), st.integers(1, 3), st.integers(0, 4), st.booleans()),
        st.tuples(st.just("clear")),
        st.tuples(st.just("meter_test")),
        st.tuples(st.just("time"), st.integers(1, 400)),
        st.tuples(st.just("restart")),
    ),
    max_size=40,
)


@dataclasses.dataclass
class MoneyRun:
    """The cabinet a sequence of events drives: its store in ``data`` and keeper (both new
    after a restart), the clock reading and the good coins put in so far."""

    data: Path
    store: CabinetStore
    keeper: MoneyKeeper
    t: int = T
    coins_in: int = 0

    def take(self, event: tuple[object, ...]) -> None:
        """One of :data:`EVENTS`."""
        kind = event[0]
        if kind == "coin":
            self.coin(event[1], event[2])
        elif kind == "service":
            self.keeper.service_credit()
        elif kind == "pay":
            self.pay(event[1], event[2])
        elif kind == "menu":
            self.menu_visit(event[1], event[2], event[3])
        elif kind == "clear":
            self.keeper.clear_credits()
        elif kind == "meter_test":
            self.keeper.meter_test()
        elif kind == "time":
            self.wait(event[1])
        else:  # a restart: what the file holds is all there is
            self.restart()

    def coin(self, mech: object, length: object) -> None:
        """A pulse on coin line ``mech``, ``length`` ms long: counted if it is a coin's."""
        assert isinstance(mech, int) and isinstance(length, int)
        store = self.store
        before = committed(store).coins1 + committed(store).coins2
        self.t = coin(self.keeper, self.t, mech=mech, length_ms=length)
        valid = 20 <= length <= 150
        assert committed(store).coins1 + committed(store).coins2 == before + valid
        self.coins_in += valid

    def pay(self, humans: object, cpu: object) -> None:
        """A game for ``humans`` (and the CPU): paid exactly when the credits cover it."""
        assert isinstance(humans, int) and isinstance(cpu, bool)
        credits = self.keeper.credits
        cost = self.keeper.cost(humans, cpu)
        assert self.keeper.pay(humans, cpu) == (cost <= credits)

    def menu_visit(self, per_credit: object, max_units: object, free: object) -> None:
        """The menu opened, a coin put in while it is, new prices saved, the menu closed."""
        keeper, store = self.keeper, self.store
        keeper.menu_opened()
        self.t = coin(keeper, self.t)  # a coin while the menu is open
        self.coins_in += 1
        store.settings.set(UNITS_PER_CREDIT, per_credit)
        store.settings.set(BONUS_UNITS, max_units)
        store.settings.set(FREE_PLAY, free)
        store.save()
        keeper.menu_closed(store.settings)
        assert committed(store).units_pending == 0

    def wait(self, span: object) -> None:
        """``span`` ms pass, ticked every 10 ms."""
        assert isinstance(span, int)
        for _ in range(span // 10):
            self.t += 10 * MS
            self.keeper.tick(self.t)

    def restart(self) -> None:
        """The store closed and opened again, with a new keeper: nothing committed lost."""
        shown = committed(self.store)
        self.store.close()
        self.store = CabinetStore.open(self.data)
        assert committed(self.store) == shown
        self.keeper = MoneyKeeper(self.store, lines=Lines())


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(events=EVENTS)
def test_any_sequence_keeps_the_invariants_and_the_audits_agree(
    tmp_path_factory: pytest.TempPathFactory, events: list[tuple[object, ...]]
) -> None:
    """Valid and invalid pulses, service credits, games, menu visits (with new prices),
    clears, meter tests and restarts: after each, the ledger's invariants hold, the
    audits agree with it, and the file holds what the keeper shows."""
    data = tmp_path_factory.mktemp("money")
    store = paid(CabinetStore.open(data), **{BONUS_UNITS.name: 3, BONUS_CREDITS.name: 1})
    run = MoneyRun(data, store, MoneyKeeper(store, lines=Lines()))
    try:
        for event in events:
            run.take(event)
            store = run.store
            committed(store).check()
            audits_agree(store)
            assert committed(store).coins1 + committed(store).coins2 == run.coins_in
            assert stored_ledger(data) == committed(store)
    finally:
        run.store.close()


def test_a_coin_line_held_low_is_a_fault_for_the_fleet_in_its_transaction(tmp_path: Path) -> None:
    from cabinet.link import membership
    from cabinet.storage.outbox import pending
    from fleet.join_file import Join

    store = paid(CabinetStore.open(tmp_path))
    with store.db.transaction() as conn:
        membership.join(conn, Join("Route", "bar-1", "Bar", "localhost", 8883, "pw", "ca"))
    keeper = MoneyKeeper(store)
    assert keeper.take([OperatorEdge(COIN2, True, T)]) == []
    keeper.tick(T + 2_000 * MS)  # far longer than any coin: the line is held low
    rows = [(r.kind, r.body) for r in pending(store.db.connection, 0, 100)]
    faults = [body for kind, body in rows if kind == "fault"]
    assert faults == [{"fault": "coin_line_held_low", "state": "raised", "mech": 2}]
    money = [body for kind, body in rows if kind == "money"]
    assert money[-1]["counted"] == {"coin_errors2": 1}
    store.close()
