"""A route's history made up in the database at once (set-based SQL), for the pages'
speed tests and the bench: ``cabinets`` cabinets at ``cabinets // 12 + 1`` locations,
``days`` days of rollups and of events (money, games, health, audits; faults raised and
cleared, a few left open; fame entries), presence and its log, and a collection every
fortnight, counted as the books say (one in five a coin short). The events agree with
the rollups (each money event is one 1.00 coin) and are all acknowledged (progress).

Every number is a function of the cabinet's index and the day, so a fill is the same
every time."""

from __future__ import annotations

from typing import Any

import psycopg

_CABINETS = """
INSERT INTO cabinets (name, location, added_at)
SELECT format('cab-%%s', lpad(i::text, 4, '0')), format('Venue %%s', i %% (%(n)s / 12 + 1)),
       now() - make_interval(days => %(days)s + 1)
FROM generate_series(1, %(n)s) i;
INSERT INTO locations (name) SELECT DISTINCT location FROM cabinets ON CONFLICT DO NOTHING;
"""

_DAYS = """
CREATE TEMP TABLE fill_days ON COMMIT DROP AS
SELECT c.name AS cabinet, c.i, d, (current_date - d) AS day,
       ((c.i * 7 + d * 3) %% %(money)s) + 1 AS coins,
       ((c.i * 5 + d) %% %(games)s) + 1 AS games
FROM (SELECT name, row_number() OVER (ORDER BY name) AS i FROM cabinets) c,
     generate_series(0, %(days)s - 1) d;
INSERT INTO rollups (cabinet, period, start, games, earnings_cents, coins)
SELECT cabinet, 'day', day, games, coins * 100, coins FROM fill_days;
INSERT INTO rollups (cabinet, period, start, games, earnings_cents, coins)
SELECT cabinet, 'week', date_trunc('week', day)::date, sum(games), sum(coins) * 100, sum(coins)
FROM fill_days GROUP BY cabinet, date_trunc('week', day)::date;
CREATE TEMP TABLE fill_events ON COMMIT DROP AS
SELECT cabinet, day, d, i, kind, n, (day + make_interval(hours => 10, mins => n::int)) AS at, body
FROM (
    SELECT f.*, 'money' AS kind, n,
           jsonb_build_object('counts', jsonb_build_object('money.earnings_cents', 100),
                              'counted', jsonb_build_object('earnings_cents', 100,
                                                            'coins1', 1, 'coins2', 0)) AS body
    FROM fill_days f, generate_series(1, f.coins) n
    UNION ALL
    SELECT f.*, 'game', 100 + n, jsonb_build_object(
        'game', d * 100 + n, 'seats', jsonb_build_array('cpu', 'cpu'),
        'record_sha256',
        md5(f.cabinet || d::text || n::text) || md5(d::text || n::text || f.cabinet),
        'summary', jsonb_build_object(
            'finished', true, 'winner', n %% 2, 'draw', false,
            'closest_race', jsonb_build_object('margin_ns', 1000000 * (1 + (i + n) %% 40),
                                               'winner', n %% 2, 't_ns', 5000000000,
                                               'pile', n %% 2)))
    FROM fill_days f, generate_series(1, f.games) n
    UNION ALL
    SELECT f.*, 'health', 300, jsonb_build_object(
        'version', '1.' || (i %% 3)::text, 'uptime_s', 3600 * (d %% 24),
        'table_restarts', d %% 3, 'rollbacks', (d / 30) %% 2, 'led_link_drops', (i + d) %% 4)
    FROM fill_days f
    UNION ALL
    SELECT f.*, 'audits', 301, jsonb_build_object('counters', jsonb_build_object(
        'money.earnings_cents', jsonb_build_array(coins * 100, (%(days)s - d) * 300),
        'games.played', jsonb_build_array(games, (%(days)s - d) * 3)), 'cleared', false)
    FROM fill_days f WHERE d %% 7 = 0
    UNION ALL
    SELECT f.*, 'fault', 302, jsonb_build_object(
        'fault', (ARRAY['coin_jam', 'led_link', 'table_hang'])[1 + i %% 3],
        'state', CASE WHEN d %% 30 = 0 THEN 'raised' ELSE 'cleared' END)
    FROM fill_days f WHERE d %% 30 IN (0, 29) AND (d > 0 OR i %% 10 = 0)
    UNION ALL
    SELECT f.*, 'fame', 303, jsonb_build_object(
        'entry', d, 'category',
        (ARRAY['fastest_two_player_win', 'longest_streak'])[1 + d %% 2],
        'initials', chr((65 + i %% 26)::int) || chr((65 + d %% 26)::int) || 'Z',
        'figure', 1000 + (i * d) %% 9000, 'date', day::text)
    FROM fill_days f WHERE d %% 20 = 0
) e;
"""

_EVENTS = """
INSERT INTO events (cabinet, epoch, seq, kind, cabinet_at, synced, received_at, body, written_at)
SELECT cabinet, 'fill', row_number() OVER (PARTITION BY cabinet ORDER BY at, kind, n),
       kind, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), true, at, body, at
FROM fill_events;
INSERT INTO progress (cabinet, epoch, through)
SELECT cabinet, epoch, max(seq) FROM events WHERE epoch = 'fill' GROUP BY cabinet, epoch;
INSERT INTO collections (cabinet, at, counted_cents, entered_by)
SELECT f.cabinet, f.day + interval '9 hours',
       (SELECT coalesce(sum(b.coins), 0) * 100 FROM fill_days b
        WHERE b.cabinet = f.cabinet AND b.d BETWEEN f.d + 1 AND f.d + 14)
       - CASE WHEN (f.i + f.d) %% 5 = 0 THEN 100 ELSE 0 END, 'fill'
FROM fill_days f WHERE f.d %% 14 = 3;
INSERT INTO presence_log (cabinet, state, at)
SELECT cabinet, s, day + make_interval(hours => h::int)
FROM fill_days, LATERAL (VALUES ('offline', 2), ('online', 6)) v(s, h) WHERE d %% 3 = 0;
INSERT INTO presence (cabinet, state, version, faults, at)
SELECT name, CASE WHEN i %% 17 = 0 THEN 'offline' ELSE 'online' END, '1.' || (i %% 3)::text, '{}',
       now() - make_interval(mins => i::int)
FROM (SELECT name, row_number() OVER (ORDER BY name) AS i FROM cabinets) c
ON CONFLICT (cabinet) DO NOTHING;
ANALYZE;
"""


def fill_route(
    conn: psycopg.Connection[Any],
    cabinets: int = 500,
    days: int = 365,
    *,
    money: int = 3,
    games: int = 3,
) -> None:
    """Fill an empty fleet database: up to ``money`` coins and ``games`` games a cabinet a
    day (at least one of each)."""
    params = {"n": cabinets, "days": days, "money": money, "games": games}
    with conn.transaction():
        for script in (_CABINETS, _DAYS, _EVENTS):
            for statement in script.split(";\n"):
                if statement.strip():
                    conn.execute(statement, params)
    conn.commit()
