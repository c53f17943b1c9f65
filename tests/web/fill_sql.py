"""The SQL that makes a route's history (:mod:`tests.web.fill`), in PostgreSQL itself:
``INSERT … SELECT`` over ``generate_series``, from the tables ``fill_cabinets`` (the
route's cabinets: ``n``, ``name``, ``location``, ``epoch``, ``popularity``, ``cutoff``,
``fault_open``) and ``fill_fame`` (:data:`FAME`), through ``fill_plan``
(:func:`plan_sql`). Every choice is a hash of the seed and the row
(``hashint8extended``)."""

from __future__ import annotations

#: The hall-of-fame categories the ``fame`` events are in, with the range of their figures.
FAME = (
    ("fastest_win_cpu_1", 30_000, 150_000),
    ("fastest_win_cpu_3", 35_000, 160_000),
    ("fastest_win_cpu_5", 40_000, 200_000),
    ("fastest_two_player_win", 30_000, 180_000),
    ("longest_streak", 2, 15),
    ("closest_race_won", 1_000_000, 200_000_000),
    ("most_plays", 30, 90),
)


def _uniform(seed: int, salt: int, what: str) -> str:
    """SQL for a uniform [0, 1) of ``what`` (a bigint expression), seeded."""
    return f"((hashint8extended(({what}) * 16 + {salt}, {seed}) & 1073741823)::float8 / 1073741824)"


def plan_sql(seed: int, days: int) -> str:
    """``fill_plan``: a row per cabinet and day, what happens that day (its games, its
    heartbeats, which of the day's other events), and where its ``seq`` begins."""
    key = "(c.n::bigint * 100000 + d)"
    return f"""
CREATE TABLE fill_plan AS
WITH days AS (
    SELECT c.n, c.name, c.epoch, c.popularity, c.cutoff, d AS dn, (%(first)s::date + d) AS day,
           c.fault_open AND d = {days} - 1 AS left_open,
           l.opens, l.closes, l.timezone,
           {_uniform(seed, 1, key)} AS u_games, {_uniform(seed, 2, key)} AS u_off,
           {_uniform(seed, 3, key)} AS u_fault, {_uniform(seed, 4, key)} AS u_fame,
           {_uniform(seed, 5, key)} AS u_door, {_uniform(seed, 6, key)} AS u_kind
    FROM fill_cabinets c JOIN locations l ON l.id = c.location,
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
        (NOT idle AND u_fault < 1.0 / 45 OR left_open)::int AS fault,
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
    FROM fill_plan p
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
    FROM fill_plan p
    CROSS JOIN LATERAL (SELECT (ARRAY['light_board_lost', 'coin_line_held_low',
                                      'missing_switch'])[1 + p.n %% 3] AS fault,
                               (ARRAY['{{}}', '{{"mech": 1}}', '{{"button": "p1_left",
                                      "games": 10}}'])[1 + p.n %% 3]::jsonb AS extra) f
    CROSS JOIN LATERAL (SELECT (p.games_before + p.games) / 5 AS two,
                               (p.games_before + p.games) - (p.games_before + p.games) / 5
                                   AS vs_cpu,
                               100 * (p.games_before + p.games)
                                   + 100 * ((p.games_before + p.games) / 5) AS cents) a
    CROSS JOIN LATERAL (SELECT category, low, high FROM fill_fame
                        WHERE idx = (p.n + p.dn) %% {fames}) m
    CROSS JOIN LATERAL (
        SELECT kind, body, (row_number() OVER (ORDER BY idx) - 1) AS rank
        FROM (VALUES
            (1, p.fault = 1, 'fault', jsonb_build_object('fault', f.fault, 'state', 'raised')
                                       || f.extra),
            (2, p.fault = 1 AND NOT p.left_open, 'fault', jsonb_build_object('fault', f.fault,
                                       'state', 'cleared') || f.extra),
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

#: The events' indexes, made again after the rows (two lanes, at once).
INDEXES = (
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

#: What follows from the events: rollups, progress, presence, collections, a settings
#: document.
AFTER = (
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
        SELECT p.name, s.state, s.at, p.cutoff FROM fill_plan p
        CROSS JOIN LATERAL (VALUES ('online', p.opens_at - interval '5 minutes'),
                                   ('offline', p.closes_at + interval '5 minutes')) s(state, at)
        WHERE NOT p.idle AND (s.state = 'online' OR p.closes <> p.opens)
        UNION ALL
        SELECT name, 'offline', cutoff, cutoff FROM fill_cabinets WHERE cutoff < %(end)s
    ) x WHERE at <= cutoff ORDER BY at""",
    """INSERT INTO presence (cabinet, state, version, faults, at)
    SELECT DISTINCT ON (cabinet) cabinet, state, '0.9.0', '{}', at FROM presence_log
    WHERE at <= now() ORDER BY cabinet, at DESC, id DESC""",
    # Collections: the door opened, the cash counted 30 s later.
    """INSERT INTO collections (cabinet, at, counted_cents, entered_by, note)
    SELECT name, stream_to + (2 * fault + fame + doctor + settings + 1) * interval '1 minute'
                 + interval '30 seconds', 0, 'collector', ''
    FROM fill_plan WHERE collection
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


#: Each cabinet's games, money and heartbeats through its days (the cabinets in
#: ``%(workers)s`` lanes, this statement lane ``%(worker)s``'s).
STREAM = _STREAM.format(money=_money("s.g", "s.g % 5 = 0").replace("%", "%%"))
#: The rest of each cabinet's day, at its end (the same lanes).
SPECIALS = _SPECIALS.format(fames=len(FAME))
