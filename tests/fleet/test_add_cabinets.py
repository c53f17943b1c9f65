"""``spit-fleet add-cabinet`` and ``add-cabinets`` on a real database, the real
``mosquitto_passwd`` and (where a cabinet connects) the real broker: a file of cabinets
is checked whole before anything is added, each bad row named by its line; the join
files are written as ``add-cabinet`` writes them and the broker lets every cabinet in;
and adding one cabinet writes as many bytes with 400 cabinets in the fleet as with none
(it used to rewrite the password file and the ACL with every cabinet)."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import pytest

from fleet import broker, cli
from fleet.broker import FleetConfig
from fleet.cabinet_file import CabinetRow
from fleet.cabinets import add_cabinet, add_cabinets
from fleet.join_file import read_join
from tests.fleet.conftest import Route
from tests.fleet.services import running
from tests.fleet.uplink import Uplink
from tests.fleet.waiting import Said, wait_for


def _csv(path: Path, rows: list[str], header: str = "name,location") -> Path:
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def _names(route: Route) -> list[str]:
    with route.db() as conn:
        return [str(r[0]) for r in conn.execute("SELECT name FROM cabinets ORDER BY name")]


def _broker_users(route: Route) -> list[str]:
    """The password file's users, in its order, each line once."""
    lines = (route.folder / "passwd").read_text().splitlines()
    return [line.split(":", 1)[0] for line in lines]


def _connects(route: Route, join_file: Path) -> bool:
    uplink = Uplink(join_file, route.port)
    seen = Said()
    uplink.client.on_connect = lambda c, u, f, reason, p: seen.__setitem__("c", str(reason))
    with uplink:
        wait_for("the broker's answer", lambda: "c" in seen, seen.changes, timeout_s=10)
    return seen["c"] == "Success"


def test_a_file_of_cabinets_is_added_with_its_join_files(
    route: Route, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [f"pub-{n:03d},Venue {n % 3}" for n in range(150)]
    rows[7] = 'pub-007,"Cinema Nova, upstairs"'
    listing = _csv(tmp_path / "route.csv", rows)
    out = tmp_path / "stick"
    code = cli.main(
        ["add-cabinets", str(listing), "--out-dir", str(out), "--dir", str(route.folder)]
    )
    assert code == 0
    said = capsys.readouterr().out
    assert "join files written: 100 of 150" in said and "join files written: 150 of 150" in said
    assert "150 cabinet(s) added" in said
    assert _names(route) == [f"pub-{n:03d}" for n in range(150)]
    assert _broker_users(route) == ["ingest", *(f"pub-{n:03d}" for n in range(150))]
    acl = (route.folder / "acl").read_text()
    assert acl.count("\nuser pub-") == 150 and "\nuser pub-149\ntopic read spit/down/all/#\n" in acl
    join_file = out / "pub-007.json"
    assert stat.S_IMODE(join_file.stat().st_mode) == 0o600
    join = read_join(join_file)
    assert (join.cabinet, join.location, join.fleet) == (
        "pub-007",
        "Cinema Nova, upstairs",
        "Test Route",
    )
    with route.db() as conn:
        locations = {str(r[0]) for r in conn.execute("SELECT name FROM locations")}
    assert locations == {"Venue 0", "Venue 1", "Venue 2", "Cinema Nova, upstairs"}
    with running(route.broker):
        assert _connects(route, join_file)
        assert _connects(route, out / "pub-149.json")


def test_a_bad_row_adds_nothing_and_each_is_named_by_its_line(
    route: Route, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    route.add_cabinet("bar-1")
    passwd, acl = (route.folder / "passwd").read_bytes(), (route.folder / "acl").read_bytes()
    capsys.readouterr()
    listing = _csv(
        tmp_path / "route.csv",
        [
            "pub-1,The Anchor",
            "Pub 2,The Anchor",
            "pub-3,",
            "pub-1,Arcade",
            "ingest,Arcade",
            "pub-6,Arcade,extra",
            "pub-7," + "x" * 201,
        ],
    )
    code = cli.main(["add-cabinets", str(listing), "--dir", str(route.folder)])
    assert code == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == [
        f"{listing}, line 3: 'Pub 2' is not a cabinet id (lower-case letters, digits and "
        "inner hyphens, at most 40)",
        f"{listing}, line 4: pub-3: the location is empty",
        f"{listing}, line 5: pub-1 is on line 2 already",
        f"{listing}, line 6: 'ingest' is ingest's own name; choose another",
        f"{listing}, line 7: 3 fields, not 2 as the header's",
        f"{listing}, line 8: pub-7: the location is longer than 200 characters",
    ]
    assert err[-1] == "spit-fleet: 6 problem(s): no cabinet added"
    # Rows good in themselves, but one cabinet is in the fleet already.
    listing = _csv(tmp_path / "again.csv", ["pub-1,The Anchor", "bar-1,Arcade"])
    assert cli.main(["add-cabinets", str(listing), "--dir", str(route.folder)]) == 1
    assert capsys.readouterr().err.splitlines()[0] == (
        f"{listing}, line 3: bar-1 is in the fleet already: spit-fleet add-cabinet bar-1 "
        "gives it a new join file"
    )
    assert _csv(tmp_path / "h.csv", ["pub-1,The Anchor"], header="cabinet,venue").exists()
    assert cli.main(["add-cabinets", str(tmp_path / "h.csv"), "--dir", str(route.folder)]) == 1
    assert "line 1: the header row names the columns name, location" in capsys.readouterr().err
    assert _names(route) == ["bar-1"]
    assert (route.folder / "passwd").read_bytes() == passwd
    assert (route.folder / "acl").read_bytes() == acl
    assert sorted(p.name for p in (route.folder / "joins").iterdir()) == []


def test_a_cabinet_added_again_or_let_back_in_keeps_one_line(route: Route) -> None:
    """The rare case takes the old way: its password replaced, never a second line."""
    first = read_join(route.add_cabinet("bar-1"))
    second_file = route.root / "bar-1.second.json"
    second_file.write_text(route.add_cabinet("bar-1", "Arcade").read_text())
    assert read_join(second_file).password != first.password
    assert cli.main(["revoke", "bar-1", "--dir", str(route.folder)]) == 0
    assert _broker_users(route) == ["ingest"]
    third_file = route.add_cabinet("bar-1", "Cinema Nova")
    route.add_cabinet("bar-2")
    assert _broker_users(route) == ["ingest", "bar-1", "bar-2"]
    assert (route.folder / "acl").read_text().count("\nuser bar-1\n") == 1
    with running(route.broker):
        assert _connects(route, third_file)
        assert not _connects(route, second_file)


def _written() -> int:
    """Bytes this process, and its children it has waited for, have written so far
    (``wchar`` of /proc/self/io: every write(2), to any file, whatever reached the disk)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("wchar:"):
            return int(line.split()[1])
    raise AssertionError("/proc/self/io has no wchar")


def _cost_of_adding(route: Route, conn: Any, names: list[str]) -> list[int]:
    config = FleetConfig.load(route.folder)
    costs = []
    for name in names:
        before = _written()
        add_cabinet(route.folder, config, conn, name, "The Anchor")
        costs.append(_written() - before)
    return costs


def test_adding_a_cabinet_costs_the_same_however_many_the_fleet_has(route: Route) -> None:
    config = FleetConfig.load(route.folder)
    with route.db() as conn:
        _cost_of_adding(route, conn, ["warm-up"])  # what a first call loads, loaded
        few = _cost_of_adding(route, conn, [f"early-{n}" for n in range(5)])
        many = [CabinetRow(n, f"bulk-{n:04d}", f"Venue {n}") for n in range(400)]
        add_cabinets(route.folder, config, conn, many, route.root / "joins")
        passwd = (route.folder / "passwd").stat().st_size
        late = _cost_of_adding(route, conn, [f"later-{n}" for n in range(5)])
    assert passwd > 40_000  # rewriting the password file would be this much a cabinet
    assert max(late) <= max(few) + 64, (few, late)
    assert max(late) < 4_000, late
    assert _broker_users(route)[-5:] == [f"later-{n}" for n in range(5)]
    assert broker.users(route.folder) >= {"early-0", "bulk-0399", "later-4"}
