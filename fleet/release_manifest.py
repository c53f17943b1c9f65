"""A release's manifest: what ``spit-fleet release sign`` writes beside the wheels and a
cabinet reads before it installs any (standard library only: both sides use it).

A release is the folder of wheels a stick update already installs from, published as a
TUF repository (docs/releases.md). The manifest is one of its signed targets,
``release.json``::

    {"format": "spit-release", "version": 1, "route": "Northside Amusements",
     "release": "0.2.0", "wheels": ["spit_cabinet-0.2.0-py3-none-any.whl", …]}

``route`` is the fleet's name: a cabinet refuses a release made for another route even
when its key is the same. ``release`` is the cabinet's version in it; ``wheels`` every
wheel of the release, each also a signed target.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

FORMAT = "spit-release"
VERSION = 1
NAME = "release.json"
"""The manifest's target name in the repository."""
MAX_BYTES = 64 * 1024
CABINET_WHEEL = re.compile(r"spit_cabinet-(?P<version>[^-]+)-[^/]*\.whl")
WHEEL = re.compile(r"[A-Za-z0-9_.+-]+\.whl")


class ManifestError(ValueError):
    """A manifest that is not a release's; the message says why."""


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a release holds and for whom."""

    route: str
    release: str
    wheels: tuple[str, ...]

    def text(self) -> str:
        return (
            json.dumps(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "route": self.route,
                    "release": self.release,
                    "wheels": list(self.wheels),
                },
                indent=2,
            )
            + "\n"
        )


def version_key(version: str) -> tuple[int, ...]:
    """A release's version as numbers, for ordering: 0.2.0 < 0.10.0 < 0.10.0.post1."""
    return tuple(int(n) for n in re.findall(r"\d+", version))


def cabinet_version(wheels: list[str] | tuple[str, ...]) -> str:
    """The cabinet's version among ``wheels`` (file names): exactly one must be the
    cabinet's own wheel; else :class:`ManifestError`."""
    found = [m.group("version") for w in wheels if (m := CABINET_WHEEL.fullmatch(w))]
    if len(found) != 1:
        raise ManifestError(
            f"a release holds exactly one spit_cabinet wheel; this one holds {len(found)}"
        )
    return found[0]


def read_manifest(raw: bytes) -> Manifest:
    """The manifest in ``raw``, checked; else :class:`ManifestError`."""
    if len(raw) > MAX_BYTES:
        raise ManifestError(f"the manifest is larger than {MAX_BYTES // 1024} KiB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ManifestError(f"the manifest is not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ManifestError("the manifest is not a release's")
    if data.get("version") != VERSION:
        raise ManifestError(f"the manifest is of version {data.get('version')!r}, not {VERSION}")
    route, release, wheels = data.get("route"), data.get("release"), data.get("wheels")
    if not isinstance(route, str) or not route:
        raise ManifestError("the manifest names no route")
    if not isinstance(wheels, list) or not all(
        isinstance(w, str) and WHEEL.fullmatch(w) for w in wheels
    ):
        raise ManifestError("the manifest's wheels are not a list of wheel file names")
    if release != cabinet_version(wheels):
        raise ManifestError(f"the manifest's release {release!r} is not its cabinet wheel's")
    return Manifest(route=route, release=str(release), wheels=tuple(wheels))
