"""Django settings, read from the environment (see README "Settings").

The defaults are the embedded run: DEBUG on, SQLite in ``var/``, in-memory channel layer and
eager Celery. Production sets DEBUG=false, SECRET_KEY, DATABASE_URL, REDIS_URL, ALLOWED_HOSTS and
RECORD_SIGNING_KEY_FILE (on the worker). DATABASE_URL names the application's role, which may only
read and append to the record; ``migrate`` (and then ``grant_app_role``) run with the tables'
owner's URL instead (README "The record", docker-compose.yml's ``migrate`` service).
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from pathlib import Path

import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from config.env import (
    celery_from_env,
    channel_layers_from_env,
    database_from_env,
    env_bool,
    env_list,
)

# Generic classes (ModelAdmin[Casino], QuerySet[Round]) subscriptable at run time, for mypy.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool(os.environ, "DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is false: set it to a long random value, e.g. "
            "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
        )
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list(
    os.environ, "ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env_list(os.environ, "CSRF_TRUSTED_ORIGINS", default=[])

# HTTPS only when DEBUG is false (`manage.py check --deploy` is clean): plain HTTP is redirected,
# cookies are sent over HTTPS only, and browsers are told (HSTS) never to try HTTP for a year.
# Each has a switch of its Django name for a plain-HTTP run with DEBUG off (a bench on 127.0.0.1).
# Behind a proxy that ends TLS, SECURE_PROXY_SSL_HEADER names the header it sets to "https" (and
# removes from what clients send), e.g. X-Forwarded-Proto.
SECURE_SSL_REDIRECT = env_bool(os.environ, "SECURE_SSL_REDIRECT", default=not DEBUG)
SESSION_COOKIE_SECURE = env_bool(os.environ, "SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool(os.environ, "CSRF_COOKIE_SECURE", default=not DEBUG)
_hsts_seconds = os.environ.get("SECURE_HSTS_SECONDS", "").strip()
SECURE_HSTS_SECONDS = int(_hsts_seconds) if _hsts_seconds else (0 if DEBUG else 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(
    os.environ, "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG
)
SECURE_HSTS_PRELOAD = env_bool(os.environ, "SECURE_HSTS_PRELOAD", default=not DEBUG)
_proxy_header = os.environ.get("SECURE_PROXY_SSL_HEADER", "").strip()
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https") if _proxy_header else None
)

INSTALLED_APPS = [
    "daphne",
    "casino.admin_site.PolicyAdminConfig",  # Django's admin, asking casino.access
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "rest_framework",
    "drf_spectacular",
    "axes",
    "fastpath",  # the speed machinery: no models; keeps psycopg's parsed statements
    "casino",
    "tablegame",
    "pit",
    "surveillance",
    "accounting",
    "protection",
    "loadsim",
]

MIDDLEWARE = [
    # Each request's id, in its log lines and on its error page (config/request_id.py).
    "config.request_id.RequestIdMiddleware",
    # Every error answer under /api/ in JSON, those no API view gave too (config/middleware.py).
    "config.middleware.ApiAnswersJson",
    "django.middleware.security.SecurityMiddleware",
    # PostgreSQL unavailable: 503 (JSON on /api/), never a traceback; also handler500 in urls.py.
    "config.middleware.DatabaseUnavailable",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the user and their role read in the session's statement (casino/sessions.py).
    "casino.sessions.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Sessions expire when idle (SESSION_IDLE_SECONDS; casino/sessions.py).
    "casino.sessions.IdleSessionMiddleware",
    # django-axes last: the answer to a failed sign-in that locks the username out.
    "axes.middleware.AxesMiddleware",
]

# Logging to stderr (which compose collects), each line with its request's id (or its Celery
# task's): every server error with its traceback (django.request), every failed task (celery).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "config.request_id.RequestIdFilter"}},
    "formatters": {
        "line": {
            "format": "%(asctime)s %(levelname)s %(name)s [request_id=%(request_id)s] %(message)s"
        }
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id"],
            "formatter": "line",
        }
    },
    "root": {"handlers": ["stderr"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # Django's own handlers (its DEBUG-only console, mail to ADMINS) replaced by the root's.
    "loggers": {"django": {"handlers": [], "level": "INFO", "propagate": True}},
}

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.access.may",
            ],
        },
    },
]

DATABASES = {"default": database_from_env(os.environ, base_dir=BASE_DIR)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CHANNEL_LAYERS = channel_layers_from_env(os.environ)

_celery = celery_from_env(os.environ)
CELERY_BROKER_URL = _celery["broker_url"]
CELERY_RESULT_BACKEND = _celery["result_backend"]
CELERY_TASK_ALWAYS_EAGER = _celery["task_always_eager"]
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"

# The record's signed checkpoints (casino/checkpoints.py): each chain's head and the previous
# checkpoint's hash, written outside the database every RECORD_CHECKPOINT_SECONDS by Celery beat,
# signed with a key the database never holds; verify_record fails when an event, or the newest
# checkpoint, is older than RECORD_CHECKPOINT_GRACE without a checkpoint after it. In DEBUG the
# key is made under var/ on first use; otherwise RECORD_SIGNING_KEY_FILE must name one. A
# verifier without the private key reads the public one from RECORD_VERIFY_KEY_FILE.
RECORD_CHECKPOINT_DIR = os.environ.get("RECORD_CHECKPOINT_DIR") or str(
    BASE_DIR / "var" / "checkpoints"
)
RECORD_SIGNING_KEY_FILE = os.environ.get("RECORD_SIGNING_KEY_FILE") or (
    str(BASE_DIR / "var" / "record-signing-key.pem") if DEBUG else ""
)
RECORD_SIGNING_KEY_GENERATE = DEBUG
RECORD_VERIFY_KEY_FILE = os.environ.get("RECORD_VERIFY_KEY_FILE", "")
RECORD_CHECKPOINT_SECONDS = int(os.environ.get("RECORD_CHECKPOINT_SECONDS", "60"))
RECORD_CHECKPOINT_GRACE = int(
    os.environ.get("RECORD_CHECKPOINT_GRACE") or RECORD_CHECKPOINT_SECONDS + 240
)
# A dealer with no assignment may act at no table (tablegame/dealers.py): the floor assigns them
# first. Off (a house that does not record assignments), only an assigned dealer is tied to
# their table and an unassigned one acts at any table with no dealer assigned.
DEALERS_ACT_ONLY_WHERE_ASSIGNED = env_bool(
    os.environ, "DEALERS_ACT_ONLY_WHERE_ASSIGNED", default=True
)
PIT_ALERT_SECONDS = float(os.environ.get("PIT_ALERT_SECONDS", "60"))
CELERY_BEAT_SCHEDULE = {
    "checkpoint-the-record": {
        "task": "casino.tasks.checkpoint_record",
        "schedule": float(RECORD_CHECKPOINT_SECONDS),
    },
    # The pit's watch: alerts for what at a table needs a supervisor (pit/alerts.py).
    "watch-the-tables": {"task": "pit.tasks.watch_tables", "schedule": PIT_ALERT_SECONDS},
    # Sessions past their expiry, deleted (casino/sessions.py).
    "clear-expired-sessions": {"task": "casino.tasks.clear_expired_sessions", "schedule": 3600.0},
    # Accounting: close each gaming day once it is due (accounting.services.days_due).
    "close-gaming-days": {"task": "accounting.tasks.close_gaming_days", "schedule": 900.0},
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Username and password, refused while the username is locked out after
# SIGN_IN_FAILURES_BEFORE_LOCKOUT failures within SIGN_IN_LOCKOUT_SECONDS: django-axes
# (casino/signin.py).
AUTHENTICATION_BACKENDS = [
    "casino.signin.SignInBackend",  # axes: refused while locked out
    "django.contrib.auth.backends.ModelBackend",  # the password
]
SIGN_IN_FAILURES_BEFORE_LOCKOUT = 5
SIGN_IN_LOCKOUT_SECONDS = 15 * 60
AXES_FAILURE_LIMIT = SIGN_IN_FAILURES_BEFORE_LOCKOUT
AXES_COOLOFF_TIME = datetime.timedelta(seconds=SIGN_IN_LOCKOUT_SECONDS)
AXES_LOCKOUT_PARAMETERS = "casino.signin.lockout_parameters"  # a username at one address
AXES_HANDLER = "casino.signin.SignInHandler"  # and an address, whatever the usernames
AXES_CLIENT_IP_CALLABLE = "casino.signin.client_address"
SIGN_IN_FAILURES_PER_ADDRESS = 20
# Refused approvals at a tablet (tablegame/api/approvals.py), counted apart from sign-ins.
APPROVAL_REFUSALS_BEFORE_LOCKOUT = 10
# The proxies whose X-Forwarded-For / X-Real-IP name the client (deploy/nginx.conf): addresses or
# networks, comma-separated; by default the machine itself. Any other peer is the client.
try:
    TRUSTED_PROXIES = [
        ipaddress.ip_network(entry, strict=False)
        for entry in env_list(os.environ, "TRUSTED_PROXIES", default=["127.0.0.1", "::1"])
    ]
except ValueError as error:
    raise ImproperlyConfigured(f"TRUSTED_PROXIES: not an address or network ({error})") from error
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "casino.signin.lockout_page"
AXES_VERBOSE = False
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # every failed sign-in, kept (the last 1,000 per user)
# Django's database sessions, each row naming its user (casino/sessions.py).
SESSION_ENGINE = "casino.sessions"
# A session ends after this long without a request (casino/sessions.py).
SESSION_IDLE_SECONDS = int(os.environ.get("SESSION_IDLE_SECONDS", str(30 * 60)))
SESSION_COOKIE_AGE = SESSION_IDLE_SECONDS
# An API token stops working this long after it was issued (tablegame/api/tokens.py).
API_TOKEN_DAYS = int(os.environ.get("API_TOKEN_DAYS", "30"))
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/login/"

LANGUAGE_CODE = "en-us"
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # Token first: a request without credentials is answered 401 with "WWW-Authenticate: Token".
    # Tokens: `python manage.py issue_token USERNAME` (kept hashed, expiring; revoked in /admin/).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "tablegame.api.tokens.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "tablegame.api.errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Baccarat tables API",
    "DESCRIPTION": "Live table management for casino baccarat.",
    "VERSION": "0.1.0",
    "ENUM_NAME_OVERRIDES": {
        "WagerTypeEnum": "tablegame.api.serializers.WAGER_TYPES",
        "RideEnum": "tablegame.api.serializers.RIDES",
    },
}
