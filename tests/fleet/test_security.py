"""Security on the real broker: a cabinet writes only as itself, a revoked one is shut
out, plain TCP gets nowhere, the cabinet listens on no port, and a cabinet with no fleet
opens no connection at all."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode, MQTTProtocolVersion

from cabinet.link.sender import Sender
from cabinet.link.status import read_status
from cabinet.storage.outbox import pending
from fleet import cli
from fleet.join_file import read_join
from fleet.wire import Batch, Event, batch_topic
from tests.fleet.cabinets import Cabinet, fast
from tests.fleet.conftest import Route
from tests.fleet.services import ROOT, running
from tests.fleet.sockets import LISTEN, inet_sockets, process_tree
from tests.fleet.waiting import Output, Said, wait_for

EPOCH = "0123456789abcdef"


def _client(route: Route, name: str, *, tls: bool = True) -> tuple[mqtt.Client, Said]:
    """An MQTT v5 client with ``name``'s credentials, connected (or refused), and what its
    callbacks said: the CONNACK's reason, each PUBACK's by message id."""
    join = read_join(route.root / f"{name}.join.json")
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2, client_id=name, protocol=MQTTProtocolVersion.MQTTv5
    )
    client.username_pw_set(name, join.password)
    if tls:
        client.tls_set_context(join.tls_context())
    seen = Said()
    client.on_connect = lambda c, u, f, reason, p: seen.__setitem__("connect", str(reason))
    client.on_publish = lambda c, u, mid, reason, p: seen.__setitem__(str(mid), str(reason))
    return client, seen


def _door(seq: int, name: str) -> bytes:
    event = Event(seq, "door", "2026-12-02T10:00:00Z", True, {"state": "open"})
    return Batch(name, EPOCH, seq, seq, (event,)).dumps()


def test_one_cabinet_cannot_publish_as_another(route: Route) -> None:
    route.add_cabinet("bar-1")
    route.add_cabinet("bar-2")
    with running(route.broker, route.ingest):
        client, seen = _client(route, "bar-1")
        client.connect("localhost", route.port)
        client.loop_start()
        try:
            wait_for("the connection", lambda: seen.get("connect") == "Success", seen.changes)
            # On bar-2's topic: the broker refuses it (PUBACK 0x87).
            theirs = client.publish(batch_topic("bar-2"), _door(1, "bar-2"), qos=1)
            wait_for("the refusal", lambda: str(theirs.mid) in seen, seen.changes)
            assert seen[str(theirs.mid)] == "Not authorized"
            # On its own topic, claiming to be bar-2: ingest refuses it.
            claim = client.publish(batch_topic("bar-1"), _door(1, "bar-2"), qos=1)
            wait_for("the broker's PUBACK", lambda: str(claim.mid) in seen, seen.changes)
            wait_for("ingest's refusal", lambda: _refused(route) == 1, route.ingested)
        finally:
            client.loop_stop()
            client.disconnect()
    assert route.stored("bar-2") == 0 and route.stored("bar-1") == 0
    assert "says it is from bar-2" in route.ingest.log.read_text()


def _refused(route: Route) -> int:
    with route.db() as conn:
        row = conn.execute("SELECT count(*) FROM refused").fetchone()
    assert row is not None
    return int(row[0])


def test_a_revoked_cabinet_is_shut_out(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    with running(route.broker, route.ingest):
        sender = cabinet.sender()
        sender.start()
        try:
            cabinet.coin()
            wait_for("the coin through", lambda: cabinet.queued() == 0, cabinet.changes)
            assert cli.main(["revoke", "bar-1", "--dir", str(route.folder)]) == 0
            wait_for("the broker to let it go", lambda: not sender.connected, cabinet.changes)
            cabinet.coin()
            status = lambda: read_status(cabinet.store.db.connection)  # noqa: E731
            wait_for(
                "a refusal",
                lambda: "refused" in status().error or "no answer" in status().error,
                cabinet.changes,
            )
            assert not sender.connected
            # Kept on the cabinet (with the audits it changed): the truth stays there.
            kinds = [r.kind for r in pending(cabinet.store.db.connection, 0, 100)]
            assert sorted(kinds) == ["audits", "money"]
        finally:
            sender.stop()
        client, seen = _client(route, "bar-1")
        client.connect("localhost", route.port)
        for _ in range(100):
            if "connect" in seen or client.loop(0.05) is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                break
        assert seen.get("connect", "Not authorized") == "Not authorized"
    assert route.stored("bar-1", "money") == 1


def test_a_plain_tcp_connection_gets_nowhere(route: Route) -> None:
    route.add_cabinet("bar-1")
    with running(route.broker):
        client, seen = _client(route, "bar-1", tls=False)
        client.connect("localhost", route.port)
        for _ in range(40):
            if client.loop(0.05) is not MQTTErrorCode.MQTT_ERR_SUCCESS:
                break
        assert "connect" not in seen  # no CONNACK: the listener speaks TLS only
        # And nothing else listens: the only port the broker opened is the TLS one.
        assert route.broker.process is not None
        ports = {s.local_port for s in inet_sockets(route.broker.process.pid) if s.state == LISTEN}
        assert ports == {route.port}


def _run_cabinet(data_dir: Path, seconds: float) -> tuple[subprocess.Popen[bytes], Output]:
    """``spit-cabinet run`` on ``data_dir`` for ``seconds``, and its log (standard error,
    kept in ``cabinet.log`` beside the data)."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cabinet",
            "run",
            "--input",
            "mock",
            "--lights",
            "none",
            "--seconds",
            str(seconds),
            "--data-dir",
            str(data_dir),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    return process, Output(process.stderr, data_dir.parent / "cabinet.log")


def _end(process: subprocess.Popen[bytes], output: Output) -> str:
    """Stop the cabinet; everything it logged."""
    process.terminate()
    process.wait(30)
    output.join()
    return output.text()


def test_the_cabinet_listens_on_no_port_and_connects_out_only(route: Route) -> None:
    cabinet = route.cabinet("bar-1")
    cabinet.close()
    route.cabinets.remove(cabinet)
    with running(route.broker, route.ingest):
        process, output = _run_cabinet(cabinet.data_dir, 60)
        try:
            wait_for(
                "its presence", lambda: _presence(route) == "online", route.ingested, timeout_s=60
            )
            sockets = [s for pid in process_tree(process.pid) for s in inet_sockets(pid)]
            assert not [s for s in sockets if s.state == LISTEN or s.table.startswith("udp")]
            # Out to the broker, and paho's own wake-up pair: two loopback sockets
            # connected to each other inside the process (its listener closed at once).
            own = {s.local_port for s in sockets}
            outward = {s.remote_port for s in sockets} - own
            assert outward == {route.port}
            assert any(s.remote_port == route.port for s in sockets)
        finally:
            err = _end(process, output)
        assert "fleet link: connected" in err and "Traceback" not in err
        wait_for("its presence", lambda: _presence(route) == "offline", route.ingested)


def _presence(route: Route) -> str | None:
    with route.db() as conn:
        row = conn.execute("SELECT state FROM presence WHERE cabinet = 'bar-1'").fetchone()
    return None if row is None else str(row[0])


def test_a_cabinet_with_no_fleet_makes_no_connection(tmp_path: Path) -> None:
    Cabinet(tmp_path / "home", None).close()  # its database, made
    process, output = _run_cabinet(tmp_path / "home", 30)
    try:
        # Running: the display has opened its screen and started the table (it logs it).
        wait_for(
            "the cabinet to run",
            lambda: len(process_tree(process.pid)) > 1,
            output.changes,
            timeout_s=30,
        )
        sockets = [s for pid in process_tree(process.pid) for s in inet_sockets(pid)]
        assert sockets == []
    finally:
        err = _end(process, output)
    assert "fleet link" not in err and "Traceback" not in err
    assert "paho" not in err
    with socket.socket() as s:  # the check above can see a socket: it sees this one
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert any(x.state == LISTEN for x in inet_sockets(os.getpid()))


def test_a_read_only_database_is_said_in_the_presence(route: Route) -> None:
    """The one fault the outbox cannot hold: the link says it in its retained presence."""
    cabinet = route.cabinet("bar-1")
    writable = {"now": True}
    # The SD card remounted read-only, as the kernel does after errors.
    sender = fast(Sender(cabinet.path, version="t", writable=lambda path: writable["now"]))
    with running(route.broker, route.ingest):
        sender.start()
        try:
            wait_for("online", lambda: _presence(route) == "online", route.ingested)
            writable["now"] = False
            wait_for("the fault", lambda: _faults(route) == ["database_read_only"], route.ingested)
            writable["now"] = True
            wait_for("it cleared", lambda: _faults(route) == [], route.ingested)
        finally:
            sender.stop()


def _faults(route: Route) -> list[str] | None:
    with route.db() as conn:
        row = conn.execute("SELECT faults FROM presence WHERE cabinet = 'bar-1'").fetchone()
    return None if row is None else list(row[0])
