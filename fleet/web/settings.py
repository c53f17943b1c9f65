"""The web application's Django settings, read from the fleet's folder.

``SPIT_FLEET_DIR`` names the folder (default ``/var/lib/spit-fleet``); its ``fleet.json``
gives the database (libpq's connection string, turned into Django's ``DATABASES``) and
the host names the pages are served under. The secret key is the folder's
``web.secret``, made (mode 0600) the first time the application starts.

Read from the environment as well:

- ``SPIT_FLEET_WEB_HOSTS``: more host names, comma-separated (the reverse proxy's name).
- ``SPIT_FLEET_WEB_HTTPS=1``: the pages are served over HTTPS by a reverse proxy that
  sets ``X-Forwarded-Proto``: cookies are then sent over HTTPS only, and HSTS is on.
- ``SPIT_FLEET_WEB_PROXIES``: how many proxies stand in front (their ``X-Forwarded-For``
  is trusted that far when login failures are counted per address; default 0).

Without a fleet in the folder the settings still import (the type checker reads them),
but with no database and no secret key: ``spit-fleet web`` refuses to start then.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from psycopg.conninfo import conninfo_to_dict

from fleet.broker import FleetConfig, FleetError, write_private

FLEET_DIR = Path(os.environ.get("SPIT_FLEET_DIR", "/var/lib/spit-fleet"))
SECRET_FILE = "web.secret"
HTTPS = os.environ.get("SPIT_FLEET_WEB_HTTPS", "") == "1"


def database(conninfo: str) -> dict[str, Any]:
    """Django's ``DATABASES["default"]`` for libpq's connection string ``conninfo``.

    The pages' queries run with PostgreSQL's JIT compiler off: on a year of a route its
    cost estimates call for it, and compiling took 343 ms of a route table's 416 (the
    query itself ran in about 20 ms).

    >>> d = database("host=db port=5433 dbname=fleet user=spit sslmode=require")
    >>> d["NAME"], d["HOST"], d["PORT"], d["USER"], d["OPTIONS"]
    ('fleet', 'db', '5433', 'spit', {'sslmode': 'require', 'options': '-c jit=off'})
    >>> database("dbname=fleet options='-c work_mem=8MB'")["OPTIONS"]["options"]
    '-c work_mem=8MB -c jit=off'
    """
    params = {k: str(v) for k, v in conninfo_to_dict(conninfo).items() if v is not None}
    params["options"] = " ".join(filter(None, (params.get("options", ""), "-c jit=off")))
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": params.pop("dbname", ""),
        "USER": params.pop("user", ""),
        "PASSWORD": params.pop("password", ""),
        "HOST": params.pop("host", ""),
        "PORT": params.pop("port", ""),
        "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": params,
    }


def secret_key(folder: Path) -> str:
    """The folder's secret key, made on first use (readable by its owner only)."""
    path = folder / SECRET_FILE
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        write_private(path, secrets.token_urlsafe(50) + "\n", 0o600)
        return path.read_text().strip()


try:
    _config: FleetConfig | None = FleetConfig.load(FLEET_DIR)
except FleetError:
    _config = None

if _config is not None:
    SECRET_KEY = secret_key(FLEET_DIR)
    DATABASES = {"default": database(_config.database)}
    _hosts = list(_config.hosts)
else:  # no fleet here: importable, unusable
    SECRET_KEY = ""
    DATABASES = {}
    _hosts = []

DEBUG = False
ALLOWED_HOSTS = [
    *_hosts,
    *(h.strip() for h in os.environ.get("SPIT_FLEET_WEB_HOSTS", "").split(",") if h.strip()),
    "localhost",
    "127.0.0.1",
    "[::1]",
]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    "fleet.web.apps.WebConfig",
]

MIDDLEWARE = [
    "fleet.web.middleware.ServerTiming",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "fleet.web.middleware.SecurityHeaders",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "fleet.web.middleware.RoleGate",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "fleet.web.urls"
WSGI_APPLICATION = "fleet.web.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "fleet.web.roles.context",
            ]
        },
    }
]

# Accounts: argon2 first; logins rate-limited by django-axes, per user name and address.
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25  # hours: a quarter of an hour
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "web/locked_out.html"
AXES_IPWARE_PROXY_COUNT = int(os.environ.get("SPIT_FLEET_WEB_PROXIES", "0")) or None
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "route"
LOGOUT_REDIRECT_URL = "login"
OTP_TOTP_ISSUER = _config.name if _config is not None else "Spit fleet"

# Sessions: twelve hours at most, ended when the browser closes.
SESSION_COOKIE_AGE = 12 * 60 * 60
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 365 * 24 * 60 * 60
    CSRF_TRUSTED_ORIGINS = [f"https://{h}" for h in ALLOWED_HOSTS]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

STATIC_URL = "/static/"
# Served by WhiteNoise straight from the installed package (no collectstatic, no
# STATIC_ROOT).
STATIC_ROOT = None
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = False
WHITENOISE_MAX_AGE = 24 * 60 * 60

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
