"""The fleet's PostgreSQL schema, one script per version (``fleet_schema.version``);
``spit-fleet init`` and ingest bring a database up to :data:`SCHEMA_VERSION`.

- ``cabinets``: each cabinet added, its location, and when it was revoked.
- ``events``: every event a cabinet sent, once, on its key ``(cabinet, epoch, seq)``,
  with the cabinet's time, whether its clock was synchronised, and ingest's receive time
  (the one the day is counted by: the Pi has no RTC).
- ``progress``: per cabinet and epoch, the highest sequence number stored with every one
  before it (what the acknowledgement says); ``coverage``: batches stored beyond it.
- ``presence``: each cabinet's last presence message.
- ``rollups``: games and earnings per cabinet, day and week (``rollups_by_location``):
  from version 2, by the day the cabinet wrote each event (``events.written_at``).
- ``refused``: every message ingest refused, with its reason.

Version 2, the operator's route (docs/fleet.md, "The operator's route"):

- ``presence_log``: every presence message, so the pages know when a cabinet was offline.
- ``events.written_at``: when the cabinet wrote the event, by its clock if that was
  synchronised, else when the fleet received it (``fleet_written_at``); the collections'
  books count by it (:mod:`fleet.collections`).
- ``locations``: each venue's opening hours (offline alerts count only those hours) and
  time zone.
- ``collections``: the cash a collector counted at a cabinet, when, and who entered it.
- ``settings_documents``: the settings for the whole route (``route``) or one location
  (``location-<id>``), TOML as ``settings export`` writes; ``version`` comes from
  ``settings_versions`` at every edit, ``published`` is the version ingest last published.
- ``champions``: every route-champions board worked out, ``version`` rising; the newest is
  what cabinets are sent.
- ``fleet_options``: the operator's thresholds (alerts) and the digest's mail settings.

Version 3: ``refused_counts``, the messages ingest refused per cabinet (the topic's; empty
when the topic names none) and :class:`~fleet.wire_common.Refusal`, with the first and
last time and the last one's reason, counted in the transaction that keeps each in
``refused`` (the web application's pages read it); made from ``refused`` as it stood.

Version 4: ``account_log``, every change to the web application's accounts, by the
owner's page or ``spit-fleet account``: when, which account, what was done, and who did
it (an account's name, or ``shell:`` and the user at the server's shell).

Version 5, rollouts (docs/releases.md, "Rollouts"): ``rollouts``, each release rolled out
to a group of cabinets (its canary share, how long canaries must stay healthy, where it
is: ``canary``, ``rest``, ``done`` or ``halted`` with why); ``rollout_cabinets``, each
cabinet of a rollout, whether a canary, and the step it last reported (``pending`` until
it is offered the release).

The web application's accounts and sessions live beside these, in its own tables
(Django's migrations make them).
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE cabinets (
        name       text PRIMARY KEY,
        location   text NOT NULL,
        added_at   timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
    );
    CREATE TABLE events (
        cabinet     text NOT NULL REFERENCES cabinets (name),
        epoch       text NOT NULL,
        seq         bigint NOT NULL,
        kind        text NOT NULL,
        cabinet_at  text NOT NULL,
        synced      boolean NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        body        jsonb NOT NULL,
        PRIMARY KEY (cabinet, epoch, seq)
    );
    CREATE INDEX events_by_kind ON events (cabinet, kind, received_at);
    CREATE TABLE progress (
        cabinet text NOT NULL,
        epoch   text NOT NULL,
        through bigint NOT NULL,
        PRIMARY KEY (cabinet, epoch)
    );
    CREATE TABLE coverage (
        cabinet text NOT NULL,
        epoch   text NOT NULL,
        first   bigint NOT NULL,
        last    bigint NOT NULL,
        PRIMARY KEY (cabinet, epoch, first)
    );
    CREATE TABLE presence (
        cabinet text PRIMARY KEY,
        state   text NOT NULL,
        version text NOT NULL,
        faults  text[] NOT NULL DEFAULT '{}',  -- what the cabinet could not queue
        at      timestamptz NOT NULL
    );
    CREATE TABLE rollups (
        cabinet        text NOT NULL,
        period         text NOT NULL CHECK (period IN ('day', 'week')),
        start          date NOT NULL,
        games          bigint NOT NULL DEFAULT 0,
        earnings_cents bigint NOT NULL DEFAULT 0,
        coins          bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (cabinet, period, start)
    );
    CREATE VIEW rollups_by_location AS
        SELECT c.location, r.period, r.start, sum(r.games) AS games,
               sum(r.earnings_cents) AS earnings_cents, sum(r.coins) AS coins
        FROM rollups r JOIN cabinets c ON c.name = r.cabinet
        GROUP BY c.location, r.period, r.start;
    CREATE TABLE refused (
        id     bigserial PRIMARY KEY,
        at     timestamptz NOT NULL DEFAULT now(),
        topic  text NOT NULL,
        size   integer NOT NULL,
        reason text NOT NULL
    );
    """,
    """
    CREATE TABLE presence_log (
        id      bigserial PRIMARY KEY,
        cabinet text NOT NULL,
        state   text NOT NULL,
        at      timestamptz NOT NULL
    );
    CREATE INDEX presence_log_by_cabinet ON presence_log (cabinet, at);
    CREATE INDEX events_by_received ON events (cabinet, received_at);
    CREATE FUNCTION fleet_written_at(cabinet_at text, synced boolean, received timestamptz)
    RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
    BEGIN
        IF synced THEN
            RETURN cabinet_at::timestamptz;
        END IF;
        RETURN received;
    EXCEPTION WHEN others THEN  -- a time that is no time: the fleet's own
        RETURN received;
    END $$;
    ALTER TABLE events ADD COLUMN written_at timestamptz;
    UPDATE events SET written_at = fleet_written_at(cabinet_at, synced, received_at);
    CREATE INDEX events_by_written ON events (cabinet, kind, written_at);
    -- The route's champions read every fame event of the route at once: a small index.
    CREATE INDEX events_fame ON events (cabinet, epoch, seq) WHERE kind = 'fame';
    -- From version 2 an event counts on the day the cabinet wrote it, not on the day it
    -- arrived: the rollups made by version 1 are made again that way.
    DELETE FROM rollups;
    INSERT INTO rollups (cabinet, period, start, games, earnings_cents, coins)
    SELECT e.cabinet, p.period, p.start,
           count(*) FILTER (WHERE e.kind = 'game'),
           coalesce(sum((e.body -> 'counted' ->> 'earnings_cents')::bigint)
                    FILTER (WHERE e.kind = 'money'), 0),
           coalesce(sum(coalesce((e.body -> 'counted' ->> 'coins1')::bigint, 0)
                        + coalesce((e.body -> 'counted' ->> 'coins2')::bigint, 0))
                    FILTER (WHERE e.kind = 'money'), 0)
    FROM events e CROSS JOIN LATERAL (
        VALUES ('day', e.written_at::date), ('week', date_trunc('week', e.written_at)::date)
    ) AS p (period, start)
    WHERE e.kind IN ('game', 'money')
    GROUP BY e.cabinet, p.period, p.start;
    CREATE TABLE locations (
        id       bigserial PRIMARY KEY,
        name     text NOT NULL UNIQUE,
        opens    time NOT NULL DEFAULT '00:00',
        closes   time NOT NULL DEFAULT '00:00',  -- equal to opens: open all day
        timezone text NOT NULL DEFAULT 'UTC'
    );
    INSERT INTO locations (name) SELECT DISTINCT location FROM cabinets;
    CREATE TABLE collections (
        id            bigserial PRIMARY KEY,
        cabinet       text NOT NULL REFERENCES cabinets (name),
        at            timestamptz NOT NULL DEFAULT now(),
        counted_cents bigint NOT NULL CHECK (counted_cents >= 0),
        entered_by    text NOT NULL,
        note          text NOT NULL DEFAULT ''
    );
    CREATE INDEX collections_by_cabinet ON collections (cabinet, at);
    CREATE SEQUENCE settings_versions;
    CREATE TABLE settings_documents (
        id         text PRIMARY KEY CHECK (id ~ '^(route|location-[1-9][0-9]*)$'),
        location   text UNIQUE,
        version    bigint NOT NULL,
        body       text NOT NULL,
        edited_by  text NOT NULL,
        edited_at  timestamptz NOT NULL DEFAULT now(),
        published  bigint NOT NULL DEFAULT 0,
        CHECK ((id = 'route') = (location IS NULL))
    );
    CREATE TABLE champions (
        version bigserial PRIMARY KEY,
        board   jsonb NOT NULL,
        made_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE fleet_options (
        key   text PRIMARY KEY,
        value text NOT NULL
    );
    """,
    """
    CREATE TABLE refused_counts (
        cabinet     text NOT NULL,
        refusal     text NOT NULL,
        count       bigint NOT NULL,
        first_at    timestamptz NOT NULL,
        last_at     timestamptz NOT NULL,
        last_reason text NOT NULL,
        PRIMARY KEY (cabinet, refusal)
    );
    -- The refusals of version 2 counted as version 3 counts them: by the cabinet the
    -- topic names and the kind of refusal its reason's words say.
    INSERT INTO refused_counts (cabinet, refusal, count, first_at, last_at, last_reason)
    SELECT cabinet, refusal, count(*), min(at), max(at),
           (array_agg(reason ORDER BY at DESC, id DESC))[1]
    FROM (
        SELECT id, at, reason,
               CASE WHEN split_part(topic, '/', 1) = 'spit' AND split_part(topic, '/', 2) = 'up'
                         AND split_part(topic, '/', 3) ~ '^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$'
                    THEN split_part(topic, '/', 3) ELSE '' END AS cabinet,
               CASE WHEN reason LIKE 'oversized:%' THEN 'oversized'
                    WHEN reason LIKE 'not JSON%' OR reason = 'not a JSON object' THEN 'not_json'
                    WHEN reason LIKE 'wire version %' THEN 'wire_version'
                    WHEN reason LIKE 'not a fleet up topic%' OR reason LIKE 'not an events topic%'
                         OR reason LIKE 'not a presence topic%' THEN 'topic'
                    WHEN reason LIKE '% is not a cabinet id %' THEN 'topic'
                    WHEN reason LIKE 'addressed to %' THEN 'wrong_cabinet'
                    WHEN reason LIKE 'from a cabinet that is revoked%' THEN 'revoked'
                    WHEN reason LIKE 'from a cabinet that is unknown%' THEN 'unknown_cabinet'
                    ELSE 'malformed' END AS refusal
        FROM refused
    ) AS r
    GROUP BY cabinet, refusal;
    """,
    """
    CREATE TABLE account_log (
        id      bigserial PRIMARY KEY,
        at      timestamptz NOT NULL DEFAULT now(),
        account text NOT NULL,
        action  text NOT NULL,
        detail  text NOT NULL DEFAULT '',
        done_by text NOT NULL
    );
    CREATE INDEX account_log_by_account ON account_log (account, at);
    """,
    """
    CREATE TABLE rollouts (
        id              bigserial PRIMARY KEY,
        release         text NOT NULL,
        url             text NOT NULL,
        target          text NOT NULL,
        canary_share    integer NOT NULL CHECK (canary_share BETWEEN 1 AND 100),
        healthy_minutes integer NOT NULL CHECK (healthy_minutes >= 0),
        state           text NOT NULL DEFAULT 'canary',
        reason          text NOT NULL DEFAULT '',
        started_at      timestamptz NOT NULL DEFAULT now(),
        started_by      text NOT NULL,
        ended_at        timestamptz
    );
    CREATE TABLE rollout_cabinets (
        rollout    bigint NOT NULL REFERENCES rollouts (id),
        cabinet    text NOT NULL REFERENCES cabinets (name),
        canary     boolean NOT NULL,
        state      text NOT NULL DEFAULT 'pending',
        reason     text NOT NULL DEFAULT '',
        offered_at timestamptz,
        changed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (rollout, cabinet)
    );
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
