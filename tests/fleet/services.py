"""The real parts the fleet's tests run: a PostgreSQL cluster and a Mosquitto broker of
their own, on loopback, started and stopped (and killed) by the tests, ingest as a
process of its own, and a mail server (aiosmtpd) for the digest. Each start waits for its
part to say it is up (its own output: :class:`tests.fleet.waiting.Output`), with a
deadline."""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import psycopg

from fleet import cli
from tests.fleet.waiting import Changes, Output, wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    candidates = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
    if candidates:
        return str(candidates[-1])
    if found:
        return found
    raise AssertionError(f"PostgreSQL's {name} is not installed (.ci/run installs postgresql)")


class Postgres:
    """A PostgreSQL cluster of its own, on a free loopback port (as the ``postgres``
    user when the tests run as root: PostgreSQL refuses root)."""

    def __init__(self, *, fsync: bool = False) -> None:
        self.fsync = fsync
        # Its own folder under /tmp, which the postgres user can reach (a test's tmp_path
        # is its owner's alone).
        self.folder = Path(tempfile.mkdtemp(prefix="spit-fleet-pg-"))
        self.port = free_port()
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.data = self.folder / "data"
        self._run(
            [
                _pg_bin("initdb"),
                "-D",
                str(self.data),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            ]
        )
        self.start()

    def close(self) -> None:
        with contextlib.suppress(AssertionError):
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, command: list[str]) -> None:
        done = subprocess.run(
            command, capture_output=True, text=True, user=self.user, cwd=self.folder, check=False
        )
        if done.returncode != 0:
            raise AssertionError(f"{command[0]} failed: {done.stderr or done.stdout}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
        if not self.fsync:  # the tests' data is thrown away: no need to wait on the disk
            options += " -c fsync=off"
        self._run(
            [
                _pg_bin("pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.folder / "log"),
                "-w",
                "-t",
                "60",
                "start",
            ]
        )

    def stop(self, mode: str = "fast") -> None:
        self._run([_pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop"])

    def conninfo(self, dbname: str = "postgres") -> str:
        return f"host=127.0.0.1 port={self.port} user=postgres dbname={dbname} connect_timeout=5"

    def new_database(self, name: str) -> str:
        with psycopg.connect(self.conninfo(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.conninfo(name)


class Broker:
    """Mosquitto on the fleet's configuration in ``folder``, in the foreground. It says it
    is up (``mosquitto version … running``) at the log level ``information``, which the
    fleet's configuration leaves out: it runs on a copy of it with that level added."""

    def __init__(self, folder: Path, port: int) -> None:
        self.folder = folder
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.output: Output | None = None
        self.log = folder / "broker.log"

    def start(self) -> None:
        config = self.folder / "mosquitto.tests.conf"
        config.write_text((self.folder / "mosquitto.conf").read_text() + "log_type information\n")
        self.process = subprocess.Popen(
            ["mosquitto", "-c", str(config)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        assert self.process.stdout is not None
        self.output = Output(self.process.stdout, self.log)
        _come_up(self, "the broker to listen", self._running, self.output.changes, 15)

    def _running(self) -> bool:
        assert self.output is not None
        if self.output.ended:
            raise AssertionError(f"mosquitto exited: {self.log.read_text()[-2000:]}")
        return re.search(r"mosquitto version \S+ running", self.output.text()) is not None

    def signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def kill(self) -> None:
        assert self.process is not None and self.output is not None
        self.process.kill()
        self.process.wait()
        self.output.join()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            _end(self.process)
        if self.output is not None:
            self.output.join()


class IngestProcess:
    """``spit-fleet ingest`` as a process of its own, given ``up_within_s`` to subscribe."""

    def __init__(self, folder: Path, *module: str, up_within_s: float = 30.0) -> None:
        self.folder = folder
        self.module = module or ("fleet.cli", "ingest", "--dir", str(folder))
        self.up_within_s = up_within_s
        self.process: subprocess.Popen[bytes] | None = None
        self.output: Output | None = None
        self.log = folder / "ingest.log"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", *self.module],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self.process.stdout is not None
        self.output = Output(self.process.stdout, self.log)
        _come_up(
            self, "ingest to subscribe", self._subscribed, self.output.changes, self.up_within_s
        )

    def _subscribed(self) -> bool:
        assert self.output is not None
        if self.output.ended:
            raise AssertionError(f"ingest exited: {self.log.read_text()[-3000:]}")
        return "subscribed" in self.output.text()

    def wait(self, timeout_s: float) -> None:
        """Wait for the process to end by itself (its log then whole)."""
        assert self.process is not None and self.output is not None
        self.process.wait(timeout_s)
        self.output.join()

    def kill(self) -> None:
        assert self.process is not None and self.output is not None
        self.process.kill()
        self.wait(10)
        self.set_log_aside()

    def set_log_aside(self) -> None:
        """The log starts again (a test reading the next start's log reads its own)."""
        self.log.rename(self.log.with_suffix(f".{time.monotonic_ns()}.log"))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            _end(self.process)
        if self.output is not None:
            self.output.join()


def _end(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _come_up(
    part: Broker | IngestProcess,
    what: str,
    up: Callable[[], bool],
    output: Changes,
    within_s: float,
) -> None:
    """Wait for ``part`` to say it is up; stop it if it does not."""
    try:
        wait_for(what, up, output, timeout_s=within_s)
    except BaseException:
        part.stop()
        raise


def init_fleet(folder: Path, database: str, port: int) -> None:
    """``spit-fleet init`` for a fleet on loopback."""
    code = cli.main(
        [
            "init",
            "--dir",
            str(folder),
            "--name",
            "Test Route",
            "--host",
            "localhost",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--database",
            database,
            "--broker-user",
            "root" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name,
        ]
    )
    assert code == 0


@contextlib.contextmanager
def running(*parts: Broker | IngestProcess) -> Iterator[None]:
    """Start ``parts`` in order; stop them in reverse, whatever happens."""
    started: list[Broker | IngestProcess] = []
    try:
        for part in parts:
            part.start()
            started.append(part)
        yield
    finally:
        for part in reversed(started):
            part.stop()


class Inbox:
    """What the mail server received: each mail with its envelope's recipients, each a
    change (:attr:`changes`, said on the server's thread)."""

    def __init__(self) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.changes = Changes()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.mails.append((list(envelope.rcpt_tos), message))
        self.changes.note()
        return "250 OK"


@contextlib.contextmanager
def mail_server() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) on a free loopback port: its inbox, and the port."""
    from aiosmtpd.controller import Controller

    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()
