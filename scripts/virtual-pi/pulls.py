"""The virtual Pi's power pulls on a flashed card: the power is cut at seeded moments, and
every boot after one must reach attract with nothing committed lost.

    python pulls.py first-boot RUN --seed S --count N -- BOOT_COMMAND...
    python pulls.py attract RUN --seed S --count N --first K
    python pulls.py release RUN --seed S --count N --first K --running VERSION \
        --releases WHEELS...

A pull is QEMU's ``system_reset``: the guest loses all it held in memory (the page cache,
the journal, the overlay over the root) at once, as on a power cut; what it had handed to
the card is kept (docs/virtual-pi.md says what that does not model). The moments come from
``random.Random(seed)``, so a failing run is run again the same way.

- ``first-boot``: each pull on a new card (a fresh copy-on-write layer over the image, booted
  by BOOT_COMMAND), at a moment of its first boot (making the data partition, seeding it,
  the first-boot files, the cabinet starting); the last card stays up for what follows.
- ``attract``: in attract, with coins going in on the simulated coin line (the books read
  just before the pull: those coins are committed and must still be there after it), or
  while the card is booting again after the last pull.
- ``release``: while the card downloads, or installs, a signed release the route on the
  host (route.py) rolled out to it, turn about from a phase the seed picks; each pull's
  release is the next of ``--releases`` (folders of wheels, each a version on). The card
  must come back on the old version or the new one, report the one it runs to the fleet,
  and then finish the install by itself (the download resumed, or the install asked for
  again).

After each pull the guest must boot to attract (the cabinet's unit active and its first
frame drawn), its data partition mounted, its database whole, and every game and coin
committed before the pull still there. One JSON line per pull goes to RUN/pulls.jsonl;
the exit status is 1 if any pull's checks failed.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from card_control import DETACHED, GUEST_BOOKS, Card

FIRST_BOOT_S = (3.0, 75.0)
"""A first boot's pulls fall in this span after the power comes on (the first boot
reaches attract in about 65 s under emulation)."""
REBOOT_S = (1.0, 45.0)
"""A pull during a later boot: this long after the power comes back."""
COINS_S = (0.3, 6.0)
"""A pull in attract: this long after the coins start going in."""
DOWNLOAD_S = (0.5, 8.0)
"""A pull during a release's download: this long after the download's process is seen
(it runs 15-40 s under emulation: Python, the metadata, one wheel)."""
INSTALL_S = (1.0, 180.0)
"""A pull during a release's install: this long after the install's service is seen
running (the install takes 150-250 s here, and switches versions near its end)."""
REPORT_S = 300.0
"""Longest the card may take after attract to report the version it runs to the fleet."""
FINISH_S = 1200.0
"""Longest the card may take to finish the release after the pull (a boot, the rest of the
download, the install, the new version's start)."""


@dataclass
class Pull:
    """One pull and what the boot after it showed."""

    n: int
    kind: str
    at_s: float
    during: str = ""
    books_before: dict[str, Any] = field(default_factory=dict)
    books_after: dict[str, Any] = field(default_factory=dict)
    attract_s: float = 0.0
    pulled_after_s: float = 0.0
    """In attract: how long after the coins started the pull came (the moment, then the
    books' read)."""
    version: str = ""
    release: dict[str, Any] = field(default_factory=dict)
    """A release pull: the card's part of the rollout as the fleet saw it."""
    checks: dict[str, bool] = field(default_factory=dict)
    error: str = ""


def after_pull(card: Card, pull: Pull, pulled_at: float, before: dict[str, Any]) -> None:
    """The boot after ``pull``: attract, the data, the books against ``before``."""
    try:
        pull.attract_s = round(card.attract(pulled_at), 1)
    except TimeoutError:
        pull.checks["boots to attract"] = False
        pull.error = card.diagnose()[:2000]
        print(f"pull {pull.n}: no attract: {pull.error}", file=sys.stderr)
        return
    pull.checks["boots to attract"] = True
    after = card.books("look")
    pull.version = str(after.pop("version", ""))
    pull.checks["data partition mounted"] = after.pop("data_mounted", False) is True
    pull.books_after = after
    pull.checks["database whole"] = after.get("integrity") == "ok"
    if before:
        pull.checks["the books were read before the pull"] = "error" not in before
        pull.checks["no committed game lost"] = after.get("games", -1) >= before.get("games", 0)
        pull.checks["no committed coin lost"] = after.get("coins1", -1) >= before.get("coins1", 0)


def record(run: Path, pull: Pull) -> bool:
    ok = all(pull.checks.values())
    with (run / "pulls.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(asdict(pull)) + "\n")
    print(
        f"{'ok  ' if ok else 'FAIL'} pull {pull.n} ({pull.kind}) at {pull.at_s} s, "
        f"during: {pull.during!r}; attract {pull.attract_s} s later",
        file=sys.stderr,
    )
    if not ok:  # which checks, and what the card ran and the fleet saw after it
        failed = [name for name, passed in pull.checks.items() if not passed]
        print(f"     failed: {'; '.join(failed)}; runs {pull.version!r}"
              f"{f'; the release: {pull.release}' if pull.release else ''}",
              file=sys.stderr)  # fmt: skip
    return ok


def guarded(run: Path, n: int, kind: str, at: float, body: Callable[[Pull], None]) -> bool:
    """One pull, recorded whatever happens: a pull whose steps raise (the guest gone, an
    answer that never came) is a failed pull in pulls.jsonl, not a missing one."""
    pull = Pull(n, kind, at)
    try:
        body(pull)
    except Exception as exc:  # any failure at all is this pull's, said in its record
        pull.checks["the pull ran to its end"] = False
        try:
            seen = Card(run).diagnose()
        except (OSError, ValueError) as why:
            seen = f"no QEMU to look at ({why})"
        pull.error = f"{type(exc).__name__}: {exc}"[:300] + f"; {seen}"[:2000]
        print(f"pull {n}: {pull.error}", file=sys.stderr)
    return record(run, pull)


def first_boot(args: argparse.Namespace, rng: random.Random) -> bool:
    """Pulls during first boots, each on a new card."""
    ok = True
    for i in range(args.count):
        at = round(rng.uniform(*FIRST_BOOT_S), 1)

        def body(pull: Pull, i: int = i, at: float = at) -> None:
            if i:  # a new card: the last one's guest goes first, all the way
                Card(args.run).quit()
            (args.run / "disk.qcow2").unlink(missing_ok=True)
            card = Card(args.run)
            card.console.unlink(missing_ok=True)
            started = time.monotonic()
            subprocess.run(args.boot, check=True, stdout=subprocess.DEVNULL)
            time.sleep(max(0.0, started + at - time.monotonic()))
            pull.during = card.pull()
            after_pull(card, pull, time.monotonic(), {})

        ok &= guarded(args.run, args.first + i, "first boot", at, body)
    return ok


def attract(args: argparse.Namespace, rng: random.Random) -> bool:
    """Pulls in attract with coins going in, or during the boot after the last pull."""
    card = Card(args.run)
    card.console_at = card.console.stat().st_size
    ok = True
    for i in range(args.count):
        booting = i % 4 == 1  # one in four during a boot: pull, then pull again as it boots
        at = round(rng.uniform(*(REBOOT_S if booting else COINS_S)), 1)

        def body(pull: Pull, booting: bool = booting, at: float = at) -> None:
            card.attract(time.monotonic())
            ran = str(card.books("look").get("version", ""))
            if booting:
                pull.books_before = card.books()
                card.pull()
                time.sleep(at)
            else:
                # Coins for two minutes: still going in when the pull comes (the books'
                # read before it takes seconds of the guest's Python under emulation).
                card.ask(f"setsid -f chrt -f 20 {GUEST_BOOKS} coins 400 {DETACHED}")
                coins_from = time.monotonic()
                time.sleep(at)
                pull.books_before = card.books()  # committed now: must survive the pull
                pull.pulled_after_s = round(time.monotonic() - coins_from, 1)
            pull.during = card.pull()
            after_pull(card, pull, time.monotonic(), pull.books_before)
            # A version that started is never rolled back by cuts, however many in a row.
            pull.checks["runs the version it ran before (no rollback)"] = pull.version == ran

        kind = "booting" if booting else "attract, coins going in"
        ok &= guarded(args.run, args.first + i, kind, at, body)
    return ok


PHASES = {
    # The bracket keeps the pattern from matching the shell the agent runs it in.
    "download": ("pgrep -f 'cabinet releas[e] fetch' >/dev/null", DOWNLOAD_S),
    "install": ("systemctl is-active -q spit-cabinet-install.service || "
                "[ \"$(systemctl is-active spit-cabinet-install.service)\" = activating ]",
                INSTALL_S),
}  # fmt: skip
"""Each phase of a release: how the guest shows it under way, and the pull's span in it."""


RELEASE_STATE = (
    "ls -l --time-style=+%T /var/lib/spit-cabinet/releases; "
    "tail -n 5 /var/lib/spit-cabinet/releases/install.log; "
    "journalctl -q -o cat -u spit-cabinet -u spit-cabinet-install -g 'update|install' | tail -n 12"
)
"""What the card shows of a release that did not go as it should."""


def await_phase(card: Card, phase: str, timeout_s: float = 600) -> float:
    """Wait until the card is in ``phase`` of a release; seconds waited."""
    started = time.monotonic()
    check, _ = PHASES[phase]
    while time.monotonic() - started < timeout_s:
        status, _ = card.ask(check, timeout_s=60)
        if status == 0:
            return time.monotonic() - started
        time.sleep(0.5)
    raise TimeoutError(f"the card did not start the release's {phase} in {timeout_s} s")


def release(args: argparse.Namespace, rng: random.Random) -> bool:
    """Pulls while the card downloads or installs a release the route rolled out."""
    import route  # the route's parts: PostgreSQL's client, the fleet

    card = Card(args.run)
    card.console_at = card.console.stat().st_size
    old = args.running
    ok = True
    first = rng.randrange(2)  # which phase the first pull takes: a single pull tries either
    for i in range(args.count):
        phase = ("download", "install")[(first + i) % 2]
        at = round(rng.uniform(*PHASES[phase][1]), 1)
        wheels = args.releases[i]

        def body(pull: Pull, phase: str = phase, at: float = at, wheels: Path = wheels) -> None:
            nonlocal old
            card.attract(time.monotonic())
            pull.books_before = card.books()
            new = route.sign(args.run, wheels, Path(route.ready(args.run)["fleet"]))
            rollout = route.start_rollout(args.run, new)
            await_phase(card, phase)
            time.sleep(at)
            pull.during = f"{phase}: {card.pull()}"
            after_pull(card, pull, time.monotonic(), pull.books_before)
            pull.checks["runs the old version or the new"] = pull.version in (old, new)
            reported = time.monotonic() + REPORT_S
            while route.presence(args.run) != pull.version and time.monotonic() < reported:
                time.sleep(2)
            pull.checks["reports the version it runs"] = route.presence(args.run) == pull.version
            done = route.finish(args.run, rollout, FINISH_S)
            pull.release = done
            pull.checks["finishes the release by itself"] = done["state"] == "installed"
            pull.checks["runs the release after it"] = card.books("look").get("version") == new
            if not all(pull.checks.values()):  # the card's side of it, for the report
                pull.error = card.ask(RELEASE_STATE)[1][-2000:]
            old = new

        ok &= guarded(args.run, args.first + i, f"release {phase}", at, body)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kind", choices=["first-boot", "attract", "release"])
    parser.add_argument("run", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--first", type=int, default=1, help="the first pull's number")
    parser.add_argument("--running", default="", help="release: the version the card runs")
    parser.add_argument("--releases", nargs="*", type=Path, default=[],
                        help="release: a pull's folder of wheels, a version on each")  # fmt: skip
    argv = sys.argv[1:]
    # After "--": the command that boots a card (first-boot).
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.boot = argv[cut + 1 :]
    # Each kind draws from a stream of its own: changing one count moves no other moment.
    rng = random.Random(f"{args.seed}-{args.kind}")
    kinds = {"first-boot": first_boot, "attract": attract, "release": release}
    return 0 if kinds[args.kind](args, rng) else 1


if __name__ == "__main__":
    sys.exit(main())
