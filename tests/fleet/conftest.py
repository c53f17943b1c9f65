"""A fleet on loopback for each test: its own database in a PostgreSQL cluster the test
file shares, its own broker (not started until the test says) and its own ingest."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest

from fleet import cli
from tests.fleet.cabinets import Cabinet
from tests.fleet.events import fresh_database
from tests.fleet.services import Broker, IngestProcess, Postgres, free_port, init_fleet
from tests.fleet.waiting import Listen

_names = itertools.count()


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    cluster = Postgres()
    try:
        yield cluster
    finally:
        cluster.close()


@dataclass
class Route:
    """A fleet: its folder, database, broker and ingest, and the cabinets added to it."""

    folder: Path
    database: str
    port: int
    broker: Broker
    ingest: IngestProcess
    root: Path
    cabinets: list[Cabinet] = field(default_factory=list)

    def add_cabinet(self, name: str, location: str = "The Anchor") -> Path:
        out = self.root / f"{name}.join.json"
        assert (
            cli.main(
                [
                    "add-cabinet",
                    name,
                    "--location",
                    location,
                    "--dir",
                    str(self.folder),
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        return out

    def cabinet(self, name: str, location: str = "The Anchor") -> Cabinet:
        cabinet = Cabinet(self.root / name, self.add_cabinet(name, location))
        self.cabinets.append(cabinet)
        return cabinet

    @property
    def ingested(self) -> Listen:
        """What ingest writes to the database, as a wait's source."""
        return Listen(self.database)

    def db(self) -> psycopg.Connection[Any]:
        return psycopg.connect(self.database)

    def stored(self, cabinet: str, kind: str | None = None) -> int:
        with self.db() as conn:
            if kind is None:
                row = conn.execute("SELECT count(*) FROM events WHERE cabinet = %s", (cabinet,))
            else:
                row = conn.execute(
                    "SELECT count(*) FROM events WHERE cabinet = %s AND kind = %s", (cabinet, kind)
                )
            return int(row.fetchone()[0])  # type: ignore[index]


@pytest.fixture
def route(postgres: Postgres, tmp_path: Path) -> Iterator[Route]:
    database = postgres.new_database(f"fleet_{os.getpid()}_{next(_names)}")
    port = free_port()
    folder = tmp_path / "fleet"
    init_fleet(folder, database, port)
    fleet = Route(folder, database, port, Broker(folder, port), IngestProcess(folder), tmp_path)
    try:
        yield fleet
    finally:
        for cabinet in fleet.cabinets:
            cabinet.close()
        fleet.ingest.stop()
        fleet.broker.stop()


@pytest.fixture(scope="module")
def db(postgres: Postgres) -> Iterator[psycopg.Connection[Any]]:
    """A database of the module's own, its schema made: each test empties it first
    (:func:`tests.fleet.events.empty`)."""
    yield from fresh_database(postgres)
