"""The fleet's own SQL from the web application: the psycopg 3 connection under
Django's, for :mod:`fleet.store` and its neighbours and the pages' queries (every one
parameterised).

Django loads ``jsonb`` as text on its connections (its ``JSONField`` parses it itself);
the fleet's functions expect what psycopg gives elsewhere, so the connection handed out
here loads ``jsonb`` as Python values again (no model of this application has a
``JSONField``).
"""

from __future__ import annotations

from typing import Any, cast

import psycopg
from django.db import connection
from psycopg.types.json import JsonbLoader, JsonLoader


def fleet_connection() -> psycopg.Connection[Any]:
    """The request's database connection, as psycopg's: autocommit (Django's), so a
    function that wants a transaction opens one (``with conn.transaction()``)."""
    connection.ensure_connection()
    conn = cast(psycopg.Connection[Any], connection.connection)
    if not getattr(conn, "_fleet_json", False):
        conn.adapters.register_loader("jsonb", JsonbLoader)
        conn.adapters.register_loader("json", JsonLoader)
        conn._fleet_json = True  # type: ignore[attr-defined]
    return conn
