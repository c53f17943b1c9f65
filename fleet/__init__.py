"""The fleet: a route of cabinets reporting to their operator over MQTT into PostgreSQL.

:mod:`fleet.wire` (what a cabinet sends up), :mod:`fleet.wire_down` (what the fleet sends
down) and :mod:`fleet.wire_common` (what both share) are the wire format, standard library
only, shared with the cabinet's link (``cabinet/link``), as the light board's codec is
shared with its firmware. The rest is the fleet's service (``spit-fleet``: init,
add-cabinet, add-cabinets, revoke, ingest, location, option, digest, web, account; the
route's champions, settings documents, collections and alerts), installed with the
``fleet`` extra, so a cabinet installs none of its dependencies. See ``docs/fleet.md``.
Signed releases (``spit-fleet release-key``, ``release sign``, ``release trust``:
docs/releases.md) are :mod:`fleet.release_keys` and :mod:`fleet.release_repository`, on
the operator's own machine; :mod:`fleet.release_manifest` is shared with the cabinet.

>>> from fleet.wire import batch_topic
>>> from fleet.wire_down import ack_topic
>>> batch_topic("bar-1"), ack_topic("bar-1")
('spit/up/bar-1/events', 'spit/down/bar-1/ack')
"""

__all__ = [
    "alerts",
    "authority",
    "broker",
    "cabinet_file",
    "cabinets",
    "champions",
    "cli",
    "collections",
    "digest",
    "documents",
    "ingest",
    "join_file",
    "locations",
    "options",
    "release_commands",
    "release_keys",
    "release_manifest",
    "release_repository",
    "release_server",
    "rollout_commands",
    "rollouts",
    "route_commands",
    "schema",
    "store",
    "web",
    "wire",
    "wire_common",
    "wire_down",
]
