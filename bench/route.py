"""The operator's route pages, measured with a year of a 500-cabinet route behind them, and
the route's champions from one cabinet to another on loopback. Prints JSON.

    python bench/route.py [--cabinets 500] [--locations 50] [--days 365] [--requests 40]

It starts its own PostgreSQL (``fsync`` on, as a fleet's server runs it), makes a fleet
folder (``spit-fleet init``), fills the database with :mod:`bench.route_history`, adds an
owner (``spit-fleet account add``) and serves the pages with ``spit-fleet web`` (gunicorn,
its defaults), all on loopback.

- ``route_page_ms``, ``cabinet_page_ms``: the application's own time for the page (its
  ``Server-Timing: app;dur=`` header), signed in as an owner through the login form;
  ``*_wall_ms`` the same requests timed by this client on loopback.
- ``alerts_page_ms``, ``collections_page_ms``, ``cabinet_collections_page_ms``: the
  same for the alerts page, the route's collections and a cabinet's collections.
- ``route_page_kb``: the route page's first load in Chromium with an empty cache: the
  bytes transferred (headers and bodies) of the page and everything it loads.
- ``champions_s``: ``bench/route_champions.py`` (a broker, ingest and two real cabinets),
  on a fleet of the same cabinets with ``--champion-days`` of history;
  ``board_query_year_s``: the champions' board query alone on the year's fleet.
"""

from __future__ import annotations

import argparse
import contextlib
import http.cookiejar
import json
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.machine_info import machine

ROOT = Path(__file__).resolve().parent.parent
OWNER, PASSWORD = "owner", "bench-route-owner-1"


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95 and the extremes of ``values``, in their unit, rounded."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "p50": round(statistics.median(ordered), 1),
        "p95": round(p95, 1),
        "min": round(ordered[0], 1),
        "max": round(ordered[-1], 1),
        "n": len(ordered),
    }


def fleet_command(folder: Path, *args: str, stdin: str = "") -> None:
    done = subprocess.run(
        [sys.executable, "-m", "fleet.cli", *args, "--dir", str(folder)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"spit-fleet {args[0]} failed: {done.stderr or done.stdout}")


class Web:
    """``spit-fleet web`` on a free loopback port, with the command's own two workers (the
    web tests' :class:`tests.web.harness.WebApp`, which waits for it to answer)."""

    def __init__(self, folder: Path) -> None:
        from tests.web.harness import WebApp

        self.app = WebApp(folder)
        self.app.start(workers=2)
        self.url = self.app.url("")

    def stop(self) -> None:
        self.app.stop()


class Client:
    """A signed-in browser's requests, without the browser: cookies, the CSRF token."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def login(self, user: str, password: str) -> None:
        page = self.opener.open(self.base + "/login/", timeout=30).read().decode()
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if found is None:
            raise RuntimeError("the login page has no CSRF token")
        form = {"csrfmiddlewaretoken": found[1], "username": user, "password": password}
        request = urllib.request.Request(
            self.base + "/login/",
            data=urllib.parse.urlencode(form).encode(),
            headers={"Referer": self.base + "/login/"},
        )
        with self.opener.open(request, timeout=30) as response:
            if urllib.parse.urlparse(response.url).path.startswith("/login"):
                raise RuntimeError("the owner's login was refused")

    def timed(self, path: str) -> tuple[float | None, float, int]:
        """``(Server-Timing app ms or None, wall ms, body bytes)`` of one GET."""
        start = time.perf_counter()
        with self.opener.open(self.base + path, timeout=60) as response:
            body = response.read()
            header = response.headers.get("Server-Timing", "")
        wall = (time.perf_counter() - start) * 1000
        found = re.search(r"app;dur=([0-9.]+)", header)
        return (float(found[1]) if found else None), wall, len(body)


def measure(client: Client, paths: list[str], requests: int) -> dict[str, Any]:
    """Each path fetched until ``requests`` in all (after one warm-up each)."""
    for path in paths:
        client.timed(path)
    server: list[float] = []
    wall: list[float] = []
    size = 0
    for i in range(requests):
        app, ms, size = client.timed(paths[i % len(paths)])
        wall.append(ms)
        if app is not None:
            server.append(app)
    return {
        "server": percentiles(server) if server else None,
        "wall": percentiles(wall),
        "html_kb": round(size / 1024, 1),
    }


def page_weight(base: str, path: str) -> dict[str, Any]:
    """The page's first load in Chromium, cache empty: bytes transferred, per response."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium") or None)
        try:
            login = browser.new_context()
            page = login.new_page()
            page.goto(base + "/login/")
            page.fill("input[name=username]", OWNER)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit], input[type=submit]")
            page.wait_for_load_state("load")
            state = login.storage_state()
            login.close()
            fresh = browser.new_context(storage_state=state)  # signed in, nothing cached
            page = fresh.new_page()
            loaded: list[tuple[str, int]] = []

            def finished(request: Any) -> None:
                sizes = request.sizes()
                loaded.append(
                    (request.url, sizes["responseBodySize"] + sizes["responseHeadersSize"])
                )

            page.on("requestfinished", finished)
            page.goto(base + path, wait_until="networkidle")
            if urllib.parse.urlparse(page.url).path != path:
                raise RuntimeError(f"the route page sent Chromium to {page.url}")
            fresh.close()
        finally:
            browser.close()
    return {
        "kb": round(sum(n for _, n in loaded) / 1024, 1),
        "responses": {urllib.parse.urlparse(u).path: n for u, n in loaded},
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    from tests.fleet.services import Postgres

    result: dict[str, Any] = {
        "machine": machine(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "cabinets": args.cabinets,
        "locations": args.locations,
        "days": args.days,
    }
    work = Path(tempfile.mkdtemp(prefix="spit-route-bench-"))
    cluster = Postgres(fsync=True)
    web: Web | None = None
    try:
        database = cluster.new_database("fleet_route")
        folder = work / "fleet"
        year, summaries = _year(args, database, folder)
        result.update(year)
        fleet_command(
            folder, "account", "add", OWNER, "--role", "owner", "--password-stdin",
            "--no-two-factor", stdin=PASSWORD + "\n",
        )  # fmt: skip
        web = Web(folder)
        result.update(_pages(args, web.url))
        web.stop()  # its background work out of the way of the champions
        print(json.dumps(result), file=sys.stderr, flush=True)  # the pages', come what may
        if not args.no_champions:
            result.update(_champions(args, database, cluster, work, summaries))
    finally:
        if web is not None:
            web.stop()
        cluster.close()
        shutil.rmtree(work, ignore_errors=True)
    return result


def _year(
    args: argparse.Namespace, database: str, folder: Path
) -> tuple[dict[str, Any], list[Any]]:
    """The fleet made (``folder``) and the year filled in: the rows made, the seconds it
    took, the database's size; and the real games' summaries the game events carry."""
    from bench.route_history import fill
    from tests.fleet.cabinets import cpu_game
    from tests.fleet.services import free_port, init_fleet

    with contextlib.redirect_stdout(sys.stderr):
        init_fleet(folder, database, free_port())
    found: dict[str, Any] = {}
    start = time.monotonic()
    summaries = [cpu_game(seed).summary.to_json() for seed in range(1, 9)]
    found["rows"] = fill(
        database,
        summaries,
        cabinets=args.cabinets,
        locations=args.locations,
        days=args.days,
        seed=args.seed,
    )
    found["history_s"] = round(time.monotonic() - start, 1)
    with contextlib.suppress(Exception):
        import psycopg

        with psycopg.connect(database) as conn:
            row = conn.execute("SELECT pg_database_size(current_database())").fetchone()
            found["database_mb"] = round(int(row[0]) / 2**20) if row else None
    return found, summaries


def _pages(args: argparse.Namespace, base: str) -> dict[str, Any]:
    """Each page's time, signed in as the owner, and the route page's weight."""
    found: dict[str, Any] = {}
    client = Client(base)
    client.login(OWNER, PASSWORD)
    # The alerts page works the alerts out (and leaves the process the snapshot the
    # route page shows); the route page's own background refresh is timed apart.
    found["alerts_page_ms"] = measure(client, ["/alerts/"], 3)["server"]
    route = measure(client, ["/"], args.requests)
    found["route_page_ms"] = route["server"]
    found["route_page_wall_ms"] = route["wall"]
    found["route_page_html_kb"] = route["html_kb"]
    step = max(1, args.cabinets // 20)
    names = [f"/cabinets/cab-{n:03d}/" for n in range(1, args.cabinets + 1, step)]
    cabinet = measure(client, names, args.requests)
    found["cabinet_page_ms"] = cabinet["server"]
    found["cabinet_page_wall_ms"] = cabinet["wall"]
    found["timing_source"] = "Server-Timing app;dur (the application's own time)"
    for key, paths, count in (
        ("collections_page_ms", ["/collections/"], 5),
        ("cabinet_collections_page_ms", [f"/collections/{p[10:]}" for p in names], 20),
    ):
        found[key] = measure(client, paths, count)["server"]
    weight = page_weight(base, "/")
    found["route_page_kb"] = weight["kb"]
    found["route_page_responses"] = weight["responses"]
    return found


def _champions(
    args: argparse.Namespace, year: str, cluster: Any, work: Path, summaries: list[Any]
) -> dict[str, Any]:
    """The board's query on the year's fleet, then records from cabinet to cabinet on a
    fleet of the same cabinets with ``--champion-days`` of history (on the year's, each
    new fame event would wait on that query)."""
    from bench.route_champions import board_s, champions
    from bench.route_history import fill
    from tests.fleet.services import free_port, init_fleet

    found: dict[str, Any] = {"board_query_year_s": board_s(year, args.board_limit_s)}
    database = cluster.new_database("fleet_champions")
    folder, port = work / "champions-fleet", free_port()
    with contextlib.redirect_stdout(sys.stderr):
        init_fleet(folder, database, port)
    fill(
        database,
        summaries,
        cabinets=args.cabinets,
        locations=args.locations,
        days=args.champion_days,
        seed=args.seed,
    )
    found["champions_history_days"] = args.champion_days
    try:
        found["champions_s"] = champions(args.champion_runs, database, folder, work, port)
    except (AssertionError, RuntimeError) as exc:
        found["champions_error"] = str(exc)
    return found


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)  # the parts started are stopped on the way out


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cabinets", type=int, default=500)
    parser.add_argument("--locations", type=int, default=50)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--champion-runs", type=int, default=10)
    parser.add_argument("--no-champions", action="store_true")
    parser.add_argument("--champion-days", type=int, default=7)
    parser.add_argument("--board-limit-s", type=int, default=120)
    print(json.dumps(run(parser.parse_args()), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
