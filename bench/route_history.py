"""A year of a route's history, made in PostgreSQL itself (``INSERT … SELECT`` over
``generate_series``, two connections at once), for ``bench/route.py``: the rows a real
route of cabinets would have left after a year, in the wire's body shapes
(:func:`fleet.wire.check_body` holds each kind's sample), consistent with each other.

- ``locations``: ``--locations`` venues, each with opening hours (a few open all day) in
  Europe/London; ``cabinets`` spread over them.
- ``events``: per cabinet and day, games (about 30 a day: the cabinet's popularity, the day
  of the week, noise; an idle day now and then), each paid by one ``money`` event before it
  (a one-player game by a 1.00 coin, every fifth game two players by a 2.00 coin; ``counts``
  absolute, ``counted`` the coin), a ``health`` heartbeat an hour while the venue is open,
  and at the day's end what happened that day: faults (raised, cleared), a hall-of-fame
  entry, doctor, a settings report, the door (opened and closed), the audits. ``seq``
  follows the cabinet's time; ``received_at`` is its time plus a few milliseconds.
- ``rollups``: per day and week from the events, by the day the cabinet wrote each (ingest's).
- ``presence_log``, ``presence``: online at opening, offline at closing (venues switch
  their cabinets off); a few cabinets offline for the last days (no events since).
- ``progress``: each cabinet's epoch, stored through its last event.
- ``collections``: about every 29 days per cabinet, the door open, the cash counted: the
  books since the last collection, a few short or over.

Deterministic: every choice is a hash of the seed and the row (``hashint8extended``); the
year ends at ``end`` (the run's moment: nothing is in the future).
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

_ADJECTIVES = (
    "Red", "Golden", "Black", "White", "Royal", "Old", "Crown", "Blue", "Green", "Silver",
)  # fmt: skip
_NOUNS = ("Lion", "Anchor", "Swan", "Bell", "Oak", "Stag", "Rose", "Fox", "Plough", "Mill")
_HOURS = (("11:00", "23:00"), ("12:00", "23:30"), ("10:00", "22:00"), ("16:00", "23:30"))

_FAME = (
    ("fastest_win_cpu_1", 30_000, 150_000),
    ("fastest_win_cpu_3", 35_000, 160_000),
    ("fastest_win_cpu_5", 40_000, 200_000),
    ("fastest_two_player_win", 30_000, 180_000),
    ("longest_streak", 2, 15),
    ("closest_race_won", 1_000_000, 200_000_000),
    ("most_plays", 30, 90),
)


def _u(seed: int, salt: int, what: str) -> str:
    """SQL for a uniform [0, 1) of ``what`` (a bigint expression), seeded."""
    return f"((hashint8extended(({what}) * 16 + {salt}, {seed}) & 1073741823)::float8 / 1073741824)"


def _plan_sql(seed: int, days: int) -> str:
    key = "(c.n::bigint * 100000 + d)"
    return f"""
CREATE TABLE bench_plan AS
WITH days AS (
    SELECT c.n, c.name, c.epoch, c.popularity, c.cutoff, d AS dn, (%(first)s::date + d) AS day,
           l.opens, l.closes, l.timezone,
           {_u(seed, 1, key)} AS u_games, {_u(seed, 2, key)} AS u_off,
           {_u(seed, 3, key)} AS u_fault, {_u(seed, 4, key)} AS u_fame,
           {_u(seed, 5, key)} AS u_door, {_u(seed, 6, key)} AS u_kind
    FROM bench_cabinets c JOIN locations l ON l.id = c.location,
         generate_series(0, {days} - 1) d
), shaped AS (
    SELECT *, (day + opens) AT TIME ZONE timezone AS opens_at,
           (day + closes + CASE WHEN closes <= opens THEN interval '1 day' ELSE interval '0'
                                END) AT TIME ZONE timezone AS closes_at,
           u_off < 0.01 AS idle
    FROM days
), counted AS (
    SELECT *,
        CASE WHEN idle THEN 0 ELSE round(popularity * (ARRAY[0.6, 0.8, 0.9, 1.0, 1.4, 1.5,
             0.9])[extract(isodow FROM day)::int] * (0.6 + 0.8 * u_games))::int END AS games,
        CASE WHEN idle THEN 0 ELSE floor(extract(epoch FROM closes_at - opens_at) / 3600)::int
             END AS health
    FROM shaped
), flagged AS (
    SELECT *,
        (NOT idle AND u_fault < 1.0 / 45)::int AS fault,
        (games > 0 AND u_fame < 0.3)::int AS fame,
        (NOT idle AND dn %% 30 = n %% 30)::int AS doctor,
        (NOT idle AND dn = {days} - 20)::int AS settings,
        (NOT idle AND dn %% 29 = n %% 29) AS collection,
        (NOT idle AND (dn %% 29 = n %% 29 OR u_door < 1.0 / 40))::int AS door,
        (games > 0)::int AS audits
    FROM counted
)
SELECT *, 2 * games + health + 2 * fault + fame + doctor + settings + 2 * door + audits AS total,
       coalesce(sum(games) OVER before, 0) AS games_before,
       coalesce(sum(fame) OVER before, 0) AS fame_before,
       1 + coalesce(sum(2 * games + health + 2 * fault + fame + doctor + settings + 2 * door
                        + audits) OVER before, 0) AS seq_base,
       opens_at + interval '5 minutes' AS stream_from,
       closes_at - interval '20 minutes' AS stream_to
FROM flagged
WINDOW before AS (PARTITION BY n ORDER BY dn ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
"""


def _money(g: str, this: str) -> str:
    """A money event's body for game ``g`` (``this``: whether it is a 2.00 coin)."""
    coins2 = f"(({g}) / 5)"
    coins1 = f"(({g}) - {coins2})"
    units = f"({coins1} + 2 * {coins2})"
    names = (
        "units_converted", "units_held", "units_pending", "units_cleared", "bonus_progress",
        "credits_bonus", "credits_service", "credits_cleared", "meter_owed", "meter_done",
        "meter_tests", "coin_errors",
    )  # fmt: skip
    zeros = ", ".join(f"'{name}', 0" for name in names)
    return f"""jsonb_build_object(
        'counts', jsonb_build_object('coins1', {coins1}, 'coins2', {coins2},
            'units_in', {units}, 'credits_paid', {units},
            'credits_spent', {units} - CASE WHEN {this} THEN 2 ELSE 1 END,
            'credits', CASE WHEN {this} THEN 2 ELSE 1 END, {zeros}),
        'counted', CASE WHEN {this} THEN
            '{{"coins2": 1, "coin_units": 2, "earnings_cents": 200, "paid_credits": 2}}'::jsonb
            ELSE '{{"coins1": 1, "coin_units": 1, "earnings_cents": 100, "paid_credits": 1}}'::jsonb
            END)"""


_STREAM = """
INSERT INTO events (cabinet, epoch, seq, kind, cabinet_at, synced, received_at, body,
                    written_at)
SELECT name, epoch, seq, kind, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       true, at + interval '4 milliseconds', body, at
FROM (
    SELECT p.name, p.epoch, p.seq_base + s.pos + v.i AS seq,
           CASE WHEN s.is_health THEN 'health' WHEN v.i = 0 THEN 'money' ELSE 'game' END AS kind,
           s.at - CASE WHEN v.i = 0 AND NOT s.is_health THEN interval '40 seconds'
                       ELSE interval '0' END AS at,
           CASE WHEN s.is_health THEN jsonb_build_object('version', '0.9.0',
                    'uptime_s', extract(epoch FROM s.at - p.opens_at)::bigint,
                    'table_restarts', 0, 'rollbacks', 0, 'led_link_drops', s.k %% 3,
                    'door', 'closed', 'light_board', 'ok')
                WHEN v.i = 0 THEN {money}
                ELSE jsonb_build_object('game', s.g,
                    'seats', CASE WHEN s.g %% 5 = 0 THEN '["human", "human"]'::jsonb
                                  ELSE '["human", "cpu"]'::jsonb END,
                    'summary', (%(summaries)s::jsonb[])[1 + s.g %% 8],
                    'record_sha256', md5(p.name || s.g) || md5(s.g || p.name)) END AS body,
           p.cutoff
    FROM bench_plan p
    CROSS JOIN LATERAL (
        SELECT k, healths < floor((k + 1)::numeric * p.health / (p.games + p.health))
                   AS is_health,
               2 * (k - healths) + healths AS pos,
               p.games_before + (k - healths) + 1 AS g,
               p.stream_from + (p.stream_to - p.stream_from)
                   * ((k + 0.5 + 0.6 * (((k * 7919 + p.n) %% 100) / 100.0 - 0.5))
                      / (p.games + p.health)) AS at
        FROM generate_series(0, p.games + p.health - 1) k,
             LATERAL (SELECT floor(k::numeric * p.health / (p.games + p.health))::bigint
                      AS healths) h
    ) s
    CROSS JOIN LATERAL (SELECT i FROM (VALUES (0), (1)) v(i)
                        WHERE i = 0 OR NOT s.is_health) v
    WHERE p.n %% %(workers)s = %(worker)s
) e
WHERE at <= cutoff
"""

_SPECIALS = """
INSERT INTO events (cabinet, epoch, seq, kind, cabinet_at, synced, received_at, body,
                    written_at)
SELECT name, epoch, seq, kind, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
       true, at + interval '4 milliseconds', body, at
FROM (
    SELECT p.name, p.epoch, p.cutoff,
           p.seq_base + 2 * p.games + p.health + x.rank AS seq, x.kind,
           p.stream_to + (x.rank + 1) * interval '1 minute' AS at, x.body
    FROM bench_plan p
    CROSS JOIN LATERAL (SELECT (ARRAY['light_board_lost', 'coin_line_held_low',
                                      'missing_switch'])[1 + p.n %% 3] AS fault,
                               (ARRAY['{{}}', '{{"mech": 1}}', '{{"button": "p1_left",
                                      "games": 10}}'])[1 + p.n %% 3]::jsonb AS extra) f
    CROSS JOIN LATERAL (SELECT (p.games_before + p.games) / 5 AS two,
                               (p.games_before + p.games) - (p.games_before + p.games) / 5
                                   AS vs_cpu,
                               100 * (p.games_before + p.games)
                                   + 100 * ((p.games_before + p.games) / 5) AS cents) a
    CROSS JOIN LATERAL (SELECT category, low, high FROM bench_fame
                        WHERE idx = (p.n + p.dn) %% {fames}) m
    CROSS JOIN LATERAL (
        SELECT kind, body, (row_number() OVER (ORDER BY idx) - 1) AS rank
        FROM (VALUES
            (1, p.fault = 1, 'fault', jsonb_build_object('fault', f.fault, 'state', 'raised')
                                       || f.extra),
            (2, p.fault = 1, 'fault', jsonb_build_object('fault', f.fault, 'state', 'cleared')
                                       || f.extra),
            (3, p.fame = 1, 'fame', jsonb_build_object('entry', p.fame_before + 1,
                 'category', m.category, 'initials',
                 chr(65 + (p.n * 7 + p.dn) %% 26) || chr(65 + (p.dn * 3) %% 26)
                 || chr(65 + (p.n + p.dn * 11) %% 26),
                 'figure', m.low + ((p.n * 104729 + p.dn * 7919) %% (m.high - m.low)),
                 'date', to_char(p.day, 'YYYY-MM-DD'))),
            (4, p.doctor = 1, 'doctor', '{{"findings": [{{"check": "database",
                 "severity": "ok", "detail": "integrity ok"}}, {{"check": "fleet",
                 "severity": "ok", "detail": "broker answered"}}]}}'::jsonb),
            (5, p.settings = 1, 'settings', '{{"document": "route", "version": 1,
                 "result": "applied", "reason": ""}}'::jsonb),
            (6, p.door = 1, 'door', '{{"state": "open"}}'::jsonb),
            (7, p.door = 1, 'door', '{{"state": "closed"}}'::jsonb),
            (8, p.audits = 1, 'audits', jsonb_build_object(
                 'counters', jsonb_build_object(
                     'games.vs_cpu', jsonb_build_array(a.vs_cpu, a.vs_cpu),
                     'games.two_player', jsonb_build_array(a.two, a.two),
                     'money.coins1', jsonb_build_array(a.vs_cpu, a.vs_cpu),
                     'money.coins2', jsonb_build_array(a.two, a.two),
                     'money.earnings_cents', jsonb_build_array(a.cents, a.cents)),
                 'cleared', jsonb_build_object('money', to_char(%(first)s::date,
                     'YYYY-MM-DD"T"00:00:00+00:00'))))
        ) s(idx, flag, kind, body)
        WHERE flag
    ) x
    WHERE p.n %% %(workers)s = %(worker)s
) e
WHERE at <= cutoff
"""

_INDEXES = (
    (
        "CREATE UNIQUE INDEX events_pkey ON events (cabinet, epoch, seq)",
        "ALTER TABLE events ADD CONSTRAINT events_pkey PRIMARY KEY USING INDEX events_pkey",
        "CREATE INDEX events_by_written ON events (cabinet, kind, written_at)",
    ),
    (
        "CREATE INDEX events_by_kind ON events (cabinet, kind, received_at)",
        "CREATE INDEX events_by_received ON events (cabinet, received_at)",
    ),
)

_AFTER = (
    # The rollups, as ingest counts them: by the day (and week) the cabinet wrote an event.
    """INSERT INTO rollups (cabinet, period, start, games, earnings_cents, coins)
    SELECT cabinet, period, start, sum(games), sum(cents), sum(coins) FROM (
        SELECT cabinet, written_at::date AS day, count(*) FILTER (WHERE kind = 'game') AS games,
               coalesce(sum((body -> 'counted' ->> 'earnings_cents')::bigint)
                        FILTER (WHERE kind = 'money'), 0) AS cents,
               coalesce(sum(coalesce((body -> 'counted' ->> 'coins1')::bigint, 0)
                            + coalesce((body -> 'counted' ->> 'coins2')::bigint, 0))
                        FILTER (WHERE kind = 'money'), 0) AS coins
        FROM events WHERE kind IN ('game', 'money') GROUP BY cabinet, written_at::date
    ) d CROSS JOIN LATERAL (VALUES ('day', d.day),
                                   ('week', date_trunc('week', d.day)::date)) p(period, start)
    GROUP BY cabinet, period, start""",
    """INSERT INTO progress (cabinet, epoch, through)
    SELECT cabinet, epoch, max(seq) FROM events GROUP BY cabinet, epoch""",
    # Venues switch their cabinets off at closing: online at opening, offline at closing
    # (a venue open all day: online once a day, as its cabinets restart).
    """INSERT INTO presence_log (cabinet, state, at)
    SELECT name, state, at FROM (
        SELECT p.name, s.state, s.at, p.cutoff FROM bench_plan p
        CROSS JOIN LATERAL (VALUES ('online', p.opens_at - interval '5 minutes'),
                                   ('offline', p.closes_at + interval '5 minutes')) s(state, at)
        WHERE NOT p.idle AND (s.state = 'online' OR p.closes <> p.opens)
        UNION ALL
        SELECT name, 'offline', cutoff, cutoff FROM bench_cabinets WHERE cutoff < %(end)s
    ) x WHERE at <= cutoff ORDER BY at""",
    """INSERT INTO presence (cabinet, state, version, faults, at)
    SELECT DISTINCT ON (cabinet) cabinet, state, '0.9.0', '{}', at FROM presence_log
    ORDER BY cabinet, at DESC, id DESC""",
    # Collections: the door opened, the cash counted 30 s later.
    """INSERT INTO collections (cabinet, at, counted_cents, entered_by, note)
    SELECT name, stream_to + (2 * fault + fame + doctor + settings + 1) * interval '1 minute'
                 + interval '30 seconds', 0, 'collector', ''
    FROM bench_plan WHERE collection
      AND stream_to + (2 * fault + fame + doctor + settings + 1) * interval '1 minute'
          + interval '30 seconds' <= cutoff""",
    """UPDATE collections c SET counted_cents = greatest(0, books.cents + CASE
            WHEN c.id %% 13 = 0 THEN -100 WHEN c.id %% 17 = 0 THEN 200
            WHEN c.id %% 29 = 0 THEN -500 ELSE 0 END),
        note = CASE WHEN c.id %% 13 = 0 THEN 'one coin short'
                    WHEN c.id %% 17 = 0 THEN 'a coin over' ELSE '' END
    FROM (SELECT c2.id, coalesce((SELECT sum((e.body -> 'counted' ->> 'earnings_cents')::bigint)
                   FROM events e WHERE e.cabinet = c2.cabinet AND e.kind = 'money'
                   AND e.written_at > coalesce((SELECT max(p.at) FROM collections p
                        WHERE p.cabinet = c2.cabinet AND p.at < c2.at), '-infinity')
                   AND e.written_at <= c2.at), 0) AS cents
          FROM collections c2) books
    WHERE books.id = c.id""",
    """INSERT INTO settings_documents (id, location, version, body, edited_by, edited_at,
                                     published)
    VALUES ('route', NULL, nextval('settings_versions'), E'[game]\\nbest_of = 3\\n', 'owner',
            %(end)s - interval '21 days', 1)""",
)


def _cabinets(cabinets: int, locations: int, end: datetime) -> list[tuple[Any, ...]]:
    rows = []
    for n in range(1, cabinets + 1):
        location = 1 + (n - 1) * locations // cabinets
        popularity = 15 + (n * 2654435761 % 2**32) % 31  # 15..45 games a day, mean 30
        cutoff = end
        if n % 31 == 5:  # offline for the last day or few: nothing since
            cutoff = end - timedelta(days=n % 4, hours=3 + n % 5)
        epoch = f"{(n * 0x9E3779B97F4A7C15) % 2**64:016x}"
        rows.append((n, f"cab-{n:03d}", location, epoch, popularity, cutoff))
    return rows


def _locations(locations: int) -> list[tuple[Any, ...]]:
    rows = []
    for i in range(1, locations + 1):
        name = f"The {_ADJECTIVES[i % 10]} {_NOUNS[(i // 10 + i * 3) % 10]} {i}"
        opens, closes = ("00:00", "00:00") if i % 10 == 0 else _HOURS[i % 4]
        rows.append((i, name, opens, closes, "Europe/London"))
    return rows


def fill(
    conninfo: str,
    summaries: list[dict[str, Any]],
    *,
    cabinets: int = 500,
    locations: int = 50,
    days: int = 365,
    seed: int = 24,
    end: datetime | None = None,
    workers: int = 2,
) -> dict[str, int]:
    """Fill an empty fleet database (schema made) with ``days`` of history ending at
    ``end``; ``summaries``: real games' summaries the game events carry. Returns counts."""
    end = end or datetime.now(UTC)
    first = (end - timedelta(days=days - 1)).date()
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SET maintenance_work_mem = '512MB'; SET work_mem = '256MB'")
        conn.cursor().executemany(
            "INSERT INTO locations (id, name, opens, closes, timezone) VALUES (%s, %s, %s, %s, %s)",
            _locations(locations),
        )
        conn.execute("SELECT setval('locations_id_seq', %s)", (locations,))
        conn.execute(
            "CREATE TABLE bench_cabinets (n int, name text, location bigint, epoch text, "
            "popularity int, cutoff timestamptz)"
        )
        conn.cursor().executemany(
            "INSERT INTO bench_cabinets VALUES (%s, %s, %s, %s, %s, %s)",
            _cabinets(cabinets, locations, end),
        )
        conn.execute(
            "INSERT INTO cabinets (name, location, added_at) SELECT b.name, l.name, %s "
            "FROM bench_cabinets b JOIN locations l ON l.id = b.location",
            (datetime.combine(first, datetime.min.time(), UTC) - timedelta(days=1),),
        )
        conn.execute("CREATE TABLE bench_fame (idx int, category text, low bigint, high bigint)")
        conn.cursor().executemany(
            "INSERT INTO bench_fame VALUES (%s, %s, %s, %s)",
            [(i, *fame) for i, fame in enumerate(_FAME)],
        )
        conn.execute(_plan_sql(seed, days).encode(), {"first": first})
        conn.execute("ALTER TABLE events DROP CONSTRAINT events_pkey")
        conn.execute("DROP INDEX events_by_kind, events_by_received, events_by_written")
    stream = _STREAM.format(money=_money("s.g", "s.g % 5 = 0").replace("%", "%%"))
    specials = _SPECIALS.format(fames=len(_FAME))
    params = {"summaries": [Jsonb(s) for s in summaries], "first": first}
    _parallel(
        conninfo,
        [
            [(sql, {**params, "workers": workers, "worker": w}) for sql in (stream, specials)]
            for w in range(workers)
        ],
    )
    _parallel(conninfo, [[(sql, {}) for sql in lane] for lane in _INDEXES])
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute("SET work_mem = '256MB'")
        for statement in _AFTER:
            conn.execute(statement.encode(), {"end": end})
        conn.execute("DROP TABLE bench_plan, bench_cabinets, bench_fame")
        conn.execute("VACUUM ANALYZE")
        tables = ("events", "rollups", "presence_log", "collections")
        return {t: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in tables}  # type: ignore[index]


def _parallel(conninfo: str, lanes: list[list[tuple[str, dict[str, Any]]]]) -> None:
    """Run each lane's statements in order, the lanes at once (one connection each)."""
    errors: list[BaseException] = []

    def run(lane: list[tuple[str, dict[str, Any]]]) -> None:
        try:
            with psycopg.connect(conninfo, autocommit=True) as conn:
                conn.execute("SET maintenance_work_mem = '512MB'; SET work_mem = '128MB'")
                for statement, values in lane:
                    conn.execute(statement.encode(), values)
        except BaseException as exc:  # reported by the caller
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(lane,)) for lane in lanes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
